"""The server's game logic, apart from any web framework: tables, seats, moves, bots.

A :class:`Hub` holds the tables being played. Each :class:`Table` keeps the
authoritative :class:`~splendor.GameState` (its :class:`~splendor.GameRecord`
replayed), the seats (a person holding a secret, or a bot from
:data:`splendor.players.bots.BOTS`) and the clients connected to it. A client is
attached as one seat or as a spectator, and every message it is sent is built
from that seat's :func:`~splendor.view` alone.

The web layer (:mod:`splendor.server.app`) only moves text between sockets
and :meth:`Hub.handle`; everything a game server must get right lives here.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import random
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

import attrs

from splendor.core.actions import Action, Buy, Reserve
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState
from splendor.core.views import PlayerView, view
from splendor.errors import InvalidArgumentError, SplendorError
from splendor.formats.notation import parse_action
from splendor.formats.record import GameRecord
from splendor.formats.serialization import from_json, to_json
from splendor.players.bots import BOTS, Bot, bot_name, load_bot
from splendor.players.levels import LEVEL_PREFIX, LEVELS
from splendor.server.limits import DEFAULT_LIMITS, Limits
from splendor.server.store import GameStore, StoredGame, StoredSeat, VersionConflict

__all__ = [
    "LEVEL_BOTS",
    "MAX_MESSAGE",
    "Client",
    "Hub",
    "Seat",
    "ServerError",
    "Table",
    "check_engines",
]

_log = logging.getLogger("splendor.server")

#: The longest message a client may send, in characters; longer ones are refused.
MAX_MESSAGE: Final = 8192
#: The longest name of a seat.
MAX_NAME: Final = 24
#: The largest number a house rule may set.
MAX_RULE_VALUE: Final = 99
#: Messages queued for one client before it is dropped as too slow.
MAX_QUEUE: Final = 256

#: Tables one client may open within this many seconds (see ``Limits.tables_per_client``).
_CREATION_WINDOW: Final = 3600.0
#: Seconds between two sweeps of the tables (expiring, unloading).
_SWEEP_INTERVAL: Final = 60.0
#: Seconds between two marks of a table in use in the store.
_TOUCH_INTERVAL: Final = 600.0

#: What the name of an operator's engine may be: letters, digits, ``.``, ``_`` and ``-``.
_ENGINE_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,23}")

#: The levels a seat may name (``"level:3"``), each with the name a seat gets by default.
LEVEL_BOTS: Final[Mapping[str, str]] = MappingProxyType(
    {f"{LEVEL_PREFIX}{level.number}": f"Level {level.number} bot" for level in LEVELS}
)

_RULE_PAIRS: Final = ("gems_by_players", "gold_by_players", "nobles_by_players")
_RULE_NUMBERS: Final = ("points_to_win", "token_limit", "reserve_limit")


class ServerError(SplendorError):
    """A request the server refuses, with the protocol's error code.

    Attributes:
        code: a short stable word naming the kind of refusal, sent to the
            client as the ``code`` of an ``error`` message (see the protocol
            in the docs).
    """

    def __init__(self, code: str, message: str) -> None:
        """Make the error; ``message`` is the human-readable reason."""
        super().__init__(message)
        self.code = code


@attrs.frozen
class Seat:
    """One seat of a table.

    Attributes:
        name: the name shown for the seat.
        kind: ``"person"`` or ``"bot"``.
        bot: for a bot seat, the bot's name: one of
            :data:`splendor.players.bots.BOTS`, a level (:data:`LEVEL_BOTS`),
            or an engine the server's operator configured (see :class:`Hub`).
        secret_digest: the hex SHA-256 digest of the seat's secret, for a
            person's seat.
    """

    name: str
    kind: str
    bot: str | None = None
    secret_digest: str | None = None


def digest(secret: str) -> str:
    """The hex SHA-256 digest under which a seat's secret is stored."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class Client:
    """One connection to a table: a seat's (``seat`` set) or a spectator's.

    Messages for the client are queued; the web layer sends them in order
    with :meth:`next`. A client too slow to keep ``MAX_QUEUE`` messages
    is cut off (it reconnects and gets the current view). Presence messages
    (who is online) are coalesced: at most one waits in the queue, holding
    the newest, so joins and leaves alone can never fill it.
    """

    def __init__(self, table: Table, seat: int | None) -> None:
        """A client of ``table`` for ``seat`` (``None``: a spectator)."""
        self.table = table
        self.seat = seat
        self._queue: collections.deque[str | None] = collections.deque()
        self._presence: str | None = None
        self._wake = asyncio.Event()
        self.closed = False
        #: When a message last went either way (set by :meth:`next` and the web layer).
        self.active = time.monotonic()

    @property
    def pending(self) -> int:
        """The number of messages waiting to be sent."""
        return len(self._queue)

    def push(self, text: str) -> None:
        """Queue one message; cut the client off if it has too many waiting."""
        if self.closed:
            return
        if len(self._queue) >= MAX_QUEUE:
            self.close()
            return
        self._queue.append(text)
        self._wake.set()

    def push_presence(self, text: str) -> None:
        """Queue a presence (``seats``) message, replacing the one still waiting if any."""
        if self.closed:
            return
        if self._presence is None:
            if len(self._queue) >= MAX_QUEUE:
                self.close()
                return
            self._queue.append(None)  # the place of the presence message in the order
        self._presence = text
        self._wake.set()

    def close(self) -> None:
        """End the client: :meth:`next` answers ``None`` once the queue is sent."""
        if not self.closed:
            self.closed = True
            self._wake.set()

    async def next(self) -> str | None:
        """The next message to send, or ``None`` when the client is closed."""
        while not self._queue:
            if self.closed:
                return None
            self._wake.clear()
            await self._wake.wait()
        text = self._queue.popleft()
        if text is None:
            text, self._presence = self._presence, None
        self.active = time.monotonic()
        return text


