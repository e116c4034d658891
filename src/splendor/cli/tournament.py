"""``splendor tournament``: a rated round robin between bots.

See :mod:`splendor.arena.tournament`.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

from splendor.arena.parallel import LOCAL
from splendor.arena.tournament import round_robin
from splendor.cli.common import Subcommands, add_players_option
from splendor.cli.errors import UsageError
from splendor.cli.files import write_text
from splendor.cli.output import Output
from splendor.cli.simulate import progress
from splendor.core.rules import MIN_PLAYERS
from splendor.draw._scene import plural
from splendor.players.bots import DEFAULT_MAX_TURNS

__all__ = ["add_parser", "run_tournament"]


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor tournament`` to the command line."""
    parser = commands.add_parser(
        "tournament",
        help="a rated round robin between bots",
        description=(
            "Play every table of bots N games, seats rotated, and rate the bots "
            "(Bradley-Terry on the Elo scale, with 95% intervals)."
        ),
    )
    parser.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help=(
            "the entrants: random, greedy, ismcts or module:name, each with options "
            "after a colon (ismcts:iterations=200,seed=3)"
        ),
    )
    parser.add_argument(
        "-n", "--games", type=int, default=100, help="games per table (default 100)"
    )
    add_players_option(parser, MIN_PLAYERS, str(MIN_PLAYERS))
    parser.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes to use; 0 for every core (default 1)"
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL,
        metavar="ADDRESS",
        help="play the games as Ray tasks: on the cluster at ADDRESS (HOST:PORT), "
        "or on a Ray instance started here when no address is given",
    )
    parser.add_argument("--json", metavar="FILE", help="write every result to FILE as JSON")
    parser.add_argument("--plot", metavar="FILE", help="draw the ratings to FILE as SVG")
    parser.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        help=f"stop a game unfinished after this many turns (default {DEFAULT_MAX_TURNS})",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run_tournament)


def run_tournament(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Play the tournament and print the ratings and the crosstable (``read`` is not used)."""
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if len(args.bots) < args.players:
        raise UsageError(f"{args.players}-player games need at least {args.players} bots")
    workers = args.workers if args.workers > 0 else (os.cpu_count() or 1)
    total = math.comb(len(args.bots), args.players) * args.games
    with progress(total, not args.quiet) as advance:
        result = round_robin(
            args.bots,
            games=args.games,
            players=args.players,
            seed=args.seed,
            workers=workers,
            ray=args.ray,
            max_turns=args.max_turns,
            progress=lambda done, total: advance(),
        )
    rows = [
        [
            f"{rank}. {r.name}",
            f"{r.rating:.0f}",
            f"{r.low:.0f}..{r.high:.0f}",
            str(r.games),
            f"{r.wins:g}",
            f"{100 * r.score:.1f}%",
        ]
        for rank, r in enumerate(result.ratings, 1)
    ]
    title = f"{plural(len(result.games), 'game')}, {result.players} players, seed {result.seed}"
    out.table(title, ["Bot", "Rating", "95% interval", "Games", "Wins", "Score"], rows)
    order = [result.names.index(r.name) for r in result.ratings]
    cross = [
        [f"{k}. {result.names[i]}", *(_percent(result.crosstable[i][j]) for j in order)]
        for k, i in enumerate(order, 1)
    ]
    out.table(
        "Score of each row against each column",
        ["", *(str(k) for k in range(1, len(order) + 1))],
        cross,
    )
    if args.json:
        write_text(args.json, result.to_json() + "\n")
        out.line((f"Results written to {args.json}.", "dim"))
    if args.plot:
        write_text(args.plot, result.render_svg())
        out.line((f"Rating plot written to {args.plot}.", "dim"))
    return 0


def _percent(score: float | None) -> str:
    return "-" if score is None else f"{100 * score:.1f}%"
