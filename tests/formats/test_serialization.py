"""The JSON format: what is written, what is refused and how, golden files, the schema."""

from __future__ import annotations

import json
from pathlib import Path
from types import UnionType
from typing import Any, Final

import jsonschema  # type: ignore[import-untyped]  # the package ships no type hints
import pytest

import splendor
from splendor import (
    CARDS_BY_ID,
    NOBLES_BY_ID,
    Action,
    Buy,
    Card,
    GameRecord,
    GameState,
    Gem,
    Noble,
    Pass,
    PlayerState,
    Reserve,
    ReserveFromDeck,
    Rules,
    SerializationError,
    Take,
    Tokens,
    from_json,
    new_game,
    to_json,
)
from splendor.formats.serialization import ACTION_TAGS, make_converter
from splendor.schema import FORMAT_VERSION, json_schema
from tests.builders import unchecked

GOLDEN: Final = Path(__file__).parent / "golden"


def _doc(value: object) -> dict[str, object]:
    data = json.loads(to_json(value))
    assert isinstance(data, dict)
    return data


def _errors(text: str, cls: type[object] | UnionType) -> tuple[str, ...]:
    with pytest.raises(SerializationError) as info:
        from_json(text, cls)
    return info.value.errors


def _state_errors(data: object) -> tuple[str, ...]:
    return _errors(json.dumps(data), GameState)


# What is written.


def test_a_state_starts_with_the_format_version() -> None:
    assert next(iter(_doc(new_game(2, seed=1)))) == "format"
    assert _doc(new_game(2, seed=1))["format"] == FORMAT_VERSION == 1


def test_a_state_is_written_compact_on_one_line() -> None:
    text = to_json(new_game(3, seed=2))
    assert "\n" not in text
    assert ", " not in text
    assert ": " not in text


def test_indent_pretty_prints_the_same_document() -> None:
    state = new_game(3, seed=2)
    pretty = to_json(state, indent=2)
    assert "\n  " in pretty
    assert json.loads(pretty) == json.loads(to_json(state))


def test_tokens_are_an_object_of_colours_leaving_out_zeros() -> None:
    converter = make_converter()
    assert converter.unstructure(Tokens(red=2, gold=1)) == {"red": 2, "gold": 1}
    assert converter.unstructure(Tokens()) == {}


def test_cards_and_nobles_are_written_as_their_ids() -> None:
    state = new_game(2, seed=1)
    data = _doc(state)
    assert data["board"] == [[c.id if c else None for c in row] for row in state.board]
    assert data["decks"] == [[c.id for c in deck] for deck in state.decks]
    assert data["nobles"] == [n.id for n in state.nobles]


def test_the_whole_deck_order_is_written() -> None:
    data = _doc(new_game(4, seed=9))
    decks = data["decks"]
    assert isinstance(decks, list)
    assert [len(deck) for deck in decks] == [36, 26, 16]


def test_rules_are_written_in_full() -> None:
    assert _doc(Rules(points_to_win=21)) == {
        "gems_by_players": [4, 5, 7],
        "gold_by_players": [5, 5, 5],
        "nobles_by_players": [3, 4, 5],
        "points_to_win": 21,
        "token_limit": 10,
        "reserve_limit": 3,
    }


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (Take(Tokens(red=2)), {"type": "take", "gems": {"red": 2}}),
        (
            Take(Tokens(red=1, blue=1, green=1), Tokens(gold=1), NOBLES_BY_ID[2]),
            {
                "type": "take",
                "gems": {"blue": 1, "green": 1, "red": 1},
                "returned": {"gold": 1},
                "noble": 2,
            },
        ),
        (Reserve(CARDS_BY_ID[5]), {"type": "reserve", "card": 5}),
        (
            ReserveFromDeck(3, Tokens(white=1)),
            {"type": "reserve_deck", "tier": 3, "returned": {"white": 1}},
        ),
        (Buy(CARDS_BY_ID[40]), {"type": "buy", "card": 40}),
        (Buy(CARDS_BY_ID[40], Tokens()), {"type": "buy", "card": 40, "payment": {}}),
        (Pass(), {"type": "pass"}),
        (Pass(NOBLES_BY_ID[10]), {"type": "pass", "noble": 10}),
    ],
)
def test_actions_are_tagged_and_leave_out_defaults(action: Action, expected: object) -> None:
    assert _doc(action) == expected
    assert from_json(to_json(action), Action) == action
    assert from_json(json.dumps(expected), type(action)) == action


