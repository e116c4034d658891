"""What every run of many seeded games shares: the seed of each game, and where it is played.

``splendor simulate``, :func:`splendor.arena.tournament.round_robin` and
:func:`splendor.arena.selfplay.generate_records` deal game ``i`` of a run
with master seed ``seed`` by :func:`game_seed`, and play a table in the
compiled kernel exactly when :func:`kernel_plays` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS
from splendor.errors import InvalidArgumentError

if TYPE_CHECKING:
    from splendor.players.bots import Bot

__all__ = ["check_players", "game_seed", "kernel_plays"]


def check_players(players: object) -> int:
    """``players`` when it is a number of players a game can have (2 to 4).

    >>> check_players(3)
    3
    >>> check_players(5)
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: players must be an int from 2 to 4, got 5

    Raises:
        InvalidArgumentError: for anything else.
    """
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}"
        )
    return players


def game_seed(seed: int, index: int) -> int:
    """The seed of game (or deal) ``index`` of a run with master ``seed``.

    Runs with neighbouring master seeds share no game until one of them
    plays a million games.

    >>> game_seed(0, 5), game_seed(1, 0)
    (5, 1000003)
    """
    return seed * 1_000_003 + index


def kernel_plays(bots: Sequence[Bot]) -> bool:
    """Whether a table of ``bots`` is played inside the compiled kernel.

    True when the compiled kernel is in use (:data:`splendor.fast.COMPILED`)
    and :func:`splendor.fast.bot_game_can_play` accepts the table (every seat
    a plain :class:`~splendor.RandomBot` or :class:`~splendor.GreedyBot`):
    :func:`splendor.fast.bot_game` then plays move for move the game
    :func:`splendor.play_game` plays, many times faster.

    >>> from splendor import GreedyBot, ISMCTSBot, RandomBot, fast
    >>> kernel_plays([GreedyBot(), RandomBot()]) == fast.COMPILED
    True
    >>> kernel_plays([GreedyBot(), ISMCTSBot()])
    False
    """
    from splendor import fast  # loaded on first use, as the kernel is

    return fast.COMPILED and fast.bot_game_can_play(bots)
