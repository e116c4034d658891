"""The game server through its HTTP and websocket API (Starlette's test client)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient, WebSocketTestSession

from splendor import GameRecord, apply, from_json, legal_actions, new_game, to_json
from splendor.core.actions import Action, Buy, Take
from splendor.core.components import CARDS
from splendor.core.gems import Tokens
from splendor.players.bots import BOTS
from splendor.server import create_app
from splendor.server import engines as engines_module
from splendor.server.limits import Limits
from splendor.server.protocol import MAX_MESSAGE
from tests.server.helpers import check_message, greedy_choice, hidden_ids, receive_until

SEED = 20


def two_people(**extra: Any) -> dict[str, Any]:
    return {"seats": [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}], **extra}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, allow_seeds=True)) as test_client:
        yield test_client


def create(client: TestClient, request: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/tables", json=request)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def join(ws: WebSocketTestSession, secret: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "join", "secret": secret} if secret else {"type": "watch"}))
    return receive_state(ws)


def receive_state(ws: WebSocketTestSession) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    while message["type"] == "seats":
        message = ws.receive_json()
    return message


def receive_error(ws: WebSocketTestSession) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    while message["type"] == "seats":
        message = ws.receive_json()
    assert message["type"] == "error", message
    return message


def move(ws: WebSocketTestSession, version: int, action: Action | dict[str, Any]) -> None:
    body = json.loads(to_json(action)) if not isinstance(action, dict) else action
    ws.send_text(json.dumps({"type": "move", "version": version, "action": body}))


# Creating tables ------------------------------------------------------------


def test_create_gives_a_secret_link_per_person_and_a_spectator_link(client: TestClient) -> None:
    body = create(client, {"seats": [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]})
    people = [seat for seat in body["seats"] if seat["kind"] == "person"]
    assert len(people) == 1
    assert people[0]["link"].endswith(f"/t/{body['table']}#{people[0]['secret']}")
    assert len(people[0]["secret"]) >= 24
    assert "link" not in body["seats"][1]
    assert body["spectator"].endswith(f"/t/{body['table']}")
    summary = client.get(f"/api/tables/{body['table']}").json()
    assert [seat["name"] for seat in summary["seats"]] == ["Player 1", "greedy bot"]
    assert "secret" not in json.dumps(summary)


def test_tables_and_secrets_are_never_the_same(client: TestClient) -> None:
    bodies = [create(client, two_people()) for _ in range(5)]
    assert len({body["table"] for body in bodies}) == 5
    assert len({seat["secret"] for body in bodies for seat in body["seats"]}) == 10


def test_live_games_are_dealt_from_unguessable_seeds(db: Path) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        ids = [create(client, two_people())["table"] for _ in range(3)]
        refused = client.post("/api/tables", json=two_people(seed=1))
    assert refused.status_code == 400
    assert "seeds" in refused.json()["message"]
    from splendor.server.store import Store

    store = Store(db)
    seeds = [from_json(store.get(i).record, GameRecord).seed for i in ids]  # type: ignore[union-attr]  # stored above
    store.close()
    assert len(set(seeds)) == 3
    # 63 random bits each: fewer than 40 has odds of one in eight million.
    assert all(40 < seed.bit_length() <= 63 for seed in seeds)


def test_house_rules_are_played(client: TestClient) -> None:
    body = create(client, two_people(rules={"points_to_win": 5, "token_limit": 8}))
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        state = join(ws, None)
    assert state["view"]["rules"]["points_to_win"] == 5
    assert state["view"]["rules"]["token_limit"] == 8


@pytest.mark.parametrize(
    ("request_body", "reason"),
    [
        ({"seats": [{"kind": "person"}]}, "2 to 4 seats"),
        ({"seats": [{"kind": "person"}] * 5}, "2 to 4 seats"),
        ({"seats": [{"kind": "person"}, {"kind": "robot"}]}, "kind must be"),
        ({"seats": [{"kind": "person"}, {"kind": "bot", "bot": "os:system"}]}, "bot must be"),
        ({"seats": [{"kind": "person"}, {"kind": "person", "name": "x" * 99}]}, "name"),
        ({"seats": [{"kind": "person"}, {"kind": "person", "name": "a\u0000b"}]}, "name"),
        (two_people(rules={"points_to_win": 0}), "points_to_win"),
        (two_people(rules={"token_limit": True}), "token_limit"),
        (two_people(rules={"nobles_by_players": [3, 4, 11]}), "nobles"),
        (two_people(rules={"colour": "red"}), "unknown rule"),
        (two_people(extra=1), "unknown field"),
        ([1, 2], "JSON object"),
    ],
)
def test_create_refuses_a_bad_request_with_its_reason(
    client: TestClient, request_body: object, reason: str
) -> None:
    response = client.post("/api/tables", json=request_body)
    assert response.status_code == 400
    assert reason in response.json()["message"]


JSON = {"Content-Type": "application/json"}


def test_create_refuses_what_is_not_json_or_too_large(client: TestClient) -> None:
    assert client.post("/api/tables", content=b"{nope", headers=JSON).status_code == 400
    huge = client.post("/api/tables", content=b" " * 20000, headers=JSON)
    assert huge.status_code == 413
    assert huge.json()["error"] == "too_large"


def test_the_page_and_the_components_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "<script" in page.text
    assert "Content-Security-Policy" in page.headers
    assert client.get("/t/anything").text == page.text
    assert client.get("/static/app.js").status_code == 200
    components = client.get("/api/components").json()
    assert len(components["cards"]) == 90
    assert components["cards"]["1"]["cost"] == {
        gem.value: n for gem, n in CARDS[0].cost.items() if n
    }
    assert len(components["nobles"]) == 10


# Joining and moving ----------------------------------------------------------


def test_a_seat_gets_its_view_and_legal_actions_a_spectator_no_actions(
    client: TestClient,
) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    table = body["table"]
    with (
        client.websocket_connect(f"/ws/{table}") as first,
        client.websocket_connect(f"/ws/{table}") as second,
        client.websocket_connect(f"/ws/{table}") as watcher,
    ):
        mine = join(first, body["seats"][0]["secret"])
        theirs = join(second, body["seats"][1]["secret"])
        watched = join(watcher, None)
    assert (mine["seat"], theirs["seat"], watched["seat"]) == (0, 1, None)
    expected = [json.loads(to_json(a)) for a in legal_actions(state)]
    assert mine["legal"] == expected
    assert theirs["legal"] == []
    assert watched["legal"] == []
    for message in (mine, theirs, watched):
        check_message(message, [state])
        assert message["version"] == 0
        assert message["last"] is None


def test_an_unknown_secret_is_refused_and_the_socket_closed(client: TestClient) -> None:
    body = create(client, two_people())
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": "guess"}))
        assert ws.receive_json()["code"] == "unknown_secret"
        assert ws.receive()["type"] == "websocket.close"


def test_an_unknown_table_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws/nothing") as ws:
        assert ws.receive_json()["code"] == "not_found"
    assert client.get("/api/tables/nothing").status_code == 404
    assert client.get("/api/tables/nothing/record").status_code == 404


def test_a_move_reaches_every_client_with_the_new_version(client: TestClient) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    action = legal_actions(state)[0]
    table = body["table"]
    with (
        client.websocket_connect(f"/ws/{table}") as first,
        client.websocket_connect(f"/ws/{table}") as second,
        client.websocket_connect(f"/ws/{table}") as watcher,
    ):
        join(first, body["seats"][0]["secret"])
        join(second, body["seats"][1]["secret"])
        join(watcher, None)
        move(first, 0, action)
        after = apply(state, action)
        for ws, seat in ((first, 0), (second, 1), (watcher, None)):
            message = receive_state(ws)
            assert message["version"] == 1
            assert message["seat"] == seat
            assert message["last"]["seat"] == 0
            assert message["last"]["action"] == json.loads(to_json(action))
            assert message["last"]["text"] == str(action)
            check_message(message, [state, after])


def test_a_move_in_notation_is_played(client: TestClient) -> None:
    body = create(client, two_people(seed=SEED))
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        join(ws, body["seats"][0]["secret"])
        ws.send_text(json.dumps({"type": "move", "version": 0, "notation": "take wbg"}))
        message = receive_state(ws)
    assert message["version"] == 1
    assert message["view"]["own"]["tokens"] == {"white": 1, "blue": 1, "green": 1}


def refusal(ws: WebSocketTestSession, text: str) -> dict[str, Any]:
    ws.send_text(text)
    return receive_error(ws)


def test_an_illegal_move_is_refused_with_the_engines_reason(client: TestClient) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    card = state.board[2][0]
    assert card is not None
    with pytest.raises(Exception, match="cannot afford") as engine:
        apply(state, Buy(card))
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        join(ws, body["seats"][0]["secret"])
        move(ws, 0, Buy(card))
        error = receive_error(ws)
        assert error["code"] == "illegal"
        assert str(engine.value) in error["message"]
        assert error["version"] == 0
        ws.send_text(json.dumps({"type": "sync"}))
        assert receive_state(ws)["version"] == 0


def test_a_stale_version_is_refused_and_nothing_changes(client: TestClient) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        join(ws, body["seats"][0]["secret"])
        move(ws, 3, legal_actions(state)[0])
        error = receive_error(ws)
        assert error["code"] == "stale"
        assert "version 3" in error["message"]
        ws.send_text(json.dumps({"type": "sync"}))
        assert receive_state(ws)["version"] == 0
    summary = client.get(f"/api/tables/{body['table']}").json()
    assert summary["version"] == 0


def test_only_the_seat_to_move_may_move_and_spectators_never(client: TestClient) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    table = body["table"]
    with (
        client.websocket_connect(f"/ws/{table}") as second,
        client.websocket_connect(f"/ws/{table}") as watcher,
    ):
        join(second, body["seats"][1]["secret"])
        join(watcher, None)
        move(second, 0, legal_actions(state)[0])
        assert receive_error(second)["code"] == "not_your_turn"
        move(watcher, 0, legal_actions(state)[0])
        assert receive_error(watcher)["code"] == "spectator"
    assert client.get(f"/api/tables/{table}").json()["version"] == 0


MALFORMED = [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "dance"}', "malformed"),
    ('{"type": "move", "action": {"type": "take", "gems": {"white": 1}}}', "malformed"),
    ('{"type": "move", "version": true, "notation": "pass"}', "malformed"),
    ('{"type": "move", "version": 0}', "malformed"),
    ('{"type": "move", "version": 0, "notation": 5}', "malformed"),
    ('{"type": "move", "version": 0, "notation": "pass", "extra": 1}', "malformed"),
    ('{"type": "move", "version": 0, "action": {"type": "fly"}}', "bad_action"),
    ('{"type": "move", "version": 0, "action": {"type": "buy", "card": 999}}', "bad_action"),
    ('{"type": "move", "version": 0, "action": [[[[]]]]}', "bad_action"),
    ('{"type": "move", "version": 0, "notation": "buy the castle"}', "bad_action"),
    ("[" * 5000 + "]" * 3000, "malformed"),
    ('{"type": "move", "version": 0, "notation": "' + "x" * MAX_MESSAGE + '"}', "too_large"),
]


def test_malformed_and_oversized_messages_get_an_error_and_the_connection_survives(
    client: TestClient,
) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        join(ws, body["seats"][0]["secret"])
        for text, code in MALFORMED:
            error = refusal(ws, text)
            assert error["code"] == code, (text[:40], error)
        ws.send_bytes(b"\x00\x01")
        assert receive_error(ws)["code"] == "malformed"
        move(ws, 0, legal_actions(state)[0])
        assert receive_state(ws)["version"] == 1


def test_a_move_the_store_cannot_keep_is_not_played(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    from splendor.server.store import Store

    def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        join(ws, body["seats"][0]["secret"])
        monkeypatch.setattr(Store, "append", broken)
        move(ws, 0, legal_actions(state)[0])
        assert receive_error(ws)["code"] == "internal"
        monkeypatch.undo()
        ws.send_text(json.dumps({"type": "sync"}))
        assert receive_state(ws)["version"] == 0
        move(ws, 0, legal_actions(state)[0])
        assert receive_state(ws)["version"] == 1


def test_the_first_message_must_say_join_or_watch(client: TestClient) -> None:
    body = create(client, two_people(seed=SEED))
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        for text in ("hello", '{"type": "move"}', '{"type": "join"}', "x" * (MAX_MESSAGE + 1)):
            ws.send_text(text)
            assert ws.receive_json()["code"] == "malformed"
        assert join(ws, None)["seat"] is None


def test_a_card_the_seat_cannot_see_is_refused_like_any_other(client: TestClient) -> None:
    body = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    deck_card = state.decks[0][0]
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        join(ws, body["seats"][0]["secret"])
        move(ws, 0, Buy(deck_card))
        error = receive_error(ws)
    assert error["code"] == "illegal"
    assert error["message"] == f"card #{deck_card.id} is not yours to play"


# Whole games, persistence and bots -----------------------------------------------


def at_version(version: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the ``state`` message of ``version`` or later."""

    def wanted(message: dict[str, Any]) -> bool:
        return bool(message["type"] == "state" and message["version"] >= version)

    return wanted