def test_action_tags_are_stable_names_not_class_names() -> None:
    assert dict(ACTION_TAGS) == {
        Take: "take",
        Reserve: "reserve",
        ReserveFromDeck: "reserve_deck",
        Buy: "buy",
        Pass: "pass",
    }


def test_an_action_unstructured_alone_or_in_the_union_is_the_same() -> None:
    action = Buy(CARDS_BY_ID[12], Tokens(blue=1))
    converter = make_converter()
    assert converter.unstructure(action) == converter.unstructure(action, Action)


def test_a_record_is_written_with_its_format_and_tagged_actions() -> None:
    record = GameRecord.start(2, seed=4, names=("Ann", "Bea")).append(Take(Tokens(blue=2)))
    data = _doc(record)
    assert list(data) == ["format", "players", "seed", "rules", "actions", "names", "result"]
    assert data["actions"] == [{"type": "take", "gems": {"blue": 2}}]
    assert data["names"] == ["Ann", "Bea"]
    assert data["result"] is None


def test_names_keep_their_characters() -> None:
    record = GameRecord.start(2, seed=4, names=("Zoë", "李"))
    assert "Zoë" in to_json(record)
    assert from_json(to_json(record), GameRecord).names == ("Zoë", "李")


# What is read.


def test_loaded_cards_and_nobles_are_the_shared_instances() -> None:
    state = from_json(to_json(new_game(2, seed=3)), GameState)
    card = state.board[0][0]
    assert card is not None
    assert card is CARDS_BY_ID[card.id]
    assert all(n is NOBLES_BY_ID[n.id] for n in state.nobles)


def test_bytes_are_accepted() -> None:
    state = new_game(2, seed=3)
    assert from_json(to_json(state).encode(), GameState) == state


def test_a_concrete_action_type_accepts_only_its_own_type() -> None:
    errors = _errors('{"type": "pass"}', Take)
    assert errors == ("expected the action type 'take', got 'pass' @ $.type",)


def test_a_concrete_action_type_needs_the_tag() -> None:
    assert _errors('{"card": 3}', Buy) == ("required field missing @ $.type",)


def test_missing_optional_action_fields_take_their_defaults() -> None:
    assert from_json('{"type": "reserve_deck", "tier": 1}', Action) == ReserveFromDeck(1)
    assert from_json('{"type": "buy", "card": 7, "payment": null}', Action) == Buy(CARDS_BY_ID[7])


def test_rules_load_alone() -> None:
    rules = Rules(gold_by_players=(0, 0, 5), reserve_limit=2)
    assert from_json(to_json(rules), Rules) == rules


# What is refused, with the path of each problem.


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "malformed JSON: Expecting property name"),
        ("", "malformed JSON: Expecting value"),
        ('{"type": "pass", "type": "take"}', 'duplicate key "type"'),
        ('{"type": "take", "gems": {"red": NaN}}', "NaN is not valid JSON"),
        ("[" * 100_000, "malformed JSON"),
    ],
)
def test_malformed_json_is_refused(text: str, expected: str) -> None:
    (error,) = _errors(text, Action)
    assert expected in error
    assert error.endswith("@ $")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[]", "expected an action object, got an array @ $"),
        ('{"gems": {}}', "required field missing @ $.type"),
        ('{"type": "steal"}', 'unknown action type "steal"'),
        ('{"type": 3}', "unknown action type 3"),
        ('{"type": "Take", "gems": {}}', 'unknown action type "Take"'),
        ('{"type": "buy", "card": 91}', "unknown card id 91 (card ids run 1 to 90) @ $.card"),
        ('{"type": "buy", "card": 0}', "unknown card id 0"),
        (
            '{"type": "buy", "card": "5"}',
            'expected a card id (an integer 1 to 90), got the string "5" @ $.card',
        ),
        ('{"type": "buy", "card": 5.0}', "got the number 5.0 @ $.card"),
        ('{"type": "buy", "card": true}', "got true @ $.card"),
        ('{"type": "pass", "noble": 0}', "unknown noble id 0 (noble ids run 1 to 10) @ $.noble"),
        (
            '{"type": "reserve_deck", "tier": "1"}',
            'expected an integer, got the string "1" @ $.tier',
        ),
        ('{"type": "take", "gems": {"purple": 1}}', "unknown colour 'purple'"),
        (
            '{"type": "take", "gems": {"red": -1}}',
            "non-negative integer, got the number -1 @ $.gems.red",
        ),
        ('{"type": "take", "gems": {"red": true}}', "got true @ $.gems.red"),
        ('{"type": "take", "gems": {"red": 1.5}}', "got the number 1.5 @ $.gems.red"),
        (
            '{"type": "take", "gems": [1, 2]}',
            'expected an object of token counts like {"red": 2}, got an array @ $.gems',
        ),
        ('{"type": "take", "gems": {}, "colour": "red"}', "unknown field(s) 'colour' @ $"),
        ('{"type": "pass", "noble": null, "extra": 1}', "unknown field(s) 'extra' @ $"),
    ],
)
def test_a_bad_action_document_names_the_problem_and_its_path(text: str, expected: str) -> None:
    errors = _errors(text, Action)
    assert any(expected in error for error in errors), errors


