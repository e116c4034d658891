"""What a game state and a player's view both offer about the table.

:class:`~splendor.GameState` and :class:`~splendor.PlayerView` hold the
board, the turn and the players alike, and :class:`~splendor.PlayerState`
and :class:`~splendor.PublicPlayer` a player's tokens and bonuses alike; the
accessors built on those fields are written once here. No name here is part
of the public API.
"""

from __future__ import annotations

from collections.abc import Sequence

from splendor.core.components import Card, tier_index
from splendor.core.gems import Tokens

__all__ = ["HoldingsAccessors", "TableAccessors"]


class TableAccessors:
    """The round and the face-up rows, for classes with ``turn``, ``players`` and ``board``."""

    __slots__ = ()

    turn: int
    players: Sequence[object]
    board: tuple[tuple[Card | None, ...], ...]

    @property
    def round(self) -> int:
        """The number of whole rounds played so far."""
        return self.turn // len(self.players)

    def face_up(self, tier: int) -> tuple[Card | None, ...]:
        """The four face-up slots of ``tier`` (1-3).

        Raises:
            InvalidArgumentError: for a tier other than 1, 2 or 3.
        """
        return self.board[tier_index(tier)]


class HoldingsAccessors:
    """What a player can pay, for classes with ``tokens`` and ``bonuses``."""

    __slots__ = ()

    tokens: Tokens
    bonuses: Tokens

    def missing(self, card: Card) -> Tokens:
        """The coloured tokens still lacking to buy ``card``, gold not counted.

        Each colour of the card's cost less this player's bonuses and tokens
        of that colour, where that is more than 0. Gold stands in for any of
        them: see :meth:`can_afford`.
        """
        cost, bonuses, tokens = card.cost.counts, self.bonuses.counts, self.tokens.counts
        return Tokens._of(
            (
                max(cost[0] - bonuses[0] - tokens[0], 0),
                max(cost[1] - bonuses[1] - tokens[1], 0),
                max(cost[2] - bonuses[2] - tokens[2], 0),
                max(cost[3] - bonuses[3] - tokens[3], 0),
                max(cost[4] - bonuses[4] - tokens[4], 0),
                0,
            )
        )

    def can_afford(self, card: Card) -> bool:
        """Whether this player's bonuses and tokens, gold included, pay for ``card``.

        So whether buying it is legal for the player, where the card is
        open to it (face up, or reserved by it), on its own turn.
        """
        return self.missing(card).total <= self.tokens.gold
