"""Bots that run in engine processes speaking csplendor's USI-like text protocol.

`csplendor <https://github.com/kuboyoo/csplendor>`_ defines a text protocol
for two-player Splendor engines after the Universal Shogi Interface: the host
sends ``usi``, ``isready``, ``usinewgame``, ``position <SPN>`` and
``go time <ms>``, and the engine answers ``bestmove <move>``. A position is
written in its Splendor Position Notation (SPN) and a move in its own
notation (``take:WUG``, ``buy:C71/gold:W2U1``...), with card ids 0 to 89 and
noble ids 0 to 11 of its own.

This module translates both ways, so that such an engine plays wherever a bot
does (:func:`splendor.play_game`, tournaments, self-play):

- :func:`view_to_spn` writes the SPN of the view of the seat to move;
- :func:`usi_move` writes an action in the USI notation, and
  :func:`parse_usi_move` matches an engine's move against the legal actions;
- :func:`open_usi_engine` starts an engine process and returns a
  :class:`UsiEngine`, a bot.

SPN carries what a two-player game under the published rules needs to be
played from the seat to move; what it cannot carry (the turn counter, the
passes, house rules, which nobles each player holds, three or four players)
is listed in the documentation's page on engines in any language. A view it
cannot carry is refused with :class:`~splendor.InvalidArgumentError`.

>>> import splendor
>>> state = splendor.new_game(2, seed=1)
>>> view = splendor.view(state, 0)
>>> for section in view_to_spn(view).split(" | "):
...     print(section)
bank:W4U4G4R4K4D5
visible:L1[39,30,1,29]L2[52,59,48,53]L3[76,85,79,75]
decks:36,26,16
nobles:[3,1,6]
P0:gems:W0U0G0R0K0D0;bonuses:W0U0G0R0K0;points:0;reserved:[];bought:[]
P1:gems:W0U0G0R0K0D0;bonuses:W0U0G0R0K0;points:0;reserved:[];bought:[] 0
>>> action = splendor.legal_actions(view)[0]
>>> usi_move(action, view)
'take:WUG'
>>> parse_usi_move("take:GUW", view, splendor.legal_actions(view)) == action
True
"""

from __future__ import annotations

import asyncio
import enum
import os
import weakref
from collections.abc import Coroutine, Mapping, Sequence
from types import TracebackType
from typing import Final, TypeVar

import attrs

from splendor.core.actions import Action
from splendor.core.messages import short_repr
from splendor.core.views import PlayerView
from splendor.errors import (
    EngineCrashedError,
    EngineMoveError,
    EngineProtocolError,
    EngineTimeoutError,
    InvalidArgumentError,
    NotationError,
)
from splendor.remote._spn import (
    OwnBlind,
    check_mappable,
    match_move,
    needs_return,
    parse_usi_move,
    read_move,
    spn_card_id,
    spn_noble_id,
    usi_move,
    view_to_spn,
)
from splendor.remote._transport import (
    LoopThread,
    ProcessTransport,
    Transport,
    abandon,
    check_seconds,
    command_argv,
)
from splendor.remote.messages import MAX_LINE

__all__ = [
    "UsiEngine",
    "open_usi_engine",
    "parse_usi_move",
    "spn_card_id",
    "spn_noble_id",
    "usi_move",
    "view_to_spn",
]

MAX_USI_LINE: Final = MAX_LINE
"""The longest line read from a USI engine, in bytes (its newline included):
the bot protocol's :data:`~splendor.remote.MAX_LINE`."""

_T = TypeVar("_T")

# The lines read ahead of the host; the engine's output is paused beyond them.
_READ_AHEAD: Final = 1024


class _End(enum.Enum):
    """What ends the lines of an engine: a line too long, or its output closed."""

    TOO_LONG = enum.auto()
    CLOSED = enum.auto()


