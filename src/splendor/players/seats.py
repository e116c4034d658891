"""A bot in a seat: asking it for its move and closing it, under one policy for a bot that fails.

**A bot that fails.** Asked for its move, a bot fails when it raises an
exception (a bot engine in another process raises an
:class:`~splendor.errors.EngineError` when it crashes, breaks the protocol,
runs out of time or names no listed action), answers something that is not
an action, or answers an action the rules forbid. :func:`ask_bot` turns each
of these into one :class:`BotFailedError` saying which seat failed, why
(:attr:`~BotFailedError.reason`, one of
:data:`~splendor.formats.record.FORFEIT_REASONS`) and what happened
(:attr:`~BotFailedError.detail`); the bot's own exception is its
``__cause__``. A failing bot's move is never replaced by another one. Every
player of games acts on the error the same way for its kind of game:
:func:`splendor.play_game` raises it, and the referee
(:func:`splendor.arena.referee.referee_game`) and the game server record the
seat's forfeit (:meth:`BotFailedError.forfeit`).

**Closing a bot.** A bot that holds a resource (a bot engine's process) has
a ``close`` method, and whoever made the bot closes it with
:func:`close_bot`. A ``close`` that fails is reported, never dropped: the
error is logged with its traceback on the ``splendor.players`` logger and
returned, so that a caller that must know (a check that a bot spec starts
and ends) raises it. :func:`close_bot` itself does not raise it: it runs in
``finally`` blocks and after failures, where raising would hide the error
that got there, and the bot is given up either way.

>>> from splendor import GreedyBot, new_game, legal_actions
>>> import random
>>> state = new_game(2, seed=1)
>>> answer = ask_bot(GreedyBot(), state, legal_actions(state), random.Random(0))
>>> answer.action in legal_actions(state)
True
>>> def crashes(view, actions, rng):
...     raise RuntimeError("out of memory")
>>> try:
...     ask_bot(crashes, state, legal_actions(state), random.Random(0), name="crashes")
... except BotFailedError as error:
...     print(error.seat, error.reason, error.detail)
0 crash RuntimeError: out of memory
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from splendor.core.actions import Action
from splendor.core.messages import short_repr
from splendor.core.play import apply
from splendor.core.state import GameState
from splendor.core.views import view
from splendor.errors import EngineError, InvalidArgumentError, SplendorError
from splendor.formats.record import Forfeit
from splendor.players.protocol import ACTION_TYPES, Bot

if TYPE_CHECKING:
    from splendor.remote.host import Engine
    from splendor.remote.messages import Limit

__all__ = ["MAX_DETAIL", "Answer", "BotFailedError", "ask_bot", "close_bot"]

#: The longest :attr:`BotFailedError.detail`, in characters (longer texts are cut).
MAX_DETAIL: Final = 300
#: The longest text of a bot's answer quoted in a detail.
_ANSWER: Final = 80

_log = logging.getLogger("splendor.players")


class BotFailedError(SplendorError, RuntimeError):
    """A bot failed when asked for its move: it raised, or its answer is no legal action.

    Raised by :func:`ask_bot`, and so by :func:`splendor.play_game`; the
    referee and the game server record it as the seat's forfeit. The bot's
    own exception, if it raised one, is the ``__cause__``.

    Attributes:
        seat: the seat of the bot.
        name: the bot's name, as the message shows it.
        reason: the fault's name, one of
            :data:`~splendor.formats.record.FORFEIT_REASONS`: ``"crash"``
            (it raised), ``"illegal-move"`` (its answer is no legal action),
            ``"timeout"`` or ``"protocol"`` (an engine's
            :attr:`~splendor.errors.EngineError.reason`).
        detail: what happened, for people (at most :data:`MAX_DETAIL`
            characters).
    """

    def __init__(self, seat: int, name: str, reason: str, detail: str) -> None:
        """Make the error of the bot ``name`` at ``seat``."""
        super().__init__(f"the bot at seat {seat} ({name}) failed ({reason}): {detail}")
        self.seat = seat
        self.name = name
        self.reason = reason
        self.detail = detail

    def __reduce__(self) -> tuple[type[BotFailedError], tuple[int, str, str, str]]:
        """Pickle the error by its fields, so that it crosses a process pool."""
        return (type(self), (self.seat, self.name, self.reason, self.detail))

    @classmethod
    def of(cls, seat: int, name: str, error: Exception) -> BotFailedError:
        """The failure of a bot that raised ``error`` (made, asked or started).

        Its reason is ``"crash"``, or an engine's own
        :attr:`~splendor.errors.EngineError.reason`; its detail is the
        error's type and message.
        """
        reason = error.reason if isinstance(error, EngineError) else "crash"
        return cls(
            seat,
            name,
            reason,
            _cut(f"{type(error).__name__}: {short_repr(error, MAX_DETAIL, write=str)}", MAX_DETAIL),
        )

    def forfeit(self) -> Forfeit:
        """The seat's :class:`~splendor.formats.record.Forfeit`, as a game record keeps it."""
        return Forfeit(self.seat, self.reason, self.detail)


