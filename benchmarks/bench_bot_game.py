"""How fast are games between the built-in bots, in the engine and in the kernel?

For each player count (2, 3 and 4 by default) and each table (every seat
greedy; one greedy seat and random bots in the others; every seat random)
it plays the same
seeded games twice, as :func:`splendor.arena.tournament.play_result` plays them:

- ``engine``: :func:`splendor.play_game` with the real bots asking each
  bot for each move (what it does without the compiled kernel);
- ``kernel``: :func:`splendor.play_game` playing the whole game inside the
  kernel (:func:`splendor.fast.play_bots`, what it does when the kernel is
  compiled);

checks that the results are the same, and reports games per second of wall
clock and of CPU time of this process (on a busy machine the CPU figure is
the one that says what one core does), and the speed-up.
Run ``python benchmarks/bench_bot_game.py --help``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from splendor import GreedyBot, RandomBot, fast
from splendor.arena.tournament import GameResult, play_result
from splendor.players.bots import Bot


def _timed(work: Callable[[], list[GameResult]]) -> tuple[list[GameResult], float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    results = work()
    return results, time.perf_counter() - wall, time.process_time() - cpu


def _games(bots: Sequence[Bot], games: int, compiled: bool) -> list[GameResult]:
    fast.COMPILED = compiled  # type: ignore[misc]  # play_result reads it at each game
    seats = tuple(range(len(bots)))
    return [
        play_result(bots, index=i, seed=i, entrants=seats, max_turns=1000) for i in range(games)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print one line per table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per table and side")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args(argv)
    if not fast.COMPILED:
        print("the compiled kernel is not in use: nothing to compare")
        return 1
    print(
        f"{'table':<26}{'engine g/s':>12}{'(CPU)':>10}{'kernel g/s':>12}{'(CPU)':>10}"
        f"{'speed-up (CPU)':>16}"
    )
    for players in args.players:
        tables: dict[str, list[Bot]] = {
            f"{players} greedy": [GreedyBot() for _ in range(players)],
            f"greedy + {players - 1} random": [GreedyBot()]
            + [RandomBot() for _ in range(players - 1)],
            f"{players} random": [RandomBot() for _ in range(players)],
        }
        for name, bots in tables.items():
            engine, e_wall, e_cpu = _timed(lambda bots=bots: _games(bots, args.games, False))
            kernel, k_wall, k_cpu = _timed(lambda bots=bots: _games(bots, args.games, True))
            if engine != kernel:
                print(f"{name}: the results differ")
                return 1
            print(
                f"{name:<26}{args.games / e_wall:>12,.0f}{args.games / e_cpu:>10,.0f}"
                f"{args.games / k_wall:>12,.0f}{args.games / k_cpu:>10,.0f}"
                f"{e_cpu / k_cpu:>15.1f}x"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