def test_every_problem_is_listed_at_once() -> None:
    text = '{"type": "take", "gems": {"red": -1, "pink": 1}, "returned": 3, "noble": 11, "x": 0}'
    errors = _errors(text, Action)
    assert len(errors) == 5
    assert {error.rsplit(" @ ", 1)[1] for error in errors} == {
        "$.gems.red",
        "$.gems.pink",
        "$.returned",
        "$.noble",
        "$",
    }
    with pytest.raises(SerializationError, match="5 problems"):
        from_json(text, Action)


def test_a_serialization_error_is_a_splendor_error_and_a_value_error() -> None:
    assert issubclass(SerializationError, splendor.SplendorError)
    assert issubclass(SerializationError, ValueError)
    with pytest.raises(SerializationError) as info:
        from_json("nope", GameState)
    assert info.value.__cause__ is not None


def test_a_missing_state_field_is_refused_even_with_a_default() -> None:
    data = _doc(new_game(2, seed=1))
    del data["turn"]
    del data["winners"]
    errors = _state_errors(data)
    assert set(errors) == {"required field missing @ $.turn", "required field missing @ $.winners"}


def test_a_missing_player_field_is_refused() -> None:
    data = _doc(new_game(2, seed=1))
    players = data["players"]
    assert isinstance(players, list)
    del players[1]["reserved_blind"]
    assert _state_errors(data) == ("required field missing @ $.players[1].reserved_blind",)


def test_deep_paths_are_given() -> None:
    data = _doc(new_game(2, seed=1))
    board = data["board"]
    assert isinstance(board, list)
    board[2][3] = 99
    assert _state_errors(data) == ("unknown card id 99 (card ids run 1 to 90) @ $.board[2][3]",)


@pytest.mark.parametrize("version", [0, 2, "1", None, 1.0, True])
def test_an_unsupported_format_version_is_refused(version: object) -> None:
    data = _doc(new_game(2, seed=1))
    data["format"] = version
    (error,) = _state_errors(data)
    assert error.startswith("unsupported format version")
    assert error.endswith("(this version of splendor-rules reads format 1) @ $.format")


def test_a_state_without_a_format_is_refused() -> None:
    data = _doc(new_game(2, seed=1))
    del data["format"]
    assert _state_errors(data) == ("required field missing @ $.format",)


def test_a_record_with_an_unsupported_format_is_refused() -> None:
    data = _doc(GameRecord.start(2, seed=1))
    data["format"] = 3
    (error,) = _errors(json.dumps(data), GameRecord)
    assert error == (
        "unsupported format version 3 of a game record "
        "(this version of splendor-rules reads record formats 1 and 2) @ $.format"
    )


def test_bad_rules_are_refused_with_the_rules_reason() -> None:
    data = _doc(new_game(2, seed=1))
    rules = data["rules"]
    assert isinstance(rules, dict)
    rules["nobles_by_players"] = [3, 4, 11]
    (error,) = _state_errors(data)
    assert "the game has 10 nobles" in error
    assert error.endswith("@ $.rules")


def test_a_rules_array_of_the_wrong_length_is_refused() -> None:
    text = to_json(Rules()).replace("[4,5,7]", "[4,5]")
    assert _errors(text, Rules) == ("expected an array of 3 items, got 2 @ $.gems_by_players",)


def test_a_string_is_not_taken_for_an_array() -> None:
    data = _doc(new_game(2, seed=1))
    data["nobles"] = "123"
    assert _state_errors(data) == ('expected an array, got the string "123" @ $.nobles',)


def test_an_impossible_state_is_refused_naming_the_invariant() -> None:
    data = _doc(new_game(2, seed=1))
    bank = data["bank"]
    assert isinstance(bank, dict)
    bank["red"] = 5
    (error,) = _state_errors(data)
    assert error.startswith("impossible state: tokens: red tokens add up to 5")
    with pytest.raises(SerializationError) as info:
        from_json(json.dumps(data), GameState)
    assert isinstance(info.value.__cause__, ValueError)


