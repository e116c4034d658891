"""What a hostile web client cannot do: other sites, floods of connections, tables and seats."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from splendor.server import create_app
from splendor.server.hub import Hub
from splendor.server.limits import Limits, RateLimitFilter
from splendor.server.store import Store
from splendor.server.table import MAX_QUEUE

PEOPLE = {"seats": [{"kind": "person"}, {"kind": "person"}]}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def serve(db: Path, **options: Any) -> TestClient:
    return TestClient(create_app(db, bot_delay=0, **options))


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with serve(db) as test_client:
        yield test_client


def watch(ws: WebSocketTestSession) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "watch"}))
    message: dict[str, Any] = ws.receive_json()
    return message


# Other sites ------------------------------------------------------------------


def test_a_table_request_must_be_json(client: TestClient) -> None:
    text = client.post(
        "/api/tables", content=json.dumps(PEOPLE), headers={"Content-Type": "text/plain"}
    )
    assert text.status_code == 415
    assert text.json()["error"] == "unsupported_media_type"
    bare = client.post("/api/tables", content=json.dumps(PEOPLE))
    assert bare.status_code == 415
    typed = client.post(
        "/api/tables",
        content=json.dumps(PEOPLE),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert typed.status_code == 201


def test_another_sites_page_cannot_open_a_table(client: TestClient) -> None:
    evil = client.post(
        "/api/tables",
        content=json.dumps(PEOPLE),
        headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
    )
    assert evil.status_code in (403, 415)
    evil_json = client.post("/api/tables", json=PEOPLE, headers={"Origin": "http://evil.example"})
    assert evil_json.status_code == 403
    assert evil_json.json()["error"] == "cross_origin"
    for origin in ("null", "http://testserver.evil.example", "http://testserver:81"):
        refused = client.post("/api/tables", json=PEOPLE, headers={"Origin": origin})
        assert refused.status_code == 403, origin
    own = client.post("/api/tables", json=PEOPLE, headers={"Origin": "http://testserver"})
    assert own.status_code == 201


def test_another_sites_page_cannot_open_a_websocket(client: TestClient) -> None:
    table = client.post("/api/tables", json=PEOPLE).json()["table"]
    evil = {"Origin": "http://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/{table}", headers=evil) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 1008
    with client.websocket_connect(f"/ws/{table}", headers={"Origin": "http://testserver"}) as ws:
        assert watch(ws)["type"] == "state"


def test_a_request_for_another_name_is_refused(client: TestClient) -> None:
    """DNS rebinding: another site's name pointed at this server gets nothing."""
    rebound = client.get("/api/components", headers={"Host": "evil.example:8000"})
    assert rebound.status_code == 400
    assert rebound.json()["error"] == "bad_host"
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200


def test_links_come_from_the_configured_address_not_the_host_header(db: Path) -> None:
    with serve(db) as client:
        body = client.post("/api/tables", json=PEOPLE, headers={"Host": "localhost:9999"}).json()
    assert body["spectator"] == f"http://testserver/t/{body['table']}"
    with serve(db, url="https://games.example/") as client:
        body = client.post("/api/tables", json=PEOPLE).json()
        assert body["spectator"] == f"https://games.example/t/{body['table']}"
        assert body["seats"][0]["link"].startswith("https://games.example/t/")
        # The configured site's pages may use it; its name is answered to.
        ok = client.post(
            "/api/tables",
            json=PEOPLE,
            headers={"Origin": "https://games.example", "Host": "games.example"},
        )
        assert ok.status_code == 201
    with serve(db, allowed_origins=["https://lobby.example"]) as client:
        other = client.post("/api/tables", json=PEOPLE, headers={"Origin": "https://lobby.example"})
        assert other.status_code == 201


# Connections --------------------------------------------------------------------


def test_connections_above_the_cap_are_refused_politely(db: Path) -> None:
    limits = Limits(max_connections=10, max_connections_per_client=2)
    with serve(db, limits=limits) as client:
        table = client.post("/api/tables", json=PEOPLE).json()["table"]
        with (
            client.websocket_connect(f"/ws/{table}") as first,
            client.websocket_connect(f"/ws/{table}") as second,
        ):
            watch(first)
            watch(second)
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(f"/ws/{table}") as third,
            ):
                third.receive_json()
            assert refused.value.code == 1013
            busy = client.get(f"/api/tables/{table}")
            assert busy.status_code == 503
            assert busy.json()["error"] == "busy"
            assert "retry-after" in busy.headers
        assert client.get(f"/api/tables/{table}").status_code == 200


