"""A whole game through the public API."""

from __future__ import annotations

import random

import splendor


def test_a_random_game_ends_with_winners() -> None:
    state = splendor.new_game(3, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        state = splendor.apply(state, rng.choice(splendor.legal_actions(state)))
    assert state.winners
    assert splendor.legal_actions(state) == ()
