"""The search's determinizations: every one is a state the view cannot tell apart."""

from __future__ import annotations

import random

from splendor import check_state, view
from splendor.players.ismcts import _Dealer
from tests.players.test_ismcts import _midgame


def test_every_deal_shows_the_same_view_and_is_a_valid_state() -> None:
    state = _midgame(turns=6)
    seat = state.current_player
    seen = view(state, seat)
    dealer = _Dealer(seen, random.Random(1))
    rng = random.Random(2)
    tops = set()
    blinds = set()
    for _ in range(60):
        dealt = dealer.deal(rng)
        check_state(dealt)
        assert view(dealt, seat) == seen
        for tier in (1, 2, 3):
            hidden = list(dealt.decks[tier - 1])
            hidden += [
                card
                for other, player in enumerate(dealt.players)
                if other != seat
                for card, blind in zip(player.reserved, player.reserved_blind, strict=True)
                if blind and card.tier == tier
            ]
            assert sorted(hidden, key=lambda card: card.id) == list(seen.unseen(tier))
        tops.add(dealt.decks[0][0])
        other = dealt.players[1 - seat]
        blinds.add(tuple(c for c, b in zip(other.reserved, other.reserved_blind, strict=True) if b))
    # The hidden cards really are dealt at random.
    assert len(tops) > 10
    assert len(blinds) > 5


def test_the_deals_depend_only_on_the_generator() -> None:
    state = _midgame(turns=6)
    seen = view(state, state.current_player)
    one = _Dealer(seen, random.Random(3))
    two = _Dealer(seen, random.Random(3))
    rng_one, rng_two = random.Random(4), random.Random(4)
    assert [one.deal(rng_one) for _ in range(5)] == [two.deal(rng_two) for _ in range(5)]
