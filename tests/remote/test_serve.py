"""The engine side: :func:`splendor.remote.serve` answering the host's lines."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence

import attrs

from splendor import Action, GreedyBot, PlayerView, Rules
from splendor.remote.codec import decode_engine, encode
from splendor.remote.messages import (
    MAX_LINE,
    BestMove,
    EngineHello,
    EngineMessage,
    ErrorMessage,
    Go,
    Hello,
    HostMessage,
    InfoMessage,
    IsReady,
    Limit,
    NewGame,
    Quit,
    ReadyOk,
    SetOption,
    Stop,
)
from splendor.remote.serve import serve

from ._positions import first_position
from ._schema import validator


def _exchange(bot: object, lines: Sequence[HostMessage | bytes]) -> tuple[int, list[EngineMessage]]:
    host = io.BytesIO(b"".join(line if isinstance(line, bytes) else encode(line) for line in lines))
    out = io.BytesIO()
    status = serve(bot, name="test", stdin=host, stdout=out)  # type: ignore[arg-type]  # any bot
    lines = out.getvalue().splitlines()
    for line in lines:  # every line the engine side writes fits the schema
        validator("engineMessage").validate(json.loads(line))
    return status, [decode_engine(line) for line in lines]


def test_a_served_bot_answers_the_handshake_and_a_move() -> None:
    position = first_position()
    status, answers = _exchange(
        GreedyBot(), [Hello(), IsReady(), NewGame(2, 0, Rules()), position, Go(1), Quit()]
    )
    assert status == 0
    hello, ready, best = answers
    assert isinstance(hello, EngineHello)
    assert hello.name == "test"
    assert [option.name for option in hello.options] == ["Seed"]
    assert ready == ReadyOk()
    assert isinstance(best, BestMove)
    assert best.id == 1
    assert best.index is not None
    expected = GreedyBot()(position.view, position.actions, random.Random("0:0"))
    assert position.actions[best.index] == expected


def test_a_malformed_line_gets_an_error_and_the_engine_keeps_going() -> None:
    status, answers = _exchange(
        GreedyBot(),
        [
            b"garbage\n",
            b'{"type":"go"}\n',
            b'{"type":"fly"}\n',
            b"\n",
            b"x" * (MAX_LINE + 5) + b"\n",
            IsReady(),
        ],
    )
    assert status == 0  # the end of the input
    codes = [answer.code for answer in answers if isinstance(answer, ErrorMessage)]
    assert codes == ["malformed", "bad-field", "unknown-type", "too-long"]
    assert answers[-1] == ReadyOk()


def test_a_malformed_position_gets_a_typed_error_and_no_move() -> None:
    line = json.loads(encode(first_position()))
    line["view"]["bank"] = {"red": -1}
    _, answers = _exchange(GreedyBot(), [json.dumps(line).encode() + b"\n", Go(1), IsReady()])
    error, out_of_order, ready = answers
    assert isinstance(error, ErrorMessage)
    assert error.code == "bad-position"
    assert isinstance(out_of_order, ErrorMessage)
    assert out_of_order.code == "out-of-order"
    assert out_of_order.id == 1
    assert ready == ReadyOk()


def test_options_are_checked() -> None:
    _, answers = _exchange(
        GreedyBot(), [SetOption("Seed", 5), SetOption("Seed", "x"), SetOption("Depth", 2)]
    )
    assert [a.code for a in answers if isinstance(a, ErrorMessage)] == ["bad-field", "bad-field"]


def test_a_bot_that_raises_is_an_internal_error_and_the_engine_keeps_going() -> None:
    def broken(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("no idea")

    _, answers = _exchange(broken, [first_position(), Go(1), IsReady()])
    error, ready = answers
    assert error == ErrorMessage("internal", "RuntimeError: no idea", id=1)
    assert ready == ReadyOk()


def test_an_infinite_search_answers_on_stop() -> None:
    _, answers = _exchange(
        GreedyBot(), [first_position(), Go(1, Limit(infinite=True)), IsReady(), Stop(), Stop()]
    )
    assert answers[0] == ReadyOk()
    assert isinstance(answers[1], BestMove)
    assert len(answers) == 2  # a stop with no search running is ignored


def test_an_unsupported_version_is_refused() -> None:
    _, answers = _exchange(GreedyBot(), [Hello(protocol=2)])
    assert answers == [ErrorMessage("unsupported-version", "this engine speaks protocol 1, not 2")]


@attrs.frozen
class _Found:
    action: Action
    win: tuple[float, ...]
    pv: tuple[Action, ...]
    nodes: int


class _Thinker:
    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        return actions[0]

    def analyse(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> _Found:
        return _Found(actions[-1], (0.75, 0.25), (actions[-1],), 321)


def test_an_analyser_sends_an_info_line_before_its_move() -> None:
    position = first_position()
    _, answers = _exchange(_Thinker(), [position, Go(1)])
    info, best = answers
    assert isinstance(info, InfoMessage)
    assert info.id == 1
    assert info.info.win == (0.75, 0.25)
    assert info.info.nodes == 321
    assert info.info.pv == (position.texts[-1],)
    assert best == BestMove(1, index=len(position.actions) - 1)


def test_what_the_bot_prints_does_not_reach_the_host() -> None:
    def chatty(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        print("thinking...")
        return actions[0]

    _, answers = _exchange(chatty, [first_position(), Go(1)])
    assert answers == [BestMove(1, index=0)]
