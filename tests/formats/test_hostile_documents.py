"""Bad arguments and malformed JSON documents for :func:`~splendor.to_json` and
:func:`~splendor.from_json`.

Each call either gives a correct result or raises a
:class:`splendor.SplendorError` subclass with a clear message; no other
exception escapes and nothing hangs. The tests come in three groups: wrong
arguments that are already handled (pinned); fixed defects, whose comments
say what went wrong before the fix; fuzzing with Hypothesis over changed and
random JSON documents.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor import (
    CARDS,
    NOBLES,
    Buy,
    GameRecord,
    GameState,
    Pass,
    PlayerState,
    PlayerView,
    RandomBot,
    ReserveFromDeck,
    Rules,
    SerializationError,
    SplendorError,
    Take,
    Tokens,
    check_state,
    from_json,
    play_game,
    to_json,
    view,
)
from tests.hostile import (
    STATES,
    THREE,
    Call,
    bad_take,
    has_message,
    raises_library_error,
)

# ---------------------------------------------------------------------------
# Wrong arguments that are handled: pinned.


HANDLED: dict[str, Call] = {
    "to_json object": lambda: to_json(object()),
    "to_json nan": lambda: to_json(float("nan")),
    "from_json int": lambda: from_json(5, GameState),  # type: ignore[call-overload]  # wrong type on purpose
    "from_json None": lambda: from_json(None, GameState),  # type: ignore[call-overload]  # wrong type on purpose
    "from_json bad utf8": lambda: from_json(b"\xff\xfe\xfd", GameState),
    "from_json NaN": lambda: from_json('{"type":"take","gems":{"red":NaN}}', Take),
    "from_json deep": lambda: from_json("[" * 100_000, GameState),
    "from_json long int": lambda: from_json("9" * 5000, Rules),
    "from_json duplicate key": lambda: from_json('{"type":"pass","type":"pass"}', Pass),
    "from_json wrong tag": lambda: from_json('{"type":"pass"}', Take),
    "from_json union": lambda: from_json('{"type":"pass"}', Take | Pass),
    "from_json object": lambda: from_json("{}", object),
}


@pytest.mark.parametrize("call", list(HANDLED.values()), ids=list(HANDLED))
def test_a_wrong_argument_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


# ---------------------------------------------------------------------------
# Fixed defects: wrong arguments that once let a foreign exception escape.


DEFECTS: dict[str, Call] = {
    # serialization.py from_json: `cls in ACTION_TAGS` hashes cls.
    "from_json cls list": lambda: from_json("1", []),  # type: ignore[call-overload]  # wrong type on purpose
    # serialization.py to_json: the hooks read .counts / .id of unchecked fields.
    "to_json Take str": lambda: to_json(bad_take()),
    "to_json Buy None": lambda: to_json(Buy(None)),  # type: ignore[arg-type]  # wrong type on purpose
    "to_json Pass noble str": lambda: to_json(Pass("n1")),  # type: ignore[arg-type]  # wrong type on purpose
}


@pytest.mark.parametrize("call", list(DEFECTS.values()), ids=list(DEFECTS))
def test_a_wrong_argument_that_once_escaped_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


def test_from_json_with_none_for_the_class_is_refused() -> None:
    # from_json("[1, 2]", None) hands back the raw JSON value.
    raises_library_error(lambda: from_json("[1, 2]", None))  # type: ignore[call-overload]  # wrong type on purpose


def test_from_json_of_an_impossible_player_state_is_refused() -> None:
    # A PlayerState with a reserved card and no blind flag, negative points and
    # gold bonuses loads; PublicPlayer.of then fails with a ValueError from zip.
    text = (
        '{"tokens":{},"cards":[],"reserved":[1],"reserved_blind":[],"nobles":[],'
        '"points":-5,"bonuses":{"gold":3}}'
    )
    with pytest.raises(SerializationError):
        from_json(text, PlayerState)


# ---------------------------------------------------------------------------
# Fuzzing.


_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=95),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["red", "gold", "take", "pass", "buy", "reserve_deck", "format"]),
)
_JSON = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

_RECORD = play_game([RandomBot()] * 2, seed=6, max_turns=12)
_DOCUMENTS: list[tuple[type[object], object]] = [
    (GameState, json.loads(to_json(STATES[2]))),
    (GameRecord, json.loads(to_json(_RECORD))),
    (PlayerView, json.loads(to_json(view(STATES[1], 1)))),
    (Rules, json.loads(to_json(Rules()))),
    (Buy, json.loads(to_json(Buy(CARDS[3], Tokens(red=1), NOBLES[0])))),
    (Take, json.loads(to_json(Take(THREE, Tokens(blue=1))))),
    (ReserveFromDeck, json.loads(to_json(ReserveFromDeck(2, Tokens(gold=1))))),
]


def _replace_somewhere(document: object, path: list[int], leaf: object) -> object:
    """``document`` with the value found by following ``path`` replaced by ``leaf``."""
    if not path:
        return leaf
    step, rest = path[0], path[1:]
    if isinstance(document, dict) and document:
        keys = sorted(document)
        key = keys[step % len(keys)]
        changed = dict(document)
        if step % 7 == 6:
            del changed[key]
            return changed
        changed[key] = _replace_somewhere(document[key], rest, leaf)
        return changed
    if isinstance(document, list) and document:
        items = list(document)
        items[step % len(items)] = _replace_somewhere(items[step % len(items)], rest, leaf)
        return items
    return leaf


@given(
    index=st.sampled_from(range(len(_DOCUMENTS))),
    path=st.lists(st.integers(min_value=0, max_value=50), max_size=6),
    leaf=_JSON,
)
def test_fuzz_from_json_of_a_changed_document(index: int, path: list[int], leaf: object) -> None:
    cls, document = _DOCUMENTS[index]
    text = json.dumps(_replace_somewhere(document, path, leaf))
    try:
        value = from_json(text, cls)
    except SplendorError as error:
        has_message(error)
    else:
        assert from_json(to_json(value), cls) == value
        if isinstance(value, GameState):
            check_state(value)


@given(document=_JSON, index=st.sampled_from(range(len(_DOCUMENTS))))
def test_fuzz_from_json_of_any_document(document: object, index: int) -> None:
    cls = _DOCUMENTS[index][0]
    try:
        from_json(json.dumps(document), cls)
    except SplendorError as error:
        has_message(error)
