"""The referee: time controls, forfeits, fair schedules; ratings of 2 to 4 players."""

from __future__ import annotations

import itertools
import math
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from splendor import (
    Action,
    Bot,
    GameRecord,
    GreedyBot,
    InvalidArgumentError,
    PlayerView,
    RandomBot,
    Take,
    Tokens,
    from_json,
    play_game,
    to_json,
)
from splendor.arena import referee
from splendor.arena.ratings import GameResult, rate, rate_skill
from splendor.arena.referee import TABLE_DEALS, Table, TimeControl, fair_schedule, referee_game
from splendor.arena.runs import game_seed
from splendor.arena.tournament import round_robin
from splendor.errors import (
    EngineCrashedError,
    EngineMoveError,
    EngineProtocolError,
    EngineTimeoutError,
    MissingExtraError,
)
from splendor.formats.record import Forfeit


class Clock:
    """A stand-in for the referee's clock: time passes only when a bot says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The referee's clock, replaced by one that only :class:`Sleeps` moves on."""
    stand_in = Clock()
    monkeypatch.setattr(referee, "_now", stand_in)
    return stand_in


class Sleeps:
    """A greedy bot whose every move takes ``seconds`` on ``clock``."""

    name = "sleeps"

    def __init__(self, seconds: float, clock: Clock) -> None:
        self.seconds = seconds
        self.clock = clock
        self.greedy = GreedyBot()

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        self.clock.now += self.seconds
        return self.greedy(view, actions, rng)


class FailsAt:
    """A greedy bot that does ``what`` at its ``turn``-th move."""

    def __init__(self, turn: int, what: object) -> None:
        self.turn = turn
        self.what = what
        self.moves = 0
        self.greedy = GreedyBot()

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        self.moves += 1
        if self.moves == self.turn:
            if isinstance(self.what, BaseException):
                raise self.what
            return self.what  # type: ignore[return-value]  # not an action, on purpose
        return self.greedy(view, actions, rng)


# Time controls.


def test_time_controls_are_checked() -> None:
    assert TimeControl(move=0.5).budget(None) == 0.5
    assert TimeControl(game=60, increment=1).budget(12.0) == 12.0
    assert TimeControl(move=2.0, game=60).budget(1.5) == 1.5
    assert TimeControl(move=2.0, game=60).budget(30.0) == 2.0
    assert TimeControl().budget(None) is None
    for bad in (
        {"move": 0},
        {"move": -1.0},
        {"move": math.inf},
        {"move": math.nan},
        {"game": "60"},
        {"game": True},
        {"increment": -1.0},
        {"increment": None},
        {"increment": 1.0},
    ):
        arguments: dict[str, Any] = bad  # wrong on purpose: the checks are tested
        with pytest.raises(InvalidArgumentError, match="TimeControl"):
            TimeControl(**arguments)


# Games without a fault are play_game's games.


def test_a_game_without_faults_is_play_games_game() -> None:
    bots: list[Bot] = [GreedyBot(), RandomBot(), GreedyBot()]
    refereed = referee_game(bots, seed=9, time_control=TimeControl(move=5.0, game=600.0))
    assert refereed == play_game(bots, seed=9)
    assert refereed.forfeit is None
    assert refereed.result is not None


def test_an_unfinished_game_stops_at_max_turns_without_result() -> None:
    record = referee_game([RandomBot(), RandomBot()], seed=1, max_turns=5, names=["a", "b"])
    assert (len(record.actions), record.result, record.forfeit) == (5, None, None)
    assert record.names == ("a", "b")


