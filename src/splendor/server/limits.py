"""The server's limits and timeouts, in one frozen value with the defaults of ``splendor serve``.

Each field bounds one resource a client could otherwise use without end;
docs/server.md has the table of what each guarantees. The module needs
nothing beyond the library, so the command line can build a :class:`Limits`
before the ``[server]`` extra is imported.

>>> Limits().max_moves
1000
>>> Limits(max_bot_tables=2).max_bot_tables
2
"""

from __future__ import annotations

import logging
import time
from typing import Final

import attrs

from splendor.errors import InvalidArgumentError
from splendor.players.bots import DEFAULT_MAX_TURNS

__all__ = ["DEFAULT_LIMITS", "LOG_INTERVAL", "Limits", "RateLimitFilter", "throttle"]


def _positive(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if type(value) not in (int, float) or not value > 0:
        raise InvalidArgumentError(f"{attribute.name} must be a positive number, got {value!r}")


def _count(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 0:
        raise InvalidArgumentError(f"{attribute.name} must be a non-negative int, got {value!r}")


def _at_least_one(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 1:
        raise InvalidArgumentError(f"{attribute.name} must be an int of at least 1, got {value!r}")


@attrs.frozen(kw_only=True)
class Limits:
    """What one server process allows, and for how long it waits.

    Attributes:
        max_moves: the moves a game may last. A game the rules have not ended
            by then stops with no winner (house rules such as a token limit
            of 0 make games that never end); the default is the
            ``max_turns`` of :func:`splendor.players.bots.play_game`.
        max_bot_tables: unfinished tables with no person's seat at once; 0
            (the default) refuses them.
        max_tables: unfinished tables in the store at once, over all clients.
        tables_per_client: tables one client address may open in an hour.
        expire_after: seconds an unfinished table may go with no move and no
            client before it is deleted.
        unload_after: seconds a table with no client and no bot at work stays
            in memory; it is loaded again from the store when asked for.
        max_connections: open HTTP requests and websockets at once.
        max_connections_per_client: the same, from one client address.
        header_timeout: seconds a connection has to send the headers of a
            request (after it opens, or after the previous response).
        body_timeout: seconds a request has to send its body.
        hello_timeout: seconds a websocket has to say ``join`` or ``watch``,
            counted once from its opening, however many messages it sends.
        idle_timeout: seconds a websocket may go with no message either way
            before it is closed.
        keep_alive_timeout: seconds an idle HTTP connection is kept open
            between requests (uvicorn's ``timeout_keep_alive``).
        shutdown_timeout: seconds the server waits for connections to close
            when it stops (uvicorn's ``timeout_graceful_shutdown``).
        sync_interval: seconds between two looks at the store for moves that
            another server process made on the tables this one has loaded.
        engine_time: seconds an operator's bot engine has for each move
            (its process is ended if it takes longer, and its seat
            forfeits the game).
        max_engine_tables: unfinished tables with an operator's engine at
            one of their seats, at once (each engine seat is a process).
    """

    max_moves: int = attrs.field(default=DEFAULT_MAX_TURNS, validator=_at_least_one)
    max_bot_tables: int = attrs.field(default=0, validator=_count)
    max_tables: int = attrs.field(default=10_000, validator=_at_least_one)
    tables_per_client: int = attrs.field(default=30, validator=_at_least_one)
    expire_after: float = attrs.field(default=48 * 3600.0, validator=_positive)
    unload_after: float = attrs.field(default=600.0, validator=_positive)
    max_connections: int = attrs.field(default=1000, validator=_at_least_one)
    max_connections_per_client: int = attrs.field(default=64, validator=_at_least_one)
    header_timeout: float = attrs.field(default=10.0, validator=_positive)
    body_timeout: float = attrs.field(default=10.0, validator=_positive)
    hello_timeout: float = attrs.field(default=30.0, validator=_positive)
    idle_timeout: float = attrs.field(default=3600.0, validator=_positive)
    keep_alive_timeout: int = attrs.field(default=5, validator=_at_least_one)
    shutdown_timeout: int = attrs.field(default=10, validator=_at_least_one)
    sync_interval: float = attrs.field(default=1.0, validator=_positive)
    engine_time: float = attrs.field(default=5.0, validator=_positive)
    max_engine_tables: int = attrs.field(default=4, validator=_count)


#: The limits of ``splendor serve`` when no option changes them.
DEFAULT_LIMITS: Final = Limits()


#: Seconds over which :class:`RateLimitFilter` lets one record of a kind through.
LOG_INTERVAL: Final = 10.0


class RateLimitFilter(logging.Filter):
    """A log filter that lets one record of each kind through per interval, then counts.

    A kind is a logger and a message template (the text before its ``%``
    arguments are filled in). The first record of a kind in an interval
    passes; the others are held back and counted, and the next one to pass
    says how many were. So a flood of failed accepts or refused connections
    writes one line every :data:`LOG_INTERVAL` seconds, not one each.

    >>> flood = RateLimitFilter(interval=60)
    >>> record = logging.LogRecord("x", logging.WARNING, "", 0, "refused %s", ("a",), None)
    >>> [flood.filter(record) for _ in range(3)]
    [True, False, False]
    """

    def __init__(self, interval: float = LOG_INTERVAL) -> None:
        """A filter with one record of a kind per ``interval`` seconds."""
        super().__init__()
        self.interval = interval
        self._kinds: dict[tuple[str, str], list[float]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is written; the one written after held-back ones counts them."""
        kind = (record.name, str(record.msg))
        now = time.monotonic()
        seen = self._kinds.get(kind)
        if seen is not None and now - seen[0] < self.interval:
            seen[1] += 1
            return False
        held, since = (0, 0.0) if seen is None else (int(seen[1]), now - seen[0])
        if len(self._kinds) > 10_000:  # message templates are few; this bounds odd loggers
            self._kinds.clear()
        self._kinds[kind] = [now, 0]
        if held:
            record.msg = f"{record.msg} [{held} more like this in the last {since:.0f} s]"
        return True


def throttle(*names: str, interval: float = LOG_INTERVAL) -> None:
    """Add one :class:`RateLimitFilter` to each of these loggers (once, however often called)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RateLimitFilter) for f in logger.filters):
            logger.addFilter(RateLimitFilter(interval))
