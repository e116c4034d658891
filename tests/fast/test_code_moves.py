"""The kernel's first decision of a turn and the moves of each move code.

The compiled kernel offers the first decision of a turn (the move codes)
without listing the turn's moves, and lists the moves of a move code only
once it is chosen. At every state of random games (2, 3 and 4 players, every
rule set of :data:`tests.strategies.VARIANTS`) and at states built for each
kind of choice, both must agree with :func:`splendor.legal_actions`: the
legal codes are the first codes of the listed actions, and the moves of a
code are exactly the listed actions whose first code it is, in their order.
Every code sequence of those states must play the action it encodes.
"""

from __future__ import annotations

from hypothesis import given, settings

from splendor import (
    Action,
    Buy,
    GameState,
    Pass,
    Reserve,
    ReserveFromDeck,
    Rules,
    Take,
    apply,
    new_game,
)
from splendor.formats import encoding
from tests.builders import toks
from tests.fast.conftest import implementation
from tests.strategies import VARIANTS, game_states, variant_states

# More moves of one code than a Decider keeps in place.
_INLINE_MOVES = 16


def _kind(action: Action, same_code: int) -> str:
    """What kind of choice ``action`` is, among ``same_code`` moves of its code."""
    if type(action) is Take:
        colours = sum(1 for count in action.gems.counts if count)
        double = 2 in action.gems.counts
        shape = "double" if double else f"take-{colours}"
        return f"{shape}-{'return' if action.returned.total else 'keep'}"
    if type(action) is Reserve or type(action) is ReserveFromDeck:
        return "reserve-return" if action.returned.total else "reserve"
    if type(action) is Buy:
        assert action.payment is not None
        return "buy-gold-choice" if action.payment.counts[5] and same_code > 1 else "buy"
    assert type(action) is Pass
    return "pass"


def _check(state: GameState, seen: set[str]) -> None:
    """Compare the kernel's first decision and moves of every code with the library's."""
    kernel = implementation("kernel")
    game = kernel.Game.from_state(state)
    pairs = encoding.code_sequences(state)  # in the order of legal_actions
    firsts = [codes[0] for codes, _ in pairs]
    assert game.legal_codes() == tuple(sorted(set(firsts)))
    for code in range(-1, encoding.ACTION_COUNT + 1):
        expected = tuple(action for codes, action in pairs if codes[0] == code)
        assert kernel._code_actions(game, code) == expected, code
        for action in expected:
            seen.add(_kind(action, len(expected)))
        if len({action.noble for action in expected}) > 1:
            seen.add("noble-choice")
        if len(expected) > _INLINE_MOVES:
            seen.add("many")
    assert game.state() == state  # listing changes nothing


def _check_sequences(state: GameState) -> None:
    """Play every code sequence of ``state`` in the kernel, one code at a time."""
    kernel = implementation("kernel")
    start = kernel.Game.from_state(state)
    for codes, action in encoding.code_sequences(state):
        game = start.copy()
        for position, code in enumerate(codes):
            assert game.legal_codes() == encoding.legal_codes(state, codes[:position])
            assert game.play_code(code) == (position == len(codes) - 1)
        assert game.state() == apply(state, action)


# Every kind of choice the moves of one code can offer.
_KINDS = {
    "take-3-keep",
    "take-3-return",
    "take-2-keep",
    "take-2-return",
    "take-1-keep",
    "take-1-return",
    "double-keep",
    "double-return",
    "reserve",
    "reserve-return",
    "buy",
    "buy-gold-choice",
    "noble-choice",
    "pass",
    "many",
}


def test_every_state_of_random_games() -> None:
    seen: set[str] = set()
    for variant in sorted(VARIANTS):
        for players in (2, 3, 4):
            for turn, state in enumerate(
                variant_states(players, variant, 120, name="moves", seed=players * 7 + len(variant))
            ):
                kinds: set[str] = set()
                _check(state, kinds)
                seen |= kinds
                # Every sequence where a code has more moves than are kept in
                # place, and at some other states.
                if "many" in kinds or turn % 10 == 0:
                    _check_sequences(state)
    assert seen == _KINDS


@settings(max_examples=50, deadline=None)
@given(game_states(max_turns=200))
def test_random_states(state: GameState) -> None:
    _check(state, set())


def test_a_take_of_two_that_gives_back_every_other_token() -> None:
    # At the limit of 5 with 3 red, 1 white and 1 blue, taking 2 red gives
    # back exactly the two other tokens: the take is legal, just.
    state = new_game(4, seed=3, rules=Rules(token_limit=5))
    for gems in ("2R", "G K W", "G K W", "G K W", "R W B", "2B", "2B", "2K"):
        state = apply(state, Take(toks(gems)))
    assert state.players[0].tokens == toks("3R W B")
    double_red = encoding.TAKE_CODES[28]
    assert double_red in encoding.legal_codes(state)
    seen: set[str] = set()
    _check(state, seen)
    _check_sequences(state)
    assert "double-return" in seen
