"""Room for one more table: the server's limits on opening tables, and who opened how many.

:class:`Admission` refuses a new table when the server plays as many tables
as it may (in all, without a person's seat, with an operator's engine), and
a client that opened its tables for the hour
(:class:`~splendor.server.limits.Limits`).
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from splendor.server.limits import Limits
from splendor.server.protocol import ServerError
from splendor.server.seating import Seat, is_engine_seat
from splendor.server.table import Table

__all__ = ["CREATION_WINDOW", "Admission"]

#: Tables one client may open within this many seconds (see ``Limits.tables_per_client``).
CREATION_WINDOW: Final = 3600.0


class Admission:
    """The limits on opening tables, and the tables each client opened within the window.

    Args:
        limits: the server's limits.
        engines: the operator's engines, by name (a seat that names one is an engine's).
    """

    def __init__(self, limits: Limits, engines: Mapping[str, str]) -> None:
        """Limits with no table opened yet."""
        self.limits = limits
        self.engines = engines
        self._created: dict[str, collections.deque[float]] = {}

    def check(
        self,
        seats: Sequence[Seat],
        client: str | None,
        count: Callable[..., int],
        tables: Iterable[Table],
    ) -> None:
        """Refuse a table of ``seats`` that the limits leave no room for.

        Args:
            seats: the new table's seats.
            client: the address of the client asking (``None``: not counted).
            count: the number of unfinished stored tables; with
                ``bots_only=True``, of those with no person's seat.
            tables: the tables in memory (for the tables with an engine).

        Raises:
            ServerError: ``no_bot_tables`` for a table with no person's seat
                where the server allows none; ``too_many_tables`` when the
                server holds as many unfinished tables (of the kind) as it
                may; ``rate_limited`` when ``client`` opened its tables for
                the hour.
        """
        limits = self.limits
        if any(is_engine_seat(seat, self.engines) for seat in seats):
            playing = sum(
                not other.is_over and any(is_engine_seat(s, self.engines) for s in other.seats)
                for other in tables
            )
            if playing >= limits.max_engine_tables:
                raise ServerError(
                    "too_many_tables",
                    f"this server plays at most {limits.max_engine_tables} table(s) "
                    "with an engine at once",
                )
        if all(seat.kind == "bot" for seat in seats):
            if limits.max_bot_tables == 0:
                raise ServerError(
                    "no_bot_tables",
                    "this server opens no table without a person's seat"
                    " (it allows them when started with --max-bot-tables)",
                )
            if count(bots_only=True) >= limits.max_bot_tables:
                raise ServerError(
                    "too_many_tables",
                    f"this server plays at most {limits.max_bot_tables} table(s) of bots at once",
                )
        if client is not None:
            recent = self._created.get(client)
            if recent is not None:
                _forget_before(recent, time.monotonic() - CREATION_WINDOW)
                if len(recent) >= limits.tables_per_client:
                    raise ServerError(
                        "rate_limited",
                        f"a client may open {limits.tables_per_client} tables an hour",
                    )
        if count() >= limits.max_tables:
            raise ServerError(
                "too_many_tables", "this server has as many tables open as it may; try later"
            )

    def opened(self, client: str | None) -> None:
        """Count a table that ``client`` opened now (``None``: not counted)."""
        if client is not None:
            self._created.setdefault(client, collections.deque()).append(time.monotonic())

    def forget(self, now: float) -> None:
        """Forget the tables opened before the window that ends at ``now`` (monotonic seconds)."""
        for client, recent in list(self._created.items()):
            _forget_before(recent, now - CREATION_WINDOW)
            if not recent:
                del self._created[client]


def _forget_before(times: collections.deque[float], moment: float) -> None:
    while times and times[0] < moment:
        times.popleft()
