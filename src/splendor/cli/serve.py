"""``splendor serve``: play in the browser (the game server of :mod:`splendor.server`)."""

from __future__ import annotations

import argparse
import socket
import sqlite3
from collections.abc import Callable, Mapping

from splendor.cli.common import Subcommands
from splendor.cli.errors import FileError, UsageError
from splendor.cli.output import Output
from splendor.errors import MissingExtraError, SplendorError
from splendor.players.bots import load_bot
from splendor.players.seats import close_bot

__all__ = ["add_parser", "run_serve"]


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor serve`` to the command line."""
    from splendor.server import DESCRIPTION, add_arguments

    # The same description and options as python -m splendor.server (see
    # splendor.server.build_parser); the common options come from the caller.
    serve = commands.add_parser(
        "serve", help="serve games in the browser (the [server] extra)", description=DESCRIPTION
    )
    add_arguments(serve)
    serve.set_defaults(run=run_serve)


def _check_can_serve(host: str, port: int, db: str) -> None:
    """Open the database and the port once, so a failure is one clear line before the URL."""
    from splendor.server.database import is_postgres, open_store, shown

    try:
        if is_postgres(db) or db.startswith("sqlite:"):
            open_store(db).close()  # connects, and creates the tables it lacks
        else:
            sqlite3.connect(db).close()
    except MissingExtraError:
        raise
    except Exception as error:  # sqlite3.Error, psycopg.Error, a bad URL: said in one line
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise FileError(f"cannot open the game database {shown(db)}: {message}") from None
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise FileError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def _check_engines(engines: Mapping[str, str]) -> None:
    """Start and end each configured engine once, so a wrong command is one clear line now."""
    for name, spec in engines.items():
        try:
            bot = load_bot(spec)
        except SplendorError as error:
            raise UsageError(f"--engine {name}: {error}") from None
        failed = close_bot(bot)
        if failed is not None:
            raise UsageError(f"--engine {name}: closing the engine failed: {failed}") from failed


def run_serve(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Serve until interrupted (``read`` is not used).

    Raises:
        splendor.errors.MissingExtraError: when the ``[server]`` extra is missing.
        FileError: when the database cannot be opened or the port cannot be listened on.
        UsageError: when a configured engine cannot be started.
    """
    from splendor.server import require_extra, run, server_options
    from splendor.server.database import shown

    require_extra()
    options = server_options(args)
    _check_engines(options["engines"])
    _check_can_serve(args.host, args.port, args.db)
    out.line(
        ("Splendor: ", "bold"),
        f"http://{args.host}:{args.port}/ (games kept in {shown(args.db)}); Ctrl-C stops.",
    )
    run(args.host, args.port, args.db, bot_delay=args.bot_delay, **options)
    return 0
