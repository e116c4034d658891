"""The adapter for csplendor's USI-like protocol: SPN, the move notation, and engine processes."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from splendor import (
    CARDS,
    NOBLES,
    Bot,
    Buy,
    GameRecord,
    GameState,
    GreedyBot,
    InvalidArgumentError,
    NotationError,
    Pass,
    PlayerView,
    ReserveFromDeck,
    Rules,
    apply,
    from_json,
    legal_actions,
    new_game,
    play_game,
    to_json,
    view,
)
from splendor.errors import (
    EngineCrashedError,
    EngineMoveError,
    EngineProtocolError,
    EngineTimeoutError,
)
from splendor.remote.usi import (
    UsiEngine,
    open_usi_engine,
    parse_usi_move,
    spn_card_id,
    spn_noble_id,
    usi_move,
    view_to_spn,
)

ENGINE = [sys.executable, str(Path(__file__).with_name("usi_engine.py"))]

# csplendor's numbering, from its USI document: the ids of each tier and bonus.
THEIR_RANGES = [
    (range(8), 1, "blue"),
    (range(8, 16), 1, "red"),
    (range(16, 24), 1, "black"),
    (range(24, 32), 1, "white"),
    (range(32, 40), 1, "green"),
    (range(40, 46), 2, "blue"),
    (range(46, 52), 2, "red"),
    (range(52, 58), 2, "black"),
    (range(58, 64), 2, "white"),
    (range(64, 70), 2, "green"),
    (range(70, 74), 3, "blue"),
    (range(74, 78), 3, "red"),
    (range(78, 82), 3, "black"),
    (range(82, 86), 3, "white"),
    (range(86, 90), 3, "green"),
]
# Its nobles' requirements (white, blue, green, red, black), by its id.
THEIR_NOBLES = [
    (0, 0, 4, 4, 0), (0, 0, 0, 4, 4), (0, 4, 4, 0, 0), (4, 0, 0, 0, 4),
    (4, 4, 0, 0, 0), (4, 0, 0, 4, 0), (3, 0, 0, 3, 3), (3, 3, 3, 0, 0),
    (0, 0, 3, 3, 3), (0, 3, 3, 3, 0), (3, 3, 0, 0, 3), (0, 3, 3, 0, 3),
]  # fmt: skip
COLOURS = ("white", "blue", "green", "red", "black")


def test_card_ids_map_one_to_one_by_tier_and_bonus() -> None:
    theirs = {spn_card_id(card): card for card in CARDS}
    assert sorted(theirs) == list(range(90))
    for ids, tier, bonus in THEIR_RANGES:
        for their_id in ids:
            assert theirs[their_id].tier == tier
            assert theirs[their_id].bonus.value == bonus
    # a few cards of its table, cost by cost: (id, points, cost)
    for their_id, points, cost in [
        (0, 0, (0, 0, 0, 0, 3)),
        (7, 1, (0, 0, 0, 4, 0)),
        (8, 0, (3, 0, 0, 0, 0)),
        (39, 1, (0, 0, 0, 0, 4)),
        (40, 1, (0, 2, 2, 3, 0)),
        (69, 3, (0, 0, 6, 0, 0)),
        (70, 3, (3, 0, 3, 3, 5)),
        (89, 5, (0, 7, 3, 0, 0)),
    ]:
        card = theirs[their_id]
        assert card.points == points
        assert tuple(card.cost[c] for c in COLOURS) == cost


def test_noble_ids_map_by_requirement() -> None:
    ids = [spn_noble_id(noble) for noble in NOBLES]
    assert len(set(ids)) == 10
    for noble in NOBLES:
        assert THEIR_NOBLES[spn_noble_id(noble)] == tuple(noble.requirement[c] for c in COLOURS)
    # the two nobles of csplendor that the published game does not have
    assert set(range(12)) - set(ids) == {5, 11}


def _midgame(seed: int, turns: int) -> GameState:
    state = new_game(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _with_blind_reserves() -> GameState:
    state = new_game(2, seed=2)
    state = apply(state, ReserveFromDeck(3))  # seat 0, blind
    return apply(state, ReserveFromDeck(2))  # seat 1, blind


def test_spn_of_a_view_with_blind_reserves() -> None:
    mover = view(_with_blind_reserves(), 0)
    assert mover.own is not None
    own_card = mover.own.reserved[0]
    spn = view_to_spn(mover)
    body, current = spn.rsplit(" ", 1)
    assert current == "0"
    bank, visible, decks, nobles, p0, p1 = body.split(" | ")
    assert bank == "bank:W4U4G4R4K4D3"
    assert decks == "decks:36,25,15"  # 40 - 4, 30 - 4 - 1, 20 - 4 - 1
    assert nobles == "nobles:[" + ",".join(str(spn_noble_id(n)) for n in mover.nobles) + "]"
    assert visible.startswith("visible:L1[")
    assert visible.count(",") == 9
    assert p0 == (
        f"P0:gems:W0U0G0R0K0D1;bonuses:W0U0G0R0K0;points:0;"
        f"reserved:[{spn_card_id(own_card)}];bought:[]"
    )
    assert p1 == "P1:gems:W0U0G0R0K0D1;bonuses:W0U0G0R0K0;points:0;reserved:[?L2];bought:[]"
    assert f"reserved:[?C{spn_card_id(own_card)}]" in view_to_spn(mover, own_blind="marked")
    assert "P0:gems:W0U0G0R0K0D1;bonuses:W0U0G0R0K0;points:0;reserved:[?L3]" in view_to_spn(
        mover, own_blind="hidden"
    )
    # the return phase after a blind reserve: one card fewer, the gold taken
    after = view_to_spn(mover, deck_reserve=1)
    assert "decks:35,25,15" in after
    assert "bank:W4U4G4R4K4D2" in after
    assert (
        f"P0:gems:W0U0G0R0K0D2;bonuses:W0U0G0R0K0;points:0;reserved:[{spn_card_id(own_card)},?L1]"
        in after
    )


def test_spn_of_cards_bought_and_empty_slots() -> None:
    state = _midgame(11, 60)
    mover = view(state, state.current_player)
    spn = view_to_spn(mover)
    for seat, player in enumerate(mover.players):
        bought = ",".join(str(spn_card_id(card)) for card in player.cards)
        assert f"P{seat}:" in spn
        assert f"bought:[{bought}]" in spn
        assert f"points:{player.points};" in spn
    row = mover.board[0]
    assert "L1[" + ",".join("-" if c is None else str(spn_card_id(c)) for c in row) + "]" in spn


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: view(new_game(3, seed=1), 0), "two players"),
        (
            lambda: view(new_game(2, seed=1, rules=attrs.evolve(Rules(), points_to_win=21)), 0),
            "rules",
        ),
        (lambda: view(new_game(2, seed=1), 1), "seat to move"),
        (lambda: view(new_game(2, seed=1), None), "seat to move"),
    ],
)
def test_views_spn_cannot_carry_are_refused(make: Callable[[], PlayerView], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        view_to_spn(make())


FORMS = ("take:", "reserve:C", "reserve:L", "buy:C", "/return:", "/gold:", "noble:N")


def _read_back(seed: int) -> set[str]:
    state = new_game(2, seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    while not state.is_over and state.turn < 120:
        mover = view(state, state.current_player)
        actions = legal_actions(mover)
        for action in actions:
            text = usi_move(action, mover)
            seen.update(part for part in FORMS if part in text)
            assert parse_usi_move(text, mover, actions) == action, text
        state = apply(state, rng.choice(actions))
    return seen


def test_every_listed_action_reads_back_from_its_usi_text() -> None:
    seen: set[str] = set()
    for seed in range(6):
        seen |= _read_back(seed)
    assert seen == set(FORMS)


def test_a_buy_without_gold_named_spends_the_least_gold() -> None:
    checked = 0
    for seed in range(40):
        state = _midgame(seed, 12)
        mover = view(state, state.current_player)
        actions = legal_actions(mover)
        buys = [a for a in actions if isinstance(a, Buy) and a.payment is not None]
        for card in {a.card for a in buys}:
            ways = [a for a in buys if a.card == card]
            if len(ways) < 2:
                continue
            least = min(ways, key=lambda a: a.payment["gold"] if a.payment else 0)
            assert parse_usi_move(f"buy:C{spn_card_id(card)}", mover, actions) == least
            for way in ways:
                assert parse_usi_move(usi_move(way, mover), mover, actions) == way
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize(
    "text",
    [
        "",
        "castle",
        "take:",
        "take:WXG",
        "take:WUG/gold:W1",
        "buy:C90",
        "buy:C-1",
        "buy:C3/gold:D1",
        "buy:C3/gold:W",
        "reserve:L4",
        "reserve:C3/return:W/return:U",
        "take:WUG noble:N5",
        "take:WUG ponder",
        "noble:N3 noble:N4",
        "return:",
    ],
)
def test_text_that_is_not_a_usi_move_is_refused(text: str) -> None:
    state = new_game(2, seed=1)
    mover = view(state, 0)
    with pytest.raises(NotationError):
        parse_usi_move(text, mover, legal_actions(mover))


def test_a_move_that_is_not_legal_is_refused() -> None:
    state = new_game(2, seed=1)
    mover = view(state, 0)
    actions = legal_actions(mover)
    expensive = mover.board[2][0]
    assert expensive is not None
    with pytest.raises(NotationError, match="not one of the legal actions"):
        parse_usi_move(f"buy:C{spn_card_id(expensive)}", mover, actions)
    with pytest.raises(NotationError, match="not one of the legal actions"):
        parse_usi_move("pass", mover, actions)
    with pytest.raises(NotationError, match="not one of the legal actions"):
        parse_usi_move("take:WWU", mover, actions)


def _play(engine: UsiEngine, seed: int, seat: int) -> GameRecord:
    bots: list[Bot] = [engine, GreedyBot()] if seat == 0 else [GreedyBot(), engine]
    record = play_game(bots, seed=seed)
    assert record.result is not None
    assert record.replay()[-1] == record.final_state()
    assert from_json(to_json(record), GameRecord) == record
    return record


def test_an_engine_plays_whole_games_against_the_greedy_bot() -> None:
    with open_usi_engine(ENGINE, time=2.0) as engine:
        assert engine.name == "tiny-usi"
        assert engine.author == "tests"
        assert set(engine.options) == {"Style", "Fault"}
        for seat in (0, 1):
            _play(engine, seed=seat, seat=seat)
    assert engine.returncode == 0


def test_a_blind_reserve_over_the_limit_gets_its_return_in_a_second_question() -> None:
    with open_usi_engine(ENGINE, options={"Style": "deck"}, time=2.0, name="deck") as engine:
        assert engine.name == "deck"
        record = _play(engine, seed=0, seat=0)
    blind = [a for a in record.actions[::2] if isinstance(a, ReserveFromDeck)]
    assert blind
    assert all(a.returned.total == 1 for a in blind)


@pytest.mark.parametrize(
    ("fault", "error"),
    [
        ("hang", EngineTimeoutError),
        ("illegal", EngineMoveError),
        ("exit", EngineCrashedError),
        ("flood", EngineTimeoutError),
        ("long", EngineProtocolError),
    ],
)
def test_a_faulty_engine_raises_and_is_ended(fault: str, error: type[Exception]) -> None:
    engine = open_usi_engine(ENGINE, options={"Fault": fault}, time=0.3, grace=0.3)
    mover = view(new_game(2, seed=1), 0)
    started = time.monotonic()
    with pytest.raises(error):
        engine(mover, legal_actions(mover), random.Random(0))
    assert time.monotonic() - started < 5
    assert engine.returncode is not None
    engine.close()


def test_an_unknown_option_or_command_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="no option"):
        open_usi_engine(ENGINE, options={"Depth": 3})
    with pytest.raises(InvalidArgumentError, match="command"):
        open_usi_engine("")
    with pytest.raises(EngineCrashedError, match="cannot start"):
        open_usi_engine(["/nonexistent/engine"])
    with pytest.raises(EngineTimeoutError):
        open_usi_engine([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.3)


def test_a_pass_with_a_noble_reads_from_a_bare_noble_move() -> None:
    # the notation has no pass with a noble; a bare noble:N<id> stands for it
    mover = view(new_game(2, seed=1), 0)
    noble = mover.nobles[0]
    actions = (Pass(noble=noble),)
    assert parse_usi_move(f"noble:N{spn_noble_id(noble)}", mover, actions) == actions[0]


def test_a_flood_on_stderr_is_drained_and_its_tail_kept() -> None:
    with open_usi_engine(ENGINE, options={"Fault": "stderr"}, time=5.0) as engine:
        mover = view(new_game(2, seed=1), 0)
        action = engine(mover, legal_actions(mover), random.Random(0))
        assert action in legal_actions(mover)
        # stderr is a pipe of its own, drained as it comes: give it a moment
        deadline = time.monotonic() + 10
        while not engine.stderr_tail.endswith("the last line\n") and time.monotonic() < deadline:
            time.sleep(0.01)
        tail = engine.stderr_tail
    assert tail.endswith("the last line\n")
    assert len(tail) == 65_536
