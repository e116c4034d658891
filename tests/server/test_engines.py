"""Bot engines the operator offers: configured and chosen by name, run by the server."""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from splendor import GameRecord, InvalidArgumentError
from splendor.formats.record import Forfeit
from splendor.formats.serialization import from_json
from splendor.server import build_parser, create_app, server_options
from splendor.server.engines import check_engines
from splendor.server.limits import Limits
from tests.remote._engines import engine_children
from tests.server import engine_bots

RECORDER = "tests.server.engine_bots:Recorder"
FAILING = "tests.server.engine_bots:Failing"


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    engine_bots.MADE.clear()
    yield
    engine_bots.MADE.clear()


def app(db: Path, engines: dict[str, str] | None = None, **limits: Any) -> TestClient:
    """A client of a server with the recording and failing engines (or ``engines``)."""
    return TestClient(
        create_app(
            db,
            bot_delay=0,
            allow_seeds=True,
            limits=Limits(max_bot_tables=2, **limits),
            engines={"mine": RECORDER, "broken": FAILING} if engines is None else engines,
        )
    )


def bot_moved_first(client: TestClient, bot: str, seconds: float) -> None:
    """Open a table of ``bot`` (seat 0) and a person; wait at most ``seconds`` for its move."""
    seats = [{"kind": "bot", "bot": bot}, {"kind": "person"}]
    body: dict[str, Any] = client.post("/api/tables", json={"seats": seats, "seed": 3}).json()
    deadline = time.monotonic() + seconds
    while client.get(f"/api/tables/{body['table']}").json()["version"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def wait_over(client: TestClient, table: str, seconds: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if summary["over"]:
            return summary
        time.sleep(0.02)
    raise AssertionError(f"table {table} did not finish")


def test_the_lobby_is_offered_the_configured_names_only(tmp_path: Path) -> None:
    with app(tmp_path / "g.db") as client:
        assert client.get("/api/bots").json()["engines"] == ["broken", "mine"]
    with TestClient(create_app(tmp_path / "h.db")) as plain:
        assert plain.get("/api/bots").json()["engines"] == []


def test_a_configured_engine_plays_a_whole_game_and_is_closed_at_its_end(tmp_path: Path) -> None:
    with app(tmp_path / "g.db") as client:
        seats = [{"kind": "bot", "bot": "mine"}, {"kind": "bot", "bot": "greedy"}]
        response = client.post("/api/tables", json={"seats": seats, "seed": 3})
        assert response.status_code == 201, response.text
        assert response.json()["seats"][0]["name"] == "mine bot"
        summary = wait_over(client, response.json()["table"])
        assert summary["version"] > 20
        deadline = time.monotonic() + 5
        while not all(bot.closed for bot in engine_bots.MADE) and time.monotonic() < deadline:
            time.sleep(0.01)
        (engine,) = engine_bots.MADE
        assert engine.closed
        assert engine.moves == (summary["version"] + 1) // 2


def test_the_server_ends_its_engines_when_it_stops(tmp_path: Path) -> None:
    with app(tmp_path / "g.db") as client:
        bot_moved_first(client, "mine", 10.0)
        (engine,) = engine_bots.MADE
        assert not engine.closed  # it waits for the person's move
    assert engine.closed


def test_a_failing_engine_is_ended_and_its_seat_forfeits(tmp_path: Path) -> None:
    with app(tmp_path / "g.db", max_moves=12) as client:
        seats = [{"kind": "bot", "bot": "broken"}, {"kind": "bot", "bot": "greedy"}]
        body = client.post("/api/tables", json={"seats": seats, "seed": 3}).json()
        summary = wait_over(client, body["table"])
        record = from_json(client.get(f"/api/tables/{body['table']}/record").text, GameRecord)
    # Its first move failed: the game ends there, the forfeit stored as one more version.
    assert summary["version"] == 1
    assert record.actions == ()
    assert record.forfeit == Forfeit(0, "crash", "RuntimeError: the engine died")
    assert record.result == (1,)
    (engine,) = engine_bots.MADE
    assert engine.closed
    assert engine.moves == 1


def open_table(client: TestClient, seats: list[dict[str, str]]) -> tuple[str, str]:
    """Open a table of ``seats``, a person's first: its id and the person's secret."""
    body = client.post("/api/tables", json={"seats": seats, "seed": 3}).json()
    return str(body["table"]), str(body["seats"][0]["secret"])


def person_moves_first(client: TestClient, table: str, secret: str) -> None:
    """Play the first legal move of the person at seat 0 of ``table``; wait for it to be played."""
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": secret}))
        state = ws.receive_json()
        move = {"type": "move", "version": 0, "action": state["legal"][0]}
        ws.send_text(json.dumps(move))
        while state["type"] != "state" or state["version"] < 1:
            state = ws.receive_json()


def test_a_forfeit_is_kept_and_told_after_the_server_restarts(tmp_path: Path) -> None:
    with app(tmp_path / "g.db") as client:
        table, secret = open_table(client, [{"kind": "person"}, {"kind": "bot", "bot": "broken"}])
        person_moves_first(client, table, secret)
        wait_over(client, table)
    with app(tmp_path / "g.db") as client:
        assert client.get(f"/api/tables/{table}").json()["version"] == 2
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "watch"}))
            state = ws.receive_json()
        record = from_json(client.get(f"/api/tables/{table}/record").text, GameRecord)
    assert state["over"] is True
    assert state["result"]["winners"] == [0]
    assert state["result"]["reason"] == "forfeit"
    assert state["result"]["forfeit"] == {
        "seat": 1,
        "reason": "crash",
        "detail": "RuntimeError: the engine died",
    }
    assert state["legal"] == []
    assert len(record.actions) == 1
    assert record.forfeit == Forfeit(1, "crash", "RuntimeError: the engine died")


