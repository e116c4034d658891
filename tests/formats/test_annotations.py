"""Annotations in game records: the record, JSON format 2, the schema."""

from __future__ import annotations

import json

import jsonschema  # type: ignore[import-untyped]  # the package ships no type hints
import pytest

from splendor import (
    GameRecord,
    GreedyBot,
    InvalidArgumentError,
    RandomBot,
    SerializationError,
    from_json,
    play_game,
    to_json,
)
from splendor.formats.record import MAX_COMMENT, Annotation
from splendor.schema import RECORD_FORMAT_VERSION, json_schema


def _annotated() -> GameRecord:
    record = play_game([GreedyBot(), RandomBot()], seed=3, max_turns=6)
    notes = tuple(
        Annotation((0.5, 0.5), (0.25, 0.75), "+WBG", "blunder", "lost 25%") if k == 2 else None
        for k in range(len(record.actions))
    )
    return record.annotated(notes)


def test_annotations_are_written_in_format_2_and_read_back() -> None:
    record = _annotated()
    data = json.loads(to_json(record))
    assert data["format"] == RECORD_FORMAT_VERSION == 2
    assert data["annotations"][2] == {
        "win_before": [0.5, 0.5],
        "win_after": [0.25, 0.75],
        "best": "+WBG",
        "judgement": "blunder",
        "comment": "lost 25%",
    }
    assert data["annotations"][0] is None
    loaded = from_json(to_json(record), GameRecord)
    assert loaded.annotations == record.annotations
    assert loaded == record


def test_a_record_without_annotations_is_written_as_before() -> None:
    record = play_game([GreedyBot(), RandomBot()], seed=3, max_turns=6)
    assert "annotations" not in json.loads(to_json(record))
    assert from_json(to_json(record), GameRecord).annotations is None


def test_a_format_1_record_is_read_without_annotations_and_cannot_hold_them() -> None:
    record = play_game([GreedyBot(), GreedyBot()], seed=3)
    data = json.loads(to_json(record))
    data["format"] = 1
    data["result"] = list(record.result or ())
    assert from_json(json.dumps(data), GameRecord).annotations is None
    data["annotations"] = [None] * len(record.actions)
    with pytest.raises(SerializationError, match="unknown field"):
        from_json(json.dumps(data), GameRecord)


def test_a_later_format_is_refused_clearly() -> None:
    data = json.loads(to_json(_annotated()))
    data["format"] = 3
    with pytest.raises(SerializationError, match="unsupported format version 3 of a game record"):
        from_json(json.dumps(data), GameRecord)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"judgement": "oops"}, "Annotation.judgement must be None or one of"),
        ({"win_before": [0.5]}, "Annotation.win_before must be a tuple"),
        ({"win_before": [0.5, 0.25, 0.25]}, "a chance for each of the 2 seats"),
        ({"win_after": [1.5, -0.5]}, "Annotation.win_after must be a tuple"),
        ({"comment": "x" * (MAX_COMMENT + 1)}, "Annotation.comment must be a str"),
    ],
)
def test_bad_annotations_are_refused_at_their_path(change: dict[str, object], message: str) -> None:
    data = json.loads(to_json(_annotated()))
    data["annotations"][2].update(change)
    with pytest.raises(SerializationError, match="annotations") as info:
        from_json(json.dumps(data), GameRecord)
    assert message in str(info.value)


def test_annotations_must_match_the_actions() -> None:
    record = play_game([GreedyBot(), RandomBot()], seed=3, max_turns=6)
    with pytest.raises(InvalidArgumentError, match="one entry per action"):
        record.annotated((None,))
    data = json.loads(to_json(_annotated()))
    data["annotations"].pop()
    with pytest.raises(SerializationError, match="one entry per action"):
        from_json(json.dumps(data), GameRecord)


def test_the_schema_accepts_annotations() -> None:
    schema = {key: value for key, value in json_schema().items() if key != "oneOf"}
    validator = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/record"})
    data = json.loads(to_json(_annotated()))
    validator.validate(data)
    data["annotations"][2]["judgement"] = "oops"
    assert not validator.is_valid(data)
