"""The environments on the compiled kernel: the pure path's episodes, without checks on the way."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium

from splendor import Action, GreedyBot, PlayerView, RandomBot, fast
from splendor.core.state import GameState
from splendor.core.validation import check_state
from splendor.fast import _kernel
from splendor.rl import GYMNASIUM_ID, SplendorEnv

needs_kernel = pytest.mark.skipif(not fast.COMPILED, reason="needs the compiled kernel")

# Episodes of the Gymnasium environment, hashed: every observation, mask,
# reward, flag and the final state. The same text runs here (on the kernel)
# and in a fresh interpreter with SPLENDOR_PURE=1 (on the attrs engine).
EPISODES = """
import copy, hashlib
import numpy as np
import gymnasium
import splendor.rl
from splendor import Action, GreedyBot, PlayerView, RandomBot, fast


class FirstThree:
    '''A bot of its own: one of the first three actions, given back as it came.'''

    def __call__(self, view, actions, rng):
        return actions[rng.randrange(min(3, len(actions)))]


class Copying:
    '''A bot that gives back an equal copy of the action, not the one listed.'''

    def __call__(self, view, actions, rng):
        return copy.deepcopy(actions[rng.randrange(len(actions))])


CASES = [
    ([RandomBot()], 0, 1000, "lose"),
    ([GreedyBot()], None, 1000, "lose"),
    ([RandomBot(), GreedyBot()], None, 1000, "lose"),
    ([FirstThree(), Copying(), GreedyBot()], None, 1000, "lose"),
    ([GreedyBot(), RandomBot(), RandomBot()], 3, 12, "lose"),
    ([Copying()], 1, 1000, "illegal"),
]


def digest():
    out = hashlib.sha256()
    for opponents, seat, max_turns, how in CASES:
        env = gymnasium.make(
            "splendor/Splendor-v0", opponents=opponents, seat=seat, max_turns=max_turns
        )
        for seed in range(3):
            rng = np.random.default_rng(seed)
            obs, info = env.reset(seed=seed)
            done, steps = False, 0
            while not done:
                out.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
                out.update(info["action_mask"].tobytes())
                legal = np.flatnonzero(info["action_mask"])
                code = int(rng.choice(legal))
                if how == "illegal" and steps == 5:
                    code = int(np.flatnonzero(info["action_mask"] == 0)[0])
                obs, reward, terminated, truncated, info = env.step(code)
                done, steps = terminated or truncated, steps + 1
                out.update(repr((reward, terminated, truncated, sorted(info))).encode())
            out.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            out.update(repr((env.unwrapped.seat, env.unwrapped.game)).encode())
    return out.hexdigest()
"""


@needs_kernel
def test_the_kernel_and_the_pure_path_play_the_same_episodes() -> None:
    namespace: dict[str, object] = {}
    exec(EPISODES, namespace)  # the test's own text, run here and below
    digest = namespace["digest"]
    assert callable(digest)
    on_kernel = digest()
    done = subprocess.run(
        [sys.executable, "-c", EPISODES + "print(fast.COMPILED, digest())"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "SPLENDOR_PURE": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", on_kernel]


@needs_kernel
@pytest.mark.parametrize("opponents", [[RandomBot()], [GreedyBot(), RandomBot()]])
def test_no_state_is_checked_again_during_an_episode(
    monkeypatch: pytest.MonkeyPatch, opponents: list[RandomBot | GreedyBot]
) -> None:
    # The game stays in the kernel through the bots' turns: no state goes back
    # in through Game.from_state, which checks it.
    env = gymnasium.make(GYMNASIUM_ID, opponents=opponents, seat=None)
    checked: list[GameState] = []

    def counting(state: GameState) -> None:
        checked.append(state)
        check_state(state)  # what the kernel calls

    monkeypatch.setattr(_kernel, "check_state", counting)
    for seed in range(3):
        _obs, info = env.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            code = int(info["action_mask"].nonzero()[0][0])
            _obs, _reward, terminated, truncated, info = env.step(code)
    assert checked == []


@needs_kernel
def test_a_bot_that_raises_leaves_the_game_as_it_was() -> None:
    class Failing:
        """A bot that fails on its third turn."""

        def __init__(self) -> None:
            self.turns = 0

        def __call__(
            self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
        ) -> Action:
            self.turns += 1
            if self.turns == 3:
                raise RuntimeError("the bot failed")
            return actions[0]

    env = SplendorEnv(opponents=[RandomBot(), Failing()])
    _obs, info = env.reset(seed=1)
    before = [env.game]

    def play_on() -> None:
        mask = info["action_mask"]
        for _ in range(100):
            before[0] = env.game
            _obs, _reward, _terminated, _truncated, step_info = env.step(int(mask.argmax()))
            mask = step_info["action_mask"]

    with pytest.raises(RuntimeError, match="the bot failed"):
        play_on()
    # The learner's turn was played, none of the bots' turns after it.
    assert env.game.turn == before[0].turn + 1
    assert env.game.current_player == 1
