"""The learned evaluation: a small value network, its file format and its forward pass.

A :class:`ValueNetwork` reads the state part of a seat's observation (the
first :func:`input_size` entries of :func:`splendor.fast.observations.observe_state`,
everything before the ``decision`` field: see :func:`network_input`) and
says, for each seat in the row's order (the observer first, then the others
in turn order), the probability that it wins the game. It is a perceptron
of fully connected layers, ``sizes[0] -> sizes[1] -> ... -> players``, with
ReLU between them and a softmax at the end.

:func:`evaluate` is the forward pass in pure Python, in an exact order of
double-precision operations (the compiled search computes the same doubles);
:func:`evaluate_batch` is a quicker ``numpy`` version for many rows. The
weights are stored in a small file (:func:`load_network`,
:func:`save_network`): a magic line, a JSON header and the ``float32``
weights. The package ships a trained network for two players:

>>> import splendor
>>> from splendor.fast.network import evaluate, load_network, network_input
>>> network = load_network(2)
>>> network.sizes[0] == input_size(2), network.sizes[-1]
(True, 2)
>>> win = evaluate(network, network_input(splendor.new_game(2, seed=1), 0))
>>> len(win), abs(sum(win) - 1.0) < 1e-12
(2, True)

Reading a file needs nothing but the standard library; every fault in one
(a wrong magic line, a header or payload that is cut short or too long, a
checksum that does not match, a value that is not finite, weights trained on
another observation layout) is a :class:`~splendor.errors.WeightsError`.
"""

from __future__ import annotations

import array
import hashlib
import itertools
import json
import math
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import IO, TYPE_CHECKING, Final, TypeAlias

import attrs

from splendor.core.state import GameState
from splendor.errors import InvalidArgumentError, WeightsError
from splendor.fast.layout import CARD_FEATURES, NOBLE_FEATURES, observation_layout

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MAGIC",
    "MAX_HEADER",
    "MAX_PAYLOAD",
    "MOVE_FEATURES",
    "NETWORK_FORMAT",
    "POLICY_MAGIC",
    "Layer",
    "PolicyNetwork",
    "ValueNetwork",
    "evaluate",
    "evaluate_batch",
    "input_size",
    "load_network",
    "load_policy",
    "move_features_digest",
    "network_input",
    "observation_digest",
    "policy_state",
    "save_network",
    "save_policy",
    "shipped_networks",
    "shipped_policies",
]

#: The version of the file format that :func:`save_network` writes and
#: :func:`load_network` reads.
NETWORK_FORMAT: Final = 1
#: The first line of every weights file.
MAGIC: Final = b"SPLENDOR-VALUE-NETWORK\n"
#: The first line of every policy weights file (:func:`save_policy`).
POLICY_MAGIC: Final = b"SPLENDOR-POLICY-NETWORK\n"
#: The most bytes of the JSON header line, its newline included.
MAX_HEADER: Final = 4096
#: The most bytes of weights a file may hold (16 MiB): a larger one is refused unread.
MAX_PAYLOAD: Final = 16 * 1024 * 1024

#: One layer: its weights, ``inputs * outputs`` values row-major (``W[i][j]`` is
#: entry ``i * outputs + j``), and its ``outputs`` biases, all ``float32``.
Layer: TypeAlias = "tuple[array.array[float], array.array[float]]"

_COLOURS: Final = ("white", "blue", "green", "red", "black")

