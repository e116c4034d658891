"""What every run of many seeded games shares: the number of players, the seed of each game.

``splendor simulate``, :func:`splendor.arena.tournament.round_robin` and
:func:`splendor.arena.selfplay.generate_records` deal game ``i`` of a run
with master seed ``seed`` by :func:`game_seed`.
"""

from __future__ import annotations

from splendor.core.messages import short_repr
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS
from splendor.errors import InvalidArgumentError

__all__ = ["check_players", "game_seed"]


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
            f"players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, got {short_repr(players)}"
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
