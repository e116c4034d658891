"""The messages of the bot protocol: their lines, their reading, and the JSON Schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

import jsonschema  # type: ignore[import-untyped]  # the package ships no type hints
import pytest

from splendor import Rules, new_game, view
from splendor.core.components import CARDS
from splendor.errors import InvalidArgumentError, ProtocolError
from splendor.formats.notation import format_action
from splendor.remote.codec import decode_engine, decode_host, encode
from splendor.remote.messages import (
    MAX_LINE,
    BestMove,
    Clock,
    EngineHello,
    EngineMessage,
    ErrorMessage,
    Go,
    Hello,
    HostMessage,
    Info,
    InfoMessage,
    IsReady,
    Limit,
    NewGame,
    Option,
    Quit,
    ReadyOk,
    SetOption,
    Stop,
)
from splendor.schema import protocol_schema

from ._positions import first_position
from ._schema import validator as _validator

HOST_MESSAGES: Final[list[HostMessage]] = [
    Hello(),
    IsReady(),
    SetOption("Depth", 5),
    SetOption("Fast", True),
    SetOption("Style", "bold"),
    NewGame(3, 1, Rules()),
    first_position(7),
    Go(7),
    Go(8, Limit(time=0.5, iterations=100, nodes=2000)),
    Go(9, Limit(clock=Clock((60.0, 58.25), increment=1.0))),
    Go(10, Limit(infinite=True)),
    Stop(),
    Quit(),
]

ENGINE_MESSAGES: Final[list[EngineMessage]] = [
    EngineHello("mybot"),
    EngineHello(
        "mybot",
        "Ann",
        "1.2",
        (
            Option("Depth", "int", 3, min=1, max=9),
            Option("Temperature", "float", 0.5, min=0.0),
            Option("Fast", "bool", False),
            Option("Book", "string", ""),
            Option("Style", "choice", "calm", choices=("calm", "bold")),
        ),
    ),
    ReadyOk(),
    InfoMessage(4, Info()),
    InfoMessage(4, Info(win=(0.61, 0.39), pv=("+WBG", "b11"), nodes=1200, time=0.21)),
    InfoMessage(4, Info(score=(12.0, -3.5))),
    BestMove(4, index=3),
    BestMove(4, move="+WBG"),
    ErrorMessage("bad-position", "the view is not one", id=4),
    ErrorMessage("malformed"),
]


@pytest.mark.parametrize("message", HOST_MESSAGES, ids=lambda m: type(m).__name__)
def test_a_host_message_reads_back_as_itself(message: HostMessage) -> None:
    line = encode(message)
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    assert decode_host(line) == message


@pytest.mark.parametrize("message", ENGINE_MESSAGES, ids=lambda m: type(m).__name__)
def test_an_engine_message_reads_back_as_itself(message: EngineMessage) -> None:
    assert decode_engine(encode(message)) == message


def test_the_new_game_line_carries_the_cards_and_the_nobles() -> None:
    data = json.loads(encode(NewGame(2, 0, Rules())))
    assert len(data["cards"]) == 90
    assert len(data["nobles"]) == 10
    first = CARDS[0]
    assert data["cards"][0] == {
        "id": first.id,
        "tier": first.tier,
        "bonus": first.bonus.value,
        "points": first.points,
        "cost": {gem.value: count for gem, count in first.cost.items() if count},
    }
    assert [card["id"] for card in data["cards"]] == list(range(1, 91))
    assert set(data["nobles"][0]) == {"id", "points", "needs"}


def test_a_position_line_holds_the_view_never_the_state() -> None:
    data = json.loads(encode(first_position(7)))
    assert set(data) == {"type", "id", "view", "actions"}
    assert "decks" not in data["view"]
    assert "seed" not in json.dumps(data)
    assert data["view"]["deck_sizes"] == [36, 26, 16]
    assert data["actions"][0]["text"] == format_action(
        first_position(7).actions[0], new_game(2, seed=3)
    )


def test_unknown_fields_are_ignored_and_null_is_left_out() -> None:
    assert decode_host(b'{"type":"go","id":2,"time":null,"ponder":true}') == Go(2)
    assert decode_engine(b'{"type":"bestmove","id":2,"index":1,"move":null,"x":{}}') == BestMove(
        2, index=1
    )


# Malformed lines, each with its code.

BAD_HOST_LINES: Final = [
    (b"not json", "malformed"),
    (b"\xff\xfe{}", "malformed"),
    (b"[1, 2]", "malformed"),
    (b'{"id": 3}', "malformed"),
    (b'{"type": "go", "id": NaN}', "malformed"),
    (b'{"type": "bestmove", "id": 3, "index": 0}', "unknown-type"),
    (b'{"type": "go"}', "bad-field"),
    (b'{"type": "go", "id": true}', "bad-field"),
    (b'{"type": "go", "id": 1, "time": 0}', "bad-field"),
    (b'{"type": "go", "id": 1, "time": "1s"}', "bad-field"),
    (b'{"type": "go", "id": 1, "clock": {"remaining": []}}', "bad-field"),
    (b'{"type": "go", "id": 1, "infinite": 1}', "bad-field"),
    (b'{"type": "setoption", "name": "", "value": 1}', "bad-field"),
    (b'{"type": "setoption", "name": "A", "value": [1]}', "bad-field"),
    (b'{"type": "newgame", "players": 5, "seat": 0, "rules": {}}', "bad-field"),
    (b'{"type": "newgame", "players": 2, "seat": 0, "rules": {"points_to_win": 15}}', "bad-field"),
    (b'{"type": "position", "id": 1, "view": 3, "actions": []}', "bad-position"),
]


BAD_ENGINE_LINES: Final = [
    (b"", "malformed"),
    (b'{"type": "hello", "protocol": 1}', "bad-field"),
    (b'{"type": "hello", "protocol": 1, "name": "x", "options": [{"name": "A"}]}', "bad-field"),
    (
        b'{"type": "hello", "protocol": 1, "name": "x", '
        b'"options": [{"name": "A", "kind": "int", "default": "3"}]}',
        "bad-field",
    ),
    (b'{"type": "bestmove", "id": 1}', "bad-field"),
    (b'{"type": "bestmove", "id": 1, "index": 0, "move": "p"}', "bad-field"),
    (b'{"type": "bestmove", "id": 1, "index": -1}', "bad-field"),
    (b'{"type": "info", "id": 1, "win": [0.9, 0.9]}', "bad-field"),
    (b'{"type": "info", "id": 1, "pv": "b11"}', "bad-field"),
    (b'{"type": "error", "code": "oops"}', "bad-field"),
    (b'{"type": "position", "id": 1}', "unknown-type"),
]


@pytest.mark.parametrize(
    ("decode", "line", "code"),
    [(decode_host, line, code) for line, code in BAD_HOST_LINES]
    + [(decode_engine, line, code) for line, code in BAD_ENGINE_LINES],
)
def test_a_malformed_line_is_refused_with_its_code(
    decode: Callable[[bytes], object], line: bytes, code: str
) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(line)
    assert caught.value.code == code


def test_a_line_over_the_limit_is_too_long_before_it_is_read() -> None:
    line = b'{"type": "info", "id": 1, "pv": ["' + b"p" * MAX_LINE + b'"]}'
    with pytest.raises(ProtocolError) as caught:
        decode_engine(line)
    assert caught.value.code == "too-long"
    with pytest.raises(ProtocolError) as caught:
        encode(ErrorMessage("internal", "x" * MAX_LINE))
    assert caught.value.code == "too-long"


def test_a_position_with_an_illegal_or_repeated_action_is_a_bad_position() -> None:
    position = first_position(7)
    data = json.loads(encode(position))
    on_board = {card.id for row in position.view.board for card in row if card is not None}
    hidden = next(card_id for card_id in range(1, 91) if card_id not in on_board)
    data["actions"].append({"text": "r11", "action": {"type": "reserve", "card": hidden}})
    with pytest.raises(ProtocolError, match="not legal") as caught:
        decode_host(json.dumps(data))
    assert caught.value.code == "bad-position"
    data = json.loads(encode(position))
    data["actions"].append(data["actions"][0])
    with pytest.raises(ProtocolError, match="twice") as caught:
        decode_host(json.dumps(data))
    assert caught.value.code == "bad-position"


def test_a_position_for_a_seat_not_to_move_is_a_bad_position() -> None:
    state = new_game(2, seed=3)
    data = json.loads(encode(first_position(7)))
    from splendor import to_json

    data["view"] = json.loads(to_json(view(state, 1)))
    with pytest.raises(ProtocolError, match="cannot act") as caught:
        decode_host(json.dumps(data))
    assert caught.value.code == "bad-position"


def test_a_line_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidArgumentError):
        decode_host(3)  # type: ignore[arg-type]  # the wrong type on purpose
    with pytest.raises(InvalidArgumentError):
        encode("hello")  # type: ignore[arg-type]  # the wrong type on purpose


# The JSON Schema.


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(protocol_schema())


@pytest.mark.parametrize("message", HOST_MESSAGES, ids=lambda m: type(m).__name__)
def test_every_host_line_the_code_writes_fits_the_schema(message: HostMessage) -> None:
    _validator("hostMessage").validate(json.loads(encode(message)))


@pytest.mark.parametrize("message", ENGINE_MESSAGES, ids=lambda m: type(m).__name__)
def test_every_engine_line_the_code_writes_fits_the_schema(message: EngineMessage) -> None:
    _validator("engineMessage").validate(json.loads(encode(message)))


@pytest.mark.parametrize(
    "line", [line for line, code in BAD_HOST_LINES if code not in ("malformed",)]
)
def test_the_schema_refuses_a_malformed_host_line(line: bytes) -> None:
    assert not _validator("hostMessage").is_valid(json.loads(line))


@pytest.mark.parametrize(
    "line",
    # A schema cannot check that probabilities sum to 1: that line is left out.
    [line for line, code in BAD_ENGINE_LINES if code != "malformed" and b"[0.9, 0.9]" not in line],
)
def test_the_schema_refuses_a_malformed_engine_line(line: bytes) -> None:
    assert not _validator("engineMessage").is_valid(json.loads(line))
