"""How far a player is from a card: what the built-in bots' heuristics share."""

from __future__ import annotations

from collections.abc import Sequence


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
