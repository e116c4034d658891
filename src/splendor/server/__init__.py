"""A reference game server and web client: ``splendor serve`` (the ``[server]`` extra).

The server keeps the authoritative :class:`~splendor.GameState` of every
table, sends each seat only its own :func:`~splendor.view`, checks every move
with the engine, lets bots from :mod:`splendor.players.bots` play, and keeps every
game in SQLite (or a PostgreSQL database shared by several processes) as its
:class:`~splendor.GameRecord`. The web client is a set
of static files in this package.

* :func:`main` is the command line (``python -m splendor.server``, the same
  as ``splendor serve``); :func:`run` starts the server;
* :func:`create_app` builds the ASGI application, to run under any ASGI
  server or to test with Starlette's test client;
* :mod:`splendor.server.hub` holds the game logic (its tables in
  :mod:`splendor.server.table`, their seats in :mod:`splendor.server.seating`,
  their bots in :mod:`splendor.server.engines`, the protocol's refusals in
  :mod:`splendor.server.protocol`) and :mod:`splendor.server.store` the
  persistence (chosen by the database URL in :mod:`splendor.server.database`);
  none of them needs the web framework.

Importing this module needs nothing beyond the library; :func:`create_app`
and :func:`run` need the extra (``pip install "splendor-rules[server]"``)
and say so when it is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from splendor.errors import InvalidArgumentError, MissingExtraError, SplendorError
from splendor.extras import require
from splendor.server.database import shown
from splendor.server.engines import check_engines
from splendor.server.limits import DEFAULT_LIMITS, Limits
from splendor.server.store import DEFAULT_DB

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = [
    "DEFAULT_DB",
    "DESCRIPTION",
    "Limits",
    "MissingExtraError",
    "add_arguments",
    "add_common_options",
    "build_parser",
    "create_app",
    "main",
    "require_extra",
    "run",
    "server_options",
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
    db: str | Path = DEFAULT_DB,
    *,
    bot_delay: float = 0.6,
    allow_seeds: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    url: str | None = None,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    engines: Mapping[str, str] | None = None,
) -> Starlette:
    """The server as an ASGI application (see :func:`splendor.server.app.create_app`).

    Raises:
        MissingExtraError: when the ``[server]`` extra is not installed.
    """
    require_extra()
    from splendor.server.app import create_app as create

    return create(
        db,
        bot_delay=bot_delay,
        allow_seeds=allow_seeds,
        limits=limits,
        url=url,
        allowed_hosts=allowed_hosts,
        allowed_origins=allowed_origins,
        engines=engines,
    )


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | Path = DEFAULT_DB,
    *,
    bot_delay: float = 0.6,
    limits: Limits = DEFAULT_LIMITS,
    url: str | None = None,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    engines: Mapping[str, str] | None = None,
) -> None:
    """Serve until interrupted (Ctrl-C stops it cleanly; games resume on the next start).

    Args:
        host: the address to listen on.
        port: the port to listen on.
        db: the SQLite file the games are kept in, or a database URL
            (``postgresql://...``; see :mod:`splendor.server.database`).
        bot_delay: seconds a bot waits before each move.
        limits: the limits and timeouts; the connection caps shrink, with a
            warning, when the process may not open enough files for them.
        url: the address people reach the server at, for its links.
        allowed_hosts: more names the server answers to.
        allowed_origins: more origins whose pages may use the server.
        engines: the bot engines offered beside the built-in bots, by name
            (see :class:`~splendor.server.hub.Hub`).

    Raises:
        MissingExtraError: when the ``[server]`` extra is not installed.
    """
    require_extra()
    import uvicorn

    from splendor.server.transport import config, fit_descriptors

    limits = fit_descriptors(limits)
    app = create_app(
        db,
        bot_delay=bot_delay,
        limits=limits,
        url=url,
        allowed_hosts=allowed_hosts,
        allowed_origins=allowed_origins,
        engines=engines,
    )
    # Frames above 64 KiB are closed by the protocol layer (code 1009);
    # smaller ones over the message limit get an error reply.
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: the server has stopped cleanly
        uvicorn.Server(config(app, host, port, limits, log_level="info")).run()


def _port(text: str) -> int:
    """A TCP port number for ``--port``: 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {port}")
    return port


def _number(text: str, convert: type[int] | type[float]) -> int | float:
    """``text`` as a number of 0 or more (ints) or above 0 (seconds), for an option."""
    try:
        number = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if number < 0 or (convert is float and number == 0):
        bound = "above 0" if convert is float else "0 or more"
        raise argparse.ArgumentTypeError(f"must be {bound}, got {text}")
    return number


def _engine(text: str) -> tuple[str, str]:
    """``NAME=SPEC`` for ``--engine``."""
    name, equals, spec = text.partition("=")
    if not equals or not name or not spec.strip():
        raise argparse.ArgumentTypeError(f"an engine is NAME=SPEC, got {text!r}")
    return name, spec


def _count(text: str) -> int:
    """A whole number of at least 0 for an option."""
    return int(_number(text, int))


def _positive(text: str) -> float:
    """A number of seconds above 0 for an option."""
    return float(_number(text, float))


def _hours(text: str) -> float:
    """A number of hours above 0 for an option, in seconds."""
    return _positive(text) * 3600


#: The options of the limits: (option, field of Limits, type, unit, help).
_LIMIT_OPTIONS: tuple[tuple[str, str, Any, str, str], ...] = (
    ("--max-moves", "max_moves", _count, "N", "moves after which a game stops with no winner"),
    ("--max-bot-tables", "max_bot_tables", _count, "N", "tables of bots only at once; 0 refuses"),
    ("--max-tables", "max_tables", _count, "N", "unfinished tables at once"),
    (
        "--tables-per-client",
        "tables_per_client",
        _count,
        "N",
        "tables one address may open an hour",
    ),
    (
        "--expire-hours",
        "expire_after",
        _hours,
        "HOURS",
        "delete a table after this long with no move and no client",
    ),
    ("--max-connections", "max_connections", _count, "N", "open requests and websockets at once"),
    (
        "--max-connections-per-client",
        "max_connections_per_client",
        _count,
        "N",
        "the same, from one address",
    ),
    (
        "--header-timeout",
        "header_timeout",
        _positive,
        "SECONDS",
        "time to send a request's headers",
    ),
    ("--body-timeout", "body_timeout", _positive, "SECONDS", "time to send a request's body"),
    ("--engine-time", "engine_time", _positive, "SECONDS", "time an engine has for each move"),
    (
        "--max-engine-tables",
        "max_engine_tables",
        _count,
        "N",
        "unfinished tables with an engine at once",
    ),
    (
        "--hello-timeout",
        "hello_timeout",
        _positive,
        "SECONDS",
        "time for a websocket to join or watch",
    ),
    (
        "--idle-timeout",
        "idle_timeout",
        _positive,
        "SECONDS",
        "close a websocket quiet for this long",
    ),
    (
        "--keep-alive-timeout",
        "keep_alive_timeout",
        _count,
        "SECONDS",
        "keep an idle HTTP connection",
    ),
    (
        "--shutdown-timeout",
        "shutdown_timeout",
        _count,
        "SECONDS",
        "wait for connections when stopping",
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``splendor serve`` to ``parser``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="FILE|URL",
        help=f"SQLite file of games, or postgresql://user@host/dbname ({DEFAULT_DB})",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move (0.6)",
    )
    # Who may use the server, and its limits (see docs/server.md).
    parser.add_argument(
        "--url", metavar="URL", help="the address people use, for links (the one served)"
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name to answer to",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another site whose pages may use the server",
    )
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        type=_engine,
        metavar="NAME=SPEC",
        help="offer a bot engine under NAME beside the built-in bots "
        "(SPEC: engine:COMMAND, or any bot spec); repeat for more",
    )
    for option, field, kind, unit, text in _LIMIT_OPTIONS:
        default = getattr(DEFAULT_LIMITS, field) / (3600 if kind is _hours else 1)
        parser.add_argument(
            option, type=kind, dest=field, default=None, metavar=unit, help=f"{text} ({default:g})"
        )


def server_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`run` that the options in ``args`` set, but the address."""
    fields = (field for _, field, _, _, _ in _LIMIT_OPTIONS)
    changed = {field: value for field in fields if (value := getattr(args, field)) is not None}
    engines: dict[str, str] = {}
    for name, spec in args.engine:
        if name in engines:
            raise InvalidArgumentError(f"--engine {name} is given twice")
        engines[name] = spec
    return {
        "limits": Limits(**changed),
        "url": args.url,
        "allowed_hosts": tuple(args.allow_host),
        "allowed_origins": tuple(args.allow_origin),
        "engines": check_engines(engines),
    }


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
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        require_extra()
    except MissingExtraError as error:
        if args.traceback:
            raise
        print(f"splendor serve: {error}", file=sys.stderr)
        return 2
    try:
        options = server_options(args)
    except SplendorError as error:
        parser.error(str(error))
    where = shown(args.db)
    print(f"Splendor: http://{args.host}:{args.port}/ (games kept in {where}); Ctrl-C stops.")
    run(args.host, args.port, args.db, bot_delay=args.bot_delay, **options)
    return 0
