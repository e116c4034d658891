"""``--help`` of every command: what argparse prints, and one definition of ``splendor serve``."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
from collections.abc import Callable
from contextlib import redirect_stdout

import pytest

import splendor.server
from splendor.cli import main
from splendor.cli.parser import build_parser


def command_names() -> list[str]:
    """The subcommands of ``splendor``, as its parser holds them."""
    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(commands.choices)


def help_of(run: Callable[[list[str]], object], argv: list[str]) -> str:
    """What ``run(argv)`` prints for ``--help`` (it exits with status 0)."""
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit) as stop:
        run(argv)
    assert stop.value.code == 0
    return out.getvalue()


def test_the_commands_are_the_expected_ones() -> None:
    assert command_names() == [
        "play",
        "simulate",
        "replay",
        "show",
        "serve",
        "tournament",
        "engine",
        "ladder",
        "analyse",
    ]


@pytest.mark.parametrize("command", [[], *([name] for name in command_names())])
def test_no_help_shows_an_escaped_percent_sign(command: list[str]) -> None:
    text = help_of(main, [*command, "--help"])
    assert "%%" not in text
    assert "%(" not in text


def test_the_tournament_help_says_95_percent_intervals() -> None:
    text = " ".join(help_of(main, ["tournament", "--help"]).split())
    assert "with 95% intervals" in text


def test_the_servers_own_help_is_splendor_serves() -> None:
    serve = help_of(main, ["serve", "--help"])
    assert help_of(splendor.server.main, ["--help"]) == serve
    assert "%%" not in serve
    assert serve.startswith("usage: splendor serve ")
    for option in ("--host", "--port", "--db", "--bot-delay", "--no-color", "--traceback"):
        assert option in serve


def test_both_commands_print_the_same_help_when_run() -> None:
    env = {**os.environ, "COLUMNS": "100"}

    def shown(*argv: str) -> str:
        done = subprocess.run(
            [sys.executable, *argv, "--help"], capture_output=True, text=True, env=env, check=True
        )
        return done.stdout

    assert shown("-m", "splendor.server") == shown("-m", "splendor", "serve")


def test_the_server_takes_the_options_of_every_command() -> None:
    args = splendor.server.build_parser().parse_args(["--no-color", "--traceback", "--port", "0"])
    assert (args.no_color, args.traceback, args.port) == (True, True, 0)
    defaults = splendor.server.build_parser().parse_args([])
    assert (defaults.no_color, defaults.traceback) == (False, False)
    # In splendor, the options given before the command still stand after it.
    assert build_parser().parse_args(["--no-color", "serve"]).no_color is True
