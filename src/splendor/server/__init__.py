"""A reference game server and web client: ``splendor serve`` (the ``[server]`` extra).

The server keeps the authoritative :class:`~splendor.GameState` of every
table, sends each seat only its own :func:`~splendor.view`, checks every move
with the engine, lets bots from :mod:`splendor.players.bots` play, and keeps every
game in SQLite as its :class:`~splendor.GameRecord`. The web client is a set
of static files in this package.

* :func:`main` is the command line (``python -m splendor.server``, the same
  as ``splendor serve``); :func:`run` starts the server;
* :func:`create_app` builds the ASGI application, to run under any ASGI
  server or to test with Starlette's test client;
* :mod:`splendor.server.hub` holds the game logic and
  :mod:`splendor.server.store` the persistence; neither needs the web
  framework.

Importing this module needs nothing beyond the library; :func:`create_app`
and :func:`run` need the extra (``pip install "splendor-rules[server]"``)
and say so when it is missing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from splendor._optional import require
from splendor.errors import MissingExtraError
from splendor.server.store import DEFAULT_DB

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = [
    "DEFAULT_DB",
    "DESCRIPTION",
    "MissingExtraError",
    "add_arguments",
    "add_common_options",
    "build_parser",
    "create_app",
    "main",
    "require_extra",
    "run",
]

#: What ``splendor serve --help`` and ``python -m splendor.server --help`` say.
DESCRIPTION: Final = (
    "Start the game server and its web client: open tables for people and bots, "
    "share a link per seat, play and watch live. Games are kept in an SQLite "
    "file and resume when the server starts again."
)

_NEEDED = ("starlette", "uvicorn", "websockets")


def require_extra() -> None:
    """Check that the packages of the ``[server]`` extra are installed.

    Raises:
        MissingExtraError: naming a missing package and how to install the
            extra (the library's one :class:`splendor.errors.MissingExtraError`,
            importable from here too).
    """
    for name in _NEEDED:
        require(name, "server", "the server")


def create_app(
    db: str | Path = DEFAULT_DB, *, bot_delay: float = 0.6, allow_seeds: bool = False
) -> Starlette:
    """The server as an ASGI application (see :func:`splendor.server.app.create_app`).

    Raises:
        MissingExtraError: when the ``[server]`` extra is not installed.
    """
    require_extra()
    from splendor.server.app import create_app as create

    return create(db, bot_delay=bot_delay, allow_seeds=allow_seeds)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = DEFAULT_DB,
    *,
    bot_delay: float = 0.6,
) -> None:
    """Serve until interrupted (Ctrl-C stops it cleanly; games resume on the next start).

    Args:
        host: the address to listen on.
        port: the port to listen on.
        db: the SQLite file the games are kept in.
        bot_delay: seconds a bot waits before each move.

    Raises:
        MissingExtraError: when the ``[server]`` extra is not installed.
    """
    app = create_app(db, bot_delay=bot_delay)
    import uvicorn

    # Frames above 64 KiB are closed by the protocol layer (code 1009);
    # smaller ones over the message limit get an error reply.
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, log_level="info")


def _port(text: str) -> int:
    """A TCP port number for ``--port``: 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {port}")
    return port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``splendor serve`` to ``parser``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--db", default=DEFAULT_DB, metavar="FILE", help=f"SQLite file of games ({DEFAULT_DB})"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move (0.6)",
    )


def add_common_options(parser: argparse.ArgumentParser, default: object = False) -> None:
    """Add the options every ``splendor`` command takes: ``--no-color`` and ``--traceback``.

    Args:
        parser: the parser of a command.
        default: the options' value when not given (``argparse.SUPPRESS`` for
            a subcommand, so that the value given before it stands).
    """
    parser.add_argument(
        "--no-color", action="store_true", default=default, help="plain text, no colour"
    )
    parser.add_argument(
        "--traceback",
        action="store_true",
        default=default,
        help="on an error, print the full Python traceback (for a bot's author)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m splendor.server``: the one of ``splendor serve``.

    The same name, description and options (those of every ``splendor``
    command included), so that both print the same ``--help``.
    """
    parser = argparse.ArgumentParser(prog="splendor serve", description=DESCRIPTION)
    add_arguments(parser)
    add_common_options(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m splendor.server [--host H] [--port P] [--db FILE]``; returns the exit status.

    The options are those of ``splendor serve`` (:func:`build_parser`); the
    output is plain text either way, and ``--traceback`` raises a missing
    extra's error instead of printing it in one line.
    """
    args = build_parser().parse_args(argv)
    try:
        require_extra()
    except MissingExtraError as error:
        if args.traceback:
            raise
        print(f"splendor serve: {error}", file=sys.stderr)
        return 2
    print(f"Splendor: http://{args.host}:{args.port}/ (games kept in {args.db}); Ctrl-C stops.")
    run(args.host, args.port, args.db, bot_delay=args.bot_delay)
    return 0
