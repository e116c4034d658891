"""The bot protocol's lines: each message written as one line of JSON, and read back.

:func:`encode` writes a message of :mod:`splendor.remote.messages` as its
line; :func:`decode_host` reads a line the host sends and
:func:`decode_engine` a line an engine sends, refusing anything else with a
:class:`~splendor.errors.ProtocolError` whose ``code`` names the fault. A
line is read with :func:`splendor.formats.strict_json.read_json`, and each
field with the checks of its kind.

>>> from splendor.remote.messages import Go, Limit
>>> line = encode(Go(id=3, limit=Limit(time=0.5)))
>>> line
b'{"type":"go","id":3,"time":0.5}\\n'
>>> decode_host(line)
Go(id=3, limit=Limit(time=0.5, iterations=None, nodes=None, clock=None, infinite=False))
>>> decode_engine(b'{"type":"bestmove","id":3,"index":2}')
BestMove(id=3, index=2, move=None)
>>> decode_engine(b'{"type":"bestmove","id":-1,"index":2}')
Traceback (most recent call last):
...
splendor.errors.ProtocolError: bestmove: id must be an int from 0 to 9007199254740991, got -1
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, TypeVar

from splendor.core.actions import Action
from splendor.core.components import CARDS, NOBLES
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.views import PlayerView
from splendor.errors import InvalidArgumentError, ProtocolError, SplendorError
from splendor.formats.component_data import card_data, tokens_data
from splendor.formats.serialization import from_json, make_converter
from splendor.formats.strict_json import MalformedJsonError, read_json
from splendor.remote._values import MAX_TEXT, is_int, is_number
from splendor.remote.messages import (
    ERROR_CODES,
    MAX_ID,
    MAX_LINE,
    OPTION_KINDS,
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
    OptionValue,
    Position,
    Quit,
    ReadyOk,
    SetOption,
    Stop,
)

if TYPE_CHECKING:
    from cattrs.preconf.json import JsonConverter

__all__ = ["decode_engine", "decode_host", "encode"]

_T = TypeVar("_T")


# Writing.


@functools.cache
def _converter() -> JsonConverter:
    return make_converter()


@functools.cache
def _tables() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    cards = [card_data(card) for card in CARDS]
    nobles: list[dict[str, object]] = [
        {"id": noble.id, "points": noble.points, "needs": tokens_data(noble.requirement)}
        for noble in NOBLES
    ]
    return cards, nobles


def _option_data(option: Option) -> dict[str, object]:
    data: dict[str, object] = {"name": option.name, "kind": option.kind, "default": option.default}
    if option.min is not None:
        data["min"] = option.min
    if option.max is not None:
        data["max"] = option.max
    if option.kind == "choice":
        data["choices"] = list(option.choices)
    return data


def _limit_data(limit: Limit) -> dict[str, object]:
    data: dict[str, object] = {}
    for key in ("time", "iterations", "nodes"):
        value = getattr(limit, key)
        if value is not None:
            data[key] = value
    if limit.clock is not None:
        data["clock"] = {
            "remaining": list(limit.clock.remaining),
            "increment": limit.clock.increment,
        }
    if limit.infinite:
        data["infinite"] = True
    return data


def _info_data(info: Info) -> dict[str, object]:
    data: dict[str, object] = {}
    if info.win is not None:
        data["win"] = list(info.win)
    if info.score is not None:
        data["score"] = list(info.score)
    if info.pv:
        data["pv"] = list(info.pv)
    if info.nodes is not None:
        data["nodes"] = info.nodes
    if info.time is not None:
        data["time"] = info.time
    return data


def _data(message: HostMessage | EngineMessage) -> dict[str, object]:
    """The JSON object of a message, ``"type"`` first."""
    kind = type(message)
    if kind is Hello or kind is EngineHello:
        data: dict[str, object] = {"type": "hello", "protocol": message.protocol}  # type: ignore[union-attr]  # a hello
        if isinstance(message, EngineHello):
            data.update(
                name=message.name,
                author=message.author,
                version=message.version,
                options=[_option_data(option) for option in message.options],
            )
        return data
    if isinstance(message, IsReady | ReadyOk | Stop | Quit):
        return {"type": _SIMPLE[type(message)]}
    if isinstance(message, SetOption):
        return {"type": "setoption", "name": message.name, "value": message.value}
    if isinstance(message, NewGame):
        cards, nobles = _tables()
        return {
            "type": "newgame",
            "players": message.players,
            "seat": message.seat,
            "rules": _converter().unstructure(message.rules),
            "cards": cards,
            "nobles": nobles,
        }
    if isinstance(message, Position):
        unstructure = _converter().unstructure
        return {
            "type": "position",
            "id": message.id,
            "view": unstructure(message.view),
            "actions": [
                {"text": text, "action": unstructure(action)}
                for text, action in zip(message.texts, message.actions, strict=True)
            ],
        }
    if isinstance(message, Go):
        return {"type": "go", "id": message.id, **_limit_data(message.limit)}
    if isinstance(message, InfoMessage):
        return {"type": "info", "id": message.id, **_info_data(message.info)}
    if isinstance(message, BestMove):
        data = {"type": "bestmove", "id": message.id}
        if message.index is not None:
            data["index"] = message.index
        if message.move is not None:
            data["move"] = message.move
        return data
    if isinstance(message, ErrorMessage):
        data = {"type": "error", "code": message.code, "message": message.message}
        if message.id is not None:
            data["id"] = message.id
        return data
    raise InvalidArgumentError(f"not a message of the bot protocol: {short_repr(message)}")


_SIMPLE: Final[Mapping[type, str]] = {
    IsReady: "isready",
    ReadyOk: "readyok",
    Stop: "stop",
    Quit: "quit",
}


def encode(message: HostMessage | EngineMessage) -> bytes:
    """The line of a message: compact JSON in UTF-8, ending with a newline.

    Raises:
        InvalidArgumentError: for something that is not a message, or one
            that cannot be written as JSON.
        ProtocolError: (code ``"too-long"``) for a line longer than
            :data:`~splendor.remote.messages.MAX_LINE`.

    >>> encode(Hello())
    b'{"type":"hello","protocol":1}\\n'
    """
    try:
        text = json.dumps(
            _data(message), separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"cannot write {short_repr(message)} as JSON: {error}"
        ) from error
    line = text.encode("utf-8") + b"\n"
    if len(line) > MAX_LINE:
        raise ProtocolError(
            f"a {_data(message)['type']} line of {len(line):,} bytes is longer than "
            f"the {MAX_LINE:,} allowed",
            code="too-long",
        )
    return line


# Reading.


def _fault(kind: str, message: str) -> ProtocolError:
    return ProtocolError(f"{kind}: {message}", code="bad-field")


def _shown(value: object) -> str:
    text = "nothing" if value is _MISSING else json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


_MISSING: Final = object()


class _Fields:
    """The fields of one message object, each read with the checks of its kind.

    An optional field may be left out or be ``null``: both read as ``None``.
    """

    def __init__(self, kind: str, data: Mapping[str, object]) -> None:
        self.kind = kind
        self.data = data

    def raw(self, key: str, *, required: bool) -> object:
        value = self.data.get(key, _MISSING)
        if value is _MISSING or value is None:
            if required:
                raise _fault(self.kind, f"{key} is missing")
            return None
        return value

    def wrong(self, key: str, wanted: str) -> ProtocolError:
        return _fault(self.kind, f"{key} must be {wanted}, got {_shown(self.data.get(key))}")

    def integer(self, key: str, least: int, most: int, *, required: bool) -> int | None:
        value = self.raw(key, required=required)
        if value is None:
            return None
        if not is_int(value) or not least <= value <= most:
            raise self.wrong(key, f"an int from {least} to {most}")
        return value

    def id(self) -> int:
        value = self.integer("id", 0, MAX_ID, required=True)
        assert value is not None  # required
        return value

    def text(self, key: str, *, required: bool, empty: bool = True) -> str | None:
        value = self.raw(key, required=required)
        if value is None:
            return None
        if not isinstance(value, str) or len(value) > MAX_TEXT or not (empty or value):
            raise self.wrong(key, "a str" if empty else "a non-empty str")
        return value

    def seconds(self, key: str, *, positive: bool) -> float | None:
        value = self.raw(key, required=False)
        if value is None:
            return None
        if not is_number(value) or value < 0 or (positive and value == 0):
            raise self.wrong(key, "a positive number" if positive else "a non-negative number")
        return value

    def numbers(self, key: str, *, most: int = 64) -> tuple[float, ...] | None:
        value = self.raw(key, required=False)
        if value is None:
            return None
        if not isinstance(value, list) or not 0 < len(value) <= most:
            raise self.wrong(key, f"a list of 1 to {most} numbers")
        numbers: list[float] = []
        for number in value:
            if not is_number(number):
                raise self.wrong(key, "a list of numbers")
            numbers.append(number)
        return tuple(numbers)

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.raw(key, required=False)
        if value is None:
            return ()
        if not isinstance(value, list) or len(value) > 1000:
            raise self.wrong(key, "a list of at most 1000 str")
        if not all(isinstance(text, str) and len(text) <= MAX_TEXT for text in value):
            raise self.wrong(key, "a list of str")
        return tuple(value)

    def flag(self, key: str) -> bool:
        value = self.raw(key, required=False)
        if value is not None and type(value) is not bool:
            raise self.wrong(key, "a bool")
        return value is True

    def mapping(self, key: str, *, required: bool) -> dict[str, object] | None:
        value = self.raw(key, required=required)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.wrong(key, "an object")
        return value

    def items(self, key: str, *, most: int) -> list[object]:
        value = self.raw(key, required=False)
        if value is None:
            return []
        if not isinstance(value, list) or len(value) > most:
            raise self.wrong(key, f"a list of at most {most}")
        return value

    def option_value(self, key: str, *, required: bool) -> OptionValue | None:
        value = self.raw(key, required=required)
        if value is None:
            return None
        if isinstance(value, bool | str) or is_int(value) or is_number(value):
            return value
        raise self.wrong(key, "a bool, a number or a str")


def _load(line: bytes | str) -> tuple[str, dict[str, object]]:
    """The type and the object of a line, or the ProtocolError of a line that is not a message."""
    if isinstance(line, str):
        raw = line.encode("utf-8", "surrogatepass")
    elif isinstance(line, bytes | bytearray):
        raw = bytes(line)
    else:
        raise InvalidArgumentError(f"a protocol line is bytes or str, got {type(line).__name__}")
    if len(raw) > MAX_LINE:
        raise ProtocolError(
            f"a line of {len(raw):,} bytes is longer than the {MAX_LINE:,} allowed", code="too-long"
        )
    try:
        data = read_json(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ProtocolError(f"the line is not UTF-8: {error.reason}", code="malformed") from None
    except MalformedJsonError as error:
        shown = raw[:40].decode("utf-8", "replace")
        raise ProtocolError(
            f"the line is not JSON ({_short(error)}): {short_repr(shown)}", code="malformed"
        ) from None
    if not isinstance(data, dict):
        raise ProtocolError(
            f"a message is a JSON object, got {type(data).__name__}", code="malformed"
        )
    kind = data.get("type", _MISSING)
    if not isinstance(kind, str):
        raise ProtocolError(f'a message needs a str "type", got {_shown(kind)}', code="malformed")
    return kind, data


def _short(error: BaseException) -> str:
    text = str(error)
    return text if len(text) <= 100 else text[:97] + "..."


def _unknown(kind: str, side: str) -> ProtocolError:
    shown = kind if len(kind) <= 40 else kind[:37] + "..."
    return ProtocolError(
        f"unknown message type {short_repr(shown)} from the {side}", code="unknown-type"
    )


def decode_host(line: bytes | str) -> HostMessage:
    """The message of a line the host sends to an engine.

    A ``position`` is checked as a game would be: its view must be one a
    game shows, of the seat to move, and every listed action legal in it.

    Raises:
        ProtocolError: for a line that is too long (``"too-long"``), not
            UTF-8 JSON of an object with a ``type`` (``"malformed"``), of a
            type the host does not send (``"unknown-type"``), with a missing
            or ill-typed field (``"bad-field"``), or a position that is not
            one (``"bad-position"``).
        InvalidArgumentError: when ``line`` is neither bytes nor str.

    >>> decode_host('{"type": "isready"}')
    IsReady()
    >>> decode_host('{"type": "position", "id": 1, "view": {}, "actions": []}')
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.ProtocolError: position: the view is not one: ...
    """
    kind, data = _load(line)
    fields = _Fields(kind, data)
    if kind == "hello":
        protocol = fields.integer("protocol", 0, MAX_ID, required=True)
        assert protocol is not None  # required
        return Hello(protocol)
    if kind == "isready":
        return IsReady()
    if kind == "stop":
        return Stop()
    if kind == "quit":
        return Quit()
    if kind == "setoption":
        name = fields.text("name", required=True, empty=False)
        value = fields.option_value("value", required=True)
        assert name is not None and value is not None  # noqa: PT018  # both required
        return SetOption(name, value)
    if kind == "newgame":
        return _new_game(fields)
    if kind == "position":
        return _position(fields)
    if kind == "go":
        return Go(fields.id(), _limit(fields))
    raise _unknown(kind, "host")


def _new_game(fields: _Fields) -> NewGame:
    players = fields.integer("players", 2, 4, required=True)
    assert players is not None  # required
    seat = fields.integer("seat", 0, players - 1, required=True)
    assert seat is not None  # required
    rules = _loaded(fields, "rules", Rules, "bad-field")
    return NewGame(players, seat, rules)


def _loaded(fields: _Fields, key: str, cls: type[_T], code: str) -> _T:
    """A field loaded with :func:`~splendor.formats.serialization.from_json`'s checks."""
    value = fields.data.get(key, _MISSING)
    if value is _MISSING:
        raise ProtocolError(f"{fields.kind}: {key} is missing", code=code)
    try:
        return from_json(json.dumps(value), cls)
    except SplendorError as error:
        raise ProtocolError(
            f"{fields.kind}: the {key} is not one: {_short(error)}", code=code
        ) from None


