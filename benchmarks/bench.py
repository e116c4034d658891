"""Random playouts through the public API: how fast is the engine?

Plays seeded games in which every player picks uniformly among
``splendor.legal_actions(state)`` and measures, per player count:

- steps/s: one ``legal_actions`` plus one ``apply`` (the random choice included);
- games/s: whole games, dealing included;
- mean turns per game and mean branching (legal actions per state).

The engine caches small building blocks of the move lists as it meets them,
so the first games of a process are slower; ``--warmup`` games are played
(and not timed) before each measurement. Run with ``nox -s bench`` or
``python benchmarks/bench.py --help``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import splendor


def play(players: int, games: int, seed: int) -> tuple[int, int, float]:
    """Play ``games`` random games; return (steps, summed branching, seconds)."""
    legal_actions = splendor.legal_actions
    apply = splendor.apply
    steps = 0
    branching = 0
    start = time.perf_counter()
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            actions = legal_actions(state)
            branching += len(actions)
            state = apply(state, actions[rng.randrange(len(actions))])
            steps += 1
    return steps, branching, time.perf_counter() - start


def main() -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=500, help="timed games per player count")
    parser.add_argument("--warmup", type=int, default=1000, help="untimed games first")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    print(f"splendor {splendor.__version__}, Python {sys.version.split()[0]}")
    print(
        f"{'players':>7} {'games':>6} {'steps/s':>9} {'games/s':>8} {'turns':>7} {'branching':>9}"
    )
    for players in args.players:
        if args.warmup:
            play(players, args.warmup, args.seed + 10_000_000)
        steps, branching, seconds = play(players, args.games, args.seed)
        print(
            f"{players:>7} {args.games:>6} {steps / seconds:>9,.0f} {args.games / seconds:>8.1f} "
            f"{steps / args.games:>7.1f} {branching / steps:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