def test_bad_arguments_are_refused_before_any_move() -> None:
    with pytest.raises(InvalidArgumentError, match="2 to 4 bots"):
        referee_game([GreedyBot()], seed=1)
    with pytest.raises(InvalidArgumentError, match="callable"):
        referee_game([GreedyBot(), 3], seed=1)  # type: ignore[list-item]  # on purpose
    with pytest.raises(InvalidArgumentError, match="max_turns"):
        referee_game([GreedyBot(), GreedyBot()], seed=1, max_turns=-1)
    with pytest.raises(InvalidArgumentError, match="time_control"):
        referee_game([GreedyBot(), GreedyBot()], seed=1, time_control=0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seed"):
        referee_game([GreedyBot(), GreedyBot()], seed="x")  # type: ignore[arg-type]  # on purpose


# Forfeits.


def _check_forfeit(record: GameRecord, seat: int, reason: str, moves: int) -> Forfeit:
    """The record's forfeit, after checking that the record is valid and says who won."""
    assert record.forfeit is not None
    assert (record.forfeit.seat, record.forfeit.reason) == (seat, reason)
    assert record.result == tuple(s for s in range(record.players) if s != seat)
    assert len(record.actions) == moves
    assert not record.final_state().is_over
    assert record.final_state().current_player == seat
    assert from_json(to_json(record), GameRecord) == record
    assert record.replay()[-1] == record.final_state()
    return record.forfeit


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (ZeroDivisionError("broken"), "crash"),
        (EngineCrashedError("exit status 3"), "crash"),
        (EngineTimeoutError("no bestmove within 0.6 s"), "timeout"),
        (EngineProtocolError("not JSON"), "protocol"),
        (EngineMoveError("index 99 out of range"), "illegal-move"),
    ],
)
def test_a_bot_that_raises_forfeits_with_the_reason(error: Exception, reason: str) -> None:
    record = referee_game([GreedyBot(), FailsAt(3, error)], seed=4)
    forfeit = _check_forfeit(record, 1, reason, moves=5)
    assert forfeit.detail == f"{type(error).__name__}: {error}"


def test_a_bot_that_returns_no_action_forfeits_for_an_illegal_move() -> None:
    record = referee_game([FailsAt(2, "take 3 red"), GreedyBot()], seed=4)
    forfeit = _check_forfeit(record, 0, "illegal-move", moves=2)
    assert forfeit.detail == "FailsAt returned 'take 3 red', not an action"


def test_a_forfeit_names_the_seat_as_the_record_does() -> None:
    record = referee_game([FailsAt(2, "take 3 red"), GreedyBot()], seed=4, names=["mine", "g"])
    forfeit = _check_forfeit(record, 0, "illegal-move", moves=2)
    assert forfeit.detail == "mine returned 'take 3 red', not an action"
    assert record.names == ("mine", "g")


def test_a_bot_that_plays_an_illegal_action_forfeits() -> None:
    greedy_first = play_game([GreedyBot(), GreedyBot(), GreedyBot()], seed=4, max_turns=1)
    illegal = Take(Tokens(red=3))  # three of one colour is never legal
    record = referee_game([GreedyBot(), GreedyBot(), FailsAt(1, illegal)], seed=4)
    forfeit = _check_forfeit(record, 2, "illegal-move", moves=2)
    assert record.actions[0] == greedy_first.actions[0]
    assert forfeit.detail.startswith("IllegalActionError: turn 3 (player 2, take 3R)")


def test_a_move_over_the_time_per_move_is_a_timeout(clock: Clock) -> None:
    record = referee_game(
        [GreedyBot(), Sleeps(0.05, clock)], seed=2, time_control=TimeControl(move=0.01)
    )
    forfeit = _check_forfeit(record, 1, "timeout", moves=1)
    assert forfeit.detail == "the move took 0.050 s; the bound was 0.010 s"


def test_a_move_within_the_time_per_move_is_played(clock: Clock) -> None:
    record = referee_game(
        [GreedyBot(), Sleeps(0.008, clock)],
        seed=2,
        time_control=TimeControl(move=0.01),
        max_turns=8,
    )
    assert (record.forfeit, len(record.actions)) == (None, 8)


def test_the_game_clock_runs_down_and_the_increment_refills_it(clock: Clock) -> None:
    # 0.02 s a move against 0.07 s on the clock: the fourth move runs out.
    record = referee_game(
        [GreedyBot(), Sleeps(0.02, clock)], seed=2, time_control=TimeControl(game=0.07)
    )
    _check_forfeit(record, 1, "timeout", moves=7)
    # An increment of 0.03 s a move keeps the clock above the moves' 0.02 s.
    record = referee_game(
        [GreedyBot(), Sleeps(0.02, clock)],
        seed=2,
        time_control=TimeControl(game=0.07, increment=0.03),
        max_turns=16,
    )
    assert (record.forfeit, len(record.actions)) == (None, 16)


