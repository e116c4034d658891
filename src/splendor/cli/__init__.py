"""The ``splendor`` command line.

``splendor`` with no command plays and prints a seeded game between built-in
bots. The commands:

* ``splendor play``: play in the terminal against bots;
* ``splendor simulate``: run many seeded games between bots and compare them;
* ``splendor replay FILE``: step through a saved game;
* ``splendor show FILE``: show a saved game, state or view, or draw it as SVG;
* ``splendor serve``: serve games in the browser (the ``[server]`` extra,
  :mod:`splendor.server`);
* ``splendor tournament``: a rated round robin between bots
  (:mod:`splendor.arena.tournament`);
* ``splendor ladder``: a persistent rated ladder of bots and engines in an
  SQLite file (:mod:`splendor.arena.ladder`);
* ``splendor engine SPEC``: serve a bot over the bot protocol
  (:mod:`splendor.remote`), so that any host can play it;
* ``splendor analyse RECORD``: evaluate every position of a saved game and
  judge every move (:mod:`splendor.arena.analysis`).

Colour, tables and progress bars come from `rich`_ when it is installed
(``pip install "splendor-rules[cli]"``); without it the output is plain text.

The package, one module per concern:

* :mod:`~splendor.cli.output`: where the output goes (rich or plain) and the exit statuses;
* :mod:`~splendor.cli.text`: the board and the scores as text;
* :mod:`~splendor.cli.files`: loading and saving records and states;
* :mod:`~splendor.cli.common`: what the commands share (bots from their names, turn lines);
* :mod:`~splendor.cli.errors`: the command line's errors (importable from here too);
* :mod:`~splendor.cli.demo`, :mod:`~splendor.cli.play` (with :mod:`~splendor.cli.prompt`
  and :mod:`~splendor.cli.choices`), :mod:`~splendor.cli.simulate` (with
  :mod:`~splendor.cli.stats`), :mod:`~splendor.cli.replay`, :mod:`~splendor.cli.show`,
  :mod:`~splendor.cli.serve`, :mod:`~splendor.cli.tournament`, :mod:`~splendor.cli.engine`,
  :mod:`~splendor.cli.ladder`, :mod:`~splendor.cli.analyse`:
  one module per command;
* :mod:`~splendor.cli.parser`: the argument parser, built from the commands' own parts.

**Adding a command.** Write a module (in this package or anywhere) with a
function ``add_parser(commands)`` that calls ``commands.add_parser("name",
help=..., description=...)``, adds the command's options and ends with
``parser.set_defaults(run=handler)``, where ``handler(args, out, read)`` is a
:class:`~splendor.cli.common.Handler`: it gets the parsed arguments, an
:class:`~splendor.cli.output.Output` to write to and a function reading a line
of input, and returns the exit status. Then list the module's ``add_parser``
in :data:`splendor.cli.parser.COMMANDS`. Every command gets ``--no-color``;
:func:`main` turns any :class:`~splendor.errors.SplendorError` the handler
raises into a one-line message with exit status 2. The module is imported
whenever the command line starts, so it imports its optional dependencies
(a web framework, Ray) inside the handler, and raises a
:class:`~splendor.errors.SplendorError` naming the extra to install when
one is missing.

.. _rich: https://rich.readthedocs.io
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TextIO

from splendor.cli.common import Handler
from splendor.cli.errors import BotError as BotError
from splendor.cli.errors import FileError as FileError
from splendor.cli.errors import UsageError as UsageError
from splendor.cli.output import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, Output, report
from splendor.cli.parser import build_parser
from splendor.core.messages import short_repr
from splendor.errors import SplendorError

__all__ = ["main"]


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    read: Callable[[str], str] | None = None,
) -> int:
    """Run the ``splendor`` command line.

    Args:
        argv: the arguments; ``sys.argv[1:]`` by default.
        stdout: where to write; standard output by default.
        read: how to read a line of input, given a prompt; :func:`input` by default.

    Returns:
        The exit status: 0 on success, 1 for an unfinished game or an
        unexpected error, 2 for a bad argument or file or a bot that raised
        an exception, 130 when interrupted. Every failure is reported in one
        line on standard error, never as a traceback.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    out = Output(stdout, color=not args.no_color)
    reader = read if read is not None else input
    try:
        handler: Handler = args.run
        return handler(args, out, reader)
    except SplendorError as error:
        if args.traceback:
            _print_traceback(error)
        shown = args.traceback or not (isinstance(error, BotError) and error.trace)
        hint = "" if shown else " (--traceback shows where)"
        report(f"{error}{hint}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of the output went away (splendor ... | head): stop quietly.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except Exception as error:  # the last guard: a one-line message, never a traceback
        if args.traceback:
            _print_traceback(error)
        report(f"unexpected error: {type(error).__name__}: {short_repr(error, 300, write=str)}")
        return EXIT_FAILED


def _print_traceback(error: BaseException) -> None:
    """Write the traceback of ``error`` to standard error (a bot's own, for a BotError)."""
    if isinstance(error, BotError) and error.trace:
        print(error.trace, end="", file=sys.stderr)
    else:
        traceback.print_exception(error, file=sys.stderr)
