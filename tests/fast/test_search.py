"""The search of :class:`splendor.players.search.SearchBot`: the kernel's and its pure twin's.

The compiled search and :mod:`splendor.fast.search_reference` must find the
same thing (the same move, visits, shares and principal variation) from the
same template and seed; the search must see only the seat's view; and bad
budgets, views and actions get the library's error.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from pathlib import Path

import attrs
import pytest

import splendor
from splendor import GameState, InvalidArgumentError, legal_actions, view
from splendor.core.views import determinize
from splendor.errors import WeightsError
from splendor.fast import search as fast_search_module
from splendor.fast import search_reference
from splendor.fast.network import ValueNetwork, load_network, save_network, shipped_networks
from splendor.fast.reference import SplitMix64
from splendor.fast.search_reference import MAX_ITERATIONS, SearchOutcome
from splendor.players import search as search_module
from splendor.players.bots import load_bot
from splendor.players.search import SearchBot
from tests.fast.conftest import implementation
from tests.strategies import VARIANTS, search_positions, seeded_position, variant_states

OPTIONS = {"exploration": 0.25, "widening": 1.5, "rollout_rounds": 0, "temperature": 2.5}


def hidden_reserves(state: GameState) -> int:
    """The blind reserves of the players other than the one to move."""
    return sum(
        sum(player.reserved_blind)
        for seat, player in enumerate(state.players)
        if seat != state.current_player
    )


POSITIONS = list(search_positions())


def test_the_positions_cover_what_the_deal_hides() -> None:
    assert {len(state.players) for state in POSITIONS} == {2, 3, 4}
    assert sum(1 for state in POSITIONS if hidden_reserves(state)) >= 5


def kernel_search(
    template: GameState,
    seat: int,
    iterations: int,
    seed: int,
    network: ValueNetwork | None = None,
    options: Mapping[str, float] | None = None,
    stop_early: bool = False,
    leaf_weight: float = 0.0,
) -> SearchOutcome:
    kernel = implementation("kernel")
    merged = {**OPTIONS, **(options or {})}
    outcome = kernel.search(
        kernel.Game.from_state(template),
        seat,
        iterations,
        None,
        seed,
        merged["exploration"],
        merged["widening"],
        int(merged["rollout_rounds"]),
        merged["temperature"],
        network,
        stop_early,
        leaf_weight,
    )
    assert isinstance(outcome, SearchOutcome)
    return outcome


def pure_search(
    template: GameState,
    seat: int,
    iterations: int,
    seed: int,
    network: ValueNetwork | None = None,
    options: Mapping[str, float] | None = None,
    stop_early: bool = False,
    leaf_weight: float = 0.0,
) -> SearchOutcome:
    merged = {**OPTIONS, **(options or {})}
    return search_reference.search(
        template,
        seat,
        iterations=iterations,
        seconds=None,
        seed=seed,
        exploration=merged["exploration"],
        widening=merged["widening"],
        rollout_rounds=int(merged["rollout_rounds"]),
        temperature=merged["temperature"],
        network=network,
        stop_early=stop_early,
        leaf_weight=leaf_weight,
    )


@pytest.mark.parametrize("k", [0, 9])
def test_with_the_network_the_kernel_finds_what_the_pure_search_finds(k: int) -> None:
    two = [state for state in POSITIONS if len(state.players) == 2]
    state = two[k % len(two)]
    seat = state.current_player
    network = load_network(2)
    template = determinize(view(state, seat), random.Random(k))
    for rounds in (0, 1):
        found = kernel_search(template, seat, 40, k, network, options={"rollout_rounds": rounds})
        assert found == pure_search(
            template, seat, 40, k, network, options={"rollout_rounds": rounds}
        )
        # The network changes what the search finds.
        assert found != kernel_search(template, seat, 40, k, options={"rollout_rounds": rounds})


def test_with_the_three_player_network_too() -> None:
    """Three seats: the rotation of the network's answer back to seat order shows."""
    three = [state for state in POSITIONS if len(state.players) == 3][1]
    seat = three.current_player
    template = determinize(view(three, seat), random.Random(3))
    network = load_network(3)
    found = kernel_search(template, seat, 30, 3, network)
    assert found == pure_search(template, seat, 30, 3, network)


