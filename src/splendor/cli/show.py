"""``splendor show``: a saved game or state, as text or as an SVG picture."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from splendor.cli.common import Subcommands, UsageError, record_names
from splendor.cli.files import load_file, write_text
from splendor.cli.output import Output
from splendor.cli.text import finish_lines, show_table
from splendor.record import GameRecord
from splendor.svg import render_svg

__all__ = ["add_parser", "run_show"]


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor show`` to the command line."""
    show = commands.add_parser(
        "show",
        help="show a saved game or state",
        description="Show the final state of a saved game, or a saved state, as text or SVG.",
    )
    show.add_argument("file", metavar="FILE", help="a game record (JSON or text) or a state (JSON)")
    show.add_argument(
        "--turn", type=int, default=None, help="show the state after this many turns of a record"
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
    """Show a saved record's final state (or a state) as text or SVG (``read`` is not used)."""
    loaded = load_file(args.file)
    if isinstance(loaded, GameRecord):
        names: list[str] | None = record_names(loaded)
        states = loaded.replay()
        turn = len(loaded.actions) if args.turn is None else args.turn
        if not 0 <= turn < len(states):
            raise UsageError(f"--turn must be 0 to {len(states) - 1}")
        state = states[turn]
    else:
        names = None
        if args.turn is not None:
            raise UsageError("--turn needs a game record, not a state")
        state = loaded
    if args.seat is not None and not 0 <= args.seat < len(state.players):
        raise UsageError(f"--seat must be 0 to {len(state.players) - 1}")
    if args.svg:
        picture = render_svg(state, seat=args.seat, names=names)
        write_text(args.svg, picture)
        out.line(f"Picture written to {args.svg}.")
        return 0
    show_table(state, out, seat=args.seat, names=names)
    if state.is_over and names is not None:
        finish_lines(state, names, out)
    return 0
