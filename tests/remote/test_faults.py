"""Engines that misbehave: each fault is its own EngineError, in bounded time, with no process left.

The engines are the scripts of ``tests/remote/engines``. Each test checks the
error's class (and so its ``reason``), that it came within a bound, and that
the engine's process is gone and reaped afterwards.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from splendor import GreedyBot, PlayerView, legal_actions, new_game, play_game, view
from splendor.errors import (
    EngineCrashedError,
    EngineError,
    EngineMoveError,
    EngineProtocolError,
    EngineTimeoutError,
    InvalidArgumentError,
)
from splendor.players.seats import BotFailedError
from splendor.remote import Clock, Engine, Info, Limit, open_engine, open_engine_async
from splendor.remote.host import STDERR_TAIL
from tests.builders import bonus_cards, deal, toks, with_player

from ._engines import environment, gone, script


def _start(name: str, *args: str, **kwargs: float) -> Engine:
    return open_engine(script(name, *args), env=environment(), **kwargs)  # type: ignore[arg-type]  # timeout and grace


def _first() -> PlayerView:
    return view(new_game(2, seed=1), 0)


_TWO_SECONDS = Limit(time=2.0)


@contextmanager
def _within(seconds: float) -> Iterator[None]:
    started = time.monotonic()
    yield
    assert time.monotonic() - started < seconds


def _fails(
    engine: Engine, error: type[EngineError], match: str, limit: Limit = _TWO_SECONDS
) -> None:
    """Play one move: it must fail with ``error`` soon, and leave no process behind."""
    with _within(5.0), pytest.raises(error, match=match) as caught:
        engine.play(_first(), limit)
    assert caught.value.reason == error.reason
    assert gone(engine.pid)
    with pytest.raises(error):  # and every later call fails the same way
        engine.play(_first(), limit)
    engine.close()


def test_blank_lines_and_windows_line_ends_are_not_faults() -> None:
    with _start("spaced") as engine:
        for _ in range(2):
            assert engine.play(_first()).index == 1


def test_garbage_on_the_output_is_a_protocol_error() -> None:
    _fails(_start("garbage"), EngineProtocolError, "not JSON")


def test_a_line_over_the_limit_is_a_protocol_error() -> None:
    _fails(_start("long_line"), EngineProtocolError, "longer than")


def test_a_line_that_never_ends_is_a_protocol_error_in_bounded_memory() -> None:
    _fails(_start("long_line", "endless"), EngineProtocolError, "longer than")


def test_an_index_past_the_actions_is_an_illegal_move() -> None:
    _fails(_start("bad_move", "index"), EngineMoveError, "index 3[0-9] of 3[0-9] actions")


def test_notation_of_no_listed_action_is_an_illegal_move() -> None:
    _fails(_start("bad_move", "text"), EngineMoveError, "illegal move: 'b11=WWWWWWWWWW'")


def test_an_ambiguous_move_is_an_illegal_move() -> None:
    # Buying the card of tier 2, slot 1 here brings two nobles: "b21" does not say which.
    state = with_player(
        deal(2, seed=1), tokens=toks("3W 2B 2G"), cards=bonus_cards(toks("3W 4R 3K"))
    )
    engine = _start("bad_move", "b21")
    with _within(5.0), pytest.raises(EngineMoveError, match="several nobles can come"):
        engine.play(view(state, 0))
    assert gone(engine.pid)
    engine.close()


def test_an_error_instead_of_a_move_is_a_protocol_error_and_error_lines_are_logged_in_bounds(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="splendor.remote"):
        engine = _start("refuse")  # 150 error lines before its readyok: logged, not fatal
        _fails(engine, EngineProtocolError, "instead of a bestmove: internal: no idea")
    logged = [r.getMessage() for r in caplog.records if r.name == "splendor.remote"]
    assert logged[0] == "engine 'test': error bad-field: complaint 0"
    assert logged[100] == "engine 'test': no more of its error lines are logged"
    assert len(logged) == 101


def test_no_answer_within_the_time_and_the_grace_is_a_timeout() -> None:
    engine = _start("silent", grace=0.2)
    with _within(4.0):
        _fails(engine, EngineTimeoutError, r"no bestmove within 0\.50 s", Limit(time=0.3))


def test_with_a_clock_the_mover_gets_its_remaining_time_and_the_grace() -> None:
    engine = _start("silent", grace=0.2)
    clock = Clock(remaining=(0.3, 60.0), increment=5.0)
    with _within(4.0):
        _fails(engine, EngineTimeoutError, r"no bestmove within 0\.50 s", Limit(clock=clock))


def test_an_engine_of_another_protocol_version_is_refused(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    with _within(10.0), pytest.raises(EngineProtocolError, match="speaks protocol 2, not 1"):
        open_engine(script("future"), env=environment(ENGINE_PIDFILE=str(pidfile)))
    assert gone(int(pidfile.read_text()))


def test_without_a_time_limit_the_engine_gets_the_timeout() -> None:
    engine = _start("silent", timeout=0.4)
    _fails(engine, EngineTimeoutError, r"within 0\.40 s", Limit(iterations=100))


def test_answers_to_earlier_positions_are_dropped_by_their_id() -> None:
    with _start("late") as engine:
        seen = _first()
        actions = legal_actions(seen)
        for _ in range(2):  # each time, a stale bestmove and info line come first
            result = engine.play(seen, Limit(time=2.0))
            assert result.action == actions[-1]
            assert result.info == (Info(win=(0.5, 0.5), pv=("p",), nodes=10),)


def test_an_infinite_search_is_stopped_after_its_time() -> None:
    with _start("late") as engine, _within(5.0):
        analysis = engine.analyse(_first(), Limit(infinite=True, time=0.2))
        assert analysis.best == legal_actions(_first())[0]
        assert analysis.latest == Info(win=(0.5, 0.5), pv=("p",), nodes=10)


def test_an_infinite_search_without_a_time_is_refused_before_it_starts() -> None:
    with _start("late") as engine:
        with pytest.raises(InvalidArgumentError, match="infinite search needs a time"):
            engine.analyse(_first(), Limit(infinite=True))
        assert engine.play(_first(), Limit(time=2.0)).index == len(legal_actions(_first())) - 1


def test_a_bestmove_after_stop_is_dropped_and_the_engine_plays_on() -> None:
    async def main() -> int:
        seen = _first()
        async with await open_engine_async(script("late"), env=environment()) as engine:
            with pytest.raises(TimeoutError):  # given up: the host sends stop
                await asyncio.wait_for(engine.play(seen, Limit(iterations=5)), 0.2)
            # The engine answers the stop with index 0 for the search given up:
            # that answer is dropped, and the next search gets its own.
            result = await engine.play(seen, Limit(time=2.0))
            assert result.index == len(legal_actions(seen)) - 1
            return engine.pid

    assert gone(asyncio.run(main()))


def test_a_crash_in_the_middle_of_a_game_is_a_crash_with_its_last_words() -> None:
    engine = _start("crash", "3")
    with _within(5.0), pytest.raises(BotFailedError, match="status 3") as caught:
        play_game([engine, GreedyBot()], seed=4)
    assert isinstance(caught.value.__cause__, EngineCrashedError)
    assert caught.value.reason == "crash"
    assert "out of memory" in str(caught.value)
    assert gone(engine.pid)
    engine.close()


def test_a_flood_on_standard_error_does_not_block_the_host() -> None:
    with _start("flood") as engine:
        seen = _first()
        with _within(20.0):
            for _ in range(3):
                assert engine.play(seen, Limit(time=5.0)).index == 0
        tail = engine.stderr_tail
        assert 0 < len(tail.encode()) <= STDERR_TAIL
        assert tail.rstrip("\n").endswith(".")
    assert gone(engine.pid)


def test_a_hang_at_start_up_is_a_timeout_and_its_whole_process_group_is_killed(
    tmp_path: Path,
) -> None:
    pidfile = tmp_path / "pids"
    with _within(10.0), pytest.raises(EngineTimeoutError, match=r"no hello within 1\.00 s"):
        open_engine(script("hang"), timeout=1.0, env=environment(ENGINE_PIDFILE=str(pidfile)))
    pids = [int(line) for line in pidfile.read_text().split()]
    assert len(pids) == 2  # the engine and the child it started
    assert all(gone(pid) for pid in pids)


def test_an_engine_that_is_never_closed_is_killed_when_it_is_collected() -> None:
    import gc

    engine = _start("silent")
    pid = engine.pid
    del engine
    gc.collect()
    assert gone(pid)


def test_an_engine_left_open_is_killed_when_the_interpreter_exits() -> None:
    program = (
        "import sys\n"
        "from splendor.remote import open_engine\n"
        "engine = open_engine(sys.argv[1:])\n"
        "print(engine.pid, flush=True)\n"
        "# exits without closing it\n"
    )
    host = subprocess.run(
        [sys.executable, "-c", program, *script("stubborn")],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert gone(int(host.stdout))


def test_a_timeout_leaves_no_future_exception_unretrieved(caplog: pytest.LogCaptureFixture) -> None:
    # The search's future gets the timeout after the host stopped waiting for
    # it: unless marked seen, asyncio logs "Future exception was never
    # retrieved" when the future is collected.
    async def main() -> int:
        async with await open_engine_async(
            script("silent"), env=environment(), grace=0.2
        ) as engine:
            try:
                await engine.play(_first(), Limit(time=0.2))
            except EngineTimeoutError:
                pass
            else:  # pragma: no cover
                raise AssertionError("the silent engine answered")
            return engine.pid

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        pid = asyncio.run(main())
        gc.collect()
    assert gone(pid)
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
    assert not [r for r in caplog.records if r.name == "asyncio"]
