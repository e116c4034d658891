"""How fast is :class:`splendor.fast.VectorEnv`? Decision steps per second.

Steps ``--envs`` games (1,024 by default) with uniformly random legal codes
drawn from the masks by :func:`splendor.fast.random_codes`, and reports
decision steps per second (one step of the whole batch is ``--envs``
decision steps) of ``step()`` alone (the drawing of the codes, the agent's
work, is left out), per second of wall-clock time and per second of CPU
time of this process; then per CPU second with the drawing counted. The
same for a VectorEnv made with ``copy_arrays=False`` (the same arrays written at
every step); then the steps with the codes drawn by the recipe ``(masks +
rng.random(masks.shape)).argmax(axis=1)``, drawing counted. Needs
the ``[rl]`` extra. Run ``python benchmarks/bench_vector.py --help``.

``--against SRC`` compares two builds in one run (see ``alternate.py``):
``SRC`` is the ``src`` folder of another checkout with its kernel built in
place. Each of ``--rounds`` rounds measures ``step()`` per CPU second, with
and without the drawing and with ``copy_arrays=False``, once in a fresh process of
each build, alternately, and the medians are printed side by side.

numpy's BLAS is held to one thread (``OPENBLAS_NUM_THREADS=1`` unless set):
nothing here calls BLAS, and the idle spinning of its worker threads would
otherwise be counted as this process's CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import alternate
import numpy as np
import numpy.typing as npt

import splendor
from splendor import fast


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, run the benchmark and print one line per player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024, help="games in the batch")
    parser.add_argument("--steps", type=int, default=200, help="batch steps to time")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player counts")
    parser.add_argument("--against", help="the src folder of another build to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds (--against)")
    parser.add_argument("--json-round", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json_round:
        print(json.dumps(_round(args)))
        return
    if args.against:
        arguments = ["--envs", str(args.envs), "--steps", str(args.steps)]
        arguments += ["--players", *map(str, args.players)]
        alternate.compare(__file__, arguments, args.against, args.rounds)
        return
    print(
        f"splendor-rules {splendor.__version__}, Python {sys.version.split()[0]}, "
        f"kernel compiled: {fast.COMPILED}"
    )
    print(
        f"{'players':>7} {'envs':>6} {'step/s wall':>12} {'step/s cpu':>12} "
        f"{'+random_codes':>14} {'reused':>12} {'+random_codes':>14} "
        f"{'+argmax recipe':>15} {'reset s':>8}"
    )
    for players in args.players:
        env = fast.VectorEnv(args.envs, players, seed=1)
        start = time.perf_counter()
        env.reset()
        reset = time.perf_counter() - start
        wall, cpu, with_codes = _run(env, args.steps, fast.random_codes)
        reused = fast.VectorEnv(args.envs, players, seed=1, copy_arrays=False)
        _, cpu_reused, with_codes_reused = _run(reused, args.steps, fast.random_codes)
        _, _, with_recipe = _run(env, args.steps, _recipe)
        steps = args.steps * args.envs
        print(
            f"{players:>7} {args.envs:>6} {steps / wall:>12,.0f} {steps / cpu:>12,.0f} "
            f"{steps / with_codes:>14,.0f} {steps / cpu_reused:>12,.0f} "
            f"{steps / with_codes_reused:>14,.0f} {steps / with_recipe:>15,.0f} {reset:>8.3f}"
        )


def _round(args: argparse.Namespace) -> dict[str, float]:
    """One round in this process: decision steps per CPU second by measure."""
    found: dict[str, float] = {}
    steps = args.steps * args.envs
    for players in args.players:
        env = fast.VectorEnv(args.envs, players, seed=1)
        _, cpu, with_codes = _run(env, args.steps, fast.random_codes)
        reused = fast.VectorEnv(args.envs, players, seed=1, copy_arrays=False)
        _, cpu_reused, _ = _run(reused, args.steps, fast.random_codes)
        found[f"{players} step()"] = steps / cpu
        found[f"{players} step() + random_codes"] = steps / with_codes
        found[f"{players} copy_arrays=False step()"] = steps / cpu_reused
    return found


def _recipe(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """A random legal code per row by a double per code and an argmax."""
    codes: npt.NDArray[np.intp] = (masks + rng.random(masks.shape)).argmax(axis=1)
    return codes


def _run(
    env: fast.VectorEnv,
    steps: int,
    draw: Callable[[npt.NDArray[np.int8], np.random.Generator], npt.NDArray[np.integer]],
) -> tuple[float, float, float]:
    """Deal anew and step ``steps`` times with codes from ``draw``: the wall and
    CPU seconds of the steps, and the CPU seconds of the steps with the drawing."""
    rng = np.random.default_rng(1)
    _, masks, _ = env.reset()
    wall = cpu = 0.0
    total = time.process_time()
    for _ in range(steps):
        codes = draw(masks, rng)
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        _, masks, _, _, _ = env.step(codes)
        wall += time.perf_counter() - wall_start
        cpu += time.process_time() - cpu_start
    return wall, cpu, time.process_time() - total


if __name__ == "__main__":
    main()
