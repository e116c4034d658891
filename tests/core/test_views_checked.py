"""Hand-built views are checked wherever a view is used, as states are."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import jsonschema  # type: ignore[import-untyped]  # the package ships no type hints
import pytest

import splendor
from splendor import (
    InvalidArgumentError,
    PlayerView,
    SerializationError,
    apply,
    format_action,
    from_json,
    legal_actions,
    new_game,
    parse_action,
    to_json,
    view,
)
from splendor import (
    schema as schema_module,
)
from splendor.core.views import check_view

STATE = apply(new_game(3, seed=5), splendor.ReserveFromDeck(2))
SEEN = view(STATE, 1)


def _bad_views() -> dict[str, PlayerView]:
    public = SEEN.players
    return {
        "seat 7": attrs.evolve(SEEN, current_player=7, seat=7),
        "bank a dict": attrs.evolve(SEEN, bank={"red": 1}),  # type: ignore[arg-type]  # on purpose
        "one player": attrs.evolve(SEEN, players=public[1:2], seat=0, current_player=0),
        "five players": attrs.evolve(SEEN, players=(*public, public[0], public[2])),
        "negative turn": attrs.evolve(SEEN, turn=-2),
        "deck too big": attrs.evolve(SEEN, deck_sizes=(40, 30, 20)),
        "own not public": attrs.evolve(SEEN, own=STATE.players[0]),
        "board row missing": attrs.evolve(SEEN, board=SEEN.board[:2]),
        "players not a tuple": attrs.evolve(SEEN, players=list(public)),  # type: ignore[arg-type]
    }


BAD = _bad_views()
USES: dict[str, Callable[[PlayerView], object]] = {
    "legal_actions": legal_actions,
    "method": PlayerView.legal_actions,
    "parse_action": lambda v: parse_action("+wbg", v),
    "format_action": lambda v: format_action(splendor.Pass(), v),
    "stand_in": PlayerView.stand_in,
    "check_view": check_view,
    "determinize": lambda v: splendor.determinize(v, 1),
}


@pytest.mark.parametrize("use", USES)
@pytest.mark.parametrize("name", BAD)
def test_a_bad_view_gets_the_library_error(name: str, use: str) -> None:
    with pytest.raises(InvalidArgumentError, match=r"^impossible view: |^expected a PlayerView"):
        USES[use](BAD[name])


@pytest.mark.parametrize("name", BAD)
def test_a_bad_view_is_refused_by_to_json_or_from_json(name: str) -> None:
    try:
        text = to_json(BAD[name])
    except InvalidArgumentError:
        return
    if name == "players not a tuple":  # written as an array, read back as a tuple: fine
        assert from_json(text, PlayerView) == SEEN
        return
    with pytest.raises(SerializationError):
        from_json(text, PlayerView)


def test_a_view_rebuilt_by_hand_equal_to_a_real_one_is_accepted() -> None:
    rebuilt = attrs.evolve(SEEN, turn=SEEN.turn)
    assert rebuilt is not SEEN
    assert legal_actions(rebuilt) == legal_actions(STATE)


def test_the_view_of_another_seat_cannot_list_actions() -> None:
    other = view(STATE, 2)
    check_view(other)
    with pytest.raises(InvalidArgumentError, match="cannot act for seat 1"):
        legal_actions(other)


# The JSON schema covers views.


def _schema() -> dict[str, Any]:
    schema = schema_module.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_a_saved_view_validates_against_the_schema(seat: int | None) -> None:
    document = json.loads(to_json(view(STATE, seat)))
    schema = _schema()
    jsonschema.validate(document, schema)
    jsonschema.validate(document, {**schema, "$ref": "#/$defs/view"})


def test_a_view_with_an_unknown_field_fails_the_view_schema() -> None:
    document = json.loads(to_json(SEEN))
    document["decks"] = [[], [], []]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, {**_schema(), "$ref": "#/$defs/view"})


def test_json_schema_and_format_version_are_exported_from_the_package() -> None:
    assert splendor.FORMAT_VERSION == 1
    assert splendor.json_schema()["$defs"] == _schema()["$defs"]
    assert {"json_schema", "FORMAT_VERSION"} <= set(splendor.__all__)


# Integers too long to write out get the library's error, not Python's ValueError.

HUGE = 10**5000


@pytest.mark.parametrize("field", ["turn", "passes", "current_player"])
def test_a_state_with_a_huge_integer_is_refused_by_check_state(field: str) -> None:
    # The constructor may refuse it first; either way, the library's error.
    changes: dict[str, Any] = {field: HUGE}
    with pytest.raises(splendor.SplendorError, match=r"within 64 bits|at most"):
        splendor.check_state(attrs.evolve(STATE, **changes))


def test_a_state_with_huge_rules_or_token_counts_is_refused_by_check_state() -> None:
    def with_rules() -> None:
        splendor.check_state(
            attrs.evolve(STATE, rules=attrs.evolve(STATE.rules, points_to_win=HUGE))
        )

    with pytest.raises(splendor.SplendorError, match=r"rules' numbers|Rules.points_to_win"):
        with_rules()
    with pytest.raises(
        splendor.SplendorError,
        match=r"bank must be Tokens with counts|token count must be an int from",
    ):
        splendor.check_state(attrs.evolve(STATE, bank=splendor.Tokens(red=HUGE)))


@pytest.mark.parametrize("field", ["turn", "passes", "current_player", "seat"])
def test_a_view_with_a_huge_integer_is_refused(field: str) -> None:
    changes: dict[str, Any] = {field: HUGE}
    seen = attrs.evolve(SEEN, **changes)
    with pytest.raises(InvalidArgumentError, match="impossible view: ") as info:
        check_view(seen)
    assert "an int of 16610 bits" in str(info.value)
