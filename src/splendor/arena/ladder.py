"""A persistent rated ladder in an SQLite file: :class:`Ladder`.

Entrants are bot specs (built-in bots, ``module:attribute`` bots, or
``engine:COMMAND`` bot engines in other processes) under names of their
own. :meth:`Ladder.play` plays games where the ratings are least certain,
each refereed by :func:`splendor.arena.referee.referee_game` (an entrant
that runs out of time, plays an illegal move, breaks the bot protocol or
crashes forfeits the game), and every finished game's record and result
are kept in the file. The ratings are recomputed from those stored results
whenever they are asked for: for 2 players Bradley-Terry on the Elo scale
(:func:`splendor.arena.ratings.rate`), for 3 or 4 players OpenSkill's
Plackett-Luce model (:func:`splendor.arena.ratings.rate_skill`, the
``[arena]`` extra), each with a 95% interval.

Scheduling works a deal at a time. A deal is the table whose entrants'
ratings are least certain together (the widest 95% intervals summed, for 2
players weighted by how open the game is by those ratings; ties go to the
table that has met least, then to a draw seeded by the ladder's seed),
played once from every rotation of its seats (for 3 or 4 players, the
tables are made from the 16 least certain entrants)
(:func:`splendor.arena.referee.fair_schedule`). Its games are written
to the file as *scheduled* (entrants by seat and seed, no result) in one
transaction before the first is played, and each game's record and result
replace its scheduled row in one transaction when it ends. So a ladder
stopped at any moment, even by ``SIGKILL``, loses nothing: the next
:meth:`Ladder.play` first plays the scheduled games left over, from their
seeds, and the ladder goes on exactly as if it had never stopped.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "ladder.sqlite"
>>> with Ladder(path, create=True, seed=3) as ladder:
...     _ = ladder.add("greedy", "greedy")
...     _ = ladder.add("random", "random")
...     played = ladder.play(4)
...     [s.name for s in ladder.standings()], [s.games for s in ladder.standings()]
(['greedy', 'random'], [4, 4])
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import html
import itertools
import json
import os
import random
import sqlite3
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Concatenate, Final, ParamSpec, TypeVar

import attrs

from splendor.arena.ratings import GameResult, rate, rate_skill
from splendor.arena.referee import TimeControl, fair_schedule, referee_game
from splendor.arena.runs import check_players, game_seed
from splendor.arena.tournament import plot_ratings
from splendor.core.rules import MIN_PLAYERS
from splendor.errors import InvalidArgumentError, SplendorError
from splendor.formats.record import MAX_SEED, Forfeit, GameRecord
from splendor.formats.serialization import from_json, to_json
from splendor.players.bots import DEFAULT_MAX_TURNS, Bot, load_bot

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_ENTRANTS",
    "MAX_NAME",
    "Entrant",
    "Ladder",
    "LadderError",
    "LadderGame",
    "Standing",
]

#: What the ``format`` entry of a ladder file says.
FORMAT: Final = "splendor-ladder"
#: The version of the ladder file's tables this module writes and reads.
FORMAT_VERSION: Final = 1
#: The longest name of an entrant, in characters.
MAX_NAME: Final = 40
#: The most entrants a ladder takes (its ratings are refitted before every deal).
MAX_ENTRANTS: Final = 64
# For 3 or 4 players, the tables of a deal are made from this many entrants,
# the least certain: the tables of all of them would be too many to weigh.
_POOL: Final = 16
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


@attrs.frozen
class Standing:
    """One entrant's line of the ladder's table.

    Attributes:
        name: the entrant's name.
        spec: its bot spec.
        rating: its rating: for 2 players Bradley-Terry on the Elo scale
            (mean 1500), for 3 or 4 players OpenSkill's ``mu`` (25 at the start).
        low: the lower end of the rating's 95% interval.
        high: the upper end of the rating's 95% interval.
        games: the finished games it played.
        wins: its wins, a shared win counting as a share.
        forfeits: the games it forfeited.
    """

    name: str
    spec: str
    rating: float
    low: float
    high: float
    games: int
    wins: float
    forfeits: int

    @property
    def width(self) -> float:
        """The width of the rating's interval: how uncertain the rating still is."""
        return self.high - self.low


