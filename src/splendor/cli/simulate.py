"""``splendor simulate``: many seeded games between bots, in parallel, and their statistics."""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator

from splendor.arena.tournament import GameResult
from splendor.cli.common import Subcommands, add_bot_options, add_players_option
from splendor.cli.errors import UsageError
from splendor.cli.files import write_text
from splendor.cli.output import EXIT_INTERRUPTED, Output
from splendor.cli.stats import Summary, simulate_one, summarize
from splendor.core.rules import MIN_PLAYERS
from splendor.core.wording import plural
from splendor.players.bots import DEFAULT_MAX_TURNS, bot_name, load_bot

__all__ = ["add_parser", "progress", "run_simulate"]


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def progress(total: int, enabled: bool, what: str = "games") -> Iterator[Callable[[], None]]:
    """A progress bar on standard error; ``advance()`` after each game (or each of ``what``).

    Shown only when standard error is a terminal: a rich bar, or without rich
    a plain line every tenth of the games.
    """
    if not enabled:
        yield lambda: None
        return
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        if not sys.stderr.isatty():
            yield lambda: None
            return
        done = 0
        step = max(1, total // 10)

        def advance_plain() -> None:
            nonlocal done
            done += 1
            if done % step == 0 or done == total:
                print(f"  {done}/{total} {what}", file=sys.stderr, flush=True)

        yield advance_plain
        return
    console = Console(stderr=True)
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor simulate`` to the command line."""
    simulate = commands.add_parser(
        "simulate",
        help="run many seeded games between bots",
        description="Play N seeded games between bots and print their win rates.",
    )
    simulate.add_argument(
        "-n", "--games", type=int, default=100, help="number of games (default 100)"
    )
    add_players_option(simulate, None, "one per bot given, at least 2")
    add_bot_options(
        simulate,
        None,
        "the bots: one bot for all seats, or one per seat",
        "greedy in seat 0 and random in the others",
    )
    simulate.add_argument(
        "--seed", type=int, default=0, help="master seed (default 0); game i uses seed*1000003+i"
    )
    simulate.add_argument(
        "--workers", type=int, default=1, help="processes to use; 0 for every core (default 1)"
    )
    simulate.add_argument(
        "--json",
        metavar="FILE",
        help="write the results to FILE as JSON; - for standard output (then only the JSON)",
    )
    simulate.add_argument(
        "--no-rotate",
        action="store_true",
        help="keep each bot in its seat (by default the seats rotate every game)",
    )
    simulate.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        help=f"stop a game unfinished after this many turns (default {DEFAULT_MAX_TURNS})",
    )
    simulate.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play the games as Ray tasks: on the cluster at ADDRESS (HOST:PORT), "
        "or on a Ray instance started here when no address is given",
    )
    simulate.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    simulate.set_defaults(run=run_simulate)


def run_simulate(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Run seeded games between bots and print the statistics (``read`` is not used)."""
    if args.bots is None:
        players = args.players if args.players is not None else MIN_PLAYERS
        specs: tuple[str, ...] = ("greedy",) + ("random",) * (players - 1)
    else:
        specs = tuple(args.bots)
        players = args.players if args.players is not None else max(len(specs), MIN_PLAYERS)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UsageError(f"give one bot, or one bot per seat ({players}), got {len(specs)}")
    # Load each bot here first: an unknown bot fails before any game, and the tables
    # use the bots' own names.
    names = [bot_name(load_bot(spec)) for spec in specs]
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    workers = args.workers if args.workers > 0 else (os.cpu_count() or 1)
    workers = min(workers, args.games)
    jobs = [(specs, args.seed, i, not args.no_rotate, args.max_turns) for i in range(args.games)]
    outcomes: list[GameResult] = []
    started = time.perf_counter()
    interrupted = False
    show_bar = not args.quiet
    pool = None
    try:
        with progress(len(jobs), show_bar) as advance:
            if args.ray is not None:
                from splendor.arena.parallel import run_tasks

                done = dict(
                    run_tasks(simulate_one, jobs, ray=args.ray, progress=lambda *_: advance())
                )
                outcomes.extend(done[i] for i in range(len(jobs)))
            elif workers == 1:
                for job in jobs:
                    outcomes.append(simulate_one(job))
                    advance()
            else:
                context = multiprocessing.get_context("spawn")
                pool = context.Pool(workers, initializer=_ignore_interrupts)
                chunk = max(1, min(10, len(jobs) // (workers * 4)))
                for outcome in pool.imap(simulate_one, jobs, chunksize=chunk):
                    outcomes.append(outcome)
                    advance()
                pool.close()
                pool.join()
    except KeyboardInterrupt:
        interrupted = True
        if pool is not None:
            pool.terminate()
            pool.join()
    except Exception:
        # A bot that raised in a worker: stop the other workers before reporting it.
        if pool is not None:
            pool.terminate()
            pool.join()
        raise
    if not outcomes:
        out.line("Interrupted before any game finished.")
        return EXIT_INTERRUPTED
    summary = summarize(specs, outcomes, names)
    if args.json:
        document = {
            **summary.as_json(),
            "seed": args.seed,
            "rotate": not args.no_rotate,
            "max_turns": args.max_turns,
            "interrupted": interrupted,
        }
        text = json.dumps(document, indent=2) + "\n"
        if args.json == "-":
            out.file.write(text)
            return EXIT_INTERRUPTED if interrupted else 0
        write_text(args.json, text)
    _report(summary, args, interrupted, workers, time.perf_counter() - started, out)
    if args.json:
        out.line((f"Results written to {args.json}.", "dim"))
    return EXIT_INTERRUPTED if interrupted else 0


def _report(
    summary: Summary,
    args: argparse.Namespace,
    interrupted: bool,
    workers: int,
    elapsed: float,
    out: Output,
) -> None:
    """Write the statistics as a table and a few lines."""
    title = f"{plural(summary.games, 'game')}, {summary.players} players, seed {args.seed}"
    if interrupted:
        title += f" (interrupted: {summary.games} of {args.games} played)"
    names = [stats.bot for stats in summary.bots]
    repeated = len(set(names)) < len(names)
    rows = [
        [
            f"{stats.bot} #{stats.seat + 1}" if repeated else stats.bot,
            str(stats.wins),
            f"{100 * stats.win_rate:.1f}%",
            f"{100 * stats.ci95[0]:.1f}-{100 * stats.ci95[1]:.1f}%",
            f"{stats.mean_points:.2f}",
        ]
        for stats in summary.bots
    ]
    out.table(title, ["Bot", "Wins", "Win rate", "95% CI", "Mean points"], rows)
    shared = sum(stats.shared_wins for stats in summary.bots)
    if shared:
        out.line(
            f"Shared wins (a tie on points and cards) count as a win for each winner: "
            f"{plural(shared, 'win')} shared."
        )
    if summary.mean_turns is not None:
        out.line(
            f"Mean game length: {summary.mean_turns:.1f} turns "
            f"({summary.mean_turns / summary.players:.1f} rounds)."
        )
    if summary.finished < summary.games:
        stopped = plural(summary.games - summary.finished, "game")
        out.line((f"{stopped} stopped unfinished at {plural(args.max_turns, 'turn')}.", "yellow"))
    out.line((f"{elapsed:.1f} s with {plural(workers, 'worker')}.", "dim"))
