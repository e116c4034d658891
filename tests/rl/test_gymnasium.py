"""The Gymnasium environment: Gymnasium's checker, and one seat against bots."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import splendor.rl
from splendor import (
    Action,
    GreedyBot,
    IllegalActionError,
    InvalidArgumentError,
    PlayerView,
    RandomBot,
    Rules,
)
from splendor.formats.encoding import ACTION_COUNT, legal_codes
from splendor.rl import GYMNASIUM_ID, SplendorEnv, observation


def _play(env: gymnasium.Env, seed: int) -> tuple[float, bool, bool, int]:
    """A whole episode of masked random decisions: last reward, terminated, truncated, steps."""
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        code = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, reward, terminated, truncated, info = env.step(code)
        steps += 1
        if terminated or truncated:
            return float(reward), terminated, truncated, steps
        assert reward == 0


@pytest.mark.parametrize("opponents", [1, 2, 3])
def test_gymnasium_check_env(opponents: int) -> None:
    env = gymnasium.make(GYMNASIUM_ID, opponents=[RandomBot()] * opponents)
    check_env(env.unwrapped)


def test_the_environment_is_registered_by_importing_splendor_rl() -> None:
    assert splendor.rl.GYMNASIUM_ID == "splendor/Splendor-v0"
    env = gymnasium.make("splendor/Splendor-v0")
    assert isinstance(env.unwrapped, SplendorEnv)
    assert env.unwrapped.players == 2  # one RandomBot by default
    assert env.action_space == gymnasium.spaces.Discrete(ACTION_COUNT)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_ends_with_a_win_or_a_loss(players: int) -> None:
    env = SplendorEnv(opponents=[GreedyBot()] * (players - 1))
    reward, terminated, truncated, steps = _play(env, seed=players)
    game = env.game
    assert terminated
    assert not truncated
    assert game.is_over
    assert steps > 0
    assert reward == (1.0 if 0 in game.winners else -1.0)


def test_the_mask_is_in_the_observation_and_in_info_and_matches_the_codes() -> None:
    env = SplendorEnv()
    obs, info = env.reset(seed=1)
    game = env.game
    assert game.current_player == 0
    assert (obs["action_mask"] == info["action_mask"]).all()
    assert obs["action_mask"] is not info["action_mask"]
    assert np.flatnonzero(info["action_mask"]).tolist() == list(legal_codes(game))
    assert (obs["observation"] == observation(splendor.view(game, 0))).all()


def test_the_learner_may_sit_in_another_seat_and_bots_move_first() -> None:
    env = SplendorEnv(opponents=[RandomBot(), RandomBot()], seat=2)
    _obs, info = env.reset(seed=3)
    assert env.game.current_player == 2
    assert env.game.turn == 2
    assert np.flatnonzero(info["action_mask"]).tolist() == list(legal_codes(env.game))


def test_a_random_seat_is_drawn_from_the_seed() -> None:
    env = SplendorEnv(opponents=[RandomBot()] * 3, seat=None)
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.game.current_player == env.seat
    assert len(seats) > 1


def test_bots_see_only_their_own_view() -> None:
    seen: list[PlayerView] = []

    def bot(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        seen.append(view)
        return actions[0]

    env = SplendorEnv(opponents=[bot])
    _play(env, seed=2)
    assert seen
    assert all(v.seat == 1 and v.own is not None for v in seen)


def test_an_illegal_code_loses_by_default() -> None:
    env = SplendorEnv()
    _obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] is True
    assert not info["action_mask"].any()
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_stepping_before_reset_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="reset"):
        SplendorEnv().step(0)


def test_an_illegal_code_raises_when_asked_and_changes_nothing() -> None:
    env = SplendorEnv(illegal_action="raise")
    _obs, info = env.reset(seed=4)
    game = env.game
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    with pytest.raises(InvalidArgumentError, match="int code"):
        env.step("3")  # type: ignore[arg-type]  # the wrong type on purpose
    assert env.game is game
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_a_long_game_is_truncated() -> None:
    env = SplendorEnv(max_turns=4)
    reward, terminated, truncated, _steps = _play(env, seed=1)
    assert truncated
    assert not terminated
    assert reward == 0.0
    assert env.game.turn == 4


def test_render_modes() -> None:
    env = gymnasium.make(GYMNASIUM_ID, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    assert "learner to move" in text
    assert "bot_1" in text
    env = gymnasium.make(GYMNASIUM_ID, render_mode="svg")
    env.reset(seed=1)
    picture = env.render()
    assert isinstance(picture, str)
    assert picture.startswith("<svg")


def test_house_rules() -> None:
    rules = Rules(points_to_win=6)
    env = SplendorEnv(opponents=[GreedyBot()], rules=rules)
    _play(env, seed=5)
    assert env.game.rules == rules
    assert env.game.is_over


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"opponents": []}, "1 to 3 opponents"),
        ({"opponents": [RandomBot()] * 4}, "1 to 3 opponents"),
        ({"opponents": "random"}, "sequence of bots"),
        ({"opponents": [3]}, "callable"),
        ({"seat": 2}, "seat"),
        ({"seat": "0"}, "seat"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"render_mode": "human"}, "render_mode"),
        ({"rules": {}}, "Rules"),
        ({"max_turns": -1}, "max_turns"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        SplendorEnv(**options)  # type: ignore[arg-type]  # the wrong types on purpose
