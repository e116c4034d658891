"""The one process layer of the engine hosts: lines to and from an engine, bounded and killable.

:mod:`splendor.remote.host` (the bot protocol) and :mod:`splendor.remote.usi`
(csplendor's protocol) are protocol logic over a :class:`Transport`:

* :class:`ProcessTransport` starts an engine's command in a process group of
  its own, splits its standard output into lines of at most
  :data:`~splendor.remote.messages.MAX_LINE` bytes (the newline included),
  keeps the last :data:`STDERR_TAIL` bytes of its standard error, writes
  lines to its input, and kills and reaps its whole process group;
* :class:`MockTransport` plays scripted exchanges in memory (each line the
  host should write, and the lines the engine answers), so that a protocol
  is tested without a process.

A transport tells its :class:`Receiver` (the protocol) what the engine
does, on the event loop it was made on. :class:`LoopThread` runs such a
loop in a thread of its own for the blocking engines.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import contextlib
import os
import shlex
import signal
import subprocess
import threading
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Final, Protocol, TypeVar

from splendor.core.messages import short_repr
from splendor.errors import EngineCrashedError, InvalidArgumentError
from splendor.remote.messages import MAX_LINE

__all__ = [
    "STDERR_TAIL",
    "LoopThread",
    "MockTransport",
    "ProcessTransport",
    "Receiver",
    "Transport",
    "abandon",
    "check_seconds",
    "command_argv",
    "kill_group",
]

#: The bytes of an engine's standard error kept (the last ones).
STDERR_TAIL: Final = 65_536
# Seconds to wait for a killed process to be reaped.
_REAP: Final = 10.0

_T = TypeVar("_T")


def command_argv(command: str | Sequence[str]) -> list[str]:
    """The arguments of an engine's command: a str split as a shell would, or a sequence of str.

    Raises:
        InvalidArgumentError: for a str that cannot be split, something else
            than a str or a sequence of str, or an empty command.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise InvalidArgumentError(
                f"cannot read the command {short_repr(command)}: {error}"
            ) from None
    elif isinstance(command, Sequence) and all(isinstance(part, str) for part in command):
        argv = list(command)
    else:
        raise InvalidArgumentError(
            f"an engine's command is a str or a sequence of str, got {short_repr(command)}"
        )
    if not argv:
        raise InvalidArgumentError("an engine's command is empty")
    return argv


def check_seconds(what: str, value: object, *, below: float = float("inf")) -> float:
    """``value`` as a float when it is a number of seconds above 0 and below ``below``.

    Raises:
        InvalidArgumentError: for anything else (a bool included).
    """
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value < below:
        raise InvalidArgumentError(
            f"{what} must be a positive number of seconds, got {short_repr(value)}"
        )
    return float(value)


def kill_group(pid: int) -> None:
    """Kill every process of the group ``pid`` leads (it may be gone already)."""
    if pid <= 1:  # never started: -1 and 0 would mean other processes
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class Receiver(Protocol):
    """What a protocol hears from its transport, on the transport's event loop."""

    def line_received(self, line: bytes) -> None:
        """A line of the engine's output, its newline included (a blank line too)."""

    def line_too_long(self) -> None:
        """A line longer than the bound: nothing of the output is read after it."""

    def output_closed(self) -> None:
        """The engine closed its output."""

    def process_exited(self, code: int | None) -> None:
        """The engine's process ended, with this status (negative: the signal)."""


class _Lines:
    """Splits bytes into lines of at most :data:`MAX_LINE` bytes for a receiver."""

    def __init__(self, receiver: Receiver) -> None:
        self.receiver = receiver
        self.buffer = bytearray()
        self.scanned = 0
        self.reading = True

    def feed(self, data: bytes) -> None:
        if not self.reading:
            return
        buffer = self.buffer
        buffer += data
        while self.reading:
            end = buffer.find(b"\n", self.scanned)
            if end < 0:
                self.scanned = len(buffer)
                if len(buffer) >= MAX_LINE:
                    self.stop()
                return
            if end >= MAX_LINE:
                self.stop()
                return
            line = bytes(buffer[: end + 1])
            del buffer[: end + 1]
            self.scanned = 0
            self.receiver.line_received(line)

    def stop(self) -> None:
        self.reading = False
        self.buffer.clear()
        self.receiver.line_too_long()


class Transport(abc.ABC):
    """An engine's channel of lines, as a protocol sees it (every method on its loop)."""

    @property
    @abc.abstractmethod
    def pid(self) -> int:
        """The engine's process id (the leader of its process group), or 0 for none."""

    @property
    @abc.abstractmethod
    def returncode(self) -> int | None:
        """The exit status once the engine has ended (negative: the signal), else ``None``."""

    @property
    @abc.abstractmethod
    def stderr_tail(self) -> str:
        """The last :data:`STDERR_TAIL` bytes of the engine's standard error, as text."""

    @abc.abstractmethod
    def write(self, line: bytes) -> None:
        """Send one line (its newline included) to the engine."""

    @abc.abstractmethod
    def kill(self) -> None:
        """Kill the engine now, if it still runs (:meth:`close` reaps it)."""

    @abc.abstractmethod
    def pause_reading(self) -> None:
        """Read no more of the engine's output until :meth:`resume_reading`."""

    @abc.abstractmethod
    def resume_reading(self) -> None:
        """Read the engine's output again."""

    @abc.abstractmethod
    async def wait(self, seconds: float) -> None:
        """Wait at most ``seconds`` for the engine to end."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Kill the engine if it still runs, wait until it is reaped, and close the pipes."""


