"""The store a database name or URL stands for: SQLite by default, PostgreSQL by URL.

``--db`` (and the ``db`` of :func:`splendor.server.create_app`) takes:

* a file name, ``games.db``: an SQLite file (``:memory:``: none, for tests);
* ``sqlite:///games.db`` (relative) or ``sqlite:////var/lib/splendor/games.db``
  (absolute), the same with ``?synchronous=normal`` to write faster but keep
  only what survives a process kill, not a power loss
  (:class:`~splendor.server.store.Store`);
* ``postgresql://user:password@host:5432/dbname`` (or ``postgres://``): a
  PostgreSQL database (:class:`~splendor.server.store_pg.PostgresStore`,
  the ``[postgresql]`` extra).

>>> is_postgres("postgresql://splendor@db.example/games")
True
>>> shown("postgresql://splendor:s3cret@db.example/games")
'postgresql://splendor:***@db.example/games'
>>> shown("postgres:///games?host=/run/postgresql&password=s3cret")
'postgres:///games?host=/run/postgresql&password=***'
>>> shown("games.db")
'games.db'
"""

from __future__ import annotations

import os
import urllib.parse
from typing import Final

from splendor.server.store import GameStore, Store
from splendor.server.store_pg import PostgresStore

__all__ = ["is_postgres", "open_store", "shown"]

_POSTGRES: Final = ("postgresql://", "postgres://")
_SQLITE: Final = "sqlite:///"


def is_postgres(db: str | os.PathLike[str]) -> bool:
    """Whether ``db`` is a PostgreSQL URL (``postgresql://`` or ``postgres://``)."""
    return isinstance(db, str) and db.lower().startswith(_POSTGRES)


def _sqlite(db: str) -> tuple[str, str]:
    """The file and the ``synchronous`` setting of an ``sqlite:///`` URL."""
    parts = urllib.parse.urlsplit(db)
    path = urllib.parse.unquote(db[len(_SQLITE) :].split("?", 1)[0])
    options = urllib.parse.parse_qs(parts.query, strict_parsing=bool(parts.query))
    unknown = set(options) - {"synchronous"}
    if unknown:
        raise ValueError(f"unknown option of an sqlite URL: {sorted(unknown)[0]}")
    synchronous = options.get("synchronous", ["full"])[-1]
    return path, synchronous


def open_store(db: str | os.PathLike[str]) -> GameStore:
    """The store of ``db``: a file name, an ``sqlite:///`` URL or a PostgreSQL URL.

    Raises:
        ValueError: for an ``sqlite:///`` URL with an unknown option.
        splendor.errors.MissingExtraError: for a PostgreSQL URL without psycopg.
        sqlite3.Error: when the SQLite file cannot be opened.
        psycopg.OperationalError: when the PostgreSQL database cannot be reached.
    """
    if is_postgres(db):
        return PostgresStore(os.fspath(db))
    if isinstance(db, str) and db.startswith(_SQLITE):
        path, synchronous = _sqlite(db)
        return Store(path, synchronous=synchronous)
    return Store(db)


def shown(db: str | os.PathLike[str]) -> str:
    """``db`` as the server prints it: a URL's password replaced by ``***``."""
    text = os.fspath(db)
    if not is_postgres(text):
        return text
    parts = urllib.parse.urlsplit(text)
    if parts.password is not None:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
    query = [
        (key, "***" if key == "password" else value)
        for key, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    ]
    if query:
        parts = parts._replace(query=urllib.parse.urlencode(query, safe="*/"))
    # Not urlunsplit: it drops the "//" of a URL with no host (a socket's).
    tail = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}{parts.path}{tail}"
