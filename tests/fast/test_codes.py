"""Decision codes of :mod:`splendor.formats.encoding`, one at a time, on both implementations.

At states of random games, every whole code sequence of the turn
(:func:`splendor.formats.encoding.code_sequences`) is played one code at a time on a
copy of the game: each step offers exactly ``legal_codes(state, prefix)``,
and the last code plays exactly the action the sequence decodes to.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given, settings

from splendor import GameState, Rules, apply, new_game
from splendor.errors import EncodingError
from splendor.formats import encoding
from tests.strategies import game_states


def _check_every_sequence(both: ModuleType, state: GameState) -> int:
    game = both.Game.from_state(state)
    assert game.legal_codes() == encoding.legal_codes(state)
    sequences = encoding.code_sequences(state)
    for codes, action in sequences:
        branch = game.copy()
        for position, code in enumerate(codes):
            assert branch.pending_codes == codes[:position]
            assert branch.legal_codes() == encoding.legal_codes(state, codes[:position])
            done = branch.play_code(code)
            assert done == (position == len(codes) - 1)
        assert branch.pending_codes == ()
        assert branch.state() == apply(state, action)
    return len(sequences)


@settings(max_examples=40)
@given(game_states(max_turns=150))
def test_every_code_sequence_plays_its_action(both: ModuleType, state: GameState) -> None:
    if state.is_over:
        assert both.Game.from_state(state).legal_codes() == ()
    else:
        assert _check_every_sequence(both, state) > 0


@pytest.mark.parametrize("seed", range(6))
def test_whole_games_by_codes(both: ModuleType, seed: int) -> None:
    # Gold payments, returns and nobles come up in long games under house rules.
    rules = (Rules(), Rules(token_limit=5), Rules(nobles_by_players=(10, 10, 10)))[seed % 3]
    game = both.Game.new(2 + seed % 3, seed=seed, rules=rules)
    turns = 0
    sequences = 0
    while not game.is_over and turns < 120:
        state = game.state()
        sequences += _check_every_sequence(both, state)
        codes = game.legal_codes()
        while not game.play_code(codes[(turns * 7) % len(codes)]):
            codes = game.legal_codes()
        turns += 1
    assert sequences > turns


def test_a_bad_code_changes_nothing(both: ModuleType) -> None:
    game = both.Game.new(2, seed=1, rules=Rules(token_limit=3))
    game.play_code(0)  # take white, blue, green: up to the limit of 3
    before = game.state()
    codes = game.legal_codes()
    assert game.play_code(codes[0]) is True
    assert game.state() != before
    for bad in (encoding.ACTION_COUNT, -1, encoding.PASS_CODE, True, "0", None):
        with pytest.raises(EncodingError):
            game.play_code(bad)
    assert game.pending_codes == ()
    # A take over the limit asks which tokens go back.
    assert game.play_code(1) is False
    pending = game.pending_codes
    with pytest.raises(EncodingError):
        game.play_code(0)
    assert game.pending_codes == pending
    # Playing a whole action by index drops the pending codes.
    game.play(0)
    assert game.pending_codes == ()


def test_a_finished_game_has_no_codes(both: ModuleType) -> None:
    game = both.Game.new(2, seed=3)
    game.play_random(seed=3)
    assert game.legal_codes() == ()
    with pytest.raises(EncodingError, match="over"):
        game.play_code(0)


def test_copies_keep_their_pending_codes(both: ModuleType) -> None:
    game = both.Game.new(2, seed=1, rules=Rules(token_limit=3))
    game.play_code(0)
    game.play_code(game.legal_codes()[0])
    assert game.play_code(1) is False
    clone = game.copy()
    assert clone.pending_codes == game.pending_codes != ()
    while not clone.play_code(clone.legal_codes()[0]):
        assert clone.pending_codes != ()
    assert clone.pending_codes == ()
    assert game.pending_codes != ()
    assert new_game(2, seed=1, rules=Rules(token_limit=3)) != game.state()
