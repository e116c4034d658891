"""The ladder's storage: its SQLite file and its tables.

:class:`LadderFile` is the one place that reads and writes a ladder's file;
every error of the database (locked too long, a full disk...) leaves it as
a :class:`~splendor.arena.ladder.LadderError`. The rows come out as the
values of ``_ladder_rows``.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import attrs

from splendor.arena._ladder_rows import Entrant, LadderError, LadderGame, game_of_row, int_of
from splendor.arena.runs import check_players
from splendor.core.messages import short_repr
from splendor.core.rules import MIN_PLAYERS
from splendor.errors import InvalidArgumentError
from splendor.formats.record import MAX_SEED, GameRecord
from splendor.formats.serialization import from_json, to_json

__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_ENTRANTS", "LadderFile"]

# What the ``format`` entry of a ladder file says.
FORMAT: Final = "splendor-ladder"
# The version of the ladder file's tables this module writes and reads.
FORMAT_VERSION: Final = 1
# The most entrants a ladder takes (its ratings are refitted before every deal).
MAX_ENTRANTS: Final = 64
# The largest magnitude of a ladder's seed: every deal's seed must fit a record.
_MAX_LADDER_SEED: Final = MAX_SEED // 1_000_003 - 1

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS ladder (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entrants (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    spec TEXT NOT NULL,
    added TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    deal INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    record TEXT,
    winners TEXT,
    points TEXT,
    cards TEXT,
    turns INTEGER,
    forfeit_seat INTEGER,
    forfeit_reason TEXT,
    forfeit_detail TEXT,
    finished TEXT
);
CREATE INDEX IF NOT EXISTS games_pending ON games (id) WHERE record IS NULL;
"""

