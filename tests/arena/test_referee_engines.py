"""The referee with real engine processes: time controls, forfeits, processes ended."""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from splendor import GameRecord, GreedyBot, from_json, to_json
from splendor.arena.referee import TimeControl, referee_game
from splendor.arena.tournament import round_robin
from splendor.remote import Engine, open_engine
from tests.remote._engines import environment, gone, served

FAULTY: Final = Path(__file__).resolve().parent / "engines" / "faulty.py"


def faulty(fault: str, move: int) -> list[str]:
    """The command of the test engine that does ``fault`` at its ``move``-th move."""
    return [sys.executable, str(FAULTY), fault, str(move)]


@pytest.fixture(scope="module")
def random_engine() -> Iterator[Engine]:
    with open_engine(served("random"), env=environment()) as engine:
        yield engine


def _valid(record: GameRecord) -> None:
    assert from_json(to_json(record), GameRecord) == record
    assert record.replay()[-1] == record.final_state()


def test_an_engine_plays_under_a_clock_with_increment(random_engine: Engine) -> None:
    control = TimeControl(game=20.0, increment=0.5)
    record = referee_game([random_engine, GreedyBot()], seed=3, time_control=control)
    assert record.forfeit is None
    assert record.result is not None
    assert record.final_state().is_over
    _valid(record)
    again = referee_game([GreedyBot(), random_engine], seed=3, time_control=TimeControl(move=5))
    assert again.forfeit is None
    assert random_engine.returncode is None  # still running for the next game


@pytest.mark.parametrize(
    ("fault", "control", "reason", "detail"),
    [
        ("crash", None, "crash", "exited with status 3"),
        ("garbage", None, "protocol", "this is not the protocol"),
        ("illegal", None, "illegal-move", "index"),
        ("sleep", TimeControl(move=0.2), "timeout", "EngineTimeoutError"),
        ("sleep", TimeControl(game=0.3), "timeout", "EngineTimeoutError"),
    ],
)
def test_a_faulty_engine_forfeits_and_its_process_ends(
    fault: str, control: TimeControl | None, reason: str, detail: str
) -> None:
    engine = open_engine(faulty(fault, 3), grace=0.2)
    pid = engine.pid
    started = time.monotonic()
    try:
        record = referee_game([GreedyBot(), engine], seed=4, time_control=control)
    finally:
        engine.close()
    assert time.monotonic() - started < 2.5  # the 3 s sleep is cut short
    assert record.forfeit is not None
    assert (record.forfeit.seat, record.forfeit.reason) == (1, reason)
    assert detail in record.forfeit.detail
    assert record.result == (0,)
    assert len(record.actions) == 5  # two moves of each seat, then seat 1's third
    _valid(record)
    assert gone(pid)


def test_a_tournament_restarts_an_engine_after_its_forfeit() -> None:
    crashes = "engine:" + shlex.join(faulty("crash", 2))
    plays = "engine:" + shlex.join(faulty("none", 0))
    result = round_robin([crashes, plays, "greedy"], games=2, seed=1)
    # The crashing engine crashes at its second move of every game: a new
    # process each game. The other plays every game to the end.
    forfeits = [game for game in result.games if game.forfeit is not None]
    assert len(forfeits) == 4
    for game in forfeits:
        assert game.forfeit is not None
        assert game.entrants[game.forfeit.seat] == 0
        assert game.forfeit.reason == "crash"
        # at its second move: a fresh process for each game
        assert game.turns == 2 + game.forfeit.seat
    assert result.ratings[-1].name == crashes
    again = round_robin([crashes, plays, "greedy"], games=2, seed=1, workers=2)
    assert again.games == result.games
