"""Both engine protocols over a mock transport: scripted exchanges, no process."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from typing import Final

import pytest

from splendor import legal_actions, new_game, view
from splendor.core.actions import Action
from splendor.core.rules import Rules
from splendor.core.views import PlayerView
from splendor.errors import (
    EngineCrashedError,
    EngineError,
    EngineMoveError,
    EngineProtocolError,
    EngineTimeoutError,
)
from splendor.formats.notation import format_action
from splendor.remote._sbp import AsyncEngine, connect
from splendor.remote._transport import LoopThread, MockTransport, Receiver, Transport
from splendor.remote.codec import encode
from splendor.remote.messages import (
    MAX_LINE,
    BestMove,
    EngineHello,
    Go,
    Hello,
    HostMessage,
    Info,
    InfoMessage,
    IsReady,
    Limit,
    NewGame,
    Option,
    OptionValue,
    Position,
    ReadyOk,
    SetOption,
)
from splendor.remote.usi import UsiEngine, _UsiLines, usi_move, view_to_spn

MOVER = view(new_game(2, seed=1), 0)
# The settings of every engine over a mock: timeout, grace, limit, name.
SETTINGS: Final = {"timeout": 1.0, "grace": 0.2, "limit": Limit(time=0.5), "name": None}
ACTIONS = legal_actions(MOVER)


def _line(message: HostMessage | EngineHello | ReadyOk | InfoMessage | BestMove) -> str:
    return encode(message).decode().rstrip("\n")


def _position(id_: int, mover: PlayerView) -> str:
    full = mover.stand_in()
    listed = legal_actions(full)
    texts = tuple(format_action(action, full) for action in listed)
    return _line(Position(id_, mover, listed, texts))


async def _connected(
    hello: EngineHello,
    script: list[tuple[str, list[str]]],
    options: Mapping[str, OptionValue] | None = None,
) -> tuple[AsyncEngine, MockTransport]:
    """An engine connected over a mock that answers ``hello``, then plays ``script``."""
    mocks: list[MockTransport] = []

    async def make(receiver: Receiver) -> Transport:
        mock = MockTransport(receiver)
        mock.expect(_line(Hello()), [_line(hello)])
        for sent, answers in script:
            mock.expect(sent, answers)
        mocks.append(mock)
        return mock

    engine = await connect(
        "mock",
        make,
        timeout=1.0,
        grace=0.2,
        limit=Limit(time=0.5),
        name=None,
        options=options or {},
    )
    return engine, mocks[0]


READY = (_line(IsReady()), [_line(ReadyOk())])


def test_the_bot_protocol_shakes_hands_sets_options_and_plays_over_a_mock() -> None:
    async def main() -> tuple[AsyncEngine, Action, tuple[Info, ...]]:
        depth = Option("Depth", "int", 3, min=1, max=9)
        hello = EngineHello("mock", "tests", "1", (depth,))
        engine, mock = await _connected(
            hello, [(_line(SetOption("Depth", 5)), []), READY], {"Depth": 5}
        )
        mock.expect(_line(NewGame(2, 0, Rules())))
        mock.expect(_position(1, MOVER))
        info = Info(win=(0.5, 0.5), nodes=10)
        mock.expect(
            _line(Go(1, Limit(time=0.5))),
            [_line(InfoMessage(1, info)), "", _line(BestMove(1, index=2))],
        )
        result = await engine.play(MOVER)
        mock.assert_done()
        return engine, result.action, result.info

    engine, action, info = asyncio.run(main())
    assert engine.id.name == "mock"
    assert engine.id.author == "tests"
    assert action == ACTIONS[2]
    assert info == (Info(win=(0.5, 0.5), nodes=10),)
    assert engine.pid == 0


def _fault(answers: list[str | bytes], *, exit: int | None = None) -> EngineError:
    """The error of a search whose ``go`` the mock engine answers with ``answers``."""

    async def main() -> EngineError:
        engine, mock = await _connected(EngineHello("mock"), [READY])
        mock.expect(_line(NewGame(2, 0, Rules())))
        mock.expect(_position(1, MOVER))
        mock.expect(_line(Go(1, Limit(time=0.2))), answers, exit=exit)
        with pytest.raises(EngineError) as caught:
            await engine.play(MOVER, Limit(time=0.2))
        assert mock.returncode is not None  # the engine is ended
        return caught.value

    return asyncio.run(main())


def test_a_line_too_long_from_a_mock_engine_ends_it() -> None:
    error = _fault([b"x" * MAX_LINE])
    assert isinstance(error, EngineProtocolError)
    assert "longer than" in str(error)


def test_a_line_that_is_not_the_protocol_ends_the_engine() -> None:
    error = _fault(["this is not json"])
    assert isinstance(error, EngineProtocolError)
    assert "not JSON" in str(error)


def test_a_mock_engine_that_exits_during_a_search_has_crashed() -> None:
    error = _fault([], exit=3)
    assert isinstance(error, EngineCrashedError)
    assert "exited with status 3" in str(error)


def test_a_best_move_out_of_range_is_an_illegal_move() -> None:
    error = _fault([_line(BestMove(1, index=len(ACTIONS)))])
    assert isinstance(error, EngineMoveError)


def test_no_answer_in_time_is_a_timeout() -> None:
    error = _fault([])
    assert isinstance(error, EngineTimeoutError)
    assert "no bestmove within 0.40 s" in str(error)


def test_the_mock_refuses_a_line_the_host_was_not_expected_to_write() -> None:
    async def make(receiver: Receiver) -> Transport:
        mock = MockTransport(receiver)
        mock.expect(_line(IsReady()))
        return mock

    async def main() -> None:
        await connect(
            "mock", make, timeout=1.0, grace=0.2, limit=Limit(time=0.5), name=None, options={}
        )

    with pytest.raises(AssertionError, match="not the expected"):
        asyncio.run(main())


def _usi(mock_script: list[tuple[str, list[str]]], *, exit_after: bool = False) -> UsiEngine:
    """A USI engine over a mock transport whose exchanges are ``mock_script``."""
    loop = LoopThread()
    lines = _UsiLines()
    mock = MockTransport(lines)
    lines.transport = mock
    for index, (sent, answers) in enumerate(mock_script):
        last = exit_after and index == len(mock_script) - 1
        mock.expect(sent, answers, exit=0 if last else None)
    return UsiEngine(loop, lines, name=None, time=0.3, grace=0.2, own_blind="id")


HANDSHAKE = [
    ("usi", ["id name mock", "id author tests", "option name Style type string", "usiok"]),
    ("isready", ["readyok"]),
]


def test_the_usi_host_shakes_hands_and_plays_over_a_mock() -> None:
    move = usi_move(ACTIONS[0], MOVER)
    engine = _usi(
        [
            *HANDSHAKE,
            ("isready", ["readyok"]),
            ("usinewgame", []),
            (f"position {view_to_spn(MOVER)}", []),
            ("go time 300", ["info nothing", f"bestmove {move}"]),
            ("quit", []),
        ],
        exit_after=True,
    )
    with engine:
        engine._handshake({}, 1.0)
        assert engine.name == "mock"
        assert engine.author == "tests"
        assert set(engine.options) == {"Style"}
        assert engine(MOVER, ACTIONS, random.Random(0)) == ACTIONS[0]
    assert engine.returncode == 0


def test_a_usi_engine_that_closes_its_output_has_crashed() -> None:
    engine = _usi([("usi", ["id name mock"])], exit_after=True)
    with pytest.raises(
        EngineCrashedError, match="closed its output while the host waited for usiok"
    ):
        engine._handshake({}, 1.0)
    engine.close()


def test_a_usi_engine_silent_past_its_deadline_is_late() -> None:
    engine = _usi([("usi", ["id name mock"])])
    with pytest.raises(EngineTimeoutError, match="no usiok in time"):
        engine._handshake({}, 0.2)
    assert engine.returncode is not None
    engine.close()
