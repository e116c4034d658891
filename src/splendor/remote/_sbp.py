"""The bot protocol's host logic over a transport: :class:`AsyncEngine`.

An :class:`AsyncEngine` speaks the bot protocol to an engine through a
:class:`~splendor.remote._transport.Transport` (an engine's process, or
scripted exchanges in tests): it sends the host's messages, reads the
engine's lines into messages, matches each answer with the request that
waits for it, and ends the engine on any fault. :mod:`splendor.remote.host`
starts the process and makes the blocking :class:`~splendor.remote.host.Engine`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import MappingProxyType, TracebackType
from typing import Final, Literal

import attrs

from splendor.core.actions import Action
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.views import PlayerView
from splendor.errors import (
    EngineCrashedError,
    EngineError,
    EngineMoveError,
    EngineProtocolError,
    EngineTimeoutError,
    InvalidArgumentError,
    ProtocolError,
    SplendorError,
)
from splendor.formats.notation import format_action, parse_action
from splendor.remote._transport import Receiver, Transport
from splendor.remote.codec import decode_engine, encode
from splendor.remote.messages import (
    MAX_LINE,
    PROTOCOL_VERSION,
    BestMove,
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

__all__ = ["Analysis", "AsyncEngine", "EngineId", "PlayResult", "connect"]

# The most info lines kept for one search (the last ones).
_MAX_INFO: Final = 10_000
# The most error lines of one engine logged (an engine may send them without end).
_MAX_LOGGED: Final = 100
# The characters of standard error quoted in the message of a crash.
_QUOTED_TAIL: Final = 600

_log = logging.getLogger("splendor.remote")


@attrs.frozen
class EngineId:
    """Who an engine says it is, in its ``hello``.

    Attributes:
        name: its name.
        author: its author, or ``""``.
        version: its version, or ``""``.
    """

    name: str
    author: str = ""
    version: str = ""


@attrs.frozen
class PlayResult:
    """An engine's move, as :meth:`.Engine.play` returns it.

    Attributes:
        action: the move, one of the legal actions.
        index: its index in the actions listed to the engine.
        info: the engine's info lines of this search, in order.
        time: seconds from ``go`` to the best move, measured by the host.
    """

    action: Action
    index: int
    info: tuple[Info, ...]
    time: float


@attrs.frozen
class Analysis:
    """What an engine thinks of a position, as :meth:`.Engine.analyse` returns it.

    Attributes:
        best: its best move.
        info: its info lines, in order.
    """

    best: Action
    info: tuple[Info, ...]

    @property
    def latest(self) -> Info | None:
        """The last info line, or ``None`` when the engine sent none."""
        return self.info[-1] if self.info else None


@attrs.define
class _Request:
    """What the host waits for: a hello, a readyok, or the best move of one search."""

    kind: Literal["hello", "readyok", "bestmove"]
    future: asyncio.Future[EngineMessage]
    id: int = -1
    info: collections.deque[Info] = attrs.Factory(lambda: collections.deque(maxlen=_MAX_INFO))
    errors: list[ErrorMessage] = attrs.Factory(list)


class AsyncEngine:
    """A bot engine in another process, for asyncio code: made by :func:`.open_engine_async`.

    Its methods are coroutines; one runs at a time (each waits for the one
    before). ``async with`` closes it. :class:`~splendor.remote.host.Engine` is the blocking
    twin, and says more of each method.
    """

    def __init__(
        self, default_name: str, *, timeout: float, grace: float, limit: Limit, name: str | None
    ) -> None:
        self.timeout = timeout
        self.grace = grace
        #: The limit of a move made through the bot protocol.
        self.limit = limit
        self._name = name
        self.id = EngineId(name or default_name)
        self.options: Mapping[str, Option] = MappingProxyType({})
        self._transport: Transport | None = None
        self._pending: _Request | None = None
        self._fault: EngineError | None = None
        self._closing = False
        self._closed = False
        self._last_id = 0
        self._game: tuple[int, Rules] | None = None
        self._last_turn = -1
        self._logged = 0
        self._lock = asyncio.Lock()

    # What the engine does (the transport's Receiver, called on the loop).

    def line_received(self, line: bytes) -> None:
        """Read one line of the engine as a message, and hand it to the request it answers."""
        if self._fault is None:
            self._line(line)

    def line_too_long(self) -> None:
        """End the engine: it wrote a line longer than the protocol allows."""
        self._fail(
            EngineProtocolError(
                f"engine {short_repr(self.name)} wrote a line longer than the "
                f"{MAX_LINE:,} bytes allowed"
            )
        )

    def output_closed(self) -> None:
        """End the engine a little later, unless its exit comes first."""
        if self._closing or self._fault is not None:
            return
        # The exit status comes soon, with a better message; if it does not,
        # an engine that closed its output is as good as dead.
        asyncio.get_running_loop().call_later(self.grace, self._silent)

    def _silent(self) -> None:
        if not self._closing and self._fault is None:
            self._fail(
                EngineCrashedError(
                    f"engine {short_repr(self.name)} closed its output{self._tail()}"
                )
            )

    def process_exited(self, code: int | None) -> None:
        """End the engine with a crash, unless it was closing."""
        if not self._closing:
            how = (
                f"was killed by signal {-code}"
                if code is not None and code < 0
                else f"exited with status {code}"
            )
            self._fail(EngineCrashedError(f"engine {short_repr(self.name)} {how}{self._tail()}"))

    def _tail(self) -> str:
        tail = self.stderr_tail.strip()
        if not tail:
            return ""
        if len(tail) > _QUOTED_TAIL:
            tail = "..." + tail[-_QUOTED_TAIL:]
        return f"; its last words: {tail}"

    def _line(self, line: bytes) -> None:
        if not line.strip():
            return  # a blank line says nothing: engines may print one
        if _log.isEnabledFor(logging.DEBUG):
            _log.debug("%s < %s", self.name, line.decode("utf-8", "replace").rstrip("\n"))
        try:
            message = decode_engine(line)
        except ProtocolError as error:
            self._fail(
                EngineProtocolError(f"engine {short_repr(self.name)} broke the protocol: {error}")
            )
            return
        pending = self._pending
        if isinstance(message, ErrorMessage):
            self._logged += 1
            if self._logged <= _MAX_LOGGED:
                _log.warning("engine %r: error %s: %s", self.name, message.code, message.message)
                if self._logged == _MAX_LOGGED:
                    _log.warning("engine %r: no more of its error lines are logged", self.name)
            if pending is None:
                return
            if pending.kind == "readyok":
                if len(pending.errors) < _MAX_LOGGED:
                    pending.errors.append(message)
            elif pending.kind == "hello" or message.id in (None, pending.id):
                self._fail(
                    EngineProtocolError(
                        f"engine {short_repr(self.name)} answered with an error instead of a "
                        f"{pending.kind}: {message.code}: {message.message}"
                    )
                )
            return
        if isinstance(message, InfoMessage):
            if pending is not None and pending.kind == "bestmove" and message.id == pending.id:
                pending.info.append(message.info)
            return
        if isinstance(message, BestMove) and message.id > self._last_id:
            self._fail(
                EngineProtocolError(
                    f"engine {short_repr(self.name)} answered position {message.id}, "
                    "which was never sent"
                )
            )
            return
        wanted = {EngineHello: "hello", ReadyOk: "readyok", BestMove: "bestmove"}[type(message)]
        if pending is None or pending.kind != wanted:
            return  # a late answer to a request given up (a bestmove after stop): dropped
        if isinstance(message, BestMove) and message.id != pending.id:
            return
        if not pending.future.done():
            pending.future.set_result(message)

    def _fail(self, error: EngineError) -> None:
        """Record the engine's fault, kill it, and wake whoever waits for it."""
        if self._fault is None:
            self._fault = error
        if self._transport is not None:
            self._transport.kill()
        pending = self._pending
        if pending is not None and not pending.future.done():
            pending.future.set_exception(self._fault)
            # After a timeout nobody awaits this future any more (the shield
            # around it was cancelled): mark its exception seen, or asyncio
            # logs "Future exception was never retrieved" when it is collected.
            pending.future.exception()

    # Talking to it.

    @property
    def name(self) -> str:
        """The engine's name: the one given to :func:`.open_engine`, else its own."""
        return self._name or self.id.name

    @property
    def pid(self) -> int:
        """The engine's process id (the leader of its process group); -1 before it starts."""
        return -1 if self._transport is None else self._transport.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: the signal), else ``None``."""
        return None if self._transport is None else self._transport.returncode

    @property
    def stderr_tail(self) -> str:
        """The last 64 KiB (:data:`.STDERR_TAIL`) of the engine's standard error, as text."""
        return "" if self._transport is None else self._transport.stderr_tail

    async def _connect(self, transport: Transport) -> None:
        """Shake hands over ``transport``, made with this engine as its receiver."""
        self._transport = transport
        hello = await self._ask(Hello(), "hello", self.timeout)
        assert isinstance(hello, EngineHello)
        if hello.protocol != PROTOCOL_VERSION:
            await self._end(
                EngineProtocolError(
                    f"engine {short_repr(self.name)} speaks protocol {hello.protocol}, "
                    f"not {PROTOCOL_VERSION}"
                )
            )
        self.id = EngineId(hello.name, hello.author, hello.version)
        self.options = MappingProxyType({option.name: option for option in hello.options})

    def _send(self, message: HostMessage) -> None:
        if self._fault is not None:
            raise self._fault
        if self._closed or self._closing or self._transport is None:
            raise EngineCrashedError(f"engine {short_repr(self.name)} is closed")
        line = encode(message)
        if _log.isEnabledFor(logging.DEBUG):
            _log.debug("%s > %s", self.name, line.decode("utf-8").rstrip("\n"))
        self._transport.write(line)

    async def _ask(
        self,
        message: HostMessage,
        kind: Literal["hello", "readyok", "bestmove"],
        seconds: float,
        *,
        id_: int = -1,
    ) -> EngineMessage:
        """Send ``message``, wait at most ``seconds`` for its answer (the engine ends if none)."""
        request = _Request(kind, asyncio.get_running_loop().create_future(), id_)
        self._pending = request
        try:
            self._send(message)
            return await self._answer(request, seconds)
        finally:
            self._pending = None

    async def _answer(self, request: _Request, seconds: float) -> EngineMessage:
        try:
            async with asyncio.timeout(seconds):
                return await asyncio.shield(request.future)
        except TimeoutError:
            await self._end(
                EngineTimeoutError(
                    f"engine {short_repr(self.name)} sent no {request.kind} within {seconds:.2f} s"
                )
            )
        except EngineError:
            await self._end(None)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _end(self, error: EngineError | None) -> None:
        """Fail with ``error`` (or the fault recorded): kill, reap, close, raise."""
        if error is not None:
            self._fail(error)
        await self._shut()
        assert self._fault is not None
        raise self._fault

    async def _shut(self) -> None:
        """Kill the process group, wait for the process to be reaped, close the pipes."""
        self._closing = True
        if self._transport is not None:
            await self._transport.close()
        self._closed = True

    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set options (see :meth:`.Engine.configure`)."""
        async with self._lock:
            checked = self._checked(options)
            for name, value in checked.items():
                self._send(SetOption(name, value))
            request = _Request("readyok", asyncio.get_running_loop().create_future())
            self._pending = request
            try:
                self._send(IsReady())
                await self._answer(request, self.timeout)
            finally:
                self._pending = None
            if checked and request.errors:
                first = request.errors[0]
                raise InvalidArgumentError(
                    f"engine {short_repr(self.name)} refused an option: {first.code}: "
                    f"{first.message}"
                )

    def _checked(self, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        if not isinstance(options, Mapping):
            raise InvalidArgumentError(f"options are a mapping, got {type(options).__name__}")
        checked: dict[str, OptionValue] = {}
        for name, value in options.items():
            option = self.options.get(name) if isinstance(name, str) else None
            if option is None:
                offered = ", ".join(self.options) or "none"
                raise InvalidArgumentError(
                    f"engine {short_repr(self.name)} has no option {short_repr(name)} "
                    f"(its options: {offered})"
                )
            checked[name] = option.check(value)
        return checked

    async def is_ready(self) -> None:
        """Wait until the engine has read every message before (see :meth:`.Engine.is_ready`)."""
        async with self._lock:
            await self._ask(IsReady(), "readyok", self.timeout)

    async def new_game(self, players: int, seat: int, rules: Rules | None = None) -> None:
        """Tell the engine a new game begins (see :meth:`.Engine.new_game`)."""
        async with self._lock:
            self._new_game(players, seat, Rules() if rules is None else rules)

    def _new_game(self, players: int, seat: int, rules: Rules) -> None:
        if type(players) is not int or not 2 <= players <= 4:
            raise InvalidArgumentError(f"players must be 2, 3 or 4, got {short_repr(players)}")
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidArgumentError(
                f"seat must be from 0 to {players - 1}, got {short_repr(seat)}"
            )
        if not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be Rules, got {short_repr(rules)}")
        self._send(NewGame(players, seat, rules))
        self._game = (players, rules)
        self._last_turn = -1

    async def play(
        self,
        view: PlayerView,
        limit: Limit | None = None,
        *,
        actions: Sequence[Action] | None = None,
    ) -> PlayResult:
        """The engine's move in a position (see :meth:`.Engine.play`)."""
        async with self._lock:
            best, index, info, seconds = await self._search(view, limit, actions)
            return PlayResult(best, index, info, seconds)

    async def analyse(
        self,
        view: PlayerView,
        limit: Limit | None = None,
        *,
        actions: Sequence[Action] | None = None,
    ) -> Analysis:
        """What the engine thinks of a position (see :meth:`.Engine.analyse`)."""
        async with self._lock:
            best, _, info, _ = await self._search(view, limit, actions)
            return Analysis(best, info)

    async def _search(
        self, view: PlayerView, limit: Limit | None, actions: Sequence[Action] | None
    ) -> tuple[Action, int, tuple[Info, ...], float]:
        limit = self.limit if limit is None else limit
        if not isinstance(limit, Limit):
            raise InvalidArgumentError(f"limit must be a Limit, got {short_repr(limit)}")
        if not isinstance(view, PlayerView):
            raise InvalidArgumentError(f"an engine plays from a PlayerView, got {short_repr(view)}")
        full = view.stand_in()
        listed = legal_actions(full) if actions is None else tuple(actions)
        if not listed:
            raise InvalidArgumentError("an engine needs at least one action to choose from")
        texts = tuple(format_action(action, full) for action in listed)
        budget = self._budget(view, limit)
        if limit.infinite and budget is None:
            raise InvalidArgumentError(
                "an infinite search needs a time (or a clock) after which the host stops it"
            )
        if self._fault is not None:
            raise self._fault
        players = len(view.players)
        if self._game != (players, view.rules) or view.turn <= self._last_turn:
            assert view.seat is not None  # stand_in refuses a spectator's view
            self._new_game(players, view.seat, view.rules)
        self._last_turn = view.turn
        self._last_id += 1
        id_ = self._last_id
        request = _Request("bestmove", asyncio.get_running_loop().create_future(), id_)
        self._pending = request
        try:
            self._send(Position(id_, view, listed, texts))
            started = time.perf_counter()
            self._send(Go(id_, limit))
            if limit.infinite and budget is not None:
                try:
                    async with asyncio.timeout(budget):
                        await asyncio.shield(request.future)
                except TimeoutError:
                    self._send(Stop())
                answer = await self._answer(request, self.grace)
            else:
                answer = await self._answer(
                    request, self.timeout if budget is None else budget + self.grace
                )
            seconds = time.perf_counter() - started
        except asyncio.CancelledError:
            # Given up: the engine is told to stop, and its late answer is dropped by its id.
            if self._fault is None and not self._closing:
                self._send(Stop())
            raise
        finally:
            self._pending = None
        assert isinstance(answer, BestMove)
        index = await self._index(answer, listed, texts, full)
        return listed[index], index, tuple(request.info), seconds

    def _budget(self, view: PlayerView, limit: Limit) -> float | None:
        if limit.time is not None:
            return limit.time
        if limit.clock is not None:
            seat = view.seat
            if seat is None or seat >= len(limit.clock.remaining):
                raise InvalidArgumentError(
                    f"the clock has {len(limit.clock.remaining)} seats, not seat {seat}"
                )
            return max(limit.clock.remaining[seat], 0.001)
        return None

    async def _index(
        self, answer: BestMove, listed: Sequence[Action], texts: Sequence[str], full: object
    ) -> int:
        """The index of the listed action the best move names (the engine ends if none)."""
        if answer.index is not None:
            if answer.index < len(listed):
                return answer.index
            problem = f"index {answer.index} of {len(listed)} actions"
        else:
            text = answer.move or ""
            if text in texts:
                return texts.index(text)
            try:
                action = parse_action(text, full)  # type: ignore[arg-type]  # the stand-in GameState
            except SplendorError as error:
                problem = f"{short_repr(text)}: {error}"
            else:
                if action in listed:
                    return list(listed).index(action)
                problem = f"{short_repr(text)}, which is not one of the actions listed"
        await self._end(
            EngineMoveError(f"engine {short_repr(self.name)} played an illegal move: {problem}")
        )
        raise AssertionError("unreachable")  # pragma: no cover

    async def quit(self) -> None:
        """Ask the engine to exit, then kill what is left (see :meth:`.Engine.quit`)."""
        if self._closed:
            return
        async with self._lock:
            if self._fault is None and not self._closing and self._transport is not None:
                with contextlib.suppress(EngineError):
                    self._send(Quit())
                self._closing = True
                await self._transport.wait(self.grace)
            await self._shut()

    async def aclose(self) -> None:
        """The same as :meth:`quit`."""
        await self.quit()

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.quit()

    def __repr__(self) -> str:
        return f"<AsyncEngine {self.name!r} pid={self.pid}>"


async def connect(
    default_name: str,
    transport: Callable[[Receiver], Awaitable[Transport]],
    *,
    timeout: float,
    grace: float,
    limit: Limit,
    name: str | None,
    options: Mapping[str, OptionValue],
) -> AsyncEngine:
    """An engine ready to play over the transport that ``transport(engine)`` makes.

    It shakes hands and sets ``options``; the arguments are checked ones
    (see :func:`.open_engine_async`), and ``default_name`` names the engine
    until its ``hello`` does. On any failure, the engine is ended (killed
    and reaped) before the error is raised.
    """
    engine = AsyncEngine(default_name, timeout=timeout, grace=grace, limit=limit, name=name)
    try:
        await engine._connect(await transport(engine))
        await engine.configure(options)
    except BaseException:
        await engine._shut()
        raise
    return engine
