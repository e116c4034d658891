"""How strong ISMCTSBot is against GreedyBot, and how long it thinks per move.

Plays seeded games of one ISMCTS bot against greedy bots, the ISMCTS bot's
seat rotating (every deal is played from every seat), and prints its win
rate with a 95% Wilson interval and its time per move (CPU time of the
searching process, and wall time).

    python benchmarks/strength.py --games 400 --iterations 200 --players 2 --workers 2
    python benchmarks/strength.py --games 100 --iterations 50 200 1000   # a curve
    python benchmarks/strength.py --games 100 --first 1000 --options '{"exploration": 0.5}'

Game ``g`` deals with seed ``10000 + g // players`` and seats the ISMCTS bot
(seeded with ``g``) at ``g % players``; tune on games from ``--first 1000``
on, and measure on games from 0.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence

from splendor import Action, GreedyBot, PlayerView, play_game
from splendor.arena.parallel import run_tasks
from splendor.cli.stats import wilson
from splendor.players.bots import Bot
from splendor.players.ismcts import ISMCTSBot


class _Timed:
    """A bot wrapper that adds up the time its bot takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.cpu = 0.0
        self.wall = 0.0
        self.moves = 0

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        cpu, wall = time.process_time(), time.perf_counter()
        action = self.bot(view, actions, rng)
        self.cpu += time.process_time() - cpu
        self.wall += time.perf_counter() - wall
        self.moves += 1
        return action


def _game(task: tuple[int, int, int, str]) -> tuple[float, float, float, int]:
    game, players, iterations, options = task
    extra = json.loads(options)
    timed = _Timed(ISMCTSBot(iterations=iterations, seed=game, **extra))
    seat = game % players
    bots: list[Bot] = [GreedyBot() for _ in range(players)]
    bots[seat] = timed
    record = play_game(bots, seed=10_000 + game // players)
    winners = record.result or ()
    share = 1.0 / len(winners) if seat in winners else 0.0
    return share, timed.cpu, timed.wall, timed.moves


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--first", type=int, default=0, help="the number of the first game (tune on others)"
    )
    parser.add_argument("--iterations", type=int, nargs="+", default=[200])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--options", default="{}", help="more ISMCTSBot options, as JSON")
    parser.add_argument("--tally", type=int, default=0, help="print the wins every N games")
    args = parser.parse_args(argv)
    for iterations in args.iterations:
        tasks = [
            (g, args.players, iterations, args.options)
            for g in range(args.first, args.first + args.games)
        ]
        started = time.perf_counter()
        results = []
        for _, result in run_tasks(_game, tasks, workers=args.workers):
            results.append(result)
            if args.tally and len(results) % args.tally == 0:
                won = sum(r[0] for r in results)
                print(f"  {len(results)} games: won {won:g}", file=sys.stderr, flush=True)
        wins = sum(r[0] for r in results)
        moves = sum(r[3] for r in results)
        low, high = wilson(wins, len(results))
        print(
            f"{args.players}p iterations={iterations}: won {wins:g}/{len(results)} "
            f"= {100 * wins / len(results):.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%, "
            f"fair share {100 / args.players:.0f}%); per move: "
            f"cpu {sum(r[1] for r in results) / moves:.3f} s, "
            f"wall {sum(r[2] for r in results) / moves:.3f} s; "
            f"{time.perf_counter() - started:.0f} s in all",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