class Table:
    """A game being played (or over) and the clients attached to it.

    The moves are kept as a list and the state after them, so that a move
    costs the same at the thousandth turn as at the first; :attr:`record`
    builds the whole :class:`~splendor.GameRecord` when it is asked for.

    Attributes:
        id: the table's id in its links.
        seats: the seats.
        actions: the moves played so far, in order.
        state: the state after them.
        max_moves: the moves after which an unfinished game stops (``None``:
            no bound).
        clients: the clients attached.

    A bot seat's bot is made when it is first asked for (:meth:`bot`): an
    engine's process is started then, and ended by :meth:`close_bots`.
    """

    def __init__(
        self,
        table_id: str,
        seats: tuple[Seat, ...],
        record: GameRecord,
        *,
        max_moves: int | None = None,
        engines: Mapping[str, str] | None = None,
        engine_time: float = 5.0,
    ) -> None:
        """A table playing ``record`` (replayed now, so a bad record fails here).

        ``engines`` are the operator's engines by name (their bot specs), for
        the bot seats that name one; each gets ``engine_time`` seconds a move.
        """
        self.id = table_id
        self.seats = seats
        self.players = record.players
        self.seed = record.seed
        self.rules = record.rules
        self.names = record.names
        self.actions: list[Action] = list(record.actions)
        self.state: GameState = record.final_state()
        self.max_moves = max_moves
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.last_used = time.monotonic()
        self.touched = time.monotonic()
        self._engines: Mapping[str, str] = engines or {}
        self._engine_time = engine_time
        self._bots: dict[int, Bot] = {}
        # Held while a bot of this table moves, is made or is closed: an
        # engine answers one call at a time.
        self._bot_lock = threading.Lock()
        self._messages: dict[int | None, str] = {}

    @property
    def version(self) -> int:
        """The state version: the number of moves played so far."""
        return len(self.actions)

    @property
    def stopped(self) -> bool:
        """Whether the game stopped unfinished at :attr:`max_moves`, with no winner."""
        return (
            not self.state.is_over and self.max_moves is not None and self.version >= self.max_moves
        )

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, by the rules or at the move limit."""
        return self.state.is_over or self.stopped

    @property
    def record(self) -> GameRecord:
        """The whole game as a :class:`~splendor.GameRecord` (built anew: linear in its length)."""
        return GameRecord(
            self.players,
            self.seed,
            self.rules,
            tuple(self.actions),
            self.names,
            self.state.winners or None,
        )

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat``."""
        return self.seats[seat].kind == "bot"

    def bot(self, seat: int) -> Bot | None:
        """The bot playing ``seat`` (made now if need be), or ``None`` for a person's seat.

        An engine's process is started here, so call this in a worker thread.

        Raises:
            ServerError: ``unknown_bot`` for a seat whose bot is neither
                built in nor configured (any more) on this server.
            splendor.errors.SplendorError: when the engine does not start.
        """
        if not self.is_bot(seat):
            return None
        with self._bot_lock:
            return self._bot(seat)

    def _bot(self, seat: int) -> Bot:
        found = self._bots.get(seat)
        if found is None:
            name = self.seats[seat].bot or ""
            if name in BOTS:
                found = BOTS[name]()
            elif name in LEVEL_BOTS:
                found = load_bot(name)
            elif name in self._engines:
                found = _start_engine(self._engines[name], self._engine_time)
            else:
                raise ServerError("unknown_bot", f"this server has no bot {name!r}")
            self._bots[seat] = found
        return found

    def choose(
        self, seat: int, seen: PlayerView, actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The move of the bot of ``seat`` (made now if need be); call it in a worker thread.

        Raises:
            ServerError: for a person's seat or an unknown bot.
            Exception: whatever the bot raises (an engine that fails is
                ended, and started again on its next move).
        """
        with self._bot_lock:
            if not self.is_bot(seat):
                raise ServerError("not_a_bot", f"seat {seat + 1} is a person's")
            bot = self._bot(seat)
            try:
                return bot(seen, actions, rng)
            except BaseException:
                del self._bots[seat]
                _close(bot)
                raise

    def close_bots(self) -> None:
        """End the table's bots: every engine process is stopped; call it in a worker thread.

        Waits for a move being chosen to end first (each is bounded in time).
        """
        with self._bot_lock:
            bots, self._bots = list(self._bots.values()), {}
            for bot in bots:
                _close(bot)

    def seat_of(self, secret: str) -> int | None:
        """The seat whose secret this is, or ``None``."""
        wanted = digest(secret)
        found = None
        for number, seat in enumerate(self.seats):
            if seat.secret_digest is not None and hmac.compare_digest(seat.secret_digest, wanted):
                found = number
        return found

    def seats_json(self) -> list[dict[str, object]]:
        """The seats as the protocol sends them: name, kind, bot and whether online."""
        online = {client.seat for client in self.clients}
        return [
            {
                "name": seat.name,
                "kind": seat.kind,
                "bot": seat.bot,
                "online": seat.kind == "bot" or number in online,
            }
            for number, seat in enumerate(self.seats)
        ]

    def state_message(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator), built from its view only.

        The message is composed from JSON texts (the view, the actions) so
        that the actions' JSON, which repeats from turn to turn, is made once.
        """
        cached = self._messages.get(seat)
        if cached is not None:
            return cached
        state = self.state
        over = self.is_over
        legal = ""
        if seat is not None and not over and state.current_player == seat:
            legal = ",".join(action_json(action) for action in legal_actions(state))
        last = "null"
        if self.actions:
            action = self.actions[-1]
            last = (
                f'{{"seat":{(self.version - 1) % len(self.seats)},'
                f'"action":{action_json(action)},"text":{json.dumps(str(action))}}}'
            )
        result: dict[str, object] | None = None
        if over:
            result = {
                "winners": list(state.winners),
                "points": [player.points for player in state.players],
                "cards": [len(player.cards) for player in state.players],
                "reason": "move_limit" if self.stopped else "rules",
            }
        head = {"type": "state", "table": self.id, "version": self.version, "seat": seat}
        message = (
            f"{json.dumps(head, separators=(',', ':'))[:-1]},"
            f'"seats":{json.dumps(self.seats_json(), separators=(",", ":"))},'
            f'"view":{to_json(view(state, seat))},"legal":[{legal}],"last":{last},'
            f'"over":{json.dumps(over)},"result":{json.dumps(result)}}}'
        )
        self._messages[seat] = message
        return message

    def broadcast_state(self) -> None:
        """Send every client its own ``state`` message."""
        self._messages.clear()
        for client in list(self.clients):
            client.push(self.state_message(client.seat))

    def broadcast_seats(self, skip: Client | None = None) -> None:
        """Send every client but ``skip`` the ``seats`` message (who is online), coalesced."""
        self._messages.clear()
        text = json.dumps({"type": "seats", "seats": self.seats_json()})
        for client in list(self.clients):
            if client is not skip:
                client.push_presence(text)

    def stored(self) -> StoredGame:
        """The table as the store keeps it: the deal as a record, then the moves."""
        dealt = GameRecord(self.players, self.seed, self.rules, (), self.names)
        return StoredGame(
            self.id,
            to_json(dealt),
            self.is_over,
            tuple(StoredSeat(seat.kind, seat.bot, seat.secret_digest) for seat in self.seats),
            tuple(action_json(action) for action in self.actions),
        )

    def catch_up(self, actions: Sequence[str]) -> None:
        """Play the stored moves this table lacks (their JSON, from its version on)."""
        state = self.state
        played = []
        for text in actions:
            action = from_json(text, Action)
            state = apply(state, action)
            played.append(action)
        self.actions.extend(played)
        self.state = state


def _start_engine(spec: str, move_time: float) -> Bot:
    """Start the operator's engine of ``spec``, with ``move_time`` seconds a move.

    The host side of the protocol ends an engine that goes over its time
    (after its grace) and raises; any other spec is an in-process bot,
    which cannot be stopped while it thinks.
    """
    from splendor.remote import Engine, Limit

    bot = load_bot(spec)
    if isinstance(bot, Engine):
        bot.limit = Limit(time=move_time)
    return bot


def _close(bot: Bot) -> None:
    """End a bot's process, if it has one; never raises."""
    close = getattr(bot, "close", None)
    if callable(close):
        try:
            close()
        except Exception:  # ending a broken engine may fail too; its process is gone either way
            _log.exception("closing bot %s failed", bot_name(bot))


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


@functools.lru_cache(maxsize=1 << 16)
def action_json(action: Action) -> str:
    """An action's JSON text (:func:`splendor.to_json`), remembered: the same actions recur."""
    return to_json(action)


def error_message(code: str, message: str, version: int | None = None) -> str:
    """An ``error`` message of the protocol."""
    body: dict[str, object] = {"type": "error", "code": code, "message": message}
    if version is not None:
        body["version"] = version
    return json.dumps(body)


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
            bot spec, usually ``engine:COMMAND`` (see :func:`check_engines`).
            A seat may name one of them or a built-in bot, nothing else: a
            client never gives a command. The server starts an engine's
            process when it is first to move at a table, gives it
            :attr:`~splendor.server.limits.Limits.engine_time` seconds a
            move, and ends it when the game ends, the table is unloaded or
            the server stops.
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
        self._created: dict[str, collections.deque[float]] = {}
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
            *(asyncio.to_thread(table.close_bots) for table in self.tables.values()),
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
            record = from_json(stored.record, GameRecord)
            names = record.names or tuple(f"Player {n + 1}" for n in range(record.players))
            seats = tuple(
                Seat(name, seat.kind, seat.bot, seat.secret_digest)
                for name, seat in zip(names, stored.seats, strict=True)
            )
            table = self._table(stored.id, seats, record)
            table.catch_up(stored.actions)
        except (SplendorError, ValueError, KeyError) as error:
            _log.error("cannot load table %s: %s", stored.id, error)
            return None
        return table

    def _table(self, table_id: str, seats: tuple[Seat, ...], record: GameRecord) -> Table:
        return Table(
            table_id,
            seats,
            record,
            max_moves=self.limits.max_moves,
            engines=self.engines,
            engine_time=self.limits.engine_time,
        )

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
        self._check_room(table, client, self.store.count_open)
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

        self._check_room(table, client, count)
        await asyncio.to_thread(self.store.add, table.stored())
        return self._opened(table, client), secret_list

    def _prepare(self, request: object) -> tuple[Table, list[str | None]]:
        if not isinstance(request, dict):
            raise ServerError("bad_request", "the request must be a JSON object")
        unknown = set(request) - {"seats", "rules", "seed"}
        if unknown:
            raise ServerError("bad_request", f"unknown field(s): {', '.join(sorted(unknown))}")
        seats_in = request.get("seats")
        if not isinstance(seats_in, list) or not MIN_PLAYERS <= len(seats_in) <= MAX_PLAYERS:
            raise ServerError(
                "bad_request", f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats"
            )
        seats: list[Seat] = []
        secret_list: list[str | None] = []
        for number, entry in enumerate(seats_in):
            seat, secret = _seat(number, entry, self.engines)
            seats.append(seat)
            secret_list.append(secret)
        rules = _rules(request.get("rules", {}))
        seed = request.get("seed")
        if seed is None:
            # 63 random bits: the most a record holds (a signed 64-bit integer).
            seed = secrets.randbits(63)
        elif not self.allow_seeds:
            raise ServerError("bad_request", "this server deals its own seeds")
        elif type(seed) is not int:
            raise ServerError("bad_request", "seed must be an integer")
        try:
            record = GameRecord.start(
                len(seats), seed=seed, rules=rules, names=tuple(seat.name for seat in seats)
            )
        except SplendorError as error:
            raise ServerError("bad_request", str(error)) from error
        # 72 random bits: a clash with a stored id is left to the store's primary key.
        table_id = secrets.token_urlsafe(9)
        table = self._table(table_id, tuple(seats), record)
        return table, secret_list

    def _check_room(self, table: Table, client: str | None, count: Callable[..., int]) -> None:
        limits = self.limits
        if any(_engine_seat(seat, self.engines) for seat in table.seats):
            playing = sum(
                not other.is_over and any(_engine_seat(s, self.engines) for s in other.seats)
                for other in self.tables.values()
            )
            if playing >= limits.max_engine_tables:
                raise ServerError(
                    "too_many_tables",
                    f"this server plays at most {limits.max_engine_tables} table(s) "
                    "with an engine at once",
                )
        if all(seat.kind == "bot" for seat in table.seats):
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
                _forget_before(recent, time.monotonic() - _CREATION_WINDOW)
                if len(recent) >= limits.tables_per_client:
                    raise ServerError(
                        "rate_limited",
                        f"a client may open {limits.tables_per_client} tables an hour",
                    )
        if count() >= limits.max_tables:
            raise ServerError(
                "too_many_tables", "this server has as many tables open as it may; try later"
            )

    def _opened(self, table: Table, client: str | None) -> Table:
        if client is not None:
            self._created.setdefault(client, collections.deque()).append(time.monotonic())
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
        unknown = set(message) - {"type", "version", "action", "notation"}
        if unknown:
            raise ServerError("malformed", f"unknown field(s): {', '.join(sorted(unknown))}")
        version = message.get("version")
        if type(version) is not int:
            raise ServerError("malformed", "a move needs the integer version it was made against")
        has_action, has_text = "action" in message, "notation" in message
        if has_action == has_text:
            raise ServerError("malformed", "a move needs exactly one of 'action' or 'notation'")
        table = client.table
        async with table.lock:
            self._check_turn(table, client.seat, version)
            if has_action:
                try:
                    action = from_json(json.dumps(message["action"]), Action)
                except SplendorError as error:
                    raise ServerError("bad_action", str(error)) from None
            else:
                notation = message["notation"]
                if not isinstance(notation, str):
                    raise ServerError("malformed", "notation must be a string")
                try:
                    action = parse_action(notation, view(table.state, client.seat))
                except SplendorError as error:
                    raise ServerError("bad_action", str(error)) from None
            await self._play(table, client.seat, action)

    def _check_turn(self, table: Table, seat: int, version: int) -> None:
        if table.is_over:
            raise ServerError("game_over", "the game is over")
        if version != table.version:
            raise ServerError(
                "stale",
                f"the move was made at version {version}; the game is at version {table.version}",
            )
        if table.state.current_player != seat:
            raise ServerError(
                "not_your_turn", f"it is seat {table.state.current_player + 1}'s turn"
            )

    async def _play(self, table: Table, seat: int, action: Action) -> None:
        """Play ``action`` for ``seat`` (the lock held, the turn checked); store; tell everyone.

        The move is stored first, as one row, and only if the stored game is
        still at this table's version: a move the store did not keep is not
        played at all.
        """
        if isinstance(action, Buy | Reserve) and not _sees(table, seat, action):
            # The engine's reasons are the same for any card a seat cannot
            # play; this keeps it so whatever the engine says in future.
            raise ServerError("illegal", f"card #{action.card.id} is not yours to play")
        try:
            state = apply(table.state, action)
        except SplendorError as error:
            raise ServerError("illegal", str(error)) from None
        version = table.version
        over = state.is_over or (table.max_moves is not None and version + 1 >= table.max_moves)
        try:
            await asyncio.to_thread(
                self.store.append, table.id, version, action_json(action), finished=over
            )
        except VersionConflict:
            await self._catch_up(table)
            raise ServerError(
                "stale",
                f"another move was played first; the game is at version {table.version}",
            ) from None
        table.actions.append(action)
        table.state = state
        table.last_used = time.monotonic()
        table.broadcast_state()
        self._wake_bots(table)
        if table.is_over:
            self._retire(table)

    def _retire(self, table: Table) -> None:
        """End the bots of ``table`` (its engines' processes) in the background."""
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(table.close_bots))
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
        for client, recent in list(self._created.items()):
            _forget_before(recent, now - _CREATION_WINDOW)
            if not recent:
                del self._created[client]

    # Bots -----------------------------------------------------------------

    def _wake_bots(self, table: Table) -> None:
        if self._stopping or table.is_over or not table.is_bot(table.state.current_player):
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.get_running_loop().create_task(self._bots_play(table))

    async def _bots_play(self, table: Table) -> None:
        """Let bots move while it is a bot's turn; each choice runs in a worker thread."""
        while not self._stopping and not table.is_over:
            seat = table.state.current_player
            if not table.is_bot(seat):
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            state, version = table.state, table.version
            seen = view(state, seat)
            actions = legal_actions(state)
            rng = random.Random(f"{table.seed}:{version}")
            name = table.seats[seat].bot
            try:
                action = await asyncio.to_thread(table.choose, seat, seen, actions, rng)
            except Exception:  # a bot's own code may fail; play on with its first action
                # (a failed engine was ended: it starts again on its next move)
                _log.exception("bot %s failed at table %s", name, table.id)
                action = actions[0]
            async with table.lock:
                if table.version != version or table.is_over:
                    continue
                try:
                    await self._play(table, seat, action)
                except ServerError as error:
                    if error.code == "stale":
                        continue  # another process moved first: think again
                    _log.error("bot %s played illegally: %s", name, error)
                    await self._play(table, seat, actions[0])