# Fair schedules.


def test_two_players_play_each_deal_in_both_orders() -> None:
    tables = fair_schedule(["a", "b", "c"], players=2, deals=3, seed=7)
    assert len(tables) == math.comb(3, 2) * 3 * 2
    by_deal: dict[int, list[tuple[str, ...]]] = {}
    for table in tables:
        by_deal.setdefault(table.seed, []).append(table.seats)
    assert len(by_deal) == 9
    for seats in by_deal.values():
        assert sorted(seats) == sorted([seats[0], seats[0][::-1]])
    assert tables[0] == Table(("a", "b"), game_seed(7, 0))
    assert tables[6] == Table(("a", "c"), game_seed(7, TABLE_DEALS))


@pytest.mark.parametrize("players", [3, 4])
def test_more_players_play_each_deal_once_from_every_seat(players: int) -> None:
    entrants = ["w", "x", "y", "z", "v"][: players + 1]
    tables = fair_schedule(entrants, players=players, deals=2, seed=1)
    assert len(tables) == math.comb(players + 1, players) * 2 * players
    by_deal: dict[int, list[tuple[str, ...]]] = {}
    for table in tables:
        by_deal.setdefault(table.seed, []).append(table.seats)
    for seats in by_deal.values():
        assert len(seats) == players
        for seat in range(players):  # every entrant once at every seat
            assert sorted(s[seat] for s in seats) == sorted(seats[0])
    counts = Counter(name for table in tables for name in table.seats)
    assert len(set(counts.values())) == 1


def test_schedules_are_reproducible_and_seeds_separate_them() -> None:
    one = fair_schedule(["a", "b"], players=2, deals=4, seed=3)
    assert one == fair_schedule(["a", "b"], players=2, deals=4, seed=3)
    other = fair_schedule(["a", "b"], players=2, deals=4, seed=4)
    assert not {t.seed for t in one} & {t.seed for t in other}


@pytest.mark.parametrize(
    ("entrants", "players", "deals", "seed", "message"),
    [
        (["a", "a"], 2, 1, 0, "distinct"),
        ("ab", 2, 1, 0, "sequence"),
        (["a", 1], 2, 1, 0, "distinct str"),
        (["a", "b"], 3, 1, 0, "at least 3 entrants"),
        (["a", "b"], 5, 1, 0, "players"),
        (["a", "b"], 2, 0, 0, "deals"),
        (["a", "b"], 2, TABLE_DEALS, 0, "deals"),
        (["a", "b"], 2, 1, 1.5, "seed"),
    ],
)
def test_bad_schedules_are_refused(
    entrants: object, players: int, deals: int, seed: object, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        fair_schedule(entrants, players, deals, seed)  # type: ignore[arg-type]  # on purpose


# Ratings.


def _result(
    index: int, entrants: tuple[int, ...], winners: tuple[int, ...], forfeit: Forfeit | None = None
) -> GameResult:
    n = len(entrants)
    return GameResult(index, index, entrants, winners, (10,) * n, (5,) * n, 50, forfeit)


def test_a_forfeit_ranks_the_forfeiter_last_and_ties_the_rest() -> None:
    game = GameResult(0, 1, (0, 1, 2), (0, 2), (3, 14, 9), (2, 9, 6), 40, Forfeit(1, "crash"))
    assert game.ranks() == (0, 1, 0)
    assert sorted(game.pairs()) == [(0, 1, 1.0), (0, 2, 0.5), (1, 2, 0.0)]


def test_openskill_ratings_order_the_entrants_with_intervals() -> None:
    names = ["strong", "middle", "weak"]
    games = [
        _result(i, tuple(p), (p.index(0),))
        for i, p in enumerate(
            itertools.islice(itertools.cycle(itertools.permutations(range(3))), 24)
        )
    ]
    ratings = rate_skill(names, games)
    assert next(r.name for r in ratings) == "strong"
    for r in ratings:
        assert r.low == pytest.approx(r.mu - 1.959963984540054 * r.sigma)
        assert r.high == pytest.approx(r.mu + 1.959963984540054 * r.sigma)
        assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)
        assert r.sigma < 25 / 3
        assert r.games == 24
    # middle and weak always tie behind strong: equal skill
    assert ratings[1].mu == pytest.approx(ratings[2].mu)