def _position(fields: _Fields) -> Position:
    id_ = fields.id()
    view = _loaded(fields, "view", PlayerView, "bad-position")
    listed = fields.data.get("actions")
    if not isinstance(listed, list) or not listed:
        raise ProtocolError("position: actions must be a non-empty list", code="bad-position")
    texts: list[str] = []
    data: list[object] = []
    for entry in listed:
        text = entry.get("text") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(text, str) or "action" not in entry:
            raise ProtocolError(
                "position: each action is an object with a str text and an action",
                code="bad-position",
            )
        texts.append(text)
        data.append(entry["action"])
    try:
        legal = legal_actions(view.stand_in())
    except SplendorError as error:
        raise ProtocolError(f"position: {_short(error)}", code="bad-position") from None
    # Each listed action is looked up among the legal ones by its JSON as the
    # host side writes it; any other spelling is read with every check.
    unstructure = _converter().unstructure
    by_json = {_canonical(unstructure(action)): action for action in legal}
    actions: list[Action] = []
    for text, entry in zip(texts, data, strict=True):
        action = by_json.get(_canonical(entry))
        if action is None:
            try:
                action = from_json(json.dumps(entry), Action)
            except SplendorError as error:
                raise ProtocolError(
                    f"position: the action {short_repr(text)} is not an action: {_short(error)}",
                    code="bad-position",
                ) from None
            if action not in legal:
                raise ProtocolError(
                    f"position: the action {short_repr(text)} is not legal in the view",
                    code="bad-position",
                )
        actions.append(action)
    if len(set(actions)) != len(actions):
        raise ProtocolError("position: an action is listed twice", code="bad-position")
    return Position(id_, view, tuple(actions), tuple(texts))