# The columns of a game, in the order game_of_row reads them.
_GAME_COLUMNS: Final = (
    "id, deal, seed, seats, record IS NOT NULL, winners, points, cards, turns, "
    "forfeit_seat, forfeit_reason, forfeit_detail"
)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class LadderFile:
    """A ladder's SQLite file, open (in WAL mode; each change one transaction).

    Args:
        path: the file.
        create: make the file if there is none (else a missing file is an error).
        players: the players per game, written into a new file and checked
            against an existing one.
        seed: the ladder's seed, written and checked like ``players``.

    Raises:
        LadderError: for a missing file (without ``create``), a file that is
            not a ladder or is of a newer version, or ``players`` or ``seed``
            that differ from the file's.
        InvalidArgumentError: for ``players`` or ``seed`` of the wrong type or range.
    """

    def __init__(
        self, path: str | Path, *, create: bool, players: int | None, seed: int | None
    ) -> None:
        """Open the file at ``path``; see the class."""
        if players is not None:
            check_players(players)
        if seed is not None and (type(seed) is not int or abs(seed) > _MAX_LADDER_SEED):
            raise InvalidArgumentError(
                f"seed must be an int within +-{_MAX_LADDER_SEED}, got {short_repr(seed)}"
            )
        if not isinstance(path, str | os.PathLike):
            raise InvalidArgumentError(
                f"a ladder's path is a str or a path, got {short_repr(path)}"
            )
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise LadderError(f"there is no ladder at {self.path}")
        try:
            self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        except sqlite3.Error as error:
            raise LadderError(f"cannot open the ladder {self.path}: {error}") from None
        try:
            self.players, self.seed = self._set_up(create, players, seed)
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise LadderError(f"{self.path} is not a ladder file: {error}") from None
        except BaseException:
            self._db.close()
            raise

    def _set_up(self, create: bool, players: int | None, seed: int | None) -> tuple[int, int]:
        """Make the tables of a new file, then read and check the ladder's settings."""
        db = self._db
        db.execute("PRAGMA synchronous=FULL")
        with self._transaction():
            tables = {
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if "ladder" not in tables:
                if tables:
                    raise LadderError(f"{self.path} is an SQLite file, but not a ladder")
                if not create:
                    raise LadderError(f"there is no ladder at {self.path}")
                # One statement at a time: executescript would commit the transaction.
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany(
                    "INSERT INTO ladder (key, value) VALUES (?, ?)",
                    [
                        ("format", FORMAT),
                        ("version", str(FORMAT_VERSION)),
                        ("players", str(MIN_PLAYERS if players is None else players)),
                        ("seed", str(0 if seed is None else seed)),
                        ("created", _now()),
                    ],
                )
            meta = dict(db.execute("SELECT key, value FROM ladder").fetchall())
        if meta.get("format") != FORMAT:
            raise LadderError(f"{self.path} is an SQLite file, but not a ladder")
        try:
            version, stored_players, stored_seed = (
                int(meta["version"]),
                int(meta["players"]),
                int(meta["seed"]),
            )
        except (KeyError, ValueError):
            raise LadderError(f"{self.path} is a damaged ladder file") from None
        if version > FORMAT_VERSION:
            raise LadderError(
                f"{self.path} is a ladder of version {version}; this version of splendor "
                f"reads versions up to {FORMAT_VERSION}"
            )
        if players is not None and players != stored_players:
            raise LadderError(f"the ladder {self.path} is one of {stored_players}-player games")
        if seed is not None and seed != stored_seed:
            raise LadderError(f"the ladder {self.path} has the seed {stored_seed}")
        # Only now that the file is known to be a ladder (another file is left as it was).
        db.execute("PRAGMA journal_mode=WAL")
        return stored_players, stored_seed

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction around the block: all its changes are kept, or none."""
        with self._reported(), self._transaction():
            yield

    @contextmanager
    def _reported(self) -> Iterator[None]:
        """Say an error of the database file (locked too long, a full disk...) as a LadderError."""
        try:
            yield
        except sqlite3.Error as error:
            raise LadderError(f"the ladder {self.path}: {error}") from None

    def _rows(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._reported():
            rows: list[tuple[object, ...]] = self._db.execute(sql, parameters).fetchall()
        return rows

    def close(self) -> None:
        """Close the file (what is committed stays)."""
        self._db.close()

    # Entrants ------------------------------------------------------------

    def add_entrant(self, name: str, spec: str) -> Entrant:
        """Write a new entrant, in one transaction; ``name`` and ``spec`` are taken as they are
        (see :func:`check_name` and :meth:`check_room`).

        Raises:
            LadderError: for a name the ladder already has.
        """
        entrant = Entrant(name, spec, _now())
        with self.transaction():
            try:
                self._db.execute(
                    "INSERT INTO entrants (name, spec, added) VALUES (?, ?, ?)",
                    (entrant.name, entrant.spec, entrant.added),
                )
            except sqlite3.IntegrityError:  # added meanwhile by another process
                raise LadderError(
                    f"the ladder already has an entrant named {short_repr(name)}"
                ) from None
        return entrant

    def check_room(self, name: str) -> None:
        """Refuse ``name`` if the ladder has it or is full (:class:`LadderError`)."""
        if self._rows("SELECT 1 FROM entrants WHERE name = ?", (name,)):
            raise LadderError(f"the ladder already has an entrant named {short_repr(name)}")
        ((count,),) = self._rows("SELECT COUNT(*) FROM entrants")
        if int_of(count) >= MAX_ENTRANTS:
            raise LadderError(f"a ladder takes at most {MAX_ENTRANTS} entrants")

    def entrants(self) -> tuple[Entrant, ...]:
        """The entrants, in the order they were added."""
        rows = self._rows("SELECT name, spec, added FROM entrants ORDER BY id")
        return tuple(Entrant(str(name), str(spec), str(added)) for name, spec, added in rows)

    # Games ---------------------------------------------------------------

    def games(self, *, finished: bool | None = True) -> tuple[LadderGame, ...]:
        """The games in order: finished (``True``), scheduled (``False``) or all (``None``)."""
        where = {True: "WHERE record IS NOT NULL", False: "WHERE record IS NULL", None: ""}
        rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM games {where[finished]} ORDER BY id")
        return tuple(game_of_row(row) for row in rows)

    def record(self, game: int) -> GameRecord:
        """The record of finished game number ``game``.

        Raises:
            LadderError: when the ladder has no finished game of that number.
        """
        rows = self._rows("SELECT record FROM games WHERE id = ? AND record IS NOT NULL", (game,))
        if not rows:
            raise LadderError(f"the ladder has no finished game {short_repr(game)}")
        return from_json(str(rows[0][0]), GameRecord)

    def next_deal(self) -> int:
        """The number of the next deal: one more than the last scheduled."""
        ((deal,),) = self._rows("SELECT COALESCE(MAX(deal) + 1, 0) FROM games")
        return int_of(deal)

    def schedule(self, deal: int, seed: int, tables: Sequence[Sequence[str]]) -> None:
        """Write the games of a deal as scheduled: one per table of names, by seat.

        Call it inside :meth:`transaction`, with the choice of the tables.
        """
        with self._reported():
            self._db.executemany(
                "INSERT INTO games (deal, seed, seats) VALUES (?, ?, ?)",
                [(deal, seed, json.dumps(list(seats))) for seats in tables],
            )

    def finish(self, game: LadderGame, record: GameRecord) -> LadderGame | None:
        """Store a played game's record and result in one transaction.

        Returns:
            The game finished, or ``None`` when it was stored already (by
            another process playing the same ladder).
        """
        final = record.final_state()
        forfeit = record.forfeit
        done = attrs.evolve(
            game,
            finished=True,
            winners=record.result or (),
            points=tuple(player.points for player in final.players),
            cards=tuple(len(player.cards) for player in final.players),
            turns=final.turn,
            forfeit=forfeit,
        )
        text = to_json(record)
        with self.transaction():
            cursor = self._db.execute(
                "UPDATE games SET record = ?, winners = ?, points = ?, cards = ?, turns = ?, "
                "forfeit_seat = ?, forfeit_reason = ?, forfeit_detail = ?, finished = ? "
                "WHERE id = ? AND record IS NULL",
                (
                    text,
                    json.dumps(list(done.winners)),
                    json.dumps(list(done.points)),
                    json.dumps(list(done.cards)),
                    done.turns,
                    None if forfeit is None else forfeit.seat,
                    None if forfeit is None else forfeit.reason,
                    None if forfeit is None else forfeit.detail,
                    _now(),
                    game.id,
                ),
            )
        return done if cursor.rowcount == 1 else None
