"""The games of a server in a PostgreSQL database (the ``[postgresql]`` extra: psycopg 3).

:class:`PostgresStore` keeps the same rows as the SQLite
:class:`~splendor.server.store.Store` (``games``, ``seats``, ``moves``; see
:mod:`splendor.server.store`) and answers the same
:class:`~splendor.server.store.GameStore` methods, so that server processes
on several hosts can share one database. A move is stored only if it
follows the stored version: the ``UPDATE`` of the game's version and the
``INSERT`` of the move are one transaction, and the ``UPDATE`` names the
version it expects, so of two processes storing a move at the same version
exactly one succeeds; the other gets
:class:`~splendor.server.store.VersionConflict` and nothing is written.

The tables are created in the database the URL names (give the server a
database of its own, or a schema of its own with
``?options=-csearch_path%3Dsplendor``). PostgreSQL 13 or later.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

from splendor.extras import require
from splendor.server.store import StoredGame, VersionConflict, stored_game

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresStore"]

#: The schema's version, kept in ``splendor_schema``.
SCHEMA_VERSION: Final = 2

#: A key of PostgreSQL's advisory locks, held while the schema is made, so
#: that processes started together do not create the tables twice.
_SCHEMA_LOCK: Final = 0x5B1E_0D0B

_SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS splendor_schema (version integer NOT NULL)",
    """CREATE TABLE IF NOT EXISTS games (
        number bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        record text NOT NULL,
        finished boolean NOT NULL DEFAULT false,
        version integer NOT NULL DEFAULT 0,
        bots_only boolean NOT NULL DEFAULT false,
        created timestamptz NOT NULL DEFAULT now(),
        updated timestamptz NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE IF NOT EXISTS seats (
        game_id text NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat integer NOT NULL,
        kind text NOT NULL CHECK (kind IN ('person', 'bot')),
        bot text,
        secret_digest text,
        PRIMARY KEY (game_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS moves (
        game_id text NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version integer NOT NULL,
        action text NOT NULL,
        PRIMARY KEY (game_id, version)
    )""",
    "CREATE INDEX IF NOT EXISTS games_open ON games (finished, bots_only)",
)


class PostgresStore:
    """The games of a server in the PostgreSQL database at ``url``.

    Up to ``connections`` connections are opened as threads need them and
    kept for the next call; one that breaks (the database restarted, the
    network failed) is dropped, the call fails, and the next call opens a
    new one. Every method commits before it returns, in PostgreSQL's
    default ``READ COMMITTED`` isolation; :meth:`get` reads in one
    ``REPEATABLE READ`` snapshot, so a game and its moves agree.

    Args:
        url: a libpq connection URL, ``postgresql://user:password@host:5432/games``
            (or ``key=value`` pairs).
        connections: the most connections open at once.
        timeout: seconds to wait for a connection (to connect, or for one of
            the pool to be free).

    Raises:
        splendor.errors.MissingExtraError: when psycopg is not installed.
        psycopg.OperationalError: when the database cannot be reached.
    """

    def __init__(self, url: str, *, connections: int = 4, timeout: float = 10.0) -> None:
        """Connect to the database at ``url`` and create the tables it lacks."""
        self._psycopg: Any = require("psycopg", "postgresql", "the PostgreSQL store")
        if connections < 1:
            raise ValueError(f"at least one connection, not {connections}")
        self._url = url
        self._timeout = timeout
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(connections)
        self._open: set[psycopg.Connection[Any]] = set()
        self._guard = threading.Lock()
        self._closed = False
        with self._connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for statement in _SCHEMA:
                db.execute(statement)
            row = db.execute("SELECT max(version) FROM splendor_schema").fetchone()
            if row is None or row[0] is None:
                db.execute("INSERT INTO splendor_schema VALUES (%s)", (SCHEMA_VERSION,))
            elif row[0] > SCHEMA_VERSION:
                raise ValueError(
                    f"the database is of a newer server "
                    f"(schema {row[0]}, this one {SCHEMA_VERSION})"
                )

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool for one call (opened if none is idle)."""
        if not self._slots.acquire(timeout=self._timeout):
            raise self._psycopg.OperationalError(
                f"no database connection free after {self._timeout:g} s"
            )
        try:
            if self._closed:
                raise self._psycopg.InterfaceError("the store is closed")
            try:
                db = self._idle.get_nowait()
            except queue.Empty:
                db = self._psycopg.connect(
                    self._url, autocommit=True, connect_timeout=max(1, round(self._timeout))
                )
                with self._guard:
                    self._open.add(db)
            try:
                yield db
            finally:
                if db.broken or db.closed or self._closed:
                    with self._guard:
                        self._open.discard(db)
                    db.close()
                else:
                    self._idle.put(db)
        finally:
            self._slots.release()

    def add(self, game: StoredGame) -> None:
        """Store a new game, its seats and its moves in one transaction."""
        bots_only = all(seat.kind == "bot" for seat in game.seats)
        with self._connection() as db, db.transaction():
            db.execute(
                "INSERT INTO games (id, record, finished, version, bots_only)"
                " VALUES (%s, %s, %s, %s, %s)",
                (game.id, game.record, game.finished, game.version, bots_only),
            )
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO seats (game_id, seat, kind, bot, secret_digest)"
                    " VALUES (%s, %s, %s, %s, %s)",
                    [
                        (game.id, number, seat.kind, seat.bot, seat.secret_digest)
                        for number, seat in enumerate(game.seats)
                    ],
                )
                cursor.executemany(
                    "INSERT INTO moves (game_id, version, action) VALUES (%s, %s, %s)",
                    [(game.id, number, action) for number, action in enumerate(game.actions)],
                )

    def append(self, game_id: str, version: int, action: str, *, finished: bool) -> None:
        """Store the move played at ``version``, if ``version`` is the stored one.

        The ``UPDATE`` waits for a concurrent one of the same game to commit
        and then sees its version, so a second move at one version is
        refused, never stored beside the first.

        Raises:
            VersionConflict: when the stored game is not at ``version`` (or
                is gone); nothing is written.
        """
        with self._connection() as db, db.transaction():
            changed = db.execute(
                "UPDATE games SET version = %s, finished = %s, updated = now()"
                " WHERE id = %s AND version = %s",
                (version + 1, finished, game_id, version),
            ).rowcount
            if changed != 1:
                row = db.execute("SELECT version FROM games WHERE id = %s", (game_id,)).fetchone()
                where = "gone" if row is None else f"at version {row[0]}"
                raise VersionConflict(f"table {game_id} is {where}, not {version}")
            db.execute(
                "INSERT INTO moves (game_id, version, action) VALUES (%s, %s, %s)",
                (game_id, version, action),
            )

    def get(self, game_id: str) -> StoredGame | None:
        """The stored game with this id and all its moves, or ``None``."""
        with self._connection() as db, db.transaction():
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = db.execute(
                "SELECT id, record, finished FROM games WHERE id = %s", (game_id,)
            ).fetchone()
            return None if row is None else _game(db, row)

    def exists(self, game_id: str) -> bool:
        """Whether a game with this id is stored."""
        with self._connection() as db:
            row = db.execute("SELECT 1 FROM games WHERE id = %s", (game_id,)).fetchone()
        return row is not None

    def moves(self, game_id: str, since: int) -> list[str]:
        """The JSON of the moves played at version ``since`` and after, in order."""
        query = "SELECT action FROM moves WHERE game_id = %s AND version >= %s ORDER BY version"
        with self._connection() as db:
            return [str(action) for (action,) in db.execute(query, (game_id, since))]

    def versions(self, game_ids: Iterable[str]) -> dict[str, int]:
        """The stored version of each of these games (those gone are left out)."""
        ids = list(game_ids)
        if not ids:
            return {}
        with self._connection() as db:
            rows = db.execute("SELECT id, version FROM games WHERE id = ANY(%s)", (ids,)).fetchall()
        return {str(game_id): int(version) for game_id, version in rows}

    def data_version(self) -> int:
        """The first transaction id not yet given out: it changes when anyone writes.

        Any write to the database server (this process's own too) moves it
        on; a change only makes the hub ask :meth:`versions`, so one too
        many costs a small query.
        """
        with self._connection() as db:
            row = db.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())::text").fetchone()
        assert row is not None  # an aggregate-free SELECT has one row
        return int(row[0])

    def count_open(self, *, bots_only: bool = False) -> int:
        """The number of unfinished games (only those with no person's seat, if asked)."""
        with self._connection() as db:
            if bots_only:
                row = db.execute(
                    "SELECT count(*) FROM games WHERE NOT finished AND bots_only"
                ).fetchone()
            else:
                row = db.execute("SELECT count(*) FROM games WHERE NOT finished").fetchone()
        assert row is not None  # count(*) has one row
        return int(row[0])

    def touch(self, game_ids: Iterable[str]) -> None:
        """Mark these games as in use now (a client is at the table), for :meth:`expire`."""
        ids = list(game_ids)
        if ids:
            with self._connection() as db:
                db.execute("UPDATE games SET updated = now() WHERE id = ANY(%s)", (ids,))

    def expire(self, idle: float, *, keep: Iterable[str] = ()) -> list[str]:
        """Delete the unfinished games unchanged for ``idle`` seconds, but those in ``keep``.

        Their seats and moves go with them (``ON DELETE CASCADE``).

        Returns:
            The ids of the games deleted.
        """
        with self._connection() as db, db.transaction():
            rows = db.execute(
                "DELETE FROM games WHERE NOT finished"
                " AND updated < now() - make_interval(secs => %s) AND NOT (id = ANY(%s))"
                " RETURNING id",
                (float(int(idle)), list(keep)),
            ).fetchall()
        return [str(game_id) for (game_id,) in rows]

    def games(self, *, finished: bool | None = None) -> Iterator[StoredGame]:
        """Every stored game, oldest first; only those over (or not) if ``finished`` is given."""
        with self._connection() as db, db.transaction():
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            if finished is None:
                rows = db.execute("SELECT id, record, finished FROM games ORDER BY number")
            else:
                rows = db.execute(
                    "SELECT id, record, finished FROM games WHERE finished = %s ORDER BY number",
                    (finished,),
                )
            found = [_game(db, row) for row in rows.fetchall()]
        yield from found

    def close(self) -> None:
        """Close every connection; calls after this fail."""
        self._closed = True
        with self._guard:
            open_now, self._open = list(self._open), set()
        for db in open_now:
            db.close()


def _game(db: psycopg.Connection[Any], row: tuple[Any, ...]) -> StoredGame:
    """The game of a ``games`` row (``id, record, finished``) with its seats and moves."""
    key = (row[0],)
    seats = "SELECT kind, bot, secret_digest FROM seats WHERE game_id = %s ORDER BY seat"
    moves = "SELECT action FROM moves WHERE game_id = %s ORDER BY version"
    return stored_game(row, db.execute(seats, key).fetchall(), db.execute(moves, key).fetchall())
