"""The server's game logic, apart from any web framework: the hub of its tables.

A :class:`Hub` holds the tables being played (:mod:`splendor.server.table`),
opens them from checked requests (:mod:`splendor.server.seating`) within the
server's limits, attaches clients, plays their moves and lets the bots of
the bot seats move (:mod:`splendor.server.engines`). Every move is stored
before it is played, and a bot that fails forfeits its seat
(:mod:`splendor.players.seats`).

The web layer (:mod:`splendor.server.app`) only moves text between sockets
and :meth:`Hub.handle`; everything a game server must get right lives here
and in the modules it names.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Mapping
from typing import Final

from splendor.core.actions import Action
from splendor.core.legal import legal_actions
from splendor.core.views import view
from splendor.errors import SplendorError
from splendor.formats.record import Forfeit, GameRecord
from splendor.players.seats import BotFailedError
from splendor.server.admission import Admission
from splendor.server.engines import check_engines
from splendor.server.limits import DEFAULT_LIMITS, Limits
from splendor.server.protocol import (
    MAX_MESSAGE,
    ServerError,
    action_json,
    error_message,
    read_move,
)
from splendor.server.seating import read_request
from splendor.server.store import GameStore, StoredGame, VersionConflict
from splendor.server.table import Client, Table, forfeit_json

__all__ = ["Hub"]

_log = logging.getLogger("splendor.server")

#: Seconds between two sweeps of the tables (expiring, unloading).
_SWEEP_INTERVAL: Final = 60.0
#: Seconds between two marks of a table in use in the store.
_TOUCH_INTERVAL: Final = 600.0


class Hub:
    """Every table of one server, with the store they are kept in.

    A table is loaded from the store when it is first asked for (never all
    at start), and dropped from memory when it has had no client for
    :attr:`~splendor.server.limits.Limits.unload_after` seconds.

    Args:
        store: where games are kept (SQLite or PostgreSQL: :mod:`splendor.server.database`).
        bot_delay: seconds a bot waits before moving (so people can follow).
        allow_seeds: whether :meth:`create` accepts a ``seed``. Live games
            must be dealt from unguessable seeds: a seat that could guess the
            seed would know the order of every deck. Tests and demos may
            allow chosen seeds.
        limits: the limits on games and tables (:class:`~splendor.server.limits.Limits`).
        engines: the bot engines the operator offers, by name: each name's
            bot spec, usually ``engine:COMMAND`` (see
            :func:`~splendor.server.engines.check_engines`).
            A seat may name one of them or a built-in bot, nothing else: a
            client never gives a command. The server starts an engine's
            process when it is first to move at a table, gives it
            :attr:`~splendor.server.limits.Limits.engine_time` seconds a
            move, and ends it when the game ends, the table is unloaded or
            the server stops.

    A bot seat whose bot fails (raises, answers no legal action, or is an
    engine that runs out of time, breaks the protocol or does not start)
    forfeits: the game ends, the other seats share the win, and the store
    keeps the forfeit after the moves (:mod:`splendor.server.table`).
    """

    def __init__(
        self,
        store: GameStore,
        *,
        bot_delay: float = 0.0,
        allow_seeds: bool = False,
        limits: Limits = DEFAULT_LIMITS,
        engines: Mapping[str, str] | None = None,
    ) -> None:
        """Make a hub over ``store``; call :meth:`start` in the event loop before use."""
        self.store = store
        self.bot_delay = bot_delay
        self.allow_seeds = allow_seeds
        self.limits = limits
        self.engines = check_engines(engines or {})
        self.tables: dict[str, Table] = {}
        self._closing: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._admission = Admission(limits, self.engines)
        self._upkeep: asyncio.Task[None] | None = None
        self._data_version: int | None = None
        self._stopping = False

    # Tables ---------------------------------------------------------------

    async def start(self) -> None:
        """Start the upkeep: expiring abandoned tables, and following other processes' moves.

        No table is loaded here: each is loaded when first asked for, and its
        bots play on from there.
        """
        self._data_version = await asyncio.to_thread(self.store.data_version)
        self._upkeep = asyncio.get_running_loop().create_task(self._keep_up())

    async def stop(self) -> None:
        """Stop the upkeep and the bots, and cut every client off."""
        self._stopping = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        if self._upkeep is not None:
            tasks.append(self._upkeep)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for table in self.tables.values():
            for client in list(table.clients):
                client.close()
        await asyncio.gather(
            *(asyncio.to_thread(table.bots.close) for table in self.tables.values()),
            *self._closing,
        )

    def table(self, table_id: str) -> Table | None:
        """The table with this id (loaded from the store on this thread if needed), or ``None``."""
        table = self.tables.get(table_id)
        if table is None:
            stored = self.store.get(table_id)
            if stored is not None:
                table = self._register(self._build(stored))
        return table

    async def load(self, table_id: str) -> Table | None:
        """The table with this id, or ``None``; one not in memory is loaded in a worker thread."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        waiting = self._loading.get(table_id)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            built = await asyncio.to_thread(self._read, table_id)
            table = self.tables.get(table_id)  # loaded meanwhile by table()
            if table is None and built is not None:
                table = self._register(built)
            future.set_result(table)
        except BaseException as error:
            future.set_exception(error)
            raise
        finally:
            del self._loading[table_id]
        return table

    def _read(self, table_id: str) -> Table | None:
        stored = self.store.get(table_id)
        return None if stored is None else self._build(stored)

    def _build(self, stored: StoredGame) -> Table | None:
        try:
            return Table.from_stored(
                stored,
                max_moves=self.limits.max_moves,
                engines=self.engines,
                engine_time=self.limits.engine_time,
            )
        except (SplendorError, ValueError, KeyError) as error:
            _log.error("cannot load table %s: %s", stored.id, error)
            return None

    def _register(self, table: Table | None) -> Table | None:
        if table is not None:
            self.tables[table.id] = table
            self._wake_bots(table)
        return table

    def create(
        self, request: object, *, client: str | None = None
    ) -> tuple[Table, list[str | None]]:
        """Open a table from a request (the JSON body of ``POST /api/tables``).

        Args:
            request: ``{"seats": [{"kind": "person", "name": "Ada"}, {"kind":
                "bot", "bot": "greedy"}], "rules": {"points_to_win": 15,
                ...}}``; ``rules`` and the names are optional, and so is
                ``seed`` where ``allow_seeds`` is set.
            client: the address of the client asking, for the limit of tables
                per client (``None``: not counted).

        Returns:
            The table and each seat's secret (``None`` for a bot's seat).

        Raises:
            ServerError: ``bad_request`` with the reason, for a request that
                is not such an object; ``no_bot_tables`` for a table with no
                person's seat where the server allows none;
                ``too_many_tables`` when the server holds as many
                unfinished tables as it may; ``rate_limited`` when
                ``client`` opened its tables for the hour.
        """
        table, secret_list = self._prepare(request)
        self._admission.check(table.seats, client, self.store.count_open, self.tables.values())
        self.store.add(table.stored())
        return self._opened(table, client), secret_list

    async def open(
        self, request: object, *, client: str | None = None
    ) -> tuple[Table, list[str | None]]:
        """:meth:`create`, with the store's work in a worker thread (what the web layer calls)."""
        table, secret_list = self._prepare(request)

        counts = await asyncio.to_thread(
            lambda: (self.store.count_open(), self.store.count_open(bots_only=True))
        )

        def count(*, bots_only: bool = False) -> int:
            return counts[int(bots_only)]

        self._admission.check(table.seats, client, count, self.tables.values())
        await asyncio.to_thread(self.store.add, table.stored())
        return self._opened(table, client), secret_list

    def _prepare(self, request: object) -> tuple[Table, list[str | None]]:
        asked = read_request(request, self.engines, allow_seeds=self.allow_seeds)
        try:
            record = GameRecord.start(
                len(asked.seats),
                seed=asked.seed,
                rules=asked.rules,
                names=tuple(seat.name for seat in asked.seats),
            )
        except SplendorError as error:
            raise ServerError("bad_request", str(error)) from error
        # 72 random bits: a clash with a stored id is left to the store's primary key.
        table_id = secrets.token_urlsafe(9)
        table = Table(
            table_id,
            asked.seats,
            record,
            max_moves=self.limits.max_moves,
            engines=self.engines,
            engine_time=self.limits.engine_time,
        )
        return table, list(asked.secrets)

    def _opened(self, table: Table, client: str | None) -> Table:
        self._admission.opened(client)
        self.tables[table.id] = table
        self._wake_bots(table)
        return table

    # Clients --------------------------------------------------------------

    def attach(self, table: Table, secret: str | None) -> Client:
        """Attach a client to ``table``: to the seat of ``secret``, or as a spectator.

        The client is sent its ``state`` message at once; the others learn
        that the seat is online.

        Raises:
            ServerError: ``unknown_secret`` when ``secret`` is no seat's.
        """
        seat: int | None = None
        if secret is not None:
            seat = table.seat_of(secret)
            if seat is None:
                raise ServerError("unknown_secret", "this link is not a seat of this table")
        client = Client(table, seat)
        table.clients.add(client)
        table.last_used = time.monotonic()
        if seat is not None:
            table.broadcast_seats(skip=client)
        client.push(table.state_message(seat))
        return client

    def detach(self, client: Client) -> None:
        """Remove a client from its table."""
        client.close()
        table = client.table
        table.last_used = time.monotonic()
        if client in table.clients:
            table.clients.discard(client)
            if client.seat is not None and not self._stopping:
                table.broadcast_seats()

    async def handle(self, client: Client, text: str) -> None:
        """Answer one message from a client; a refusal is sent back as an ``error``.

        Never raises for anything a client may send.
        """
        table = client.table
        try:
            if len(text) > MAX_MESSAGE:
                raise ServerError("too_large", f"a message may be at most {MAX_MESSAGE} characters")
            try:
                message = json.loads(text)
            except (ValueError, RecursionError) as error:
                raise ServerError("malformed", f"not JSON: {error}") from None
            if not isinstance(message, dict):
                raise ServerError("malformed", "a message must be a JSON object")
            kind = message.get("type")
            if kind == "sync":
                client.push(table.state_message(client.seat))
            elif kind == "move":
                await self.move(client, message)
            else:
                raise ServerError("malformed", f"unknown message type {kind!r}")
        except ServerError as error:
            client.push(error_message(error.code, str(error), table.version))
        except Exception:  # the server must survive any message; log what went wrong
            _log.exception("error while handling a message for table %s", table.id)
            client.push(error_message("internal", "the server failed on this message"))

    async def move(self, client: Client, message: Mapping[str, object]) -> None:
        """Play a ``move`` message of a client for its seat.

        Raises:
            ServerError: for a refusal; nothing has changed.
        """
        if client.seat is None:
            raise ServerError("spectator", "a spectator cannot move")
        move = read_move(message)
        table = client.table
        async with table.lock:
            table.check_turn(client.seat, move.version)
            action = move.action_in(view(table.state, client.seat))
            await self._play(table, client.seat, action)

    async def _play(self, table: Table, seat: int, action: Action) -> None:
        """Play ``action`` for ``seat`` (the lock held, the turn checked); store; tell everyone.

        The move is stored first, as one row, and only if the stored game is
        still at this table's version: a move the store did not keep is not
        played at all.
        """
        state = table.after(seat, action)
        over = state.is_over or (
            table.max_moves is not None and table.version + 1 >= table.max_moves
        )
        await self._store(table, action_json(action), over=over)
        table.actions.append(action)
        table.state = state
        self._moved(table)

    async def _forfeit(self, table: Table, forfeit: Forfeit) -> None:
        """End the game of ``table`` by ``forfeit`` (the lock held, the turn checked); store; tell.

        Raises:
            ServerError: ``stale`` when another process moved first.
        """
        await self._store(table, forfeit_json(forfeit), over=True)
        table.forfeit = forfeit
        self._moved(table)

    async def _store(self, table: Table, row: str, *, over: bool) -> None:
        """Store the row of the next move (or forfeit) of ``table``, if the store is at its version.

        Raises:
            ServerError: ``stale`` when another process stored a move first;
                its moves are played here then, and nothing else.
        """
        try:
            await asyncio.to_thread(self.store.append, table.id, table.version, row, finished=over)
        except VersionConflict:
            await self._catch_up(table)
            raise ServerError(
                "stale",
                f"another move was played first; the game is at version {table.version}",
            ) from None

    def _moved(self, table: Table) -> None:
        """Tell everyone of the move just played; let the bots move, or end them with the game."""
        table.last_used = time.monotonic()
        table.broadcast_state()
        self._wake_bots(table)
        if table.is_over:
            self._retire(table)

    def _retire(self, table: Table) -> None:
        """End the bots of ``table`` (its engines' processes) in the background."""
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(table.bots.close))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _catch_up(self, table: Table) -> None:
        """Play the moves another process stored for ``table`` (its lock held); tell everyone."""
        actions = await asyncio.to_thread(self.store.moves, table.id, table.version)
        if actions:
            table.catch_up(actions)
            table.broadcast_state()
            self._wake_bots(table)

    # Upkeep ---------------------------------------------------------------

    async def _keep_up(self) -> None:
        """Follow other processes' moves often; expire and unload tables now and then."""
        swept = time.monotonic()
        while not self._stopping:
            await asyncio.sleep(self.limits.sync_interval)
            try:
                await self.follow()
                if time.monotonic() - swept >= _SWEEP_INTERVAL:
                    swept = time.monotonic()
                    await self.sweep()
            except Exception:  # the upkeep must go on; the next round tries again
                _log.exception("the server's upkeep failed")

    async def follow(self) -> None:
        """Play on each loaded table the moves other processes stored since it was loaded."""
        version = await asyncio.to_thread(self.store.data_version)
        if version == self._data_version:
            return  # nobody else has written
        self._data_version = version
        stored = await asyncio.to_thread(self.store.versions, list(self.tables))
        for table_id, at in stored.items():
            table = self.tables.get(table_id)
            if table is not None and at > table.version:
                async with table.lock:
                    await self._catch_up(table)

    async def sweep(self) -> None:
        """Mark the tables in use, delete the abandoned ones, unload the idle ones.

        A table is abandoned when it is unfinished and has had no move and no
        client for :attr:`~splendor.server.limits.Limits.expire_after`
        seconds: it is deleted from the store, and its links stop working.
        """
        now = time.monotonic()
        limits = self.limits
        in_use = [table for table in self.tables.values() if table.clients or _busy(table)]
        due = [t for t in in_use if now - t.touched >= min(_TOUCH_INTERVAL, limits.expire_after)]
        if due:
            await asyncio.to_thread(self.store.touch, [table.id for table in due])
            for table in due:
                table.touched = now
        keep = [table.id for table in in_use]
        for table_id in await asyncio.to_thread(self.store.expire, limits.expire_after, keep=keep):
            _log.info("table %s expired: no move and no client for a while", table_id)
            gone = self.tables.pop(table_id, None)
            if gone is not None:
                self._retire(gone)
        for table in list(self.tables.values()):
            idle = now - table.last_used >= limits.unload_after
            if idle and not table.clients and not _busy(table):
                del self.tables[table.id]
                self._retire(table)
        self._admission.forget(now)

    # Bots -----------------------------------------------------------------

    def _wake_bots(self, table: Table) -> None:
        if self._stopping or table.is_over or not table.is_bot(table.state.current_player):
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.get_running_loop().create_task(self._bots_play(table))
            table.bot_task.add_done_callback(_report_failure)

    async def _bots_play(self, table: Table) -> None:
        """Let bots move while it is a bot's turn; each choice runs in a worker thread."""
        while not self._stopping and not table.is_over:
            seat = table.state.current_player
            if not table.is_bot(seat):
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            state, version = table.state, table.version
            actions = legal_actions(state)
            rng = random.Random(f"{table.seed}:{version}")
            move: Action | Forfeit
            try:
                move = (await asyncio.to_thread(table.bots.ask, seat, state, actions, rng)).action
            except BotFailedError as failure:  # the bot's failure is its seat's forfeit
                _log.warning("table %s: %s", table.id, failure)
                move = failure.forfeit()
            async with table.lock:
                if table.version != version or table.is_over:
                    continue
                try:
                    if isinstance(move, Forfeit):
                        await self._forfeit(table, move)
                    else:
                        await self._play(table, seat, move)
                except ServerError as error:
                    if error.code == "stale":
                        continue  # another process moved first: think again
                    # A move the seat may not play (a card it cannot see) forfeits too.
                    _log.warning("table %s: the bot at seat %d: %s", table.id, seat, error)
                    with contextlib.suppress(ServerError):  # stale: the loop looks again
                        await self._forfeit(table, Forfeit(seat, "illegal-move", str(error)))


def _report_failure(task: asyncio.Task[None]) -> None:
    """Log, with its traceback, an error that ended a table's bot task (the table then waits)."""
    if not task.cancelled() and (error := task.exception()) is not None:
        _log.error("a table's bots stopped on an unexpected error", exc_info=error)


def _busy(table: Table) -> bool:
    return table.bot_task is not None and not table.bot_task.done()
