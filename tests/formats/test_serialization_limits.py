"""Loading untrusted JSON: bounded problems, bounded messages, bounded integers, size, colours."""

from __future__ import annotations

import json
import time

import pytest

import splendor.formats.serialization
from splendor import (
    GameRecord,
    GameState,
    Gem,
    Rules,
    SerializationError,
    Tokens,
    from_json,
    new_game,
    to_json,
)
from splendor.core.gems import MAX_COUNT
from splendor.formats.serialization import MAX_DOCUMENT_SIZE, MAX_INTEGER, MAX_PROBLEMS


def _state_data() -> dict[str, object]:
    data = json.loads(to_json(new_game(2, seed=1)))
    assert isinstance(data, dict)
    return data


def _errors(text: str, cls: type[object]) -> tuple[str, ...]:
    with pytest.raises(SerializationError) as info:
        from_json(text, cls)
    assert len(str(info.value)) <= 20_000
    return info.value.errors


def test_a_million_bad_card_ids_stop_after_a_hundred_problems() -> None:
    data = _state_data()
    data["decks"] = [[91] * 1_000_000, [], []]
    text = json.dumps(data)
    start = time.perf_counter()
    errors = _errors(text, GameState)
    assert time.perf_counter() - start < 15.0
    assert len(errors) == MAX_PROBLEMS + 1
    assert errors[0] == "unknown card id 91 (card ids run 1 to 90) @ $.decks[0][0]"
    assert errors[-1] == f"more problems follow: loading stopped after {MAX_PROBLEMS} @ $"


def test_many_bad_colours_in_one_object_stop_too() -> None:
    data = _state_data()
    data["bank"] = {f"colour{i}": 1 for i in range(50_000)}
    errors = _errors(json.dumps(data), GameState)
    assert len(errors) == MAX_PROBLEMS + 1
    assert errors[-1].startswith("more problems follow")


def test_a_few_problems_are_all_listed() -> None:
    data = _state_data()
    data["decks"] = [[91, 92, 93], [], []]
    data["turn"] = "7"
    errors = _errors(json.dumps(data), GameState)
    assert len(errors) == 4
    assert not any(line.startswith("more problems") for line in errors)


def test_the_message_of_a_huge_value_is_short() -> None:
    errors = _errors(json.dumps({"type": "x" * 1_000_000}), splendor.Action)  # type: ignore[arg-type]
    assert len(errors[0]) < 200


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("turn", MAX_INTEGER + 1),
        ("turn", -MAX_INTEGER - 1),
        ("turn", 10**4000),
        ("passes", 2**100),
    ],
    ids=["2**63", "-2**63", "10**4000", "2**100"],
)
def test_an_integer_out_of_range_is_refused(field: str, value: int) -> None:
    data = _state_data()
    data[field] = value
    errors = _errors(json.dumps(data), GameState)
    assert any("out of range" in line and f"@ $.{field}" in line for line in errors), errors
    assert all(len(line) < 200 for line in errors)


def test_a_record_seed_and_rules_numbers_out_of_range_are_refused() -> None:
    data = json.loads(to_json(GameRecord(2, seed=1)))
    data["seed"] = 2**63
    data["rules"]["points_to_win"] = 2**64
    errors = _errors(json.dumps(data), GameRecord)
    assert any("out of range" in line and "@ $.seed" in line for line in errors), errors
    assert any("@ $.rules.points_to_win" in line for line in errors), errors


def test_a_token_count_out_of_range_is_refused() -> None:
    errors = _errors('{"red": 9223372036854775808}', Tokens)
    assert errors == (
        "a token count must be an integer from 0 to 1,000,000,000, "
        "got the number 9223372036854775808 @ $.red",
    )


def test_the_largest_integers_load() -> None:
    assert from_json(json.dumps({"red": MAX_COUNT}), Tokens) == Tokens(red=MAX_COUNT)
    rules = Rules(points_to_win=MAX_COUNT)
    assert from_json(to_json(rules), Rules) == rules


def test_a_document_over_the_size_limit_is_refused_before_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(splendor.formats.serialization, "MAX_DOCUMENT_SIZE", 100)
    text = to_json(new_game(2, seed=1))
    errors = _errors(text, GameState)
    assert errors == (f"the document is {len(text):,} long, more than the 100 read @ $",)
    assert MAX_DOCUMENT_SIZE == 64 * 1024 * 1024


def test_malformed_json_gets_a_short_message() -> None:
    errors = _errors("[" * 100_000, GameState)
    assert errors[0].startswith("malformed JSON")
    assert len(errors[0]) < 300


@pytest.mark.parametrize("gem", list(Gem))
def test_a_colour_loads_as_a_gem(gem: Gem) -> None:
    loaded = from_json(json.dumps(gem.value), Gem)
    assert loaded is gem
    assert type(loaded) is Gem
    assert to_json(gem) == json.dumps(gem.value)


@pytest.mark.parametrize("text", ['"purple"', '"RED"', "1", "null", '["red"]'])
def test_a_colour_that_is_not_one_is_refused(text: str) -> None:
    errors = _errors(text, Gem)
    assert errors[0].startswith("expected a colour (white, blue, green, red, black, gold), got")