def play_whole_game(client: TestClient, body: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The people and a spectator play a seeded game to the end; every message, per socket.

    The spectator's messages are last.
    """
    table = body["table"]
    entries = [*body["seats"], {"secret": None}]
    logs: list[list[dict[str, Any]]] = [[] for _ in entries]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in entries]
        for ws, entry, log in zip(sockets, entries, logs, strict=True):
            log.append(join(ws, entry["secret"]))
        latest = [log[-1] for log in logs]
        while not latest[-1]["over"]:
            mover = latest[-1]["view"]["current_player"]
            version = latest[-1]["version"]
            choice = greedy_choice(latest[mover], SEED)
            sockets[mover].send_text(
                json.dumps({"type": "move", "version": version, "action": choice})
            )
            for index, ws in enumerate(sockets):
                latest[index] = receive_until(ws.receive_text, at_version(version + 1), logs[index])
    return logs


@pytest.mark.parametrize("players", [2, 3])
def test_a_whole_game_never_shows_a_seat_a_hidden_card(client: TestClient, players: int) -> None:
    body = create(client, {"seats": [{"kind": "person"}] * players, "seed": SEED})
    logs = play_whole_game(client, body)
    record = from_json(client.get(f"/api/tables/{body['table']}/record").text, GameRecord)
    states = record.replay()
    assert states[-1].is_over
    checked = 0
    for log in logs:
        for message in log:
            if message["type"] == "state":
                check_message(message, states)
                checked += 1
            else:
                assert message["type"] == "seats"
    assert checked == (players + 1) * len(states)
    # Blind reserves happened, so the check had hidden reserved cards to look for.
    assert any(hidden_ids(s, 0) - {c.id for d in s.decks for c in d} for s in states)
    final = logs[-1][-1]
    assert final["over"]
    assert final["result"]["winners"] == list(states[-1].winners)
    assert final["result"]["points"] == [p.points for p in states[-1].players]


def test_a_finished_game_downloads_as_a_record_splendor_replay_accepts(
    client: TestClient, tmp_path: Path
) -> None:
    body = create(client, two_people(seed=SEED))
    early = client.get(f"/api/tables/{body['table']}/record")
    assert early.status_code == 409
    play_whole_game(client, body)
    response = client.get(f"/api/tables/{body['table']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = from_json(response.text, GameRecord)
    assert record.seed == SEED
    assert record.names == ("Ada", "Bo")
    assert record.result == record.final_state().winners
    path = tmp_path / "game.json"
    path.write_text(response.text)
    done = subprocess.run(
        [sys.executable, "-m", "splendor", "replay", "--no-step", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Ada" in done.stdout


def test_games_resume_after_a_restart_with_the_same_links(database: str) -> None:
    db = database
    state = new_game(2, seed=SEED)
    with TestClient(create_app(db, bot_delay=0, allow_seeds=True)) as client:
        body = create(client, two_people(seed=SEED))
        first_action = legal_actions(state)[0]
        with client.websocket_connect(f"/ws/{body['table']}") as ws:
            join(ws, body["seats"][0]["secret"])
            move(ws, 0, first_action)
            before = receive_state(ws)
    state = apply(state, first_action)
    with TestClient(create_app(db, bot_delay=0, allow_seeds=True)) as client:
        with client.websocket_connect(f"/ws/{body['table']}") as ws:
            resumed = join(ws, body["seats"][1]["secret"])
            assert resumed["version"] == 1
            assert resumed["view"]["players"] == before["view"]["players"]
            assert resumed["last"] == before["last"]
            second_action = legal_actions(state)[0]
            move(ws, 1, second_action)
            assert receive_state(ws)["version"] == 2
        with client.websocket_connect(f"/ws/{body['table']}") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": "not-a-seat"}))
            assert ws.receive_json()["code"] == "unknown_secret"


def test_a_bot_answers_a_persons_move(client: TestClient) -> None:
    body = create(
        client, {"seats": [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}], "seed": SEED}
    )
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        join(ws, body["seats"][0]["secret"])
        move(ws, 0, Take(Tokens(white=1, blue=1, green=1)))
        reply = receive_until(ws.receive_text, at_version(2), [])
    assert reply["version"] == 2
    assert reply["last"]["seat"] == 1
    assert reply["view"]["current_player"] == 0
    assert reply["legal"]
    assert client.get(f"/api/tables/{body['table']}").json()["version"] == 2


def test_bot_tables_play_to_the_end_and_resume_after_a_restart(db: Path) -> None:
    bots = {"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]}
    allowed = Limits(max_bot_tables=1)
    with TestClient(create_app(db, bot_delay=0.05, allow_seeds=True, limits=allowed)) as client:
        table = create(client, {**bots, "seed": 3})["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            if join(ws, None)["version"] < 3:
                receive_until(ws.receive_text, at_version(3), [])
        stopped_at = client.get(f"/api/tables/{table}").json()["version"]
    assert stopped_at >= 3
    with TestClient(create_app(db, bot_delay=0, allow_seeds=True, limits=allowed)) as client:
        with client.websocket_connect(f"/ws/{table}") as ws:
            message = join(ws, None)
            if not message["over"]:
                message = receive_until(ws.receive_text, lambda m: m.get("over") is True, [])
        record = from_json(client.get(f"/api/tables/{table}/record").text, GameRecord)
    assert message["result"]["winners"] == list(record.final_state().winners)
    assert len(record.actions) > stopped_at


def test_a_slow_bot_does_not_hold_up_other_tables(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    thinking = threading.Event()

    class SlowBot:
        name = "slow"

        def __call__(self, view: object, actions: Sequence[Action], rng: object) -> Action:
            thinking.set()
            time.sleep(2.0)
            return actions[0]

    monkeypatch.setattr(engines_module, "BOTS", {**BOTS, "slow": SlowBot})
    slow = create(client, {"seats": [{"kind": "bot", "bot": "slow"}, {"kind": "person"}]})
    busy = create(client, two_people(seed=SEED))
    state = new_game(2, seed=SEED)
    assert thinking.wait(10)
    with client.websocket_connect(f"/ws/{busy['table']}") as ws:
        join(ws, busy["seats"][0]["secret"])
        started = time.monotonic()
        move(ws, 0, legal_actions(state)[0])
        assert receive_state(ws)["version"] == 1
        answered = time.monotonic() - started
    assert answered < 1.5
    assert slow["seats"][0]["kind"] == "bot"
