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

The process (its lines and their bound, its standard error, its process
group) is one transport that :mod:`splendor.remote.usi` shares; the
protocol's logic runs over it, and over scripted exchanges in tests.

Every line sent and received is logged at the ``DEBUG`` level on the logger
``splendor.remote`` (``>`` to the engine, ``<`` from it); an engine's
``error`` lines are logged as warnings.

Only the mover's view and its legal actions cross to the engine: never a
hidden card, never the seed.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Final

from splendor.core.actions import Action
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.views import PlayerView
from splendor.errors import InvalidArgumentError
from splendor.remote import _transport
from splendor.remote._sbp import Analysis, AsyncEngine, EngineId, PlayResult, connect
from splendor.remote._transport import (
    LoopThread,
    ProcessTransport,
    Receiver,
    Transport,
    abandon,
    check_seconds,
    command_argv,
)
from splendor.remote.messages import Limit, Option, OptionValue

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
STDERR_TAIL: Final = _transport.STDERR_TAIL


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
        raise InvalidArgumentError(f"limit must be a Limit, got {short_repr(limit)}")
    if name is not None and (not isinstance(name, str) or not name):
        raise InvalidArgumentError(f"name must be a non-empty str or None, got {short_repr(name)}")

    async def process(receiver: Receiver) -> Transport:
        return await ProcessTransport.start(argv, receiver, cwd=cwd, env=env)

    return await connect(
        os.path.basename(argv[0]),
        process,
        timeout=timeout,
        grace=grace,
        limit=limit,
        name=name,
        options=options or {},
    )


class Engine:
    """A bot engine in another process, as a blocking bot: made by :func:`open_engine`.

    An engine is a bot: ``engine(view, actions, rng)`` returns its move
    within :attr:`limit` (the ``rng`` is not used: the engine has its own
    generator, seeded by its ``Seed`` option if it has one). ``with``
    closes it. Calls are made one at a time (from one thread, or with a
    lock): each waits for the answer of the one before.
    """

    def __init__(self, core: AsyncEngine, loop: LoopThread) -> None:
        self._core = core
        self._loop = loop
        self._finalizer = weakref.finalize(self, abandon, loop, core.pid, core.aclose)

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
            raise InvalidArgumentError(f"limit must be a Limit, got {short_repr(limit)}")
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
        self._loop.run(self._core.configure(options), self.name, GRACE)

    def is_ready(self) -> None:
        """Send ``isready`` and wait for ``readyok``.

        Raises:
            EngineError: when the engine failed or did not answer within
                :attr:`timeout` (it is then ended).
        """
        self._loop.run(self._core.is_ready(), self.name, GRACE)

    def new_game(self, players: int, seat: int, rules: Rules | None = None) -> None:
        """Tell the engine a new game begins.

        :meth:`play` does it by itself when the game changes (other players or
        rules, or a turn no later than the last one it was asked about).

        Args:
            players: how many play, 2 to 4.
            seat: the seat the engine plays.
            rules: the rules; the published rules by default.
        """
        self._loop.run(self._core.new_game(players, seat, rules), self.name, GRACE)

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
        return self._loop.run(self._core.play(view, limit, actions=actions), self.name, GRACE)

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
        return self._loop.run(self._core.analyse(view, limit, actions=actions), self.name, GRACE)

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: object, /) -> Action:
        """The engine's move within :attr:`limit`: the bot protocol (``rng`` is not used)."""
        return self.play(view, self.limit, actions=actions).action

    def quit(self) -> None:
        """Ask the engine to exit; after :attr:`grace` seconds, kill its process group.

        The process is reaped before this returns. Closing twice does nothing.
        """
        if self._loop.closed:
            return
        try:
            self._loop.run(self._core.quit(), self.name, GRACE)
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
    loop = LoopThread()
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
            GRACE,
        )
    except BaseException:
        loop.stop()
        raise
    return Engine(core, loop)
