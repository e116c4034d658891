"""The policy network: its file, its features, and the search that ranks moves by it.

The shipped policy loads and fits the observation layout and the move
features; every fault of a file is refused with
:class:`~splendor.errors.WeightsError`; the kernel works out the same state
part and the same move scores as :mod:`splendor.fast.search_reference`, and
its search with a policy finds what the pure one finds.
"""

from __future__ import annotations

import array
import hashlib
import json
import random
from pathlib import Path

import attrs
import pytest

import splendor
from splendor import GameState, InvalidArgumentError, legal_actions, view
from splendor.core.actions import Buy, Reserve, ReserveFromDeck, Take
from splendor.core.views import determinize
from splendor.errors import WeightsError
from splendor.fast import network as net
from splendor.fast import search as fast_search_module
from splendor.fast import search_reference
from splendor.fast.network import (
    MAGIC,
    MOVE_FEATURES,
    POLICY_MAGIC,
    PolicyNetwork,
    input_size,
    load_network,
    load_policy,
    move_features_digest,
    network_input,
    policy_state,
    save_network,
    save_policy,
    shipped_policies,
)
from splendor.fast.search_reference import SearchOutcome, move_features, policy_scores, priors
from splendor.players.bots import load_bot
from splendor.players.search import SearchBot
from tests.fast.conftest import implementation
from tests.strategies import seeded_position

# The pure search reads the network's inputs with numpy (the [rl] extra).
pytest.importorskip("numpy")

SHIPPED = Path(net.__file__).parent.parent / "data" / "policy-2p.net"


def positions(players: int = 2) -> list[GameState]:
    found = []
    for seed in range(5):
        for turns in (0, 7, 19, 33, 52):
            state = seeded_position(players, seed, seed + 30, turns, buy_bias=0.3)
            if not state.is_over:
                found.append(state)
    return found


POSITIONS = positions()


def random_policy(seed: int, hidden: int = 24) -> PolicyNetwork:
    """A policy of random weights (larger than trained ones, so ties are rare)."""
    rng = random.Random(seed)
    inputs = input_size(2)
    return PolicyNetwork(
        2,
        (inputs, hidden, len(MOVE_FEATURES)),
        [
            (
                [rng.gauss(0.0, 0.3) for _ in range(inputs * hidden)],
                [rng.gauss(0.0, 0.3) for _ in range(hidden)],
            ),
            (
                [rng.gauss(0.0, 1.0) for _ in range(hidden * len(MOVE_FEATURES))],
                [rng.gauss(0.0, 1.0) for _ in range(len(MOVE_FEATURES))],
            ),
        ],
    )


def kernel_search(
    state: GameState, iterations: int, seed: int, policy: PolicyNetwork | None, **options: object
) -> SearchOutcome:
    kernel = implementation("kernel")
    found = kernel.search(
        kernel.Game.from_state(state),
        state.current_player,
        iterations,
        None,
        seed,
        options.get("exploration", 0.15),
        options.get("widening", 1.0),
        options.get("rollout_rounds", 1),
        2.5,
        options.get("network"),
        options.get("stop_early", False),
        options.get("leaf_weight", 0.0),
        policy,
    )
    assert isinstance(found, SearchOutcome)
    return found


def pure_search(
    state: GameState, iterations: int, seed: int, policy: PolicyNetwork | None, **options: object
) -> SearchOutcome:
    return search_reference.search(
        state,
        state.current_player,
        iterations=iterations,
        seconds=None,
        seed=seed,
        exploration=float(options.get("exploration", 0.15)),  # type: ignore[arg-type]  # a float given
        widening=float(options.get("widening", 1.0)),  # type: ignore[arg-type]  # a float given
        rollout_rounds=int(options.get("rollout_rounds", 1)),  # type: ignore[call-overload]  # an int given
        temperature=2.5,
        network=options.get("network"),  # type: ignore[arg-type]  # a network or None given
        stop_early=bool(options.get("stop_early", False)),
        leaf_weight=float(options.get("leaf_weight", 0.0)),  # type: ignore[arg-type]  # a float given
        policy=policy,
    )


# The shipped weights and the file.


