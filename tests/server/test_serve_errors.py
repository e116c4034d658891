"""``splendor serve`` refuses what it cannot serve with one line and status 2."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import pytest

from splendor.cli import main

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")


def test_a_port_out_of_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", "99999"], stdout=io.StringIO())
    assert exit_info.value.code == 2
    assert "a port is 0 to 65535, got 99999" in capsys.readouterr().err


def test_a_database_that_cannot_be_opened_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    missing = tmp_path / "no" / "such" / "games.db"
    assert main(["serve", "--port", "0", "--db", str(missing)], stdout=out) == 2
    assert "cannot open the game database" in capsys.readouterr().err + out.getvalue()
    assert "Ctrl-C stops" not in out.getvalue()


def test_a_port_in_use_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0), reuse_port=False) as taken:
        port = taken.getsockname()[1]
        taken.listen()
        out = io.StringIO()
        status = main(["serve", "--port", str(port), "--db", str(tmp_path / "g.db")], stdout=out)
    assert status == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err + out.getvalue()
    assert "Ctrl-C stops" not in out.getvalue()


def test_a_postgres_database_that_cannot_be_reached_is_one_line_without_its_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("psycopg")
    out = io.StringIO()
    url = f"postgresql://splendor:hunter2@/games?host={tmp_path}&port=1"
    assert main(["serve", "--port", "0", "--db", url], stdout=out) == 2
    said = capsys.readouterr().err + out.getvalue()
    assert "cannot open the game database postgresql://splendor:***@/games" in said
    assert "hunter2" not in said
    assert len(said.strip().splitlines()) == 1
    assert "Ctrl-C stops" not in out.getvalue()


def test_splendor_serve_names_a_postgres_database_without_its_password(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr("splendor.server.run", lambda *args, **kwargs: calls.append(args))
    out = io.StringIO()
    url = postgres.replace("splendor@", "splendor:hunter2@")
    assert main(["serve", "--port", "0", "--db", url], stdout=out) == 0
    assert "hunter2" not in out.getvalue()
    assert "splendor:***@" in out.getvalue()
    assert calls
    assert calls[0][2] == url


def test_an_unknown_option_of_an_sqlite_url_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    url = f"sqlite:///{tmp_path}/g.db?journal=off"
    assert main(["serve", "--port", "0", "--db", url], stdout=out) == 2
    said = capsys.readouterr().err + out.getvalue()
    assert "cannot open the game database" in said
    assert "unknown option of an sqlite URL: journal" in said
