"""Rated tournaments between bots: :func:`round_robin`.

Every table of ``players`` entrants (each combination of them) plays
``games`` games, in the order of :func:`splendor.arena.referee.fair_schedule`:
game ``g`` of a table deals the deal of ``g // players`` and seats the
entrants rotated by ``g % players``, so each deal is played from every seat
and nobody gains from moving first.

Each game is refereed (:func:`splendor.arena.referee.referee_game`), under a
time control if one is given: a bot that fails forfeits the game instead of
stopping the tournament, and the result lists the forfeit with its reason.

The results are rated by :mod:`splendor.arena.ratings`: Bradley-Terry on the
Elo scale from the pairwise scores (:func:`~splendor.arena.ratings.rate`),
and for games of 3 or 4 players also OpenSkill's Plackett-Luce ratings of
the whole rankings (:func:`~splendor.arena.ratings.rate_skill`), each with
a 95% interval.

Bots are given as specs: a name from :data:`splendor.players.bots.BOTS`, or
``module:attribute``, optionally followed by ``:`` and options passed to
the bot's class, such as ``"ismcts:iterations=200,seed=3"``; they are read
by :func:`splendor.players.bots.load_bot` (here also as :func:`make_bot`),
as everywhere else.

>>> from splendor.arena.tournament import round_robin
>>> result = round_robin(["random", "greedy"], games=4, seed=1)
>>> [rating.name for rating in result.ratings]
['greedy', 'random']
>>> result.crosstable[1][0]  # greedy's score against random
1.0
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

import attrs

from splendor.arena.parallel import run_tasks
from splendor.arena.ratings import GameResult, Rating, SkillRating, rate, rate_skill
from splendor.arena.referee import TimeControl, fair_schedule, referee_game
from splendor.arena.runs import check_players
from splendor.core.messages import short_repr
from splendor.draw.charts import Interval, interval_chart
from splendor.errors import InvalidArgumentError
from splendor.extras import require
from splendor.players.bots import (
    DEFAULT_MAX_TURNS,
    ENGINE_PREFIX,
    Bot,
    kernel_plays,
    parse_bot_spec,
    play_final_state,
)
from splendor.players.bots import load_bot as make_bot
from splendor.players.seats import close_bot

__all__ = [
    "GameResult",
    "RatedEntrant",
    "Rating",
    "SkillRating",
    "TournamentResult",
    "make_bot",
    "parse_bot_spec",
    "play_result",
    "plot_ratings",
    "rate",
    "rate_skill",
    "round_robin",
]


@attrs.frozen
class TournamentResult:
    """Everything a tournament produced.

    Attributes:
        names: the entrants' names (their specs, numbered when repeated).
        specs: the entrants' bot specs.
        players: the players per game.
        games_per_table: the games each table played.
        seed: the tournament's seed.
        games: every game's result, in the order of their indexes.
        crosstable: ``crosstable[i][j]`` is entrant ``i``'s mean pairwise
            score against entrant ``j`` (``None`` on the diagonal or when
            they never met).
        ratings: the ratings, best first (see :func:`rate`).
        skill_ratings: for games of 3 or 4 players, the OpenSkill ratings,
            best first (see :func:`~splendor.arena.ratings.rate_skill`);
            ``()`` for two-player games.
    """

    names: tuple[str, ...]
    specs: tuple[str, ...]
    players: int
    games_per_table: int
    seed: int
    games: tuple[GameResult, ...]
    crosstable: tuple[tuple[float | None, ...], ...]
    ratings: tuple[Rating, ...]
    skill_ratings: tuple[SkillRating, ...] = ()

    @property
    def forfeits(self) -> tuple[GameResult, ...]:
        """The games that ended by a forfeit, in the order of their indexes."""
        return tuple(game for game in self.games if game.forfeit is not None)

    def to_dict(self) -> dict[str, object]:
        """The results as plain JSON-ready data."""
        return {
            "names": list(self.names),
            "specs": list(self.specs),
            "players": self.players,
            "games_per_table": self.games_per_table,
            "seed": self.seed,
            "ratings": [attrs.asdict(rating) for rating in self.ratings],
            "skill_ratings": [attrs.asdict(rating) for rating in self.skill_ratings],
            "crosstable": [list(row) for row in self.crosstable],
            "games": [
                {
                    "index": g.index,
                    "seed": g.seed,
                    "entrants": list(g.entrants),
                    "winners": list(g.winners),
                    "points": list(g.points),
                    "cards": list(g.cards),
                    "turns": g.turns,
                    "forfeit": None if g.forfeit is None else attrs.asdict(g.forfeit),
                }
                for g in self.games
            ],
        }

    def to_json(self, *, indent: int | None = 1) -> str:
        """The results as JSON text (see :meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent)

    def format(self) -> str:
        """The ratings, the crosstable and the forfeits as plain text, for a terminal.

        Games of 3 or 4 players add their OpenSkill ratings; a forfeit is
        listed with its game, seat, entrant, reason and detail.

        >>> print(round_robin(["greedy", "random"], games=2, seed=1).format())
        ... # doctest: +NORMALIZE_WHITESPACE
        rank  bot     rating  95% interval  games  wins  score
           1  greedy    1676    1367..1985      2   2.0  100.0%
           2  random    1324    1015..1633      2   0.0    0.0%
        <BLANKLINE>
        score of row vs column      1      2
         1 greedy                   - 100.0%
         2 random                0.0%      -
        """
        order = {rating.name: rank for rank, rating in enumerate(self.ratings)}
        width = max(len("bot"), *(len(name) for name in self.names))
        lines = [
            f"rank  {'bot':<{width}}  rating  95% interval  games  wins  score",
        ]
        for rank, r in enumerate(self.ratings, 1):
            interval = f"{r.low:.0f}..{r.high:.0f}"
            lines.append(
                f"{rank:>4}  {r.name:<{width}}  {r.rating:>6.0f}  {interval:>12}  "
                f"{r.games:>5}  {r.wins:>4.1f}  {100 * r.score:5.1f}%"
            )
        lines.append("")
        ranked = sorted(range(len(self.names)), key=lambda i: order[self.names[i]])
        head = [f"{k:>7}" for k in range(1, len(ranked) + 1)]
        label = "score of row vs column"
        column = max(width + 5, len(label))
        lines.append(f"{label:<{column}}" + "".join(head))
        for k, i in enumerate(ranked, 1):
            cells = []
            for j in ranked:
                value = self.crosstable[i][j]
                cells.append(f"{'-':>7}" if value is None else f"{100 * value:>6.1f}%")
            lines.append(f"{f'{k:>2} {self.names[i]}':<{column}}" + "".join(cells))
        if self.skill_ratings:
            lines += ["", f"rank  {'bot':<{width}}      mu  95% interval  ordinal  games"]
            for rank, skill in enumerate(self.skill_ratings, 1):
                interval = f"{skill.low:.1f}..{skill.high:.1f}"
                lines.append(
                    f"{rank:>4}  {skill.name:<{width}}  {skill.mu:>6.1f}  {interval:>12}  "
                    f"{skill.ordinal:>7.1f}  {skill.games:>5}"
                )
        if self.forfeits:
            lines += ["", f"forfeits: {len(self.forfeits)}"]
            for game in self.forfeits:
                assert game.forfeit is not None  # by the property's filter
                entrant = self.names[game.entrants[game.forfeit.seat]]
                lines.append(
                    f"  game {game.index} seat {game.forfeit.seat} {entrant}: "
                    f"{game.forfeit.reason}"
                    + (f" ({game.forfeit.detail})" if game.forfeit.detail else "")
                )
        return "\n".join(lines)

    def render_svg(self) -> str:
        """A plot of the ratings with their 95% intervals, as an SVG document."""
        return plot_ratings(self.ratings, players=self.players, games=len(self.games))


