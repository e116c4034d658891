"""Games end, moves cost the same however long the game, and several processes lose no move."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from splendor import GameRecord, from_json
from splendor.server import create_app
from splendor.server.database import open_store
from splendor.server.hub import Hub
from splendor.server.limits import Limits
from splendor.server.store import Store
from splendor.server.table import Client

#: A house rule under which no game ever ends: every take gives all its tokens back.
ENDLESS = {"token_limit": 0}


def people(**extra: Any) -> dict[str, Any]:
    return {"seats": [{"kind": "person"}, {"kind": "person"}], **extra}


async def drain(client: Client) -> dict[str, Any]:
    """The last message waiting for ``client``."""
    text = None
    while client.pending:
        text = await client.next()
    assert text is not None
    message: dict[str, Any] = json.loads(text)
    return message


async def play_first_legal(hub: Hub, clients: list[Client], moves: int) -> dict[str, Any]:
    """Each seat in turn plays its first legal action, up to ``moves`` times; the last state."""
    table = clients[0].table
    last = await drain(clients[0])
    for _ in range(moves):
        if table.is_over:
            break
        mover = clients[table.state.current_player]
        message = json.loads(table.state_message(mover.seat))
        move = {"type": "move", "version": message["version"], "action": message["legal"][0]}
        await hub.handle(mover, json.dumps(move))
        for client in clients:
            if client.pending:
                last = await drain(client)
                assert last["type"] in ("state", "seats"), last
    final: dict[str, Any] = json.loads(table.state_message(None))
    return final


def test_a_game_that_never_ends_by_the_rules_stops_at_the_move_limit(tmp_path: Path) -> None:
    async def scenario() -> dict[str, Any]:
        hub = Hub(Store(tmp_path / "g.db"), limits=Limits(max_moves=40))
        table, secrets = hub.create(people(rules=ENDLESS))
        clients = [hub.attach(table, secret) for secret in secrets]
        last = await play_first_legal(hub, clients, 100)
        assert table.is_over
        assert not table.state.is_over
        assert table.version == 40
        hub.store.close()
        return last

    last = asyncio.run(scenario())
    assert last["over"] is True
    assert last["version"] == 40
    assert last["legal"] == []
    assert last["result"]["winners"] == []
    assert last["result"]["reason"] == "move_limit"


def test_the_move_limit_is_the_play_game_bound_by_default() -> None:
    from splendor.players.bots import DEFAULT_MAX_TURNS

    assert Limits().max_moves == DEFAULT_MAX_TURNS


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


BOTS = {"seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}


def test_a_table_of_bots_only_is_refused_unless_the_server_allows_it(db: Path) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        refused = client.post("/api/tables", json={**BOTS, "rules": ENDLESS})
    assert refused.status_code == 403
    assert refused.json()["error"] == "no_bot_tables"
    assert "--max-bot-tables" in refused.json()["message"]
    allowed = Limits(max_bot_tables=1, max_moves=30)
    with TestClient(create_app(db, bot_delay=0, limits=allowed)) as client:
        first = client.post("/api/tables", json={**BOTS, "rules": ENDLESS})
        assert first.status_code == 201
        second = client.post("/api/tables", json=BOTS)
        assert second.status_code == 503
        assert second.json()["error"] == "too_many_tables"
        with client.websocket_connect(f"/ws/{first.json()['table']}") as ws:
            ws.send_text(json.dumps({"type": "watch"}))
            message = ws.receive_json()
            while not message.get("over"):
                message = ws.receive_json()
        # The bots' game stopped at the limit: a new table of bots may open.
        assert message["version"] == 30
        assert client.post("/api/tables", json=BOTS).status_code == 201


class Writes:
    """Every statement the store's connection runs, with its bound values spelled out."""

    def __init__(self, store: Store) -> None:
        self.statements: list[str] = []
        store._db.set_trace_callback(self.statements.append)

    def take(self) -> list[str]:
        taken, self.statements[:] = list(self.statements), []
        return [s for s in taken if not s.lstrip().upper().startswith("SELECT")]


