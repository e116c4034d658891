"""The game's components as plain JSON data, for the bot protocol's ``newgame`` and the server.

A card is ``{"id", "tier", "bonus", "points", "cost"}`` and token counts are
a mapping from gem names to non-zero counts: one shape wherever a card is
sent whole, so that an engine or a client needs no data files.
"""

from __future__ import annotations

from splendor.core.components import Card
from splendor.core.gems import Tokens

__all__ = ["card_data", "tokens_data"]


def tokens_data(tokens: Tokens) -> dict[str, int]:
    """The non-zero counts of ``tokens`` by gem name."""
    return {gem.value: count for gem, count in tokens.items() if count}


def card_data(card: Card) -> dict[str, object]:
    """A card as JSON data: its id, tier, bonus, points and cost."""
    return {
        "id": card.id,
        "tier": card.tier,
        "bonus": card.bonus.value,
        "points": card.points,
        "cost": tokens_data(card.cost),
    }
