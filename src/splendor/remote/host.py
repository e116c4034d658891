"""The host side of the bot protocol: start a bot engine and play it as a bot.

:func:`open_engine` starts an engine's process, shakes hands with it and
returns an :class:`Engine`: a bot (``engine(view, actions, rng)``) usable
wherever one is (:func:`splendor.play_game`, tournaments, self-play, the
server), with :meth:`Engine.play` and :meth:`Engine.analyse` for more.
:func:`open_engine_async` does the same for asyncio code and returns an
:class:`AsyncEngine`; the blocking :class:`Engine` runs one on an event loop
of its own, in a thread.

The host never trusts the engine:

* it waits for the handshake at most ``timeout`` seconds, and for a move the
  move's time (or the mover's remaining time on the clock) plus a grace
  (:data:`GRACE` by default); with no time limit at all, ``timeout``;
* a line that is not the protocol, is longer than
  :data:`~splendor.remote.messages.MAX_LINE`, an illegal or ambiguous move,
  no answer in time, or the process's death end the engine with an
  :class:`~splendor.errors.EngineError` subclass
  (:class:`~splendor.errors.EngineProtocolError`,
  :class:`~splendor.errors.EngineMoveError`,
  :class:`~splendor.errors.EngineTimeoutError`,
  :class:`~splendor.errors.EngineCrashedError`), raised once its process is
  killed and reaped;
* its standard error is read as it comes, the last 64 KiB kept
  (:attr:`Engine.stderr_tail`), so a flood never blocks it;
* each engine runs in a process group of its own, killed (every process in
  it) on close, on a fault, when the :class:`Engine` is garbage-collected and
  at interpreter exit. No process is left behind, and none as a zombie.

Every line sent and received is logged at the ``DEBUG`` level on the logger
``splendor.remote`` (``>`` to the engine, ``<`` from it); an engine's
``error`` lines are logged as warnings.

Only the mover's view and its legal actions cross to the engine: never a
hidden card, never the seed.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import subprocess
import threading
import time
import weakref
from collections.abc import Coroutine, Mapping, Sequence
from types import MappingProxyType, TracebackType
from typing import Final, Literal, TypeVar

import attrs

from splendor.core.actions import Action
from splendor.core.legal import legal_actions
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
from splendor.remote._process import check_seconds, command_argv, kill_group
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
    decode_engine,
    encode,
)

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_TIMEOUT",
    "GRACE",
    "STDERR_TAIL",
    "Analysis",
    "AsyncEngine",
    "Engine",
    "EngineId",
    "PlayResult",
    "open_engine",
    "open_engine_async",
]

#: Seconds an engine gets beyond a move's time limit (for the pipes and the
#: process's scheduling), and to exit after ``quit`` before it is killed.
GRACE: Final = 0.5
#: Seconds an engine gets to answer the handshake, ``isready``, and a move
#: with no time limit, unless :func:`open_engine` is told otherwise.
DEFAULT_TIMEOUT: Final = 10.0
#: The limit of a move made through the bot protocol (``engine(view, actions, rng)``)
#: unless :func:`open_engine` is told otherwise.
DEFAULT_LIMIT: Final = Limit(time=1.0)
#: The bytes of an engine's standard error kept (the last ones).
STDERR_TAIL: Final = 65_536

# The most info lines kept for one search (the last ones).
_MAX_INFO: Final = 10_000
# The most error lines of one engine logged (an engine may send them without end).
_MAX_LOGGED: Final = 100
# The characters of standard error quoted in the message of a crash.
_QUOTED_TAIL: Final = 600

_log = logging.getLogger("splendor.remote")
_T = TypeVar("_T")


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
    """An engine's move, as :meth:`Engine.play` returns it.

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
    """What an engine thinks of a position, as :meth:`Engine.analyse` returns it.

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


class _Pipes(asyncio.SubprocessProtocol):
    """Hands what the process does to its engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            self.engine._stdout(data)
        elif fd == 2:
            self.engine._stderr(data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.engine._stdout_closed()

    def process_exited(self) -> None:
        self.engine._process_exited()


class AsyncEngine:
    """A bot engine in another process, for asyncio code: made by :func:`open_engine_async`.

    Its methods are coroutines; one runs at a time (each waits for the one
    before). ``async with`` closes it. :class:`Engine` is the blocking
    twin, and says more of each method.
    """

    def __init__(
        self, argv: Sequence[str], *, timeout: float, grace: float, limit: Limit, name: str | None
    ) -> None:
        self._argv = tuple(argv)
        self.timeout = timeout
        self.grace = grace
        #: The limit of a move made through the bot protocol.
        self.limit = limit
        self._name = name
        self.id = EngineId(name or os.path.basename(self._argv[0]))
        self.options: Mapping[str, Option] = MappingProxyType({})
        self._transport: asyncio.SubprocessTransport | None = None
        self._exit: asyncio.Future[int] | None = None
        self._pid = -1
        self._buffer = bytearray()
        self._scanned = 0
        self._errbuf = bytearray()
        self._pending: _Request | None = None
        self._fault: EngineError | None = None
        self._closing = False
        self._closed = False
        self._last_id = 0
        self._game: tuple[int, Rules] | None = None
        self._last_turn = -1
        self._logged = 0
        self._lock = asyncio.Lock()
        self._finalizer: weakref.finalize[[int], AsyncEngine] | None = None  # kills it if forgotten

    # What the process does (called by _Pipes on the loop).

    def _stdout(self, data: bytes) -> None:
        if self._fault is not None:
            return
        buffer = self._buffer
        buffer += data
        while self._fault is None:
            end = buffer.find(b"\n", self._scanned)
            if end < 0:
                self._scanned = len(buffer)
                if len(buffer) >= MAX_LINE:
                    self._fail(
                        EngineProtocolError(
                            f"engine {self.name!r} wrote a line longer than the "
                            f"{MAX_LINE:,} bytes allowed"
                        )
                    )
                return
            line = bytes(buffer[: end + 1])
            del buffer[: end + 1]
            self._scanned = 0
            self._line(line)

    def _stderr(self, data: bytes) -> None:
        errbuf = self._errbuf
        errbuf += data
        if len(errbuf) > 2 * STDERR_TAIL:
            del errbuf[:-STDERR_TAIL]

    def _stdout_closed(self) -> None:
        if self._closing or self._fault is not None or self._exit is None:
            return
        # The exit status comes soon, with a better message; if it does not,
        # an engine that closed its output is as good as dead.
        asyncio.get_running_loop().call_later(self.grace, self._silent)

    def _silent(self) -> None:
        if not self._closing and self._fault is None:
            self._fail(EngineCrashedError(f"engine {self.name!r} closed its output{self._tail()}"))

    def _process_exited(self) -> None:
        assert self._transport is not None
        assert self._exit is not None
        code = self._transport.get_returncode()
        kill_group(self._pid)  # whatever it started goes with it
        if not self._exit.done():
            self._exit.set_result(-1 if code is None else code)
        if self._finalizer is not None:
            self._finalizer.detach()
        if not self._closing:
            how = (
                f"was killed by signal {-code}"
                if code is not None and code < 0
                else f"exited with status {code}"
            )
            self._fail(EngineCrashedError(f"engine {self.name!r} {how}{self._tail()}"))

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
            self._fail(EngineProtocolError(f"engine {self.name!r} broke the protocol: {error}"))
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
                        f"engine {self.name!r} answered with an error instead of a "
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
                    f"engine {self.name!r} answered position {message.id}, which was never sent"
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
        if self._exit is not None and not self._exit.done():
            kill_group(self._pid)
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
        """The engine's name: the one given to :func:`open_engine`, else its own."""
        return self._name or self.id.name

    @property
    def pid(self) -> int:
        """The process id of the engine (the leader of its process group)."""
        return self._pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: the signal), else ``None``."""
        if self._exit is None or not self._exit.done():
            return None
        return self._exit.result()

    @property
    def stderr_tail(self) -> str:
        """The last 64 KiB (:data:`STDERR_TAIL`) of what the engine wrote on its standard error."""
        return bytes(self._errbuf[-STDERR_TAIL:]).decode("utf-8", "replace")

    async def _start(
        self, cwd: str | os.PathLike[str] | None, env: Mapping[str, str] | None
    ) -> None:
        loop = asyncio.get_running_loop()
        self._exit = loop.create_future()
        try:
            transport, _ = await loop.subprocess_exec(
                lambda: _Pipes(self),
                *self._argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=None if env is None else dict(env),
                start_new_session=True,
            )
        except OSError as error:
            self._closed = True
            self._exit.set_result(-1)
            raise EngineCrashedError(
                f"cannot start engine {self._argv[0]!r}: {error.strerror or error}"
            ) from None
        self._transport = transport
        self._pid = transport.get_pid()
        self._finalizer = weakref.finalize(self, kill_group, self._pid)
        hello = await self._ask(Hello(), "hello", self.timeout)
        assert isinstance(hello, EngineHello)
        if hello.protocol != PROTOCOL_VERSION:
            await self._end(
                EngineProtocolError(
                    f"engine {self.name!r} speaks protocol {hello.protocol}, not {PROTOCOL_VERSION}"
                )
            )
        self.id = EngineId(hello.name, hello.author, hello.version)
        self.options = MappingProxyType({option.name: option for option in hello.options})

    def _send(self, message: HostMessage) -> None:
        if self._fault is not None:
            raise self._fault
        if self._closed or self._closing or self._transport is None:
            raise EngineCrashedError(f"engine {self.name!r} is closed")
        pipe = self._transport.get_pipe_transport(0)
        assert isinstance(pipe, asyncio.WriteTransport)
        line = encode(message)
        if _log.isEnabledFor(logging.DEBUG):
            _log.debug("%s > %s", self.name, line.decode("utf-8").rstrip("\n"))
        pipe.write(line)

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
                    f"engine {self.name!r} sent no {request.kind} within {seconds:.2f} s"
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
        if self._exit is not None and not self._exit.done():
            kill_group(self._pid)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(10.0):
                    await asyncio.shield(self._exit)
        if self._transport is not None:
            self._transport.close()
        self._closed = True

    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set options (see :meth:`Engine.configure`)."""
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
                    f"engine {self.name!r} refused an option: {first.code}: {first.message}"
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
                    f"engine {self.name!r} has no option {name!r} (its options: {offered})"
                )
            checked[name] = option.check(value)
        return checked

    async def is_ready(self) -> None:
        """Wait until the engine has read every message before (see :meth:`Engine.is_ready`)."""
        async with self._lock:
            await self._ask(IsReady(), "readyok", self.timeout)

    async def new_game(self, players: int, seat: int, rules: Rules | None = None) -> None:
        """Tell the engine a new game begins (see :meth:`Engine.new_game`)."""
        async with self._lock:
            self._new_game(players, seat, Rules() if rules is None else rules)

    def _new_game(self, players: int, seat: int, rules: Rules) -> None:
        if type(players) is not int or not 2 <= players <= 4:
            raise InvalidArgumentError(f"players must be 2, 3 or 4, got {players!r}")
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidArgumentError(f"seat must be from 0 to {players - 1}, got {seat!r}")
        if not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be Rules, got {rules!r}")
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
        """The engine's move in a position (see :meth:`Engine.play`)."""
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
        """What the engine thinks of a position (see :meth:`Engine.analyse`)."""
        async with self._lock:
            best, _, info, _ = await self._search(view, limit, actions)
            return Analysis(best, info)

    async def _search(
        self, view: PlayerView, limit: Limit | None, actions: Sequence[Action] | None
    ) -> tuple[Action, int, tuple[Info, ...], float]:
        limit = self.limit if limit is None else limit
        if not isinstance(limit, Limit):
            raise InvalidArgumentError(f"limit must be a Limit, got {limit!r}")
        if not isinstance(view, PlayerView):
            raise InvalidArgumentError(f"an engine plays from a PlayerView, got {view!r}")
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
                problem = f"{text!r}: {error}"
            else:
                if action in listed:
                    return list(listed).index(action)
                problem = f"{text!r}, which is not one of the actions listed"
        await self._end(EngineMoveError(f"engine {self.name!r} played an illegal move: {problem}"))
        raise AssertionError("unreachable")  # pragma: no cover

    async def quit(self) -> None:
        """Ask the engine to exit, then kill what is left (see :meth:`Engine.quit`)."""
        if self._closed:
            return
        async with self._lock:
            if self._fault is None and not self._closing and self._exit is not None:
                with contextlib.suppress(EngineError):
                    self._send(Quit())
                self._closing = True
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.grace):
                        await asyncio.shield(self._exit)
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
        return f"<AsyncEngine {self.name!r} pid={self._pid}>"


