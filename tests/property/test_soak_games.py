"""Games whose every move Hypothesis chooses, checked turn by turn by the soak's checker.

Each example is a deal (players, one of the soak's rule sets, a seed) and a
list of move indices: at turn ``i`` the game plays ``legal_actions[picks[i] %
len(legal_actions)]``, and :func:`tests.soak.replay` checks the turn with the
soak's checks (in Python, and in C as well when the soak's compiled checker
is built). A failure shrinks to a short list of small indices, which is the
regression test to keep: ``assert soak.replay(players, rules, seed, picks)
== []``, the same form the soak prints for a violation it finds.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests import soak

_deals = {
    "players": st.integers(2, 4),
    "rules": st.integers(0, len(soak.RULE_SETS) - 1),
    "seed": st.integers(0, 2**32 - 1),
}


@given(**_deals, picks=st.lists(st.integers(0, 2**16), max_size=60))
def test_the_first_moves_of_a_game_break_no_rule(
    players: int, rules: int, seed: int, picks: list[int]
) -> None:
    assert soak.replay(players, rules, seed, picks) == []


# A whole game is a few hundred turns: a fifth of the profile's examples.
@settings(max_examples=max(5, settings().max_examples // 5))
@given(**_deals, picks=st.lists(st.integers(0, 2**16), max_size=400))
def test_whole_games_break_no_rule(players: int, rules: int, seed: int, picks: list[int]) -> None:
    # The moves Hypothesis chose, then random ones from the seed to the end.
    rng = random.Random(seed)
    rest = [rng.randrange(2**16) for _ in range(soak.MAX_TURNS)]
    assert soak.replay(players, rules, seed, picks + rest) == []
