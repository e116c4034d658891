"""A table of the server: the game it plays, its seats, its bots and the clients attached.

A :class:`Table` keeps the authoritative :class:`~splendor.GameState` (its
moves replayed), the seats (:mod:`splendor.server.seating`), its bots
(:class:`~splendor.server.engines.TableBots`) and the clients connected to it.
A client (:class:`Client`) is attached as one seat or as a spectator, and
every message it is sent is built from that seat's :func:`~splendor.view`
alone.

A game ends by the rules, at the move limit, or by a seat's forfeit: a bot
seat whose bot fails forfeits (:mod:`splendor.players.seats`), the seat
loses and the others share the win, as the referee records it. The store
keeps a forfeit as the game's last row after its moves (:func:`forfeit_json`).
"""

from __future__ import annotations

import asyncio
import collections
import hmac
import json
import time
from collections.abc import Mapping, Sequence
from typing import Final

from splendor.core.actions import Action, Buy, Reserve
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.state import GameState
from splendor.core.views import view
from splendor.errors import SerializationError, SplendorError
from splendor.formats.record import Forfeit, GameRecord
from splendor.formats.serialization import from_json, to_json
from splendor.server.engines import TableBots
from splendor.server.protocol import ServerError, action_json
from splendor.server.seating import Seat, digest
from splendor.server.store import StoredGame, StoredSeat

__all__ = ["MAX_QUEUE", "Client", "Table", "forfeit_json", "read_forfeit"]

#: Messages queued for one client before it is dropped as too slow.
MAX_QUEUE: Final = 256


def forfeit_json(forfeit: Forfeit) -> str:
    """A forfeit as the store keeps it, in the row after the game's last move.

    >>> forfeit_json(Forfeit(1, "crash", "RuntimeError: no"))
    '{"type":"forfeit","seat":1,"reason":"crash","detail":"RuntimeError: no"}'
    """
    body = {"type": "forfeit", "seat": forfeit.seat, "reason": forfeit.reason}
    return json.dumps({**body, "detail": forfeit.detail}, separators=(",", ":"))


