"""How strong a bot is against another: paired deals, win shares with 95% intervals, CPU per move.

Plays ``--deals`` deals; each deal is played once with the bot in every seat
(so a 2-player deal is played with the seats swapped), the other seats held
by copies of the opponent. Prints the bot's share of the wins (a shared win
counts its share) with a 95% Wilson interval against the fair share, and the
CPU time per move of each side (process time around each call, in the
process that plays the game).

    python benchmarks/strength.py --bot search:seconds=0.25 --against ismcts:iterations=500 \\
        --deals 200 --workers 2 --out strength-ismcts.jsonl
    python benchmarks/strength.py --bot search:iterations=3000 --against greedy --players 3

Deal ``d`` is dealt with seed ``10000 + d`` (``--first`` moves the deals:
tune on deals from 1000 on, measure on deals from 0). With ``--out`` every
finished game is appended to a JSON-lines file and a run started again with
the same file plays only the games missing from it, so a long run can be
stopped and resumed; the summary covers every game in the file for the same
bots and players.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from splendor import Action, PlayerView, play_game
from splendor.arena.parallel import run_tasks
from splendor.cli.stats import wilson
from splendor.players.bots import Bot, load_bot


class _Timed:
    """A bot wrapper that adds up the CPU time its bot takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.cpu = 0.0
        self.moves = 0

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        cpu = time.process_time()
        action = self.bot(view, actions, rng)
        self.cpu += time.process_time() - cpu
        self.moves += 1
        return action


Task = tuple[str, str, int, int, int]


class Row(TypedDict):
    """One game, as the JSON-lines file keeps it."""

    bot: str
    against: str
    players: int
    deal: int
    seat: int
    share: float
    turns: int
    bot_cpu: float
    bot_moves: int
    against_cpu: float
    against_moves: int


def play(task: Task) -> Row:
    """Play one game: the bot at ``seat`` of deal ``deal``, the opponent elsewhere."""
    bot_spec, against_spec, players, deal, seat = task
    bot = _Timed(load_bot(bot_spec))
    others = [_Timed(load_bot(against_spec)) for _ in range(players - 1)]
    seats: list[Bot] = list(others)
    seats.insert(seat, bot)
    record = play_game(seats, seed=10_000 + deal)
    winners = record.result or ()
    share = 1.0 / len(winners) if seat in winners else 0.0
    return Row(
        bot=bot_spec,
        against=against_spec,
        players=players,
        deal=deal,
        seat=seat,
        share=share,
        turns=len(record.actions),
        bot_cpu=bot.cpu,
        bot_moves=bot.moves,
        against_cpu=sum(o.cpu for o in others),
        against_moves=sum(o.moves for o in others),
    )


def summarize(rows: Sequence[Row], players: int) -> str:
    """One line: the bot's share of the wins with its interval, and CPU per move."""
    n = len(rows)
    won = sum(r["share"] for r in rows)
    low, high = wilson(won, n)
    bot_cpu = sum(r["bot_cpu"] for r in rows) / max(1, sum(r["bot_moves"] for r in rows))
    against_cpu = sum(r["against_cpu"] for r in rows) / max(
        1, sum(r["against_moves"] for r in rows)
    )
    return (
        f"{players}p: won {won:g} of {n} = {100 * won / n:.1f}% "
        f"(95% {100 * low:.1f}-{100 * high:.1f}%, fair share {100 / players:.0f}%); "
        f"CPU per move: bot {bot_cpu:.4f} s, opponent {against_cpu:.4f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", required=True, help="the bot measured, a bot spec")
    parser.add_argument("--against", required=True, help="its opponent in every other seat")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="a JSON-lines file to append to and resume from")
    parser.add_argument("--tally", type=int, default=0, help="print the score every N games")
    args = parser.parse_args(argv)
    rows: list[Row] = []
    if args.out is not None and args.out.exists():
        for line in args.out.read_text().splitlines():
            row: Row = json.loads(line)
            if (row["bot"], row["against"], row["players"]) == (
                args.bot,
                args.against,
                args.players,
            ):
                rows.append(row)
    done = {(r["deal"], r["seat"]) for r in rows}
    tasks: list[Task] = [
        (args.bot, args.against, args.players, deal, seat)
        for deal in range(args.first, args.first + args.deals)
        for seat in range(args.players)
        if (deal, seat) not in done
    ]
    started = time.perf_counter()
    sink = None if args.out is None else args.out.open("a")
    try:
        for _, row in run_tasks(play, tasks, workers=args.workers):
            rows.append(row)
            if sink is not None:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
            if args.tally and len(rows) % args.tally == 0:
                print("  " + summarize(rows, args.players), file=sys.stderr, flush=True)
    finally:
        if sink is not None:
            sink.close()
    if not rows:
        print("no games", file=sys.stderr)
        return 1
    print(f"{args.bot} against {args.against}: " + summarize(rows, args.players))
    print(f"{len(tasks)} games played now in {time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
