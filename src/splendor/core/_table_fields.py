"""What a game state and a player's view both offer about the table.

:class:`~splendor.GameState` and :class:`~splendor.PlayerView` hold the
board, the turn and the players alike; the accessors built on those fields
are written once here. No name here is part of the public API.
"""

from __future__ import annotations

from collections.abc import Sequence

from splendor.core.components import Card, tier_index

__all__ = ["TableAccessors"]


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
