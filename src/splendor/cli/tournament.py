"""``splendor tournament``: a rated, refereed round robin between bots.

See :mod:`splendor.arena.tournament` and :mod:`splendor.arena.referee`.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

from splendor.arena.parallel import LOCAL
from splendor.arena.referee import TimeControl
from splendor.arena.tournament import round_robin
from splendor.cli.common import BOT_KINDS, Subcommands, add_players_option
from splendor.cli.errors import UsageError
from splendor.cli.files import write_text
from splendor.cli.output import Output
from splendor.cli.simulate import progress
from splendor.core.rules import MIN_PLAYERS
from splendor.core.wording import plural
from splendor.players.bots import DEFAULT_MAX_TURNS

__all__ = ["add_parser", "run_tournament"]


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor tournament`` to the command line."""
    parser = commands.add_parser(
        "tournament",
        help="a rated, refereed round robin between bots",
        description=(
            "Play every table of bots N games, each deal with the seats rotated, under "
            "an optional time control, and rate the bots (Bradley-Terry on the Elo scale, "
            "and OpenSkill for 3 or 4 players, with 95% intervals). A bot that runs out "
            "of time, plays an illegal move or crashes forfeits the game."
        ),
    )
    parser.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help=(
            f"the entrants: {BOT_KINDS} (engine:COMMAND for a bot in another process "
            "speaking the bot protocol), each with options after a colon "
            "(ismcts:iterations=200,seed=3)"
        ),
    )
    count = parser.add_mutually_exclusive_group()
    count.add_argument(
        "-n", "--games", type=int, default=None, help="games per table (default 100)"
    )
    count.add_argument(
        "--deals",
        type=int,
        metavar="N",
        help="deals per table, each played once from every seat (games = N x players)",
    )
    parser.add_argument(
        "--time-per-move",
        type=float,
        metavar="SECONDS",
        help="the time each move may take; a slower move forfeits the game",
    )
    parser.add_argument(
        "--time-per-game",
        type=float,
        metavar="SECONDS",
        help="each seat's clock for the whole game; running out forfeits the game",
    )
    parser.add_argument(
        "--increment",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="seconds added to the mover's clock after each move (with --time-per-game)",
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
    if args.deals is not None:
        if args.deals < 1:
            raise UsageError("--deals must be at least 1")
        games = args.deals * args.players
    else:
        games = 100 if args.games is None else args.games
    if games < 1:
        raise UsageError("--games must be at least 1")
    if len(args.bots) < args.players:
        raise UsageError(f"{args.players}-player games need at least {args.players} bots")
    time_control = _time_control(args)
    workers = args.workers if args.workers > 0 else (os.cpu_count() or 1)
    total = math.comb(len(args.bots), args.players) * games
    with progress(total, not args.quiet) as advance:
        result = round_robin(
            args.bots,
            games=games,
            players=args.players,
            seed=args.seed,
            workers=workers,
            ray=args.ray,
            max_turns=args.max_turns,
            time_control=time_control,
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
    if result.skill_ratings:
        out.table(
            "OpenSkill ratings (Plackett-Luce, whole rankings)",
            ["Bot", "mu", "95% interval", "Ordinal", "Games"],
            [
                [
                    f"{rank}. {r.name}",
                    f"{r.mu:.1f}",
                    f"{r.low:.1f}..{r.high:.1f}",
                    f"{r.ordinal:.1f}",
                    str(r.games),
                ]
                for rank, r in enumerate(result.skill_ratings, 1)
            ],
        )
    if result.forfeits:
        rows = []
        for game in result.forfeits:
            assert game.forfeit is not None  # by the property's filter
            rows.append(
                [
                    str(game.index),
                    str(game.forfeit.seat),
                    result.names[game.entrants[game.forfeit.seat]],
                    game.forfeit.reason,
                    game.forfeit.detail,
                ]
            )
        out.table(f"Forfeits ({len(rows)})", ["Game", "Seat", "Bot", "Reason", "Detail"], rows)
    if args.json:
        write_text(args.json, result.to_json() + "\n")
        out.line((f"Results written to {args.json}.", "dim"))
    if args.plot:
        write_text(args.plot, result.render_svg())
        out.line((f"Rating plot written to {args.plot}.", "dim"))
    return 0


def _time_control(args: argparse.Namespace) -> TimeControl | None:
    """The time control the options ask for, or ``None``."""
    for option, value in (
        ("--time-per-move", args.time_per_move),
        ("--time-per-game", args.time_per_game),
    ):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise UsageError(f"{option} must be a positive number of seconds")
    if not (math.isfinite(args.increment) and args.increment >= 0):
        raise UsageError("--increment must be a non-negative number of seconds")
    if args.increment and args.time_per_game is None:
        raise UsageError("--increment needs --time-per-game")
    if args.time_per_move is None and args.time_per_game is None:
        return None
    return TimeControl(move=args.time_per_move, game=args.time_per_game, increment=args.increment)


def _percent(score: float | None) -> str:
    return "-" if score is None else f"{100 * score:.1f}%"
