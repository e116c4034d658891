"""The interface of :mod:`splendor.fast`, on every implementation (see ``conftest.py``)."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import os
import pickle
from types import ModuleType

import attrs
import pytest

import splendor
from splendor import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    Rules,
    SplendorError,
    apply,
    fast,
    legal_actions,
    new_game,
)
from splendor.errors import MissingExtraError
from splendor.fast import reference as fast_pure
from splendor.fast.reference import Playouts, SplitMix64
from splendor.players.bots import bot_rngs
from tests.fast.conftest import implementation
from tests.strategies import VARIANTS
from tools.bot_diff import on_the_engine


class Index:
    """An integer-like value, as numpy's integers are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def _finished(impl: ModuleType, players: int = 2, seed: int = 3) -> splendor.GameState:
    game = impl.Game.new(players, seed=seed)
    game.play_random(seed)
    state: splendor.GameState = game.state()
    assert state.is_over
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["standard", "no-gold", "all-nobles"])
def test_new_deals_as_new_game(impl: ModuleType, players: int, variant: str) -> None:
    rules = VARIANTS[variant]
    for seed in (0, 1, 2**40):
        game = impl.Game.new(players, seed=seed, rules=rules)
        assert game.state() == new_game(players, seed=seed, rules=rules)
        assert game.rules == rules


def test_new_refuses_what_new_game_refuses(impl: ModuleType) -> None:
    with pytest.raises(InvalidArgumentError):
        impl.Game.new(5, seed=1)
    with pytest.raises(InvalidArgumentError):
        impl.Game.new(2, seed="1")
    with pytest.raises(InvalidArgumentError):
        impl.Game.new(2, seed=1, rules="standard")


def test_the_constructor_points_to_the_factories(impl: ModuleType) -> None:
    with pytest.raises(InvalidArgumentError, match="from_state"):
        impl.Game()


def test_from_state_round_trips_states_of_a_game(impl: ModuleType) -> None:
    state = new_game(3, seed=11)
    for turn in range(120):
        if state.is_over:
            break
        game = impl.Game.from_state(state)
        assert game.state() == state
        assert game.current_player == state.current_player
        assert game.turn == state.turn == turn
        assert game.points == tuple(p.points for p in state.players)
        assert game.is_over is False
        assert game.winners == ()
        actions = legal_actions(state)
        state = apply(state, actions[(turn * 7) % len(actions)])


def test_from_state_refuses_a_state_that_fails_check_state(impl: ModuleType) -> None:
    state = new_game(2, seed=1)
    with pytest.raises(InvalidStateError, match="turns"):
        impl.Game.from_state(attrs.evolve(state, turn=1))
    with pytest.raises(InvalidStateError, match="tokens"):
        impl.Game.from_state(attrs.evolve(state, bank=splendor.Tokens(1, 2, 3, 4, 5, 6)))
    with pytest.raises(InvalidArgumentError):
        impl.Game.from_state("a state")
    with pytest.raises(InvalidArgumentError):
        impl.Game.from_state(None)


def test_action_and_play_follow_legal_actions(impl: ModuleType) -> None:
    state = new_game(4, seed=21)
    game = impl.Game.from_state(state)
    for turn in range(60):
        actions = legal_actions(state)
        assert game.action_count() == len(actions)
        assert game.actions() == actions
        assert game.action(0) == actions[0]
        assert game.action(-1) == actions[-1]
        assert game.action(Index(1 % len(actions))) == actions[1 % len(actions)]
        index = (turn * 5) % len(actions)
        game.play(index)
        state = apply(state, actions[index])
        assert game.state() == state


@pytest.mark.parametrize("bad", [30, -31, 2**70, -(2**70)])
def test_an_index_out_of_range_raises_and_changes_nothing(impl: ModuleType, bad: int) -> None:
    game = impl.Game.new(2, seed=1)
    assert game.action_count() == 30
    before = game.state()
    with pytest.raises(InvalidArgumentError, match="out of range"):
        game.play(bad)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        game.action(bad)
    assert game.state() == before
    assert game.action_count() == 30
    game.play(29)  # the last one is fine
    assert game.turn == 1


@pytest.mark.parametrize("bad", ["0", 1.0, True, None, [0]])
def test_an_index_that_is_not_an_int_raises(impl: ModuleType, bad: object) -> None:
    game = impl.Game.new(2, seed=1)
    before = game.state()
    with pytest.raises(InvalidArgumentError, match="must be an int"):
        game.play(bad)
    with pytest.raises(InvalidArgumentError, match="must be an int"):
        game.action(bad)
    assert game.state() == before


def test_play_takes_its_index_by_position_only(impl: ModuleType) -> None:
    # A positional-only signature: the compiled kernel's call takes no keywords.
    game = impl.Game.new(2, seed=1)
    with pytest.raises(TypeError):
        game.play(index=0)
    assert game.turn == 0
    game.play(0)
    assert game.turn == 1