def test_openskill_counts_a_forfeit_as_a_loss_and_a_tie_for_the_rest() -> None:
    names = ["a", "b", "c", "d"]
    games = [_result(i, (0, 1, 2, 3), (0, 1, 2), Forfeit(3, "timeout")) for i in range(8)]
    ratings = {r.name: r for r in rate_skill(names, games)}
    assert ratings["d"].mu < 25 < ratings["a"].mu
    assert ratings["a"].mu == pytest.approx(ratings["b"].mu)
    assert ratings["b"].mu == pytest.approx(ratings["c"].mu)
    # Bradley-Terry agrees on the order.
    assert rate(names, games)[-1].name == "d"


def test_openskill_refuses_an_entrant_at_two_seats() -> None:
    with pytest.raises(InvalidArgumentError, match="different entrant"):
        rate_skill(["a", "b"], [_result(0, (0, 0), (0,))])
    with pytest.raises(InvalidArgumentError, match="different entrant"):
        rate_skill(["a", "b"], [_result(0, (0, 2), (0,))])


# Tournaments.


def test_a_tournament_lists_forfeits_and_goes_on() -> None:
    spec = "tests.arena.test_referee:crash_on_third"
    result = round_robin(["greedy", spec], games=4, seed=2)
    assert len(result.games) == 4
    assert len(result.forfeits) == 4
    for game in result.forfeits:
        assert game.forfeit is not None
        assert game.entrants[game.forfeit.seat] == 1
        assert game.forfeit.reason == "crash"
    assert result.ratings[0].name == "greedy"
    text = result.format()
    assert "forfeits: 4" in text
    assert f"game 0 seat 1 {spec}: crash (RuntimeError: third move)" in text
    data = result.to_dict()
    assert data["games"][0]["forfeit"] == {  # type: ignore[index]
        "seat": 1,
        "reason": "crash",
        "detail": "RuntimeError: third move",
    }


def crash_on_third(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
    """A bot that crashes at its third move (its own third turn of the game)."""
    if view.turn // len(view.players) == 2:
        raise RuntimeError("third move")
    return GreedyBot()(view, actions, rng)


def test_a_tournament_keeps_its_games_when_games_are_not_a_multiple_of_players() -> None:
    result = round_robin(["random", "greedy", "random"], games=3, players=2, seed=5)
    seeds = [g.seed for g in result.games]
    # table t, game g: the deal g // 2 of the table, seats rotated by g % 2
    assert seeds[:3] == [game_seed(5, 0), game_seed(5, 0), game_seed(5, 1)]
    assert seeds[3:6] == [game_seed(5, TABLE_DEALS)] * 2 + [game_seed(5, TABLE_DEALS + 1)]
    assert [g.entrants for g in result.games[:3]] == [(0, 1), (1, 0), (0, 1)]


def test_a_tournament_under_a_time_control_is_reproducible_with_skill_ratings() -> None:
    control = TimeControl(move=5.0)
    first = round_robin(
        ["greedy", "random", "random"], games=3, players=3, seed=1, time_control=control
    )
    again = round_robin(
        ["greedy", "random", "random"], games=3, players=3, seed=1, time_control=control
    )
    assert first.games == again.games
    assert first.skill_ratings == again.skill_ratings
    assert next(r.name for r in first.skill_ratings) == "greedy"
    assert "ordinal" in first.format()
    with pytest.raises(InvalidArgumentError, match="time_control"):
        round_robin(["greedy", "random"], games=2, time_control=1.0)  # type: ignore[arg-type]


def test_without_openskill_the_multiplayer_rating_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)  # importing it now raises ImportError
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(MissingExtraError, match=r"\[arena\]") as info:
        rate_skill(["a", "b", "c"], [])
    assert info.value.extra == "arena"
    with pytest.raises(MissingExtraError, match="3 or 4 players"):
        round_robin(["greedy", "random", "random"], players=3, games=3)
    assert round_robin(["greedy", "random"], games=2).skill_ratings == ()