class _Pipes(asyncio.SubprocessProtocol):
    """Hands what the process does to its transport."""

    def __init__(self, transport: ProcessTransport) -> None:
        self.transport = transport

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            self.transport._lines.feed(data)
        elif fd == 2:
            self.transport._stderr(data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.transport._lines.receiver.output_closed()

    def process_exited(self) -> None:
        self.transport._exited()


class ProcessTransport(Transport):
    """An engine's process: made by :meth:`start`, in a process group of its own.

    Whatever the engine started is killed with it when it ends, when it is
    closed, and when the transport is garbage-collected (or the interpreter
    exits) while it runs.
    """

    def __init__(self, receiver: Receiver, exit_: asyncio.Future[int]) -> None:
        self._lines = _Lines(receiver)
        self._exit = exit_
        self._errbuf = bytearray()
        self._pipes: asyncio.SubprocessTransport | None = None
        self._pid = -1
        self._finalizer: weakref.finalize[[int], ProcessTransport] | None = None

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        receiver: Receiver,
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> ProcessTransport:
        """Start the command ``argv``, its output told to ``receiver``.

        Raises:
            EngineCrashedError: when the command cannot be started.
        """
        loop = asyncio.get_running_loop()
        transport = cls(receiver, loop.create_future())
        try:
            pipes, _ = await loop.subprocess_exec(
                lambda: _Pipes(transport),
                *argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=None if env is None else dict(env),
                start_new_session=True,
            )
        except OSError as error:
            transport._exit.set_result(-1)
            raise EngineCrashedError(
                f"cannot start engine {short_repr(argv[0])}: {error.strerror or error}"
            ) from None
        transport._pipes = pipes
        transport._pid = pipes.get_pid()
        transport._finalizer = weakref.finalize(transport, kill_group, transport._pid)
        return transport

    def _stderr(self, data: bytes) -> None:
        errbuf = self._errbuf
        errbuf += data
        if len(errbuf) > 2 * STDERR_TAIL:
            del errbuf[:-STDERR_TAIL]

    def _exited(self) -> None:
        assert self._pipes is not None
        code = self._pipes.get_returncode()
        kill_group(self._pid)  # whatever it started goes with it
        if not self._exit.done():
            self._exit.set_result(-1 if code is None else code)
        if self._finalizer is not None:
            self._finalizer.detach()
        self._lines.receiver.process_exited(code)

    @property
    def pid(self) -> int:
        """The engine's process id (the leader of its process group)."""
        return self._pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: the signal), else ``None``."""
        return self._exit.result() if self._exit.done() else None

    @property
    def stderr_tail(self) -> str:
        """The last :data:`STDERR_TAIL` bytes of the engine's standard error, as text."""
        return bytes(self._errbuf[-STDERR_TAIL:]).decode("utf-8", "replace")

    def write(self, line: bytes) -> None:
        """Write ``line`` to the engine's input (dropped once the pipe is closed)."""
        assert self._pipes is not None
        pipe = self._pipes.get_pipe_transport(0)
        assert isinstance(pipe, asyncio.WriteTransport)
        pipe.write(line)

    def kill(self) -> None:
        """Kill the engine's process group now, if the engine still runs."""
        if not self._exit.done():
            kill_group(self._pid)

    def _output(self) -> asyncio.ReadTransport | None:
        pipe = None if self._pipes is None else self._pipes.get_pipe_transport(1)
        return pipe if isinstance(pipe, asyncio.ReadTransport) else None

    def pause_reading(self) -> None:
        """Read no more of the engine's output until :meth:`resume_reading`."""
        pipe = self._output()
        if pipe is not None and pipe.is_reading():
            pipe.pause_reading()

    def resume_reading(self) -> None:
        """Read the engine's output again."""
        pipe = self._output()
        if pipe is not None and not pipe.is_reading():
            pipe.resume_reading()

    async def wait(self, seconds: float) -> None:
        """Wait at most ``seconds`` for the process to end."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await asyncio.shield(self._exit)

    async def close(self) -> None:
        """Kill the process group, wait for the process to be reaped, close the pipes."""
        if not self._exit.done():
            kill_group(self._pid)
            await self.wait(_REAP)
        if self._pipes is not None:
            self._pipes.close()


class MockTransport(Transport):
    """Scripted exchanges in memory in place of an engine's process, for tests of a protocol.

    Each :meth:`expect` names a line the host must write next and the lines
    the engine answers to it (read as a process's output would be, with the
    same bound on a line); a line the host writes that is not the one
    expected raises :class:`AssertionError`. :meth:`assert_done` checks that
    every expected line came.
    """

    def __init__(self, receiver: Receiver) -> None:
        self._lines = _Lines(receiver)
        self._expected: collections.deque[tuple[bytes, tuple[bytes, ...], int | None]] = (
            collections.deque()
        )
        self._code: int | None = None
        self._ended = asyncio.Event()
        #: Every line the host wrote, in order, newlines included.
        self.written: list[bytes] = []
        #: Plays the part of the engine's standard error.
        self.stderr = ""

    def expect(
        self, line: str | bytes, answers: Iterable[str | bytes] = (), *, exit: int | None = None
    ) -> None:
        """Expect ``line`` next (without its newline), answer ``answers``, then exit with ``exit``.

        A str answer is one line (its newline is added); bytes are written as
        they are, so that a test can send part of a line or a line too long.
        """
        wanted = line.encode() if isinstance(line, str) else line
        lines = tuple(a.encode() + b"\n" if isinstance(a, str) else a for a in answers)
        self._expected.append((wanted, lines, exit))

    def send(self, *answers: str | bytes) -> None:
        """Have the engine write ``answers`` now, unasked (str lines as in :meth:`expect`)."""
        for answer in answers:
            self._lines.feed(answer.encode() + b"\n" if isinstance(answer, str) else answer)

    def exit(self, code: int) -> None:
        """Have the engine close its output and end with ``code``."""
        if self._code is not None:
            return
        self._code = code
        self._ended.set()
        self._lines.receiver.output_closed()
        self._lines.receiver.process_exited(code)

    def assert_done(self) -> None:
        """Raise :class:`AssertionError` when an expected line has not come."""
        if self._expected:
            missing = [line.decode(errors="replace") for line, _, _ in self._expected]
            raise AssertionError(f"the host never wrote {missing}")

    @property
    def pid(self) -> int:
        """0: there is no process."""
        return 0

    @property
    def returncode(self) -> int | None:
        """The code given to :meth:`exit`, or ``None`` before it."""
        return self._code

    @property
    def stderr_tail(self) -> str:
        """The last :data:`STDERR_TAIL` characters of :attr:`stderr`."""
        return self.stderr[-STDERR_TAIL:]

    def write(self, line: bytes) -> None:
        """Check ``line`` against the next expected one and answer it (on the loop's next turn).

        Raises:
            AssertionError: for a line that is not the one expected.
        """
        if self._code is not None:
            return  # the engine is gone: the line is lost, as in a closed pipe
        self.written.append(line)
        got = line.rstrip(b"\n")
        if not self._expected:
            raise AssertionError(f"the host wrote {got!r}, and no line was expected")
        wanted, answers, code = self._expected.popleft()
        if got != wanted:
            raise AssertionError(f"the host wrote {got!r}, not the expected {wanted!r}")
        asyncio.get_running_loop().call_soon(self._answer, answers, code)

    def _answer(self, answers: tuple[bytes, ...], code: int | None) -> None:
        self.send(*answers)
        if code is not None:
            self.exit(code)

    def kill(self) -> None:
        """End the engine as a kill would (status -9)."""
        self.exit(-signal.SIGKILL)

    def pause_reading(self) -> None:
        """Nothing to pause: the answers are in memory."""

    def resume_reading(self) -> None:
        """Nothing to resume: the answers are in memory."""

    async def wait(self, seconds: float) -> None:
        """Wait at most ``seconds`` for :meth:`exit`."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._ended.wait()

    async def close(self) -> None:
        """End the engine (as a kill) if it has not ended."""
        self.kill()


class LoopThread:
    """An event loop running in a daemon thread of its own, for one blocking engine."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="splendor-engine", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    @property
    def closed(self) -> bool:
        """Whether the loop is stopped and closed."""
        return self.loop.is_closed()

    def run(self, coroutine: Coroutine[object, object, _T], name: str, grace: float) -> _T:
        """Run ``coroutine`` on the loop and wait for it; ``name`` names the engine in errors.

        When the wait is interrupted (an interrupt, say), the coroutine is
        cancelled and given ``grace`` seconds to end.

        Raises:
            EngineCrashedError: when the loop is closed (the engine is).
        """
        if self.loop.is_closed():
            coroutine.close()
            raise EngineCrashedError(f"engine {short_repr(name)} is closed")
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result()
        except BaseException:  # an interrupt, say: the work is given up
            if not future.done():
                future.cancel()
                with contextlib.suppress(BaseException):
                    future.result(timeout=grace)
            raise

    def stop(self) -> None:
        """Stop the loop; from another thread, wait for it and close it."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        if threading.current_thread() is not self.thread:
            self.thread.join()
            self.loop.close()


def abandon(loop: LoopThread, pid: int, close: Callable[[], Awaitable[None]]) -> None:
    """End an engine nobody closed: kill its group ``pid`` now, await ``close()``, stop its loop."""
    kill_group(pid)

    async def shut() -> None:
        try:
            await close()
        finally:
            loop.loop.stop()

    with contextlib.suppress(RuntimeError):  # the loop is closed already
        loop.loop.call_soon_threadsafe(lambda: loop.loop.create_task(shut()))
