"""Fixtures of the server's tests: ``database``, each test once on SQLite and once on PostgreSQL.

The PostgreSQL server is Debian's ``postgresql`` package, started once for
the test session in a temporary directory (:mod:`tests.server.postgres`)
and stopped at its end; each test gets a fresh database on it. The
PostgreSQL tests skip when psycopg or the package is missing, unless
``SPLENDOR_POSTGRES_TESTS=required`` (as ``nox -s server`` sets it), and use
the server of ``SPLENDOR_TEST_POSTGRES`` instead when it is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.postgres import (
    URL_VARIABLE,
    PostgresServer,
    binaries,
    drop_database,
    new_database,
)

REQUIRED = os.environ.get("SPLENDOR_POSTGRES_TESTS") == "required"


def _skip_or_fail(reason: str) -> None:
    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a PostgreSQL server for this session (a user who may create databases)."""
    try:
        import psycopg  # noqa: F401  # only whether it is there
    except ImportError:
        _skip_or_fail('psycopg is not installed: pip install "splendor-rules[postgresql]"')
    given = os.environ.get(URL_VARIABLE)
    if given:
        yield given
        return
    folder = binaries()
    if folder is None:
        _skip_or_fail("PostgreSQL is not installed: apt-get install postgresql")
        return
    server = PostgresServer(folder)
    try:
        server.start()
        yield server.url()
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of games for one test: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
        return
    admin: str = request.getfixturevalue("postgres")
    url = new_database(admin)
    try:
        yield url
    finally:
        drop_database(admin, url)
