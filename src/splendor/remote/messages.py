"""The messages of the Splendor bot protocol: what host and engine say to each other.

The protocol (SBP, version :data:`PROTOCOL_VERSION`) is one JSON object per
line, UTF-8, ending with a newline, over a bot engine's standard input (the
host's messages) and standard output (the engine's). Every message has a
``"type"``; fields a reader does not know are ignored, so later versions can
add some. A line is at most :data:`MAX_LINE` bytes, its newline included.
The docs' protocol page describes every message; the JSON Schema of the
lines ships with the package (:func:`splendor.schema.protocol_schema`).

Each message is a frozen attrs class, checked when it is made;
:mod:`splendor.remote.codec` writes one as its line and reads it back.

>>> Go(id=3, limit=Limit(time=0.5))
Go(id=3, limit=Limit(time=0.5, iterations=None, nodes=None, clock=None, infinite=False))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, TypeAlias

import attrs

from splendor.core.actions import Action
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.views import PlayerView
from splendor.errors import InvalidArgumentError
from splendor.remote._values import MAX_TEXT, is_int, is_number

__all__ = [
    "ERROR_CODES",
    "MAX_ID",
    "MAX_LINE",
    "OPTION_KINDS",
    "PROTOCOL_VERSION",
    "BestMove",
    "Clock",
    "EngineHello",
    "EngineMessage",
    "ErrorMessage",
    "Go",
    "Hello",
    "HostMessage",
    "Info",
    "InfoMessage",
    "IsReady",
    "Limit",
    "NewGame",
    "Option",
    "OptionValue",
    "Position",
    "Quit",
    "ReadyOk",
    "SetOption",
    "Stop",
]

#: The version of the protocol this module speaks.
PROTOCOL_VERSION: Final = 1

#: The longest line, in bytes, its newline included (1 MiB).
MAX_LINE: Final = 1_048_576

#: The largest message ``id`` (the largest integer a JSON reader in any language reads exactly).
MAX_ID: Final = 2**53 - 1

#: The codes of an ``error`` message: those of :class:`~splendor.errors.ProtocolError`,
#: and ``"internal"`` for an engine whose own bot failed.
ERROR_CODES: Final = (
    "malformed",
    "too-long",
    "unknown-type",
    "bad-field",
    "bad-position",
    "unsupported-version",
    "out-of-order",
    "internal",
)

#: The kinds of an engine option.
OPTION_KINDS: Final = ("int", "float", "bool", "string", "choice")

#: The value of an option: ``bool`` for a ``"bool"`` option, ``int`` for
#: ``"int"``, ``float`` (or ``int``) for ``"float"``, ``str`` for ``"string"``
#: and ``"choice"``.
OptionValue: TypeAlias = bool | int | float | str


# The values the messages carry.


def _refuse(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message)


def _check_seconds(what: str, value: object, *, positive: bool) -> None:
    if not is_number(value) or value < 0 or (positive and value == 0):
        sign = "positive" if positive else "non-negative"
        raise _refuse(f"{what} must be a {sign} finite number of seconds, got {short_repr(value)}")


def _floats(values: Iterable[float]) -> tuple[float, ...]:
    return tuple(values)


def _strs(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class Clock:
    """The clocks of a game with a time control: each seat's remaining time and the increment.

    Attributes:
        remaining: seconds left on each seat's clock, in seat order.
        increment: seconds added to a seat's clock after each of its moves.

    >>> Clock(remaining=(60.0, 58.5), increment=1.0).remaining[1]
    58.5
    """

    remaining: tuple[float, ...] = attrs.field(converter=_floats)
    increment: float = 0.0

    def __attrs_post_init__(self) -> None:
        if not self.remaining:
            raise _refuse("a clock needs the remaining time of every seat")
        for seconds in self.remaining:
            _check_seconds("a clock's remaining time", seconds, positive=False)
        _check_seconds("a clock's increment", self.increment, positive=False)


@attrs.frozen
class Limit:
    """How long an engine may think about one move.

    Every field is optional; an engine stops at the first limit it reaches.

    Attributes:
        time: seconds for this move.
        iterations: search iterations (an MCTS engine's playouts, say).
        nodes: nodes searched.
        clock: the game's clocks (the mover's remaining time bounds the move).
        infinite: search until the host sends ``stop``, which
            :class:`~splendor.remote.host.Engine` sends when ``time`` (or the
            mover's clock) has passed: it refuses an infinite search without
            either.

    The host waits for a best move ``time`` seconds (or the mover's
    remaining time on the clock) plus a grace; with neither, it waits its
    ``timeout``.

    >>> Limit(time=0.5)
    Limit(time=0.5, iterations=None, nodes=None, clock=None, infinite=False)
    >>> Limit(time=-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: a move's time must be a positive finite number ...
    """

    time: float | None = None
    iterations: int | None = None
    nodes: int | None = None
    clock: Clock | None = None
    infinite: bool = False

    def __attrs_post_init__(self) -> None:
        if self.time is not None:
            _check_seconds("a move's time", self.time, positive=True)
        for what, count in (("iterations", self.iterations), ("nodes", self.nodes)):
            if count is not None and (not is_int(count) or not 1 <= count <= MAX_ID):
                raise _refuse(f"{what} must be a positive int, got {short_repr(count)}")
        if self.clock is not None and type(self.clock) is not Clock:
            raise _refuse(f"clock must be a Clock or None, got {short_repr(self.clock)}")
        if type(self.infinite) is not bool:
            raise _refuse(f"infinite must be a bool, got {short_repr(self.infinite)}")


@attrs.frozen
class Info:
    """What an engine says about its search of one position (an ``info`` line).

    Attributes:
        win: each seat's probability of winning, in seat order, or ``None``.
        score: each seat's score (the engine's own scale), or ``None``.
        pv: the principal variation: the moves the engine expects, in
            notation, the first from the position searched.
        nodes: the nodes (or iterations) searched so far, or ``None``.
        time: the seconds searched so far, or ``None``.

    >>> Info(win=(0.6, 0.4), pv=("+WBG",)).win
    (0.6, 0.4)
    """

    win: tuple[float, ...] | None = None
    score: tuple[float, ...] | None = None
    pv: tuple[str, ...] = ()
    nodes: int | None = None
    time: float | None = None


@attrs.frozen
class Option:
    """A setting an engine offers, as its ``hello`` lists it.

    Attributes:
        name: the option's name, as ``setoption`` gives it.
        kind: one of :data:`OPTION_KINDS`.
        default: its value until set.
        min: the least value of an ``"int"`` or ``"float"`` option, or ``None``.
        max: the greatest value, or ``None``.
        choices: the values of a ``"choice"`` option.

    >>> depth = Option("Depth", "int", 3, min=1, max=9)
    >>> depth.check(5)
    5
    >>> depth.check(10)
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: option 'Depth' is at most 9, got 10
    """

    name: str
    kind: Literal["int", "float", "bool", "string", "choice"]
    default: OptionValue
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = attrs.field(default=(), converter=_strs)

    def __attrs_post_init__(self) -> None:
        if type(self.name) is not str or not self.name or len(self.name) > MAX_TEXT:
            raise _refuse(f"an option's name must be a non-empty str, got {short_repr(self.name)}")
        if self.kind not in OPTION_KINDS:
            raise _refuse(
                f"an option's kind is one of {', '.join(OPTION_KINDS)}, got {short_repr(self.kind)}"
            )
        for bound in (self.min, self.max):
            if bound is not None and (self.kind not in ("int", "float") or not is_number(bound)):
                raise _refuse(f"option {short_repr(self.name)}: only a number option has bounds")
        if any(type(choice) is not str for choice in self.choices):
            raise _refuse(f"option {short_repr(self.name)}: choices must be str")
        if self.kind == "choice" and not self.choices:
            raise _refuse(f"option {short_repr(self.name)}: a choice option needs choices")
        self.check(self.default)

    def check(self, value: object) -> OptionValue:
        """The value, if this option may take it.

        Raises:
            InvalidArgumentError: for a value of the wrong type, out of the
                bounds, or not one of the choices.
        """
        kind = self.kind
        fits = {
            "int": is_int(value),
            "float": is_number(value),
            "bool": type(value) is bool,
            "string": isinstance(value, str) and len(value) <= MAX_TEXT,
            "choice": type(value) is str and value in self.choices,
        }[kind]
        if not fits:
            wanted = f"one of {list(self.choices)}" if kind == "choice" else f"a {kind}"
            raise _refuse(f"option {short_repr(self.name)} takes {wanted}, got {short_repr(value)}")
        if self.min is not None and value < self.min:  # type: ignore[operator]  # a number here
            raise _refuse(
                f"option {short_repr(self.name)} is at least {self.min}, got {short_repr(value)}"
            )
        if self.max is not None and value > self.max:  # type: ignore[operator]  # a number here
            raise _refuse(
                f"option {short_repr(self.name)} is at most {self.max}, got {short_repr(value)}"
            )
        return value  # type: ignore[return-value]  # checked above to be an option value


# The messages: host to engine.


@attrs.frozen
class Hello:
    """The host's first message: the protocol version it speaks."""

    protocol: int = PROTOCOL_VERSION


@attrs.frozen
class IsReady:
    """Asks the engine to answer :class:`ReadyOk` once it has read every message before."""


@attrs.frozen
class SetOption:
    """Sets one of the engine's options (no answer; a bad one gets an :class:`ErrorMessage`)."""

    name: str
    value: OptionValue


@attrs.frozen
class NewGame:
    """A new game begins: how many play, the seat the engine plays, the rules.

    Its line also carries the table of the 90 cards and the 10 nobles, so
    that an engine needs no data files of its own.
    """

    players: int
    seat: int
    rules: Rules


@attrs.frozen
class Position:
    """The position to think about: the mover's view and its legal actions.

    Attributes:
        id: the number of this position; ``go`` and the answers name it.
        view: the seat's view (only what that seat may see).
        actions: the legal actions, in the order of :func:`splendor.legal_actions`.
        texts: each action in notation (:func:`splendor.formats.notation.format_action`).
    """

    id: int
    view: PlayerView
    actions: tuple[Action, ...]
    texts: tuple[str, ...]


@attrs.frozen
class Go:
    """Asks for a best move in the position of ``id``, within ``limit``."""

    id: int
    limit: Limit = Limit()


@attrs.frozen
class Stop:
    """Asks the engine to answer its best move of the running search at once."""


@attrs.frozen
class Quit:
    """Asks the engine to exit."""


# The messages: engine to host.


@attrs.frozen
class EngineHello:
    """The engine's answer to :class:`Hello`: who it is and what options it offers."""

    name: str
    author: str = ""
    version: str = ""
    options: tuple[Option, ...] = ()
    protocol: int = PROTOCOL_VERSION


@attrs.frozen
class ReadyOk:
    """The answer to :class:`IsReady`."""


@attrs.frozen
class InfoMessage:
    """An ``info`` line: what the engine says, so far, about the position of ``id``."""

    id: int
    info: Info


@attrs.frozen
class BestMove:
    """The engine's move in the position of ``id``: an index into its actions, or notation."""

    id: int
    index: int | None = None
    move: str | None = None


@attrs.frozen
class ErrorMessage:
    """An ``error`` line: a message the engine could not take (see :data:`ERROR_CODES`).

    Attributes:
        code: the fault, one of :data:`ERROR_CODES`.
        message: what was wrong, for people.
        id: the position or search it concerns, or ``None``.
    """

    code: str
    message: str = ""
    id: int | None = None


#: A message the host sends.
HostMessage: TypeAlias = Hello | IsReady | SetOption | NewGame | Position | Go | Stop | Quit
#: A message an engine sends.
EngineMessage: TypeAlias = EngineHello | ReadyOk | InfoMessage | BestMove | ErrorMessage
