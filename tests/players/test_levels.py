"""The levels: their measured table, their bots, and the ``level:N`` specs."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from splendor import (
    GreedyBot,
    InvalidArgumentError,
    ISMCTSBot,
    RandomBot,
    SearchBot,
    legal_actions,
    view,
)
from splendor.arena.tournament import round_robin
from splendor.players import _level_table
from splendor.players.bots import load_bot, parse_bot_spec
from splendor.players.levels import LEVEL_PREFIX, LEVELS, Level, level_bot
from tests.builders import deal


def test_every_level_is_a_measured_step_above_the_one_below() -> None:
    assert 8 <= len(LEVELS) <= 10
    assert [level.number for level in LEVELS] == list(range(1, len(LEVELS) + 1))
    for level in LEVELS:
        # Measured for this very setting: a changed spec has no rating until calibrated.
        assert level.games >= 100, level
        assert level.low < level.rating < level.high, level
    for below, above in itertools.pairwise(LEVELS):
        assert below.rating < above.rating, (below, above)
        assert below.high < above.low, f"the step {below.number} -> {above.number} is not shown"


def test_a_setting_changed_since_the_calibration_has_no_rating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    changed = list(_level_table.SETTINGS)
    number, name, _, about = changed[1]
    changed[1] = (number, name, "greedy:randomness=0.7", about)
    monkeypatch.setattr(_level_table, "SETTINGS", tuple(changed))
    levels = _level_table._levels()
    assert levels[0] == LEVELS[0]
    assert math.isnan(levels[1].rating)
    assert levels[1].games == 0


def test_each_level_has_a_bounded_time_per_move() -> None:
    for level in LEVELS:
        assert 0 < level.cpu_per_move <= 0.25, level
        name, options = parse_bot_spec(level.spec)
        if name in ("ismcts", "search"):
            # Bounded twice: iterations (reproducible moves) and a cap in seconds.
            assert isinstance(options["iterations"], int)
            assert 0 < float(options["seconds"]) <= 3.0


@pytest.mark.parametrize("number", range(1, len(LEVELS) + 1))
def test_level_bot_is_the_bot_of_the_levels_spec(number: int) -> None:
    level = LEVELS[number - 1]
    assert isinstance(level, Level)
    bot = level_bot(number)
    assert repr(bot) == repr(load_bot(level.spec)) == repr(load_bot(f"{LEVEL_PREFIX}{number}"))
    state = deal(2)
    actions = legal_actions(state)
    assert bot(view(state, 0), actions, random.Random(number)) in actions


def test_the_levels_run_from_random_through_greedy_to_search() -> None:
    assert isinstance(level_bot(1), RandomBot)
    greedy = [level_bot(n) for n in range(2, 6)]
    assert all(isinstance(bot, GreedyBot) for bot in greedy)
    randomness = [bot.randomness for bot in greedy if isinstance(bot, GreedyBot)]
    assert randomness == sorted(randomness, reverse=True)
    assert randomness[-1] == 0
    ismcts = [level_bot(n) for n in (6, 7)]
    assert all(isinstance(bot, ISMCTSBot) for bot in ismcts)
    kernel = [level_bot(n) for n in range(8, len(LEVELS) + 1)]
    assert all(isinstance(bot, SearchBot) for bot in kernel)
    for searches in (ismcts, kernel):
        budgets = [getattr(bot, "iterations", 0) or 0 for bot in searches]
        assert budgets == sorted(budgets)
        assert len(set(budgets)) == len(budgets)


@pytest.mark.parametrize(
    "spec", ["level:0", "level:99", "level:x", "level:", "level:-1", "level:1.0", "level: 3"]
)
def test_load_bot_refuses_a_level_that_does_not_exist(spec: str) -> None:
    with pytest.raises(InvalidArgumentError, match=r"unknown level .*: the levels are 1 to 9"):
        load_bot(spec)


@pytest.mark.parametrize("number", [0, 10, -1, 99, "5", 5.0, True, None])
def test_level_bot_refuses_what_is_not_a_level(number: object) -> None:
    with pytest.raises(InvalidArgumentError, match="unknown level"):
        level_bot(number)  # type: ignore[arg-type]  # refused on purpose


def test_a_tournament_names_levels_as_bots() -> None:
    result = round_robin(["level:1", "level:5"], games=4, seed=2)
    assert result.names == ("level:1", "level:5")
    assert [rating.name for rating in result.ratings] == ["level:5", "level:1"]
