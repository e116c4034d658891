"""``splendor ladder``: a persistent rated ladder in an SQLite file.

See :mod:`splendor.arena.ladder`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Final

from splendor.arena.ladder import Ladder
from splendor.cli.common import Subcommands
from splendor.cli.errors import UsageError
from splendor.cli.files import write_text
from splendor.cli.output import Output
from splendor.cli.simulate import progress
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS
from splendor.core.wording import plural
from splendor.players.bots import DEFAULT_MAX_TURNS
from splendor.server import add_common_options

__all__ = ["DEFAULT_LADDER", "add_parser", "run_add", "run_export", "run_play", "run_show"]

#: The ladder file the commands use when ``--db`` is not given.
DEFAULT_LADDER: Final = "ladder.sqlite"


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=DEFAULT_LADDER,
        metavar="FILE",
        help=f"the ladder's SQLite file (default {DEFAULT_LADDER})",
    )


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor ladder`` and its commands to the command line."""
    parser = commands.add_parser(
        "ladder",
        help="a persistent rated ladder of bots and engines",
        description=(
            "Keep a ladder of bots in an SQLite file: add entrants, play games (a fair "
            "share for each), show and export the table. An interrupted "
            "'ladder play' loses nothing and goes on where it stopped."
        ),
    )
    parser.set_defaults(run=_ladder_help(parser))
    steps = parser.add_subparsers(dest="ladder_command", metavar="COMMAND")

    add = steps.add_parser(
        "add",
        help="add an entrant",
        description="Add an entrant under NAME; the ladder file is made on the first add.",
    )
    add.add_argument("name", metavar="NAME", help="the entrant's name in the ladder")
    add.add_argument(
        "spec",
        metavar="SPEC",
        help="its bot: greedy, ismcts:iterations=200, module:name or engine:COMMAND",
    )
    add.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        metavar="N",
        help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS}, for a new ladder (default 2)",
    )
    add.add_argument("--seed", type=int, help="the seed of a new ladder's deals (default 0)")
    _db_option(add)
    add.set_defaults(run=run_add)

    play = steps.add_parser(
        "play",
        help="play games, a fair share for every entrant",
        description=(
            "Play N games: first any left scheduled by an interrupted run, then new deals "
            "giving every entrant a fair share of the games (the one with the fewest plays, "
            "against those it has met least), each deal from every seat."
        ),
    )
    play.add_argument("-n", "--games", type=int, required=True, help="games to play")
    play.add_argument(
        "--time-per-move",
        type=float,
        metavar="SECONDS",
        help="seconds each seat has per move; over it, an engine forfeits (default: no limit)",
    )
    play.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        help=f"stop a game unfinished after this many turns (default {DEFAULT_MAX_TURNS})",
    )
    play.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _db_option(play)
    play.set_defaults(run=run_play)

    show = steps.add_parser("show", help="print the table", description="Print the ladder's table.")
    _db_option(show)
    show.set_defaults(run=run_show)

    export = steps.add_parser(
        "export",
        help="write the table as an HTML page and an SVG plot",
        description="Write the ladder as an HTML page and its ratings as an SVG plot.",
    )
    export.add_argument("--html", metavar="FILE", help="write the HTML page to FILE")
    export.add_argument("--svg", metavar="FILE", help="write the rating plot to FILE")
    _db_option(export)
    export.set_defaults(run=run_export)
    for step in steps.choices.values():
        # Given after the ladder's command too, as after any other command.
        add_common_options(step, default=argparse.SUPPRESS)


def _ladder_help(parser: argparse.ArgumentParser) -> Callable[..., int]:
    def run(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
        raise UsageError("say what to do: splendor ladder add|play|show|export (see --help)")

    return run


def run_add(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Add an entrant, making the ladder file if there is none (``read`` is not used)."""
    with Ladder(args.db, create=True, players=args.players, seed=args.seed) as ladder:
        entrant = ladder.add(args.name, args.spec)
        count = len(ladder.entrants())
    out.line(f"Added {entrant.name} ({entrant.spec}): {plural(count, 'entrant')} in {args.db}.")
    return 0


def run_play(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Play the games, each kept as soon as it ends, then print the table (``read`` is not used)."""
    if args.games < 0:
        raise UsageError("--games must be 0 or more")
    if args.time_per_move is not None and not args.time_per_move > 0:
        raise UsageError("--time-per-move must be above 0")
    with Ladder(args.db) as ladder:
        with progress(args.games, not args.quiet) as advance:
            played = ladder.play(
                args.games,
                time_per_move=args.time_per_move,
                max_turns=args.max_turns,
                progress=lambda done, total: advance(),
            )
        forfeits = sum(game.forfeit is not None for game in played)
        note = f" ({plural(forfeits, 'forfeit')})" if forfeits else ""
        out.line((f"Played {plural(len(played), 'game')}{note}.", "dim"))
        _table(ladder, out)
    return 0


def run_show(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Print the ladder's table (``read`` is not used)."""
    with Ladder(args.db) as ladder:
        _table(ladder, out)
    return 0


def run_export(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Write the HTML page and the SVG plot asked for (``read`` is not used)."""
    if not args.html and not args.svg:
        raise UsageError("give --html FILE, --svg FILE or both")
    with Ladder(args.db) as ladder:
        if args.html:
            write_text(args.html, ladder.render_html())
            out.line((f"Ladder page written to {args.html}.", "dim"))
        if args.svg:
            write_text(args.svg, ladder.render_svg())
            out.line((f"Rating plot written to {args.svg}.", "dim"))
    return 0


def _table(ladder: Ladder, out: Output) -> None:
    finished = len(ladder.games())
    pending = len(ladder.games(finished=False))
    title = f"{plural(finished, 'game')} of {ladder.players} players, seed {ladder.seed}"
    if pending:
        title += f", {pending} scheduled"
    digits = 0 if ladder.players == 2 else 1  # Elo points, or OpenSkill's smaller scale
    rows = [
        [
            f"{rank}. {s.name}",
            s.spec,
            f"{s.rating:.{digits}f}",
            f"{s.low:.{digits}f}..{s.high:.{digits}f}",
            str(s.games),
            f"{s.wins:g}",
            str(s.forfeits),
        ]
        for rank, s in enumerate(ladder.standings(), 1)
    ]
    out.table(
        title, ["Entrant", "Bot", "Rating", "95% interval", "Games", "Wins", "Forfeits"], rows
    )
