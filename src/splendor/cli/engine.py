"""``splendor engine SPEC``: serve a bot over the bot protocol on standard input and output."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import splendor
from splendor.cli.common import BOT_KINDS, Subcommands
from splendor.cli.output import Output
from splendor.players.bots import bot_name, load_bot

__all__ = ["add_parser", "run_engine"]


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor engine`` to the command line."""
    engine = commands.add_parser(
        "engine",
        help="serve a bot as an engine over the bot protocol (stdin/stdout)",
        description=(
            "Serve a bot as an engine of the Splendor bot protocol: JSON lines from the host "
            "on standard input, answers on standard output, the log on standard error. "
            "Runs until the host sends quit or closes the input."
        ),
    )
    engine.add_argument(
        "spec",
        metavar="SPEC",
        help=f"the bot: {BOT_KINDS}, each with options after a colon (ismcts:iterations=200)",
    )
    engine.add_argument("--name", default=None, help="the engine's name (default: the bot's)")
    engine.set_defaults(run=run_engine)


def run_engine(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Serve the bot until ``quit`` (not ``out`` nor ``read``: the protocol owns the streams).

    Raises:
        splendor.errors.InvalidArgumentError: for a spec that names no bot.
    """
    from splendor.remote.serve import serve  # on first use: the other commands do not need it

    bot = load_bot(args.spec)
    return serve(
        bot, name=args.name or bot_name(bot), author="splendor-rules", version=splendor.__version__
    )
