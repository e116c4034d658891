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
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import random
import secrets
import unicodedata
from collections.abc import Mapping
from typing import Final

import attrs

from splendor.core.actions import Action, Buy, Reserve
from splendor.core.legal import legal_actions
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState
from splendor.core.views import view
from splendor.errors import SplendorError
from splendor.formats.notation import parse_action
from splendor.formats.record import GameRecord
from splendor.formats.serialization import from_json, to_json
from splendor.players.bots import BOTS, Bot, bot_name
from splendor.server.store import Store, StoredGame, StoredSeat

__all__ = [
    "MAX_MESSAGE",
    "Client",
    "Hub",
    "Seat",
    "ServerError",
    "Table",
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
        bot: the bot's name in :data:`splendor.players.bots.BOTS`, for a bot seat.
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
    is cut off (it reconnects and gets the current view).
    """

    def __init__(self, table: Table, seat: int | None) -> None:
        """A client of ``table`` for ``seat`` (``None``: a spectator)."""
        self.table = table
        self.seat = seat
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def push(self, text: str) -> None:
        """Queue one message; cut the client off if it has too many waiting."""
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUE:
            self.close()
            return
        self._queue.put_nowait(text)

    def close(self) -> None:
        """End the client: :meth:`next` answers ``None`` once the queue is sent."""
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def next(self) -> str | None:
        """The next message to send, or ``None`` when the client is closed."""
        return await self._queue.get()


class Table:
    """A game being played (or over) and the clients attached to it.

    Attributes:
        id: the table's id in its links.
        seats: the seats.
        record: the game so far; its final state is ``state``.
        clients: the clients attached.
    """

    def __init__(self, table_id: str, seats: tuple[Seat, ...], record: GameRecord) -> None:
        """A table playing ``record`` (replayed now, so a bad record fails here)."""
        self.id = table_id
        self.seats = seats
        self.record = record
        self.state: GameState = record.final_state()
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self._bots: dict[int, Bot] = {
            number: BOTS[seat.bot]()
            for number, seat in enumerate(seats)
            if seat.kind == "bot" and seat.bot is not None
        }
        self._messages: dict[int | None, str] = {}

    @property
    def version(self) -> int:
        """The state version: the number of moves played so far."""
        return len(self.record.actions)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over

    def bot(self, seat: int) -> Bot | None:
        """The bot playing ``seat``, or ``None`` for a person's seat."""
        return self._bots.get(seat)

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
        legal = ""
        if seat is not None and not state.is_over and state.current_player == seat:
            legal = ",".join(action_json(action) for action in legal_actions(state))
        last = "null"
        if self.record.actions:
            action = self.record.actions[-1]
            last = (
                f'{{"seat":{(self.version - 1) % len(self.seats)},'
                f'"action":{action_json(action)},"text":{json.dumps(str(action))}}}'
            )
        result: dict[str, object] | None = None
        if state.is_over:
            result = {
                "winners": list(state.winners),
                "points": [player.points for player in state.players],
                "cards": [len(player.cards) for player in state.players],
            }
        head = {"type": "state", "table": self.id, "version": self.version, "seat": seat}
        message = (
            f"{json.dumps(head, separators=(',', ':'))[:-1]},"
            f'"seats":{json.dumps(self.seats_json(), separators=(",", ":"))},'
            f'"view":{to_json(view(state, seat))},"legal":[{legal}],"last":{last},'
            f'"over":{json.dumps(state.is_over)},"result":{json.dumps(result)}}}'
        )
        self._messages[seat] = message
        return message

    def broadcast_state(self) -> None:
        """Send every client its own ``state`` message."""
        self._messages.clear()
        for client in list(self.clients):
            client.push(self.state_message(client.seat))

    def broadcast_seats(self, skip: Client | None = None) -> None:
        """Send every client but ``skip`` the ``seats`` message (who is online)."""
        self._messages.clear()
        text = json.dumps({"type": "seats", "seats": self.seats_json()})
        for client in list(self.clients):
            if client is not skip:
                client.push(text)

    def stored(self) -> StoredGame:
        """The table as the store keeps it."""
        return StoredGame(
            self.id,
            to_json(self.record),
            self.is_over,
            tuple(StoredSeat(seat.kind, seat.bot, seat.secret_digest) for seat in self.seats),
        )


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

    Args:
        store: where games are kept.
        bot_delay: seconds a bot waits before moving (so people can follow).
        allow_seeds: whether :meth:`create` accepts a ``seed``. Live games
            must be dealt from unguessable seeds: a seat that could guess the
            seed would know the order of every deck. Tests and demos may
            allow chosen seeds.
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.0, allow_seeds: bool = False) -> None:
        """Make a hub over ``store``; call :meth:`start` in the event loop before use."""
        self.store = store
        self.bot_delay = bot_delay
        self.allow_seeds = allow_seeds
        self.tables: dict[str, Table] = {}
        self._stopping = False

    # Tables ---------------------------------------------------------------

    async def start(self) -> None:
        """Load every unfinished game from the store and let its bots play on."""
        for stored in self.store.games(finished=False):
            table = self._load(stored)
            if table is not None:
                self._wake_bots(table)

    async def stop(self) -> None:
        """Stop the bots and cut every client off."""
        self._stopping = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for table in self.tables.values():
            for client in list(table.clients):
                client.close()

    def table(self, table_id: str) -> Table | None:
        """The table with this id (loaded from the store if needed), or ``None``."""
        table = self.tables.get(table_id)
        if table is None:
            stored = self.store.get(table_id)
            if stored is not None:
                table = self._load(stored)
        return table

    def _load(self, stored: StoredGame) -> Table | None:
        try:
            record = from_json(stored.record, GameRecord)
            names = record.names or tuple(f"Player {n + 1}" for n in range(record.players))
            seats = tuple(
                Seat(name, seat.kind, seat.bot, seat.secret_digest)
                for name, seat in zip(names, stored.seats, strict=True)
            )
            table = Table(stored.id, seats, record)
        except (SplendorError, ValueError, KeyError) as error:
            _log.error("cannot load table %s: %s", stored.id, error)
            return None
        self.tables[table.id] = table
        return table

    def create(self, request: object) -> tuple[Table, list[str | None]]:
        """Open a table from a request (the JSON body of ``POST /api/tables``).

        Args:
            request: ``{"seats": [{"kind": "person", "name": "Ada"}, {"kind":
                "bot", "bot": "greedy"}], "rules": {"points_to_win": 15,
                ...}}``; ``rules`` and the names are optional, and so is
                ``seed`` where ``allow_seeds`` is set.

        Returns:
            The table and each seat's secret (``None`` for a bot's seat).

        Raises:
            ServerError: ``bad_request`` with the reason, for a request that
                is not such an object.
        """
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
            seat, secret = _seat(number, entry)
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
        table_id = secrets.token_urlsafe(9)
        while table_id in self.tables or self.store.get(table_id) is not None:
            table_id = secrets.token_urlsafe(9)  # pragma: no cover - 72 random bits
        table = Table(table_id, tuple(seats), record)
        self.store.add(table.stored())
        self.tables[table_id] = table
        self._wake_bots(table)
        return table, secret_list

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
        if seat is not None:
            table.broadcast_seats(skip=client)
        client.push(table.state_message(seat))
        return client

    def detach(self, client: Client) -> None:
        """Remove a client from its table."""
        client.close()
        table = client.table
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
            self._play(table, client.seat, action)

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

    def _play(self, table: Table, seat: int, action: Action) -> None:
        """Play ``action`` for ``seat`` (the lock held, the turn checked); store; tell everyone."""
        if isinstance(action, Buy | Reserve) and not _sees(table, seat, action):
            # The engine's reasons are the same for any card a seat cannot
            # play; this keeps it so whatever the engine says in future.
            raise ServerError("illegal", f"card #{action.card.id} is not yours to play")
        try:
            record = table.record.append(action)
        except SplendorError as error:
            raise ServerError("illegal", str(error)) from None
        # Stored first: a move the store failed to keep is not played at all.
        self.store.save(table.id, to_json(record), finished=record.final_state().is_over)
        table.record = record
        table.state = record.final_state()
        table.broadcast_state()
        self._wake_bots(table)

    # Bots -----------------------------------------------------------------

    def _wake_bots(self, table: Table) -> None:
        if self._stopping or table.is_over or table.bot(table.state.current_player) is None:
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.get_running_loop().create_task(self._bots_play(table))

    async def _bots_play(self, table: Table) -> None:
        """Let bots move while it is a bot's turn; each choice runs in a worker thread."""
        while not self._stopping and not table.is_over:
            seat = table.state.current_player
            bot = table.bot(seat)
            if bot is None:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            state, version = table.state, table.version
            seen = view(state, seat)
            actions = legal_actions(state)
            rng = random.Random(f"{table.record.seed}:{version}")
            try:
                action = await asyncio.to_thread(bot, seen, actions, rng)
            except Exception:  # a bot's own code may fail; play on with its first action
                _log.exception("bot %s failed at table %s", bot_name(bot), table.id)
                action = actions[0]
            async with table.lock:
                if table.version != version:
                    continue
                try:
                    self._play(table, seat, action)
                except ServerError as error:
                    _log.error("bot %s played illegally: %s", bot_name(bot), error)
                    self._play(table, seat, actions[0])


def _sees(table: Table, seat: int, action: Buy | Reserve) -> bool:
    return action.card in view(table.state, seat).visible()


def _seat(number: int, entry: object) -> tuple[Seat, str | None]:
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
        if not isinstance(bot, str) or bot not in BOTS:
            raise ServerError(
                "bad_request", f"{where}: bot must be one of {', '.join(sorted(BOTS))}"
            )
        default = f"{bot} bot"
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