def test_a_finished_game_has_no_moves(impl: ModuleType) -> None:
    state = _finished(impl)
    game = impl.Game.from_state(state)
    assert game.is_over
    assert game.winners == state.winners != ()
    assert game.action_count() == 0
    assert game.actions() == ()
    with pytest.raises(IllegalActionError, match="over"):
        game.play(0)
    with pytest.raises(IllegalActionError, match="over"):
        game.action(0)
    assert game.play_random(seed=1) == 0
    assert game.state() == state


def test_copies_are_independent(impl: ModuleType) -> None:
    game = impl.Game.new(2, seed=4)
    game.play(3)
    before = game.state()
    for clone in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        assert type(clone) is type(game)
        assert clone.state() == before
        clone.play(0)
        assert clone.state() != before
        assert game.state() == before
    game.play(0)
    assert game.state() == apply(before, legal_actions(before)[0])


def test_a_game_pickles_as_its_state(impl: ModuleType) -> None:
    game = impl.Game.new(3, seed=8)
    game.play_random(seed=2, max_turns=30)
    restored = pickle.loads(pickle.dumps(game))
    assert type(restored) is type(game)
    assert restored.state() == game.state()


def test_repr_names_the_game(impl: ModuleType) -> None:
    text = repr(impl.Game.new(2, seed=1))
    assert text.startswith("Game(players=2, turn=0")


def test_random_playouts_are_seeded_and_the_same_everywhere(impl: ModuleType) -> None:
    state = new_game(2, seed=5)
    result = impl.random_playouts(state, 12, seed=99)
    assert result == impl.random_playouts(state, 12, seed=99)
    assert result == fast_pure.random_playouts(state, 12, seed=99)
    assert result.games == 12
    assert result.unfinished == 0
    assert sum(result.wins) >= 12
    assert 12 * 20 < result.turns < 12 * 400
    assert result != impl.random_playouts(state, 12, seed=100)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_playout_is_play_random_on_a_copy(impl: ModuleType, players: int) -> None:
    game = impl.Game.new(players, seed=players)
    game.play(1)
    result = impl.random_playouts(game, 1, seed=7)
    before = game.state()
    clone = game.copy()
    turns = clone.play_random(seed=7)
    assert game.state() == before  # random_playouts and the copy left it alone
    assert result.turns == turns
    assert result.wins == tuple(int(seat in clone.winners) for seat in range(players))


def test_max_turns_stops_games_unfinished(impl: ModuleType) -> None:
    state = new_game(2, seed=5)
    result = impl.random_playouts(state, 5, seed=1, max_turns=10)
    assert result == Playouts(games=5, wins=(0, 0), turns=50, unfinished=5)
    assert impl.random_playouts(state, 0, seed=1) == Playouts(games=0, wins=(0, 0), turns=0)
    game = impl.Game.from_state(state)
    assert game.play_random(seed=1, max_turns=7) == 7
    assert game.turn == 7


def test_playouts_from_a_finished_game(impl: ModuleType) -> None:
    state = _finished(impl, players=3)
    result = impl.random_playouts(state, 4, seed=1)
    assert result.turns == 0
    assert result.wins == tuple(4 if seat in state.winners else 0 for seat in range(3))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"games": -1}, "games"),
        ({"games": True}, "games"),
        ({"games": 1.5}, "games"),
        ({"seed": "1"}, "seed"),
        ({"max_turns": -1}, "max_turns"),
        ({"max_turns": 2.0}, "max_turns"),
    ],
)
def test_random_playouts_refuses_bad_arguments(
    impl: ModuleType, kwargs: dict[str, object], match: str
) -> None:
    arguments: dict[str, object] = {"games": 2, "seed": 1, **kwargs}
    with pytest.raises(InvalidArgumentError, match=match):
        impl.random_playouts(new_game(2, seed=1), **arguments)


def test_random_playouts_refuses_a_bad_start(impl: ModuleType) -> None:
    with pytest.raises(InvalidArgumentError, match="GameState"):
        impl.random_playouts("state", 1, seed=1)
    with pytest.raises(InvalidStateError):
        impl.random_playouts(attrs.evolve(new_game(2, seed=1), turn=3), 1, seed=1)


def test_house_rules_beyond_the_usual_numbers(impl: ModuleType) -> None:
    # Limits far above what a game can reach behave as no limit at all.
    rules = Rules(token_limit=10**9, reserve_limit=10**6, points_to_win=10**6)
    state = new_game(2, seed=3, rules=rules)
    game = impl.Game.from_state(state)
    for turn in range(150):
        actions = legal_actions(state)
        assert game.actions() == actions
        index = (turn * 11) % len(actions)
        game.play(index)
        state = apply(state, actions[index])
        assert game.state() == state
    result = impl.random_playouts(state, 3, seed=1)
    assert result == fast_pure.random_playouts(state, 3, seed=1)
    assert result.unfinished == 0


