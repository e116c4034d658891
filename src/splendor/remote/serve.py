"""The engine side of the bot protocol: :func:`serve` makes any bot an engine.

:func:`serve` reads the host's lines from standard input and answers on
standard output until ``quit`` or the end of its input; ``splendor engine
SPEC`` runs it for any bot spec. A line it cannot take gets an ``error``
line with the :class:`~splendor.errors.ProtocolError` code, and the engine
keeps going. A bot that can say more than its move (an :class:`Analyser`,
such as a search with win estimates) gets an ``info`` line before each best
move.

The bot chooses its move when ``go`` comes, whatever the limits say (give
a search its budget in its spec: ``ismcts:iterations=400``); for an
``infinite`` search the answer is held until ``stop``.

>>> import io
>>> from splendor import GreedyBot
>>> host = io.BytesIO(b'{"type":"hello","protocol":1}\\n{"type":"isready"}\\n{"type":"quit"}\\n')
>>> engine_out = io.BytesIO()
>>> serve(GreedyBot(), name="greedy", stdin=host, stdout=engine_out)
0
>>> for line in engine_out.getvalue().splitlines():
...     print(line.decode()[:64])
{"type":"hello","protocol":1,"name":"greedy","author":"","versio
{"type":"readyok"}
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import BinaryIO, Final, Protocol, runtime_checkable

from splendor.core.actions import Action
from splendor.core.messages import short_repr
from splendor.core.views import PlayerView
from splendor.errors import ProtocolError, SplendorError
from splendor.formats.notation import format_action, format_line
from splendor.remote.codec import decode_host, encode
from splendor.remote.messages import (
    MAX_LINE,
    PROTOCOL_VERSION,
    BestMove,
    EngineHello,
    EngineMessage,
    ErrorMessage,
    Go,
    Hello,
    Info,
    InfoMessage,
    IsReady,
    NewGame,
    Option,
    OptionValue,
    Position,
    Quit,
    ReadyOk,
    SetOption,
    Stop,
)

__all__ = ["SEED_OPTION", "Analyser", "AnalyserResult", "serve"]

#: The option every served engine offers: the seed of the bot's random
#: generator, which is made again from it at each ``newgame``.
SEED_OPTION: Final = Option("Seed", "int", 0, min=0)

# The longest error message an engine writes.
_MAX_MESSAGE: Final = 1000


class AnalyserResult(Protocol):
    """What an :class:`Analyser` says of a position (any object with these attributes)."""

    @property
    def action(self) -> Action:
        """The best move, one of the actions the analyser was given."""
        ...

    @property
    def win(self) -> Sequence[float]:
        """Each seat's probability of winning, in seat order."""
        ...

    @property
    def pv(self) -> Sequence[Action]:
        """The principal variation, its first action the best move."""
        ...

    @property
    def nodes(self) -> int:
        """The nodes or iterations searched."""
        ...