@pytest.mark.parametrize(
    ("iterations", "options"),
    [
        (40, {"widening": 3e9}),
        (40, {"widening": 1e300, "exploration": 1e-300}),
        (1500, {"rollout_rounds": 0}),
    ],
)
def test_extreme_settings_and_a_larger_tree_agree(
    iterations: int, options: dict[str, float]
) -> None:
    state = POSITIONS[7]
    seat = state.current_player
    found = kernel_search(state, seat, iterations, 2, options=options)
    assert found == pure_search(state, seat, iterations, 2, options=options)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_house_rules_agree(variant: str) -> None:
    for players in (2, 4):
        states = list(variant_states(players, variant, 40, name="search", seed=players))
        state = states[-1]
        if state.is_over:
            continue
        found = kernel_search(state, state.current_player, 60, 9)
        assert found == pure_search(state, state.current_player, 60, 9)


def test_the_kernel_weighs_as_the_pure_search_does() -> None:
    """Priors, scores and the rollout's choice, position by position (_search_parts)."""
    kernel = implementation("kernel")
    compared = 0
    for players in (2, 3, 4):
        for seed in range(12):
            for turns in (0, 9, 23, 41, 66):
                state = seeded_position(players, seed, seed + 7, turns, buy_bias=0.3)
                if state.is_over:
                    continue
                priors, scores, pick = kernel._search_parts(kernel.Game.from_state(state))
                actions = legal_actions(state)
                assert priors == search_reference.priors(state, actions)
                assert scores == [search_reference.score(state, k) for k in range(players)]
                assert pick == search_reference._rollout_pick(state, actions, SplitMix64(0))
                compared += 1
    assert compared > 150


def test_a_deep_tree_under_endless_rules() -> None:
    """A tree more than a thousand moves deep (the path grows) under rules nobody wins:
    a limit of 2 tokens, the decks empty and the other cards reserved face up."""
    rules = splendor.Rules(token_limit=2, reserve_limit=90)
    state = splendor.new_game(2, seed=1, rules=rules)
    rest = tuple(card for deck in state.decks for card in deck)
    other = attrs.evolve(state.players[1], reserved=rest, reserved_blind=(False,) * len(rest))
    state = attrs.evolve(state, decks=((), (), ()), players=(state.players[0], other), turn=200)
    options = {"widening": 1e-300, "exploration": 1e-300, "rollout_rounds": 0.0}
    found = kernel_search(state, 0, 6000, 1, options=options)
    assert found.iterations == 6000
    assert len(found.pv) > 1100


def test_a_network_for_other_games_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    three = next(state for state in POSITIONS if len(state.players) == 3)
    seen = view(three, three.current_player)
    with pytest.raises(InvalidArgumentError, match="2-player games, not this 3-player one"):
        SearchBot(iterations=10, network=load_network(2)).search(seen, random.Random(0))
    with pytest.raises(InvalidArgumentError, match="a network for 3 players ends in 3 outputs"):
        kernel_search(three, three.current_player, 10, 1, load_network(2))
    with pytest.raises(InvalidArgumentError, match="network must be True, False, a ValueNetwork"):
        SearchBot(network=3)  # type: ignore[arg-type]  # refused on purpose
    with pytest.raises(InvalidArgumentError, match="path must be a non-empty str"):
        SearchBot(network="")
    # A path that names no network: the library's error at the first search.
    with pytest.raises(WeightsError, match=r"cannot read the network 'no-such\.net'"):
        SearchBot(iterations=10, network="no-such.net").search(seen, random.Random(0))
    # A shipped network that cannot be read: the library's error when a move is asked.
    monkeypatch.setattr(search_module, "_shipped", _unreadable)
    two = next(state for state in POSITIONS if len(state.players) == 2)
    with pytest.raises(WeightsError, match="cut short"):
        SearchBot(iterations=10, network=True).search(
            view(two, two.current_player), random.Random(0)
        )


def test_a_network_named_by_its_path_is_read_for_the_game(tmp_path: Path) -> None:
    pytest.importorskip("numpy")  # the pure search reads the network's inputs with it
    path = tmp_path / "mine-2p.net"
    save_network(load_network(2), path)
    two = next(state for state in POSITIONS if len(state.players) == 2)
    seen = view(two, two.current_player)
    given = SearchBot(iterations=300, seed=4, network=load_network(2)).search(
        seen, random.Random(0)
    )
    plain = SearchBot(iterations=300, seed=4).search(seen, random.Random(0))
    by_path = SearchBot(iterations=300, seed=4, network=path)
    assert by_path.search(seen, random.Random(0)) == given != plain
    # The same through a bot spec, as the command line and tournaments name bots.
    spec = load_bot(f"search:iterations=300,seed=4,network={path}")
    assert isinstance(spec, SearchBot)
    assert spec.search(seen, random.Random(0)) == given
    # The file holds a 2-player network: a 3-player game is refused with the library's error.
    three = next(state for state in POSITIONS if len(state.players) == 3)
    with pytest.raises(WeightsError, match="is a network for 2 players, not 3"):
        by_path.search(view(three, three.current_player), random.Random(0))


