"""How fast is :class:`splendor.fast.VectorEnv`? Decision steps per second.

Steps ``--envs`` games (1,024 by default) with uniformly random legal codes
drawn from the masks in numpy, and reports decision steps per second (one
step of the whole batch is ``--envs`` decision steps) of ``step()`` alone
(the drawing of the codes, the agent's work, is left out), per second of
wall-clock time and per second of CPU time of this process, and the same
with the drawing counted. Needs the ``[rl]`` extra. Run ``python
benchmarks/bench_vector.py --help``.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import splendor
from splendor import fast


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, run the benchmark and print one line per player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024, help="games in the batch")
    parser.add_argument("--steps", type=int, default=200, help="batch steps to time")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player counts")
    args = parser.parse_args(argv)
    print(
        f"splendor-rules {splendor.__version__}, Python {sys.version.split()[0]}, "
        f"kernel compiled: {fast.COMPILED}"
    )
    print(
        f"{'players':>7} {'envs':>6} {'step/s wall':>12} {'step/s cpu':>12} "
        f"{'with drawing, cpu':>18} {'reset s':>8}"
    )
    for players in args.players:
        env = fast.VectorEnv(args.envs, players, seed=1)
        rng = np.random.default_rng(1)
        start = time.perf_counter()
        _, masks, _ = env.reset()
        reset = time.perf_counter() - start
        wall = cpu = 0.0
        total = time.process_time()
        for _ in range(args.steps):
            codes = (masks + rng.random(masks.shape)).argmax(axis=1)
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            _, masks, _, _, _ = env.step(codes)
            wall += time.perf_counter() - wall_start
            cpu += time.process_time() - cpu_start
        total = time.process_time() - total
        steps = args.steps * args.envs
        print(
            f"{players:>7} {args.envs:>6} {steps / wall:>12,.0f} {steps / cpu:>12,.0f} "
            f"{steps / total:>18,.0f} {reset:>8.3f}"
        )


if __name__ == "__main__":
    main()
