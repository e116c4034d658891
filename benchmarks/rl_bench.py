"""How fast are the decision-level environments next to the engine?

Plays seeded random games, per player count, four ways:

- engine: ``legal_actions`` + ``apply`` per turn (as ``benchmarks/bench.py``);
- encoding: ``legal_codes`` per decision, ``decode`` + ``apply`` per turn;
- pettingzoo: the AEC environment, ``last()`` (observation and mask) and
  ``step()`` per decision, choosing among the masked codes;
- observation: :func:`splendor.rl.observation` alone, per call.

It prints decisions/s, turns/s and the cost of a turn relative to the
engine's. Run with ``python benchmarks/rl_bench.py`` (the ``[rl]`` extra
installed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import numpy as np

import splendor
from splendor.encoding import decode, legal_codes
from splendor.rl import aec_env, observation


def engine(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of random games through the engine."""
    turns = 0
    start = time.perf_counter()
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            actions = splendor.legal_actions(state)
            state = splendor.apply(state, actions[rng.randrange(len(actions))])
            turns += 1
    return turns, turns, time.perf_counter() - start


def encoding(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of random games decision by decision."""
    decisions = turns = 0
    start = time.perf_counter()
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
    return decisions, turns, time.perf_counter() - start


def pettingzoo(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(decisions, turns, seconds) of random games through the AEC environment."""
    decisions = turns = 0
    env = aec_env(players=players)
    start = time.perf_counter()
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
    return decisions, turns, time.perf_counter() - start


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
    start = time.perf_counter()
    for seen in views:
        observation(seen)
    return len(views), len(views), time.perf_counter() - start


RUNS: dict[str, Callable[[int, int, int], tuple[int, int, float]]] = {
    "engine": engine,
    "encoding": encoding,
    "pettingzoo": pettingzoo,
    "observation": observations,
}


def main() -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=100, help="timed games per run")
    parser.add_argument("--warmup", type=int, default=100, help="untimed games first")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()

    print(f"splendor {splendor.__version__}, Python {sys.version.split()[0]}")
    print(
        f"{'players':>7} {'run':>12} {'decisions/s':>12} {'turns/s':>9} "
        f"{'decisions/turn':>14} {'turn cost':>9}"
    )
    for players in args.players:
        engine_turn = 0.0
        for name, run in RUNS.items():
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
