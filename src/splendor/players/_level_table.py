"""The table of levels: each level's bot setting and its measured rating.

The public home of the levels is :mod:`splendor.players.levels`; this module
holds only their data, so that :func:`splendor.players.bots.load_bot` can
read a ``level:N`` spec without importing the bots' own module back.

The measured part (between the ``BEGIN MEASURED`` and ``END MEASURED``
lines) is written by ``benchmarks/levels.py``; edit the settings here, then
run the calibration again (``nox -s levels``).
"""

from __future__ import annotations

from typing import Final

import attrs

from splendor.core.messages import short_repr
from splendor.errors import InvalidArgumentError

#: The start of a bot spec that names a level: ``"level:5"``.
LEVEL_PREFIX: Final = "level:"


@attrs.frozen
class Level:
    """One level: a bot setting, and its strength as measured against the others.

    Attributes:
        number: the level, 1 for the weakest.
        name: a word for it, as the lobby and ``splendor play`` show it.
        spec: the bot, as a spec :func:`~splendor.players.bots.load_bot`
            reads (so also a bot of its own in a tournament).
        about: what the bot does, in a sentence.
        rating: its Bradley-Terry rating from the calibration round robin,
            on the Elo scale with the levels' mean at 1500 (see
            :func:`splendor.arena.ratings.rate`).
        low: the lower end of the rating's 95% interval.
        high: the upper end of the rating's 95% interval.
        cpu_per_move: the mean CPU seconds a move took in the calibration.
        games: the calibration games it played.
    """

    number: int
    name: str
    spec: str
    about: str
    rating: float
    low: float
    high: float
    cpu_per_move: float
    games: int


# The settings: (number, name, spec, about). A searching level's spec bounds
# its time twice: by the iterations, which make its moves reproducible, and
# by a cap in seconds (wall clock) that only a slow or busy machine reaches.
SETTINGS: Final[tuple[tuple[int, str, str, str], ...]] = (
    (1, "Novice", "random", "plays a legal move chosen uniformly at random"),
    (
        2,
        "Beginner",
        "greedy:randomness=0.8",
        "plays like the greedy bot on one turn in five, at random otherwise",
    ),
    (
        3,
        "Casual",
        "greedy:randomness=0.5",
        "plays like the greedy bot on half of its turns, at random otherwise",
    ),
    (
        4,
        "Club",
        "greedy:randomness=0.25",
        "plays like the greedy bot on three turns in four, at random otherwise",
    ),
    (
        5,
        "Greedy",
        "greedy",
        "buys what it can, else takes gems toward the cheapest card (one move ahead)",
    ),
    (
        6,
        "Advanced",
        "ismcts:iterations=20,seconds=1.0",
        "searches 20 iterations of information-set Monte Carlo tree search a move",
    ),
    (
        7,
        "Expert",
        "ismcts:iterations=250,seconds=3.0",
        "searches 250 iterations of information-set Monte Carlo tree search a move",
    ),
    (
        8,
        "Master",
        "search:iterations=1500,seconds=1.0",
        "searches 1,500 iterations a move in the compiled kernel (SearchBot)",
    ),
    (
        9,
        "Grandmaster",
        "search:iterations=14000,network=true,leaf_weight=0.25,stop_early=true,policy=true,"
        "widening=0.6,seconds=2.0",
        "searches up to 14,000 iterations a move in the compiled kernel with the value and "
        "policy networks, the strongest",
    ),
)

# BEGIN MEASURED (written by benchmarks/levels.py)
# number: (spec, rating, low, high, CPU seconds per move, games)
MEASURED: Final[dict[int, tuple[str, float, float, float, float, int]]] = {
    1: ("random", 353.1, 278.0, 428.2, 4.5e-06, 1256),
    2: ("greedy:randomness=0.8", 717.2, 657.9, 776.6, 1.38e-05, 1256),
    3: ("greedy:randomness=0.5", 1172.2, 1130.2, 1214.1, 2.75e-05, 1256),
    4: ("greedy:randomness=0.25", 1392.2, 1354.1, 1430.2, 3.97e-05, 1386),
    5: ("greedy", 1601.6, 1565.3, 1637.8, 5.26e-05, 1516),
    6: ("ismcts:iterations=20,seconds=1.0", 1720.6, 1679.8, 1761.4, 0.00241, 598),
    7: ("ismcts:iterations=250,seconds=3.0", 1898.8, 1853.9, 1943.7, 0.0354, 540),
    8: ("search:iterations=1500,seconds=1.0", 2195.3, 2122.6, 2267.9, 0.0104, 280),
    9: (
        "search:iterations=14000,network=true,leaf_weight=0.25,stop_early=true,policy=true,widening=0.6,seconds=2.0",
        2449.2,
        2353.0,
        2545.3,
        0.195,
        208,
    ),
}
# END MEASURED


def _levels() -> tuple[Level, ...]:
    levels = []
    for number, name, spec, about in SETTINGS:
        measured = MEASURED.get(number)
        if measured is None or measured[0] != spec:
            rating = low = high = cpu = float("nan")
            games = 0
        else:
            _, rating, low, high, cpu, games = measured
        levels.append(Level(number, name, spec, about, rating, low, high, cpu, games))
    return tuple(levels)


#: The levels, weakest first: ``LEVELS[n - 1]`` is level ``n``.
LEVELS: Final = _levels()


def level_number(number: object) -> int:
    """Check a level's number: an int from 1 to the last level.

    Raises:
        InvalidArgumentError: for anything else.
    """
    if type(number) is not int or not 1 <= number <= len(LEVELS):
        raise InvalidArgumentError(
            f"unknown level {short_repr(number)}: the levels are 1 to {len(LEVELS)}"
        )
    return number


def level_spec(spec: str) -> str:
    """The bot spec of the level a ``level:N`` spec names.

    Raises:
        InvalidArgumentError: for an ``N`` that is not a level's number.
    """
    text = spec[len(LEVEL_PREFIX) :]
    number: object = int(text) if text.isascii() and text.isdecimal() and len(text) <= 4 else text
    return LEVELS[level_number(number) - 1].spec