def test_the_shipped_policy_loads_and_fits_the_layout_and_the_features() -> None:
    assert shipped_policies() == (2,)
    policy = load_policy(2)
    assert policy.sizes == (input_size(2), policy.sizes[1], len(MOVE_FEATURES))
    assert policy.sizes[1] <= 256
    figures = policy.metadata["validation"]
    assert isinstance(figures, dict)
    # It orders moves better than the prior it starts from, on held-out games.
    assert figures["policy"]["first"] > figures["prior"]["first"]
    with pytest.raises(WeightsError, match="no policy network is shipped for 3 players"):
        load_policy(3)


def test_save_then_load_gives_the_same_policy_bit_for_bit(tmp_path: Path) -> None:
    policy = attrs.evolve(random_policy(1), metadata={"note": "mine"})
    path = tmp_path / "mine.policy"
    save_policy(policy, path)
    again = load_policy(2, path)
    assert again == policy
    assert again.payload() == policy.payload()
    assert again.metadata == {"note": "mine"}
    assert path.read_bytes().startswith(POLICY_MAGIC)


def policy_file_parts(data: bytes) -> tuple[dict[str, object], bytes]:
    line, _, payload = data[len(POLICY_MAGIC) :].partition(b"\n")
    header: dict[str, object] = json.loads(line)
    return header, payload


def refused(tmp_path: Path, data: bytes, players: int = 2) -> str:
    path = tmp_path / "bad.policy"
    path.write_bytes(data)
    with pytest.raises(WeightsError) as info:
        load_policy(players, path)
    return str(info.value)


def test_every_fault_of_a_policy_file_is_refused(tmp_path: Path) -> None:
    good = SHIPPED.read_bytes()
    header, payload = policy_file_parts(good)

    def joined(changed: dict[str, object], body: bytes = payload) -> bytes:
        return POLICY_MAGIC + json.dumps(changed).encode("utf-8") + b"\n" + body

    # A value network is not a policy, nor the other way round.
    value = tmp_path / "value.net"
    save_network(load_network(2), value)
    assert "is not a policy network" in refused(tmp_path, value.read_bytes())
    with pytest.raises(WeightsError, match="is not a value network"):
        load_network(2, SHIPPED)
    assert "is not a policy network" in refused(tmp_path, MAGIC + good[len(POLICY_MAGIC) :])
    assert "is cut short" in refused(tmp_path, good[:-4])
    assert "is longer than its sizes say" in refused(tmp_path, good + b"\0\0\0\0")
    changed = bytearray(payload)
    changed[10] ^= 1
    assert "sha256 checksum" in refused(tmp_path, joined(header, bytes(changed)))
    assert "is a network for 2 players, not 3" in refused(tmp_path, good, players=3)
    other_layout = {**header, "observation": hashlib.sha256(b"other").hexdigest()}
    assert "another observation layout" in refused(tmp_path, joined(other_layout))
    other_moves = {**header, "moves": hashlib.sha256(b"other").hexdigest()}
    assert "other move features" in refused(tmp_path, joined(other_moves))
    no_moves = {k: v for k, v in header.items() if k != "moves"}
    assert "other move features" in refused(tmp_path, joined(no_moves))
    sizes = {**header, "sizes": [input_size(2), 8, len(MOVE_FEATURES) - 1]}
    assert "one output per move feature" in refused(tmp_path, joined(sizes))
    deeper = {**header, "sizes": [input_size(2), 8, 8, len(MOVE_FEATURES)]}
    assert "3 positive ints" in refused(tmp_path, joined(deeper))


def test_the_move_features_digest_follows_the_features(monkeypatch: pytest.MonkeyPatch) -> None:
    before = move_features_digest()
    monkeypatch.setattr(net, "MOVE_FEATURES", (*MOVE_FEATURES[:-1], "something else"))
    assert net.move_features_digest() != before


def test_a_policy_of_inconsistent_parts_is_refused() -> None:
    good = random_policy(2)
    with pytest.raises(WeightsError, match="layer 2 is 24 x 34"):
        PolicyNetwork(2, good.sizes, [good.layers[0], (good.layers[1][0], [0.0])])
    with pytest.raises(WeightsError, match="a policy for 3 players has 420 inputs"):
        PolicyNetwork(3, good.sizes, good.layers)
    with pytest.raises(InvalidArgumentError, match="expected a PolicyNetwork"):
        save_policy(load_network(2), "x.policy")  # type: ignore[arg-type]  # the error under test


# What the policy computes.


