"""Helpers of the engine tests: commands of the test engines, and whether a process is gone."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
SRC: Final = ROOT / "src"


def served(spec: str) -> list[str]:
    """The command of ``splendor engine SPEC``, run by this Python."""
    return [sys.executable, "-m", "splendor", "engine", spec]


def script(name: str, *args: str) -> list[str]:
    """The command of a test engine of ``tests/remote/engines`` (run with :func:`environment`)."""
    return [sys.executable, "-m", f"tests.remote.engines.{name}", *args]


def environment(**extra: str) -> dict[str, str]:
    """This process's environment and ``extra``, this checkout's ``src`` and root on its path."""
    env = dict(os.environ)
    path = [str(SRC), str(ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(part for part in path if part)
    env.update(extra)
    return env


def gone(pid: int, *, within: float = 5.0) -> bool:
    """Whether process ``pid`` has ended and been reaped (no zombie) within ``within`` seconds.

    A zombie still has its ``/proc`` entry; a reaped process has none. A
    process reparented and not yet reaped by another parent counts as gone
    once it is a zombie that is not this process's child.
    """
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except (FileNotFoundError, ProcessLookupError):
            return True
        fields = stat.rpartition(")")[2].split()
        state, parent = fields[0], int(fields[1])
        if state == "Z" and parent != os.getpid():
            return True
        time.sleep(0.01)
    return False


def engine_children() -> list[int]:
    """The processes this process started, that still run, whose command line says ``engine``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == os.getpid() and stat[0] != "Z" and b"engine" in command:
            found.append(int(entry.name))
    return found
