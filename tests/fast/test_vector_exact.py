"""VectorEnv in the kernel against VectorEnv in pure Python: the same arrays for the same seed.

Both deal with SplitMix64 and step the same games, so for the same seed and
the same codes every array they return must be identical, whatever the
player count, the rules and ``max_turns``. Bad input gets the library's
errors from both and changes nothing.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import numpy as np
import numpy.typing as npt

from splendor import IllegalActionError, InvalidArgumentError, Rules
from splendor.fast.vector import VectorEnv, random_codes
from splendor.formats.encoding import ACTION_COUNT
from tests.fast.conftest import implementation
from tests.strategies import VARIANTS


class PureVectorEnv(VectorEnv):
    """VectorEnv on the pure fallback, whether or not the kernel is compiled."""

    __slots__ = ()
    _use_kernel = False


class KernelVectorEnv(VectorEnv):
    """VectorEnv on the compiled kernel."""

    __slots__ = ()
    _use_kernel = True


@pytest.mark.parametrize(
    ("players", "variant", "max_turns"),
    [
        (2, "standard", 1000),
        (3, "standard", 1000),
        (4, "standard", 1000),
        (2, "token-limit-5", 1000),
        (3, "all-nobles", 1000),
        (4, "no-gold", 1000),
        (2, "reserve-limit-2", 1000),
        (3, "points-10", 1000),
        (4, "scarce-supply", 1000),
        (2, "token-limit-8", 7),
    ],
)
def test_compiled_and_pure_give_the_same_arrays(players: int, variant: str, max_turns: int) -> None:
    implementation("kernel")  # skipped (or an error) without the kernel
    _compare(players, VARIANTS[variant], max_turns)


@pytest.mark.parametrize("level", [0, 1, 2])
@pytest.mark.parametrize("players", [2, 4])
def test_every_width_of_stores_writes_the_same_arrays(level: int, players: int) -> None:
    """The kernel writes its masks by the widest stores the processor offers
    (2 AVX-512, 1 AVX2, 0 neither; its card rows by AVX2 at 1 and 2): each
    width it can use here gives the pure core's arrays."""
    kernel = implementation("kernel")
    most = kernel._wide_stores()
    if level > most:
        pytest.skip(f"this processor offers stores of level {most} at most")
    before = kernel._wide_stores(level)
    try:
        assert kernel._wide_stores() == level
        _compare(players, VARIANTS["standard"], 1000)
        # Every byte of a mask is written, and nothing past it: a buffer full
        # of 7s gets 0s and 1s, and the 7s after the mask stay.
        game = kernel.Game.new(players, seed=level)
        rng = random.Random(level)
        for _ in range(500):
            legal = game.legal_codes()
            if not legal:
                break
            buffer = np.full(ACTION_COUNT + 64, 7, dtype=np.int8)
            game.mask_into(buffer[:ACTION_COUNT])
            expected = np.zeros(ACTION_COUNT, dtype=np.int8)
            expected[list(legal)] = 1
            np.testing.assert_array_equal(buffer[:ACTION_COUNT], expected)
            assert (buffer[ACTION_COUNT:] == 7).all()
            game.play_code(legal[rng.randrange(len(legal))])
    finally:
        kernel._wide_stores(before)
    assert kernel._wide_stores() == before


def _compare(players: int, rules: Rules, max_turns: int) -> None:
    """Step the kernel's and the pure VectorEnv 250 times with the same random
    codes and check that every array and every game is the same."""
    kernel = KernelVectorEnv(6, players, seed=players, rules=rules, max_turns=max_turns)
    pure = PureVectorEnv(6, players, seed=players, rules=rules, max_turns=max_turns)
    dealt = kernel.reset()
    for a, b in zip(dealt, pure.reset(), strict=True):
        np.testing.assert_array_equal(a, b)
    masks = dealt[1]
    rng = np.random.default_rng(players)
    dones = 0
    for _ in range(250):
        codes = random_codes(masks, rng)
        stepped = kernel.step(codes)
        ours: tuple[npt.NDArray[np.generic], ...] = stepped
        again: tuple[npt.NDArray[np.generic], ...] = pure.step(codes)
        for a, b in zip(ours, again, strict=True):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(kernel.truncated, pure.truncated)
        dones += int(stepped[3].sum())
        masks = stepped[1]
    for i in range(6):
        assert kernel.game(i).state() == pure.game(i).state()
        assert kernel.game(i).pending_codes == pure.game(i).pending_codes
    if max_turns < 1000:
        assert dones > 0  # games were cut short and dealt again


