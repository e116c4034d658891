"""splendor.fast.VectorEnv used wrongly, on the compiled kernel and the pure fallback alike.

Read-only codes are read; a batch beyond :data:`~splendor.fast.vector.MAX_ENVS`
games is refused with the library's error; two threads stepping one
environment get the library's error, never a crash.
"""

from __future__ import annotations

import threading
from functools import partial

import pytest

pytest.importorskip("numpy")

import numpy as np

from splendor import IllegalActionError, InvalidArgumentError, check_state
from splendor.errors import ConcurrentUseError
from splendor.fast.vector import MAX_ENVS, VectorEnv, random_codes
from splendor.formats.encoding import ACTION_COUNT, legal_codes
from tests.fast.conftest import implementation, run_in_threads


@pytest.fixture(params=["kernel", "pure"])
def env_class(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> type[VectorEnv]:
    """VectorEnv on the compiled kernel, then on the pure fallback."""
    kernel = request.param == "kernel"
    if kernel:
        implementation("kernel")  # skipped (or an error) without the compiled kernel
    monkeypatch.setattr(VectorEnv, "_use_kernel", kernel)
    return VectorEnv


def test_read_only_codes_are_played(env_class: type[VectorEnv]) -> None:
    env, twin = env_class(6, 3, seed=2), env_class(6, 3, seed=2)
    _, masks, _ = env.reset()
    twin.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        codes = random_codes(masks, rng)
        frozen = codes.copy()
        frozen.flags.writeable = False
        results = env.step(frozen)
        expected = twin.step(codes)
        for got, want in zip(results, expected, strict=True):
            np.testing.assert_array_equal(got, want)
        masks = results[1]


@pytest.mark.parametrize("num_envs", [MAX_ENVS + 1, 2**31, 2**64])
def test_a_batch_beyond_max_envs_is_refused(env_class: type[VectorEnv], num_envs: int) -> None:
    with pytest.raises(InvalidArgumentError, match=r"at most 2\*\*24"):
        env_class(num_envs, 2, seed=1)


def test_two_threads_stepping_one_env_get_the_librarys_error(env_class: type[VectorEnv]) -> None:
    num_envs = 512 if env_class._use_kernel else 16
    env = env_class(num_envs, 2, seed=3)
    env.reset()
    start = threading.Barrier(2)
    problems: list[str] = []

    def stepper(seed: int) -> None:
        rng = np.random.default_rng(seed)
        start.wait()
        for _ in range(40):
            try:
                _, masks, _ = env.reset()
                for _ in range(3):
                    _, masks, _, _, _ = env.step(random_codes(masks, rng))
            except ConcurrentUseError:
                pass
            except IllegalActionError:
                pass  # the other thread moved the games between two calls
            except BaseException as error:  # reported below
                problems.append(repr(error))

    run_in_threads([partial(stepper, 1), partial(stepper, 2)])
    assert problems == []
    # The games are whole, and the arrays are theirs.
    _, masks, seats = env.reset()
    for i in range(0, num_envs, 7):
        game = env.game(i)
        check_state(game.state())
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        mask[list(legal_codes(game.state(), game.pending_codes))] = 1
        np.testing.assert_array_equal(masks[i], mask)
        assert seats[i] == game.current_player