def _unreadable(players: int) -> ValueNetwork:
    raise WeightsError(f"the shipped value-{players}p.net is cut short")


def test_network_true_uses_the_shipped_networks_and_the_heuristic_elsewhere() -> None:
    pytest.importorskip("numpy")  # the pure search reads the network's inputs with it
    assert set(shipped_networks()) >= {2, 3}
    for players in (2, 3, 4):
        state = next(state for state in POSITIONS if len(state.players) == players)
        seen = view(state, state.current_player)
        with_network = SearchBot(iterations=200, seed=1, network=True).search(
            seen, random.Random(0)
        )
        plain = SearchBot(iterations=200, seed=1).search(seen, random.Random(0))
        if players in shipped_networks():
            assert with_network != plain
        else:
            assert with_network == plain


@pytest.mark.parametrize("k", range(0, len(POSITIONS), 3))
def test_the_kernel_finds_what_the_pure_search_finds(k: int) -> None:
    state = POSITIONS[k]
    seat = state.current_player
    template = determinize(view(state, seat), random.Random(k))
    options: list[dict[str, float]] = [
        {},
        {"rollout_rounds": 2},
        {"exploration": 0.7, "widening": 0.8, "temperature": 1.0},
    ]
    for number, extra in enumerate(options):
        expected = pure_search(template, seat, 120, k * 10 + number, options=extra)
        found = kernel_search(template, seat, 120, k * 10 + number, options=extra)
        assert found == expected
        assert found.iterations == 120
        assert sum(found.visits) == 120
        assert found.pv[0] == legal_actions(state)[found.index]
        assert sum(found.win) == pytest.approx(1.0)


def test_every_root_move_gets_searched_with_a_budget_that_allows_it() -> None:
    state = POSITIONS[0]
    seat = state.current_player
    outcome = kernel_search(state, seat, 20_000, 3)
    assert len(outcome.visits) == len(legal_actions(state))
    # Progressive widening admits every move by about (n / 1.5) ** 2 visits.
    assert min(outcome.visits) >= 1
    assert outcome.visits[outcome.index] == max(outcome.visits)


@pytest.mark.parametrize("k", range(1, len(POSITIONS), 4))
def test_only_the_view_matters(k: int) -> None:
    """Two states with the same view get the same search: the hidden cards are dealt anew."""
    state = POSITIONS[k]
    seat = state.current_player
    seen = view(state, seat)
    other = determinize(seen, random.Random(99))
    assert view(other, seat) == seen
    if state.decks[0] and len(state.decks[0]) > 1:
        assert other != state  # the deck order (at least) differs
    for search in (kernel_search, pure_search):
        assert search(state, seat, 150, 5) == search(other, seat, 150, 5)
    bot = SearchBot(iterations=150, seed=4)
    rng = random.Random(0)
    assert bot(seen, legal_actions(seen), rng) == bot(view(other, seat), legal_actions(seen), rng)


def test_a_different_view_can_change_the_move() -> None:
    """The search reads the view: the same seed on different positions finds different moves."""
    moves = set()
    for state in POSITIONS[:12]:
        outcome = kernel_search(state, state.current_player, 300, 1)
        moves.add(str(outcome.pv[0]))
    assert len(moves) > 3