def test_a_record_with_an_illegal_action_names_the_turn_and_the_reason() -> None:
    data = _doc(GameRecord.start(2, seed=1).append(Take(Tokens(red=2))))
    actions = data["actions"]
    assert isinstance(actions, list)
    actions.append({"type": "take", "gems": {"red": 2}})
    (error,) = _errors(json.dumps(data), GameRecord)
    assert error == (
        "turn 2 (player 1, take 2R): take 2 red needs 4 red in the supply, there are 2"
        " @ $.actions[1]"
    )


def test_a_record_with_a_wrong_result_is_refused() -> None:
    data = _doc(GameRecord.start(2, seed=1))
    data["result"] = {"winners": [0]}
    (error,) = _errors(json.dumps(data), GameRecord)
    assert "the game is not over" in error
    assert error.endswith("@ $.result")


def test_a_record_with_names_for_the_wrong_player_count_is_refused() -> None:
    data = _doc(GameRecord.start(2, seed=1))
    data["names"] = ["a", "b", "c"]
    (error,) = _errors(json.dumps(data), GameRecord)
    assert "must name each of the 2 players" in error


def test_a_record_may_leave_out_names_and_result() -> None:
    data = _doc(GameRecord.start(3, seed=8))
    del data["names"]
    del data["result"]
    assert from_json(json.dumps(data), GameRecord) == GameRecord(3, seed=8)


def test_bad_arguments_are_invalid_argument_errors() -> None:
    with pytest.raises(splendor.InvalidArgumentError):
        from_json(3, GameState)  # type: ignore[call-overload]  # the wrong type on purpose
    with pytest.raises(splendor.InvalidArgumentError):
        from_json("{}", Take | Buy)
    with pytest.raises(splendor.InvalidArgumentError):
        from_json("{}", complex)
    with pytest.raises(splendor.InvalidArgumentError):
        to_json(object())


# Golden files: written by hand-checked versions; they must keep loading.


def _golden(name: str) -> str:
    return (GOLDEN / name).read_text(encoding="utf-8")


def test_golden_fresh_two_player_state() -> None:
    state = from_json(_golden("state-2p-fresh.json"), GameState)
    assert state == new_game(2, seed=1)
    assert state.bank == Tokens(4, 4, 4, 4, 4, 5)
    assert [[c.id if c else None for c in row] for row in state.board] == [
        [24, 3, 12, 2],
        [66, 42, 61, 65],
        [85, 74, 88, 84],
    ]
    assert [n.id for n in state.nobles] == [2, 10, 5]
    assert json.loads(_golden("state-2p-fresh.json")) == _doc(state)


def test_golden_mid_game_four_player_state() -> None:
    state = from_json(_golden("state-4p-midgame.json"), GameState)
    assert (state.turn, state.current_player, state.passes, state.winners) == (98, 2, 0, ())
    assert [p.points for p in state.players] == [6, 6, 1, 2]
    assert state.board[0] == (None, None, None, None)
    assert state.decks[0] == ()
    assert [n.id for n in state.players[1].nobles] == [9]
    assert state.players[1].tokens == Tokens(green=3, red=1, black=2, gold=1)
    assert state.players[2].reserved_blind == (True, True, False)
    assert state.bank[Gem.GOLD] == 4
    assert json.loads(_golden("state-4p-midgame.json")) == _doc(state)
    assert splendor.legal_actions(state)


def test_golden_short_record() -> None:
    record = from_json(_golden("record-2p-short.json"), GameRecord)
    assert (record.players, record.seed, record.names, record.result) == (2, 7, ("Ada", "Bo"), None)
    assert [ACTION_TAGS[type(a)] for a in record.actions] == [
        "take",
        "take",
        "take",
        "reserve",
        "buy",
        "reserve_deck",
        "take",
        "buy",
    ]
    final = record.final_state()
    first, second = final.players
    assert first.tokens == Tokens(1, 1, 1, 1, 1, 0)
    assert [c.id for c in first.cards] == [6]
    assert second.tokens == Tokens(gold=1)
    assert [c.id for c in second.cards] == [36]
    assert second.reserved_blind == (True,)
    assert final.turn == 8
    # Written again in record format 2, where the result is an object (null here).
    assert json.loads(_golden("record-2p-short.json")) == {**_doc(record), "format": 1}


# The JSON Schema, checked against real output.


def _validator(definition: str) -> jsonschema.Draft202012Validator:
    schema = {key: value for key, value in json_schema().items() if key != "oneOf"}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{definition}"})


def test_the_schema_accepts_the_golden_files() -> None:
    root = jsonschema.Draft202012Validator(json_schema())
    for path in sorted(GOLDEN.glob("*.json")):
        root.validate(json.loads(path.read_text(encoding="utf-8")))