def test_the_kernel_refuses_numbers_beyond_its_range() -> None:
    kernel = implementation("kernel")
    many = new_game(2, seed=1, rules=Rules(gems_by_players=(300, 300, 300)))
    with pytest.raises(InvalidArgumentError, match="255 tokens"):
        kernel.Game.from_state(many)
    with pytest.raises(InvalidArgumentError, match="255 tokens"):
        kernel.random_playouts(many, 1, seed=1)
    # The pure fallback plays them.
    assert fast_pure.Game.from_state(many).action_count() > 0


def test_the_kernel_state_is_small() -> None:
    kernel = implementation("kernel")
    assert kernel.STATE_SIZE == 208
    assert kernel.MOVE_SIZE == 16


def test_compiled_says_which_implementation_is_in_use() -> None:
    pure = os.environ.get("SPLENDOR_PURE", "") not in ("", "0")
    if pure:
        assert fast.COMPILED is False
        assert fast.STATE_SIZE == 0
        assert issubclass(fast.Game, fast_pure.Game)
    else:
        kernel = implementation("kernel")
        assert fast.COMPILED is True
        assert fast.STATE_SIZE == kernel.STATE_SIZE
        assert issubclass(fast.Game, kernel.Game)
    assert fast.random_playouts(new_game(2, seed=1), 3, seed=4) == fast_pure.random_playouts(
        new_game(2, seed=1), 3, seed=4
    )


def test_splitmix64_matches_its_published_first_outputs() -> None:
    rng = SplitMix64(1234567)
    # The reference outputs of SplitMix64 for the seed 1234567.
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]
    assert SplitMix64(-1).next() == SplitMix64(2**64 - 1).next()
    with pytest.raises(InvalidArgumentError):
        SplitMix64(1.5)  # type: ignore[arg-type]  # the error is the point


def test_below_is_uniform_enough() -> None:
    rng = SplitMix64(3)
    counts = [0] * 7
    for _ in range(7000):
        counts[rng.below(7)] += 1
    assert all(850 < count < 1150 for count in counts)
    assert {rng.below(1) for _ in range(10)} == {0}


def test_win_rates() -> None:
    assert Playouts(games=4, wins=(3, 2), turns=9).win_rates() == (0.75, 0.5)
    assert Playouts(games=0, wins=(0, 0, 0), turns=0).win_rates() == (0.0, 0.0, 0.0)


def test_errors_are_the_librarys() -> None:
    game = fast.Game.new(2, seed=1)
    with pytest.raises(SplendorError):
        game.play(-100)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_bots_of_random_seats_is_the_game_play_game_plays(players: int) -> None:
    bots = on_the_engine([splendor.RandomBot()] * players)
    seats = ("random",) * players
    for seed in (1, 2):
        record = splendor.play_game(bots, seed=seed, max_turns=1000)
        game, indices = fast.play_bots(seats, bot_rngs(seed, players), seed=seed)
        assert game.state() == record.final_state()
        assert len(indices) == len(record.actions)
    rules = VARIANTS["token-limit-5"]
    record = splendor.play_game(bots, seed=5, rules=rules, max_turns=40)
    game, indices = fast.play_bots(seats, bot_rngs(5, players), seed=5, rules=rules, max_turns=40)
    assert game.state() == record.final_state()
    assert len(indices) == 40


def test_the_packages_submodules_import_by_name_from_it() -> None:
    # ``from splendor.fast import name`` reads the package's attribute first:
    # a global of splendor.fast named like a submodule would shadow it.
    names = ["game", "reference", "layout"]
    if importlib.util.find_spec("numpy") is None:
        # The observation rows need numpy: without it, the library's error.
        with pytest.raises(MissingExtraError, match="numpy"):
            importlib.import_module("splendor.fast.observations")
    else:
        names.append("observations")
    for name in names:
        module = importlib.import_module(f"splendor.fast.{name}")
        assert getattr(fast, name) is module, name
    assert fast.Game is importlib.import_module("splendor.fast.game").Game


def test_a_new_game_without_a_seed_deals_from_a_fresh_one(impl: ModuleType) -> None:
    assert impl.Game.new(2).state() != impl.Game.new(2).state()


def test_playouts_without_a_seed_draw_a_fresh_one(impl: ModuleType) -> None:
    start = impl.Game.new(2, seed=1)
    ends = set()
    for _ in range(4):
        game = start.copy()
        game.play_random()
        ends.add(game.state())
    assert len(ends) > 1
    assert impl.random_playouts(start, 3).games == 3
