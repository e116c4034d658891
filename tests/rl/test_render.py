"""The RGB frames of the environments' ``"rgb_array"`` render mode, and their registration."""

from __future__ import annotations

import hashlib
from typing import Any, cast

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test

from splendor import GameState, InvalidArgumentError, Rules, new_game
from splendor.fast import Game
from splendor.rl import GYMNASIUM_ID, SplendorAECEnv, aec_env, rgb_array
from tests.rl.test_observation import _run as _fresh  # a fresh interpreter


def _states(players: int, seed: int, rules: Rules | None = None) -> list[GameState]:
    """The states of a game of moves chosen by index, every turn."""
    game = Game.new(players, seed=seed, rules=rules)
    states = [game.state()]
    while not game.is_over and game.turn < 200:
        game.play((game.turn * 7) % game.action_count())
        states.append(game.state())
    return states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_frame_is_an_rgb_array_of_one_shape_all_game(players: int) -> None:
    frames = [rgb_array(state) for state in _states(players, seed=players)]
    shapes = {frame.shape for frame in frames}
    assert len(shapes) == 1
    height, width, channels = shapes.pop()
    assert channels == 3
    assert min(height, width) > 100
    assert all(frame.dtype == np.uint8 for frame in frames)
    assert len(np.unique(frames[-1].reshape(-1, 3), axis=0)) > 10  # a picture, not a blank


def test_different_states_give_different_frames() -> None:
    states = _states(2, seed=8)
    frames = [rgb_array(state).tobytes() for state in states]
    assert len(set(frames)) == len(states)
    assert rgb_array(new_game(2, seed=1)).tobytes() != rgb_array(new_game(2, seed=2)).tobytes()


def test_frames_are_deterministic_and_new_arrays() -> None:
    state = _states(3, seed=4)[30]
    first, second = rgb_array(state), rgb_array(state)
    assert np.array_equal(first, second)
    assert first is not second
    first[:] = 0
    assert np.array_equal(second, rgb_array(state))
    # The frame of a state never changes (its bytes are pinned here).
    done = _fresh(
        "import hashlib, splendor; from splendor.rl import rgb_array\n"
        "print(hashlib.sha256(rgb_array(splendor.new_game(3, seed=4)).tobytes()).hexdigest())"
    )
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip() == hashlib.sha256(rgb_array(new_game(3, seed=4)).tobytes()).hexdigest()
    )


def test_a_kernel_game_is_drawn_as_its_state() -> None:
    game = Game.new(2, seed=3)
    game.play(5)
    assert np.array_equal(rgb_array(game), rgb_array(game.state()))


def test_house_rules_fit_the_frame() -> None:
    rules = Rules(reserve_limit=5, nobles_by_players=(7, 7, 7), gems_by_players=(12, 12, 12))
    frames = [rgb_array(state) for state in _states(2, seed=2, rules=rules)]
    assert len({frame.shape for frame in frames}) == 1
    assert frames[0].shape[1] > rgb_array(new_game(2, seed=2)).shape[1]


def test_something_else_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="rgb_array draws a GameState"):
        rgb_array("board")  # type: ignore[arg-type]  # the wrong type on purpose


def test_the_gymnasium_environment_renders_frames() -> None:
    check_env(gymnasium.make(GYMNASIUM_ID, render_mode="rgb_array").unwrapped)
    env = gymnasium.make(GYMNASIUM_ID, render_mode="rgb_array")
    _obs, info = env.reset(seed=5)
    first = env.render()
    assert isinstance(first, np.ndarray)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    second = env.render()
    assert isinstance(second, np.ndarray)
    assert first.shape == second.shape
    assert first.dtype == second.dtype == np.uint8
    assert not np.array_equal(first, second)
    assert "rgb_array" in env.metadata["render_modes"]


def test_the_pettingzoo_environment_renders_frames() -> None:
    def make(render_mode: str | None = None) -> SplendorAECEnv:
        # render_test asks for "human" first, only to read the metadata.
        return aec_env(players=3, render_mode=None if render_mode == "human" else render_mode)

    # PettingZoo types render_test's env_fn as a Gymnasium Env factory; it
    # calls it for an AEC environment, as here.
    render_test(cast(Any, make))
    env = aec_env(players=2, render_mode="rgb_array")
    env.reset(seed=2)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert np.array_equal(frame, rgb_array(env.game))


def test_gymnasium_makes_the_environment_named_with_its_module_in_a_fresh_interpreter() -> None:
    done = _fresh(
        "import gymnasium\n"
        "env = gymnasium.make('splendor.rl:splendor/Splendor-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(type(env.unwrapped).__name__, obs['observation'].shape)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "SplendorEnv"


def test_importing_splendor_rl_registers_the_environment_in_a_fresh_interpreter() -> None:
    done = _fresh(
        "import gymnasium, splendor.rl\n"
        "gymnasium.register_envs(splendor.rl)\n"
        "print(type(gymnasium.make('splendor/Splendor-v0').unwrapped).__name__)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "SplendorEnv"