#: The numbers a :class:`PolicyNetwork` knows a move by, in order: its kind
#: (one of the first five is 1), for a card bought or reserved its points,
#: tier (a reserve from a deck has its tier too) and colour, whether a buy
#: is of a reserved card, a buy's payment per colour and gold, a take's
#: gems per colour, whether it takes two of a colour and how many it takes,
#: the tokens given back and the gold among them, whether a noble comes,
#: the search's prior of the move divided by 10
#: (:func:`splendor.fast.search_reference.priors`), a card's cost divided
#: by 5, and a buy's tokens paid. :func:`splendor.fast.search_reference.move_features`
#: works them out.
MOVE_FEATURES: Final[tuple[str, ...]] = (
    "buy",
    "take",
    "reserve",
    "reserve_from_deck",
    "pass",
    "points",
    "tier_1",
    "tier_2",
    "tier_3",
    *(f"colour_{colour}" for colour in _COLOURS),
    "from_reserve",
    *(f"paid_{colour}" for colour in (*_COLOURS, "gold")),
    *(f"taken_{colour}" for colour in _COLOURS),
    "two_of_a_colour",
    "taken",
    "returned",
    "returned_gold",
    "noble",
    "prior",
    "cost",
    "paid",
)

_FLOAT: Final = "f"
_LITTLE: Final = sys.byteorder == "little"


def input_size(players: int) -> int:
    """The number of inputs of a value network for ``players`` under the published rules.

    It is the start of the observation's ``decision`` field: everything
    before it describes the position.

    >>> input_size(2), input_size(4)
    (350, 490)

    Raises:
        InvalidArgumentError: for a player count outside 2-4.
    """
    fields = observation_layout(players)
    return next(field.start for field in fields if field.name == "decision")


