"""How far a player is from a card: what the built-in bots' heuristics share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from splendor.core.components import CARDS, NOBLES, Card, Noble
from splendor.core.gems import GEM_INDEX

#: Per card: (cost of each of the five colours, bonus colour index, points, tier).
CARD_FACTS: Final[dict[Card, tuple[tuple[int, ...], int, int, int]]] = {
    card: (card.cost.counts[:5], GEM_INDEX[card.bonus], card.points, card.tier) for card in CARDS
}
#: Per noble: the bonuses of each of the five colours it requires.
NOBLE_NEEDS: Final[dict[Noble, tuple[int, ...]]] = {
    noble: noble.requirement.counts[:5] for noble in NOBLES
}


def shortfall(need: Sequence[int], held: Sequence[int]) -> int:
    """The tokens still missing to pay ``need`` with ``held``, gold (index 5) standing in.

    ``need`` holds the five gem colours a card still costs after the bonuses,
    ``held`` the six counts of tokens in hand.

    >>> shortfall((2, 0, 1, 0, 0), (1, 0, 0, 0, 3, 1))
    1
    """
    short = 0
    for d in (
        need[0] - held[0],
        need[1] - held[1],
        need[2] - held[2],
        need[3] - held[3],
        need[4] - held[4],
    ):
        if d > 0:
            short += d
    gold = held[5]
    return short - gold if short > gold else 0
