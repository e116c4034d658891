"""Persistence for the server: each game is its start and the moves played since.

:class:`GameStore` is what the hub asks of a store; :class:`Store` keeps the
games in a plain SQLite file (the default, nothing to set up), and
:class:`splendor.server.store_pg.PostgresStore` in a PostgreSQL database that
several hosts may share (:func:`splendor.server.database.open_store` picks one
from the database URL). A game is stored as three kinds of rows:

* ``games``: the table's id, its :class:`~splendor.GameRecord` as the
  library's JSON *as dealt* (seed, rules, names, no action), its ``version``
  (the number of moves stored), whether it is over, whether it has no
  person's seat, and when it was opened and last changed;
* ``moves``: one row per move, keyed by the table's id and the version it was
  played at, holding the action's JSON: a move costs one small row, however
  long the game;
* ``seats``: one row per seat, with whether a person or a bot sits there,
  the bot's name, and the SHA-256 digest of the seat's secret (the secret
  itself lives only in the join link, so a copy of the database does not
  let anyone move for a seat).

Nothing else is kept: the current state is the start replayed with the
moves, so stopping the server at any moment and starting it again resumes
every game where it was, with the same links.

A move is stored by :meth:`GameStore.append` only if it follows the stored
version, in one transaction (compare-and-set), so several server processes
may share one database: the one that loses a race is told with
:class:`VersionConflict` and nothing is written. A file of an older version
of the server (whole records rewritten after every move) is converted when
it is first opened.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, Protocol

import attrs

__all__ = ["DEFAULT_DB", "GameStore", "Store", "StoredGame", "StoredSeat", "VersionConflict"]

#: The SQLite file games are kept in unless ``--db`` says otherwise (also
#: ``splendor.server.DEFAULT_DB``, the name the command line uses).
DEFAULT_DB: Final = "splendor.db"

#: The schema's version, kept in SQLite's ``user_version``.
SCHEMA_VERSION: Final = 2

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    updated TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
    bot TEXT,
    secret_digest TEXT,
    PRIMARY KEY (game_id, seat)
);
"""

_SCHEMA_2: Final = """
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bots_only INTEGER NOT NULL DEFAULT 0;
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;
CREATE INDEX games_open ON games (finished, bots_only);
"""


#: The values of ``synchronous`` the store accepts (see :class:`Store`).
_SYNCHRONOUS: Final = ("full", "normal")


