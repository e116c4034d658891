"""``splendor`` with no command: play and print a seeded game between bots."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from splendor.cli.common import (
    add_bot_options,
    add_players_option,
    bot_failures_as_raised,
    bots_for,
    names_for,
    turn_line,
)
from splendor.cli.files import save_record
from splendor.cli.output import EXIT_FAILED, Output
from splendor.cli.text import finish_lines, show_legend, show_table
from splendor.core.wording import plural
from splendor.players.bots import DEFAULT_MAX_TURNS, play_game

__all__ = ["add_arguments", "run_demo"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the demo's options to the top-level parser."""
    add_players_option(parser, None, "one per bot given, at least 2")
    parser.add_argument("--seed", type=int, default=1, help="seed of the game (default 1)")
    add_bot_options(
        parser, ["greedy"], "the bots: one bot for all seats, or one per seat", "greedy"
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="save the game played to FILE (.json for JSON, else the text record format)",
    )
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS, help=argparse.SUPPRESS)
    parser.set_defaults(run=run_demo)


def run_demo(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Play and print a seeded game between bots (``read`` is not used)."""
    if args.players is not None:
        players = args.players
    else:
        players = len(args.bots) if len(args.bots) > 1 else 2
    bots = bots_for(args.bots, players, args.seed)
    names = names_for(bots, None)
    with bot_failures_as_raised():
        record = play_game(bots, seed=args.seed, names=names, max_turns=args.max_turns)
    if args.save:
        save_record(record, args.save)
    states = record.replay()
    out.line(
        (f"A {players}-player game of Splendor, seed {args.seed}: ", "bold"),
        ", ".join(names),
    )
    show_legend(out)
    show_table(states[0], out, names=names)
    out.line()
    for before, action, after in zip(states, record.actions, states[1:], strict=False):
        turn_line(out, before, action, after, names[before.current_player])
    final = states[-1]
    out.line()
    show_table(final, out, names=names)
    out.line()
    if record.result is None:
        turns = plural(len(record.actions), "turn")
        out.line((f"The game stopped unfinished after {turns}.", "bold red"))
    else:
        finish_lines(final, names, out)
    if args.save:
        out.line(
            (
                f"The game is saved in {args.save}; see it again with: splendor replay {args.save}",
                "dim",
            )
        )
    return 0 if record.result is not None else EXIT_FAILED
