"""Bad arguments and malformed text for the action notation and the record text.

:func:`~splendor.parse_action`, :func:`~splendor.format_action`,
:func:`~splendor.parse_record`, :func:`~splendor.format_record` and
:class:`~splendor.GameRecord` either give a correct result or raise a
:class:`splendor.SplendorError` subclass with a clear message; no other
exception escapes, nothing hangs and no argument is changed.

The tests come in three groups: wrong arguments and text that are already
handled (pinned); fixed defects, whose comments say what went wrong before
the fix; fuzzing with Hypothesis over notation and record text.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import splendor
from splendor import (
    CARDS,
    Action,
    Buy,
    GameRecord,
    GameState,
    Pass,
    Reserve,
    ReserveFromDeck,
    Rules,
    SplendorError,
    Take,
    Tokens,
    apply,
    format_action,
    legal_actions,
    new_game,
    parse_action,
    parse_record,
    to_json,
    view,
)
from tests.hostile import (
    FACE_UP,
    STATE,
    STATES,
    Call,
    bad_take,
    copy_card,
    has_message,
    raises_library_error,
)

# ---------------------------------------------------------------------------
# Wrong arguments that are handled: pinned.


HANDLED: dict[str, Call] = {
    "parse_action bytes": lambda: parse_action(b"+RR", STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_action None state": lambda: parse_action("p", None),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_action empty": lambda: parse_action("", STATE),
    "parse_action blank": lambda: parse_action(" \t\n", STATE),
    "parse_action nul": lambda: parse_action("\x00", STATE),
    "parse_action control": lambda: parse_action("+\x1bRR", STATE),
    "parse_action emoji": lambda: parse_action("+\N{GEM STONE}", STATE),
    "parse_action rtl": lambda: parse_action("\u202e+RR", STATE),
    "parse_action long": lambda: parse_action("+" + "w" * 100_000, STATE),
    "parse_action long digits": lambda: parse_action("b#" + "9" * 10_000, STATE),
    "parse_action zero count": lambda: parse_action("+0R", STATE),
    "parse_action card 0": lambda: parse_action("b#0", STATE),
    "parse_action noble 11": lambda: parse_action("pn11", STATE),
    "parse_action spectator": lambda: parse_action("+RR", view(STATE, None)),
    "format_action None": lambda: format_action(None, STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action state None": lambda: format_action(Pass(), None),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action Reserve None": lambda: format_action(Reserve(None), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action payment str": lambda: format_action(Buy(FACE_UP, "x"), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action tier 4": lambda: format_action(ReserveFromDeck(4), STATE),
    "format_action noble str": lambda: format_action(Pass("n1"), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_record None": lambda: splendor.format_record(None),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_record None": lambda: parse_record(None),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_record empty": lambda: parse_record(""),
    "parse_record players 9": lambda: parse_record("players: 9\nseed: 1\n"),
    "parse_record players sup": lambda: parse_record("players: \u00b2\nseed: 1\n"),
    "parse_record seed long": lambda: parse_record("players: 2\nseed: " + "9" * 5000),
    "parse_record unknown rule": lambda: parse_record("players: 2\nseed: 1\nrules: x=1\n"),
    "parse_record bad rule": lambda: parse_record("players: 2\nseed: 1\nrules: token_limit=-4\n"),
    "parse_record names": lambda: parse_record('players: 2\nseed: 1\nnames: ["a"]\n'),
    "parse_record result": lambda: parse_record("players: 2\nseed: 1\nresult: 1 0\n"),
    "parse_record twice": lambda: parse_record("players: 2\nplayers: 2\nseed: 1\n"),
    "parse_record late header": lambda: parse_record("players: 2\nseed: 1\n+RR\nseed: 2\n"),
    "GameRecord seed None": lambda: GameRecord(2, None),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord players bool": lambda: GameRecord(True, 1),
    "GameRecord actions list": lambda: GameRecord(2, 1, actions=[Pass()]),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord names list": lambda: GameRecord.start(2, seed=1, names=["a", "b"]),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord result bool": lambda: GameRecord(2, 1, result=(True,)),
    "GameRecord result unsorted": lambda: GameRecord(2, 1, result=(1, 0)),
    "GameRecord.append str": lambda: GameRecord.start(2, seed=1).append("x"),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord replay bad action": lambda: GameRecord(2, 1, actions=(bad_take(),)).replay(),
}


@pytest.mark.parametrize("call", list(HANDLED.values()), ids=list(HANDLED))
def test_a_wrong_argument_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


# ---------------------------------------------------------------------------
# Fixed defects: wrong arguments that once let a foreign exception escape.


DEFECTS: dict[str, Call] = {
    # notation.py format_action: Take.gems is not checked; _place indexes board[tier - 1].
    "format_action Take str": lambda: format_action(bad_take(), STATE),
    "format_action Take None": lambda: format_action(Take(None), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action tier str": lambda: format_action(Reserve(copy_card(CARDS[0], tier="x")), STATE),
    "format_action tier 9": lambda: format_action(Reserve(copy_card(CARDS[0], tier=9)), STATE),
    "format_action tier -7": lambda: format_action(Buy(copy_card(CARDS[0], tier=-7)), STATE),
    # notation.py _Reader: str.isdigit() accepts superscripts that int() refuses.
    "parse_action r superscript": lambda: parse_action("r\u00b21", STATE),
    "parse_action + superscript": lambda: parse_action("+\u00b2r", STATE),
    "parse_action b# superscript": lambda: parse_action("b#\u00b9", STATE),
    "parse_action circled digit": lambda: parse_action("b\u2460\u2460", STATE),
    # notation.py _parse_names: json.loads of a deeply nested list -> RecursionError.
    "parse_record deep names": lambda: parse_record(
        "players: 2\nseed: 1\nnames: " + "[" * 100_000 + "\n"
    ),
}


@pytest.mark.parametrize("call", list(DEFECTS.values()), ids=list(DEFECTS))
def test_a_wrong_argument_that_once_escaped_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


def test_a_comment_with_a_colon_is_not_read_as_a_header() -> None:
    # parse_record treats any line with a ':' as a header before cutting the comment.
    record = parse_record("players: 2\nseed: 1\n\n+RR ; note: two red\n")
    assert record.actions == (Take(Tokens(red=2)),)


def test_a_rule_with_several_numbers_is_refused_not_cut_short() -> None:
    # "token_limit=5,7" is read as 5 and the 7 is silently dropped.
    raises_library_error(lambda: parse_record("players: 2\nseed: 1\nrules: token_limit=5,7\n"))


def _with_long_reserve() -> tuple[GameState, Action]:
    """A state where a listed action buys the 10th or later reserved card."""
    rules = Rules(reserve_limit=50, token_limit=3)
    rng = random.Random(0)
    state = new_game(2, seed=0, rules=rules)
    for _ in range(400):
        actions = legal_actions(state)
        for action in actions:
            reserved = state.player.reserved
            if type(action) is Buy and action.card in reserved[9:]:
                return state, action
        reserves = [a for a in actions if type(a) is ReserveFromDeck]
        state = apply(state, reserves[0] if reserves else rng.choice(actions))
    raise AssertionError("no buy of a 10th reserved card came up")


def test_the_notation_of_a_reserve_index_of_two_digits_round_trips() -> None:
    # format_action writes "br10" but the reader takes one digit after "br".
    state, action = _with_long_reserve()
    text = format_action(action, state)
    assert text.startswith("br1")
    assert parse_action(text, state) == action


# ---------------------------------------------------------------------------
# Fuzzing.


_NOTATION = "+-=#rbpdnRBGWKY*YwgkyRrBbd0123456789 ;:\t\n"


def _not_a_foreign_digit(char: str) -> bool:
    # Digits that int() refuses are pinned by the defect tests above.
    return not (char.isdigit() and not char.isdecimal())


_TEXT = st.text(
    st.one_of(st.sampled_from(_NOTATION), st.characters().filter(_not_a_foreign_digit)),
    max_size=30,
)


@given(text=_TEXT, index=st.sampled_from(range(len(STATES))))
def test_fuzz_parse_action(text: str, index: int) -> None:
    state = STATES[index]
    before = to_json(state)
    try:
        action = parse_action(text, state)
    except SplendorError as error:
        has_message(error)
    else:
        assert action in legal_actions(state) or apply(state, action).turn == state.turn + 1
    assert to_json(state) == before


_RECORD_LINES = st.sampled_from(
    [
        "players: 2",
        "players: 3",
        "seed: 1",
        "seed: -7",
        "rules: standard",
        "rules: token_limit=3",
        'names: ["a", "b"]',
        "result: 0",
        "",
        "; comment",
    ]
)


@given(lines=st.lists(st.one_of(_RECORD_LINES, _TEXT), max_size=8))
def test_fuzz_parse_record(lines: list[str]) -> None:
    try:
        record = parse_record("\n".join(lines))
    except SplendorError as error:
        has_message(error)
    else:
        assert record.final_state().turn == len(record.actions)
