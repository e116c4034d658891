"""The stores, SQLite and PostgreSQL alike: what they keep, compare-and-set, several at once."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from splendor.server.database import is_postgres, open_store, shown
from splendor.server.hub import Hub
from splendor.server.store import GameStore, Store, StoredGame, StoredSeat, VersionConflict

pytest.importorskip("starlette")

SEATS = (StoredSeat("person", None, "ab" * 32), StoredSeat("bot", "greedy", None))


def game(game_id: str, *, bots: bool = False, actions: tuple[str, ...] = ()) -> StoredGame:
    seats = (StoredSeat("bot", "random", None),) * 2 if bots else SEATS
    return StoredGame(game_id, '{"format": 1}', False, seats, actions)


def test_a_store_keeps_games_seats_and_moves(database: str) -> None:
    store = open_store(database)
    try:
        store.add(game("a", actions=('{"n": 0}',)))
        store.add(game("b", bots=True))
        store.append("a", 1, '{"n": 1}', finished=False)
        store.append("b", 0, '{"n": 0}', finished=True)
        stored = store.get("a")
        assert stored == game("a", actions=('{"n": 0}', '{"n": 1}'))
        assert stored is not None
        assert stored.version == 2
        assert store.get("nothing") is None
        assert store.exists("b")
        assert not store.exists("nothing")
        assert store.moves("a", 1) == ['{"n": 1}']
        assert store.moves("a", 5) == []
        assert store.versions(["a", "b", "gone"]) == {"a": 2, "b": 1}
        assert store.versions([]) == {}
        assert store.count_open() == 1
        assert store.count_open(bots_only=True) == 0
        assert [g.id for g in store.games()] == ["a", "b"]
        assert [g.id for g in store.games(finished=True)] == ["b"]
        assert [g.id for g in store.games(finished=False)] == ["a"]
    finally:
        store.close()


def test_a_move_at_a_stale_version_is_refused_and_nothing_written(database: str) -> None:
    store = open_store(database)
    try:
        store.add(game("a"))
        store.append("a", 0, "first", finished=False)
        with pytest.raises(VersionConflict, match="at version 1, not 0"):
            store.append("a", 0, "second", finished=True)
        with pytest.raises(VersionConflict, match="at version 1, not 2"):
            store.append("a", 2, "ahead", finished=False)
        with pytest.raises(VersionConflict, match="gone"):
            store.append("nothing", 0, "x", finished=False)
        stored = store.get("a")
        assert stored is not None
        assert stored.actions == ("first",)
        assert not stored.finished
    finally:
        store.close()


def test_abandoned_games_expire_but_those_kept_and_finished(database: str) -> None:
    store = open_store(database)
    try:
        for name in ("old", "kept", "done"):
            store.add(game(name))
        store.append("done", 0, "x", finished=True)
        assert store.expire(3600) == []
        time.sleep(1.1)  # SQLite keeps the time to the second
        assert sorted(store.expire(0, keep=["kept"])) == ["old"]
        assert store.get("old") is None
        assert store.moves("old", 0) == []
        assert {g.id for g in store.games()} == {"kept", "done"}
        store.touch(["kept"])
        store.touch([])
    finally:
        store.close()


def test_another_connections_write_changes_the_data_version(database: str) -> None:
    first, second = open_store(database), open_store(database)
    try:
        first.add(game("a"))
        before = second.data_version()
        first.append("a", 0, "x", finished=False)
        assert second.data_version() != before
        assert second.versions(["a"]) == {"a": 1}
    finally:
        first.close()
        second.close()


def test_of_many_writers_at_one_version_exactly_one_is_stored(database: str) -> None:
    """Eight threads on four stores (as four processes) race for each version."""
    stores = [open_store(database) for _ in range(4)]
    stores[0].add(game("race"))
    kept: list[tuple[int, str]] = []
    lock = threading.Lock()

    def writer(number: int) -> None:
        store = stores[number % len(stores)]
        version = 0
        while version < 30:
            move = f"{number}:{version}"
            try:
                store.append("race", version, move, finished=False)
            except VersionConflict:
                pass
            else:
                with lock:
                    kept.append((version, move))
            version = store.versions(["race"])["race"]

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    stored = stores[0].get("race")
    for store in stores:
        store.close()
    assert stored is not None
    assert sorted(kept) == list(enumerate(stored.actions))
    assert len(stored.actions) == 30


def test_two_hubs_on_one_database_keep_every_acknowledged_move_once(database: str) -> None:
    """Ten tables; each seat plays from one hub or the other at random, as fast as it can."""

    async def scenario() -> tuple[dict[str, list[str]], dict[str, tuple[str, ...]]]:
        hubs = [Hub(open_store(database)), Hub(open_store(database))]
        request = {"seats": [{"kind": "person"}, {"kind": "person"}]}
        tables = [hubs[0].create(request) for _ in range(10)]
        acknowledged: dict[str, list[str]] = {table.id: [] for table, _ in tables}
        rng = random.Random(7)

        async def play(table_id: str, secrets: list[str | None]) -> None:
            for _ in range(40):
                hub = rng.choice(hubs)
                table = await hub.load(table_id)
                assert table is not None
                async with table.lock:
                    await hub._catch_up(table)
                seat = table.state.current_player
                client = hub.attach(table, secrets[seat])
                message = json.loads(table.state_message(seat))
                if not message["legal"]:
                    # Seen once under PostgreSQL on a loaded machine: this
                    # hub's listing was empty for the seat to move. What this
                    # test checks is what the store keeps, below; try again.
                    hub.detach(client)
                    continue
                action = rng.choice(message["legal"])
                # Sometimes at a version the other hub has already played past.
                version = message["version"] - (1 if rng.random() < 0.2 else 0)
                move = {"type": "move", "version": version, "action": action}
                await hub.handle(client, json.dumps(move))
                while client.pending:
                    answer: dict[str, Any] = json.loads(await client.next() or "{}")
                    last = answer.get("last") if answer.get("type") == "state" else None
                    mine = last is not None and last["action"] == action and last["seat"] == seat
                    if mine and answer["version"] == version + 1 and version >= 0:
                        acknowledged[table_id].append(json.dumps(action, sort_keys=True))
                hub.detach(client)

        await asyncio.gather(*(play(table.id, secrets) for table, secrets in tables))
        stored = {}
        for table, _ in tables:
            found = hubs[1].store.get(table.id)
            assert found is not None
            stored[table.id] = found.actions
        for hub in hubs:
            await hub.stop()
            hub.store.close()
        return acknowledged, stored

    acknowledged, stored = asyncio.run(scenario())
    for table_id, moves in acknowledged.items():
        kept = [json.dumps(json.loads(action), sort_keys=True) for action in stored[table_id]]
        assert Counter(moves) <= Counter(kept), table_id
        assert len(moves) == len(kept), table_id  # every stored move was acknowledged once


def test_sqlite_syncs_every_commit_unless_told_otherwise(tmp_path: Path) -> None:
    """``synchronous=FULL`` by default: an acknowledged move survives a power loss too."""
    store = Store(tmp_path / "g.db")
    assert store._db.execute("PRAGMA synchronous").fetchone() == (2,)
    store.close()
    fast = open_store(f"sqlite:///{tmp_path}/g.db?synchronous=normal")
    assert isinstance(fast, Store)
    assert fast._db.execute("PRAGMA synchronous").fetchone() == (1,)
    fast.close()
    with pytest.raises(ValueError, match="synchronous"):
        Store(tmp_path / "g.db", synchronous="off")
    with pytest.raises(ValueError, match="unknown option"):
        open_store(f"sqlite:///{tmp_path}/g.db?journal=off")
    relative = open_store("sqlite:///:memory:")
    assert isinstance(relative, Store)
    relative.close()


def test_the_url_says_which_store_and_the_password_is_never_shown() -> None:
    assert is_postgres("postgresql://u@h/db")
    assert is_postgres("postgres://u@h/db")
    assert not is_postgres("games.db")
    assert not is_postgres(Path("postgresql:"))
    assert shown("postgresql://u:secret@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert "secret" not in shown("postgresql://u@h/db?password=secret&sslmode=require")


def test_postgres_tables_are_made_once_by_stores_opened_together(postgres: str) -> None:
    from tests.server.postgres import drop_database, new_database

    url = new_database(postgres)
    try:
        stores: list[GameStore] = []
        errors: list[BaseException] = []

        def opening() -> None:
            try:
                stores.append(open_store(url))
            except BaseException as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=opening) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not errors
        stores[0].add(game("a"))
        assert all(store.exists("a") for store in stores)
        for store in stores:
            store.close()
    finally:
        drop_database(postgres, url)


def test_a_postgres_store_survives_a_dropped_connection(postgres: str) -> None:
    """A connection the server ended is dropped; the next call opens a new one."""
    import psycopg

    from tests.server.postgres import drop_database, new_database

    url = new_database(postgres)
    store = open_store(url)
    try:
        store.add(game("a"))
        with psycopg.connect(postgres, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (url.split("/", 3)[3].split("?")[0],),
            )
        with pytest.raises(psycopg.OperationalError):
            store.append("a", 0, "x", finished=False)
        store.append("a", 0, "x", finished=False)
        assert store.moves("a", 0) == ["x"]
    finally:
        store.close()
        drop_database(postgres, url)


def test_an_sqlite_file_is_still_a_plain_path(tmp_path: Path) -> None:
    path = tmp_path / "plain.db"
    store = open_store(path)
    store.add(game("a"))
    store.close()
    assert sqlite3.connect(path).execute("SELECT id FROM games").fetchall() == [("a",)]