async def open_engine_async(
    command: str | Sequence[str],
    *,
    options: Mapping[str, OptionValue] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    limit: Limit = DEFAULT_LIMIT,
    grace: float = GRACE,
    name: str | None = None,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> AsyncEngine:
    """Start a bot engine and shake hands with it, in asyncio code.

    The arguments are those of :func:`open_engine`.

    >>> import asyncio, sys
    >>> from splendor import new_game, view
    >>> async def main():
    ...     command = [sys.executable, "-m", "splendor", "engine", "greedy"]
    ...     async with await open_engine_async(command) as engine:
    ...         result = await engine.play(view(new_game(2, seed=1), 0))
    ...     return engine.id.name, type(result.action).__name__
    >>> asyncio.run(main())
    ('greedy', 'Take')
    """
    argv = command_argv(command)
    timeout = check_seconds("timeout", timeout)
    grace = check_seconds("grace", grace)
    if not isinstance(limit, Limit):
        raise InvalidArgumentError(f"limit must be a Limit, got {limit!r}")
    if name is not None and (not isinstance(name, str) or not name):
        raise InvalidArgumentError(f"name must be a non-empty str or None, got {name!r}")
    engine = AsyncEngine(argv, timeout=timeout, grace=grace, limit=limit, name=name)
    try:
        await engine._start(cwd, env)
        await engine.configure(options or {})
    except BaseException:
        await engine._shut()
        raise
    return engine


class _Loop:
    """An event loop running in a daemon thread of its own, for one blocking :class:`Engine`."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="splendor-engine", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, coroutine: Coroutine[object, object, _T], name: str) -> _T:
        if self.loop.is_closed():
            coroutine.close()
            raise EngineCrashedError(f"engine {name!r} is closed")
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result()
        except BaseException:  # an interrupt, say: the search is given up
            if not future.done():
                future.cancel()
                with contextlib.suppress(BaseException):
                    future.result(timeout=GRACE)
            raise

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        if threading.current_thread() is not self.thread:
            self.thread.join()
            self.loop.close()


def _forget(loop: _Loop, core: AsyncEngine) -> None:
    """The finalizer of an :class:`Engine` never closed: kill it, reap it, stop its loop."""
    kill_group(core.pid)

    async def shut() -> None:
        try:
            await core._shut()
        finally:
            loop.loop.stop()

    with contextlib.suppress(RuntimeError):  # the loop is closed already
        loop.loop.call_soon_threadsafe(lambda: loop.loop.create_task(shut()))


class Engine:
    """A bot engine in another process, as a blocking bot: made by :func:`open_engine`.

    An engine is a bot: ``engine(view, actions, rng)`` returns its move
    within :attr:`limit` (the ``rng`` is not used: the engine has its own
    generator, seeded by its ``Seed`` option if it has one). ``with``
    closes it. Calls are made one at a time (from one thread, or with a
    lock): each waits for the answer of the one before.
    """

    def __init__(self, core: AsyncEngine, loop: _Loop) -> None:
        self._core = core
        self._loop = loop
        self._finalizer = weakref.finalize(self, _forget, loop, core)

    @property
    def id(self) -> EngineId:
        """Who the engine says it is."""
        return self._core.id

    @property
    def options(self) -> Mapping[str, Option]:
        """The options the engine offers, by name."""
        return self._core.options

    @property
    def name(self) -> str:
        """The name a game record gives this bot: the one given, else the engine's own."""
        return self._core.name

    @property
    def limit(self) -> Limit:
        """The limit of a move made as a bot."""
        return self._core.limit

    @limit.setter
    def limit(self, limit: Limit) -> None:
        if not isinstance(limit, Limit):
            raise InvalidArgumentError(f"limit must be a Limit, got {limit!r}")
        self._core.limit = limit

    @property
    def timeout(self) -> float:
        """Seconds to answer a handshake, ``isready``, or a move without a time limit."""
        return self._core.timeout

    @property
    def grace(self) -> float:
        """Seconds beyond a move's time, and to exit after ``quit``."""
        return self._core.grace

    @property
    def pid(self) -> int:
        """The engine's process id (the leader of its process group)."""
        return self._core.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: the signal), else ``None``."""
        return self._core.returncode

    @property
    def stderr_tail(self) -> str:
        """The last 64 KiB of the engine's standard error, as text."""
        return self._core.stderr_tail

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set some of the engine's options, then wait until it is ready.

        Raises:
            InvalidArgumentError: for an option the engine does not offer, a
                value it may not take, or one the engine refused with an
                ``error`` line (the engine keeps running).
            EngineError: when the engine failed (it is then ended).
        """
        self._loop.run(self._core.configure(options), self.name)

    def is_ready(self) -> None:
        """Send ``isready`` and wait for ``readyok``.

        Raises:
            EngineError: when the engine failed or did not answer within
                :attr:`timeout` (it is then ended).
        """
        self._loop.run(self._core.is_ready(), self.name)

    def new_game(self, players: int, seat: int, rules: Rules | None = None) -> None:
        """Tell the engine a new game begins.

        :meth:`play` does it by itself when the game changes (other players or
        rules, or a turn no later than the last one it was asked about).

        Args:
            players: how many play, 2 to 4.
            seat: the seat the engine plays.
            rules: the rules; the published rules by default.
        """
        self._loop.run(self._core.new_game(players, seat, rules), self.name)

    def play(
        self,
        view: PlayerView,
        limit: Limit | None = None,
        *,
        actions: Sequence[Action] | None = None,
    ) -> PlayResult:
        """The engine's move in a position.

        Args:
            view: the view of the seat to move.
            limit: how long it may think; :attr:`limit` by default.
            actions: the actions to choose from; the legal actions of
                ``view`` by default.

        Returns:
            The move, its index, the info lines and the time taken.

        Raises:
            InvalidArgumentError: for a view that is not the mover's, or a
                bad limit or actions.
            EngineTimeoutError: when no best move came in the move's time
                plus :attr:`grace` (or the mover's clock plus the grace, or
                :attr:`timeout` without a time limit).
            EngineMoveError: for a best move that is none of the actions,
                or names more than one.
            EngineProtocolError: for a line that is not the protocol, or an
                ``error`` line instead of the best move.
            EngineCrashedError: when the process ended.

        After an :class:`~splendor.errors.EngineError`, the engine's
        process is killed and reaped, and every later call raises the same
        error.

        >>> import sys
        >>> from splendor import new_game, view
        >>> with open_engine([sys.executable, "-m", "splendor", "engine", "greedy"]) as engine:
        ...     result = engine.play(view(new_game(2, seed=1), 0), Limit(time=2.0))
        >>> result.action
        Take(gems=Tokens(white=1, green=1, black=1), returned=Tokens(), noble=None)
        """
        return self._loop.run(self._core.play(view, limit, actions=actions), self.name)

    def analyse(
        self,
        view: PlayerView,
        limit: Limit | None = None,
        *,
        actions: Sequence[Action] | None = None,
    ) -> Analysis:
        """What the engine thinks of a position: its best move and its info lines.

        The arguments and errors are those of :meth:`play`. For an engine
        that searches until stopped, give ``Limit(infinite=True, time=t)``:
        the host sends ``stop`` after ``t`` seconds.
        """
        return self._loop.run(self._core.analyse(view, limit, actions=actions), self.name)

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: object, /) -> Action:
        """The engine's move within :attr:`limit`: the bot protocol (``rng`` is not used)."""
        return self.play(view, self.limit, actions=actions).action

    def quit(self) -> None:
        """Ask the engine to exit; after :attr:`grace` seconds, kill its process group.

        The process is reaped before this returns. Closing twice does nothing.
        """
        if self._loop.loop.is_closed():
            return
        try:
            self._loop.run(self._core.quit(), self.name)
        finally:
            self._finalizer.detach()
            self._loop.stop()

    def close(self) -> None:
        """The same as :meth:`quit`."""
        self.quit()

    def __enter__(self) -> Engine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<Engine {self.name!r} pid={self.pid}>"


