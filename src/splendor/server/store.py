"""SQLite persistence for the server: each game is its :class:`~splendor.GameRecord` JSON.

A game is stored as two kinds of rows, in a plain SQLite file:

* ``games``: the table's id, its record as the library's JSON (seed, rules,
  names, every action played, the result once over) and whether it is over;
* ``seats``: one row per seat, with whether a person or a bot sits there,
  the bot's name, and the SHA-256 digest of the seat's secret (the secret
  itself lives only in the join link, so a copy of the database does not
  let anyone move for a seat).

Nothing else is kept: the current state is the record replayed, so stopping
the server at any moment and starting it again resumes every game where it
was, with the same links.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from typing import Final

import attrs

__all__ = ["Store", "StoredGame", "StoredSeat"]

#: The SQLite file games are kept in unless ``--db`` says otherwise (also
#: ``splendor.server.DEFAULT_DB``, the name the command line uses).
DEFAULT_DB: Final = "splendor.db"

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
    """A stored game: its id, its record as JSON and its seats.

    Attributes:
        id: the table's id, as it appears in its links.
        record: the game's :class:`~splendor.GameRecord` as JSON
            (:func:`splendor.to_json`).
        finished: whether the game is over.
        seats: the seats, by seat number.
    """

    id: str
    record: str
    finished: bool
    seats: tuple[StoredSeat, ...]


class Store:
    """The games of a server in one SQLite file (``":memory:"`` for none).

    Every method commits before it returns. One connection is shared and
    guarded by a lock, so the store may be used from the event loop and from
    worker threads alike.

    >>> store = Store(":memory:")
    >>> store.add(StoredGame("t1", '{"format": 1}', False, (StoredSeat("bot", "random", None),)))
    >>> [game.id for game in store.games()]
    ['t1']
    >>> store.close()
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open (and create if needed) the database at ``path``."""
        self._lock = threading.Lock()
        self._db = sqlite3.connect(os.fspath(path), check_same_thread=False, isolation_level=None)
        with self._lock:
            if os.fspath(path) != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)

    def add(self, game: StoredGame) -> None:
        """Store a new game and its seats in one transaction."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute(
                    "INSERT INTO games (id, record, finished) VALUES (?, ?, ?)",
                    (game.id, game.record, int(game.finished)),
                )
                self._db.executemany(
                    "INSERT INTO seats (game_id, seat, kind, bot, secret_digest)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [
                        (game.id, number, seat.kind, seat.bot, seat.secret_digest)
                        for number, seat in enumerate(game.seats)
                    ],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def save(self, game_id: str, record: str, *, finished: bool) -> None:
        """Replace the record of a stored game (after each move)."""
        with self._lock:
            self._db.execute(
                "UPDATE games SET record = ?, finished = ?, updated = datetime('now') WHERE id = ?",
                (record, int(finished), game_id),
            )

    def get(self, game_id: str) -> StoredGame | None:
        """The stored game with this id, or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, record, finished FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            return self._game(row)

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
        game_id, record, finished = row
        seats = self._db.execute(
            "SELECT kind, bot, secret_digest FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
        return StoredGame(
            str(game_id),
            str(record),
            bool(finished),
            tuple(StoredSeat(str(kind), bot, digest) for kind, bot, digest in seats),
        )
