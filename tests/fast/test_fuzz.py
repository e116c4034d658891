"""Hostile input to :mod:`splendor.fast`: every call gives a correct result or the library's error.

Hypothesis corrupts states of random games field by field and feeds them to
``Game.from_state`` and ``random_playouts``, and plays random indices, on the
compiled kernel and on the pure fallback alike. Nothing may crash the
interpreter or escape as another exception, and a refused call changes nothing.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from types import ModuleType

import attrs
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from splendor import (
    CARDS,
    NOBLES,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    PlayerState,
    Rules,
    SplendorError,
    Tokens,
    apply,
    check_state,
    legal_actions,
)
from tests.strategies import game_states

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 20),
    st.integers(-(2**70), 2**70),
    st.text(max_size=3),
    st.sampled_from(CARDS),
    st.sampled_from(NOBLES),
)
_TOKENS = st.builds(Tokens, *[st.integers(0, 300)] * 6)
_JUNK = st.one_of(
    _SCALARS,
    _TOKENS,
    st.tuples(),
    st.lists(_SCALARS, max_size=5).map(tuple),
    st.lists(st.sampled_from(CARDS), max_size=6).map(tuple),
    st.lists(st.lists(st.one_of(st.none(), st.sampled_from(CARDS)), max_size=5).map(tuple)).map(
        tuple
    ),
)
_STATE_FIELDS = [field.name for field in attrs.fields(GameState)]
_PLAYER_FIELDS = [field.name for field in attrs.fields(PlayerState)]


@st.composite
def corrupted_states(draw: st.DrawFn) -> GameState:
    """A state of a random game with one or two fields replaced by junk."""
    state = draw(game_states(max_turns=80))
    for _ in range(draw(st.integers(1, 2))):
        players = state.players
        whole = type(players) is tuple and all(type(p) is PlayerState for p in players)
        if draw(st.booleans()) and whole and players:
            seat = draw(st.integers(0, len(players) - 1))
            name = draw(st.sampled_from(_PLAYER_FIELDS))
            player = attrs.evolve(players[seat], **{name: draw(_JUNK)})
            state = attrs.evolve(state, players=(*players[:seat], player, *players[seat + 1 :]))
        else:
            try:
                state = attrs.evolve(state, **{draw(st.sampled_from(_STATE_FIELDS)): draw(_JUNK)})
            except SplendorError:
                # The constructor itself refuses it (a turn out of range): no state to try.
                reject()
    return state


@settings(max_examples=80)
@given(corrupted_states())
def test_from_state_accepts_exactly_what_check_state_accepts(
    both: ModuleType, state: GameState
) -> None:
    try:
        game = both.Game.from_state(state)
    except SplendorError:
        return
    # Accepted: a valid state, played exactly as the engine plays it.
    assert game.state() == state
    actions = legal_actions(state)
    assert game.actions() == actions
    if actions:
        game.play(len(actions) - 1)
        assert game.state() == apply(state, actions[-1])


@settings(max_examples=40)
@given(corrupted_states(), st.integers(0, 2**64))
def test_random_playouts_refuse_bad_states(both: ModuleType, state: GameState, seed: int) -> None:
    try:
        result = both.random_playouts(state, 1, seed=seed, max_turns=50)
    except SplendorError:
        return
    assert result.games == 1
    assert result.turns <= 50


_INDICES = st.one_of(
    st.integers(-60, 60),
    st.integers(-(2**80), 2**80),
    st.sampled_from([None, "1", 1.0, True, b"0", (1,)]),
)


@settings(max_examples=60)
@given(game_states(max_turns=150), st.lists(_INDICES, max_size=25))
def test_play_with_any_index(both: ModuleType, state: GameState, indices: list[object]) -> None:
    game = both.Game.from_state(state)
    for index in indices:
        actions = legal_actions(state)
        try:
            game.play(index)  # anything, on purpose
        except (InvalidArgumentError, IllegalActionError):
            assert game.state() == state
            ok = type(index) is int and -len(actions) <= index < len(actions)
            assert not ok
            continue
        assert type(index) is int
        state = apply(state, actions[index])
        assert game.state() == state


class _Stop(Exception):
    """Raised by the alarm of the test below."""


def _stop(signum: int, frame: object) -> None:
    raise _Stop


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX interval timers")
@pytest.mark.parametrize("call", ["random_playouts", "play_random"])
def test_a_game_that_never_ends_can_be_interrupted(both: ModuleType, call: str) -> None:
    # With a token limit of 0 nobody can ever buy: the game never ends.
    game = both.Game.new(2, seed=1, rules=Rules(token_limit=0))
    previous = signal.signal(signal.SIGALRM, _stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        run: Callable[[], object] = (
            (lambda: both.random_playouts(game, 1, seed=1))
            if call == "random_playouts"
            else (lambda: game.play_random(seed=1))
        )
        with pytest.raises(_Stop):
            run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # The game is whole: where it stopped (the kernel plays in place) or where it was.
    check_state(game.state())
    assert game.action_count() > 0
