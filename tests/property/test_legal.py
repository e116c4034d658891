"""The contract of legal_actions over random games."""

from __future__ import annotations

import pickle

from hypothesis import given

from splendor import GameState, Pass, apply, legal_actions
from tests.strategies import RandomGame, random_games


def _every_other(states: list[GameState], most: int) -> list[GameState]:
    step = max(1, len(states) // most)
    return states[::step]


@given(random_games())
def test_legal_actions_are_deterministic(game: RandomGame) -> None:
    states = game.states()
    for state in states:
        assert legal_actions(state) == legal_actions(state)
    for state in _every_other(states, 10):
        # A fresh copy of the state (no shared objects) lists the same actions.
        assert legal_actions(pickle.loads(pickle.dumps(state))) == legal_actions(state)


@given(random_games())
def test_legal_actions_are_empty_exactly_when_the_game_is_over(game: RandomGame) -> None:
    states = game.states()
    for state in states:
        assert (len(legal_actions(state)) == 0) == state.is_over
    assert states[-1].is_over or len(states) == game.turns + 1


@given(random_games())
def test_pass_comes_alone(game: RandomGame) -> None:
    for state in game.states():
        actions = legal_actions(state)
        passes = [action for action in actions if isinstance(action, Pass)]
        if passes:
            assert len(passes) == len(actions)
            # One pass per noble the player may receive, else a plain pass.
            nobles = [action.noble for action in passes]
            assert len(set(nobles)) == len(nobles)
            assert (None in nobles) == (len(nobles) == 1 and nobles[0] is None)


@given(random_games())
def test_every_listed_action_is_accepted_with_a_distinct_outcome(game: RandomGame) -> None:
    for state in _every_other(game.states(), 25):
        actions = legal_actions(state)
        outcomes = [apply(state, action) for action in actions]
        assert len(set(outcomes)) == len(actions)
        seat = state.current_player
        for action, outcome in zip(actions, outcomes, strict=True):
            received = len(outcome.players[seat].nobles) - len(state.players[seat].nobles)
            # A listed action names the noble it brings.
            assert received == (action.noble is not None)