def test_a_flood_of_refusals_is_logged_once_per_interval(
    db: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(logging.getLogger("splendor.server"), "filters", [])
    limits = Limits(max_connections=10, max_connections_per_client=1)
    with serve(db, limits=limits) as client, caplog.at_level(logging.WARNING, "splendor.server"):
        table = client.post("/api/tables", json=PEOPLE).json()["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            watch(ws)
            for _ in range(50):
                assert client.get("/api/components").status_code == 503
    refusals = [r for r in caplog.records if "too many connections" in r.getMessage()]
    assert len(refusals) == 1


def test_the_log_filter_counts_what_it_held_back(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    flood = RateLimitFilter(interval=10)

    def record(text: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, "", 0, text, None, None)

    assert flood.filter(record("socket.accept() out of system resource"))
    assert not any(
        flood.filter(record("socket.accept() out of system resource")) for _ in range(99)
    )
    assert flood.filter(record("another message"))
    clock[0] = 11.0
    later = record("socket.accept() out of system resource")
    assert flood.filter(later)
    assert "99 more like this" in later.getMessage()


# Timeouts of the websocket ----------------------------------------------------------


def test_a_websocket_that_never_joins_is_closed_however_much_it_talks(db: Path) -> None:
    with serve(db, limits=Limits(hello_timeout=0.6)) as client:
        table = client.post("/api/tables", json=PEOPLE).json()["table"]
        started = time.monotonic()
        with client.websocket_connect(f"/ws/{table}") as ws:
            codes: list[str] = []

            def talk() -> None:
                for _ in range(200):
                    ws.send_text('{"type": "hello"}')
                    codes.append(ws.receive_json()["code"])
                    time.sleep(0.05)

            with pytest.raises(WebSocketDisconnect) as closed:
                talk()
            assert closed.value.code == 4408
        assert codes[-1] == "timeout"
        assert "malformed" in codes
        assert time.monotonic() - started < 5


def test_a_quiet_websocket_is_closed_after_the_idle_timeout(db: Path) -> None:
    with serve(db, limits=Limits(idle_timeout=0.5)) as client:
        table = client.post("/api/tables", json=PEOPLE).json()["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            watch(ws)
            assert ws.receive_json()["code"] == "idle"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


# Tables -------------------------------------------------------------------------------


def test_tables_are_limited_per_client_and_in_all(db: Path) -> None:
    with serve(db, limits=Limits(tables_per_client=3)) as client:
        for _ in range(3):
            assert client.post("/api/tables", json=PEOPLE).status_code == 201
        refused = client.post("/api/tables", json=PEOPLE)
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
    with serve(db, limits=Limits(max_tables=4)) as client:
        assert client.post("/api/tables", json=PEOPLE).status_code == 201
        full = client.post("/api/tables", json=PEOPLE)
        assert full.status_code == 503
        assert full.json()["error"] == "too_many_tables"


def test_tables_load_when_asked_for_and_abandoned_ones_expire(db: Path) -> None:
    with serve(db) as client:
        kept, old = (client.post("/api/tables", json=PEOPLE).json()["table"] for _ in range(2))
    limits = Limits(expire_after=3600, unload_after=0.01)
    app = create_app(db, bot_delay=0, limits=limits)
    with TestClient(app) as client:
        hub: Hub = app.state.hub
        assert hub.tables == {}  # nothing loaded at start
        assert client.get(f"/api/tables/{kept}").status_code == 200
        assert set(hub.tables) == {kept}
        with sqlite3.connect(db) as raw:
            raw.execute(
                "UPDATE games SET updated = datetime('now', '-2 hours') WHERE id = ?", (old,)
            )
        time.sleep(0.05)
        assert client.portal is not None  # set inside the with block
        client.portal.call(hub.sweep)
        assert hub.tables == {}  # unloaded: no client for unload_after
        assert client.get(f"/api/tables/{old}").status_code == 404
        assert client.get(f"/api/tables/{kept}").status_code == 200


# Presence ------------------------------------------------------------------------------


def test_a_seat_flood_never_drops_the_opponent() -> None:
    async def scenario() -> None:
        hub = Hub(Store(":memory:"))
        table, secrets = hub.create(PEOPLE)
        opponent = hub.attach(table, secrets[1])
        for _ in range(4 * MAX_QUEUE):
            hub.detach(hub.attach(table, secrets[0]))
        assert not opponent.closed
        assert opponent.pending <= 2
        messages = [json.loads(await opponent.next() or "{}") for _ in range(opponent.pending)]
        assert [m["type"] for m in messages] == ["state", "seats"]
        assert messages[-1]["seats"][0]["online"] is False
        hub.store.close()

    asyncio.run(scenario())
