"""Search iterations per CPU second: SearchBot (in the kernel, and its pure twin) and ISMCTSBot.

Each bot searches the same positions (the start of turns 0, 10, ..., 60 of
seeded games between greedy bots, 2 to 4 players) with the same settings
(exploration, widening, rollout to the end of the round, temperature: the
defaults both share), in interleaved rounds; the script prints the median
over the rounds of iterations per CPU second (process time) for each, and
the ratio.

    python benchmarks/bench_search.py --rounds 5
    python benchmarks/bench_search.py --rounds 3 --rollout-rounds 4 --skip-pure
    python benchmarks/bench_search.py --rounds 3 --rollout-rounds 4 --network --skip-pure

With ``--network`` the kernel's search and its pure twin evaluate with the
shipped value network where there is one, as ``SearchBot(network=True)``
does. With ``--policy`` the kernel's search is also run with the shipped
policy network ranking the moves (``SearchBot(policy=True)``; 2 players,
the prior elsewhere), in the same rounds, and the ratio of the two is
printed: what the policy costs per iteration.

    python benchmarks/bench_search.py --rounds 5 --rollout-rounds 4 --network --policy --skip-pure
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from splendor import GreedyBot, PlayerView, legal_actions, play_game, view
from splendor.fast import COMPILED
from splendor.fast import search as fast_search
from splendor.players.ismcts import ISMCTSBot
from splendor.players.search import SearchBot


def positions(players: int) -> list[PlayerView]:
    """Views of the seat to move at turns 0, 10, ..., 60 of a greedy game."""
    record = play_game([GreedyBot() for _ in range(players)], seed=7 + players)
    found = []
    for turn, state in enumerate(record.replay()):
        if turn % 10 == 0 and not state.is_over and turn <= 60:
            found.append(view(state, state.current_player))
    return found


def rate(search: Callable[[PlayerView], int], views: Sequence[PlayerView]) -> float:
    """Iterations per CPU second of ``search`` over ``views``."""
    done = 0
    started = time.process_time()
    for seen in views:
        done += search(seen)
    return done / (time.process_time() - started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rollout-rounds", type=int, default=0)
    parser.add_argument("--skip-pure", action="store_true", help="leave the pure twin out")
    parser.add_argument("--network", action="store_true", help="search with the value network")
    parser.add_argument("--policy", action="store_true", help="the kernel with the policy too")
    args = parser.parse_args(argv)
    if not COMPILED:
        print("the kernel is not compiled", file=sys.stderr)
        return 1
    rollout_rounds = args.rollout_rounds
    network = args.network

    def kernel(seen: PlayerView) -> int:
        bot = SearchBot(iterations=20_000, seed=1, rollout_rounds=rollout_rounds, network=network)
        return bot.search(seen, random.Random(0)).iterations

    def kernel_policy(seen: PlayerView) -> int:
        bot = SearchBot(
            iterations=20_000, seed=1, rollout_rounds=rollout_rounds, network=network, policy=True
        )
        return bot.search(seen, random.Random(0)).iterations

    def pure(seen: PlayerView) -> int:
        saved = fast_search._kernel_search
        fast_search._kernel_search = None
        try:
            bot = SearchBot(iterations=300, seed=1, rollout_rounds=rollout_rounds, network=network)
            return bot.search(seen, random.Random(0)).iterations
        finally:
            fast_search._kernel_search = saved

    def ismcts(seen: PlayerView) -> int:
        bot = ISMCTSBot(iterations=300, seed=1, rollout_rounds=rollout_rounds)
        bot(seen, legal_actions(seen), random.Random(0))
        return bot.last_iterations

    searches: dict[str, Callable[[PlayerView], int]] = {"kernel": kernel, "ismcts": ismcts}
    if args.policy:
        searches["kernel+policy"] = kernel_policy
    if not args.skip_pure:
        searches["pure"] = pure
    for players in (2, 3, 4):
        views = positions(players)
        rates: dict[str, list[float]] = {name: [] for name in searches}
        for _ in range(args.rounds):
            for name, search in searches.items():
                rates[name].append(rate(search, views))
        medians = {name: statistics.median(values) for name, values in rates.items()}
        line = ", ".join(f"{name} {value:,.0f}" for name, value in medians.items())
        ratio = medians["kernel"] / medians["ismcts"]
        extra = ""
        if args.policy:
            extra = f"; kernel+policy/kernel {medians['kernel+policy'] / medians['kernel']:.3f}"
        print(
            f"{players}p, {len(views)} positions, rollout_rounds={rollout_rounds}, "
            f"network={network}: "
            f"iterations per CPU second: {line}; kernel/ismcts {ratio:.1f}{extra}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