def test_the_features_describe_each_kind_of_move() -> None:
    """Each kind of move, by hand: a take of two, a reserve with its return,
    a reserve from a deck, a buy of a reserved card paid partly in gold."""
    seen = 0
    for state in [s for players in (2, 3) for s in positions(players)]:
        me = state.players[state.current_player]
        actions = legal_actions(state)
        for action, row in zip(actions, move_features(state, actions), strict=True):
            named = {name: x for name, x in zip(MOVE_FEATURES, row, strict=True) if x}
            kinds = [
                k for k in ("buy", "take", "reserve", "reserve_from_deck", "pass") if k in named
            ]
            assert len(kinds) == 1
            if type(action) is Take:
                gems = action.gems.counts
                assert named.get("two_of_a_colour", 0.0) == (1.0 if 2 in gems else 0.0)
                assert named.get("taken", 0.0) == sum(gems)
                assert named.get("returned", 0.0) == action.returned.total
            elif type(action) is Buy:
                assert action.payment is not None
                assert named.get("paid", 0.0) == action.payment.total
                assert named.get("paid_gold", 0.0) == action.payment.counts[5]
                assert named.get("from_reserve", 0.0) == (
                    1.0 if action.card in me.reserved else 0.0
                )
                assert named[f"tier_{action.card.tier}"] == 1.0
                assert named.get("points", 0.0) == action.card.points
                assert named["cost"] == action.card.cost.total / 5.0
                assert named.get("noble", 0.0) == (0.0 if action.noble is None else 1.0)
                seen |= 1 if action.card in me.reserved else 0
                seen |= 2 if action.payment.counts[5] else 0
            elif type(action) is Reserve:
                assert named.get("returned_gold", 0.0) == action.returned.counts[5]
                seen |= 4 if action.returned.total else 0
            elif type(action) is ReserveFromDeck:
                assert set(named) <= {
                    "reserve_from_deck",
                    f"tier_{action.tier}",
                    "prior",
                    "returned",
                    "returned_gold",
                }
                seen |= 8
        assert [row[MOVE_FEATURES.index("prior")] for row in move_features(state, actions)] == [
            p / 10.0 for p in priors(state, actions)
        ]
    assert seen == 15


def test_policy_state_is_the_two_layers_rounded_to_float32() -> None:
    policy = random_policy(3)
    row = network_input(POSITIONS[3], POSITIONS[3].current_player)
    (w1, b1), (w2, b2) = policy.layers
    hidden = []
    for j in range(len(b1)):
        total = float(b1[j])
        for i, x in enumerate(row):
            if x:
                total += x * w1[i * len(b1) + j]
        hidden.append(max(total, 0.0))
    expected = []
    for j in range(len(b2)):
        total = float(b2[j])
        for i, h in enumerate(hidden):
            if h:
                total += h * w2[i * len(b2) + j]
        expected.append(array.array("f", [total])[0])
    assert policy_state(policy, row) == tuple(expected)
    with pytest.raises(InvalidArgumentError, match="takes 350 inputs"):
        policy_state(policy, row[:-1])
    with pytest.raises(InvalidArgumentError, match="expected a PolicyNetwork"):
        policy_state(load_network(2), row)  # type: ignore[arg-type]  # the error under test


def test_the_kernel_scores_moves_as_the_pure_policy_does() -> None:
    kernel = implementation("kernel")
    compared = 0
    for k, policy in enumerate([load_policy(2), random_policy(4)]):
        for seed in range(10):
            for turns in (0, 8, 21, 37, 55):
                state = seeded_position(2, seed, seed + 11 * k, turns, buy_bias=0.3)
                if state.is_over:
                    continue
                weights, scores = kernel._policy_parts(kernel.Game.from_state(state), policy)
                expected = policy_state(policy, network_input(state, state.current_player))
                assert tuple(weights) == expected
                assert scores == policy_scores(state, legal_actions(state), expected)
                compared += 1
    assert compared > 80


# The search with a policy.


