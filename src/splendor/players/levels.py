"""Levels of play, from a beginner to the strongest bot: :func:`level_bot`.

Each level is a setting of one of the built-in bots, with a bounded time per
move, and a measured step above the level below it: the levels were rated
against each other in a round robin (2-player games, each deal played with
the seats swapped) by a Bradley-Terry fit, and each level's 95% interval
lies wholly above the one below (``benchmarks/levels.py``, ``nox -s
levels``; the "Strong play" page of the docs gives the table and how it was
measured).

A bot spec names a level as ``level:N`` wherever bots are named
(:func:`~splendor.players.bots.load_bot`, ``splendor play --level N``,
``splendor tournament --bots level:5``, the web lobby):

>>> from splendor.players.levels import LEVELS, level_bot
>>> [level.spec for level in LEVELS[:2]]
['random', 'greedy:randomness=0.8']
>>> level_bot(5)
GreedyBot()
>>> LEVELS[0].rating < LEVELS[1].rating
True
>>> level_bot(0)
Traceback (most recent call last):
...
splendor.errors.InvalidArgumentError: unknown level 0: the levels are 1 to 9
"""

from __future__ import annotations

from typing import Final

from splendor.players import _level_table
from splendor.players._level_table import Level, level_number
from splendor.players.bots import Bot, load_bot

__all__ = ["LEVELS", "LEVEL_PREFIX", "Level", "level_bot"]

#: The levels, weakest first: ``LEVELS[n - 1]`` is level ``n``, a :class:`Level`.
LEVELS: Final = _level_table.LEVELS

#: The start of a bot spec that names a level: ``"level:5"``.
LEVEL_PREFIX: Final = _level_table.LEVEL_PREFIX


def level_bot(number: int) -> Bot:
    """A new bot that plays at level ``number`` (1 to ``len(LEVELS)``).

    The bot is :func:`~splendor.players.bots.load_bot`'s bot of the level's
    :attr:`~Level.spec`, so ``level_bot(n)`` and ``load_bot(f"level:{n}")``
    play alike.

    Raises:
        InvalidArgumentError: for a number that is not a level.
    """
    return load_bot(LEVELS[level_number(number) - 1].spec)