def _close(bot: Bot) -> None:
    """End a bot's process, if it has one."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _reported(
    method: Callable[Concatenate[Ladder, _P], _R],
) -> Callable[Concatenate[Ladder, _P], _R]:
    """Say an error of the database file (locked too long, a full disk...) as a LadderError."""

    @functools.wraps(method)
    def reported(self: Ladder, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as error:
            raise LadderError(f"the ladder {self.path}: {error}") from None

    return reported


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _check_name(name: object) -> str:
    if not isinstance(name, str):
        raise LadderError(f"an entrant's name is a str, got {type(name).__name__}")
    if not 1 <= len(name) <= MAX_NAME or name != name.strip():
        raise LadderError(
            f"an entrant's name is 1 to {MAX_NAME} characters without spaces around, got {name!r}"
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise LadderError(f"an entrant's name is printable text, got {name!r}")
    return name


class Ladder:
    """A ladder kept in an SQLite file (in WAL mode; each change one transaction).

    Args:
        path: the ladder's file.
        create: make the file if there is none (else a missing file is an error).
        players: the players per game (2 to 4); fixed when the ladder is
            made, and checked against the file when given for one that exists.
        seed: the ladder's seed, from which every deal's seed and every
            tie in the schedule follow; fixed when the ladder is made, and
            checked like ``players``.

    Raises:
        LadderError: for a missing file (without ``create``), a file that is
            not a ladder or is of a newer version, or ``players`` or ``seed``
            that differ from the file's.
        InvalidArgumentError: for ``players`` or ``seed`` of the wrong type or range.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = False,
        players: int | None = None,
        seed: int | None = None,
    ) -> None:
        """Open the ladder at ``path``; see the class."""
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

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the file (what is committed stays)."""
        self._db.close()

    def __enter__(self) -> Ladder:
        """The ladder itself; leaving the block closes it."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Close the ladder."""
        self.close()

    # Entrants ------------------------------------------------------------

    @_reported
    def add(self, name: str, spec: str) -> Entrant:
        """Add an entrant: ``spec`` is loaded once (an engine is started and closed) to check it.

        Raises:
            LadderError: for a malformed name, one the ladder already has,
                or a ladder of :data:`MAX_ENTRANTS` entrants already.
            InvalidArgumentError: for a spec that makes no bot.
            splendor.errors.EngineError: for an engine that does not start.
        """
        _check_name(name)
        if not isinstance(spec, str):
            raise InvalidArgumentError(f"a bot spec is a str, got {type(spec).__name__}")
        if self._db.execute("SELECT 1 FROM entrants WHERE name = ?", (name,)).fetchone():
            raise LadderError(f"the ladder already has an entrant named {name!r}")
        (count,) = self._db.execute("SELECT COUNT(*) FROM entrants").fetchone()
        if count >= MAX_ENTRANTS:
            raise LadderError(f"a ladder takes at most {MAX_ENTRANTS} entrants")
        _close(load_bot(spec))
        entrant = Entrant(name, spec, _now())
        try:
            with self._transaction():
                self._db.execute(
                    "INSERT INTO entrants (name, spec, added) VALUES (?, ?, ?)",
                    (entrant.name, entrant.spec, entrant.added),
                )
        except sqlite3.IntegrityError:  # added meanwhile by another process
            raise LadderError(f"the ladder already has an entrant named {name!r}") from None
        return entrant

    @_reported
    def entrants(self) -> tuple[Entrant, ...]:
        """The entrants, in the order they were added."""
        rows = self._db.execute("SELECT name, spec, added FROM entrants ORDER BY id")
        return tuple(Entrant(*row) for row in rows)

    # Games ---------------------------------------------------------------

    @_reported
    def games(self, *, finished: bool | None = True) -> tuple[LadderGame, ...]:
        """The ladder's games in order.

        Args:
            finished: ``True`` for the finished games, ``False`` for those
                scheduled and not yet played, ``None`` for all.
        """
        where = {True: "WHERE record IS NOT NULL", False: "WHERE record IS NULL", None: ""}
        rows = self._db.execute(
            "SELECT id, deal, seed, seats, record IS NOT NULL, winners, points, cards, turns, "
            f"forfeit_seat, forfeit_reason, forfeit_detail FROM games {where[finished]} "
            "ORDER BY id"
        )
        return tuple(_game(row) for row in rows)

    @_reported
    def record(self, game: int) -> GameRecord:
        """The record of finished game number ``game``.

        Raises:
            LadderError: when the ladder has no finished game of that number.
        """
        row = self._db.execute(
            "SELECT record FROM games WHERE id = ? AND record IS NOT NULL", (game,)
        ).fetchone()
        if row is None:
            raise LadderError(f"the ladder has no finished game {game!r}")
        return from_json(row[0], GameRecord)

    @_reported
    def play(
        self,
        games: int,
        *,
        time_per_move: float | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[LadderGame, ...]:
        """Play ``games`` games: those left scheduled, then deals where ratings are least certain.

        Each game is played by the referee with ``time_per_move`` seconds per
        move for each seat; its record and result are committed in one
        transaction as soon as it ends.

        Args:
            games: how many games to play (0 or more).
            time_per_move: the seconds each seat has per move (``None``: no limit).
            max_turns: the turns after which a game stops unfinished.
            progress: called with ``(finished, games)`` after each game.

        Returns:
            The games played, in order.

        Raises:
            LadderError: when the ladder has fewer entrants than a game has players.
            InvalidArgumentError: for bad numbers, or an entrant's spec
                that no longer makes a bot (nothing is lost: the game stays
                scheduled).
        """
        if type(games) is not int or games < 0:
            raise InvalidArgumentError(f"games must be a non-negative int, got {games!r}")
        if time_per_move is not None and (
            type(time_per_move) not in (int, float) or not time_per_move > 0
        ):
            raise InvalidArgumentError(
                f"time_per_move must be a positive number of seconds, got {time_per_move!r}"
            )
        if type(max_turns) is not int or max_turns < 1:
            raise InvalidArgumentError(f"max_turns must be a positive int, got {max_turns!r}")
        specs = {entrant.name: entrant.spec for entrant in self.entrants()}
        control = None if time_per_move is None else TimeControl(move=float(time_per_move))
        played: list[LadderGame] = []
        while len(played) < games:
            game = self._next()
            bots: list[Bot] = []
            try:
                for name in game.seats:
                    bots.append(load_bot(specs[name]))
                record = referee_game(
                    bots,
                    seed=game.seed,
                    names=game.seats,
                    time_control=control,
                    max_turns=max_turns,
                )
            finally:
                for bot in bots:
                    _close(bot)
            done = self._finish(game, record)
            if done is not None:
                played.append(done)
            if progress is not None:
                progress(len(played), games)
        return tuple(played)

    def _next(self) -> LadderGame:
        """The first scheduled game; a new deal is scheduled when none is left."""
        pending = self.games(finished=False)
        if pending:
            return pending[0]
        with self._transaction():
            pending = self.games(finished=False)  # another process may have scheduled meanwhile
            if not pending:
                self._schedule()
                pending = self.games(finished=False)
        return pending[0]

    def _schedule(self) -> None:
        """Schedule the next deal (inside a transaction)."""
        entrants = [entrant.name for entrant in self.entrants()]
        if len(entrants) < self.players:
            raise LadderError(
                f"a ladder of {self.players}-player games needs at least {self.players} "
                f"entrants, it has {len(entrants)}"
            )
        (deal,) = self._db.execute("SELECT COALESCE(MAX(deal) + 1, 0) FROM games").fetchone()
        seed = game_seed(self.seed, deal)
        chosen = self._least_certain(entrants, seed) if len(entrants) > self.players else entrants
        # The seats of every game of the deal, rotated as in any fair schedule.
        rotations = fair_schedule(chosen, self.players, deals=1, seed=0)
        self._db.executemany(
            "INSERT INTO games (deal, seed, seats) VALUES (?, ?, ?)",
            [(deal, seed, json.dumps(list(table.seats))) for table in rotations],
        )

    def _least_certain(self, entrants: list[str], seed: int) -> list[str]:
        """The table of the next deal (of seed ``seed``): see the module's text."""
        standings = {standing.name: standing for standing in self.standings()}
        met: dict[frozenset[str], int] = {}
        for game in self.games(finished=None):
            key = frozenset(game.seats)
            met[key] = met.get(key, 0) + 1
        pool = entrants
        if self.players > 2 and len(pool) > _POOL:
            order = {name: k for k, name in enumerate(entrants)}
            pool = sorted(
                entrants,
                key=lambda name: (-standings[name].width, standings[name].games, order[name]),
            )[:_POOL]
            pool.sort(key=order.__getitem__)
        tables = list(itertools.combinations(pool, self.players))
        ranks = [
            (
                -round(self._uncertainty([standings[name] for name in table]), 6),
                met.get(frozenset(table), 0),
            )
            for table in tables
        ]
        best = min(ranks)
        tied = [table for table, rank in zip(tables, ranks, strict=True) if rank == best]
        return list(tied[random.Random(seed).randrange(len(tied))])

    def _uncertainty(self, table: Sequence[Standing]) -> float:
        """How much a game of ``table`` would tell: the widths of its ratings' intervals, summed.

        For 2 players the sum is weighted by how open the game is, ``4 p (1 - p)``
        with ``p`` the first's chance to win by the ratings (1 for equal
        ratings): a Bradley-Terry interval stays wide for an entrant that
        won or lost every game, and a game whose result is all but known
        tells little.
        """
        total = sum(standing.width for standing in table)
        if self.players == 2:
            first, second = table
            p = 1.0 / (1.0 + 10.0 ** ((second.rating - first.rating) / 400.0))
            total *= 4.0 * p * (1.0 - p)
        return total

    def _finish(self, game: LadderGame, record: GameRecord) -> LadderGame | None:
        """Store a played game's record and result in one transaction (``None``: stored already)."""
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
        with self._transaction():
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

    # Ratings -------------------------------------------------------------

    @_reported
    def standings(self) -> tuple[Standing, ...]:
        """Every entrant's rating, interval and counts from the stored results, best first.

        Raises:
            splendor.errors.MissingExtraError: for a ladder of 3 or 4 players
                when the ``openskill`` package (the ``[arena]`` extra) is missing.
        """
        entrants = self.entrants()
        if not entrants:
            return ()
        names = [entrant.name for entrant in entrants]
        index = {name: k for k, name in enumerate(names)}
        results = []
        wins = dict.fromkeys(names, 0.0)
        forfeits = dict.fromkeys(names, 0)
        for game in self.games():
            seats = tuple(index[name] for name in game.seats)
            results.append(
                GameResult(
                    game.id,
                    game.seed,
                    seats,
                    game.winners,
                    game.points,
                    game.cards,
                    game.turns,
                    game.forfeit,
                )
            )
            for seat in game.winners:
                wins[game.seats[seat]] += 1.0 / len(game.winners)
            if game.forfeit is not None:
                forfeits[game.seats[game.forfeit.seat]] += 1
        specs = {entrant.name: entrant.spec for entrant in entrants}
        if self.players == 2:
            rated = [(r.name, r.rating, r.low, r.high, r.games) for r in rate(names, results)]
        else:
            rated = [(r.name, r.mu, r.low, r.high, r.games) for r in rate_skill(names, results)]
        return tuple(
            Standing(
                name=name,
                spec=specs[name],
                rating=rating,
                low=low,
                high=high,
                games=games,
                wins=wins[name],
                forfeits=forfeits[name],
            )
            for name, rating, low, high, games in rated
        )

    # Export --------------------------------------------------------------

    @_reported
    def render_svg(self) -> str:
        """A plot of the ratings with their 95% intervals, as an SVG document.

        Raises:
            LadderError: when the ladder has no entrant.
        """
        standings = self.standings()
        if not standings:
            raise LadderError("the ladder has no entrant to plot")
        return plot_ratings(standings, players=self.players, games=len(self.games()))

    @_reported
    def render_html(self) -> str:
        """The ladder as a standalone HTML page: the table, the plot and the latest games.

        Raises:
            LadderError: when the ladder has no entrant.
        """
        standings = self.standings()
        svg = self.render_svg()
        finished = self.games()
        pending = self.games(finished=False)
        e = html.escape
        digits = 0 if self.players == 2 else 1  # Elo points, or OpenSkill's smaller scale
        rows = "\n".join(
            f"<tr><td>{rank}</td><td>{e(s.name)}</td><td><code>{e(s.spec)}</code></td>"
            f"<td>{s.rating:.{digits}f}</td><td>{s.low:.{digits}f}..{s.high:.{digits}f}</td>"
            f"<td>{s.games}</td>"
            f"<td>{s.wins:g}</td><td>{s.forfeits}</td></tr>"
            for rank, s in enumerate(standings, 1)
        )
        latest = "\n".join(
            f"<tr><td>{game.id}</td><td>{game.seed}</td><td>"
            + ", ".join(
                f"<b>{e(name)}</b>" if seat in game.winners else e(name)
                for seat, name in enumerate(game.seats)
            )
            + f"</td><td>{'-'.join(str(p) for p in game.points)}</td><td>{game.turns}</td>"
            f"<td>{e(_forfeit_text(game))}</td></tr>"
            for game in reversed(finished[-20:])
        )
        return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Splendor ladder</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; text-align: left; }}
td:nth-child(n+4) {{ text-align: right; }}
</style>
</head>
<body>
<h1>Splendor ladder</h1>
<p>{len(standings)} entrants, {len(finished)} games of {self.players} players
({len(pending)} scheduled), seed {self.seed}. Ratings with 95% intervals.</p>
<table>
<thead><tr><th>Rank</th><th>Name</th><th>Bot</th><th>Rating</th><th>95% interval</th>
<th>Games</th><th>Wins</th><th>Forfeits</th></tr></thead>
<tbody>
{rows}
</tbody>
</table>
{svg}
<h2>Latest games</h2>
<table>
<thead><tr><th>Game</th><th>Seed</th><th>Seats (winners in bold)</th><th>Points</th>
<th>Turns</th><th>Forfeit</th></tr></thead>
<tbody>
{latest}
</tbody>
</table>
</body>
</html>
"""


def _forfeit_text(game: LadderGame) -> str:
    forfeit = game.forfeit
    if forfeit is None:
        return ""
    return f"{game.seats[forfeit.seat]} (seat {forfeit.seat + 1}): {forfeit.reason}"


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