def _canonical(data: object) -> str:
    """One text for equal JSON values, whatever the order of their keys."""
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return ""


def _limit(fields: _Fields) -> Limit:
    clock = None
    clock_data = fields.mapping("clock", required=False)
    if clock_data is not None:
        inner = _Fields("go clock", clock_data)
        remaining = inner.numbers("remaining", most=4)
        if remaining is None or any(seconds < 0 for seconds in remaining):
            raise inner.wrong("remaining", "a list of 1 to 4 non-negative numbers")
        increment = inner.seconds("increment", positive=False)
        clock = Clock(remaining, 0.0 if increment is None else increment)
    return Limit(
        time=fields.seconds("time", positive=True),
        iterations=fields.integer("iterations", 1, MAX_ID, required=False),
        nodes=fields.integer("nodes", 1, MAX_ID, required=False),
        clock=clock,
        infinite=fields.flag("infinite"),
    )


def decode_engine(line: bytes | str) -> EngineMessage:
    """The message of a line an engine sends to the host.

    Raises:
        ProtocolError: for a line that is too long (``"too-long"``), not
            UTF-8 JSON of an object with a ``type`` (``"malformed"``), of a
            type an engine does not send (``"unknown-type"``), or with a
            missing or ill-typed field (``"bad-field"``).
        InvalidArgumentError: when ``line`` is neither bytes nor str.

    >>> decode_engine('{"type": "info", "id": 4, "win": [0.25, 0.75], "nodes": 800}')
    InfoMessage(id=4, info=Info(win=(0.25, 0.75), score=None, pv=(), nodes=800, time=None))
    """
    kind, data = _load(line)
    fields = _Fields(kind, data)
    if kind == "hello":
        return _engine_hello(fields)
    if kind == "readyok":
        return ReadyOk()
    if kind == "info":
        return InfoMessage(fields.id(), _info(fields))
    if kind == "bestmove":
        id_ = fields.id()
        index = fields.integer("index", 0, MAX_ID, required=False)
        move = fields.text("move", required=False, empty=False)
        if (index is None) == (move is None):
            raise _fault(kind, "give exactly one of index and move")
        return BestMove(id_, index, move)
    if kind == "error":
        code = fields.text("code", required=True)
        if code not in ERROR_CODES:
            raise fields.wrong("code", f"one of {', '.join(ERROR_CODES)}")
        message = fields.text("message", required=False) or ""
        return ErrorMessage(code, message, fields.integer("id", 0, MAX_ID, required=False))
    raise _unknown(kind, "engine")


