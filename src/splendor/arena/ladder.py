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

Scheduling works a deal at a time. A deal's table gives every entrant a
fair share of the games: the entrant with the fewest games plays, against
those it has met least, then those with the fewest games, then those
whose ratings are least certain with it (the widest 95% intervals summed,
for 2 players weighted by how open the game is by those ratings; ties go
to a draw seeded by the deal's seed). The deal is played once from
every rotation of its seats
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

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Final

from splendor.arena import _ladder_file, _ladder_rows
from splendor.arena._ladder_file import LadderFile
from splendor.arena._ladder_play import play_games
from splendor.arena._ladder_report import ladder_html, ladder_svg
from splendor.arena._ladder_rows import Entrant, LadderError, LadderGame, check_name
from splendor.arena._ladder_standings import Standing, standings
from splendor.errors import InvalidArgumentError
from splendor.formats.record import GameRecord
from splendor.players.bots import DEFAULT_MAX_TURNS, ENGINE_PREFIX, load_bot
from splendor.players.seats import close_bot

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
    "resolve_spec",
]

#: What the ``format`` entry of a ladder file says.
FORMAT: Final = _ladder_file.FORMAT
#: The version of the ladder file's tables this module writes and reads.
FORMAT_VERSION: Final = _ladder_file.FORMAT_VERSION
#: The longest name of an entrant, in characters.
MAX_NAME: Final = _ladder_rows.MAX_NAME
#: The most entrants a ladder takes (its ratings are refitted before every deal).
MAX_ENTRANTS: Final = _ladder_file.MAX_ENTRANTS


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
        self._file = LadderFile(path, create=create, players=players, seed=seed)
        self.path = self._file.path
        self.players = self._file.players
        self.seed = self._file.seed

    def close(self) -> None:
        """Close the file (what is committed stays)."""
        self._file.close()

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

    def add(self, name: str, spec: str) -> Entrant:
        """Add an entrant: ``spec`` is loaded once (an engine is started and closed) to check it.

        An engine's relative paths are made absolute first (see
        :func:`resolve_spec`), so the ladder plays from any folder.

        Raises:
            LadderError: for a malformed name, one the ladder already has,
                or a ladder of :data:`MAX_ENTRANTS` entrants already.
            InvalidArgumentError: for a spec that makes no bot.
            splendor.errors.EngineError: for an engine that does not start.
        """
        check_name(name)
        if not isinstance(spec, str):
            raise InvalidArgumentError(f"a bot spec is a str, got {type(spec).__name__}")
        self._file.check_room(name)
        spec = resolve_spec(spec)
        error = close_bot(load_bot(spec))
        if error is not None:
            raise error
        return self._file.add_entrant(name, spec)

    def entrants(self) -> tuple[Entrant, ...]:
        """The entrants, in the order they were added."""
        return self._file.entrants()

    # Games ---------------------------------------------------------------

    def games(self, *, finished: bool | None = True) -> tuple[LadderGame, ...]:
        """The ladder's games in order.

        Args:
            finished: ``True`` for the finished games, ``False`` for those
                scheduled and not yet played, ``None`` for all.
        """
        return self._file.games(finished=finished)

    def record(self, game: int) -> GameRecord:
        """The record of finished game number ``game``.

        Raises:
            LadderError: when the ladder has no finished game of that number.
        """
        return self._file.record(game)

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
        return play_games(
            self._file,
            games,
            time_per_move=time_per_move,
            max_turns=max_turns,
            progress=progress,
        )

    # Ratings -------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Every entrant's rating, interval and counts from the stored results, best first.

        Raises:
            splendor.errors.MissingExtraError: for a ladder of 3 or 4 players
                when the ``openskill`` package (the ``[arena]`` extra) is missing.
        """
        return standings(self._file.entrants(), self._file.games(), self.players)

    # Export --------------------------------------------------------------

    def render_svg(self) -> str:
        """A plot of the ratings with their 95% intervals, as an SVG document.

        Raises:
            LadderError: when the ladder has no entrant.
        """
        return ladder_svg(self.standings(), players=self.players, games=len(self.games()))

    def render_html(self) -> str:
        """The ladder as a standalone HTML page: the table, the plot and the latest games.

        Raises:
            LadderError: when the ladder has no entrant.
        """
        return ladder_html(
            self.standings(),
            self.games(),
            pending=len(self.games(finished=False)),
            players=self.players,
            seed=self.seed,
        )


def resolve_spec(spec: str) -> str:
    """``spec`` with an engine's relative paths made absolute from the current folder.

    For ``engine:COMMAND``, the command's program, when written as a path
    (``./mybot``, ``bots/mybot``) to an existing file, and each argument
    that is a relative path to an existing file (``node greedy.js``)
    become absolute, and the command is written again as a shell would
    quote it. A bare program name (``node``, found on ``PATH``), options
    and other words stay as they are; any other spec is returned unchanged.

    >>> resolve_spec("greedy")
    'greedy'
    >>> resolve_spec("engine:splendor engine greedy")
    'engine:splendor engine greedy'

    Raises:
        InvalidArgumentError: for an engine command that is not well quoted.
    """
    if not spec.startswith(ENGINE_PREFIX):
        return spec
    try:
        words = shlex.split(spec[len(ENGINE_PREFIX) :])
    except ValueError as error:
        raise InvalidArgumentError(f"the command of {spec!r} is not well quoted: {error}") from None
    resolved = [
        str(Path(word).resolve())
        if _relative_file(word) and (k > 0 or os.sep in word or "/" in word)
        else word
        for k, word in enumerate(words)
    ]
    if resolved == words:
        return spec
    return ENGINE_PREFIX + shlex.join(resolved)


def _relative_file(word: str) -> bool:
    """Whether ``word`` is a relative path to an existing file."""
    if not word or word.startswith("-") or os.path.isabs(word):
        return False
    return os.path.isfile(word)