def test_a_bot_the_server_no_longer_offers_forfeits(tmp_path: Path) -> None:
    with app(tmp_path / "g.db", engines={"gone": RECORDER}) as client:
        table, secret = open_table(client, [{"kind": "person"}, {"kind": "bot", "bot": "gone"}])
    with app(tmp_path / "g.db") as client:
        person_moves_first(client, table, secret)
        wait_over(client, table)
        record = from_json(client.get(f"/api/tables/{table}/record").text, GameRecord)
    assert record.forfeit is not None
    assert (record.forfeit.seat, record.forfeit.reason) == (1, "crash")
    assert "this server has no bot 'gone'" in record.forfeit.detail
    assert engine_bots.MADE == []


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "bot", "bot": "engine:python -c 'print(1)'"},
        {"kind": "bot", "bot": RECORDER},
        {"kind": "bot", "bot": "theirs"},
        {"kind": "engine", "bot": "mine"},
        {"kind": "bot", "bot": "mine", "command": "./evil"},
    ],
)
def test_a_command_or_an_unknown_name_from_a_client_is_refused(
    tmp_path: Path, seat: dict[str, str]
) -> None:
    with app(tmp_path / "g.db") as client:
        response = client.post("/api/tables", json={"seats": [{"kind": "person"}, seat]})
        assert response.status_code == 400
        assert response.json()["error"] == "bad_request"
    assert engine_bots.MADE == []


def test_the_refusal_names_what_may_be_chosen(tmp_path: Path) -> None:
    with app(tmp_path / "g.db") as client:
        seats = [{"kind": "person"}, {"kind": "bot", "bot": "theirs"}]
        message = client.post("/api/tables", json={"seats": seats}).json()["message"]
    assert message == (
        "seat 2: bot must be one of broken, greedy, ismcts, mine, random, search "
        "or level:1 to level:9"
    )


def test_tables_with_an_engine_are_bounded(tmp_path: Path) -> None:
    with app(tmp_path / "g.db", max_engine_tables=1) as client:
        seats = [{"kind": "person"}, {"kind": "bot", "bot": "mine"}]
        assert client.post("/api/tables", json={"seats": seats}).status_code == 201
        refused = client.post("/api/tables", json={"seats": seats})
        assert refused.status_code == 503
        assert "with an engine" in refused.json()["message"]
        greedy = [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]
        assert client.post("/api/tables", json={"seats": greedy}).status_code == 201


