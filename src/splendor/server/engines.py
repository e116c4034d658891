"""The bots a server seats: which names a seat may choose, the operator's engines, a table's bots.

A seat names a bot, never a command: one of the built-in bots
(:data:`splendor.players.bots.BOTS`), a level (:data:`LEVEL_BOTS`) or an
engine the operator configured (:func:`check_engines`). A table's bots
(:class:`TableBots`) are made when first asked for a move, asked through
:func:`splendor.players.seats.ask_bot` and closed through
:func:`splendor.players.seats.close_bot`: a bot that fails is closed at once,
and its failure is the seat's (:class:`~splendor.players.seats.BotFailedError`).
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final

from splendor.core.actions import Action
from splendor.core.state import GameState
from splendor.errors import InvalidArgumentError
from splendor.players.bots import BOTS, Bot, load_bot
from splendor.players.levels import LEVEL_PREFIX, LEVELS
from splendor.players.seats import Answer, BotFailedError, ask_bot, close_bot

__all__ = ["LEVEL_BOTS", "TableBots", "bot_choices", "check_engines", "is_offered"]

#: What the name of an operator's engine may be: letters, digits, ``.``, ``_`` and ``-``.
_ENGINE_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,23}")

#: The levels a seat may name (``"level:3"``), each with the name a seat gets by default.
LEVEL_BOTS: Final[Mapping[str, str]] = MappingProxyType(
    {f"{LEVEL_PREFIX}{level.number}": f"Level {level.number} bot" for level in LEVELS}
)


def check_engines(engines: Mapping[str, str]) -> dict[str, str]:
    """Check the operator's engines: names of their own, each with a bot spec.

    Args:
        engines: the bot spec (``engine:COMMAND``, or any other spec) of
            each engine, by the name the lobby offers it under.

    Returns:
        The engines, as a new dict.

    Raises:
        InvalidArgumentError: for a name that is not 1 to 24 letters,
            digits, ``.``, ``_`` or ``-`` (starting with a letter or digit),
            or is a built-in bot's, or a spec that is not a non-empty str.

    >>> check_engines({"mybot": "engine:./mybot --fast"})
    {'mybot': 'engine:./mybot --fast'}
    >>> check_engines({"greedy": "engine:./greedy"})
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: engine name 'greedy' is a built-in bot's
    """
    if not isinstance(engines, Mapping):
        raise InvalidArgumentError(f"engines must be a mapping of names to specs, got {engines!r}")
    checked: dict[str, str] = {}
    for name, spec in engines.items():
        if not isinstance(name, str) or not _ENGINE_NAME.fullmatch(name):
            raise InvalidArgumentError(
                f"engine name {name!r} must be 1 to 24 letters, digits, '.', '_' or '-'"
            )
        if name in BOTS:
            raise InvalidArgumentError(f"engine name {name!r} is a built-in bot's")
        if not isinstance(spec, str) or not spec.strip():
            raise InvalidArgumentError(f"engine {name!r} needs a bot spec, got {spec!r}")
        checked[name] = spec
    return checked


def is_offered(name: object, engines: Mapping[str, str]) -> bool:
    """Whether a seat may name the bot ``name``: a built-in bot, a level or one of ``engines``."""
    return isinstance(name, str) and (name in BOTS or name in engines or name in LEVEL_BOTS)


def bot_choices(engines: Mapping[str, str]) -> str:
    """The bots a seat may name, in words: the built-in bots and ``engines``, then the levels."""
    return (
        f"{', '.join(sorted({*BOTS, *engines}))} or {LEVEL_PREFIX}1 to {LEVEL_PREFIX}{len(LEVELS)}"
    )


def _start(name: str, engines: Mapping[str, str], engine_time: float) -> Bot:
    """Make the bot ``name``; an operator's engine is started, with ``engine_time`` seconds a move.

    The host side of the protocol ends an engine that goes over its time
    (after its grace) and raises; any other spec is an in-process bot,
    which cannot be stopped while it thinks.

    Raises:
        InvalidArgumentError: for a name that is not (any more) offered.
        splendor.errors.SplendorError: when the engine does not start.
    """
    if name in BOTS:
        return BOTS[name]()
    if name in LEVEL_BOTS:
        return load_bot(name)
    if name not in engines:
        raise InvalidArgumentError(f"this server has no bot {name!r}")
    from splendor.remote import Engine, Limit

    bot = load_bot(engines[name])
    if isinstance(bot, Engine):
        bot.limit = Limit(time=engine_time)
    return bot


class TableBots:
    """The bots of one table's bot seats, each made when first asked for a move.

    An engine answers one call at a time: its seat's bot is made, asked and
    closed under one lock, so call these methods in a worker thread.

    Args:
        names: the name of the bot of each seat (``None`` for a person's seat).
        engines: the operator's engines by name (their bot specs).
        engine_time: the seconds an engine has for a move.
    """

    def __init__(
        self, names: Sequence[str | None], engines: Mapping[str, str], engine_time: float
    ) -> None:
        """The bots of seats named ``names``, none made yet."""
        self._names = tuple(names)
        self._engines = engines
        self._engine_time = engine_time
        self._bots: dict[int, Bot] = {}
        self._lock = threading.Lock()

    def ask(
        self, seat: int, state: GameState, actions: Sequence[Action], rng: random.Random
    ) -> Answer:
        """The move of the bot of ``seat`` (the seat to move in ``state``), made now if need be.

        Raises:
            BotFailedError: when the bot cannot be made (an engine that does
                not start, a bot the server no longer offers) or fails to
                answer (:func:`~splendor.players.seats.ask_bot`); a bot that
                failed has been closed.
            InvalidArgumentError: for a person's seat.
        """
        name = self._names[seat]
        if name is None:
            raise InvalidArgumentError(f"seat {seat + 1} is a person's")
        with self._lock:
            bot = self._bots.get(seat)
            if bot is None:
                try:
                    bot = _start(name, self._engines, self._engine_time)
                except Exception as error:  # the seat's bot failed before its first move
                    raise BotFailedError.of(seat, name, error) from error
                self._bots[seat] = bot
            try:
                return ask_bot(bot, state, actions, rng, name=name)
            except BotFailedError:
                del self._bots[seat]
                close_bot(bot)
                raise

    def close(self) -> None:
        """Close every bot made (each engine's process ends); a move being chosen ends first.

        A bot whose ``close`` fails is reported
        (:func:`~splendor.players.seats.close_bot`) and the others are closed all the same.
        """
        with self._lock:
            bots, self._bots = list(self._bots.values()), {}
            for bot in bots:
                close_bot(bot)
