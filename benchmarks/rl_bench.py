"""How fast are the decision-level environments next to the engine?

Plays seeded random games, per player count, six ways:

- engine: ``legal_actions`` + ``apply`` per turn (as ``benchmarks/bench.py``);
- encoding: ``legal_codes`` per decision, ``decode`` + ``apply`` per turn;
- codes: ``legal_codes`` per decision and ``decode`` per turn alone, on the
  states of recorded games (no ``apply``);
- game-codes: ``splendor.fast.Game`` (the compiled kernel when built),
  ``legal_codes()`` and ``play_code()`` per decision;
- pettingzoo: the AEC environment, ``last()`` (observation and mask) and
  ``step()`` per decision, choosing among the masked codes;
- gymnasium: ``gymnasium.make("splendor/Splendor-v0")``, one learner
  against a :class:`~splendor.RandomBot` in each other seat, ``step()`` per
  decision of the learner, choosing among the masked codes: its decisions
  are the learner's alone (its steps), its turns every seat's, so a turn
  costs the bots' turns too;
- observation: :func:`splendor.rl.observation` alone, per call;
- vectorenv: ``splendor.fast.VectorEnv`` with ``--envs`` games (1,024 by
  default), ``step()`` alone (the random legal codes are drawn from the
  masks outside the timing), every game one decision per step.

Times are processor time of this process (``time.process_time``), so other
work on the machine weighs less on them. It prints decisions/s, turns/s and
the cost of a turn relative to the engine's. Run with ``python
benchmarks/rl_bench.py`` (the ``[rl]`` extra installed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import attrs
import gymnasium
import numpy as np

import splendor
from splendor import fast
from splendor.formats.encoding import decode, legal_codes
from splendor.rl import GYMNASIUM_ID, SplendorEnv, aec_env, observation, observation_layout

ENVS = 1024


def engine(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of random games through the engine."""
    turns = 0
    start = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            actions = splendor.legal_actions(state)
            state = splendor.apply(state, actions[rng.randrange(len(actions))])
            turns += 1
    return turns, turns, time.process_time() - start


def encoding(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of random games decision by decision."""
    decisions = turns = 0
    start = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            prefix: tuple[int, ...] = ()
            codes = legal_codes(state)
            while codes:
                prefix = (*prefix, codes[rng.randrange(len(codes))])
                decisions += 1
                codes = legal_codes(state, prefix)
            state = splendor.apply(state, decode(state, prefix))
            turns += 1
    return decisions, turns, time.process_time() - start


def codes(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of legal_codes and decode alone on recorded games."""
    turns_played: list[tuple[splendor.GameState, tuple[int, ...]]] = []
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            prefix: tuple[int, ...] = ()
            options = legal_codes(state)
            while options:
                prefix = (*prefix, options[rng.randrange(len(options))])
                options = legal_codes(state, prefix)
            turns_played.append((state, prefix))
            state = splendor.apply(state, decode(state, prefix))
    # Copies of the states: the encoding keeps the decisions of the states it saw last.
    turns_played = [(attrs.evolve(state), prefix) for state, prefix in turns_played]
    decisions = sum(len(prefix) for _, prefix in turns_played)
    start = time.process_time()
    for state, prefix in turns_played:
        for k in range(len(prefix)):
            legal_codes(state, prefix[:k])
        decode(state, prefix)
    return decisions, len(turns_played), time.process_time() - start


def game_codes(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of random games by codes on splendor.fast.Game."""
    decisions = turns = 0
    start = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        played = fast.Game.new(players, seed=seed + game)
        while not played.is_over:
            options = played.legal_codes()
            decisions += 1
            played.play_code(options[rng.randrange(len(options))])
        turns += played.turn
    return decisions, turns, time.process_time() - start


def pettingzoo(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of random games through the AEC environment."""
    decisions = turns = 0
    env = aec_env(players=players)
    start = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        env.reset(seed=seed + game)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        turns += env.game.turn
    return decisions, turns, time.process_time() - start


def gymnasium_env(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(learner decisions, turns, seconds) of random games through the Gymnasium environment."""
    decisions = turns = 0
    env = gymnasium.make(GYMNASIUM_ID, opponents=[splendor.RandomBot()] * (players - 1))
    learner = env.unwrapped
    assert isinstance(learner, SplendorEnv)
    start = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        _obs, info = env.reset(seed=seed + game)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _obs, _reward, terminated, truncated, info = env.step(
                int(legal[rng.randrange(len(legal))])
            )
            decisions += 1
            done = terminated or truncated
        turns += learner.game.turn
    return decisions, turns, time.process_time() - start


def observations(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(observations, observations, seconds) of every seat's view of random games' states."""
    views = []
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            views.append(splendor.view(state, state.current_player))
            actions = splendor.legal_actions(state)
            state = splendor.apply(state, actions[rng.randrange(len(actions))])
    start = time.process_time()
    for seen in views:
        observation(seen)
    return len(views), len(views), time.process_time() - start


def vectorenv(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of VectorEnv.step with ENVS games for about ``games`` games."""
    env = fast.VectorEnv(ENVS, players, seed=seed)
    decision = observation_layout(players)[-1].start  # codes chosen so far this turn
    rng = np.random.default_rng(seed)
    _, masks, _ = env.reset()
    steps = max(200, games * 80 * players // ENVS)
    decisions = turns = 0
    seconds = 0.0
    for _ in range(steps):
        chosen = fast.random_codes(masks, rng)
        start = time.process_time()
        obs, masks, _, _, _ = env.step(chosen)
        seconds += time.process_time() - start
        decisions += ENVS
        turns += int(np.count_nonzero(obs[:, decision] == 0))  # a turn ended there
    return decisions, turns, seconds


RUNS: dict[str, Callable[[int, int, int], tuple[int, int, float]]] = {
    "engine": engine,
    "encoding": encoding,
    "codes": codes,
    "game-codes": game_codes,
    "pettingzoo": pettingzoo,
    "gymnasium": gymnasium_env,
    "observation": observations,
    "vectorenv": vectorenv,
}


def main() -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=100, help="timed games per run")
    parser.add_argument("--warmup", type=int, default=100, help="untimed games first")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--envs", type=int, default=1024, help="games of the VectorEnv")
    parser.add_argument("--runs", nargs="+", default=list(RUNS), choices=list(RUNS))
    args = parser.parse_args()
    global ENVS  # noqa: PLW0603  # the batch size of the vectorenv run
    ENVS = args.envs

    print(
        f"splendor {splendor.__version__}, Python {sys.version.split()[0]}, "
        f"kernel compiled: {fast.COMPILED}; rates per second of processor time"
    )
    print(
        f"{'players':>7} {'run':>12} {'decisions/s':>12} {'turns/s':>9} "
        f"{'decisions/turn':>14} {'turn cost':>9}"
    )
    for players in args.players:
        engine_turn = 0.0
        for name in ["engine", *(run for run in args.runs if run != "engine")]:
            run = RUNS[name]
            if args.warmup:
                run(players, args.warmup, args.seed + 10_000_000)
            decisions, turns, seconds = run(players, args.games, args.seed)
            per_turn = seconds / turns
            if name == "engine":
                engine_turn = per_turn
            cost = f"{per_turn / engine_turn:8.2f}x" if name != "observation" else "-".rjust(9)
            print(
                f"{players:>7} {name:>12} {decisions / seconds:>12,.0f} "
                f"{turns / seconds:>9,.0f} {decisions / turns:>14.2f} {cost}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
