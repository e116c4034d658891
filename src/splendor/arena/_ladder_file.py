"""The ladder's storage: its SQLite file, its tables and their rows.

:class:`LadderFile` is the one place that reads and writes a ladder's file;
every error of the database (locked too long, a full disk...) leaves it as
a :class:`LadderError`. The rows come out as :class:`Entrant` and
:class:`LadderGame` values.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import attrs

from splendor.arena.runs import check_players
from splendor.core.rules import MIN_PLAYERS
from splendor.errors import InvalidArgumentError, SplendorError
from splendor.formats.record import MAX_SEED, Forfeit, GameRecord
from splendor.formats.serialization import from_json, to_json

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_ENTRANTS",
    "MAX_NAME",
    "Entrant",
    "LadderError",
    "LadderFile",
    "LadderGame",
    "check_name",
]

#: What the ``format`` entry of a ladder file says.
FORMAT: Final = "splendor-ladder"
#: The version of the ladder file's tables this module writes and reads.
FORMAT_VERSION: Final = 1
#: The longest name of an entrant, in characters.
MAX_NAME: Final = 40
#: The most entrants a ladder takes (its ratings are refitted before every deal).
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

# The columns of a game, in the order _game reads them.
_GAME_COLUMNS: Final = (
    "id, deal, seed, seats, record IS NOT NULL, winners, points, cards, turns, "
    "forfeit_seat, forfeit_reason, forfeit_detail"
)


class LadderError(SplendorError):
    """A ladder file that cannot be used, or a request the ladder cannot carry out.

    Raised for a file that is not a ladder (or is damaged, or of a newer
    version), a missing ladder, a duplicate or malformed entrant name, too
    few entrants to play, or settings that contradict the file's own.
    """


@attrs.frozen
class Entrant:
    """One entrant of a ladder.

    Attributes:
        name: its name, unique in the ladder.
        spec: its bot spec (see :func:`splendor.players.bots.load_bot`).
        added: when it was added, as an ISO 8601 UTC time.
    """

    name: str
    spec: str
    added: str


@attrs.frozen
class LadderGame:
    """One game of a ladder, finished or scheduled.

    Attributes:
        id: the game's number in the ladder (the order it was scheduled in).
        deal: the number of the deal it belongs to.
        seed: the seed it is (or was) played with.
        seats: the entrant's name at each seat.
        finished: whether it has been played; the fields below are empty
            until then.
        winners: the winning seats (every seat but the forfeiting one
            after a forfeit; ``()`` for a game stopped unfinished at the
            bound on turns).
        points: the prestige points of each seat at the end.
        cards: the number of cards each seat bought.
        turns: the turns played.
        forfeit: the forfeit that ended the game, if one did: the seat, the
            reason (``"timeout"``, ``"illegal-move"``, ``"protocol"`` or
            ``"crash"``) and what happened.
    """

    id: int
    deal: int
    seed: int
    seats: tuple[str, ...]
    finished: bool = False
    winners: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    turns: int = 0
    forfeit: Forfeit | None = None


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def check_name(name: object) -> str:
    """``name`` if it can name an entrant, else the :class:`LadderError` that says why."""
    if not isinstance(name, str):
        raise LadderError(f"an entrant's name is a str, got {type(name).__name__}")
    if not 1 <= len(name) <= MAX_NAME or name != name.strip():
        raise LadderError(
            f"an entrant's name is 1 to {MAX_NAME} characters without spaces around, got {name!r}"
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise LadderError(f"an entrant's name is printable text, got {name!r}")
    return name


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
                f"seed must be an int within +-{_MAX_LADDER_SEED}, got {seed!r}"
            )
        if not isinstance(path, str | os.PathLike):
            raise InvalidArgumentError(f"a ladder's path is a str or a path, got {path!r}")
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
                raise LadderError(f"the ladder already has an entrant named {name!r}") from None
        return entrant

    def check_room(self, name: str) -> None:
        """Refuse ``name`` if the ladder has it or is full (:class:`LadderError`)."""
        if self._rows("SELECT 1 FROM entrants WHERE name = ?", (name,)):
            raise LadderError(f"the ladder already has an entrant named {name!r}")
        ((count,),) = self._rows("SELECT COUNT(*) FROM entrants")
        if _int(count) >= MAX_ENTRANTS:
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
        return tuple(_game(row) for row in rows)

    def record(self, game: int) -> GameRecord:
        """The record of finished game number ``game``.

        Raises:
            LadderError: when the ladder has no finished game of that number.
        """
        rows = self._rows("SELECT record FROM games WHERE id = ? AND record IS NOT NULL", (game,))
        if not rows:
            raise LadderError(f"the ladder has no finished game {game!r}")
        return from_json(str(rows[0][0]), GameRecord)

    def next_deal(self) -> int:
        """The number of the next deal: one more than the last scheduled."""
        ((deal,),) = self._rows("SELECT COALESCE(MAX(deal) + 1, 0) FROM games")
        return _int(deal)

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


def _game(row: tuple[object, ...]) -> LadderGame:
    """A row of the ``games`` table as a :class:`LadderGame`."""
    game_id, deal, seed, seats, finished, winners, points, cards, turns, seat, reason, detail = row
    try:
        game = LadderGame(_int(game_id), _int(deal), _int(seed), _names(seats))
        if not finished:
            return game
        return attrs.evolve(
            game,
            finished=True,
            winners=_ints(winners),
            points=_ints(points),
            cards=_ints(cards),
            turns=_int(turns),
            forfeit=None if seat is None else Forfeit(_int(seat), str(reason), str(detail or "")),
        )
    except (TypeError, ValueError):
        raise LadderError(f"game {game_id!r} of the ladder is damaged") from None


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(value)
    return value


def _ints(text: object) -> tuple[int, ...]:
    values = json.loads(str(text))
    if not isinstance(values, list):
        raise TypeError(values)
    return tuple(_int(value) for value in values)


def _names(text: object) -> tuple[str, ...]:
    values = json.loads(str(text))
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise TypeError(values)
    return tuple(values)