class RatedEntrant(Protocol):
    """What :func:`plot_ratings` draws of an entrant: its name, rating and interval."""

    @property
    def name(self) -> str:
        """The entrant's name."""
        ...

    @property
    def rating(self) -> float:
        """Its rating."""
        ...

    @property
    def low(self) -> float:
        """The lower end of the rating's interval."""
        ...

    @property
    def high(self) -> float:
        """The upper end of the rating's interval."""
        ...


def plot_ratings(ratings: Sequence[RatedEntrant], *, players: int, games: int) -> str:
    """A plot of ratings with their 95% intervals, in the order given, as an SVG document.

    Args:
        ratings: the entrants, each with a name, a rating and its interval
            (:class:`Rating`, or a ladder's standings).
        players: the players per game, for the title.
        games: the games the ratings come from, for the title.

    >>> plot = plot_ratings(rate(["a", "b"], []), players=2, games=0)
    >>> plot.startswith("<svg"), "(0 games, 2 players)" in plot
    (True, True)
    """
    return interval_chart(
        [Interval(r.name, r.rating, r.low, r.high) for r in ratings],
        title=f"Ratings with 95% intervals ({games} games, {players} players)",
    )


# One game of a tournament: (index, seed, specs by seat, names by seat, entrants by
# seat, max_turns, time control).
_Task = tuple[int, int, tuple[str, ...], tuple[str, ...], tuple[int, ...], int, TimeControl | None]


