"""The server under uvicorn, at the socket: slow headers and bodies, the cap, two processes."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

import uvicorn
from websockets.sync.client import connect

from splendor.server import create_app
from splendor.server.limits import Limits
from splendor.server.transport import config, socket_cap
from tests.server.helpers import free_port, serve

PEOPLE = {"seats": [{"kind": "person"}, {"kind": "person"}]}


class Live:
    """The server of ``splendor serve`` in a thread of this process."""

    def __init__(self, db: Path, limits: Limits) -> None:
        self.port = free_port()
        app = create_app(db, bot_delay=0, limits=limits)
        self.server = uvicorn.Server(config(app, "127.0.0.1", self.port, limits, log_level="error"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture
def live(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Live]:
    limits = getattr(request, "param", Limits(header_timeout=0.5, body_timeout=0.5))
    server = Live(tmp_path / "games.db", limits)
    yield server
    server.stop()


def read_all(sock: socket.socket, within: float) -> bytes:
    """What the server sends until it closes the connection (at most ``within`` seconds)."""
    sock.settimeout(within)
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data


def test_headers_sent_a_byte_at_a_time_are_cut_off(live: Live) -> None:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
        try:
            for byte in request:
                sock.send(bytes([byte]))
                time.sleep(0.02)
        except OSError:
            pass  # closed under our feet: what the test wants
        answer = read_all(sock, 5)
    assert answer.startswith(b"HTTP/1.1 408")
    assert time.monotonic() - started < 3


def test_a_connection_that_sends_nothing_is_closed(live: Live) -> None:
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        started = time.monotonic()
        assert read_all(sock, 5).startswith(b"HTTP/1.1 408")
    assert time.monotonic() - started < 3


def test_a_body_sent_too_slowly_is_refused(live: Live) -> None:
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        answer = read_all(sock, 5)
    assert b" 408 " in answer.split(b"\r\n")[0]


def test_a_websocket_is_not_cut_off_by_the_header_timeout(live: Live) -> None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{live.port}/api/tables",
        data=json.dumps(PEOPLE).encode(),
        headers={"Content-Type": "application/json"},
    )
    table = json.loads(urllib.request.urlopen(request, timeout=10).read())["table"]
    with connect(f"ws://127.0.0.1:{live.port}/ws/{table}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "watch"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        time.sleep(1.0)  # twice the header timeout
        ws.send(json.dumps({"type": "sync"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"


@pytest.mark.parametrize("live", [Limits(max_connections=4)], indirect=True)
def test_sockets_above_the_cap_are_answered_503_and_closed(live: Live) -> None:
    cap = socket_cap(Limits(max_connections=4))
    held = [socket.create_connection(("127.0.0.1", live.port)) for _ in range(cap)]
    try:
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", live.port)) as extra:
            assert read_all(extra, 5).startswith(b"HTTP/1.1 503")
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    page = urllib.request.urlopen(f"http://127.0.0.1:{live.port}/api/components", timeout=10)
    assert page.status == 200


def test_two_server_processes_on_one_database_keep_exactly_the_acknowledged_moves(
    database: str,
) -> None:
    db = database
    ports = [free_port(), free_port()]
    processes = [
        serve(["-m", "splendor.server", "--port", str(port), "--db", str(db)], port)
        for port in ports
    ]
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{ports[0]}/api/tables",
            data=json.dumps(PEOPLE).encode(),
            headers={"Content-Type": "application/json"},
        )
        created = json.loads(urllib.request.urlopen(request, timeout=10).read())
        table, secret = created["table"], created["seats"][0]["secret"]
        stack = contextlib.ExitStack()
        sockets = [
            stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{table}", open_timeout=10))
            for port in ports
        ]
        states = []
        for ws in sockets:
            ws.send(json.dumps({"type": "join", "secret": secret}))
            states.append(json.loads(ws.recv(timeout=10)))
        moves = [states[0]["legal"][0], states[1]["legal"][-1]]
        for ws, action in zip(sockets, moves, strict=True):
            ws.send(json.dumps({"type": "move", "version": 0, "action": action}))
        acknowledged = []
        for ws, action in zip(sockets, moves, strict=True):
            while True:
                message = json.loads(ws.recv(timeout=15))
                if message["type"] == "error":
                    assert message["code"] == "stale"
                    break
                mine = message["type"] == "state" and message["version"] == 1
                if mine and message["last"]["action"] == action:
                    acknowledged.append(action)
                    break
        stack.close()
        assert len(acknowledged) == 1
        summary = f"http://127.0.0.1:{ports[1]}/api/tables/{table}"
        assert json.loads(urllib.request.urlopen(summary, timeout=10).read())["version"] == 1
    finally:
        for process in processes:
            process.terminate()
            process.communicate(timeout=30)
    from splendor.server.database import open_store

    store = open_store(db)
    stored = store.get(table)
    store.close()
    assert stored is not None
    assert [json.loads(action) for action in stored.actions] == acknowledged
