"""What the hosts of every engine protocol share: reading a command, checking seconds, killing.

:mod:`splendor.remote.host` (the bot protocol) and :mod:`splendor.remote.usi`
(csplendor's protocol) both start an engine from a command line, check the
seconds they are given, and end an engine's whole process group.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
from collections.abc import Sequence

from splendor.errors import InvalidArgumentError


def command_argv(command: str | Sequence[str]) -> list[str]:
    """The arguments of an engine's command: a str split as a shell would, or a sequence of str.

    Raises:
        InvalidArgumentError: for a str that cannot be split, something else
            than a str or a sequence of str, or an empty command.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise InvalidArgumentError(f"cannot read the command {command!r}: {error}") from None
    elif isinstance(command, Sequence) and all(isinstance(part, str) for part in command):
        argv = list(command)
    else:
        raise InvalidArgumentError(
            f"an engine's command is a str or a sequence of str, got {command!r}"
        )
    if not argv:
        raise InvalidArgumentError("an engine's command is empty")
    return argv


def check_seconds(what: str, value: object, *, below: float = float("inf")) -> float:
    """``value`` as a float when it is a number of seconds above 0 and below ``below``.

    Raises:
        InvalidArgumentError: for anything else (a bool included).
    """
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value < below:
        raise InvalidArgumentError(f"{what} must be a positive number of seconds, got {value!r}")
    return float(value)


def kill_group(pid: int) -> None:
    """Kill every process of the group ``pid`` leads (it may be gone already)."""
    if pid <= 1:  # never started: -1 and 0 would mean other processes
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
