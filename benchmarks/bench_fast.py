"""How fast is :mod:`splendor.fast`? Figures beside the attrs engine, in one run.

For each player count (2, 3 and 4 by default) it measures:

- ``playouts``: :func:`splendor.fast.random_playouts`, whole random games played
  inside the kernel: turns/s and games/s (the first call of the process is
  reported as ``cold``);
- ``driven``: a Python loop of ``game.action_count()`` then ``game.play(i)`` with a
  random ``i`` (``random.Random.randrange``) on copies of a dealt game: turns/s;
- ``driven, int(random() * n)``: the same loop with the index drawn as
  ``int(random() * n)``, whose Python cost is a fraction of ``randrange``'s
  (nearly uniform: the bias is below n / 2**53): the kernel's part of the loop
  shows better;
- ``engine``: the same loop with :func:`splendor.legal_actions` and
  :func:`splendor.apply`, for comparison: turns/s;
- the cost of ``copy()``, ``Game.from_state`` (which runs
  :func:`splendor.check_state`), ``Game.new`` and ``state()``.

Every rate is given per second of wall-clock time and per second of CPU time
of this process: on a busy machine the CPU figure is the one that says what
one core does. Run with ``nox -s bench`` or ``python benchmarks/bench_fast.py --help``.

``--against SRC`` compares two builds in one run: ``SRC`` is the ``src``
folder of another checkout with its kernel built in place (say, a copy of
main's). Each of ``--rounds`` rounds times the kernel measures once in a
fresh process of each build, alternately, and the medians of the CPU rates
are printed side by side with their ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable

import alternate

import splendor
from splendor import fast


def _timed(work: Callable[[], int]) -> tuple[int, float, float]:
    """Run ``work``; return its count with the wall and CPU seconds it took."""
    wall, cpu = time.perf_counter(), time.process_time()
    count = work()
    return count, time.perf_counter() - wall, time.process_time() - cpu


def _rate(count: float, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}" if seconds > 0 else f"{'-':>12}"


def _driven(game: fast.Game, games: int, seed: int) -> int:
    rng = random.Random(seed)
    randrange = rng.randrange
    turns = 0
    for _ in range(games):
        g = game.copy()
        while not g.is_over:
            g.play(randrange(g.action_count()))
            turns += 1
    return turns


def _driven_cheap(game: fast.Game, games: int, seed: int) -> int:
    draw = random.Random(seed).random
    turns = 0
    for _ in range(games):
        g = game.copy()
        while not g.is_over:
            g.play(int(draw() * g.action_count()))
            turns += 1
    return turns


def _engine(state: splendor.GameState, games: int, seed: int) -> int:
    rng = random.Random(seed)
    legal_actions, apply = splendor.legal_actions, splendor.apply
    turns = 0
    for _ in range(games):
        s = state
        while not s.is_over:
            actions = legal_actions(s)
            s = apply(s, actions[rng.randrange(len(actions))])
            turns += 1
    return turns


def _per_call(work: Callable[[], object], calls: int) -> tuple[float, float]:
    """Microseconds per call, wall and CPU."""

    def run() -> int:
        for _ in range(calls):
            work()
        return calls

    _, wall, cpu = _timed(run)
    return wall / calls * 1e6, cpu / calls * 1e6


def _rows(players: int, args: argparse.Namespace) -> list[tuple[str, int, int, float, float]]:
    """The measures of one player count: (label, games, turns, wall s, CPU s)."""
    state = splendor.new_game(players, seed=args.seed)
    game = fast.Game.from_state(state)
    rows: list[tuple[str, int, int, float, float]] = []

    def playouts() -> int:
        return fast.random_playouts(game, args.playouts, seed=args.seed).turns

    for label in ("playouts cold", "playouts warm"):
        turns, wall, cpu = _timed(playouts)
        rows.append((label, args.playouts, turns, wall, cpu))
    turns, wall, cpu = _timed(lambda: _driven(game, args.driven, args.seed))
    rows.append(("driven", args.driven, turns, wall, cpu))
    turns, wall, cpu = _timed(lambda: _driven_cheap(game, args.driven, args.seed))
    rows.append(("driven, cheap draw", args.driven, turns, wall, cpu))
    if args.engine == 0:
        return rows
    turns, wall, cpu = _timed(lambda: _engine(state, args.engine, args.seed))
    rows.append(("engine", args.engine, turns, wall, cpu))
    return rows


def _copy_us(calls: int) -> float:
    """CPU microseconds per ``copy()`` of a 2-player game at turn 40."""
    mid = fast.Game.new(2, seed=20261201)
    mid.play_random(seed=1, max_turns=40)
    return _per_call(mid.copy, calls)[1]


def _round(args: argparse.Namespace) -> dict[str, float]:
    """One round of the kernel measures in this process: CPU rates by label."""
    args.engine = 0
    found: dict[str, float] = {}
    for players in args.players:
        for label, _, turns, _, cpu in _rows(players, args):
            found[f"{players} {label}"] = turns / cpu
    found["copy() us"] = _copy_us(200_000)
    return found


def _against(args: argparse.Namespace) -> int:
    """Time this build and the one at ``args.against``, alternately, round by round."""
    arguments = ["--players", *map(str, args.players), "--playouts", str(args.playouts)]
    arguments += ["--driven", str(args.driven), "--seed", str(args.seed)]
    return alternate.compare(__file__, arguments, args.against, args.rounds)


def main() -> int:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--playouts", type=int, default=20_000, help="games per playout call")
    parser.add_argument("--driven", type=int, default=2_000, help="games of the driven loop")
    parser.add_argument("--engine", type=int, default=100, help="games of the engine loop")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--against", help="the src folder of another build to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds (--against)")
    parser.add_argument("--json-round", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json_round:
        print(json.dumps(_round(args)))
        return 0
    if args.against:
        return _against(args)

    print(
        f"splendor {splendor.__version__}, Python {sys.version.split()[0]}, "
        f"splendor.fast COMPILED={fast.COMPILED}, state {fast.STATE_SIZE} bytes"
    )
    print(f"{'players':>7} {'measure':<16} {'turns/s wall':>12} {'turns/s CPU':>12} {'games/s':>9}")
    for players in args.players:
        for label, games, turns, wall, cpu in _rows(players, args):
            print(
                f"{players:>7} {label:<16} {_rate(turns, wall)} {_rate(turns, cpu)} "
                f"{games / cpu if cpu else 0:>9,.0f}"
            )

    state = splendor.new_game(2, seed=args.seed)
    mid = fast.Game.from_state(state)
    mid.play_random(seed=1, max_turns=40)
    mid_state = mid.state()
    print(f"\n{'operation (2 players, turn 40)':<34} {'us wall':>9} {'us CPU':>9}")
    for label, work, calls in (
        ("copy()", mid.copy, 200_000),
        ("action_count() after a copy", lambda: mid.copy().action_count(), 100_000),
        ("state()", mid.state, 5_000),
        ("Game.from_state(state)", lambda: fast.Game.from_state(mid_state), 5_000),
        ("Game.new(2, seed=...)", lambda: fast.Game.new(2, seed=1), 5_000),
        ("splendor.check_state(state)", lambda: splendor.check_state(mid_state), 5_000),
    ):
        wall_us, cpu_us = _per_call(work, calls)
        print(f"{label:<34} {wall_us:>9.3f} {cpu_us:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