def play_result(
    bots: Sequence[Bot],
    *,
    index: int,
    seed: int,
    entrants: tuple[int, ...],
    max_turns: int,
    refereed: bool = False,
    time_control: TimeControl | None = None,
    names: Sequence[str] | None = None,
) -> GameResult:
    """Play one seeded game between ``bots`` (one per seat) and give its result.

    The game is :func:`splendor.play_game`'s ``play_game(bots, seed=seed,
    max_turns=max_turns)``, where a failing bot raises, played by
    :func:`splendor.players.bots.play_final_state` (inside the kernel for a
    table of plain :class:`~splendor.RandomBot` and
    :class:`~splendor.GreedyBot` seats when it is compiled). A refereed game
    (or one with a time control) is
    :func:`~splendor.arena.referee.referee_game`'s instead: the same game
    until a bot fails, which then forfeits; a table the kernel plays is
    played as an unrefereed one, since those bots cannot fail.

    Args:
        bots: one bot per seat.
        index: the game's number, kept in the result.
        seed: the seed of the deal and of the bots' generators.
        entrants: the entrant at each seat, kept in the result.
        max_turns: the turns after which the game stops unfinished.
        refereed: whether the game is refereed.
        time_control: the time control of the game, if any (a game with
            one is refereed).
        names: a name per seat, by which a refereed game's forfeit names
            the seat; the bots' own names by default.

    >>> from splendor import GreedyBot, RandomBot
    >>> result = play_result(
    ...     [GreedyBot(), RandomBot()], index=0, seed=5, entrants=(0, 1), max_turns=1000
    ... )
    >>> result.winners, result.seed
    ((0,), 5)
    """
    if (refereed or time_control is not None) and not kernel_plays(bots):
        record = referee_game(
            bots, seed=seed, names=names, time_control=time_control, max_turns=max_turns
        )
        return GameResult.of_record(index, entrants, record)
    final = play_final_state(bots, seed=seed, max_turns=max_turns)
    return GameResult.of(index, seed, entrants, final)


def _play(bots: Sequence[Bot], task: _Task) -> GameResult:
    """Play the game of ``task`` with ``bots``, refereed."""
    index, seed, _, names, entrants, max_turns, time_control = task
    return play_result(
        bots,
        index=index,
        seed=seed,
        entrants=entrants,
        max_turns=max_turns,
        refereed=True,
        time_control=time_control,
        names=names,
    )


def _play_task(task: _Task) -> GameResult:
    """Play one game of a tournament with bots made for it, closed after it."""
    bots: list[Bot] = []
    try:
        for spec in task[2]:
            bots.append(make_bot(spec))
        return _play(bots, task)
    finally:
        for bot in bots:
            close_bot(bot)


def _play_here(
    tasks: Sequence[_Task], progress: Callable[[int, int], None] | None
) -> Iterator[tuple[int, GameResult]]:
    """Play the games in this process, one engine process per entrant for all its games.

    An engine is started once and plays every game of its entrant, told of
    each new game by the bot protocol, until it forfeits (its process is
    then ended, and a new one plays the next game); every engine is closed
    when the games end or fail. Other bots are made afresh for each game, as
    in :func:`_play_task`.
    """
    engines: dict[int, Bot] = {}
    try:
        for done, task in enumerate(tasks, 1):
            index, _, specs, _, entrants, _, _ = task
            bots: list[Bot] = []
            made: list[Bot] = []
            for spec, entrant in zip(specs, entrants, strict=True):
                if spec.startswith(ENGINE_PREFIX):
                    if entrant not in engines:
                        engines[entrant] = make_bot(spec)
                    bots.append(engines[entrant])
                else:
                    bots.append(make_bot(spec))
                    made.append(bots[-1])
            try:
                result = _play(bots, task)
            finally:
                for bot in made:
                    close_bot(bot)
            if result.forfeit is not None:
                loser = entrants[result.forfeit.seat]
                if loser in engines:
                    close_bot(engines.pop(loser))
            if progress is not None:
                progress(done, len(tasks))
            yield index, result
    finally:
        for bot in engines.values():
            close_bot(bot)


def _names(specs: Sequence[str]) -> tuple[str, ...]:
    names = []
    for spec in specs:
        name = spec
        count = 2
        while name in names:
            name = f"{spec}#{count}"
            count += 1
        names.append(name)
    return tuple(names)


