"""The value network of :mod:`splendor.fast.network`: its file, its loader and its forward pass.

The shipped weights load and fit the observation layout; every fault of a
file is refused with :class:`~splendor.errors.WeightsError`; a network is
written and read again bit for bit; and :func:`evaluate` is the perceptron it
claims to be (against numpy in float64) and says something sensible.
"""

from __future__ import annotations

import array
import hashlib
import itertools
import json
import math
import struct
import subprocess
import sys
import types
from pathlib import Path

import attrs
import pytest

# The tests compare the forward pass with numpy's (the [rl] extra); the run
# without numpy (nox -s tests-pure) checks that the module imports without it.
pytest.importorskip("numpy")

import numpy as np
import numpy.typing as npt

from splendor import GameState, errors
from splendor.errors import InvalidArgumentError, SplendorError, WeightsError
from splendor.fast import network as net
from splendor.fast.layout import CARD_FEATURES, observation_layout
from splendor.fast.network import (
    MAGIC,
    MAX_HEADER,
    NETWORK_FORMAT,
    ValueNetwork,
    evaluate,
    evaluate_batch,
    input_size,
    load_network,
    network_input,
    observation_digest,
    save_network,
)
from splendor.formats.encoding import ACTION_COUNT
from tests.strategies import seeded_position

SHIPPED = Path(net.__file__).parent.parent / "data" / "value-2p.net"


def positions() -> list[GameState]:
    """Unfinished two-player positions, early, middle and late."""
    found = []
    for seed in range(4):
        for turns in (0, 9, 25, 45):
            state = seeded_position(2, seed, seed + 50, turns, buy_bias=0.3)
            if not state.is_over:
                found.append(state)
    return found


POSITIONS = positions()


def parts(data: bytes) -> tuple[dict[str, object], bytes]:
    """The header and payload of a weights file's bytes."""
    assert data.startswith(MAGIC)
    line, _, payload = data[len(MAGIC) :].partition(b"\n")
    header: dict[str, object] = json.loads(line)
    return header, payload


def joined(header: dict[str, object], payload: bytes) -> bytes:
    """A weights file's bytes from its header and payload."""
    return MAGIC + json.dumps(header).encode("utf-8") + b"\n" + payload


def refusal(tmp_path: Path, data: bytes, players: int = 2) -> str:
    """The message of the WeightsError that loading ``data`` raises."""
    path = tmp_path / "weights.net"
    path.write_bytes(data)
    with pytest.raises(WeightsError) as info:
        load_network(players, path)
    return str(info.value)


