"""The levels in the web server: listed for the lobby, seated by name, refused when unknown."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from splendor.players.levels import LEVELS
from splendor.server import create_app
from splendor.server.limits import Limits

STATIC = Path(__file__).resolve().parents[2] / "src/splendor/server/static"


def app(db: Path) -> TestClient:
    return TestClient(
        create_app(db, bot_delay=0, allow_seeds=True, limits=Limits(max_bot_tables=1))
    )


def test_the_lobby_is_offered_every_level_weakest_first(tmp_path: Path) -> None:
    with app(tmp_path / "g.db") as client:
        offered = client.get("/api/bots").json()
    assert offered["levels"] == [
        {"bot": f"level:{level.number}", "number": level.number, "name": level.name}
        | {"about": level.about}
        for level in LEVELS
    ]
    # The lobby builds its seat choices from that list, as "bot:level:N" options.
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    assert "levels.map((level) => [`bot:${level.bot}`" in script
    assert "bots.levels" in script


def test_a_level_takes_a_seat_and_plays(tmp_path: Path) -> None:
    seats = [{"kind": "bot", "bot": "level:6"}, {"kind": "bot", "bot": "level:2", "name": "Bo"}]
    with app(tmp_path / "g.db") as client:
        response = client.post("/api/tables", json={"seats": seats, "seed": 3})
        assert response.status_code == 201, response.text
        answer = response.json()
        assert [(seat["name"], seat["bot"]) for seat in answer["seats"]] == [
            ("Level 6 bot", "level:6"),
            ("Bo", "level:2"),
        ]
        table = answer["table"]
        deadline = time.monotonic() + 60
        summary: dict[str, Any] = {}
        while time.monotonic() < deadline:
            summary = client.get(f"/api/tables/{table}").json()
            if summary["over"]:
                break
            time.sleep(0.05)
        assert summary["over"], summary
        record = json.loads(client.get(f"/api/tables/{table}/record").text)
    # Level 6 (a search) beats level 2 (mostly random) on this deal.
    assert record["result"]["winners"] == [0]


@pytest.mark.parametrize("bot", ["level:0", "level:99", "level:x", "level:", "level: 1"])
def test_a_level_that_does_not_exist_is_refused(tmp_path: Path, bot: str) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "bot": bot}]
    with app(tmp_path / "g.db") as client:
        response = client.post("/api/tables", json={"seats": seats})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "bad_request"
    assert (
        "seat 2: bot must be one of greedy, ismcts, random, search "
        f"or level:1 to level:{len(LEVELS)}" in (body["message"])
    )
