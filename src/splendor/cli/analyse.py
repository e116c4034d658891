"""``splendor analyse``: evaluate every position of a saved game and judge every move.

See :mod:`splendor.arena.analysis`.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Final

from splendor.arena.analysis import (
    Analyser,
    EngineAnalyser,
    SupportsAnalyse,
    Thresholds,
    analyse_game,
    analyser_for,
)
from splendor.cli.common import Subcommands
from splendor.cli.errors import UsageError
from splendor.cli.files import load_record, write_text
from splendor.cli.output import Output
from splendor.cli.simulate import progress
from splendor.formats.serialization import to_json
from splendor.players.bots import load_bot
from splendor.players.ismcts import ISMCTSBot
from splendor.remote import Engine, Limit

__all__ = ["add_parser", "run_analyse"]

# The style of a report line by its judgement.
_STYLES: Final = {"blunder": "bold red", "mistake": "yellow", "inaccuracy": "cyan"}


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor analyse`` to the command line."""
    parser = commands.add_parser(
        "analyse",
        help="evaluate every position of a saved game and find the mistakes",
        description=(
            "Evaluate every position of a game record from the view of the seat to move, "
            "and judge each move by the chance of winning it lost: inaccuracy, mistake, "
            "blunder."
        ),
    )
    parser.add_argument(
        "record",
        metavar="RECORD",
        help="a game record: JSON, text, or JSON Lines with --game",
    )
    parser.add_argument(
        "--engine",
        metavar="SPEC",
        help=(
            "who analyses: a bot with an analyse method, as a bot spec "
            "(ismcts:iterations=400,seed=1), or an engine whose info lines give "
            "chances of winning ('engine:COMMAND'); by default ISMCTS with --time a position"
        ),
    )
    parser.add_argument(
        "--time",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="seconds a position for the default analyser and for an engine (default 0.5)",
    )
    parser.add_argument(
        "--game", type=int, metavar="N", help="the game to analyse in a JSON Lines file, from 1"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the seed of the analyser's generator (default 0)"
    )
    parser.add_argument(
        "--thresholds",
        type=float,
        nargs=3,
        metavar=("INACCURACY", "MISTAKE", "BLUNDER"),
        help="the losses of a win that judge a move (default 0.05 0.10 0.20)",
    )
    parser.add_argument("--svg", metavar="FILE", help="draw the chances of winning to FILE")
    parser.add_argument(
        "--out", metavar="FILE", help="write the record with the annotations to FILE (JSON)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run_analyse)


def analyser_from_spec(spec: str | None, seconds: float, seed: int) -> Analyser:
    """The analyser ``--engine`` names: by default an ISMCTS search of ``seconds`` a position.

    An engine (an ``engine:`` spec) is started here and searches ``seconds``
    a position; close it (``analyser.engine.quit()``) when done.

    Raises:
        UsageError: for a bot that cannot analyse.
        EngineError: when an engine cannot be started.
    """
    if spec is None:
        return analyser_for(ISMCTSBot(seconds=seconds), seed=seed)
    bot = load_bot(spec)
    if isinstance(bot, Engine):
        return analyser_for(bot, limit=Limit(time=seconds))
    if not isinstance(bot, SupportsAnalyse | Analyser):
        raise UsageError(
            f"{spec} cannot analyse: it has no analyse method (try ismcts or search, or a bot "
            "with analyse(view, actions, rng))"
        )
    return analyser_for(bot, seed=seed)


def run_analyse(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Analyse a saved game and print the report (``read`` is not used)."""
    if not (math.isfinite(args.time) and args.time > 0):
        raise UsageError(f"--time must be a positive number of seconds, got {args.time}")
    thresholds = Thresholds(*args.thresholds) if args.thresholds else Thresholds()
    record = load_record(args.record, args.game)
    analyser = analyser_from_spec(args.engine, args.time, args.seed)
    positions = len(record.actions) + 1
    try:
        with progress(positions, not args.quiet, "positions") as advance:
            analysis = analyse_game(
                record,
                analyser,
                thresholds=thresholds,
                seed=args.seed,
                progress=lambda done, total: advance(),
            )
    finally:
        if isinstance(analyser, EngineAnalyser):
            analyser.engine.quit()
    for line in analysis.format().splitlines():
        style = _STYLES.get(line.rsplit(" ", 1)[-1])
        out.line(line if style is None else (line, style))
    if args.svg:
        write_text(args.svg, analysis.render_svg())
        out.line((f"Chart written to {args.svg}.", "dim"))
    if args.out:
        write_text(args.out, to_json(analysis.annotated_record(), indent=1) + "\n")
        out.line((f"Annotated record written to {args.out}.", "dim"))
    return 0