def open_engine(
    command: str | Sequence[str],
    *,
    options: Mapping[str, OptionValue] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    limit: Limit = DEFAULT_LIMIT,
    grace: float = GRACE,
    name: str | None = None,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Engine:
    """Start a bot engine, shake hands with it, and return it as a bot.

    Args:
        command: the command line: a str (split as a shell would, with
            ``shlex.split``, but run without a shell) or a sequence of
            arguments.
        options: options to set once it is ready (names as its ``hello``
            lists them).
        timeout: seconds it gets to answer the handshake and ``isready``,
            and a move with no time limit.
        limit: the limit of a move made as a bot (``engine(view, actions, rng)``).
        grace: seconds it gets beyond a move's time, and to exit after ``quit``.
        name: the name of the bot in game records; the engine's own by default.
        cwd: the directory to run it in; the current one by default.
        env: its environment; this process's by default.

    Returns:
        The engine, ready.

    Raises:
        InvalidArgumentError: for a bad argument, or an option the engine
            does not offer or refuses.
        EngineCrashedError: when the command cannot be started or the
            process ends during the handshake.
        EngineTimeoutError: when it does not answer within ``timeout``.
        EngineProtocolError: when it answers with something else than the protocol.

    >>> import sys
    >>> engine = open_engine([sys.executable, "-m", "splendor", "engine", "random"])
    >>> engine.id.name, sorted(engine.options)
    ('random', ['Seed'])
    >>> engine.close()
    """
    loop = _Loop()
    try:
        core = loop.run(
            open_engine_async(
                command,
                options=options,
                timeout=timeout,
                limit=limit,
                grace=grace,
                name=name,
                cwd=cwd,
                env=env,
            ),
            name or str(command),
        )
    except BaseException:
        loop.stop()
        raise
    return Engine(core, loop)