def _engine_hello(fields: _Fields) -> EngineHello:
    protocol = fields.integer("protocol", 0, MAX_ID, required=True)
    name = fields.text("name", required=True, empty=False)
    assert protocol is not None and name is not None  # noqa: PT018  # both required
    options = []
    for entry in fields.items("options", most=1000):
        if not isinstance(entry, dict):
            raise _fault("hello", f"an option is an object, got {_shown(entry)}")
        options.append(_option(_Fields("hello option", entry)))
    if len({option.name for option in options}) != len(options):
        raise _fault("hello", "two options have the same name")
    return EngineHello(
        name,
        fields.text("author", required=False) or "",
        fields.text("version", required=False) or "",
        tuple(options),
        protocol,
    )


def _option(fields: _Fields) -> Option:
    name = fields.text("name", required=True, empty=False)
    kind = fields.text("kind", required=True)
    default = fields.option_value("default", required=True)
    assert name is not None and default is not None  # noqa: PT018  # both required
    if kind not in OPTION_KINDS:
        raise fields.wrong("kind", f"one of {', '.join(OPTION_KINDS)}")
    low, high = fields.raw("min", required=False), fields.raw("max", required=False)
    for key, bound in (("min", low), ("max", high)):
        if bound is not None and not is_number(bound):
            raise fields.wrong(key, "a number")
    try:
        return Option(
            name,
            kind,  # type: ignore[arg-type]  # one of OPTION_KINDS, checked above
            default,
            low,  # type: ignore[arg-type]  # a number or None, checked above
            high,  # type: ignore[arg-type]  # a number or None, checked above
            fields.texts("choices"),
        )
    except InvalidArgumentError as error:
        raise _fault("hello", str(error)) from None


def _info(fields: _Fields) -> Info:
    win = fields.numbers("win")
    if win is not None and (any(not 0 <= p <= 1 for p in win) or abs(sum(win) - 1) > 0.01):
        raise _fault("info", "win must be probabilities from 0 to 1 summing to 1")
    return Info(
        win=win,
        score=fields.numbers("score"),
        pv=fields.texts("pv"),
        nodes=fields.integer("nodes", 0, MAX_ID, required=False),
        time=fields.seconds("time", positive=False),
    )
