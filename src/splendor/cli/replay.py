"""``splendor replay``: step through a saved game, turn by turn."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Final

from splendor.cli.common import Subcommands, record_names, turn_line
from splendor.cli.errors import UsageError
from splendor.cli.files import describe, load_file
from splendor.cli.output import Output
from splendor.cli.text import finish_lines, show_table
from splendor.core.wording import plural
from splendor.formats.record import GameRecord

__all__ = ["add_parser", "run_replay"]

# A turn number typed while stepping through a replay: longer ones are past any record.
MAX_TURN_DIGITS: Final = 9


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor replay`` to the command line."""
    replay = commands.add_parser(
        "replay",
        help="step through a saved game",
        description="Step through a saved game record, turn by turn.",
    )
    replay.add_argument("file", metavar="FILE", help="a game record (JSON or text)")
    step = replay.add_mutually_exclusive_group()
    step.add_argument(
        "--step",
        dest="step",
        action="store_true",
        default=None,
        help="wait for Enter after each turn (the default in a terminal)",
    )
    step.add_argument(
        "--no-step", dest="step", action="store_false", help="print every turn at once"
    )
    replay.add_argument("--board", action="store_true", help="show the board after every turn")
    replay.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Step through a saved game record."""
    loaded = load_file(args.file)
    if not isinstance(loaded, GameRecord):
        raise UsageError(
            f"{args.file} holds {describe(loaded)}, not a game record: use splendor show"
        )
    record = loaded
    names = record_names(record)
    states = record.replay()
    step = args.step if args.step is not None else sys.stdin.isatty()
    out.line((f"{record.players}-player game, seed {record.seed}: ", "bold"), ", ".join(names))
    show_table(states[0], out, names=names)
    if step:
        out.line(("Enter: next turn, b: board, a number: go to that turn, q: quit.", "dim"))
    index = 0
    try:
        while index < len(record.actions):
            before, action = states[index], record.actions[index]
            turn_line(out, before, action, states[index + 1], names[before.current_player])
            index += 1
            if args.board:
                show_table(states[index], out, names=names)
            while step and index < len(record.actions):
                try:
                    answer = read("").strip().lower()
                except EOFError:
                    step = False
                    break
                if answer == "q":
                    return 0
                if answer == "b":
                    show_table(states[index], out, names=names)
                    continue
                if answer.isascii() and answer.isdigit():
                    digits = answer.lstrip("0")
                    # A number longer than any record is past the end: go to the end.
                    wanted = (
                        len(record.actions)
                        if len(digits) > MAX_TURN_DIGITS
                        else min(int(digits or "0"), len(record.actions))
                    )
                    if wanted > index:
                        for i in range(index, wanted - 1):
                            turn_line(
                                out,
                                states[i],
                                record.actions[i],
                                states[i + 1],
                                names[states[i].current_player],
                            )
                        index = wanted - 1
                    else:
                        index = wanted
                        show_table(states[index], out, names=names)
                        out.line((f"At turn {index}.", "dim"))
                        continue
                break
    except KeyboardInterrupt:
        out.line()
        return 0
    final = states[-1]
    out.line()
    show_table(final, out, names=names)
    if final.is_over:
        finish_lines(final, names, out)
    else:
        turns = plural(len(record.actions), "turn")
        out.line(f"The record stops after {turns}, before the end of the game.")
    return 0