@runtime_checkable
class Analyser(Protocol):
    """A bot that can also say what it thinks: :func:`serve` sends it as an ``info`` line."""

    def analyse(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> AnalyserResult:
        """Search the position and return the best move with its estimates."""
        ...


def serve(
    bot: Callable[[PlayerView, Sequence[Action], random.Random], Action],
    *,
    name: str | None = None,
    author: str = "",
    version: str = "",
    options: Sequence[Option] = (),
    on_option: Callable[[str, OptionValue], None] | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Play ``bot`` as an engine over the protocol until ``quit`` or the end of the input.

    Args:
        bot: any bot (see :class:`splendor.Bot`); if it is an
            :class:`Analyser`, its analysis is sent as an ``info`` line
            before each best move.
        name: the engine's name in its ``hello``; the bot's ``name``
            attribute, else its class name, by default.
        author: the author in its ``hello``.
        version: the version in its ``hello``.
        options: options to offer besides :data:`SEED_OPTION`.
        on_option: called with the name and the checked value of each
            option the host sets (the ``Seed`` too).
        stdin: where the host's lines come from; standard input by default.
        stdout: where the answers go; standard output by default. While
            the bot runs, what it prints goes to standard error instead.

    Returns:
        The exit status: 0 after ``quit`` or the end of the input, 1 when
        the output was closed.
    """
    host = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    session = _Session(bot, name or _bot_name(bot), author, version, options, on_option)
    try:
        while True:
            line, too_long = _read_line(host)
            if line is None:
                return 0
            answers = session.answer(line, too_long)
            for answer in answers:
                out.write(encode(answer))
            if answers:
                out.flush()
            if session.done:
                return 0
    except (BrokenPipeError, ValueError):  # the host closed our output (ValueError: a closed file)
        return 1


def _bot_name(bot: object) -> str:
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) and name else type(bot).__name__


def _read_line(stream: BinaryIO) -> tuple[bytes | None, bool]:
    """The next line (``None`` at the end), and whether it was longer than :data:`MAX_LINE`.

    A line that is too long is read to its end in bounded pieces and dropped.
    """
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None, False
    if len(line) <= MAX_LINE:
        return line, False
    while not line.endswith(b"\n"):
        line = stream.readline(65536)
        if not line:
            break
    return b"", True


class _Session:
    """The state of one engine between lines: options, the game, the position."""

    def __init__(
        self,
        bot: Callable[[PlayerView, Sequence[Action], random.Random], Action],
        name: str,
        author: str,
        version: str,
        options: Sequence[Option],
        on_option: Callable[[str, OptionValue], None] | None,
    ) -> None:
        self.bot = bot
        offered = [SEED_OPTION, *(o for o in options if o.name != SEED_OPTION.name)]
        self.hello = EngineHello(name, author, version, tuple(offered))
        self.options = {option.name: option for option in offered}
        self.values: dict[str, OptionValue] = {o.name: o.default for o in offered}
        self.on_option = on_option
        self.rng = random.Random(0)
        self.position: Position | None = None
        self.held: BestMove | None = None  # the answer of an infinite search, sent on stop
        self.done = False

    def answer(self, line: bytes, too_long: bool) -> list[EngineMessage]:
        """The lines to answer one line of the host with."""
        try:
            if too_long:
                raise ProtocolError(
                    f"a line longer than the {MAX_LINE:,} bytes allowed", code="too-long"
                )
            if not line.strip():
                return []
            message = decode_host(line)
        except ProtocolError as error:
            if error.code == "bad-position":
                self.position = None
            return [ErrorMessage(error.code, _cut(str(error)))]
        if isinstance(message, Hello):
            if message.protocol != PROTOCOL_VERSION:
                return [
                    ErrorMessage(
                        "unsupported-version",
                        f"this engine speaks protocol {PROTOCOL_VERSION}, not {message.protocol}",
                    )
                ]
            return [self.hello]
        if isinstance(message, IsReady):
            return [ReadyOk()]
        if isinstance(message, SetOption):
            return self._set(message)
        if isinstance(message, NewGame):
            self.rng = random.Random(f"{self.values[SEED_OPTION.name]}:{message.seat}")
            self.position = None
            return []
        if isinstance(message, Position):
            self.position = message
            return []
        if isinstance(message, Go):
            return self._go(message)
        if isinstance(message, Stop):
            held, self.held = self.held, None
            return [] if held is None else [held]
        if isinstance(message, Quit):
            self.done = True
        return []

    def _set(self, message: SetOption) -> list[EngineMessage]:
        option = self.options.get(message.name)
        if option is None:
            return [ErrorMessage("bad-field", _cut(f"no option named {short_repr(message.name)}"))]
        try:
            value = option.check(message.value)
        except SplendorError as error:
            return [ErrorMessage("bad-field", _cut(str(error)))]
        self.values[option.name] = value
        if option.name == SEED_OPTION.name:
            self.rng = random.Random(f"{value}:0")
        if self.on_option is not None:
            self.on_option(option.name, value)
        return []

    def _go(self, go: Go) -> list[EngineMessage]:
        answers: list[EngineMessage] = []
        if self.held is not None:  # a new search ends the one left running
            answers.append(self.held)
            self.held = None
        position = self.position
        if position is None or position.id != go.id:
            answers.append(
                ErrorMessage("out-of-order", f"go {go.id} before its position", id=go.id)
            )
            return answers
        started = time.perf_counter()
        try:
            with contextlib.redirect_stdout(sys.stderr):
                if isinstance(self.bot, Analyser):
                    result = self.bot.analyse(position.view, position.actions, self.rng)
                    action = result.action
                    answers.append(
                        InfoMessage(go.id, _info(result, position, time.perf_counter() - started))
                    )
                else:
                    action = self.bot(position.view, position.actions, self.rng)
            best = _best(go.id, action, position)
        except Exception as error:  # the bot's own code may raise anything: the host hears of it
            answers.append(
                ErrorMessage("internal", _cut(f"{type(error).__name__}: {error}"), id=go.id)
            )
            return answers
        if go.limit.infinite:
            self.held = best
        else:
            answers.append(best)
        return answers


def _best(id_: int, action: Action, position: Position) -> BestMove:
    """The best move naming ``action``: by its index, else by its notation."""
    try:
        return BestMove(id_, index=position.actions.index(action))
    except ValueError:
        return BestMove(id_, move=format_action(action, position.view))


def _info(result: AnalyserResult, position: Position, seconds: float) -> Info:
    win = tuple(float(p) for p in result.win)
    return Info(
        win=win if win and abs(sum(win) - 1) <= 0.01 else None,
        pv=format_line(result.pv, position.view),
        nodes=int(result.nodes),
        time=round(seconds, 6),
    )


def _cut(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."
