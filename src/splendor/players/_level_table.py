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
        "search:iterations=12000,network=true,seconds=2.0",
        "searches 12,000 iterations a move in the compiled kernel with the value network, "
        "the strongest",
    ),
)

# BEGIN MEASURED (written by benchmarks/levels.py)
# number: (spec, rating, low, high, CPU seconds per move, games)
MEASURED: Final[dict[int, tuple[str, float, float, float, float, int]]] = {
    1: ("random", 586.8, 520.1, 653.6, 6.9e-06, 1240),
    2: ("greedy:randomness=0.8", 951.0, 900.8, 1001.1, 2.18e-05, 1240),
    3: ("greedy:randomness=0.5", 1405.9, 1372.0, 1439.9, 4.3e-05, 1240),
    4: ("greedy:randomness=0.25", 1626.0, 1594.5, 1657.6, 5.98e-05, 1370),
    5: ("greedy", 1836.3, 1803.9, 1868.7, 7.51e-05, 1500),
    6: ("ismcts:iterations=20,seconds=1.0", 1953.1, 1911.6, 1994.6, 0.00367, 510),
    7: ("ismcts:iterations=250,seconds=3.0", 2140.8, 2089.3, 2192.3, 0.0529, 380),
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
        raise InvalidArgumentError(f"unknown level {number!r}: the levels are 1 to {len(LEVELS)}")
    return number


def level_spec(spec: str) -> str:
    """The bot spec of the level a ``level:N`` spec names.

    Raises:
        InvalidArgumentError: for an ``N`` that is not a level's number.
    """
    text = spec[len(LEVEL_PREFIX) :]
    number: object = int(text) if text.isascii() and text.isdecimal() and len(text) <= 4 else text
    return LEVELS[level_number(number) - 1].spec
