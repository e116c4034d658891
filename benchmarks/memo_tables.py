"""How full the engine's memo tables get: random games, then each table's size.

Plays ``--games`` seeded games (2, 3 and 4 players in turn) in which every
player picks uniformly among ``splendor.legal_actions(state)``, and prints
each table of ``splendor.core.legal.MEMO_TABLES`` with its entries and the
most it may hold (its key space, or twice the bound of a table of two
generations), every ``--every`` games and at the end. Run it with
``nice -n 10 python benchmarks/memo_tables.py --games 100000``.
"""

from __future__ import annotations

import argparse
import random
import time

import splendor
from splendor.core.legal import MEMO_TABLES


def sizes() -> dict[str, int]:
    """Each memo table's entries now, all its generations together."""
    return {name: sum(map(len, parts)) for name, (parts, _) in MEMO_TABLES.items()}


def report(games: int, cpu: float) -> None:
    """Print the sizes after ``games`` games and ``cpu`` seconds of processor time."""
    now = sizes()
    print(f"after {games:,} games ({cpu:.0f} s of CPU): {sum(now.values()):,} entries")
    for name, (_, most) in MEMO_TABLES.items():
        print(f"  {name:<18} {now[name]:>7,} of at most {most:,}")


def main() -> int:
    """Play the games and print the sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=10_000, help="print the sizes every N games")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    legal_actions, apply = splendor.legal_actions, splendor.apply
    start = time.process_time()
    for game in range(args.games):
        rng = random.Random(args.seed + game)
        state = splendor.new_game(2 + game % 3, seed=args.seed + game)
        while not state.winners:
            state = apply(state, rng.choice(legal_actions(state)))
        if (game + 1) % args.every == 0 and game + 1 < args.games:
            report(game + 1, time.process_time() - start)
    report(args.games, time.process_time() - start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
