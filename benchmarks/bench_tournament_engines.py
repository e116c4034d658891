"""How many games a second does a tournament between two engine processes play?

Plays a round robin (:func:`splendor.arena.tournament.round_robin`) between
two bot engines over the bot protocol, ``splendor engine random`` and
``splendor engine greedy`` (``engine:`` bot specs, one process each for all
their games), under a time control, and the same games refereed with the
same bots in this process (:func:`splendor.arena.referee.referee_game`). It
reports games and moves per second of wall clock, the CPU time of this
process and of the engine processes, and the protocol's cost per move (the
engines draw their own random numbers, so their games are not the same
games: the costs are compared per move).
Run ``python benchmarks/bench_tournament_engines.py --help``.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import sys
import time
from collections.abc import Sequence

from splendor import GreedyBot, RandomBot
from splendor.arena.referee import TimeControl, fair_schedule, referee_game
from splendor.arena.tournament import round_robin
from splendor.players.bots import Bot


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals, each in both orders")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-per-move", type=float, default=1.0)
    args = parser.parse_args(argv)
    python = shlex.quote(sys.executable)
    specs = [f"engine:{python} -m splendor engine {name}" for name in ("random", "greedy")]
    control = TimeControl(move=args.time_per_move)

    wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    result = round_robin(specs, games=2 * args.deals, seed=args.seed, time_control=control)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    children = _children_cpu() - children
    games = len(result.games)
    moves = sum(game.turns for game in result.games)
    print(f"engine processes: {games} games, {moves} moves, {len(result.forfeits)} forfeits")
    print(
        f"  {games / wall:.2f} games/s, {moves / wall:.0f} moves/s (wall); "
        f"CPU: host {cpu:.2f} s, engines {children:.2f} s"
    )

    bots: dict[str, Bot] = {"random": RandomBot(), "greedy": GreedyBot()}
    schedule = fair_schedule(["random", "greedy"], 2, args.deals, args.seed)
    here_wall, here_cpu = time.perf_counter(), time.process_time()
    here_moves = 0
    for table in schedule:
        record = referee_game(
            [bots[name] for name in table.seats], seed=table.seed, time_control=control
        )
        here_moves += len(record.actions)
    here_wall = time.perf_counter() - here_wall
    here_cpu = time.process_time() - here_cpu
    print(f"in process: {len(schedule)} games, {here_moves} moves")
    print(
        f"  {len(schedule) / here_wall:.2f} games/s, {here_moves / here_wall:.0f} moves/s "
        f"(wall); CPU {here_cpu:.2f} s"
    )
    # The engines draw their own random numbers: their games differ, so the
    # costs are compared per move.
    wall_cost = (wall / moves - here_wall / here_moves) * 1000
    cpu_cost = ((cpu + children) / moves - here_cpu / here_moves) * 1000
    print(
        f"the protocol's cost per move: {wall_cost:.2f} ms of wall clock, "
        f"{cpu_cost:.2f} ms of CPU (host and engine together)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
