"""Dealing the cards a seat cannot see: :func:`deal_hidden`, what the searches share.

Importing this module loads the engine only, never the compiled kernel.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from splendor.core.components import Card
from splendor.core.state import GameState

__all__ = ["deal_hidden"]


def deal_hidden(
    template: GameState, blind: Sequence[Sequence[tuple[int, int]]], pools: Sequence[list[Card]]
) -> GameState:
    """``template`` with the shuffled unseen cards of each tier dealt.

    Per tier, the first cards of the pool go to the blind reserves
    ``blind[tier]`` (``(seat, slot)`` pairs, in order), the rest make the deck.
    """
    players = list(template.players)
    decks = []
    for tier in range(3):
        pool = pools[tier]
        hidden = blind[tier]
        for k, (seat, slot) in enumerate(hidden):
            player = players[seat]
            reserved = list(player.reserved)
            reserved[slot] = pool[k]
            players[seat] = attrs.evolve(player, reserved=tuple(reserved))
        decks.append(tuple(pool[len(hidden) :]))
    return attrs.evolve(template, players=tuple(players), decks=tuple(decks))