def test_the_kernel_search_refuses_what_it_cannot_search() -> None:
    kernel = implementation("kernel")
    over = splendor.play_game([splendor.GreedyBot(), splendor.GreedyBot()], seed=1).final_state()
    state = POSITIONS[0]
    mover = state.current_player
    good = {"exploration": 0.15, "widening": 1.0, "rollout_rounds": 4, "temperature": 2.5}
    cases: list[tuple[GameState, object, object, dict[str, object], str]] = [
        (over, 0, 10, {}, "the game is over"),
        (state, 5, 10, {}, "the search is for the seat to move"),
        (state, 1 - mover, 10, {}, "the search is for the seat to move"),
        (state, mover, 0, {}, "iterations must be from 1"),
        (state, mover, MAX_ITERATIONS + 1, {}, "iterations must be from 1"),
        (state, mover, 10, {"exploration": float("nan")}, "exploration must be a positive"),
        (state, mover, 10, {"widening": -1.0}, "widening must be a positive"),
        (state, mover, 10, {"temperature": 0.0}, "temperature must be a positive"),
        (state, mover, 10, {"temperature": 10**400}, "temperature must be a positive"),
        (state, mover, 10, {"rollout_rounds": 10**30}, "rollout_rounds must be from 0"),
        (state, mover, 10, {"rollout_rounds": -1}, "rollout_rounds must be from 0"),
    ]
    for position, seat, iterations, bad, message in cases:
        game = kernel.Game.from_state(position)
        options = {**good, **bad}
        with pytest.raises(InvalidArgumentError, match=message):
            kernel.search(
                game,
                seat,
                iterations,
                None,
                1,
                options["exploration"],
                options["widening"],
                options["rollout_rounds"],
                options["temperature"],
            )
    game = kernel.Game.from_state(state)
    args = (game, mover, 10, None, 1, 0.15, 1.0, 4, 2.5)
    with pytest.raises(InvalidArgumentError, match="network must be a ValueNetwork"):
        kernel.search(*args, "weights")
    deep = ValueNetwork(
        2,
        (350, *[4] * 7, 2),
        [([0.0] * (a * b), [0.0] * b) for a, b in itertools.pairwise((350, *[4] * 7, 2))],
    )
    with pytest.raises(InvalidArgumentError, match="at most 6 layers"):
        kernel.search(*args, deep)
    with pytest.raises(InvalidArgumentError, match="exploration must be a positive"):
        SearchBot(exploration=10**400)


def _dense_reference(values: list[float], weights: list[float], biases: list[float]) -> list[float]:
    """A layer's sums in network.evaluate's order: per output, the bias, then each
    value that is not 0 in order times its (float32) weight, rounded at each step."""
    outputs = len(biases)
    sums = list(biases)
    for i, x in enumerate(values):
        if x != 0.0:
            for j in range(outputs):
                sums[j] += x * weights[i * outputs + j]
    return sums


def test_every_dense_path_adds_as_the_pure_forward_pass() -> None:
    """The search's layer sums (AVX2, SSE2 and plain C, whichever this processor
    runs) equal the pure order to the last bit, for widths with and without a
    tail past the blocks of 16 and 8, and inputs with zeros."""
    import array

    kernel = implementation("kernel")
    rng = random.Random(5)
    paths = range(kernel._dense_path() + 1)
    checked = 0
    for outputs in (1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 64, 128, 131):
        for inputs in (1, 5, 40):
            # float32 weights, as the network's file holds them
            weights = array.array("f", [rng.gauss(0.0, 0.3) for _ in range(inputs * outputs)])
            values = [rng.choice((0.0, 0.0, 1.0, 2.0, rng.uniform(-3, 3))) for _ in range(inputs)]
            biases = [rng.uniform(-1, 1) for _ in range(outputs)]
            expected = _dense_reference(values, list(weights), biases)
            for path in paths:
                assert kernel._dense(values, weights, biases, path) == expected
                checked += 1
    assert checked >= 39 * len(paths)
    with pytest.raises(InvalidArgumentError):
        kernel._dense([1.0], [1.0], [0.0], 3)
    with pytest.raises(InvalidArgumentError):
        kernel._dense([1.0], [1.0, 2.0, 3.0], [0.0], 0)


def test_stopping_early_finds_the_same_move_in_both_searches_sooner() -> None:
    """stop_early: the kernel and the pure search stop at the same iteration
    (a multiple of 16) with equal outcomes, on the move the whole budget
    finds; at least one position stops early, and none runs longer."""
    stopped = 0
    for k, state in enumerate(POSITIONS[:14]):
        seat = state.current_player
        whole = kernel_search(state, seat, 400, k)
        found = kernel_search(state, seat, 400, k, stop_early=True)
        pure = pure_search(state, seat, 400, k, stop_early=True)
        assert found == pure
        assert found.pv[0] == whole.pv[0]
        assert found.iterations <= 400
        if found.iterations < 400:
            stopped += 1
            assert found.iterations % 16 == 0
            # Stopped exactly when the leader could no longer be caught.
            top, second = [*sorted(found.visits, reverse=True), 0][:2]
            assert top - second > 400 - found.iterations
    assert stopped >= 3


def test_stopping_early_is_a_bool() -> None:
    state = POSITIONS[0]
    with pytest.raises(InvalidArgumentError, match="stop_early"):
        SearchBot(iterations=10, stop_early=1)  # type: ignore[arg-type]  # the error under test
    with pytest.raises(InvalidArgumentError, match="stop_early"):
        kernel_search(state, state.current_player, 10, 1, stop_early="yes")  # type: ignore[arg-type]  # the error under test
    assert "stop_early=True" in repr(SearchBot(iterations=10, stop_early=True))


