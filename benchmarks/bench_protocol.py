"""The bot protocol's cost: a move over the protocol against the same bot in process.

Measures, on seeded games played with ``splendor.play_game``:

- **overhead per move**: the random bot in process, then the same bot as an
  engine (``splendor engine random``, one process per seat) over the
  protocol; the difference per move is what the protocol costs (the view
  and its actions written as JSON, read and checked by the engine, the
  answer read back, the pipes and the process switches). Times are given by
  the clock and in CPU seconds (this process's, plus the engines' own once
  they have exited);
- **games per second** between two protocol engines (``splendor engine
  greedy`` against itself), the way a tournament of engines plays;
- the parts of a move on the wire, in process: writing a position line,
  and reading it back as an engine does (the view and actions checked).

Run with ``python benchmarks/bench_protocol.py`` (``--help`` for the options).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections.abc import Callable, Sequence

import splendor
from splendor import RandomBot, legal_actions, new_game, play_game, view
from splendor.formats.notation import format_action
from splendor.remote import Engine, Limit, open_engine
from splendor.remote.codec import decode_host, encode
from splendor.remote.messages import Position


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _games(
    make: Callable[[], Sequence[object]], games: int, seed: int
) -> tuple[int, float, float, float]:
    """Play ``games`` games; return (moves, seconds, this process's CPU, the engines' CPU)."""
    bots = make()
    children = _children_cpu()
    moves = 0
    start = time.perf_counter()
    cpu = time.process_time()
    try:
        for game in range(games):
            record = play_game(bots, seed=seed + game)  # type: ignore[arg-type]  # bots or engines
            moves += len(record.actions)
    finally:
        for bot in bots:
            if isinstance(bot, Engine):
                bot.close()
    seconds = time.perf_counter() - start
    own = time.process_time() - cpu
    return moves, seconds, own, _children_cpu() - children


def _start_up(spec: str, times: int = 3) -> tuple[float, float]:
    """Seconds to start an engine, shake hands and quit; its CPU seconds from start to exit."""
    children = _children_cpu()
    start = time.perf_counter()
    for _ in range(times):
        _engine(spec).close()
    return (time.perf_counter() - start) / times, (_children_cpu() - children) / times


def _engine(spec: str) -> Engine:
    return open_engine([sys.executable, "-m", "splendor", "engine", spec], limit=Limit(time=10.0))


def _wire(positions: int, seed: int) -> tuple[float, float, int]:
    """Seconds per position line written, and read back with its checks; the mean line size."""
    rng = random.Random(seed)
    lines: list[tuple[Position, bytes]] = []
    state = new_game(2, seed=seed)
    for id_ in range(positions):
        if state.is_over:
            state = new_game(2, seed=seed + id_)
        full = view(state, state.current_player).stand_in()
        actions = legal_actions(full)
        position = Position(
            id_,
            view(state, state.current_player),
            actions,
            tuple(format_action(a, full) for a in actions),
        )
        lines.append((position, b""))
        state = splendor.apply(state, actions[rng.randrange(len(actions))])
    start = time.process_time()
    written = [encode(position) for position, _ in lines]
    write = (time.process_time() - start) / positions
    start = time.process_time()
    for line in written:
        decode_host(line)
    read = (time.process_time() - start) / positions
    return write, read, sum(map(len, written)) // positions


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of each measurement")
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--positions", type=int, default=300, help="positions of the wire test")
    args = parser.parse_args()
    print(f"splendor {splendor.__version__}, Python {sys.version.split()[0]}, {args.games} games")

    started, idle = _start_up("random")
    print(
        f"an engine (splendor engine random) starts, shakes hands and quits in "
        f"{1000 * started:.0f} ms, using {1000 * idle:.0f} ms of CPU (left out below)"
    )
    local = _games(lambda: [RandomBot(), RandomBot()], args.games, args.seed)
    moves, seconds, own, engines = _games(
        lambda: [_engine("random"), _engine("random")], args.games, args.seed
    )
    remote = moves, seconds, own, engines - 2 * idle
    print(f"{'random bot':<24} {'moves':>6} {'ms/move':>8} {'cpu ms/move':>12}  (host + engines)")
    for label, (moves, seconds, own, engines) in (
        ("in process", local),
        ("over the protocol", remote),
    ):
        print(
            f"{label:<24} {moves:>6} {1000 * seconds / moves:>8.3f} "
            f"{1000 * (own + engines) / moves:>12.3f}  "
            f"({1000 * own / moves:.3f} + {1000 * engines / moves:.3f})"
        )
    (l_moves, l_seconds, l_own, _), (r_moves, r_seconds, r_own, r_engines) = local, remote
    wall = r_seconds / r_moves - l_seconds / l_moves
    cpu = (r_own + r_engines) / r_moves - l_own / l_moves
    print(f"{'overhead per move':<24} {'':>6} {1000 * wall:>8.3f} {1000 * cpu:>12.3f}")

    moves, seconds, own, engines = _games(
        lambda: [_engine("greedy"), _engine("greedy")], args.games, args.seed
    )
    engines -= 2 * idle
    print(
        f"greedy engine vs greedy engine: {args.games / seconds:.2f} games/s "
        f"({moves / args.games:.0f} moves a game; {args.games / (own + engines):.2f} games "
        f"per CPU second, host and engines)"
    )

    write, read, size = _wire(args.positions, args.seed)
    print(
        f"a position line ({size:,} bytes on average): written in {1e6 * write:.0f} us, "
        f"read and checked in {1e6 * read:.0f} us (CPU)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