def _busy(table: Table) -> bool:
    return table.bot_task is not None and not table.bot_task.done()


def _forget_before(times: collections.deque[float], moment: float) -> None:
    while times and times[0] < moment:
        times.popleft()


def _sees(table: Table, seat: int, action: Buy | Reserve) -> bool:
    return action.card in view(table.state, seat).visible()


def _engine_seat(seat: Seat, engines: Mapping[str, str]) -> bool:
    return seat.kind == "bot" and seat.bot in engines


def _seat(number: int, entry: object, engines: Mapping[str, str]) -> tuple[Seat, str | None]:
    where = f"seat {number + 1}"
    if not isinstance(entry, dict):
        raise ServerError("bad_request", f"{where} must be an object")
    unknown = set(entry) - {"kind", "bot", "name"}
    if unknown:
        raise ServerError("bad_request", f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    kind = entry.get("kind")
    bot = entry.get("bot")
    if kind == "person":
        if bot is not None:
            raise ServerError("bad_request", f"{where}: a person's seat has no bot")
        default = f"Player {number + 1}"
    elif kind == "bot":
        if not isinstance(bot, str) or (
            bot not in BOTS and bot not in engines and bot not in LEVEL_BOTS
        ):
            # Only names: a client never gives a command or a spec to run.
            raise ServerError(
                "bad_request",
                f"{where}: bot must be one of {', '.join(sorted({*BOTS, *engines}))} "
                f"or {LEVEL_PREFIX}1 to {LEVEL_PREFIX}{len(LEVELS)}",
            )
        default = LEVEL_BOTS.get(bot) or f"{bot} bot"
    else:
        raise ServerError("bad_request", f"{where}: kind must be 'person' or 'bot'")
    name = _name(entry.get("name"), default, where)
    if kind == "bot":
        return Seat(name, "bot", bot), None
    secret = secrets.token_urlsafe(18)
    return Seat(name, "person", None, digest(secret)), secret


def _name(value: object, default: str, where: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise ServerError("bad_request", f"{where}: name must be a string")
    name = " ".join(value.split())
    if not name:
        return default
    if len(name) > MAX_NAME or any(unicodedata.category(c).startswith("C") for c in name):
        raise ServerError("bad_request", f"{where}: a name is 1 to {MAX_NAME} printable characters")
    return name


def _rules(value: object) -> Rules:
    if not isinstance(value, dict):
        raise ServerError("bad_request", "rules must be an object")
    fields: dict[str, object] = {}
    for key, setting in value.items():
        if key in _RULE_NUMBERS:
            fields[key] = _rule_number(key, setting)
        elif key in _RULE_PAIRS:
            if not isinstance(setting, list) or len(setting) != 3:
                raise ServerError("bad_request", f"rules.{key} must be 3 numbers (2, 3, 4 players)")
            fields[key] = tuple(_rule_number(key, item) for item in setting)
        else:
            raise ServerError("bad_request", f"unknown rule {key!r}")
    try:
        return Rules(**fields)  # type: ignore[arg-type]  # each value was checked above
    except SplendorError as error:
        raise ServerError("bad_request", str(error)) from None


def _rule_number(key: str, value: object) -> int:
    if type(value) is not int or not 0 <= value <= MAX_RULE_VALUE:
        raise ServerError("bad_request", f"rules.{key}: numbers from 0 to {MAX_RULE_VALUE}")
    return value
