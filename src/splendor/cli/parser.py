"""The argument parser of the ``splendor`` command: :func:`build_parser`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Final

import splendor
from splendor.cli import (
    analyse,
    demo,
    engine,
    ladder,
    play,
    replay,
    serve,
    show,
    simulate,
    tournament,
)
from splendor.cli.common import Subcommands
from splendor.server import add_common_options

__all__ = ["COMMANDS", "build_parser"]

#: The subcommands, in the order ``splendor --help`` lists them: each adds
#: its own parser (see :mod:`splendor.cli` for how to add one).
COMMANDS: Final[tuple[Callable[[Subcommands], None], ...]] = (
    play.add_parser,
    simulate.add_parser,
    replay.add_parser,
    show.add_parser,
    serve.add_parser,
    tournament.add_parser,
    engine.add_parser,
    ladder.add_parser,
    analyse.add_parser,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``splendor`` command.

    Each parsed namespace has ``run``, the :class:`~splendor.cli.common.Handler`
    of the command given (the demo when none is).
    """
    parser = argparse.ArgumentParser(
        prog="splendor",
        description=(
            "Splendor in the terminal. With no command, play and print a seeded game "
            "between built-in bots."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {splendor.__version__}")
    add_common_options(parser, default=False)
    demo.add_arguments(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in COMMANDS:
        add(commands)
    for sub in commands.choices.values():
        # Given after the command too; not given there, the top level's value stands.
        add_common_options(sub, default=argparse.SUPPRESS)
    return parser
