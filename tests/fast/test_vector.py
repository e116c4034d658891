"""splendor.fast.VectorEnv: arrays, agreement with splendor.rl and encoding, resets, errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import numpy as np
import numpy.typing as npt

from splendor import IllegalActionError, InvalidArgumentError, Rules, fast, view
from splendor.fast import VectorEnv, random_codes
from splendor.fast.reference import SplitMix64, deal_with
from splendor.formats.encoding import ACTION_COUNT, legal_codes
from splendor.rl import observation, observation_shape


def _check_against_library(
    env: VectorEnv,
    obs: npt.NDArray[np.float32],
    masks: npt.NDArray[np.int8],
    seats: npt.NDArray[np.int64],
    indices: range | list[int],
) -> None:
    for i in indices:
        game = env.game(i)
        state = game.state()
        prefix = game.pending_codes
        assert seats[i] == state.current_player
        expected = observation(view(state, state.current_player), prefix)
        np.testing.assert_array_equal(obs[i], expected)
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        mask[list(legal_codes(state, prefix))] = 1
        np.testing.assert_array_equal(masks[i], mask)


def test_shapes_and_dtypes() -> None:
    env = VectorEnv(5, 3, seed=0)
    size = observation_shape(3)[0]
    assert (env.num_envs, env.players, env.observation_size) == (5, 3, size)
    obs, masks, seats = env.reset()
    assert (obs.shape, obs.dtype.name) == ((5, size), "float32")
    assert (masks.shape, masks.dtype.name) == ((5, ACTION_COUNT), "int8")
    assert (seats.shape, seats.dtype.name) == ((5,), "int64")
    obs, masks, rewards, dones, seats = env.step(random_codes(masks, np.random.default_rng(1)))
    assert (obs.shape, obs.dtype.name) == ((5, size), "float32")
    assert (masks.shape, masks.dtype.name) == ((5, ACTION_COUNT), "int8")
    assert (rewards.shape, rewards.dtype.name) == ((5, 3), "float32")
    assert (dones.shape, dones.dtype.name) == ((5,), "bool")
    assert (seats.shape, seats.dtype.name) == ((5,), "int64")
    assert (env.truncated.shape, env.truncated.dtype.name) == ((5,), "bool")


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, None), (3, None), (4, None), (2, Rules(reserve_limit=4, points_to_win=10, token_limit=6))],
)
def test_observations_and_masks_are_those_of_the_library(players: int, rules: Rules | None) -> None:
    env = VectorEnv(4, players, seed=players, rules=rules)
    rng = np.random.default_rng(players)
    obs, masks, seats = env.reset()
    _check_against_library(env, obs, masks, seats, range(4))
    prefixed = 0
    for step in range(160):
        obs, masks, _, _, seats = env.step(random_codes(masks, rng))
        prefixed += sum(1 for i in range(4) if env.game(i).pending_codes)
        if step % 4 == 0:
            _check_against_library(env, obs, masks, seats, range(4))
    assert prefixed > 0  # decisions in the middle of a turn were compared too


def test_a_finished_game_is_rewarded_and_dealt_again() -> None:
    env = VectorEnv(3, 2, seed=7)
    rng = np.random.default_rng(7)
    obs, masks, seats = env.reset()
    finished = 0
    for _ in range(20_000):
        codes = random_codes(masks, rng)
        before = [env.game(i) for i in range(3)]
        obs, masks, rewards, dones, seats = env.step(codes)
        for i in range(3):
            old = before[i]
            old.play_code(int(codes[i]))
            if not old.is_over:
                assert not dones[i]
                assert not rewards[i].any()
                continue
            assert dones[i]
            assert not env.truncated[i]
            expected = [1.0 if seat in old.winners else -1.0 for seat in range(2)]
            assert rewards[i].tolist() == expected
            fresh = env.game(i)
            assert (fresh.turn, fresh.is_over, fresh.pending_codes) == (0, False, ())
            _check_against_library(env, obs, masks, seats, [i])
            finished += 1
        if finished >= 4:
            break
    assert finished >= 4


def test_max_turns_cuts_a_game_short_without_reward() -> None:
    env = VectorEnv(2, 2, seed=3, max_turns=1)
    rng = np.random.default_rng(3)
    _, masks, _ = env.reset()
    for _ in range(10):
        turns = [env.game(i).turn for i in range(2)]
        assert turns == [0, 0]
        _, masks, rewards, dones, _ = env.step(random_codes(masks, rng))
        if dones.any():
            break
    assert dones.any()
    assert env.truncated.tolist() == dones.tolist()
    assert not rewards.any()


def test_a_step_names_its_fields_and_splits_dones_into_terminated_and_truncated() -> None:
    env = VectorEnv(4, 2, seed=3, max_turns=2)
    rng = np.random.default_rng(3)
    _, masks, _ = env.reset()
    ended = terminated = truncated = 0
    for _ in range(400):
        step = env.step(random_codes(masks, rng))
        obs, masks, rewards, dones, seats = step  # unpacks as a tuple of five
        assert isinstance(step, tuple)
        assert len(step) == 5
        fields = (step.observations, step.action_masks, step.rewards, step.dones)
        assert all(a is b for a, b in zip(fields, (obs, masks, rewards, dones), strict=True))
        assert step.current_players is seats
        assert step.truncated.tolist() == env.truncated.tolist()
        assert (step.dones == (step.terminated | step.truncated)).all()
        assert not (step.terminated & step.truncated).any()
        assert not step.rewards[step.truncated].any()
        ended += int(dones.sum())
        terminated += int(step.terminated.sum())
        truncated += int(step.truncated.sum())
    assert ended == terminated + truncated
    assert truncated > 0
    assert "truncated=" in repr(step)


def test_without_a_seed_each_env_deals_from_a_fresh_one() -> None:
    deals = [VectorEnv(2, 2).reset()[0] for _ in range(2)]
    assert not np.array_equal(deals[0], deals[1])


def _run(env: VectorEnv, steps: int, seed: int) -> list[npt.NDArray[np.generic]]:
    rng = np.random.default_rng(seed)
    out: list[npt.NDArray[np.generic]] = []
    obs, masks, seats = env.reset()
    out += [obs, masks, seats]
    for _ in range(steps):
        obs, masks, rewards, dones, seats = env.step(random_codes(masks, rng))
        out += [obs, masks, rewards, dones, seats]
    return out


def test_the_same_seed_and_codes_give_the_same_arrays() -> None:
    first = _run(VectorEnv(6, 2, seed=11), 300, 0)
    second = _run(VectorEnv(6, 2, seed=11), 300, 0)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)
    other = VectorEnv(6, 2, seed=12)
    assert not np.array_equal(other.reset()[0], first[0])


def test_each_games_deals_depend_only_on_the_seed_and_its_index() -> None:
    small, large = VectorEnv(2, 2, seed=5), VectorEnv(4, 2, seed=5)
    np.testing.assert_array_equal(small.reset()[0], large.reset()[0][:2])
    # Game i deals with its own SplitMix64, seeded with output i of SplitMix64(seed).
    seeds = SplitMix64(5)
    seeds.next()
    rng = SplitMix64(seeds.next())
    assert small.game(1).state() == deal_with(2, rng)
    # Its next deal comes from the same generator, one deal later.
    assert deal_with(2, rng) != small.game(1).state()


def test_an_illegal_code_names_the_env_and_changes_nothing() -> None:
    env = VectorEnv(3, 2, seed=2)
    _, masks, _ = env.reset()
    codes = random_codes(masks, np.random.default_rng(0))
    bad = codes.copy()
    bad[2] = int(np.flatnonzero(masks[2] == 0)[0])
    states = [env.game(i).state() for i in range(3)]
    with pytest.raises(IllegalActionError, match=r"^env 2: code \d+ is not legal"):
        env.step(bad)
    assert [env.game(i).state() for i in range(3)] == states
    assert [env.game(i).pending_codes for i in range(3)] == [(), (), ()]
    # The environment goes on exactly as one that never saw the bad codes.
    twin = VectorEnv(3, 2, seed=2)
    twin.reset()
    for a, b in zip(env.step(codes), twin.step(codes), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("codes", "message"),
    [
        ([0, 0], r"shape \(3,\)"),
        ([[0, 0, 0]], r"shape \(3,\)"),
        ([0.0, 1.0, 2.0], "integers"),
        ([True, False, True], "integers"),
        (["a", "b", "c"], "integers"),
    ],
)
def test_malformed_codes_are_refused(codes: object, message: str) -> None:
    env = VectorEnv(3, 2, seed=2)
    env.reset()
    states = [env.game(i).state() for i in range(3)]
    with pytest.raises(InvalidArgumentError, match=message):
        env.step(codes)  # type: ignore[arg-type]  # malformed on purpose
    assert [env.game(i).state() for i in range(3)] == states


def test_out_of_range_codes_are_illegal() -> None:
    env = VectorEnv(2, 2, seed=2)
    env.reset()
    with pytest.raises(IllegalActionError, match=r"^env 0: code -1 "):
        env.step(np.array([-1, 0]))
    with pytest.raises(IllegalActionError, match=f"^env 0: code {ACTION_COUNT} "):
        env.step(np.array([ACTION_COUNT, 0]))


def test_bad_arguments_and_use_before_reset() -> None:
    for args, kwargs in [
        ((0, 2), {"seed": 1}),
        ((True, 2), {"seed": 1}),
        ((2, 5), {"seed": 1}),
        ((2, 2), {"seed": "x"}),
        ((2, 2), {"seed": 1, "max_turns": 0}),
        ((2, 2), {"seed": 1, "rules": "standard"}),
    ]:
        with pytest.raises(InvalidArgumentError):
            VectorEnv(*args, **kwargs)  # type: ignore[arg-type]  # bad on purpose
    env = VectorEnv(2, 2, seed=1)
    with pytest.raises(InvalidArgumentError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(InvalidArgumentError, match="reset"):
        env.game(0)
    env.reset()
    with pytest.raises(InvalidArgumentError, match="out of range"):
        env.game(2)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_without_numpy_the_librarys_error_names_the_extra() -> None:
    done = _python(
        "import sys; sys.modules['numpy'] = None\n"
        "import splendor.fast\n"
        "try:\n"
        "    splendor.fast.VectorEnv\n"
        "except splendor.errors.MissingExtraError as error:\n"
        "    print(error.extra)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "rl"


def test_importing_splendor_fast_loads_no_numpy() -> None:
    done = _python("import sys, splendor.fast; print('numpy' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_stepping_a_vector_env_loads_no_gymnasium_or_pettingzoo() -> None:
    for kernel in (True, False):
        done = _python(
            "import sys\n"
            "import numpy as np\n"
            "from splendor.fast import VectorEnv\n"
            f"VectorEnv._use_kernel = {kernel}\n"
            "env = VectorEnv(3, 2, seed=1)\n"
            "obs, masks, seats = env.reset()\n"
            "for _ in range(20):\n"
            "    obs, masks, rewards, dones, seats = env.step(masks.argmax(axis=1))\n"
            "loaded = {name.split('.')[0] for name in sys.modules}\n"
            "print(sorted(loaded & {'gymnasium', 'pettingzoo'}))\n"
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]", kernel


def test_random_codes_are_legal_and_uniform() -> None:
    # Rows with 1, 3 and 85 legal codes, in int8, bool, int64 and a strided view.
    masks = np.zeros((3, ACTION_COUNT), dtype=np.int8)
    masks[0, 62] = 1
    masks[1, [4, 40, 80]] = 1
    masks[2, :] = 1
    rng = np.random.default_rng(7)
    draws = 30_000
    counts = np.zeros((3, ACTION_COUNT), dtype=np.int64)
    for _ in range(draws // 100):
        for form in (masks, masks.astype(np.bool_), masks.astype(np.int64)):
            for _ in range(33):
                codes = random_codes(form, rng)
                assert codes.dtype == np.int64
                assert codes.shape == (3,)
                np.add.at(counts, (np.arange(3), codes), 1)
    total = int(counts[0].sum())
    assert counts[0, 62] == total  # the only legal code
    assert not counts[masks == 0].any()  # never an illegal one
    # Chi-square against uniform, 2 and 84 degrees of freedom: far below the
    # 99.9% quantiles (13.8 and 128.8) for a uniform draw, far above for a biased one.
    for row, legal in ((1, [4, 40, 80]), (2, list(range(ACTION_COUNT)))):
        seen = counts[row, legal]
        expected = total / len(legal)
        chi2 = float(((seen - expected) ** 2 / expected).sum())
        assert chi2 < (13.8 if len(legal) == 3 else 128.8), chi2
    reversed_view = masks[:, ::-1]  # not contiguous: read as != 0
    codes = random_codes(reversed_view, rng)
    assert reversed_view[np.arange(3), codes].all()


def test_random_codes_follow_a_vector_env_and_the_seed() -> None:
    env = VectorEnv(64, 3, seed=4)
    _, masks, _ = env.reset()
    for _ in range(50):
        codes = random_codes(masks, np.random.default_rng(5))
        assert np.array_equal(codes, random_codes(masks, np.random.default_rng(5)))
        assert masks[np.arange(64), codes].all()
        _, masks, _, _, _ = env.step(codes)


@pytest.mark.parametrize(
    ("masks", "message"),
    [
        (np.zeros((2, 5), dtype=np.int8), "row 0 of masks has no legal code"),
        (np.array([[1, 0], [0, 0]], dtype=np.int8), "row 1 of masks has no legal code"),
        (np.ones(5, dtype=np.int8), "2-dimensional"),
        (np.ones((2, 5), dtype=np.float32), "integers or booleans"),
        (np.ones((2, 5, 1), dtype=np.int8), "2-dimensional"),
        (np.ones((2, 5), dtype="m8[s]"), "integers or booleans"),
    ],
)
def test_random_codes_refuse_masks_without_a_legal_code(masks: object, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        random_codes(masks, np.random.default_rng(0))  # type: ignore[arg-type]  # a bad argument on purpose


def test_random_codes_of_no_rows_are_empty() -> None:
    codes = random_codes(np.zeros((0, ACTION_COUNT), dtype=np.int8), np.random.default_rng(0))
    assert codes.shape == (0,)
    assert codes.dtype == np.int64


@pytest.mark.parametrize("use_kernel", [False, True])
def test_copy_arrays_false_writes_the_same_arrays_with_the_same_values(
    use_kernel: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if use_kernel and not fast.COMPILED:
        pytest.skip("the compiled kernel is not built")
    monkeypatch.setattr(VectorEnv, "_use_kernel", use_kernel)
    fresh = VectorEnv(16, 3, seed=9, max_turns=30)
    reused = VectorEnv(16, 3, seed=9, max_turns=30, copy_arrays=False)
    assert fresh.copy_arrays
    assert not reused.copy_arrays
    first = fresh.reset()
    again = reused.reset()
    kept = reused.reset()  # a second reset writes into the same arrays
    assert all(a is b for a, b in zip(again, kept, strict=True))
    reused = VectorEnv(16, 3, seed=9, max_turns=30, copy_arrays=False)
    again = reused.reset()
    for i in range(3):
        assert np.array_equal(first[i], again[i])
    masks = first[1]
    rng = np.random.default_rng(3)
    arrays: list[int] = []
    truncations = 0
    for _ in range(120):
        codes = random_codes(masks, rng)
        got = fresh.step(codes)
        mine = reused.step(codes)
        for i in range(5):
            assert np.array_equal(got[i], mine[i])
        assert np.array_equal(fresh.truncated, reused.truncated)
        truncations += int(reused.truncated.sum())
        arrays.append(len({id(a) for a in mine} | {id(again[0]), id(again[1]), id(again[2])}))
        assert mine[0] is again[0]
        assert mine[1] is again[1]
        assert mine[4] is again[2]
        masks = got[1]
    assert truncations > 0  # max_turns=30 cut games short, and truncated followed
    assert set(arrays) == {5}  # obs, masks, rewards, dones, seats: the same five objects


def test_copy_arrays_must_be_a_bool() -> None:
    with pytest.raises(InvalidArgumentError, match="copy_arrays must be a bool"):
        VectorEnv(2, 2, seed=1, copy_arrays=1)  # type: ignore[arg-type]  # a bad argument on purpose


@pytest.mark.parametrize("rng", [None, 3, np.random.RandomState(0)])
def test_random_codes_want_a_generator(rng: object) -> None:
    with pytest.raises(InvalidArgumentError, match=r"rng must be a numpy\.random\.Generator"):
        random_codes(np.ones((2, 3), dtype=np.int8), rng)  # type: ignore[arg-type]  # a bad argument on purpose
