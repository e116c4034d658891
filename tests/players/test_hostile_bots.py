"""Bad arguments to :func:`~splendor.play_game`, the built-in bots and the bot loader.

Each call either gives a correct result or raises a
:class:`splendor.SplendorError` subclass with a clear message; a bot's own
exception reaches the caller unchanged. The fixed defects' comments say what
went wrong before the fix.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from splendor import (
    Action,
    GreedyBot,
    Pass,
    PlayerView,
    RandomBot,
    Reserve,
    legal_actions,
    play_game,
    view,
)
from splendor.players.bots import load_bot
from splendor.players.seats import BotFailedError
from tests.hostile import (
    FACE_UP,
    STATE,
    Call,
    bad_take,
    copy_card,
    raises_library_error,
)

# ---------------------------------------------------------------------------
# Wrong arguments that are handled: pinned.


HANDLED: dict[str, Call] = {
    "play_game one bot": lambda: play_game([RandomBot()], seed=1),
    "play_game not callable": lambda: play_game([RandomBot(), 5], seed=1),  # type: ignore[list-item]  # wrong type on purpose
    "play_game str bots": lambda: play_game("ab", seed=1),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game seed float": lambda: play_game([RandomBot(), RandomBot()], seed=1.0),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game rules str": lambda: play_game([RandomBot(), RandomBot()], seed=1, rules="x"),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game names str": lambda: play_game([RandomBot(), RandomBot()], seed=1, names="ab"),
    "play_game names ints": lambda: play_game([RandomBot(), RandomBot()], seed=1, names=[1, 2]),  # type: ignore[list-item]  # wrong type on purpose
    "play_game max_turns bool": lambda: play_game([RandomBot()] * 2, seed=1, max_turns=True),
    "play_game max_turns -1": lambda: play_game([RandomBot()] * 2, seed=1, max_turns=-1),
    "play_game bot returns str": lambda: play_game([lambda v, a, r: "p", RandomBot()], seed=1),  # type: ignore[list-item]  # wrong type on purpose
    "play_game bot returns None": lambda: play_game([lambda v, a, r: None, RandomBot()], seed=1),  # type: ignore[list-item]  # wrong type on purpose
    "play_game bot bad Take": lambda: play_game([lambda v, a, r: bad_take(), RandomBot()], seed=1),
    "play_game bot illegal": lambda: play_game([lambda v, a, r: Pass(), RandomBot()], seed=1),
    "play_game bot copy card": lambda: play_game(
        [lambda v, a, r: Reserve(copy_card(FACE_UP)), RandomBot()], seed=1
    ),
    "GreedyBot spectator": lambda: GreedyBot()(
        view(STATE, None), legal_actions(STATE), random.Random(1)
    ),
    "load_bot unknown": lambda: load_bot("chess"),
    "load_bot missing module": lambda: load_bot("no_such_module_zz:bot"),
    "load_bot nul": lambda: load_bot("\x00:bot"),
    "load_bot not callable": lambda: load_bot("splendor:CARDS"),
    "load_bot empty": lambda: load_bot(""),
}


@pytest.mark.parametrize("call", list(HANDLED.values()), ids=list(HANDLED))
def test_a_wrong_argument_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


def test_a_bot_that_raises_fails_with_its_own_error_as_the_cause() -> None:
    """The bot's own exception reaches the caller as the cause of the library's error."""

    def broken(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        raise ZeroDivisionError("the bot's own bug")

    with pytest.raises(BotFailedError, match="the bot's own bug") as caught:
        play_game([broken, RandomBot()], seed=1)
    assert (caught.value.seat, caught.value.reason) == (0, "crash")
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


# ---------------------------------------------------------------------------
# Fixed defects: wrong arguments that once let a foreign exception escape.


DEFECTS: dict[str, Call] = {
    # bots.py play_game: tuple(bots), tuple(names) unchecked.
    "play_game bots None": lambda: play_game(None, seed=1),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game bots int": lambda: play_game(5, seed=1),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game names int": lambda: play_game([RandomBot()] * 2, seed=1, names=5),  # type: ignore[arg-type]  # wrong type on purpose
    # bots.py load_bot: spec.partition, import_module of a relative name, found().
    "load_bot None": lambda: load_bot(None),  # type: ignore[arg-type]  # wrong type on purpose
    "load_bot relative module": lambda: load_bot("..x:y"),
    "load_bot class with arguments": lambda: load_bot("splendor.core.state:GameState"),
    # bots.py: the built-in bots called directly with no actions or no view.
    "RandomBot no actions": lambda: RandomBot()(view(STATE, 0), [], random.Random(1)),
    "GreedyBot no actions": lambda: GreedyBot()(view(STATE, 0), [], random.Random(1)),
    "GreedyBot view None": lambda: GreedyBot()(None, legal_actions(STATE), random.Random(1)),  # type: ignore[arg-type]  # wrong type on purpose
}


@pytest.mark.parametrize("call", list(DEFECTS.values()), ids=list(DEFECTS))
def test_a_wrong_argument_that_once_escaped_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)
