"""Random playouts through the public API: how fast is the engine?

Plays seeded games in which every player picks uniformly among
``splendor.legal_actions(state)`` and measures, per player count:

- steps/s: one ``legal_actions`` plus one ``apply`` (the random choice included),
  by the clock and by the process's CPU time (``cpu/s``: steadier on a busy
  machine, where other processes take turns on the cores);
- games/s: whole games, dealing included;
- mean turns per game and mean branching (legal actions per state).

The engine fills small lookup tables of the move lists as it meets new
holdings, so the first games of a process are a little slower; ``--warmup``
games are played (and not timed) before each measurement. ``--cold`` times
the first games of a fresh process instead (one process per player count,
no warm-up). Run with ``nox -s bench`` or ``python benchmarks/bench.py
--help``.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

import splendor


def play(players: int, games: int, seed: int) -> tuple[int, int, float, float]:
    """Play ``games`` random games; return (steps, summed branching, seconds, CPU seconds)."""
    legal_actions = splendor.legal_actions
    apply = splendor.apply
    steps = 0
    branching = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            actions = legal_actions(state)
            branching += len(actions)
            state = apply(state, actions[rng.randrange(len(actions))])
            steps += 1
    return steps, branching, time.perf_counter() - start, time.process_time() - cpu


def main() -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=500, help="timed games per player count")
    parser.add_argument("--warmup", type=int, default=1000, help="untimed games first")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="time the first games of a fresh process (no warm-up), one process per count",
    )
    parser.add_argument("--no-header", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if not args.no_header:
        mode = "cold: a fresh process each" if args.cold else f"after {args.warmup} warm-up games"
        print(f"splendor {splendor.__version__}, Python {sys.version.split()[0]}, {mode}")
        print(
            f"{'players':>7} {'games':>6} {'steps/s':>9} {'cpu/s':>9} {'games/s':>8} "
            f"{'turns':>7} {'branching':>9}",
            flush=True,
        )
    for players in args.players:
        if args.cold:
            command = [sys.executable, __file__, "--players", str(players), "--warmup", "0"]
            command += ["--games", str(args.games), "--seed", str(args.seed), "--no-header"]
            subprocess.run(command, check=True)
            continue
        if args.warmup:
            play(players, args.warmup, args.seed + 10_000_000)
        steps, branching, seconds, cpu = play(players, args.games, args.seed)
        print(
            f"{players:>7} {args.games:>6} {steps / seconds:>9,.0f} {steps / cpu:>9,.0f} "
            f"{args.games / seconds:>8.1f} "
            f"{steps / args.games:>7.1f} {branching / steps:>9.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
