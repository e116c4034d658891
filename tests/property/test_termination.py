"""Every game ends: random play reaches the end within a generous bound."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import VARIANTS, RandomGame

# Games of random play that prefers buying last about 80-240 turns; a game
# still running after this many turns is stuck.
TURN_BOUND = 1500


@given(
    st.builds(
        RandomGame,
        players=st.integers(2, 4),
        variant=st.sampled_from(tuple(VARIANTS)),
        seed=st.integers(0, 2**32 - 1),
        play_seed=st.integers(0, 2**32 - 1),
        turns=st.just(TURN_BOUND),
        buy_bias=st.sampled_from((0.5, 0.9, 1.0)),
    )
)
def test_random_games_end_after_a_whole_round(game: RandomGame) -> None:
    states = game.states()
    last = states[-1]
    assert last.is_over, f"no end after {TURN_BOUND} turns"
    assert last.turn % game.players == 0
    assert last.turn == len(states) - 1
    assert all(not state.is_over for state in states[:-1])
