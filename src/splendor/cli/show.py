"""``splendor show``: a saved game or state, as text or as an SVG picture."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from splendor.cli.common import Subcommands, record_names
from splendor.cli.errors import UsageError
from splendor.cli.files import describe, load_file, write_text
from splendor.cli.output import Output
from splendor.cli.text import finish_lines, show_table
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.draw.svg import render_svg
from splendor.formats.record import GameRecord

__all__ = ["add_parser", "run_show"]


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor show`` to the command line."""
    show = commands.add_parser(
        "show",
        help="show a saved game, state or player's view",
        description=(
            "Show the final state of a saved game (or its state after --turn N turns), "
            "a saved state or a saved player's view, as text or SVG."
        ),
    )
    show.add_argument(
        "file", metavar="FILE", help="a game record (JSON or text), a state or a view (JSON)"
    )
    show.add_argument(
        "--turn",
        type=int,
        default=None,
        help="show a record's state after this many turns (default: the last)",
    )
    show.add_argument(
        "--seat",
        type=int,
        default=None,
        help="draw from this seat's viewpoint (hides other seats' blind reserves)",
    )
    show.add_argument("--svg", metavar="OUT", help="write an SVG picture to OUT instead")
    show.set_defaults(run=run_show)


def run_show(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Show a record's state, a state or a view as text or SVG (``read`` is not used)."""
    loaded = load_file(args.file)
    table: GameState | PlayerView
    if isinstance(loaded, GameRecord):
        names: list[str] | None = record_names(loaded)
        states = loaded.replay()
        turn = len(loaded.actions) if args.turn is None else args.turn
        if not 0 <= turn < len(states):
            raise UsageError(f"--turn must be 0 to {len(states) - 1}")
        table = states[turn]
    else:
        names = None
        if args.turn is not None:
            raise UsageError(f"--turn needs a game record, not {describe(loaded)}")
        table = loaded
    if args.seat is not None and not 0 <= args.seat < len(table.players):
        raise UsageError(f"--seat must be 0 to {len(table.players) - 1}")
    if isinstance(table, PlayerView) and args.seat not in (None, table.seat):
        seen = "a spectator's" if table.seat is None else f"seat {table.seat}'s"
        raise UsageError(f"{args.file} is {seen} view: it can only be shown as that seat sees it")
    if args.svg:
        picture = render_svg(table, seat=args.seat, names=names)
        write_text(args.svg, picture)
        out.line(f"Picture written to {args.svg}.")
        return 0
    show_table(table, out, seat=args.seat, names=names)
    if isinstance(table, GameState) and table.is_over and names is not None:
        finish_lines(table, names, out)
    return 0