def read_forfeit(text: str) -> Forfeit | None:
    """The forfeit a stored row holds (:func:`forfeit_json`), or ``None`` for a move's row.

    Raises:
        SerializationError: for a forfeit row that is not a valid forfeit.
    """
    if not text.startswith('{"type":"forfeit"'):
        return None
    try:
        data = json.loads(text)
        return Forfeit(int(data["seat"]), str(data["reason"]), str(data["detail"]))
    except (ValueError, KeyError, TypeError) as error:
        raise SerializationError("a forfeit", [f"{error} @ {text[:100]}"]) from error


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
        forfeit: the forfeit that ended the game, if a seat forfeited.
        clients: the clients attached.
        bots: the bots of the bot seats, each made when first asked for a
            move (an engine's process is started then), closed when the
            table is done with them.
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
        self.forfeit: Forfeit | None = None
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.last_used = time.monotonic()
        self.touched = time.monotonic()
        self.bots = TableBots([seat.bot for seat in seats], engines or {}, engine_time)
        self._messages: dict[int | None, str] = {}

    @property
    def version(self) -> int:
        """The state version: the number of moves played so far, and one more after a forfeit."""
        return len(self.actions) + (self.forfeit is not None)

    @property
    def stopped(self) -> bool:
        """Whether the game stopped unfinished at :attr:`max_moves`, with no winner."""
        return (
            not self.state.is_over
            and self.forfeit is None
            and self.max_moves is not None
            and len(self.actions) >= self.max_moves
        )

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, by the rules, at the move limit or by a forfeit."""
        return self.state.is_over or self.forfeit is not None or self.stopped

    @property
    def record(self) -> GameRecord:
        """The whole game as a :class:`~splendor.GameRecord` (built anew: linear in its length)."""
        record = GameRecord(
            self.players,
            self.seed,
            self.rules,
            tuple(self.actions),
            self.names,
            self.state.winners or None,
        )
        if self.forfeit is None:
            return record
        forfeit = self.forfeit
        return record.forfeited(forfeit.seat, forfeit.reason, forfeit.detail)

    @classmethod
    def from_stored(
        cls,
        stored: StoredGame,
        *,
        max_moves: int | None = None,
        engines: Mapping[str, str] | None = None,
        engine_time: float = 5.0,
    ) -> Table:
        """The table of a stored game, its moves (and forfeit) played again.

        The other arguments are those of :class:`Table`.

        Raises:
            splendor.errors.SplendorError: for a record or a row that does
                not load, or a move that is not legal where it was stored.
            ValueError: for seats that do not match the record's players.
        """
        record = from_json(stored.record, GameRecord)
        names = record.names or tuple(f"Player {n + 1}" for n in range(record.players))
        seats = tuple(
            Seat(name, seat.kind, seat.bot, seat.secret_digest)
            for name, seat in zip(names, stored.seats, strict=True)
        )
        table = cls(
            stored.id,
            seats,
            record,
            max_moves=max_moves,
            engines=engines,
            engine_time=engine_time,
        )
        table.catch_up(stored.actions)
        return table

    def check_turn(self, seat: int, version: int) -> None:
        """Refuse a move of ``seat`` made at ``version`` that is not the one awaited now.

        Raises:
            ServerError: ``game_over``, ``stale`` (another move came first)
                or ``not_your_turn``.
        """
        if self.is_over:
            raise ServerError("game_over", "the game is over")
        if version != self.version:
            raise ServerError(
                "stale",
                f"the move was made at version {version}; the game is at version {self.version}",
            )
        if self.state.current_player != seat:
            raise ServerError("not_your_turn", f"it is seat {self.state.current_player + 1}'s turn")

    def after(self, seat: int, action: Action) -> GameState:
        """The state after ``seat`` plays ``action``, which is not played yet.

        Raises:
            ServerError: ``illegal`` for an action the rules forbid, or a
                card the seat cannot see.
        """
        if (
            isinstance(action, Buy | Reserve)
            and action.card not in view(self.state, seat).visible()
        ):
            # The engine's reasons are the same for any card a seat cannot
            # play; this keeps it so whatever the engine says in future.
            raise ServerError("illegal", f"card #{action.card.id} is not yours to play")
        try:
            return apply(self.state, action)
        except SplendorError as error:
            raise ServerError("illegal", str(error)) from None

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat``."""
        return self.seats[seat].kind == "bot"

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
                f'{{"seat":{(len(self.actions) - 1) % len(self.seats)},'
                f'"action":{action_json(action)},"text":{json.dumps(str(action))}}}'
            )
        result: dict[str, object] | None = None
        if over:
            result = self._result()
        head = {"type": "state", "table": self.id, "version": self.version, "seat": seat}
        message = (
            f"{json.dumps(head, separators=(',', ':'))[:-1]},"
            f'"seats":{json.dumps(self.seats_json(), separators=(",", ":"))},'
            f'"view":{to_json(view(state, seat))},"legal":[{legal}],"last":{last},'
            f'"over":{json.dumps(over)},"result":{json.dumps(result)}}}'
        )
        self._messages[seat] = message
        return message

    def _result(self) -> dict[str, object]:
        state, forfeit = self.state, self.forfeit
        result: dict[str, object] = {
            "winners": list(state.winners),
            "points": [player.points for player in state.players],
            "cards": [len(player.cards) for player in state.players],
            "reason": "move_limit" if self.stopped else "rules",
        }
        if forfeit is not None:
            result["winners"] = [seat for seat in range(self.players) if seat != forfeit.seat]
            result["reason"] = "forfeit"
            result["forfeit"] = {
                "seat": forfeit.seat,
                "reason": forfeit.reason,
                "detail": forfeit.detail,
            }
        return result

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
            (
                *(action_json(action) for action in self.actions),
                *(() if self.forfeit is None else (forfeit_json(self.forfeit),)),
            ),
        )

    def catch_up(self, actions: Sequence[str]) -> None:
        """Play the stored moves this table lacks (their JSON, from its version on).

        A stored forfeit ends the game: it is the last row of a game.

        Raises:
            splendor.errors.SplendorError: for a row that is not a move legal
                here, or a forfeit, or anything after a forfeit.
        """
        state = self.state
        played = []
        forfeit = self.forfeit
        for text in actions:
            if forfeit is not None:
                raise SerializationError("a move", [f"no row follows a forfeit @ {text[:100]}"])
            forfeit = read_forfeit(text)
            if forfeit is None:
                action = from_json(text, Action)
                state = apply(state, action)
                played.append(action)
        self.actions.extend(played)
        self.state = state
        self.forfeit = forfeit