def test_a_move_costs_the_same_at_the_end_of_a_long_game_as_at_the_start(db: Path) -> None:
    """Thousands of moves of an endless game: the store writes as much for the last as the first."""
    moves = 3000

    async def scenario() -> tuple[list[list[str]], int]:
        # Not synced to the disk at each commit: what is written is the point.
        store = Store(db, synchronous="normal")
        hub = Hub(store, limits=Limits(max_moves=moves + 10))
        table, secrets = hub.create(people(rules=ENDLESS))
        clients = [hub.attach(table, secret) for secret in secrets]
        writes = Writes(store)
        per_move: list[list[str]] = []
        for _ in range(moves):
            mover = clients[table.state.current_player]
            message = json.loads(table.state_message(mover.seat))
            move = {"type": "move", "version": message["version"], "action": message["legal"][0]}
            await hub.handle(mover, json.dumps(move))
            per_move.append(writes.take())
            for client in clients:
                if client.pending:
                    assert (await drain(client))["type"] == "state"
        assert json.loads(table.state_message(None))["version"] == moves
        store.close()
        return per_move, table.version

    per_move, version = asyncio.run(scenario())
    assert version == moves

    def size(writes: list[str]) -> int:
        return sum(len(statement) for statement in writes)

    early = [size(w) for w in per_move[10:110]]
    late = [size(w) for w in per_move[-100:]]
    assert all(len(w) == len(per_move[10]) for w in per_move[10:])
    # A few more digits in the version, nothing that grows with the game.
    assert max(late) <= max(early) + 16, (max(early), max(late))

    # The game resumes after a restart, and the next move costs the same.
    async def resumed() -> int:
        store = Store(db)
        hub = Hub(store, limits=Limits(max_moves=moves + 10))
        assert not hub.tables  # nothing is loaded before it is asked for
        (game_id,) = [game.id for game in store.games()]
        table = await hub.load(game_id)
        assert table is not None
        assert table.version == moves
        assert not table.is_over
        store.close()
        return table.version

    assert asyncio.run(resumed()) == moves


def test_two_hubs_on_one_database_never_lose_an_acknowledged_move(database: str) -> None:
    """Process A and process B each hold the table; B's move at a stale version is refused."""

    async def scenario() -> None:
        first = Hub(open_store(database), allow_seeds=True)
        second = Hub(open_store(database), allow_seeds=True)
        table, secrets = first.create(people(seed=4))
        other = await second.load(table.id)
        assert other is not None
        a = first.attach(table, secrets[0])
        b = second.attach(other, secrets[0])
        state_a, state_b = await drain(a), await drain(b)
        take, reserve = state_a["legal"][0], state_b["legal"][-1]
        assert take != reserve
        await first.handle(a, json.dumps({"type": "move", "version": 0, "action": take}))
        assert (await drain(a))["version"] == 1
        await second.handle(b, json.dumps({"type": "move", "version": 0, "action": reserve}))
        answers = []
        while b.pending:
            answers.append(json.loads(await b.next() or "{}"))
        # B reloaded: its client sees A's move, and B's own move was refused as stale.
        assert [m["type"] for m in answers] == ["state", "error"]
        assert answers[0]["version"] == 1
        assert answers[0]["last"]["action"] == take
        assert answers[1]["code"] == "stale"
        assert other.version == 1
        stored = first.store.get(table.id)
        assert stored is not None
        assert [json.loads(action) for action in stored.actions] == [take]
        # A move in B now follows the stored version and is kept.
        state_b = json.loads(other.state_message(1))
        b1 = second.attach(other, secrets[1])
        await drain(b1)
        again = {"type": "move", "version": 1, "action": state_b["legal"][0]}
        await second.handle(b1, json.dumps(again))
        assert (await drain(b1))["version"] == 2
        # A learns of it by following the store.
        await first.follow()
        assert table.version == 2
        first.store.close()
        second.store.close()

    asyncio.run(scenario())


def test_a_file_of_whole_records_is_converted_to_moves(db: Path) -> None:
    """A database of the earlier layout (a record rewritten per move) opens and plays on."""
    from splendor import legal_actions, to_json

    record = GameRecord.start(2, seed=9, names=("Ada", "Bo"))
    for _ in range(5):
        record = record.append(legal_actions(record.final_state())[0])
    old = sqlite3.connect(db)
    old.executescript(
        """
        CREATE TABLE games (id TEXT PRIMARY KEY, record TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            created TEXT NOT NULL DEFAULT (datetime('now')),
            updated TEXT NOT NULL DEFAULT (datetime('now')));
        CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
            kind TEXT NOT NULL, bot TEXT, secret_digest TEXT, PRIMARY KEY (game_id, seat));
        """
    )
    old.execute("INSERT INTO games (id, record) VALUES ('old', ?)", (to_json(record),))
    for seat in range(2):
        old.execute("INSERT INTO seats VALUES ('old', ?, 'person', NULL, 'x')", (seat,))
    old.commit()
    old.close()
    store = Store(db)
    stored = store.get("old")
    assert stored is not None
    assert stored.version == 5
    assert from_json(stored.record, GameRecord).actions == ()
    hub = Hub(store)
    table = hub.table("old")
    assert table is not None
    assert table.record == record
    store.close()