def numpy_forward(network: ValueNetwork, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The same perceptron, straightforwardly, in float64."""
    h = x
    for number, (weights, biases) in enumerate(network.layers):
        w = np.array(weights, np.float64).reshape(len(weights) // len(biases), len(biases))
        h = h @ w + np.array(biases, np.float64)
        if number < len(network.layers) - 1:
            h = np.maximum(h, 0.0)
    e = np.exp(h - h.max())
    result: npt.NDArray[np.float64] = e / e.sum()
    return result


# The shipped weights.


def test_the_input_is_everything_before_the_decision_field() -> None:
    for players in (2, 3, 4):
        fields = {field.name: field for field in observation_layout(players)}
        assert input_size(players) == fields["decision"].start
        total = fields["decision"].stop
        assert input_size(players) == total - 1 - 2 * ACTION_COUNT


def test_the_shipped_network_loads_and_fits_the_layout() -> None:
    network = load_network()
    assert network.players == 2
    assert network.sizes[0] == input_size(2) == 350
    assert network.sizes[-1] == 2
    parameters = sum(len(w) + len(b) for w, b in network.layers)
    assert parameters < 400_000
    assert SHIPPED.stat().st_size < 1_100_000
    assert network == load_network(2, SHIPPED)
    assert isinstance(network.metadata.get("games"), int)


def test_the_forward_pass_gives_probabilities_of_each_seat() -> None:
    network = load_network(2)
    for state in POSITIONS[:6]:
        for seat in (0, 1):
            win = evaluate(network, network_input(state, seat))
            assert len(win) == 2
            assert all(0.0 <= p <= 1.0 for p in win)
            assert abs(math.fsum(win) - 1.0) < 1e-12


def test_the_input_is_the_start_of_the_kernels_observation() -> None:
    from splendor.fast import Game

    state = POSITIONS[5]
    game = Game.from_state(state)
    out = np.zeros(observation_layout(2)[-1].stop, np.float32)
    for seat in (0, 1):
        game.observation_into(out, seat)
        assert network_input(state, seat) == tuple(out[: input_size(2)].tolist())


def test_the_payload_is_the_files_weights() -> None:
    network = load_network(2)
    _, payload = parts(SHIPPED.read_bytes())
    assert network.payload() == payload
    first = network.layers[0][0]
    assert struct.unpack("<f", payload[4:8])[0] == first[1]


# Refusals.


@pytest.fixture
def good() -> bytes:
    """The bytes of the shipped file."""
    return SHIPPED.read_bytes()


def test_weights_error_is_a_splendor_error() -> None:
    assert issubclass(WeightsError, SplendorError)
    assert issubclass(WeightsError, ValueError)
    assert "WeightsError" in errors.__all__


def test_a_wrong_magic_line_is_refused(tmp_path: Path, good: bytes) -> None:
    message = refusal(tmp_path, b"SPLENDOR-VALUE-NETWORX\n" + good[len(MAGIC) :])
    assert "is not a value network" in message
    assert "is not a value network" in refusal(tmp_path, b"")


def test_a_truncated_payload_is_refused(tmp_path: Path, good: bytes) -> None:
    assert "is cut short" in refusal(tmp_path, good[:-1])
    header, _ = parts(good)
    assert "is cut short" in refusal(tmp_path, joined(header, b""))


def test_a_payload_longer_than_the_sizes_say_is_refused(tmp_path: Path, good: bytes) -> None:
    assert "is longer than its sizes say" in refusal(tmp_path, good + b"\0\0\0\0")
    header, payload = parts(good)
    header["sizes"] = [350, 128, 63, 2]  # fewer weights than the payload holds
    assert "is longer than its sizes say" in refusal(tmp_path, joined(header, payload))


def test_a_header_that_is_not_json_is_refused(tmp_path: Path, good: bytes) -> None:
    assert "is not JSON" in refusal(tmp_path, MAGIC + b"{not json\n" + parts(good)[1])
    assert "is not JSON" in refusal(tmp_path, MAGIC + b"\xff\xfe\n")
    assert "is not a JSON object" in refusal(tmp_path, MAGIC + b"[1, 2]\n")
    assert "ends in its header" in refusal(tmp_path, MAGIC + b'{"format": 1')


def test_a_header_too_long_is_refused(tmp_path: Path, good: bytes) -> None:
    header, payload = parts(good)
    header["trained"] = {"note": "x" * MAX_HEADER}
    message = refusal(tmp_path, joined(header, payload))
    assert f"longer than {MAX_HEADER} bytes" in message
    network = attrs.evolve(load_network(2), metadata={"note": "x" * MAX_HEADER})
    with pytest.raises(WeightsError, match="shorten the metadata"):
        save_network(network, tmp_path / "long.net")


def test_an_unknown_format_version_is_refused(tmp_path: Path, good: bytes) -> None:
    header, payload = parts(good)
    for version in (2, 0, "1", True, None):
        header["format"] = version
        message = refusal(tmp_path, joined(header, payload))
        assert f"is in format {version!r}; this version reads format 1" in message


def test_a_wrong_checksum_is_refused(tmp_path: Path, good: bytes) -> None:
    header, payload = parts(good)
    changed = bytearray(payload)
    changed[100] ^= 1
    assert "do not match their sha256 checksum" in refusal(tmp_path, joined(header, bytes(changed)))
    header["sha256"] = hashlib.sha256(b"other").hexdigest()
    assert "do not match their sha256 checksum" in refusal(tmp_path, joined(header, payload))


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_weight_that_is_not_finite_is_refused(tmp_path: Path, good: bytes, value: float) -> None:
    header, payload = parts(good)
    changed = payload[:40] + struct.pack("<f", value) + payload[44:]
    header["sha256"] = hashlib.sha256(changed).hexdigest()
    assert "a value that is not finite" in refusal(tmp_path, joined(header, changed))


def test_weights_for_another_observation_layout_are_refused(tmp_path: Path, good: bytes) -> None:
    header, payload = parts(good)
    header["observation"] = hashlib.sha256(b"another layout").hexdigest()
    message = refusal(tmp_path, joined(header, payload))
    assert "were trained for another observation layout" in message


def test_the_digest_follows_the_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    before = observation_digest(2)
    assert before != observation_digest(3) != observation_digest(4)
    assert len({observation_digest(2), observation_digest(3), observation_digest(4)}) == 3
    monkeypatch.setattr(net, "CARD_FEATURES", (*CARD_FEATURES, "extra"))
    assert observation_digest(2) != before


def test_weights_for_another_player_count_are_refused(tmp_path: Path, good: bytes) -> None:
    message = refusal(tmp_path, good, players=3)
    assert "is a network for 2 players, not 3" in message
    header, payload = parts(good)
    header["sizes"] = [350, 128, 64, 3]
    message = refusal(tmp_path, joined(header, payload))
    assert "has 2 outputs, the sizes say 3" in message
    header["sizes"] = "350 128 64 2"
    assert "are not a list" in refusal(tmp_path, joined(header, payload))
    header["sizes"] = [350, 0, 2]
    assert "positive ints" in refusal(tmp_path, joined(header, payload))


def test_a_payload_too_large_is_refused_before_it_is_read(tmp_path: Path, good: bytes) -> None:
    header, payload = parts(good)
    header["sizes"] = [350, 20_000, 2]
    assert "more than 16,777,216" in refusal(tmp_path, joined(header, payload))


def test_a_player_count_with_no_shipped_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The package's data folder seen as one holding the 2-player file alone.
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "value-2p.net").write_bytes(SHIPPED.read_bytes())
    monkeypatch.setattr(net, "resources", types.SimpleNamespace(files=lambda _: tmp_path))
    assert load_network(2) == load_network(2, SHIPPED)
    for players in (3, 4):
        with pytest.raises(WeightsError, match=f"no value network is shipped for {players}"):
            load_network(players)
    bad: object
    for bad in (1, 5, "2", True):
        with pytest.raises(InvalidArgumentError, match="2 to 4 players"):
            load_network(bad)  # type: ignore[arg-type]  # refused at run time


def test_every_shipped_network_loads() -> None:
    shipped = sorted(SHIPPED.parent.glob("value-*p.net"))
    assert SHIPPED in shipped
    for path in shipped:
        players = int(path.name[len("value-") : -len("p.net")])
        network = load_network(players)
        assert network.sizes[0] == input_size(players)
        assert network.sizes[-1] == players
        assert path.stat().st_size < 1_100_000


def test_the_repr_counts_the_weights_instead_of_printing_them() -> None:
    network = load_network(2)
    text = repr(network)
    assert text == (
        f"ValueNetwork(players=2, sizes={network.sizes!r}, layers=<3 layers, 53,314 parameters>)"
    )
    assert repr(ValueNetwork(2, (input_size(2), 2), [([0.0] * 700, [0.0, 0.0])])).endswith(
        "layers=<1 layer, 702 parameters>)"
    )


def test_a_file_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match=r"cannot read the network .*No such file"):
        load_network(2, tmp_path / "nowhere.net")
    with pytest.raises(WeightsError, match="cannot read the network"):
        load_network(2, tmp_path)  # a folder
    with pytest.raises(WeightsError, match="cannot write the network"):
        save_network(load_network(2), tmp_path / "no" / "such" / "folder.net")


def test_a_network_of_inconsistent_parts_is_refused() -> None:
    zeros = [0.0] * 700
    with pytest.raises(WeightsError, match="layer 1 is 350 x 2: it needs 700 weights"):
        ValueNetwork(2, (350, 2), [(zeros[:-1], [0.0, 0.0])])
    with pytest.raises(WeightsError, match="2 sizes need 1 layers, got 2"):
        ValueNetwork(2, (350, 2), [(zeros, [0.0, 0.0])] * 2)
    with pytest.raises(WeightsError, match="has 350 inputs, the sizes say 349"):
        ValueNetwork(2, (349, 2), [(zeros[:698], [0.0, 0.0])])
    with pytest.raises(WeightsError, match="float32 numbers"):
        ValueNetwork(2, (350, 2), [(["x"] * 700, [0.0, 0.0])])  # type: ignore[list-item]  # refused at run time


# Writing and reading.


def test_save_then_load_gives_the_same_network_bit_for_bit(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    sizes = (350, 16, 8, 2)
    layers = [
        (rng.standard_normal(i * o).astype(np.float32).tolist(), rng.standard_normal(o).tolist())
        for i, o in itertools.pairwise(sizes)
    ]
    network = ValueNetwork(2, sizes, layers, {"games": 3, "note": "été"})
    path = tmp_path / "round.net"
    save_network(network, path)
    again = load_network(2, str(path))
    assert again == network
    assert again.payload() == network.payload()
    for (w, b), (w2, b2) in zip(network.layers, again.layers, strict=True):
        assert w.tobytes() == w2.tobytes()
        assert b.tobytes() == b2.tobytes()
    save_network(again, tmp_path / "twice.net")
    assert (tmp_path / "twice.net").read_bytes() == path.read_bytes()
    shipped = load_network(2)
    save_network(shipped, tmp_path / "shipped.net")
    assert (tmp_path / "shipped.net").read_bytes() == SHIPPED.read_bytes()


def test_a_network_is_immutable_and_compares_by_value() -> None:
    network = load_network(2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        network.players = 3  # type: ignore[misc]  # frozen: the test is that it is refused
    assert network != attrs.evolve(network, metadata={})
    assert isinstance(network.layers[0][0], array.array)


# The forward pass.


def test_evaluate_is_the_perceptron_in_float64() -> None:
    network = load_network(2)
    rows = [network_input(state, seat) for state in POSITIONS for seat in (0, 1)]
    assert len(rows) >= 20
    for row in rows:
        expected = numpy_forward(network, np.array(row, np.float64))
        assert np.abs(np.array(evaluate(network, row)) - expected).max() < 1e-12
    batch = evaluate_batch(network, np.array(rows, np.float32))
    exact = np.array([evaluate(network, row) for row in rows])
    assert batch.shape == (len(rows), 2)
    assert np.abs(batch - exact).max() < 1e-9


def test_evaluate_follows_the_stated_order_to_the_last_bit() -> None:
    # Every weight and bias is 0.1 (not exact in binary): the order of the sums
    # shows in the last bits, so a different order would give other doubles.
    sizes = (350, 3, 2)
    tenth = float(np.float32(0.1))
    network = ValueNetwork(2, sizes, [([0.1] * 1050, [0.1] * 3), ([0.1] * 6, [0.2, 0.1])])
    row = [float(i % 7) / 3.0 for i in range(350)]
    hidden = [tenth] * 3
    for x in row:
        if x != 0.0:
            hidden = [h + x * tenth for h in hidden]
    logits = [float(np.float32(0.2)), tenth]
    for h in hidden:
        logits = [value + h * tenth for value in logits]
    top = max(logits)
    exps = [math.exp(value - top) for value in logits]
    assert evaluate(network, row) == (exps[0] / (exps[0] + exps[1]), exps[1] / (exps[0] + exps[1]))


def test_evaluate_applies_relu_between_layers_only() -> None:
    # One hidden unit driven negative: ReLU makes it 0, so the output is the bias alone.
    weights = [0.0] * 350
    weights[0] = -1.0  # the first input, the bank's white tokens
    network = ValueNetwork(2, (350, 1, 2), [(weights, [0.0]), ([5.0, -5.0], [1.0, 0.0])])
    row = [4.0] + [0.0] * 349
    e = math.exp(-1.0)
    assert evaluate(network, row) == (1.0 / (1.0 + e), e / (1.0 + e))
    # The last layer has no ReLU: negative logits count.
    last = ValueNetwork(2, (350, 2), [([0.0] * 700, [-3.0, -1.0])])
    assert evaluate(last, [0.0] * 350)[1] > 0.85


def test_arguments_of_the_wrong_kind_are_refused(tmp_path: Path) -> None:
    network = load_network(2)
    wrong: object
    for wrong in (0, 2.5, b"weights.net"):  # None is the shipped file
        with pytest.raises(InvalidArgumentError, match="a path must be a str"):
            load_network(2, wrong)  # type: ignore[arg-type]  # refused at run time
        with pytest.raises(InvalidArgumentError, match="a path must be a str"):
            save_network(network, wrong)  # type: ignore[arg-type]  # refused at run time
    for wrong in (None, "network", network.layers):
        with pytest.raises(InvalidArgumentError, match="expected a ValueNetwork"):
            evaluate(wrong, [0.0] * 350)  # type: ignore[arg-type]  # refused at run time
        with pytest.raises(InvalidArgumentError, match="expected a ValueNetwork"):
            evaluate_batch(wrong, np.zeros((1, 350)))  # type: ignore[arg-type]  # refused at run time
        with pytest.raises(InvalidArgumentError, match="expected a ValueNetwork"):
            save_network(wrong, tmp_path / "x.net")  # type: ignore[arg-type]  # refused at run time
    with pytest.raises(InvalidArgumentError, match="a sequence of numbers"):
        evaluate(network, ["a"] * 350)  # type: ignore[list-item]  # refused at run time
    with pytest.raises(InvalidArgumentError, match="a sequence of numbers"):
        evaluate(network, None)  # type: ignore[arg-type]  # refused at run time
    with pytest.raises(InvalidArgumentError, match="rows of numbers"):
        evaluate_batch(network, [["a"] * 350])
    with pytest.raises(InvalidArgumentError, match="expected a GameState"):
        network_input(network_input, 0)  # type: ignore[arg-type]  # refused at run time
    assert not (tmp_path / "x.net").exists()


def test_bad_inputs_are_refused() -> None:
    network = load_network(2)
    with pytest.raises(InvalidArgumentError, match="takes 350 inputs, got 349"):
        evaluate(network, [0.0] * 349)
    with pytest.raises(InvalidArgumentError, match="rows of 350 numbers"):
        evaluate_batch(network, np.zeros((2, 351)))
    with pytest.raises(InvalidArgumentError, match="seat must be 0 to 1"):
        network_input(POSITIONS[0], 2)


def leader(points: int) -> GameState:
    """A game well under way where seat 1 is given ``points`` points and seat 0 few."""
    state = seeded_position(2, 3, 9, 20, buy_bias=0.3)
    assert not state.is_over
    players = list(state.players)
    players[0] = attrs.evolve(players[0], points=min(players[0].points, 3))
    players[1] = attrs.evolve(players[1], points=points)
    return attrs.evolve(state, players=tuple(players))


def test_the_seat_far_ahead_is_the_likely_winner() -> None:
    network = load_network(2)
    state = leader(14)
    assert state.players[1].points == 14
    assert state.players[0].points <= 3
    from_leader = evaluate(network, network_input(state, 1))
    from_other = evaluate(network, network_input(state, 0))
    assert from_leader[0] > 0.8  # the observer, seat 1
    assert from_other[1] > 0.8  # seat 1, second in seat 0's row
    assert from_leader[0] > evaluate(network, network_input(leader(4), 1))[0]


# Layers.


def run_python(code: str) -> str:
    """What ``code`` prints, run in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout


def test_importing_the_network_needs_neither_numpy_nor_jax() -> None:
    code = (
        "import json, sys\n"
        "import splendor.fast.network as n\n"
        "n.load_network(2)\n"
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('numpy', 'jax', 'optax'))))\n"
    )
    assert json.loads(run_python(code)) == []


def test_network_input_without_numpy_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['numpy'] = None\n"
        "import splendor, splendor.errors\n"
        "from splendor.fast.network import network_input\n"
        "try:\n"
        "    network_input(splendor.new_game(2, seed=1), 0)\n"
        "except splendor.errors.MissingExtraError as error:\n"
        "    print(error.extra)\n"
    )
    assert run_python(code).strip() == "rl"


def test_the_format_constant_is_the_files() -> None:
    header, _ = parts(SHIPPED.read_bytes())
    assert header["format"] == NETWORK_FORMAT == 1
    assert header["observation"] == observation_digest(2)
    assert header["players"] == 2
