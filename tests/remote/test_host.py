"""The host side against real engine processes: ``splendor engine`` through ``open_engine``."""

from __future__ import annotations

import asyncio
import os
import random
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from splendor import (
    GameRecord,
    GreedyBot,
    apply,
    from_json,
    legal_actions,
    new_game,
    play_game,
    to_json,
    view,
)
from splendor.arena.selfplay import generate_records, read_records
from splendor.errors import EngineCrashedError, InvalidArgumentError
from splendor.formats.notation import format_action
from splendor.players.bots import load_bot
from splendor.remote import Engine, Limit, open_engine, open_engine_async

from ._engines import environment, gone, served


@pytest.fixture(scope="module")
def greedy() -> Iterator[Engine]:
    with open_engine(served("greedy"), env=environment()) as engine:
        yield engine


def test_the_handshake_names_the_engine_and_its_options(greedy: Engine) -> None:
    assert greedy.id.name == "greedy"
    assert greedy.id.author == "splendor-rules"
    assert greedy.name == "greedy"
    assert set(greedy.options) == {"Seed"}
    assert greedy.options["Seed"].kind == "int"


def test_a_served_bot_plays_a_whole_game_whose_record_replays(greedy: Engine) -> None:
    record = play_game([greedy, GreedyBot()], seed=11)
    assert record.result is not None
    assert record.names == ("greedy", "greedy")
    again = from_json(to_json(record), GameRecord)
    assert again.final_state() == record.final_state()
    assert again.final_state().is_over


def test_the_engine_plays_what_the_bot_in_process_plays(greedy: Engine) -> None:
    # The served greedy bot's generator is seeded from its Seed option and seat
    # ("0:0"); the same generator in process chooses the same moves.
    greedy.new_game(2, 0)
    state = new_game(2, seed=5)
    rng = random.Random("0:0")
    for _ in range(6):
        actions = legal_actions(state)
        seen = view(state, state.current_player)
        if state.current_player == 0:
            result = greedy.play(seen, Limit(time=5.0))
            assert result.action == GreedyBot()(seen, actions, rng)
            assert result.action == actions[result.index]
            assert result.time < 5.0
            action = result.action
        else:
            action = actions[0]
        state = apply(state, action)


def test_options_are_checked_against_those_the_engine_offers(greedy: Engine) -> None:
    greedy.configure({"Seed": 4})
    with pytest.raises(InvalidArgumentError, match="no option 'Depth'"):
        greedy.configure({"Depth": 3})
    with pytest.raises(InvalidArgumentError, match="takes a int"):
        greedy.configure({"Seed": "four"})
    greedy.is_ready()  # still running


def test_closing_ends_and_reaps_the_process() -> None:
    with open_engine(served("random"), env=environment()) as engine:
        pid = engine.pid
        assert not gone(pid, within=0)
    assert gone(pid)
    assert engine.returncode == 0  # it exited on quit, not killed
    engine.close()  # twice is nothing
    with pytest.raises(EngineCrashedError, match="closed"):
        engine.play(view(new_game(2, seed=1), 0))


def test_a_bot_spec_names_an_engine_command() -> None:
    bot = load_bot("engine:" + " ".join(served("random")))
    assert isinstance(bot, Engine)
    try:
        record = play_game([bot, bot], seed=2, max_turns=6)
        assert len(record.actions) == 6
    finally:
        bot.close()
    assert gone(bot.pid)


def test_a_command_that_cannot_start_is_a_crash() -> None:
    with pytest.raises(EngineCrashedError, match="cannot start"):
        open_engine(["/nonexistent/engine"])
    with pytest.raises(InvalidArgumentError):
        open_engine("")
    with pytest.raises(InvalidArgumentError):
        open_engine(served("random"), timeout=0)


def test_the_asyncio_engine_plays_two_engines_at_once() -> None:
    async def main() -> tuple[int, int]:
        async with (
            await open_engine_async(served("greedy"), env=environment()) as first,
            await open_engine_async(served("random"), env=environment()) as second,
        ):
            seen = view(new_game(2, seed=8), 0)
            one, two = await asyncio.gather(first.play(seen), second.play(seen))
            assert one.action in legal_actions(seen)
            assert two.action in legal_actions(seen)
            return first.pid, second.pid

    pids = asyncio.run(main())
    assert all(gone(pid) for pid in pids)
    assert os.getpid() not in pids


def test_self_play_seats_an_engine_by_its_spec(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    spec = "engine:" + shlex.join(served("greedy"))
    written = generate_records(path, [spec, "random"], games=2, seed=4)
    assert written == 2
    records = list(read_records(path))  # each replayed as it is read
    assert len(records) == 2
    # The seats take turns: the engine plays first in one game, second in the other.
    assert sorted(record.names for record in records if record.names) == [
        ("greedy", "random"),
        ("random", "greedy"),
    ]
    assert all(record.final_state().is_over for record in records)


def test_a_served_search_sends_its_analysis_as_an_info_line() -> None:
    seen = view(new_game(2, seed=1), 0)
    with open_engine(served("ismcts:iterations=50,seed=1"), env=environment()) as engine:
        analysis = engine.analyse(seen, Limit(time=10.0))
    info = analysis.latest
    assert info is not None
    assert info.nodes == 50
    assert info.win is not None
    assert len(info.win) == 2
    assert abs(sum(info.win) - 1) < 1e-6
    assert info.pv[0] == format_action(analysis.best, seen)
