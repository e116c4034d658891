"""One policy for a bot that fails: :func:`ask_bot` and :func:`close_bot`."""

from __future__ import annotations

import logging
import pickle
import random
from collections.abc import Sequence

import pytest

from splendor import Action, GreedyBot, PlayerView, Take, Tokens, legal_actions, new_game
from splendor.errors import EngineTimeoutError, InvalidArgumentError
from splendor.formats.record import Forfeit
from splendor.players.seats import MAX_DETAIL, BotFailedError, ask_bot, close_bot
from splendor.remote.messages import Limit

STATE = new_game(2, seed=1)
ACTIONS = legal_actions(STATE)


def answering(answer: object) -> object:
    def bot(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> object:
        return answer

    return bot


def raising(error: Exception) -> object:
    def bot(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        raise error

    return bot


def failure(bot: object, name: str = "it") -> BotFailedError:
    with pytest.raises(BotFailedError) as caught:
        ask_bot(bot, STATE, ACTIONS, random.Random(0), name=name)  # type: ignore[arg-type]  # bots of any answer
    return caught.value


def test_a_legal_answer_is_returned_with_the_time_the_bot_took() -> None:
    ticks = iter([10.0, 10.25])
    answer = ask_bot(GreedyBot(), STATE, ACTIONS, random.Random(0), clock=lambda: next(ticks))
    assert answer.action in ACTIONS
    assert answer.seconds == 0.25


def test_a_bot_that_raises_fails_with_a_crash_and_its_exception_as_the_cause() -> None:
    error = RuntimeError("out of memory")
    failed = failure(raising(error), name="bad")
    assert (failed.seat, failed.name, failed.reason) == (0, "bad", "crash")
    assert failed.detail == "RuntimeError: out of memory"
    assert failed.__cause__ is error
    assert str(failed) == "the bot at seat 0 (bad) failed (crash): RuntimeError: out of memory"


def test_an_engine_error_gives_its_own_reason() -> None:
    assert failure(raising(EngineTimeoutError("no move in 1 s"))).reason == "timeout"


def test_an_answer_that_is_not_an_action_is_an_illegal_move_naming_the_bot() -> None:
    failed = failure(answering("take 3 red"), name="FailsAt")
    assert failed.reason == "illegal-move"
    assert failed.detail == "FailsAt returned 'take 3 red', not an action"


def test_an_action_the_rules_forbid_is_an_illegal_move_naming_the_turn() -> None:
    failed = failure(answering(Take(Tokens(red=3))))
    assert failed.reason == "illegal-move"
    assert failed.detail.startswith("IllegalActionError: turn 1 (player 0, take 3R): ")


def test_a_detail_is_cut_to_its_bound() -> None:
    failed = failure(raising(RuntimeError("x" * 1000)))
    assert len(failed.detail) == MAX_DETAIL
    assert failed.detail.endswith("...")


def test_the_failure_is_the_seats_forfeit() -> None:
    failed = failure(raising(RuntimeError("gone")))
    assert failed.forfeit() == Forfeit(0, "crash", "RuntimeError: gone")


def test_a_limit_is_only_for_an_engine() -> None:
    with pytest.raises(InvalidArgumentError, match="a limit is for a bot engine"):
        ask_bot(GreedyBot(), STATE, ACTIONS, random.Random(0), limit=Limit(time=1.0))


def test_an_interrupt_is_not_a_bots_failure() -> None:
    with pytest.raises(KeyboardInterrupt):
        ask_bot(raising(KeyboardInterrupt()), STATE, ACTIONS, random.Random(0))  # type: ignore[arg-type]  # KeyboardInterrupt is a BaseException


class Closes:
    """A bot with a ``close`` that records being called, or raises ``error``."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.closed = 0
        self.error = error

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        return actions[0]

    def close(self) -> None:
        self.closed += 1
        if self.error is not None:
            raise self.error


def test_closing_a_bot_without_close_does_nothing() -> None:
    assert close_bot(GreedyBot()) is None


def test_closing_a_bot_calls_its_close_once() -> None:
    bot = Closes()
    assert close_bot(bot) is None
    assert bot.closed == 1


def test_a_close_that_fails_is_logged_and_returned_never_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    error = OSError("the pipe is gone")
    with caplog.at_level(logging.ERROR, logger="splendor.players"):
        assert close_bot(Closes(error)) is error
    (logged,) = caplog.records
    assert logged.exc_info is not None
    assert logged.exc_info[1] is error


def test_an_interrupt_while_closing_is_raised() -> None:
    with pytest.raises(KeyboardInterrupt):
        close_bot(Closes(KeyboardInterrupt()))


def test_a_bot_failure_crosses_a_process_pool_by_pickle() -> None:
    error = BotFailedError(1, "cheat", "illegal-move", "take 3W")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is BotFailedError
    assert (again.seat, again.name, again.reason, again.detail) == (
        1,
        "cheat",
        "illegal-move",
        "take 3W",
    )
    assert str(again) == str(error)


def test_a_bot_that_answers_a_huge_int_fails_with_the_librarys_error() -> None:
    def huge(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        return 10**5000  # type: ignore[return-value]  # deliberately not an action

    state = new_game(2, seed=1)
    with pytest.raises(BotFailedError, match="an int of 16610 bits, not an action") as caught:
        ask_bot(huge, state, legal_actions(state), random.Random(0), name="huge")
    assert caught.value.reason == "illegal-move"


def test_a_bot_whose_error_cannot_be_printed_fails_with_the_librarys_error() -> None:
    def raises_huge(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        raise ValueError(10**5000)

    state = new_game(2, seed=1)
    with pytest.raises(BotFailedError, match="ValueError: a ValueError too large") as caught:
        ask_bot(raises_huge, state, legal_actions(state), random.Random(0), name="huge")
    assert caught.value.reason == "crash"
