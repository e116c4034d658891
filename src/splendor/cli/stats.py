"""The statistics of ``splendor simulate``: one game, win rates and intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from splendor.arena.runs import game_seed
from splendor.arena.tournament import GameResult, play_result
from splendor.cli.common import GuardedBot, bot_failures_as_raised
from splendor.players.bots import Bot, kernel_plays

__all__ = [
    "BotStats",
    "Summary",
    "seating",
    "simulate_one",
    "summarize",
    "wilson",
]


def seating(index: int, entries: int, rotate: bool) -> tuple[int, ...]:
    """Which bot sits at each seat in game ``index``: rotated one seat per game.

    >>> seating(0, 3, True), seating(1, 3, True), seating(1, 3, False)
    ((0, 1, 2), (1, 2, 0), (0, 1, 2))
    """
    shift = index % entries if rotate else 0
    return tuple((seat + shift) % entries for seat in range(entries))


def simulate_one(job: tuple[tuple[str, ...], int, int, bool, int]) -> GameResult:
    """Play game ``index`` of a simulation (the unit of work of each worker).

    Games between plain random and greedy bots are played inside the
    compiled kernel when it is in use, with the same result (see
    :func:`splendor.arena.tournament.play_result`).
    """
    specs, seed, index, rotate, max_turns = job
    entries = seating(index, len(specs), rotate)
    this_seed = game_seed(seed, index)
    guarded = [GuardedBot(specs[e], this_seed) for e in entries]
    plain = [guard.bot for guard in guarded]
    # The kernel plays only the built-in random and greedy bots, which run no
    # user code: they need no guard, and unguarded the kernel can play them.
    bots: list[Bot] = plain if kernel_plays(plain) else list(guarded)
    with bot_failures_as_raised():
        return play_result(bots, index=index, seed=this_seed, entrants=entries, max_turns=max_turns)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.frozen
class BotStats:
    """How one of the bots given to ``simulate`` did.

    Attributes:
        bot: the bot's own name (its ``name`` attribute, else its class or
            function name).
        spec: the bot as given on the command line (``greedy``, ``mybots:Hoarder``).
        seat: its seat in the first game, the order it was given in; the
            seats rotate every game unless ``--no-rotate`` is given.
        wins: the games it won, shared wins included.
        shared_wins: of those, the games whose win it shared (a tie on
            points and cards).
        win_rate: ``wins`` over the games played.
        ci95: the 95% Wilson score interval of the win rate.
        mean_points: its mean points at the end of a game.
    """

    bot: str
    spec: str
    seat: int
    wins: int
    shared_wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_points: float


@attrs.frozen
class Summary:
    """The statistics of a simulation.

    Attributes:
        games: games played.
        finished: games that ended by the rules (the others hit ``max_turns``).
        players: players per game.
        bots: one :class:`BotStats` per bot given, in the order given.
        mean_turns: the mean number of turns of the finished games.
    """

    games: int
    finished: int
    players: int
    bots: tuple[BotStats, ...]
    mean_turns: float | None

    def as_json(self) -> dict[str, object]:
        """The statistics as JSON-ready values."""
        rounds = None if self.mean_turns is None else round(self.mean_turns / self.players, 4)
        return {
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.games - self.finished,
            "players": self.players,
            "bots": [attrs.asdict(bot) for bot in self.bots],
            "mean_turns": self.mean_turns,
            "mean_rounds": rounds,
        }


def summarize(
    specs: Sequence[str], outcomes: Sequence[GameResult], names: Sequence[str] | None = None
) -> Summary:
    """The statistics of a simulation: per bot wins, win rate, its interval and points.

    Args:
        specs: the bots as given, one per seat of the first game.
        outcomes: the games played.
        names: the bots' own names, one per spec; the specs by default.
    """
    count = len(outcomes)
    wins = [0] * len(specs)
    shared = [0] * len(specs)
    points = [0] * len(specs)
    seats_played = [0] * len(specs)
    for outcome in outcomes:
        for seat, entry in enumerate(outcome.entrants):
            points[entry] += outcome.points[seat]
            seats_played[entry] += 1
            if seat in outcome.winners:
                wins[entry] += 1
                shared[entry] += len(outcome.winners) > 1
    names = list(specs) if names is None else list(names)
    bots = []
    for entry, spec in enumerate(specs):
        low, high = wilson(wins[entry], count)
        bots.append(
            BotStats(
                bot=names[entry],
                spec=spec,
                seat=entry,
                wins=wins[entry],
                shared_wins=shared[entry],
                win_rate=round(wins[entry] / count, 6) if count else 0.0,
                ci95=(round(low, 6), round(high, 6)),
                mean_points=round(points[entry] / max(1, seats_played[entry]), 4),
            )
        )
    turns = [o.turns for o in outcomes if o.winners]
    return Summary(
        games=count,
        finished=len(turns),
        players=len(specs),
        bots=tuple(bots),
        mean_turns=round(sum(turns) / len(turns), 4) if turns else None,
    )