def observation_digest(players: int) -> str:
    """A digest of the observation layout for ``players``: what a network was trained on.

    The SHA-256, in hexadecimal, of the layout's fields (name, start and
    shape, as :func:`~splendor.fast.layout.observation_layout` gives them
    under the published rules) and of the card and noble features, so any
    change to the layout changes it. A weights file records it, and
    :func:`load_network` refuses weights made for another layout.

    >>> len(observation_digest(2)), observation_digest(2) == observation_digest(3)
    (64, False)

    Raises:
        InvalidArgumentError: for a player count outside 2-4.
    """
    described = {
        "fields": [[f.name, f.start, list(f.shape)] for f in observation_layout(players)],
        "card_features": list(CARD_FEATURES),
        "noble_features": list(NOBLE_FEATURES),
    }
    text = json.dumps(described, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _floats(values: array.array[float] | Sequence[float]) -> array.array[float]:
    if isinstance(values, array.array) and values.typecode == _FLOAT:
        return values
    try:
        return array.array(_FLOAT, values)
    except (TypeError, OverflowError) as error:
        raise WeightsError(f"weights and biases must be float32 numbers: {error}") from None


def _sizes(sizes: Iterable[int]) -> tuple[int, ...]:
    return tuple(sizes)


def _layers(layers: Sequence[tuple[Sequence[float], Sequence[float]]]) -> tuple[Layer, ...]:
    return tuple((_floats(weights), _floats(biases)) for weights, biases in layers)


def _layers_repr(layers: tuple[Layer, ...]) -> str:
    """The layers in a repr: how many weights, not the weights themselves."""
    count = sum(len(weights) + len(biases) for weights, biases in layers)
    noun = "layer" if len(layers) == 1 else "layers"
    return f"<{len(layers)} {noun}, {count:,} parameters>"


def _metadata(metadata: Mapping[str, object]) -> Mapping[str, object]:
    return dict(metadata)


@attrs.frozen(eq=True, unsafe_hash=False)
class ValueNetwork:
    """A value network: the sizes of its layers and their ``float32`` weights.

    Attributes:
        players: the player count it evaluates positions of, 2 to 4.
        sizes: the width of each layer, inputs first and ``players`` last,
            like ``(350, 128, 64, 2)``.
        layers: one :data:`Layer` per pair of consecutive sizes: the weights
            (an ``array.array('f')`` of ``inputs * outputs`` values,
            row-major) and the biases (``outputs`` values).
        metadata: free-form facts about its training (the ``trained``
            object of the file's header): games, positions, CPU seconds,
            validation figures.

    Raises:
        WeightsError: when the sizes and the layers do not fit together.

    >>> tiny = ValueNetwork(2, (input_size(2), 2), [([0.0] * 700, [0.5, -0.5])])
    >>> [round(p, 6) for p in evaluate(tiny, [0.0] * input_size(2))]
    [0.731059, 0.268941]
    >>> tiny
    ValueNetwork(players=2, sizes=(350, 2), layers=<1 layer, 702 parameters>)

    Its repr counts the weights rather than print them; the training's
    figures are in :attr:`metadata`.
    """

    players: int
    sizes: tuple[int, ...] = attrs.field(converter=_sizes)
    layers: tuple[Layer, ...] = attrs.field(converter=_layers, repr=_layers_repr)
    metadata: Mapping[str, object] = attrs.field(factory=dict, converter=_metadata, repr=False)

    def __attrs_post_init__(self) -> None:
        _check_shape(self.players, self.sizes)
        _check_layers(self.sizes, self.layers)

    def payload(self) -> bytes:
        """The weights and biases as the file stores them: ``float32`` little-endian,
        layer by layer, the weights (row-major) then the biases.

        >>> len(load_network(2).payload()) == 4 * _parameters(load_network(2).sizes)
        True
        """
        return _payload(self.layers)


def _payload(layers: Sequence[Layer]) -> bytes:
    """Layers as a file stores them: ``float32`` little-endian, the weights then the biases."""
    parts = []
    for weights, biases in layers:
        for values in (weights, biases):
            if _LITTLE:
                parts.append(values.tobytes())
            else:
                swapped = array.array(_FLOAT, values)
                swapped.byteswap()
                parts.append(swapped.tobytes())
    return b"".join(parts)


def move_features_digest() -> str:
    """A digest of :data:`MOVE_FEATURES`: what a policy network was trained on.

    A policy weights file records it, and :func:`load_policy` refuses weights
    made for other move features.

    >>> len(move_features_digest())
    64
    """
    text = json.dumps(list(MOVE_FEATURES), separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@attrs.frozen(eq=True, unsafe_hash=False)
class PolicyNetwork:
    """A move policy: which moves a search should try first, learned from searches.

    It reads the same inputs as a :class:`ValueNetwork` (:func:`network_input`
    of the seat to move), passes them through one hidden layer with ReLU to
    one weight per move feature (:func:`policy_state`), and scores each legal
    move by its :data:`MOVE_FEATURES` times those weights; higher is tried
    sooner. :class:`~splendor.players.search.SearchBot` with ``policy=`` ranks a
    node's moves by it instead of by the prior alone (the prior is one of the
    features).

    Attributes:
        players: the player count it was trained for, 2 to 4.
        sizes: ``(inputs, hidden, len(MOVE_FEATURES))``.
        layers: the two layers, as in :class:`ValueNetwork`.
        metadata: free-form facts about its training.

    Raises:
        WeightsError: when the sizes and the layers do not fit together.

    >>> load_policy(2).sizes[0] == input_size(2), load_policy(2).sizes[2] == len(MOVE_FEATURES)
    (True, True)
    """

    players: int
    sizes: tuple[int, ...] = attrs.field(converter=_sizes)
    layers: tuple[Layer, ...] = attrs.field(converter=_layers, repr=_layers_repr)
    metadata: Mapping[str, object] = attrs.field(factory=dict, converter=_metadata, repr=False)

    def __attrs_post_init__(self) -> None:
        _check_policy_shape(self.players, self.sizes)
        _check_layers(self.sizes, self.layers)

    def payload(self) -> bytes:
        """The weights and biases as the file stores them (see :meth:`ValueNetwork.payload`)."""
        return _payload(self.layers)


def _check_layers(sizes: Sequence[int], layers: Sequence[Layer]) -> None:
    if len(layers) != len(sizes) - 1:
        raise WeightsError(f"{len(sizes)} sizes need {len(sizes) - 1} layers, got {len(layers)}")
    for number, ((weights, biases), (inputs, outputs)) in enumerate(
        zip(layers, itertools.pairwise(sizes), strict=False), start=1
    ):
        if len(weights) != inputs * outputs or len(biases) != outputs:
            raise WeightsError(
                f"layer {number} is {inputs} x {outputs}: it needs "
                f"{inputs * outputs} weights and {outputs} biases, got "
                f"{len(weights)} and {len(biases)}"
            )


def _check_policy_shape(players: object, sizes: Sequence[object]) -> None:
    """Refuse a player count or sizes that no policy for the published rules has."""
    if type(players) is not int or not 2 <= players <= 4:
        raise WeightsError(f"a policy is for 2 to 4 players, got {players!r}")
    if len(sizes) != 3 or any(type(size) is not int or size < 1 for size in sizes):
        raise WeightsError(f"a policy's sizes are 3 positive ints, got {list(sizes)!r}")
    if sizes[0] != input_size(players):
        raise WeightsError(
            f"a policy for {players} players has {input_size(players)} inputs, "
            f"the sizes say {sizes[0]}"
        )
    if sizes[2] != len(MOVE_FEATURES):
        raise WeightsError(
            f"a policy ends in one output per move feature, {len(MOVE_FEATURES)}, "
            f"the sizes say {sizes[2]}"
        )


def _parameters(sizes: Sequence[int]) -> int:
    """The number of weights and biases of a network of these sizes."""
    return sum(inputs * outputs + outputs for inputs, outputs in itertools.pairwise(sizes))


def _check_shape(players: object, sizes: Sequence[object]) -> None:
    """Refuse a player count or sizes that no network for the published rules has."""
    if type(players) is not int or not 2 <= players <= 4:
        raise WeightsError(f"a network is for 2 to 4 players, got {players!r}")
    if not 2 <= len(sizes) <= 16 or any(type(size) is not int or size < 1 for size in sizes):
        raise WeightsError(f"sizes must be 2 to 16 positive ints, got {list(sizes)!r}")
    if sizes[0] != input_size(players):
        raise WeightsError(
            f"a network for {players} players has {input_size(players)} inputs, "
            f"the sizes say {sizes[0]}"
        )
    if sizes[-1] != players:
        raise WeightsError(
            f"a network for {players} players has {players} outputs, the sizes say {sizes[-1]}"
        )


def _header(network: ValueNetwork | PolicyNetwork, payload: bytes) -> bytes:
    header: dict[str, object] = {
        "format": NETWORK_FORMAT,
        "players": network.players,
        "sizes": list(network.sizes),
        "observation": observation_digest(network.players),
        "sha256": hashlib.sha256(payload).hexdigest(),
        "trained": dict(network.metadata),
    }
    if isinstance(network, PolicyNetwork):
        header["moves"] = move_features_digest()
    try:
        line = json.dumps(header, sort_keys=True, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as error:
        raise WeightsError(f"the metadata cannot be written as JSON: {error}") from None
    encoded = line.encode("utf-8") + b"\n"
    if len(encoded) > MAX_HEADER:
        raise WeightsError(
            f"the header would take {len(encoded)} bytes, more than {MAX_HEADER}: "
            "shorten the metadata"
        )
    return encoded


def save_network(network: ValueNetwork, path: str | os.PathLike[str]) -> None:
    """Write ``network`` to the file ``path`` (replaced if it exists).

    The file is the :data:`MAGIC` line, a JSON header line and the
    :meth:`~ValueNetwork.payload`. The header holds ``format``
    (:data:`NETWORK_FORMAT`), ``players``, ``sizes``, ``observation`` (the
    :func:`observation_digest` of the layout in use now), ``sha256`` (of the
    payload) and ``trained`` (the network's metadata).

    Raises:
        InvalidArgumentError: for something that is not a network, or a path
            that is not a ``str`` or path-like object.
        WeightsError: when the metadata is not JSON (or makes the header
            longer than :data:`MAX_HEADER`), or the file cannot be written.
    """
    if not isinstance(network, ValueNetwork):
        raise InvalidArgumentError(f"expected a ValueNetwork, got {type(network).__name__}")
    _write(network, path, MAGIC)


def save_policy(policy: PolicyNetwork, path: str | os.PathLike[str]) -> None:
    """Write ``policy`` to the file ``path`` (replaced if it exists).

    The file is as :func:`save_network` writes, with :data:`POLICY_MAGIC` as
    its first line and one more header entry, ``moves`` (the
    :func:`move_features_digest`).

    Raises:
        InvalidArgumentError: for something that is not a policy, or a path
            that is not a ``str`` or path-like object.
        WeightsError: as :func:`save_network` does.
    """
    if not isinstance(policy, PolicyNetwork):
        raise InvalidArgumentError(f"expected a PolicyNetwork, got {type(policy).__name__}")
    _write(policy, path, POLICY_MAGIC)


def _write(
    network: ValueNetwork | PolicyNetwork, path: str | os.PathLike[str], magic: bytes
) -> None:
    _check_path(path)
    payload = network.payload()
    header = _header(network, payload)
    try:
        with open(path, "wb") as out:
            out.write(magic + header + payload)
    except OSError as error:
        raise WeightsError(f"cannot write the network to {os.fspath(path)!r}: {error}") from None


def shipped_networks() -> tuple[int, ...]:
    """The player counts the package ships a value network for.

    >>> shipped_networks()
    (2, 3, 4)
    """
    return _shipped("value")


def load_network(players: int = 2, path: str | os.PathLike[str] | None = None) -> ValueNetwork:
    """Read a value network for ``players`` from ``path``, or the one shipped with the package.

    Args:
        players: the player count the network must be for, 2 to 4.
        path: a file written by :func:`save_network`; by default the
            package's ``splendor/data/value-{players}p.net``.

    Raises:
        InvalidArgumentError: for a player count that is not an int from 2 to
            4, or a path that is not a ``str`` or path-like object.
        WeightsError: when no network is shipped for ``players``, the file
            cannot be read, or it is not a sound weights file for
            ``players`` and the current observation layout: the message
            says what is wrong.
    """
    return ValueNetwork(players, *_load(players, path, MAGIC))


def shipped_policies() -> tuple[int, ...]:
    """The player counts the package ships a policy network for.

    >>> shipped_policies()
    (2,)
    """
    return _shipped("policy")


def _shipped(stem: str) -> tuple[int, ...]:
    """The player counts with a ``{stem}-{players}p.net`` in the package's data."""
    data = resources.files("splendor").joinpath("data")
    return tuple(
        players for players in (2, 3, 4) if data.joinpath(f"{stem}-{players}p.net").is_file()
    )


def load_policy(players: int = 2, path: str | os.PathLike[str] | None = None) -> PolicyNetwork:
    """Read a policy network for ``players`` from ``path``, or the one shipped with the package.

    Args:
        players: the player count the policy must be for, 2 to 4.
        path: a file written by :func:`save_policy`; by default the
            package's ``splendor/data/policy-{players}p.net``.

    Raises:
        InvalidArgumentError: as :func:`load_network` does.
        WeightsError: when no policy is shipped for ``players``, the file
            cannot be read, or it is not a sound policy file for
            ``players``, the current observation layout and the current
            :data:`MOVE_FEATURES`: the message says what is wrong.
    """
    return PolicyNetwork(players, *_load(players, path, POLICY_MAGIC))


def _load(
    players: object, path: str | os.PathLike[str] | None, magic: bytes
) -> tuple[list[int], list[Layer], dict[str, object]]:
    """The sizes, layers and metadata in the file at ``path``, or in the one
    shipped for ``players`` (a value network's, or a policy's for
    :data:`POLICY_MAGIC`)."""
    if type(players) is not int or not 2 <= players <= 4:
        raise InvalidArgumentError(f"Splendor is played by 2 to 4 players, got {players!r}")
    if path is None:
        kind = "policy" if magic == POLICY_MAGIC else "value"
        name = f"{kind}-{players}p.net"
        shipped = resources.files("splendor").joinpath("data", name)
        if not shipped.is_file():
            raise WeightsError(
                f"no {kind} network is shipped for {players} players: "
                "pass the path of a weights file"
            )
        with shipped.open("rb") as source:
            return _read(source, players, f"the shipped {name}", magic)
    _check_path(path)
    where = repr(os.fspath(path))
    try:
        with open(path, "rb") as source:
            return _read(source, players, where, magic)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise WeightsError(f"cannot read the network {where}: {reason}") from None


def _check_path(path: object) -> None:
    """Refuse a path that ``open`` would take for something else (an int is a descriptor)."""
    if not isinstance(path, str | os.PathLike) or not isinstance(os.fspath(path), str):
        raise InvalidArgumentError(f"a path must be a str or a path-like object, got {path!r}")


def _read(
    source: IO[bytes], players: int, where: str, magic: bytes
) -> tuple[list[int], list[Layer], dict[str, object]]:
    """The sizes, layers and metadata of the network in ``source`` (a value
    network's, or a policy's for :data:`POLICY_MAGIC`), checked, read with
    bounded memory."""
    policy = magic == POLICY_MAGIC
    kind = "policy network" if policy else "value network"
    if source.read(len(magic)) != magic:
        raise WeightsError(f"{where} is not a {kind}: its first line is not {magic!r}")
    line = source.readline(MAX_HEADER)
    if not line.endswith(b"\n"):
        if len(line) >= MAX_HEADER:
            raise WeightsError(f"the header of {where} is longer than {MAX_HEADER} bytes")
        raise WeightsError(f"{where} ends in its header")
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise WeightsError(f"the header of {where} is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise WeightsError(f"the header of {where} is not a JSON object")
    version = header.get("format")
    if type(version) is not int or version != NETWORK_FORMAT:
        raise WeightsError(
            f"{where} is in format {version!r}; this version reads format {NETWORK_FORMAT}"
        )
    found = header.get("players")
    if found != players or type(found) is not int:
        raise WeightsError(f"{where} is a network for {found!r} players, not {players}")
    sizes = header.get("sizes")
    if not isinstance(sizes, list):
        raise WeightsError(f"the sizes of {where} are not a list: {sizes!r}")
    if header.get("observation") != observation_digest(players):
        raise WeightsError(
            f"the weights of {where} were trained for another observation layout "
            "(the digest of the layout differs): train them again"
        )
    if policy and header.get("moves") != move_features_digest():
        raise WeightsError(
            f"the weights of {where} were trained for other move features "
            "(the digest of MOVE_FEATURES differs): train them again"
        )
    if policy:
        _check_policy_shape(players, sizes)
    else:
        _check_shape(players, sizes)
    checksum = header.get("sha256")
    trained = header.get("trained", {})
    if not isinstance(checksum, str) or not isinstance(trained, dict):
        raise WeightsError(f"the header of {where} needs a sha256 string and a trained object")
    size = 4 * _parameters(sizes)
    if size > MAX_PAYLOAD:
        raise WeightsError(
            f"the sizes of {where} need {size:,} bytes of weights, more than {MAX_PAYLOAD:,}"
        )
    payload = source.read(size + 1)
    if len(payload) != size:
        short = "is cut short" if len(payload) < size else "is longer than its sizes say"
        raise WeightsError(f"the payload of {where} {short}: expected {size:,} bytes of weights")
    if hashlib.sha256(payload).hexdigest() != checksum:
        raise WeightsError(f"the weights of {where} do not match their sha256 checksum")
    values = array.array(_FLOAT)
    values.frombytes(payload)
    if not _LITTLE:
        values.byteswap()
    if not all(math.isfinite(value) for value in values):
        raise WeightsError(f"the weights of {where} hold a value that is not finite")
    layers = []
    at = 0
    for inputs, outputs in itertools.pairwise(sizes):
        weights = values[at : at + inputs * outputs]
        at += inputs * outputs
        layers.append((weights, values[at : at + outputs]))
        at += outputs
    return sizes, layers, trained


def network_input(state: GameState, seat: int) -> tuple[float, ...]:
    """The inputs of a value network for ``seat`` in ``state``: the state part of its observation.

    The first :func:`input_size` entries of
    :func:`splendor.fast.observations.observe_state`, as Python floats (each
    exactly its ``float32`` value). Needs ``numpy`` (the ``[rl]`` extra).

    >>> import splendor
    >>> row = network_input(splendor.new_game(2, seed=1), 0)
    >>> len(row), row[:6]
    (350, (4.0, 4.0, 4.0, 4.0, 4.0, 5.0))

    Raises:
        InvalidArgumentError: for something that is not a state, or a seat
            that is not one of the state's.
        MissingExtraError: when ``numpy`` is not installed.
    """
    from splendor.fast.observations import observe_state

    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"expected a GameState, got {type(state).__name__}")
    players = len(state.players)
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidArgumentError(f"seat must be 0 to {players - 1}, got {seat!r}")
    fields = observation_layout(players, state.rules)
    stop = next(field.start for field in fields if field.name == "decision")
    row: list[float] = observe_state(state, seat)[:stop].tolist()
    return tuple(row)


def evaluate(network: ValueNetwork, inputs: Sequence[float]) -> tuple[float, ...]:
    """The win probability of each seat, in the row's order, for one row of inputs.

    The reference forward pass, in pure Python and in this exact order of
    double-precision operations (the compiled search computes the same
    doubles): each layer starts from its biases, then adds, for each input
    in order that is not zero, the input times each weight (a product
    rounded, then a sum rounded: no fused multiply-add); the hidden layers
    apply ReLU (``h if h > 0.0 else 0.0``); the output is the softmax of the
    last layer: ``exp(l - max)`` for each logit, divided by their sum added
    up in order.

    Args:
        network: the network.
        inputs: ``network.sizes[0]`` numbers, from :func:`network_input`.

    Returns:
        ``network.players`` probabilities: entry ``k`` is for seat
        ``(seat + k) % players``, the observing seat first.

    Raises:
        InvalidArgumentError: for something that is not a network, or inputs
            that are not ``sizes[0]`` numbers.
    """
    if not isinstance(network, ValueNetwork):
        raise InvalidArgumentError(f"expected a ValueNetwork, got {type(network).__name__}")
    try:
        values = [float(x) for x in inputs]
    except (TypeError, ValueError):
        raise InvalidArgumentError("the inputs must be a sequence of numbers") from None
    if len(values) != network.sizes[0]:
        raise InvalidArgumentError(
            f"the network takes {network.sizes[0]} inputs, got {len(values)}"
        )
    last = len(network.layers) - 1
    for number, (weights, biases) in enumerate(network.layers):
        values = _dense(values, weights, biases, number < last)
    top = max(values)
    exps = [math.exp(logit - top) for logit in values]
    total = 0.0
    for e in exps:
        total += e
    return tuple(e / total for e in exps)


def _dense(
    values: Sequence[float], weights: array.array[float], biases: array.array[float], relu: bool
) -> list[float]:
    """One layer in :func:`evaluate`'s order: the biases, plus each input that
    is not 0, in order, times its row of weights; then ReLU if ``relu``."""
    outputs = len(biases)
    hidden = list(biases)
    for i, x in enumerate(values):
        if x != 0.0:
            row = weights[i * outputs : (i + 1) * outputs]
            for j in range(outputs):
                hidden[j] += x * row[j]
    if relu:
        hidden = [h if h > 0.0 else 0.0 for h in hidden]
    return hidden


def policy_state(policy: PolicyNetwork, inputs: Sequence[float]) -> tuple[float, ...]:
    """The policy's weight of each of :data:`MOVE_FEATURES` in one position.

    ``inputs`` is the :func:`network_input` row of the seat to move. The
    hidden layer and the output are summed in :func:`evaluate`'s exact order
    (the compiled search computes the same doubles), with ReLU on the hidden
    layer only, and each output is then rounded to ``float32`` (as the
    search keeps it). A move's score is the sum, feature by feature in
    order, of each feature that is not 0 times its weight
    (:func:`splendor.fast.search_reference.policy_scores`).

    >>> import splendor
    >>> weights = policy_state(load_policy(2), network_input(splendor.new_game(2, seed=1), 0))
    >>> len(weights) == len(MOVE_FEATURES)
    True

    Raises:
        InvalidArgumentError: for something that is not a policy, or inputs
            that are not ``sizes[0]`` numbers.
    """
    if not isinstance(policy, PolicyNetwork):
        raise InvalidArgumentError(f"expected a PolicyNetwork, got {type(policy).__name__}")
    try:
        values = [float(x) for x in inputs]
    except (TypeError, ValueError):
        raise InvalidArgumentError("the inputs must be a sequence of numbers") from None
    if len(values) != policy.sizes[0]:
        raise InvalidArgumentError(f"the policy takes {policy.sizes[0]} inputs, got {len(values)}")
    hidden = _dense(values, *policy.layers[0], relu=True)
    out = _dense(hidden, *policy.layers[1], relu=False)
    return tuple(_float32(value) for value in out)


def _float32(value: float) -> float:
    """``value`` rounded to the nearest ``float32`` (infinite beyond its range), as C's cast is."""
    return array.array(_FLOAT, (value,))[0]


def evaluate_batch(network: ValueNetwork, inputs: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """:func:`evaluate` for many rows at once, with ``numpy``: an ``(n, players)`` array.

    ``inputs`` is an ``(n, sizes[0])`` array. The result equals
    :func:`evaluate`'s within ``1e-9`` (numpy adds in another order, so not
    to the last bit). Needs ``numpy`` (the ``[rl]`` extra).

    >>> import splendor
    >>> network = load_network(2)
    >>> rows = [network_input(splendor.new_game(2, seed=s), 0) for s in range(3)]
    >>> batch = evaluate_batch(network, rows)
    >>> batch.shape, float(abs(batch[1] - evaluate(network, rows[1])).max()) < 1e-9
    ((3, 2), True)

    Raises:
        InvalidArgumentError: for something that is not a network, or inputs
            that are not rows of ``sizes[0]`` numbers.
        MissingExtraError: when ``numpy`` is not installed.
    """
    from splendor.extras import require

    numpy = require("numpy", "rl", "evaluate_batch")
    if not isinstance(network, ValueNetwork):
        raise InvalidArgumentError(f"expected a ValueNetwork, got {type(network).__name__}")
    try:
        values = numpy.asarray(inputs, dtype=numpy.float64)
    except (TypeError, ValueError):
        raise InvalidArgumentError("the inputs must be rows of numbers") from None
    if values.ndim != 2 or values.shape[1] != network.sizes[0]:
        raise InvalidArgumentError(
            f"inputs must be rows of {network.sizes[0]} numbers, got shape {values.shape}"
        )
    last = len(network.layers) - 1
    for number, ((weights, biases), (inputs_size, outputs)) in enumerate(
        zip(network.layers, itertools.pairwise(network.sizes), strict=False)
    ):
        matrix = numpy.asarray(weights, dtype=numpy.float64).reshape(inputs_size, outputs)
        values = values @ matrix + numpy.asarray(biases, dtype=numpy.float64)
        if number < last:
            values = numpy.maximum(values, 0.0)
    values = numpy.exp(values - values.max(axis=1, keepdims=True))
    result: npt.NDArray[np.float64] = values / values.sum(axis=1, keepdims=True)
    return result
