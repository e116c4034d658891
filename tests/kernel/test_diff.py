"""The compiled kernel and the pure fallback play exactly the engine's game.

A sample of the differential check of ``tests/kernel/diff.py`` (``nox -s
kernel-diff`` runs it over a million states): seeded random games of 2, 3 and
4 players under every rule variant of the tests, and Hypothesis games with a
bias towards buying, compared at every state with the attrs engine.
"""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import given

from splendor import GameState, Rules, apply, legal_actions
from tests.kernel.diff import SETTINGS, FastGame, GameMaker, Mismatch, check_game
from tests.strategies import VARIANTS, RandomGame, random_games


@pytest.mark.parametrize(("players", "variant"), SETTINGS)
def test_every_setting_plays_the_engine_game(
    from_state: GameMaker, players: int, variant: str
) -> None:
    tally = check_game(from_state, players, VARIANTS[variant], seed=players * 1000 + 7)
    assert tally.games == 1
    assert tally.states > 1
    assert tally.successors >= tally.states - 1


def test_long_sample_without_successors(from_state: GameMaker) -> None:
    # Whole games: the listing at every state and the state after every turn.
    states = 0
    for seed in range(12):
        players, variant = SETTINGS[seed * 5 % len(SETTINGS)]
        states += check_game(from_state, players, VARIANTS[variant], seed, successors=False).states
    assert states > 1000


@given(random_games(max_turns=120))
def test_hypothesis_games_play_the_engine_game(from_state: GameMaker, game: RandomGame) -> None:
    states = game.states()
    fast = from_state(states[0])
    for before, after in itertools.pairwise(states):
        actions = legal_actions(before)
        assert fast.actions() == actions
        index = actions.index(next(a for a in actions if apply(before, a) == after))
        fast.play(index)
        assert fast.state() == after
    assert fast.state() == states[-1]
    assert fast.actions() == legal_actions(states[-1])


def test_a_mismatch_is_reported(from_state: GameMaker) -> None:
    # The check itself can fail: a game told to play other rules than the
    # engine's disagrees at once.
    def wrong(state: GameState) -> FastGame:
        return from_state(attrs.evolve(state, rules=Rules(points_to_win=3)))

    with pytest.raises(Mismatch, match="the states differ"):
        check_game(wrong, 2, Rules(), seed=1)