@pytest.fixture(params=("kernel", "pure"))
def env_class(request: pytest.FixtureRequest) -> type[VectorEnv]:
    if request.param == "kernel":
        implementation("kernel")
        return KernelVectorEnv
    return PureVectorEnv


def _snapshot(env: VectorEnv) -> list[object]:
    return [(env.game(i).state(), env.game(i).pending_codes) for i in range(env.num_envs)]


@pytest.mark.parametrize(
    "codes",
    [
        [0, 0],
        [[0, 0, 0]],
        [0.0, 1.0, 2.0],
        [True, False, True],
        ["a", "b", "c"],
        None,
        [None, None, None],
        np.zeros((3, 1), dtype=np.int64),
        np.zeros(3, dtype=np.complex64),
    ],
)
def test_malformed_codes_change_nothing(env_class: type[VectorEnv], codes: object) -> None:
    env = env_class(3, 2, seed=2)
    env.reset()
    before = _snapshot(env)
    with pytest.raises(InvalidArgumentError):
        env.step(codes)  # type: ignore[arg-type]  # malformed on purpose
    assert _snapshot(env) == before


@pytest.mark.parametrize(
    "bad",
    [-1, ACTION_COUNT, 255, 256, 2**31, 2**63 - 1, -(2**63), np.uint64(2**64 - 1)],
)
def test_illegal_codes_name_the_env_and_change_nothing(
    env_class: type[VectorEnv], bad: int
) -> None:
    env = env_class(3, 3, seed=5)
    _, masks, _ = env.reset()
    _, masks, *_ = env.step(random_codes(masks, np.random.default_rng(1)))
    codes = random_codes(masks, np.random.default_rng(2))
    before = _snapshot(env)
    wrong = np.array([*codes[:2].tolist(), bad], dtype=np.asarray(bad).dtype)
    if wrong.dtype == np.uint64:
        wrong[:2] = codes[:2].astype(np.uint64)
    with pytest.raises(IllegalActionError, match=rf"^env 2: code {int(bad)} is not legal"):
        env.step(wrong)
    assert _snapshot(env) == before


def test_rules_beyond_the_encodings_reserved_slots_are_refused(
    env_class: type[VectorEnv],
) -> None:
    with pytest.raises(InvalidArgumentError, match="reserved cards"):
        env_class(2, 2, seed=1, rules=Rules(reserve_limit=6))
    env_class(2, 2, seed=1, rules=Rules(reserve_limit=5)).reset()


def test_the_kernels_core_refuses_arrays_of_other_shapes() -> None:
    kernel = implementation("kernel")
    core = kernel.VectorCore(2, 2, 1, None, None, 3, 3, 521)
    obs = np.zeros((2, 521), dtype=np.float32)
    masks = np.zeros((2, ACTION_COUNT), dtype=np.int8)
    seats = np.zeros(2, dtype=np.int64)
    with pytest.raises(InvalidArgumentError):
        core.reset(np.zeros((2, 520), dtype=np.float32), masks, seats)
    with pytest.raises(InvalidArgumentError):
        core.reset(obs, masks, np.zeros(3, dtype=np.int64))
    codes = np.zeros(2, dtype=np.int64)
    rewards = np.zeros((2, 2), dtype=np.float32)
    flags = np.zeros(2, dtype=np.uint8)
    with pytest.raises(InvalidArgumentError, match="reset"):
        core.step(codes, obs, masks, rewards, flags, flags.copy(), seats)
    core.reset(obs, masks, seats)
    with pytest.raises(InvalidArgumentError):
        core.step(codes, obs, masks, np.zeros((2, 3), dtype=np.float32), flags, flags, seats)
    # An illegal code: nothing is played, and the game's index is returned.
    before = obs.copy()
    assert core.step(np.full(2, 84, dtype=np.int64), obs, masks, rewards, flags, flags, seats) == 0
    np.testing.assert_array_equal(obs, before)
    # A layout that is not the game's is refused before anything is written.
    wrong = kernel.VectorCore(2, 2, 1, None, None, 3, 3, 520)
    with pytest.raises(InvalidArgumentError):
        wrong.reset(np.zeros((2, 520), dtype=np.float32), masks, seats)