def test_the_schema_accepts_every_kind_of_document() -> None:
    state = new_game(4, seed=2)
    _validator("state").validate(_doc(state))
    _validator("rules").validate(_doc(Rules.no_gold_variant()))
    record = GameRecord.start(2, seed=5, names=("a", "b"))
    for action in splendor.legal_actions(record.final_state()):
        _validator("action").validate(_doc(action))
    record = record.append(splendor.legal_actions(record.final_state())[0])
    _validator("record").validate(_doc(record))
    for action in (
        Buy(CARDS_BY_ID[1], Tokens(gold=2), NOBLES_BY_ID[3]),
        Pass(NOBLES_BY_ID[1]),
        ReserveFromDeck(2, Tokens(red=1)),
    ):
        _validator("action").validate(_doc(action))


def test_the_schema_refuses_what_loading_refuses_by_shape() -> None:
    validator = _validator("state")
    good: dict[str, Any] = _doc(new_game(2, seed=1))
    for field, value in (("format", 2), ("bank", {"pink": 1}), ("turn", -1), ("board", [])):
        assert not validator.is_valid({**good, field: value})
    assert not validator.is_valid({**good, "extra": 0})
    assert not _validator("action").is_valid({"type": "steal"})


def test_the_schema_is_package_data() -> None:
    schema = json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert json_schema() == schema
    assert json_schema() is not schema


# Bad arguments and impossible single players.


@pytest.mark.parametrize("cls", [None, [], "GameState", 3, Tokens()], ids=repr)
def test_from_json_refuses_what_is_not_a_class(cls: object) -> None:
    with pytest.raises(splendor.InvalidArgumentError, match="class"):
        from_json("[1, 2]", cls)  # type: ignore[call-overload]  # the wrong type on purpose


def test_from_json_still_loads_a_generic_tuple() -> None:
    assert from_json("[1, 2]", tuple[int, ...]) == (1, 2)


def _card_copy() -> Card:
    real = CARDS_BY_ID[1]
    return Card(real.id, real.tier, real.bonus, real.points, real.cost)


@pytest.mark.parametrize(
    "action",
    [
        unchecked(Take, "x"),
        unchecked(Take, None),
        unchecked(Take, Tokens(red=2), "x"),
        unchecked(Buy, None),
        unchecked(Buy, CARDS_BY_ID[1], "x"),
        Buy(_card_copy()),
        unchecked(Reserve, 5),
        unchecked(ReserveFromDeck, "x"),
        unchecked(Pass, "n1"),
        Pass(Noble(1, 3, NOBLES_BY_ID[1].requirement)),
    ],
    ids=repr,
)
def test_to_json_refuses_an_action_with_a_field_of_the_wrong_type(action: Action) -> None:
    with pytest.raises(splendor.InvalidArgumentError, match="cannot write"):
        to_json(action)


def test_to_json_refuses_a_value_nested_too_deep() -> None:
    nested: list[object] = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(splendor.InvalidArgumentError):
        to_json(nested)


def _player_document(**changes: object) -> str:
    """A player's JSON: a bought white card (#1, no points), then ``changes``."""
    data: dict[str, object] = {
        "tokens": {"red": 1},
        "cards": [1],
        "reserved": [40, 2],
        "reserved_blind": [False, True],
        "nobles": [],
        "points": 0,
        "bonuses": {"white": 1},
    }
    data.update(changes)
    return json.dumps(data)


def test_a_consistent_player_loads_alone() -> None:
    player = from_json(_player_document(), PlayerState)
    assert player.cards == (CARDS_BY_ID[1],)
    assert player.reserved_blind == (False, True)
    assert from_json(to_json(player), PlayerState) == player


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"reserved_blind": []}, "0 reserved_blind flag"),
        ({"points": -5}, "has -5 points"),
        ({"points": 3}, "has 3 points"),
        ({"bonuses": {"white": 1, "gold": 3}}, "bonuses"),
        ({"bonuses": {}}, "bonuses"),
        ({"reserved": [1, 2]}, "holds a card twice"),
        ({"nobles": [1]}, "has 0 points"),
        ({"nobles": [1], "points": 3}, "do not meet"),
    ],
    ids=repr,
)
def test_an_impossible_player_is_refused(changes: dict[str, object], message: str) -> None:
    errors = _errors(_player_document(**changes), PlayerState)
    assert len(errors) == 1
    assert errors[0].startswith("impossible player: ")
    assert message in errors[0]
    assert errors[0].endswith(" @ $")