@attrs.frozen
class Answer:
    """A bot's move, checked: a legal action and the time it took.

    Attributes:
        action: the action, legal in the state the bot was asked in.
        seconds: the time the bot took: the engine host's measure for a bot
            engine asked with a limit, the wall clock's otherwise.
    """

    action: Action
    seconds: float


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def ask_bot(
    bot: Bot,
    state: GameState,
    actions: Sequence[Action],
    rng: random.Random,
    *,
    name: str = "bot",
    limit: Limit | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Answer:
    """Ask the bot of the seat to move for its move, and check the answer.

    The bot gets the view of the seat to move, ``actions`` and ``rng``. Its
    answer must be an action the rules allow in ``state``: one of
    ``actions``, or another form of a legal action (as
    :func:`splendor.is_legal` accepts).

    Args:
        bot: the bot of the seat to move.
        state: the game's state; the bot sees only its seat's view of it.
        actions: the legal actions of that seat (:func:`splendor.legal_actions`).
        rng: the bot's generator.
        name: the bot's name in a failure's message.
        limit: for a bot engine in another process
            (:class:`~splendor.remote.Engine`), the limit of this move: the
            engine plays through :meth:`~splendor.remote.Engine.play`, and
            its own measure of the move's time is the answer's. ``None``:
            the bot is called as any bot is.
        clock: the clock that times a bot called in this process.

    Returns:
        The action and the time the bot took.

    Raises:
        BotFailedError: when the bot raises an exception (``"crash"``, or an
            engine's :attr:`~splendor.errors.EngineError.reason`) or answers
            something that is not a legal action (``"illegal-move"``).
        InvalidArgumentError: for a ``limit`` given to a bot that is not an
            engine.
    """
    seat = state.current_player
    seen = view(state, seat)
    engine = None if limit is None else _engine(bot)
    try:
        if engine is None or limit is None:
            started = clock()
            action = bot(seen, actions, rng)
            seconds = clock() - started
        else:
            played = engine.play(seen, limit, actions=actions)
            action, seconds = played.action, played.time
    except Exception as error:  # any failure of a bot's own code is the bot's failure
        raise BotFailedError.of(seat, name, error) from error
    if type(action) not in ACTION_TYPES:
        raise BotFailedError(
            seat,
            name,
            "illegal-move",
            _cut(f"{name} returned {short_repr(action, _ANSWER)}, not an action", MAX_DETAIL),
        )
    if action not in actions:  # another form of a legal action passes the rules' check
        try:
            apply(state, action)
        except SplendorError as error:  # the rules' refusal, or a card not of this game
            kind = type(error).__name__
            text = f"{kind}: turn {state.turn + 1} (player {seat}, {action}): {error}"
            raise BotFailedError(seat, name, "illegal-move", _cut(text, MAX_DETAIL)) from error
    return Answer(action, seconds)


def _engine(bot: object) -> Engine:
    from splendor.remote.host import Engine

    if not isinstance(bot, Engine):
        raise InvalidArgumentError(f"a limit is for a bot engine, not {type(bot).__name__}")
    return bot


def close_bot(bot: object) -> Exception | None:
    """Close a bot that holds a resource (an engine's process): call its ``close``, if it has one.

    Args:
        bot: any bot; one without a ``close`` method is left alone.

    Returns:
        ``None`` when the bot closed (or has nothing to close), else the
        exception its ``close`` raised, which has been logged with its
        traceback on the ``splendor.players`` logger. The bot is given up
        either way.

    >>> class Holds:
    ...     def __call__(self, view, actions, rng):
    ...         return actions[0]
    ...     def close(self):
    ...         raise OSError("the pipe is gone")
    >>> close_bot(Holds())
    OSError('the pipe is gone')
    """
    close = getattr(bot, "close", None)
    if not callable(close):
        return None
    try:
        close()
    except Exception as error:  # reported here and returned: see the module's policy
        _log.exception("closing the bot %s failed", short_repr(bot, _ANSWER))
        return error
    return None