@pytest.mark.parametrize(
    ("engines", "message"),
    [
        ({"greedy": "engine:./x"}, "a built-in bot's"),
        ({"no spaces": "engine:./x"}, "must be 1 to 24"),
        ({"": "engine:./x"}, "must be 1 to 24"),
        ({"x" * 25: "engine:./x"}, "must be 1 to 24"),
        ({"ok": ""}, "needs a bot spec"),
        ({"ok": 3}, "needs a bot spec"),
    ],
)
def test_bad_engine_settings_are_refused(engines: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        check_engines(engines)
    with pytest.raises(InvalidArgumentError, match=message):
        create_app(":memory:", engines=engines)


def test_the_command_line_sets_the_engines_and_their_time() -> None:
    args = build_parser().parse_args(
        ["--engine", "mine=engine:./mybot --fast", "--engine", "b=greedy", "--engine-time", "0.5"]
    )
    options = server_options(args)
    assert options["engines"] == {"mine": "engine:./mybot --fast", "b": "greedy"}
    assert options["limits"].engine_time == 0.5
    twice = build_parser().parse_args(["--engine", "a=greedy", "--engine", "a=random"])
    with pytest.raises(InvalidArgumentError, match="given twice"):
        server_options(twice)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--engine", "nospec"])


def test_splendor_serve_refuses_an_engine_that_does_not_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from splendor.cli import main

    code = main(["serve", "--db", str(tmp_path / "g.db"), "--engine", "x=nomodule:Bot"])
    assert code == 2
    assert "--engine x: cannot import 'nomodule'" in capsys.readouterr().err


# Real engine processes ------------------------------------------------------


PYTHON_ENGINE = f"engine:{shlex.quote(sys.executable)} -m splendor engine"


def real_app(db: Path, **limits: Any) -> TestClient:
    """A client of a server whose engines are real ``splendor engine`` processes."""
    engines = {
        "py": f"{PYTHON_ENGINE} greedy",
        "slow": f"{PYTHON_ENGINE} tests.server.engine_bots:Sleepy",
    }
    return app(db, engines, **limits)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_engine_process_plays_and_is_gone_when_the_game_ends(tmp_path: Path) -> None:
    assert engine_children() == []
    with real_app(tmp_path / "g.db") as client:
        bot_moved_first(client, "py", 20.0)
        assert len(engine_children()) == 1  # it waits for the person's move
        seats = [{"kind": "bot", "bot": "py"}, {"kind": "bot", "bot": "greedy"}]
        played = client.post("/api/tables", json={"seats": seats, "seed": 4}).json()
        summary = wait_over(client, played["table"])
        assert summary["version"] > 20
        deadline = time.monotonic() + 10
        while len(engine_children()) > 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(engine_children()) == 1  # the finished game's engine is gone
    assert engine_children() == []  # and the waiting one, with the server


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_engine_over_its_time_is_killed_and_its_seat_forfeits(tmp_path: Path) -> None:
    with real_app(tmp_path / "g.db", engine_time=0.2, max_moves=4) as client:
        seats = [{"kind": "bot", "bot": "slow"}, {"kind": "bot", "bot": "greedy"}]
        started = time.monotonic()
        body = client.post("/api/tables", json={"seats": seats, "seed": 3}).json()
        summary = wait_over(client, body["table"], seconds=60)
        took = time.monotonic() - started
        record = from_json(client.get(f"/api/tables/{body['table']}/record").text, GameRecord)
        assert summary["version"] == 1
        assert record.forfeit is not None
        assert (record.forfeit.seat, record.forfeit.reason) == (0, "timeout")
        # Its move was ended after its time and the grace, not after the 30 s
        # it would sleep.
        assert took < 15
        deadline = time.monotonic() + 10
        while engine_children() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert engine_children() == []