class _UsiLines:
    """The host side of the USI protocol over a transport: the engine's lines in order.

    It is the transport's receiver: it queues each line (pausing the engine's
    output when many wait), and :meth:`read` takes them one at a time with a
    deadline. Every fault ends the engine (killed and reaped) before its
    error is raised.
    """

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes | _End] = asyncio.Queue()
        self.transport: Transport | None = None

    def line_received(self, line: bytes) -> None:
        """Queue a line of the engine."""
        self.queue.put_nowait(line)
        if self.queue.qsize() >= _READ_AHEAD and self.transport is not None:
            self.transport.pause_reading()

    def line_too_long(self) -> None:
        """Queue the end of the lines at a line too long."""
        self.queue.put_nowait(_End.TOO_LONG)

    def output_closed(self) -> None:
        """Queue the end of the engine's output."""
        self.queue.put_nowait(_End.CLOSED)

    def process_exited(self, code: int | None) -> None:
        """Nothing to do: the end of the output comes with it."""

    async def start(self, argv: Sequence[str], cwd: str | os.PathLike[str] | None) -> None:
        """Start the engine's process."""
        self.transport = await ProcessTransport.start(argv, self, cwd=cwd)

    def send(self, line: str) -> None:
        """Write ``line`` to the engine.

        Raises:
            EngineCrashedError: when the engine has ended.
        """
        assert self.transport is not None
        if self.transport.returncode is not None:
            raise EngineCrashedError("the engine's input is closed: it has ended")
        self.transport.write(line.encode() + b"\n")

    async def read(self, deadline: float, waiting_for: str) -> str:
        """The engine's next line, without its line break, by ``deadline`` (the loop's clock).

        Raises:
            EngineTimeoutError: when no line comes by ``deadline``.
            EngineCrashedError: when the engine closed its output.
            EngineProtocolError: for a line too long or not UTF-8 text.
        """
        assert self.transport is not None
        try:
            async with asyncio.timeout_at(deadline):
                item = await self.queue.get()
        except TimeoutError:
            await self.end()
            raise EngineTimeoutError(f"no {waiting_for} in time") from None
        if self.queue.qsize() < _READ_AHEAD // 2:
            self.transport.resume_reading()
        if item is _End.CLOSED:
            code = self.transport.returncode
            await self.end()
            raise EngineCrashedError(
                f"the engine closed its output while the host waited for {waiting_for}"
                + (f" (exit status {code})" if code is not None else "")
            )
        if item is _End.TOO_LONG:
            await self.end()
            raise EngineProtocolError(f"a line over {MAX_USI_LINE} bytes")
        try:
            return item.decode().rstrip("\r\n")
        except UnicodeDecodeError:
            await self.end()
            raise EngineProtocolError("a line that is not UTF-8 text") from None

    async def end(self) -> None:
        """Kill the engine's process group and reap it."""
        if self.transport is not None:
            await self.transport.close()

    async def close(self, grace: float) -> None:
        """Send ``quit``, wait ``grace`` seconds for the engine to exit, then end it."""
        if self.transport is not None and self.transport.returncode is None:
            self.send("quit")
            await self.transport.wait(grace)
        await self.end()


