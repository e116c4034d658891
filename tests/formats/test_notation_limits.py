"""Reading action and record texts: linear time, length limits, short messages, what is read."""

from __future__ import annotations

import time

import pytest

import splendor.formats._notation_parser
from splendor import (
    GameRecord,
    IllegalActionError,
    NotationError,
    Take,
    new_game,
    parse_action,
    parse_record,
)
from splendor.formats.notation import MAX_ACTION_LENGTH, format_record
from splendor.formats.record_text import MAX_RECORD_LENGTH
from tests.builders import toks


def _start() -> splendor.GameState:
    return new_game(2, seed=1)


def test_the_record_functions_are_reachable_from_notation_too() -> None:
    from splendor.formats import notation, record_text

    assert notation.parse_record is record_text.parse_record
    assert notation.format_record is record_text.format_record
    with pytest.raises(AttributeError, match="no attribute 'parse_recordz'"):
        notation.parse_recordz  # type: ignore[attr-defined]  # noqa: B018  # the access is the test


@pytest.mark.parametrize(
    "text",
    ["+" + "w" * MAX_ACTION_LENGTH, "take " + "red" * 70, " " * (MAX_ACTION_LENGTH + 1) + "p"],
)
def test_an_action_text_over_the_limit_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match=f"at most {MAX_ACTION_LENGTH} characters"):
        parse_action(text, _start())


def test_an_action_text_at_the_limit_is_read() -> None:
    text = "+wbg" + " " * (MAX_ACTION_LENGTH - 4)
    assert len(text) == MAX_ACTION_LENGTH
    assert parse_action(text, _start()) == Take(toks("W B G"))


@pytest.mark.parametrize(
    "text",
    ["+" + "whites" * 20_000, "take " + "red" * 40_000, "+" + "wn" * 60_000, "r" + "1" * 100_000],
    ids=["whites", "reds", "letters-and-nobles", "digits"],
)
def test_reading_is_linear_in_the_length_of_the_text(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without the length limit, a 100 KB text is read in milliseconds
    # (reading it in quadratic time took minutes).
    monkeypatch.setattr(splendor.formats._notation_parser, "MAX_ACTION_LENGTH", 10**7)
    start = time.perf_counter()
    with pytest.raises((NotationError, IllegalActionError)) as info:
        parse_action(text, _start())
    assert time.perf_counter() - start < 10.0
    assert len(str(info.value)) < 400


@pytest.mark.parametrize(
    "text", ["x" * 1_000_000, "+wbg" + "\u0000" * 10, "take " + "q" * 150, "b" + "9" * 150]
)
def test_an_error_quotes_a_short_escaped_excerpt(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text, _start())
    message = str(info.value)
    assert len(message) < 400
    assert "\x00" not in message


def test_a_record_over_the_limit_is_refused_at_once() -> None:
    text = "players: 2\nseed: 1\n\n" + "p\n" * (MAX_RECORD_LENGTH // 2)
    start = time.perf_counter()
    with pytest.raises(NotationError, match="a record text is at most"):
        parse_record(text)
    assert time.perf_counter() - start < 15.0


def test_a_long_action_line_in_a_record_is_refused_with_its_line() -> None:
    text = "players: 2\nseed: 1\n\n+" + "whites" * 6000 + "\n"
    with pytest.raises(NotationError, match=r"^line 4: cannot read '\+whites") as info:
        parse_record(text)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("seed: " + "9" * 5000, "at most 19 digits"),
        ("seed: 99999999999999999999", "at most 19 digits"),
        ("seed: 9223372036854775808", "GameRecord.seed must be an int from"),
        ("players: " + "2" * 30, "at most 19 digits"),
        ("x" * 10_000 + ": 1", "unknown header 'xxxxxxxxxxxxxxxxxxxx'..."),
        ("names: " + "[" * 100_000, "JSON list of strings"),
    ],
    ids=["huge-seed", "20-digit-seed", "seed-over-64-bits", "players", "key", "names"],
)
def test_a_bad_header_gets_a_short_message(header: str, expected: str) -> None:
    lines = {"players": "players: 2", "seed": "seed: 1"}
    key = header.partition(":")[0]
    lines[key if key in lines else "extra"] = header
    with pytest.raises(NotationError) as info:
        parse_record("\n".join(lines.values()) + "\n")
    assert expected in str(info.value)
    assert len(str(info.value)) < 400


def test_the_seed_of_a_text_record_reaches_64_bits() -> None:
    record = GameRecord.start(2, seed=-(2**63 - 1))
    assert parse_record(format_record(record)) == record


# What the reader accepts, word by word.


@pytest.mark.parametrize(
    "text", ["taker", "taker,", "takewbg", "passn1", "buyr1", "reserve tier3slot1x"]
)
def test_a_word_must_end_where_its_letters_end(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text, _start())


@pytest.mark.parametrize(
    ("text", "gems"),
    [
        ("take red red", "2R"),
        ("TAKE Red, Blue And Green", "R B G"),
        ("take\tred\nblue green", "R B G"),
        ("+redbluegreen", "R B G"),
        ("+2rubies", "2R"),
        ("take 2 red", "2R"),
        ("+wbg", "W B G"),
    ],
)
def test_colour_words_and_letters_read_as_documented(text: str, gems: str) -> None:
    assert parse_action(text, _start()) == Take(toks(gems))