def _run(db: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


class VersionConflict(Exception):
    """A move was stored for a version that is no longer the stored one.

    Another process (or another connection) stored a move first; nothing
    was written. The caller reloads the moves it lacks with
    :meth:`Store.moves`.
    """


@attrs.frozen
class StoredSeat:
    """One seat of a stored game.

    Attributes:
        kind: ``"person"`` or ``"bot"``.
        bot: the name of the bot in :data:`splendor.players.bots.BOTS`, for a bot seat.
        secret_digest: the hex SHA-256 digest of the seat's secret, for a
            person's seat.
    """

    kind: str
    bot: str | None
    secret_digest: str | None


@attrs.frozen
class StoredGame:
    """A stored game: its id, its record as JSON, its seats and its moves.

    Attributes:
        id: the table's id, as it appears in its links.
        record: the game's :class:`~splendor.GameRecord` as JSON
            (:func:`splendor.to_json`) as it was dealt; the moves played
            since are in ``actions``.
        finished: whether the game is over.
        seats: the seats, by seat number.
        actions: the JSON of each move played since ``record``, in order.
    """

    id: str
    record: str
    finished: bool
    seats: tuple[StoredSeat, ...]
    actions: tuple[str, ...] = ()

    @property
    def version(self) -> int:
        """The number of moves stored after the record's own actions."""
        return len(self.actions)


class GameStore(Protocol):
    """What the server asks of a store of games, whichever database holds them.

    Every method commits before it returns and may be called from any
    thread; several processes may use the same database at once.
    """

    def add(self, game: StoredGame) -> None:
        """Store a new game, its seats and its moves in one transaction."""
        ...

    def append(self, game_id: str, version: int, action: str, *, finished: bool) -> None:
        """Store the move played at ``version``, if ``version`` is the stored one.

        Raises:
            VersionConflict: when the stored game is not at ``version`` (or
                is gone); nothing is written.
        """
        ...

    def get(self, game_id: str) -> StoredGame | None:
        """The stored game with this id and all its moves, or ``None``."""
        ...

    def exists(self, game_id: str) -> bool:
        """Whether a game with this id is stored."""
        ...

    def moves(self, game_id: str, since: int) -> list[str]:
        """The JSON of the moves played at version ``since`` and after, in order."""
        ...

    def versions(self, game_ids: Iterable[str]) -> dict[str, int]:
        """The stored version of each of these games (those gone are left out)."""
        ...

    def data_version(self) -> int:
        """A number that changes when another connection may have written.

        Cheap to ask often: the hub looks for other processes' moves with
        :meth:`versions` only when it changed.
        """
        ...

    def count_open(self, *, bots_only: bool = False) -> int:
        """The number of unfinished games (only those with no person's seat, if asked)."""
        ...

    def touch(self, game_ids: Iterable[str]) -> None:
        """Mark these games as in use now (a client is at the table), for :meth:`expire`."""
        ...

    def expire(self, idle: float, *, keep: Iterable[str] = ()) -> list[str]:
        """Delete the unfinished games unchanged for ``idle`` seconds, but those in ``keep``.

        Returns:
            The ids of the games deleted.
        """
        ...

    def games(self, *, finished: bool | None = None) -> Iterator[StoredGame]:
        """Every stored game, oldest first; only those over (or not) if ``finished`` is given."""
        ...

    def close(self) -> None:
        """Close the database."""


class Store:
    """The games of a server in one SQLite file (``":memory:"`` for none).

    Every method commits before it returns. One connection is shared and
    guarded by a lock, so the store may be used from the event loop and from
    worker threads alike; several processes may open the same file (SQLite's
    write-ahead log; a writer waits up to ``timeout`` seconds for another).

    >>> store = Store(":memory:")
    >>> store.add(StoredGame("t1", '{"format": 1}', False, (StoredSeat("bot", "random", None),)))
    >>> store.append("t1", 0, '{"type": "pass"}', finished=False)
    >>> store.get("t1").actions
    ('{"type": "pass"}',)
    >>> store.append("t1", 0, '{"type": "pass"}', finished=False)
    Traceback (most recent call last):
    ...
    splendor.server.store.VersionConflict: table t1 is at version 1, not 0
    >>> store.close()
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 10.0,
        synchronous: str = "full",
    ) -> None:
        """Open (and create or convert if needed) the database at ``path``.

        Args:
            path: the SQLite file (``":memory:"``: none, for tests).
            timeout: seconds a writer waits for another process's transaction.
            synchronous: SQLite's ``synchronous`` setting in its write-ahead
                log: ``"full"`` (the default) syncs the log to the disk at
                every commit, so an acknowledged move survives a power loss
                as well as the process being killed; ``"normal"`` does not
                (a commit survives the process being killed; the last ones
                before a power loss or an operating-system crash may be
                lost, the file is never corrupted), and writes far faster.

        Raises:
            ValueError: for another ``synchronous``.
        """
        if synchronous.lower() not in _SYNCHRONOUS:
            raise ValueError(f"synchronous is 'full' or 'normal', not {synchronous!r}")
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            os.fspath(path), check_same_thread=False, isolation_level=None, timeout=timeout
        )
        with self._lock:
            if os.fspath(path) != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._migrate()

    def _migrate(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            if version < SCHEMA_VERSION:
                # One statement at a time: executescript would commit first.
                _run(self._db, _SCHEMA)
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
                if "version" not in columns:
                    _run(self._db, _SCHEMA_2)
                    self._convert_records()
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _convert_records(self) -> None:
        """Split the whole records of an older file into their start and their moves."""
        rows = self._db.execute("SELECT id, record FROM games").fetchall()
        for game_id, record in rows:
            try:
                document = json.loads(record)
                actions = document.get("actions") or []
            except (ValueError, AttributeError):
                continue  # left as it is: loading it reports what is wrong
            document["actions"] = []
            document["result"] = None
            self._db.executemany(
                "INSERT INTO moves (game_id, version, action) VALUES (?, ?, ?)",
                [
                    (game_id, number, json.dumps(action, separators=(",", ":")))
                    for number, action in enumerate(actions)
                ],
            )
            self._db.execute(
                "UPDATE games SET record = ?, version = ? WHERE id = ?",
                (json.dumps(document, separators=(",", ":")), len(actions), game_id),
            )
        self._db.execute(
            "UPDATE games SET bots_only = 1 WHERE id NOT IN"
            " (SELECT game_id FROM seats WHERE kind = 'person')"
        )

    def add(self, game: StoredGame) -> None:
        """Store a new game, its seats and its moves in one transaction."""
        bots_only = all(seat.kind == "bot" for seat in game.seats)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO games (id, record, finished, version, bots_only)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game.id, game.record, int(game.finished), game.version, int(bots_only)),
                )
                self._db.executemany(
                    "INSERT INTO seats (game_id, seat, kind, bot, secret_digest)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [
                        (game.id, number, seat.kind, seat.bot, seat.secret_digest)
                        for number, seat in enumerate(game.seats)
                    ],
                )
                self._db.executemany(
                    "INSERT INTO moves (game_id, version, action) VALUES (?, ?, ?)",
                    [(game.id, number, action) for number, action in enumerate(game.actions)],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def append(self, game_id: str, version: int, action: str, *, finished: bool) -> None:
        """Store the move played at ``version``, if ``version`` is the stored one.

        Args:
            game_id: the table.
            version: the version the move was played at (the number of moves
                before it).
            action: the move's JSON.
            finished: whether the game is over after it.

        Raises:
            VersionConflict: when the stored game is not at ``version`` (or
                is gone); nothing is written.
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                changed = self._db.execute(
                    "UPDATE games SET version = ?, finished = ?, updated = datetime('now')"
                    " WHERE id = ? AND version = ?",
                    (version + 1, int(finished), game_id, version),
                ).rowcount
                if changed != 1:
                    row = self._db.execute(
                        "SELECT version FROM games WHERE id = ?", (game_id,)
                    ).fetchone()
                    where = "gone" if row is None else f"at version {row[0]}"
                    raise VersionConflict(f"table {game_id} is {where}, not {version}")
                self._db.execute(
                    "INSERT INTO moves (game_id, version, action) VALUES (?, ?, ?)",
                    (game_id, version, action),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def get(self, game_id: str) -> StoredGame | None:
        """The stored game with this id and all its moves, or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, record, finished FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            return self._game(row)

    def exists(self, game_id: str) -> bool:
        """Whether a game with this id is stored."""
        with self._lock:
            row = self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        return row is not None

    def moves(self, game_id: str, since: int) -> list[str]:
        """The JSON of the moves played at version ``since`` and after, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT action FROM moves WHERE game_id = ? AND version >= ? ORDER BY version",
                (game_id, since),
            ).fetchall()
        return [str(action) for (action,) in rows]

    def versions(self, game_ids: Iterable[str]) -> dict[str, int]:
        """The stored version of each of these games (those gone are left out)."""
        ids = list(game_ids)
        found: dict[str, int] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                found.update(
                    self._db.execute(
                        f"SELECT id, version FROM games WHERE id IN ({marks})",
                        chunk,
                    ).fetchall()
                )
        return found

    def data_version(self) -> int:
        """SQLite's ``data_version``: it changes when another connection commits."""
        with self._lock:
            (version,) = self._db.execute("PRAGMA data_version").fetchone()
        return int(version)

    def count_open(self, *, bots_only: bool = False) -> int:
        """The number of unfinished games (only those with no person's seat, if asked)."""
        with self._lock:
            if bots_only:
                row = self._db.execute(
                    "SELECT COUNT(*) FROM games WHERE finished = 0 AND bots_only = 1"
                ).fetchone()
            else:
                row = self._db.execute("SELECT COUNT(*) FROM games WHERE finished = 0").fetchone()
        return int(row[0])

    def touch(self, game_ids: Iterable[str]) -> None:
        """Mark these games as in use now (a client is at the table), for :meth:`expire`."""
        ids = list(game_ids)
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                self._db.execute(
                    f"UPDATE games SET updated = datetime('now') WHERE id IN ({marks})",
                    chunk,
                )

    def expire(self, idle: float, *, keep: Iterable[str] = ()) -> list[str]:
        """Delete the unfinished games unchanged for ``idle`` seconds, but those in ``keep``.

        Returns:
            The ids of the games deleted.
        """
        kept = set(keep)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                rows = self._db.execute(
                    "SELECT id FROM games WHERE finished = 0 AND updated < datetime('now', ?)",
                    (f"-{int(idle)} seconds",),
                ).fetchall()
                gone = [str(game_id) for (game_id,) in rows if game_id not in kept]
                for table in ("moves", "seats"):
                    self._db.executemany(
                        f"DELETE FROM {table} WHERE game_id = ?",
                        [(game_id,) for game_id in gone],
                    )
                self._db.executemany("DELETE FROM games WHERE id = ?", [(g,) for g in gone])
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return gone

    def games(self, *, finished: bool | None = None) -> Iterator[StoredGame]:
        """Every stored game, oldest first; only those over (or not) if ``finished`` is given."""
        with self._lock:
            if finished is None:
                rows = self._db.execute(
                    "SELECT id, record, finished FROM games ORDER BY rowid"
                ).fetchall()
            else:
                rows = self._db.execute(
                    "SELECT id, record, finished FROM games WHERE finished = ? ORDER BY rowid",
                    (int(finished),),
                ).fetchall()
            found = [self._game(row) for row in rows]
        yield from found

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def _game(self, row: Sequence[object]) -> StoredGame:
        game_id = row[0]
        seats = self._db.execute(
            "SELECT kind, bot, secret_digest FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
        actions = self._db.execute(
            "SELECT action FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
        ).fetchall()
        return stored_game(row, seats, actions)


def stored_game(
    row: Sequence[object], seats: Iterable[Sequence[object]], actions: Iterable[Sequence[object]]
) -> StoredGame:
    """The game of a ``games`` row (``id, record, finished``), its ``seats`` rows and ``moves``.

    Args:
        row: the game's id, record and whether it is over.
        seats: ``(kind, bot, secret_digest)`` of each seat, in order.
        actions: ``(action,)`` of each move, in order.
    """
    game_id, record, finished = row
    return StoredGame(
        str(game_id),
        str(record),
        bool(finished),
        tuple(
            StoredSeat(
                str(kind),
                None if bot is None else str(bot),
                None if digest is None else str(digest),
            )
            for kind, bot, digest in seats
        ),
        tuple(str(action) for (action,) in actions),
    )