class UsiEngine:
    """A bot played by an engine process over csplendor's USI-like protocol.

    Made by :func:`open_usi_engine`. Call it as any bot,
    ``engine(view, actions, rng) -> action``, for two-player games under the
    published rules; it sends ``usinewgame`` when a new game begins (a view
    whose turn is not later than the last one's), then ``position <SPN>`` and
    ``go time <ms>``, and reads ``bestmove``. After a blind reserve that goes
    over the token limit, it sends the position of the return phase and reads
    ``return:<C>``.

    Any fault of the engine (no answer in time, a line that is not the
    protocol, a move that is none of the legal actions, its end) raises the
    matching :class:`~splendor.errors.EngineError` after the process is
    killed and reaped. Use it as a context manager, or call :meth:`close`.

    Attributes:
        name: the bot's name: the one given to :func:`open_usi_engine`, or the
            engine's ``id name``.
        engine_name: the engine's ``id name`` ('' if it gave none).
        author: the engine's ``id author`` ('' if it gave none).
        options: the engine's ``option`` lines, by option name, as sent.
        time: the seconds given for each move (``go time``).
        grace: the seconds allowed beyond ``time`` before a move is late.
        own_blind: how the mover's blind reserves are written
            (see :func:`view_to_spn`).
    """

    def __init__(
        self,
        loop: LoopThread,
        lines: _UsiLines,
        *,
        name: str | None,
        time: float,
        grace: float,
        own_blind: OwnBlind,
    ) -> None:
        self._loop = loop
        self._lines = lines
        self.engine_name = ""
        self.author = ""
        self.options: dict[str, str] = {}
        self.name = name or ""
        self.time = time
        self.grace = grace
        self.own_blind: OwnBlind = own_blind
        self._last_turn: int | None = None
        assert lines.transport is not None
        self._finalizer = weakref.finalize(self, abandon, loop, lines.transport.pid, lines.end)

    @property
    def stderr_tail(self) -> str:
        """The last 64 KiB the engine wrote to its stderr (fewer if it wrote less)."""
        assert self._lines.transport is not None
        return self._lines.transport.stderr_tail

    @property
    def returncode(self) -> int | None:
        """The exit status once the engine has ended (negative: the signal), else ``None``."""
        assert self._lines.transport is not None
        return self._lines.transport.returncode

    def _run(self, coroutine: Coroutine[object, object, _T]) -> _T:
        return self._loop.run(coroutine, self.name or "usi", self.grace)

    def _handshake(self, options: Mapping[str, str | int | float | bool], timeout: float) -> None:
        self._run(self._shake_hands(options, timeout))

    async def _shake_hands(
        self, options: Mapping[str, str | int | float | bool], timeout: float
    ) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        self._lines.send("usi")
        while True:
            line = await self._lines.read(deadline, "usiok")
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.engine_name = line.split(None, 2)[2] if len(words) > 2 else ""
            elif words[:2] == ["id", "author"]:
                self.author = line.split(None, 2)[2] if len(words) > 2 else ""
            elif words[:2] == ["option", "name"] and len(words) > 2:
                self.options[words[2]] = line
            elif words == ["usiok"]:
                break
        self.name = self.name or self.engine_name or "usi"
        for key, value in options.items():
            self._set_option(key, value)
        await self._ready(deadline)

    def configure(self, option: str, value: str | int | float | bool) -> None:
        """Send ``setoption name <option> value <value>``.

        Raises:
            InvalidArgumentError: for an option the engine did not declare, or
                a name or value with a line break or space in the name.
        """
        self._run(self._configure(option, value))

    async def _configure(self, option: str, value: str | int | float | bool) -> None:
        self._set_option(option, value)

    def _set_option(self, option: str, value: str | int | float | bool) -> None:
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        if type(option) is not str or option not in self.options:
            raise InvalidArgumentError(
                f"the engine has no option {short_repr(option)}; it has {sorted(self.options)}"
            )
        if "\n" in text or "\r" in text:
            raise InvalidArgumentError(f"an option's value is one line, got {short_repr(text)}")
        self._lines.send(f"setoption name {option} value {text}")

    async def _ready(self, deadline: float) -> None:
        self._lines.send("isready")
        while (await self._lines.read(deadline, "readyok")).strip() != "readyok":
            pass

    async def _best(self, spn: str) -> str:
        self._lines.send(f"position {spn}")
        self._lines.send(f"go time {max(1, round(self.time * 1000))}")
        deadline = asyncio.get_running_loop().time() + self.time + self.grace
        while True:
            words = (await self._lines.read(deadline, "bestmove")).split()
            if words[:1] == ["bestmove"]:
                if "ponder" in words:
                    words = words[: words.index("ponder")]
                return " ".join(words[1:])

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: object) -> Action:
        """Ask the engine for its move in ``view``; ``rng`` is not used."""
        check_mappable(view)
        return self._run(self._play(view, actions))

    async def _play(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        if self._last_turn is None or view.turn <= self._last_turn:
            await self._ready(asyncio.get_running_loop().time() + self.time + self.grace)
            self._lines.send("usinewgame")
        self._last_turn = view.turn
        text = await self._best(view_to_spn(view, own_blind=self.own_blind))
        try:
            move = read_move(text)
            if needs_return(move, actions):
                assert move.tier is not None
                after = view_to_spn(view, own_blind=self.own_blind, deck_reserve=move.tier)
                answer = await self._best(after)
                given_back = read_move(answer)
                if given_back.kind != "return" or given_back.tokens.total != 1:
                    raise NotationError(
                        f"expected return:<colour> after {short_repr(text)}, got "
                        f"{short_repr(answer)}"
                    )
                move = attrs.evolve(move, returned=given_back.tokens)
                text = f"{text} then {answer}"
            return match_move(move, view, actions, text)
        except NotationError as error:
            await self._lines.end()
            raise EngineMoveError(f"the engine's move is not legal here: {error}") from error

    def close(self) -> None:
        """Send ``quit``, wait ``grace`` seconds, then end the process (its whole group)."""
        if self._loop.closed:
            return
        try:
            self._run(self._lines.close(self.grace))
        finally:
            self._finalizer.detach()
            self._loop.stop()

    def _abandon(self) -> None:
        """End the process now, without ``quit``, and stop the loop."""
        try:
            self._run(self._lines.end())
        finally:
            self._finalizer.detach()
            self._loop.stop()

    def __enter__(self) -> UsiEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def open_usi_engine(
    command: str | Sequence[str],
    *,
    options: Mapping[str, str | int | float | bool] | None = None,
    timeout: float = 10.0,
    time: float = 1.0,
    grace: float = 0.5,
    name: str | None = None,
    cwd: str | os.PathLike[str] | None = None,
    own_blind: OwnBlind = "id",
) -> UsiEngine:
    """Start an engine that speaks csplendor's USI-like protocol; return it as a bot.

    Args:
        command: the command line, a str (split as a shell would, without
            running a shell) or a sequence of arguments.
        options: ``setoption`` values sent after the handshake.
        timeout: seconds for the engine to answer ``usiok`` and ``readyok``.
        time: seconds per move, sent as ``go time <ms>``.
        grace: seconds allowed beyond ``time`` (and for ``quit``).
        name: the bot's name; the engine's ``id name`` by default.
        cwd: the directory to run it in.
        own_blind: how the mover's blind reserves are written
            (see :func:`view_to_spn`).

    Returns:
        The running engine, a bot.

    Raises:
        InvalidArgumentError: for a bad command, limit or option.
        EngineError: when the engine cannot start, or does not finish the
            handshake within ``timeout`` (its process is ended).
    """
    argv = command_argv(command)
    for what, value in (("timeout", timeout), ("time", time), ("grace", grace)):
        check_seconds(what, value, below=1e9)
    if own_blind not in ("id", "marked", "hidden"):
        raise InvalidArgumentError(
            f"own_blind must be 'id', 'marked' or 'hidden', got {short_repr(own_blind)}"
        )
    loop = LoopThread()
    lines = _UsiLines()
    try:
        loop.run(lines.start(argv, cwd), name or argv[0], grace)
    except BaseException:
        loop.stop()
        raise
    engine = UsiEngine(loop, lines, name=name, time=time, grace=grace, own_blind=own_blind)
    try:
        engine._handshake(options or {}, timeout)
    except BaseException:
        engine._abandon()
        raise
    return engine