def check_run(
    specs: Sequence[str], *, games: object, fewest: int, seed: object, max_turns: object
) -> None:
    """Refuse bad numbers of a run of games, and specs that make no bot (in this process)."""
    if type(games) is not int or games < fewest:
        raise InvalidArgumentError(
            f"games must be an int of at least {fewest}, got {short_repr(games)}"
        )
    if type(seed) is not int:
        raise InvalidArgumentError(f"seed must be an int, got {short_repr(seed)}")
    if type(max_turns) is not int or max_turns < 0:
        raise InvalidArgumentError(
            f"max_turns must be a non-negative int, got {short_repr(max_turns)}"
        )
    for spec in specs:
        error = close_bot(make_bot(spec))
        if error is not None:
            raise error


def round_robin(
    bots: Sequence[str],
    *,
    games: int = 100,
    players: int = 2,
    seed: int = 0,
    workers: int = 1,
    ray: str | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    time_control: TimeControl | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play a round robin between bots, seats rotated, and rate them.

    Args:
        bots: the entrants' bot specs (at least ``players`` of them); a spec
            given twice is two entrants (the second named ``spec#2``).
        games: the games each table plays; a multiple of ``players`` gives
            every entrant of a table each seat equally often.
        players: players per game, 2 to 4.
        seed: the tournament's seed: the same seed, bots and numbers give
            the same games, however they are run.
        workers: local processes to play on (see
            :func:`splendor.arena.parallel.run_tasks`).
        ray: run the games as Ray tasks: ``"local"`` or a cluster's address.
        max_turns: the bound on turns of one game (see
            :func:`splendor.play_game`).
        time_control: the time control of every game (see
            :class:`~splendor.arena.referee.TimeControl`), or ``None``.
        progress: called with ``(finished, total)`` games as they finish.

    Returns:
        The :class:`TournamentResult`.

    Raises:
        InvalidArgumentError: for bad arguments or a bot spec that does not
            make a bot (checked before any game is played).
        splendor.arena.parallel.RayError: when Ray is wanted but missing or
            unreachable.
    """
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidArgumentError(f"bots must be a sequence of bot specs, got {short_repr(bots)}")
    specs = tuple(bots)
    check_players(players)
    if len(specs) < players:
        raise InvalidArgumentError(
            f"a tournament of {players}-player games needs at least {players} bots, "
            f"got {len(specs)}"
        )
    check_run(specs, games=games, fewest=1, seed=seed, max_turns=max_turns)
    if time_control is not None and not isinstance(time_control, TimeControl):
        raise InvalidArgumentError(
            f"time_control must be a TimeControl or None, got {short_repr(time_control)}"
        )
    if players > 2:
        require("openskill.models", "arena", "the rating of games of 3 or 4 players")
    names = _names(specs)
    deals = -(-games // players)
    schedule = fair_schedule(names, players, deals, seed)
    block = deals * players
    tasks: list[_Task] = []
    for start in range(0, len(schedule), block):
        for table in schedule[start : start + games]:
            seated = tuple(names.index(name) for name in table.seats)
            tasks.append(
                (
                    len(tasks),
                    table.seed,
                    tuple(specs[e] for e in seated),
                    table.seats,
                    seated,
                    max_turns,
                    time_control,
                )
            )
    results: list[GameResult | None] = [None] * len(tasks)
    here = workers == 1 and ray is None and any(s.startswith(ENGINE_PREFIX) for s in specs)
    runs = (
        _play_here(tasks, progress)
        if here
        else run_tasks(_play_task, tasks, workers=workers, ray=ray, progress=progress)
    )
    for index, result in runs:
        results[index] = result
    played = tuple(r for r in results if r is not None)
    n = len(specs)
    totals = [[0.0] * n for _ in range(n)]
    counts = [[0] * n for _ in range(n)]
    for game in played:
        for a, b, score in game.pairs():
            totals[a][b] += score
            totals[b][a] += 1.0 - score
            counts[a][b] += 1
            counts[b][a] += 1
    crosstable = tuple(
        tuple(totals[i][j] / counts[i][j] if counts[i][j] else None for j in range(n))
        for i in range(n)
    )
    return TournamentResult(
        names=names,
        specs=specs,
        players=players,
        games_per_table=games,
        seed=seed,
        games=played,
        crosstable=crosstable,
        ratings=rate(names, played),
        skill_ratings=rate_skill(names, played) if players > 2 else (),
    )
