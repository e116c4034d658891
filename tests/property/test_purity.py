"""States are values: apply never changes its inputs, and seeds replay games exactly."""

from __future__ import annotations

import contextlib
import pickle

import attrs
from hypothesis import assume, given
from hypothesis import strategies as st

from splendor import (
    Action,
    Buy,
    GameState,
    IllegalActionError,
    Pass,
    Reserve,
    Take,
    Tokens,
    apply,
    legal_actions,
    new_game,
)
from tests.strategies import VARIANTS, RandomGame, random_games

# How many states of each game the costlier checks look at.
SAMPLED_STATES = 12


def _sample(states: list[GameState]) -> list[GameState]:
    step = max(1, len(states) // SAMPLED_STATES)
    return states[::step]


def _illegal_attempts(state: GameState) -> list[Action]:
    """Actions that the rules forbid here (or that may be legal: both are tried)."""
    attempts: list[Action] = [Take(Tokens(gold=1)), Take(Tokens(white=1, blue=1, green=1, red=1))]
    for deck in state.decks:
        if deck:
            attempts += [Reserve(deck[0]), Buy(deck[0])]
    if not isinstance(legal_actions(state)[0], Pass):
        attempts.append(Pass())
    return attempts


@given(random_games())
def test_apply_never_changes_the_state_or_the_action(game: RandomGame) -> None:
    for state in _sample(game.states()):
        if state.is_over:
            continue
        before = pickle.dumps(state)
        hashed = hash(state)
        actions = legal_actions(state)
        attempts = _illegal_attempts(state)
        actions_before = pickle.dumps((actions, attempts))
        for action in actions:
            apply(state, action)
        for attempt in attempts:
            with contextlib.suppress(IllegalActionError):
                apply(state, attempt)
        assert state == pickle.loads(before)
        assert hash(state) == hashed
        assert (actions, attempts) == pickle.loads(actions_before)


@given(random_games())
def test_the_same_seed_and_actions_give_the_same_game(game: RandomGame) -> None:
    states = game.states()
    again = game.states()
    assert states == again
    assert [hash(s) for s in states] == [hash(s) for s in again]
    replayed = game.first_state()
    assert replayed is not states[0]
    for action, expected in zip(game.actions(), states[1:], strict=True):
        replayed = apply(replayed, action)
        assert replayed == expected
        assert hash(replayed) == hash(expected)


@given(random_games())
def test_equal_states_hash_equal(game: RandomGame) -> None:
    for state in _sample(game.states()):
        copy = pickle.loads(pickle.dumps(state))
        rebuilt = attrs.evolve(state)
        assert copy == state == rebuilt
        assert hash(copy) == hash(state) == hash(rebuilt)
        assert {state: 1}[copy] == 1
        for player in state.players:
            assert hash(pickle.loads(pickle.dumps(player))) == hash(player)


@given(
    st.integers(2, 4),
    st.sampled_from(tuple(VARIANTS)),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**32 - 1),
)
def test_the_seed_decides_the_deal(players: int, variant: str, seed: int, other: int) -> None:
    rules = VARIANTS[variant]
    first = new_game(players, seed=seed, rules=rules)
    assert first == new_game(players, seed=seed, rules=rules)
    assert hash(first) == hash(new_game(players, seed=seed, rules=rules))
    assume(seed != other)
    # Two shuffles of 40, 30 and 20 cards coinciding is beyond belief.
    assert first.decks != new_game(players, seed=other, rules=rules).decks
