"""SearchBot, the strongest built-in bot: its options, its seeds and budgets, its games.

Its search, in the kernel and in pure Python, is tested in tests/fast/test_search.py.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import attrs
import pytest

import splendor
from splendor import InvalidArgumentError, legal_actions, view
from splendor.fast.search_reference import MAX_ITERATIONS
from splendor.players.search import SearchBot
from tests.fast.conftest import implementation
from tests.strategies import search_positions

POSITIONS = list(search_positions())


def test_a_seeded_bot_is_reproducible_and_the_seed_matters() -> None:
    state = POSITIONS[5]
    seen = view(state, state.current_player)
    actions = legal_actions(seen)
    first = SearchBot(iterations=400, seed=1).search(seen, random.Random(0))
    again = SearchBot(iterations=400, seed=1).search(seen, random.Random(1))
    assert first == again
    others = {
        SearchBot(iterations=400, seed=s).search(seen, random.Random(0)).visits for s in range(2, 6)
    }
    assert len(others | {first.visits}) > 1
    # Without a seed the bot draws its seed from the rng it is given.
    unseeded = SearchBot(iterations=400)
    assert unseeded.search(seen, random.Random(7)) == unseeded.search(seen, random.Random(7))
    assert unseeded(seen, actions, random.Random(7)) in actions


def test_a_time_budget_stops_the_search() -> None:
    state = POSITIONS[2]
    seen = view(state, state.current_player)
    bot = SearchBot(seconds=0.05, seed=1)
    outcome = bot.search(seen, random.Random(0))
    assert 1 <= outcome.iterations < MAX_ITERATIONS
    assert bot.last_iterations == outcome.iterations
    # Whichever budget comes first: the iterations here.
    assert (
        SearchBot(iterations=7, seconds=100.0, seed=1).search(seen, random.Random(0)).iterations
        == 7
    )


def test_the_pure_fallback_plays_the_same_moves() -> None:
    """With SPLENDOR_PURE=1 the bot runs the pure search: the same moves as the kernel."""
    implementation("kernel")
    script = (
        "import random, splendor\n"
        "from splendor.fast import COMPILED\n"
        "from splendor.players.search import SearchBot\n"
        "assert not COMPILED\n"
        "bots = [SearchBot(iterations=60, seed=2), splendor.GreedyBot()]\n"
        "record = splendor.play_game(bots, seed=5, max_turns=12)\n"
        "print(' '.join(str(a) for a in record.actions))\n"
    )
    env = {**os.environ, "SPLENDOR_PURE": "1"}
    pure = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout.strip()
    record = splendor.play_game(
        [SearchBot(iterations=60, seed=2), splendor.GreedyBot()], seed=5, max_turns=12
    )
    assert pure == " ".join(str(a) for a in record.actions)


def test_it_beats_the_greedy_bot() -> None:
    """Not a measure of strength (benchmarks/strength.py is): the search plays to win."""
    won = 0
    for deal in range(3):
        for seat in range(2):
            bots: list[splendor.Bot] = [splendor.GreedyBot(), splendor.GreedyBot()]
            bots[seat] = SearchBot(iterations=1500, seed=deal)
            won += seat in (splendor.play_game(bots, seed=deal).result or ())
    assert won >= 5


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": 0}, "iterations must be an int from 1"),
        ({"iterations": MAX_ITERATIONS + 1}, "iterations must be an int from 1"),
        ({"iterations": True}, "iterations must be an int"),
        ({"iterations": 2.0}, "iterations must be an int"),
        ({"seconds": 0}, "seconds must be a positive number"),
        ({"seconds": -1.0}, "seconds must be a positive number"),
        ({"seconds": float("nan")}, "seconds must be a positive number"),
        ({"seconds": float("inf")}, "seconds must be a positive number"),
        ({"seconds": "1"}, "seconds must be a positive number"),
        ({"seed": 1.5}, "seed must be an int"),
        ({"exploration": 0.0}, "exploration must be a positive number"),
        ({"widening": -1}, "widening must be a positive number"),
        ({"temperature": float("nan")}, "temperature must be a positive number"),
        ({"rollout_rounds": -1}, "rollout_rounds must be an int from 0"),
        ({"rollout_rounds": 1001}, "rollout_rounds must be an int from 0"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        SearchBot(**options)  # type: ignore[arg-type]  # the wrong types are the point


def test_bad_views_and_actions_are_refused() -> None:
    state = POSITIONS[3]
    seat = state.current_player
    seen = view(state, seat)
    actions = legal_actions(seen)
    bot = SearchBot(iterations=50, seed=1)
    rng = random.Random(0)
    with pytest.raises(InvalidArgumentError, match="spectator"):
        bot(view(state, None), actions, rng)
    with pytest.raises(InvalidArgumentError, match="turn"):
        bot(view(state, (seat + 1) % len(state.players)), actions, rng)
    # The actions of another game's view.
    elsewhere = view(splendor.new_game(len(state.players), seed=12345), 0)
    if elsewhere.current_player == seat:
        with pytest.raises(InvalidArgumentError):
            bot(seen, legal_actions(elsewhere)[:3], rng)
    with pytest.raises(InvalidArgumentError, match="rng"):
        bot.search(seen, 5)  # type: ignore[arg-type]  # not a generator
    # A view no game can reach: a card both face up and in a hand.
    card = next(card for row in seen.board for card in row if card is not None)
    own = seen.own
    assert own is not None
    broken = attrs.evolve(seen, own=attrs.evolve(own, reserved=(*own.reserved, card)))
    with pytest.raises(InvalidArgumentError, match="impossible view"):
        bot.search(broken, rng)
    over = splendor.play_game([splendor.GreedyBot(), splendor.GreedyBot()], seed=1).final_state()
    with pytest.raises(InvalidArgumentError):
        bot.search(view(over, over.current_player), rng)
