"""Forfeits in game records: the record, JSON format 2 and its readers, the schema, the text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import jsonschema  # type: ignore[import-untyped]  # the package ships no type hints
import pytest
from cattrs.preconf.json import make_converter as make_json_converter

from splendor import (
    GameRecord,
    GreedyBot,
    IllegalActionError,
    InvalidArgumentError,
    NotationError,
    RandomBot,
    SerializationError,
    from_json,
    legal_actions,
    play_game,
    to_json,
)
from splendor.formats import _strict_converter
from splendor.formats.notation import format_record, parse_record
from splendor.formats.record import FORFEIT_REASONS, MAX_FORFEIT_DETAIL, Forfeit
from splendor.schema import RECORD_FORMAT_VERSION, RECORD_FORMATS, json_schema

GOLDEN: Final = Path(__file__).parent / "golden"


def _forfeited() -> GameRecord:
    record = play_game([GreedyBot(), RandomBot(), GreedyBot()], seed=11, max_turns=7)
    return record.forfeited(1, "timeout", "the move took 0.712 s")


def _doc(record: GameRecord) -> dict[str, Any]:
    data = json.loads(to_json(record))
    assert isinstance(data, dict)
    return data


# The record.


def test_a_forfeit_ends_the_game_the_others_sharing_the_win() -> None:
    record = _forfeited()
    assert record.result == (0, 2)
    assert record.forfeit == Forfeit(1, "timeout", "the move took 0.712 s")
    assert len(record.actions) == 7
    assert not record.final_state().is_over
    assert record.replay()[-1] == record.final_state()


def test_no_action_follows_a_forfeit_and_nobody_forfeits_twice() -> None:
    record = _forfeited()
    action = legal_actions(record.final_state())[0]
    with pytest.raises(IllegalActionError, match="ended when seat 1 forfeited"):
        record.append(action)
    with pytest.raises(IllegalActionError, match="already ended"):
        record.forfeited(0, "crash")


def test_a_game_over_by_the_rules_cannot_be_forfeited() -> None:
    record = play_game([GreedyBot(), GreedyBot()], seed=3)
    assert record.result is not None
    with pytest.raises(IllegalActionError, match="over by the rules"):
        record.forfeited(0, "crash")


@pytest.mark.parametrize(
    ("seat", "reason", "detail", "message"),
    [
        (4, "crash", "", "Forfeit.seat"),
        (-1, "crash", "", "Forfeit.seat"),
        (True, "crash", "", "Forfeit.seat"),
        (0, "resigned", "", "Forfeit.reason must be one of timeout, protocol"),
        (0, "crash", 5, "Forfeit.detail"),
        (0, "crash", "x" * (MAX_FORFEIT_DETAIL + 1), "at most 1000"),
    ],
)
def test_a_bad_forfeit_is_refused(
    seat: object, reason: object, detail: object, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        Forfeit(seat, reason, detail)  # type: ignore[arg-type]  # bad on purpose


def test_forfeited_cuts_a_long_detail_and_checks_the_seat() -> None:
    record = GameRecord.start(2, seed=1)
    forfeit = record.forfeited(0, "crash", "y" * 5000).forfeit
    assert forfeit is not None
    assert len(forfeit.detail) == MAX_FORFEIT_DETAIL
    assert forfeit.detail.endswith("...")
    with pytest.raises(InvalidArgumentError, match="seat must be from 0 to 1"):
        record.forfeited(2, "crash")


def test_a_record_whose_result_disagrees_with_its_forfeit_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match=r"has the result \(0, 2\)"):
        GameRecord(3, 1, result=(0,), forfeit=Forfeit(1, "crash"))
    with pytest.raises(InvalidArgumentError, match=r"has the result \(0, 2\)"):
        GameRecord(3, 1, forfeit=Forfeit(1, "crash"))
    with pytest.raises(InvalidArgumentError, match="seat from 0 to 1"):
        GameRecord(2, 1, result=(0, 1), forfeit=Forfeit(2, "crash"))
    with pytest.raises(InvalidArgumentError, match="None or a Forfeit"):
        GameRecord(2, 1, result=(0,), forfeit="crash")  # type: ignore[arg-type]  # on purpose
    assert GameRecord(3, 1, result=(0, 2), forfeit=Forfeit(1, "crash")).result == (0, 2)


def test_a_forfeit_after_the_game_ended_by_the_rules_does_not_replay() -> None:
    finished = play_game([GreedyBot(), GreedyBot()], seed=3)
    assert finished.result in ((1,), (0,))
    loser = 1 - finished.result[0]
    record = GameRecord(
        2,
        3,
        actions=finished.actions,
        names=finished.names,
        result=(finished.result[0],),
        forfeit=Forfeit(loser, "crash"),
    )
    with pytest.raises(IllegalActionError, match="over by the rules"):
        record.replay()


# JSON: format 2 is written, formats 1 and 2 are read, an old reader refuses format 2.


def test_a_forfeited_record_is_written_in_format_2_and_read_back() -> None:
    record = _forfeited()
    data = _doc(record)
    assert RECORD_FORMAT_VERSION == 2
    assert data["format"] == 2
    assert data["result"] == {
        "winners": [0, 2],
        "forfeit": {"seat": 1, "reason": "timeout", "detail": "the move took 0.712 s"},
    }
    loaded = from_json(to_json(record), GameRecord)
    assert loaded == record
    assert loaded.forfeit == record.forfeit


def test_a_record_without_forfeit_has_no_forfeit_key() -> None:
    record = play_game([GreedyBot(), GreedyBot()], seed=3)
    data = _doc(record)
    assert data["format"] == 2
    assert data["result"] == {"winners": list(record.result or ())}
    assert from_json(to_json(record), GameRecord) == record
    unfinished = _doc(GameRecord.start(2, seed=1))
    assert unfinished["result"] is None


def test_the_golden_forfeited_record_loads() -> None:
    record = from_json((GOLDEN / "record-3p-forfeit.json").read_text(encoding="utf-8"), GameRecord)
    assert record.names == ("Ada", "Bo", "Cy")
    assert record.forfeit == Forfeit(1, "timeout", "the move took 0.712 s; the bound was 0.500 s")
    assert record.result == (0, 2)
    assert len(record.actions) == 7


def test_a_format_1_record_is_still_read() -> None:
    record = play_game([GreedyBot(), GreedyBot()], seed=3)
    data = _doc(record)
    data["format"] = 1
    data["result"] = list(record.result or ())
    assert RECORD_FORMATS == (1, 2)
    assert from_json(json.dumps(data), GameRecord) == record
    old = from_json((GOLDEN / "record-2p-short.json").read_text(encoding="utf-8"), GameRecord)
    assert old.forfeit is None
    # and written again in format 2
    assert _doc(old)["format"] == 2


def test_each_format_keeps_its_own_result() -> None:
    record = _forfeited()
    data = _doc(record)
    as_one = {**data, "format": 1}
    assert _errors(as_one) == ("expected an array, got an object @ $.result",)
    finished = play_game([GreedyBot(), GreedyBot()], seed=3)
    as_two = {**_doc(finished), "result": list(finished.result or ())}
    assert _errors(as_two) == (
        "expected an object of the winners and the forfeit (record format 2), "
        "got an array @ $.result",
    )
    with_forfeit_key = {**_doc(finished), "format": 1, "result": None, "forfeit": {"seat": 0}}
    (error,) = _errors(with_forfeit_key)
    assert "unknown field(s) 'forfeit'" in error


def _errors(data: dict[str, object]) -> tuple[str, ...]:
    with pytest.raises(SerializationError) as info:
        from_json(json.dumps(data), GameRecord)
    return info.value.errors


@pytest.mark.parametrize(
    ("forfeit", "message"),
    [
        ({"seat": 1, "reason": "bored"}, "Forfeit.reason must be one of"),
        ({"seat": 7, "reason": "crash"}, "Forfeit.seat"),
        ({"reason": "crash"}, "required field missing @ $.result.forfeit.seat"),
        ({"seat": 1, "reason": "crash", "why": 1}, "unknown field(s) 'why'"),
    ],
)
def test_a_bad_forfeit_in_json_is_refused_with_its_path(
    forfeit: dict[str, object], message: str
) -> None:
    data = _doc(_forfeited())
    data["result"] = {"winners": [0, 2], "forfeit": forfeit}
    errors = _errors(data)
    assert any(message in error for error in errors), errors


def test_a_forfeit_that_disagrees_with_the_winners_is_refused() -> None:
    data = _doc(_forfeited())
    data["result"] = {"winners": [0], "forfeit": {"seat": 1, "reason": "crash"}}
    (error,) = _errors(data)
    assert "has the result (0, 2)" in error
    assert error.endswith("@ $.result")


def _old_reader_load(text: str) -> GameRecord:
    """Load a record as the readers of record format 1 did: exactly format 1."""
    converter = make_json_converter(forbid_extra_keys=True)
    hook = _strict_converter.class_structure(
        converter,
        GameRecord,
        required=("players", "seed", "rules", "actions"),
        version=("format", 1),
    )
    return hook(json.loads(text), GameRecord)


def test_an_old_reader_refuses_format_2_clearly() -> None:
    with pytest.raises(Exception) as info:  # noqa: PT011  # cattrs' group, read below
        _old_reader_load(to_json(_forfeited()))
    messages = [str(e) for e in getattr(info.value, "exceptions", [info.value])]
    assert messages == [
        "unsupported format version 2 (this version of splendor-rules reads format 1)"
    ]


# The schema.


def test_the_schema_accepts_both_formats_and_refuses_mixed_ones() -> None:
    schema = {key: value for key, value in json_schema().items() if key != "oneOf"}
    validator = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/record"})
    two = _doc(_forfeited())
    validator.validate(two)
    validator.validate(json.loads((GOLDEN / "record-2p-short.json").read_text(encoding="utf-8")))
    finished = play_game([GreedyBot(), GreedyBot()], seed=3)
    one = {**_doc(finished), "format": 1, "result": list(finished.result or ())}
    validator.validate(one)
    assert not validator.is_valid({**two, "format": 1})
    assert not validator.is_valid({**one, "format": 2})
    assert not validator.is_valid({**two, "format": 3})
    bad = json.loads(json.dumps(two))
    bad["result"]["forfeit"]["reason"] = "bored"
    assert not validator.is_valid(bad)
    assert sorted(
        json_schema()["$defs"]["forfeit"]["properties"]["reason"]["enum"]  # type: ignore[index]
    ) == sorted(FORFEIT_REASONS)


# The text format.


def test_the_text_format_carries_the_forfeit() -> None:
    record = _forfeited()
    text = format_record(record)
    assert "result: 0 2\nforfeit: 1 timeout the move took 0.712 s\n" in text
    assert parse_record(text) == record


def test_the_text_forfeit_gives_the_result_and_is_checked() -> None:
    text = format_record(_forfeited()).replace("result: 0 2\n", "")
    assert parse_record(text).result == (0, 2)
    with pytest.raises(NotationError, match="has the result"):
        parse_record(text.replace("forfeit:", "result: 0\nforfeit:"))
    with pytest.raises(NotationError, match="reason must be one of"):
        parse_record(text.replace("timeout", "bored"))
    with pytest.raises(NotationError, match="a seat, a reason and a detail"):
        parse_record(text.replace("forfeit: 1 timeout the move took 0.712 s", "forfeit: 1"))
    finished = play_game([GreedyBot(), GreedyBot()], seed=3)
    assert finished.result is not None
    over = format_record(finished).replace(
        "result:", f"forfeit: {1 - finished.result[0]} crash\nresult:"
    )
    with pytest.raises(IllegalActionError, match="over by the rules"):
        parse_record(over.replace(f"result: {finished.result[0]}\n", ""))