def test_the_default_rollouts_agree_with_and_without_the_network() -> None:
    """Four rounds of rollout past the leaf's (SearchBot's default): rollouts
    that often stop at positions where buys compete (which the kernel lists
    alone), on 2- to 4-player positions, with the network where one ships."""
    options = {"rollout_rounds": 4, "exploration": 0.15, "widening": 1.0}
    compared = 0
    for k, state in enumerate(POSITIONS[::3]):
        players = len(state.players)
        network = load_network(players) if players in shipped_networks() else None
        for evaluator in [None] if network is None else [None, network]:
            seat = state.current_player
            found = kernel_search(state, seat, 120, k, evaluator, options=options)
            assert found == pure_search(state, seat, 120, k, evaluator, options=options)
            compared += 1
    assert compared >= 12


def ending_positions() -> Iterator[GameState]:
    """Unfinished positions one and three moves before the end of greedy
    games of 2 to 4 players, where many of a search's leaves are finished."""
    for players in (2, 3, 4):
        record = splendor.play_game([splendor.GreedyBot() for _ in range(players)], seed=players)
        for back in (2, 4):
            yield record.state_at(-back)


def test_the_leaf_weight_mixes_the_same_rewards_in_both_searches() -> None:
    """leaf_weight: the kernel and the pure search agree, with the network
    and with the heuristic, for 2 to 4 players, in the middle and at the end
    of games (where leaves are finished games, scored by their result
    alone), at weights that are and are not powers of two (so that the order
    of the operations counts); a weight moves the shares (the leaf is
    evaluated) in the middle of games."""
    options = {"rollout_rounds": 2, "exploration": 0.15, "widening": 1.0}
    middle = [state for state in POSITIONS if state.turn > 0][::3]
    ending = list(ending_positions())
    assert all(not state.is_over for state in ending)
    compared = moved = in_middle = 0
    for k, state in enumerate(middle + ending):
        players = len(state.players)
        network = load_network(players) if players in shipped_networks() else None
        seat = state.current_player
        for evaluator in [None] if network is None else [None, network]:
            plain = kernel_search(state, seat, 96, k, evaluator, options=options)
            for weight in (0.3, 0.5, 1.0):
                found = kernel_search(state, seat, 96, k, evaluator, options, leaf_weight=weight)
                assert found == pure_search(
                    state, seat, 96, k, evaluator, options, leaf_weight=weight
                )
                compared += 1
                if k < len(middle):
                    in_middle += 1
                    moved += found.win != plain.win
    assert len(middle) >= 10
    assert compared >= 40
    assert moved >= in_middle - 1


def test_the_bot_searches_with_its_leaf_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    """SearchBot hands leaf_weight to the kernel's search and to the pure
    one alike: each finds what the other does, and not what the bot without
    the weight finds."""
    state = next(state for state in POSITIONS if state.turn > 0)
    seen = view(state, state.current_player)

    def searched(weight: float) -> SearchOutcome:
        bot = SearchBot(iterations=200, seed=5, network=True, leaf_weight=weight)
        return bot.search(seen, random.Random(0))

    implementation("kernel")
    compiled = {weight: searched(weight) for weight in (0.0, 0.3)}
    monkeypatch.setattr(fast_search_module, "_kernel_search", None)
    pure = {weight: searched(weight) for weight in (0.0, 0.3)}
    assert compiled == pure
    assert compiled[0.3].win != compiled[0.0].win


def test_the_leaf_weight_is_checked() -> None:
    state = POSITIONS[0]
    for bad in (-0.1, 1.5, "0.5", True, float("nan")):
        with pytest.raises(InvalidArgumentError, match="leaf_weight"):
            SearchBot(iterations=10, leaf_weight=bad)  # type: ignore[arg-type]  # the error under test
        with pytest.raises(InvalidArgumentError, match="leaf_weight"):
            kernel_search(state, state.current_player, 10, 1, leaf_weight=bad)  # type: ignore[arg-type]  # the error under test
    bot = SearchBot(iterations=10, leaf_weight=1)
    assert bot.leaf_weight == 1.0
    for good in (0, 1):  # an int is a number from 0 to 1, for the kernel too
        found = kernel_search(state, state.current_player, 10, 1, leaf_weight=good)
        assert found == kernel_search(state, state.current_player, 10, 1, leaf_weight=float(good))
    assert "leaf_weight=0.5" in repr(SearchBot(iterations=10, leaf_weight=0.5))
    assert "leaf_weight" not in repr(SearchBot(iterations=10))
    spec = load_bot("search:iterations=10,leaf_weight=0.5")
    assert isinstance(spec, SearchBot)
    assert spec.leaf_weight == 0.5