@pytest.mark.parametrize("k", range(0, len(POSITIONS), 4))
def test_with_a_policy_the_kernel_finds_what_the_pure_search_finds(k: int) -> None:
    state = POSITIONS[k]
    template = determinize(view(state, state.current_player), random.Random(k))
    policy = load_policy(2)
    for options in ({}, {"network": load_network(2), "leaf_weight": 0.3}, {"widening": 2.0}):
        found = kernel_search(template, 150, k, policy, **options)
        assert found == pure_search(template, 150, k, policy, **options)
        assert sum(found.visits) == 150
    # The policy changes what the search finds (a random one, to be sure of it).
    other = random_policy(k)
    assert kernel_search(template, 150, k, other) == pure_search(template, 150, k, other)
    assert kernel_search(template, 150, k, other) != kernel_search(template, 150, k, None)


def test_a_large_search_keeps_a_state_part_per_node() -> None:
    """Enough iterations that the kernel's pool of state parts grows many times."""
    state = POSITIONS[6]
    policy = random_policy(5)
    found = kernel_search(state, 1500, 2, policy, rollout_rounds=0)
    assert found == pure_search(state, 1500, 2, policy, rollout_rounds=0)


def test_the_bot_takes_its_policy_from_the_package_a_file_or_an_object(tmp_path: Path) -> None:
    seen = view(POSITIONS[5], POSITIONS[5].current_player)
    shipped = SearchBot(iterations=200, seed=3, policy=True).search(seen, random.Random(0))
    given = SearchBot(iterations=200, seed=3, policy=load_policy(2)).search(seen, random.Random(0))
    plain = SearchBot(iterations=200, seed=3).search(seen, random.Random(0))
    assert shipped == given
    other = random_policy(6)
    path = tmp_path / "mine.policy"
    save_policy(other, path)
    by_path = SearchBot(iterations=200, seed=3, policy=str(path))
    mine = by_path.search(seen, random.Random(0))
    assert mine == SearchBot(iterations=200, seed=3, policy=other).search(seen, random.Random(0))
    assert mine != plain
    spec = load_bot(f"search:iterations=200,seed=3,policy={path}")
    assert isinstance(spec, SearchBot)
    assert spec.search(seen, random.Random(0)) == mine
    assert "policy=True" in repr(SearchBot(iterations=10, policy=True))
    assert "policy" not in repr(SearchBot(iterations=10))
    # Three players: no policy is shipped, so policy=True ranks by the prior;
    # a 2-player policy or file is refused with the library's error.
    three = next(s for s in positions(3))
    seen3 = view(three, three.current_player)
    assert SearchBot(iterations=100, seed=1, policy=True).search(
        seen3, random.Random(0)
    ) == SearchBot(iterations=100, seed=1).search(seen3, random.Random(0))
    with pytest.raises(InvalidArgumentError, match="2-player games, not this 3-player one"):
        SearchBot(iterations=10, policy=other).search(seen3, random.Random(0))
    with pytest.raises(WeightsError, match="is a network for 2 players, not 3"):
        by_path.search(seen3, random.Random(0))


def test_the_pure_fallback_ranks_by_the_policy_too(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = view(POSITIONS[2], POSITIONS[2].current_player)
    implementation("kernel")
    compiled = SearchBot(iterations=120, seed=8, policy=True).search(seen, random.Random(0))
    monkeypatch.setattr(fast_search_module, "_kernel_search", None)
    assert SearchBot(iterations=120, seed=8, policy=True).search(seen, random.Random(0)) == compiled


@pytest.mark.parametrize("bad", [3, 1.0, "", b"x.policy", None])
def test_a_bad_policy_option_is_refused(bad: object) -> None:
    with pytest.raises(InvalidArgumentError, match="policy"):
        SearchBot(iterations=10, policy=bad)  # type: ignore[arg-type]  # the error under test


def test_the_kernel_refuses_a_policy_it_cannot_use() -> None:
    state = POSITIONS[0]
    with pytest.raises(InvalidArgumentError, match="policy must be a PolicyNetwork"):
        kernel_search(state, 10, 1, "weights")  # type: ignore[arg-type]  # the error under test
    three = positions(3)[0]
    with pytest.raises(InvalidArgumentError, match="ranks 2-player moves from 350 inputs"):
        kernel_search(three, 10, 1, load_policy(2))
    kernel = implementation("kernel")
    over = splendor.play_game([splendor.GreedyBot(), splendor.GreedyBot()], seed=1).final_state()
    with pytest.raises(InvalidArgumentError, match="the game is over"):
        kernel._policy_parts(kernel.Game.from_state(over), load_policy(2))
