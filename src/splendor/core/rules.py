"""The configurable numbers of the game: :class:`Rules`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import attrs

from splendor.core.gems import MAX_COUNT
from splendor.core.messages import short_repr
from splendor.errors import InvalidArgumentError

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "Rules"]

#: The fewest players a game may have.
MIN_PLAYERS: Final = 2
#: The most players a game may have.
MAX_PLAYERS: Final = 4


def _per_player_count(
    instance: Rules, attribute: attrs.Attribute[tuple[int, int, int]], value: object
) -> None:
    if (
        not isinstance(value, tuple)
        or len(value) != 3
        or not all(type(n) is int and 0 <= n <= MAX_COUNT for n in value)
    ):
        raise InvalidArgumentError(
            f"Rules.{attribute.name} must be 3 ints from 0 to {MAX_COUNT:,} "
            f"(for 2, 3 and 4 players), got {short_repr(value)}"
        )


def _count(minimum: int) -> Callable[[Rules, attrs.Attribute[int], object], None]:
    def check(instance: Rules, attribute: attrs.Attribute[int], value: object) -> None:
        if type(value) is not int or not minimum <= value <= MAX_COUNT:
            raise InvalidArgumentError(
                f"Rules.{attribute.name} must be an int from {minimum} to {MAX_COUNT:,}, "
                f"got {short_repr(value)}"
            )

    return check


@attrs.frozen
class Rules:
    """The numbers a game is played with; the defaults are the published rules.

    Each ``*_by_players`` setting is a tuple of three values, for 2, 3 and 4
    players.

    Attributes:
        gems_by_players: tokens of each gem colour in the supply at setup
            (default ``(4, 5, 7)``).
        gold_by_players: gold tokens in the supply at setup (default
            ``(5, 5, 5)``; the :meth:`no_gold_variant` has ``(0, 0, 5)``).
        nobles_by_players: nobles revealed at setup (default ``(3, 4, 5)``,
            the number of players plus one; at most 10).
        points_to_win: prestige points that trigger the end of the game (15).
        token_limit: the most tokens a player may hold at the end of a turn (10).
            Below 3 no card can ever be bought (the cheapest costs 3 gems), so
            such a game only ends by the round of passes, if ever.
        reserve_limit: the most reserved cards a player may hold (3).

    >>> Rules().gems(2), Rules().gold(2), Rules().nobles(2)
    (4, 5, 3)
    >>> Rules.no_gold_variant().gold(3)
    0
    >>> Rules(points_to_win=21).points_to_win
    21

    Every number is an ``int`` of at most :data:`~splendor.core.gems.MAX_COUNT`
    (a billion).

    Raises:
        InvalidArgumentError: for a setting out of range.
    """

    gems_by_players: tuple[int, int, int] = attrs.field(
        default=(4, 5, 7), validator=_per_player_count
    )
    gold_by_players: tuple[int, int, int] = attrs.field(
        default=(5, 5, 5), validator=_per_player_count
    )
    nobles_by_players: tuple[int, int, int] = attrs.field(
        default=(3, 4, 5), validator=_per_player_count
    )
    points_to_win: int = attrs.field(default=15, validator=_count(1))
    token_limit: int = attrs.field(default=10, validator=_count(0))
    reserve_limit: int = attrs.field(default=3, validator=_count(0))

    def __attrs_post_init__(self) -> None:
        if max(self.nobles_by_players) > 10:
            raise InvalidArgumentError(
                f"Rules.nobles_by_players: the game has 10 nobles, got {self.nobles_by_players}"
            )

    @classmethod
    def standard(cls) -> Rules:
        """The published rules (the same as ``Rules()``)."""
        return cls()

    @classmethod
    def no_gold_variant(cls) -> Rules:
        """The variant with no gold in 2- and 3-player games.

        Reserving still works; it just never brings gold in those games.
        """
        return cls(gold_by_players=(0, 0, 5))

    def gems(self, players: int) -> int:
        """Tokens of each gem colour in the supply at setup for ``players``."""
        return self.gems_by_players[_seat_index(players)]

    def gold(self, players: int) -> int:
        """Gold tokens in the supply at setup for ``players``."""
        return self.gold_by_players[_seat_index(players)]

    def nobles(self, players: int) -> int:
        """Nobles revealed at setup for ``players``."""
        return self.nobles_by_players[_seat_index(players)]


def _seat_index(players: int) -> int:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"Splendor is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}"
        )
    return players - MIN_PLAYERS
