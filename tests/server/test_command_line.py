"""``splendor serve`` and ``python -m splendor.server``: options, start, Ctrl-C, resume."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import splendor.errors
import splendor.server
from splendor.cli import main as cli_main
from splendor.extras import install_command
from splendor.server import MissingExtraError, require_extra
from tests.server.helpers import free_port, serve


def test_the_default_database_is_named_once() -> None:
    import inspect

    from splendor.cli.parser import build_parser
    from splendor.server import app, store

    assert splendor.server.DEFAULT_DB is store.DEFAULT_DB == "splendor.db"
    for function in (app.create_app, splendor.server.create_app, splendor.server.run):
        assert inspect.signature(function).parameters["db"].default is store.DEFAULT_DB
    assert build_parser().parse_args(["serve"]).db is store.DEFAULT_DB


def test_splendor_serve_passes_its_options_to_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[tuple[object, ...]] = []

    def fake_run(host: str, port: int, db: str, *, bot_delay: float, **options: object) -> None:
        calls.append((host, port, db, bot_delay))

    monkeypatch.setattr(splendor.server, "run", fake_run)
    out = io.StringIO()
    db = str(tmp_path / "x.db")
    status = cli_main(["serve", "--port", "8123", "--db", db, "--bot-delay", "0"], stdout=out)
    assert status == 0
    assert calls == [("127.0.0.1", 8123, db, 0.0)]
    assert "http://127.0.0.1:8123/" in out.getvalue()


def test_a_missing_extra_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(splendor.server, "_NEEDED", ("starlette", "no_such_package_here"))
    with pytest.raises(MissingExtraError, match=r"no_such_package_here.*\[server\]"):
        require_extra()
    assert cli_main(["serve"], stdout=io.StringIO()) == 2
    assert install_command("server") in capsys.readouterr().err
    assert splendor.server.main([]) == 2
    assert install_command("server") in capsys.readouterr().err


def test_the_servers_missing_extra_is_the_librarys_missing_extra_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(splendor.server, "_NEEDED", ("no_such_package_here",))
    with pytest.raises(splendor.errors.MissingExtraError) as info:
        require_extra()
    assert info.value.extra == "server"
    assert isinstance(info.value, ImportError)
    assert MissingExtraError is splendor.errors.MissingExtraError


def stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 0, output
    return output


def check_frame_limits(port: int, table: str, secret: str) -> None:
    """Over 8192 characters: an error reply; over 64 KiB: the socket closes with 1009."""
    url = f"ws://127.0.0.1:{port}/ws/{table}"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "secret": secret}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(json.dumps({"type": "move", "version": 0, "notation": "x" * 10_000}))
        assert json.loads(ws.recv(timeout=10))["code"] == "too_large"
        ws.send("x" * 100_000)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1009
    with connect(url, open_timeout=10) as ws:  # and the server carries on
        ws.send(json.dumps({"type": "watch"}))
        assert json.loads(ws.recv(timeout=10))["version"] == 0


@pytest.mark.parametrize("command", [["-m", "splendor", "serve"], ["-m", "splendor.server"]])
def test_the_server_starts_stops_on_ctrl_c_and_keeps_its_tables(
    tmp_path: Path, command: list[str]
) -> None:
    port = free_port()
    db = tmp_path / "games.db"
    options = ["--port", str(port), "--db", str(db)]
    process = serve([*command, *options], port)
    try:
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()
        assert b"<script" in page
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables",
            data=json.dumps({"seats": [{"kind": "person"}, {"kind": "person"}]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        created = json.loads(urllib.request.urlopen(request, timeout=10).read())
        table = created["table"]
        check_frame_limits(port, table, created["seats"][0]["secret"])
    finally:
        output = stop(process)
    assert f"http://127.0.0.1:{port}/" in output
    assert db.exists()
    process = serve([*command, *options], port)
    try:
        url = f"http://127.0.0.1:{port}/api/tables/{table}"
        summary = json.loads(urllib.request.urlopen(url, timeout=10).read())
    finally:
        stop(process)
    assert summary["version"] == 0
    assert [seat["kind"] for seat in summary["seats"]] == ["person", "person"]
