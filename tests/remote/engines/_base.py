"""A minimal engine of the bot protocol, for the test engines of this folder to misbehave with.

It needs nothing but the standard library: it answers ``hello`` and
``isready``, remembers the last position, and hands each ``go`` to the
script's own function, which writes what it likes.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

Message = dict[str, Any]


def send(message: Message) -> None:
    """Write one line of the protocol on standard output."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def write_pid() -> None:
    """Write this process's id to the file named by ``ENGINE_PIDFILE``, if set."""
    path = os.environ.get("ENGINE_PIDFILE")
    if path:
        with open(path, "a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")


def run(
    go: Callable[[Message, Message], None],
    *,
    name: str = "test",
    protocol: int = 1,
    on_stop: Callable[[], None] | None = None,
    before_ready: Callable[[], None] | None = None,
) -> None:
    """Answer the host until ``quit``; ``go(go_message, position_message)`` answers each ``go``."""
    write_pid()
    position: Message = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "protocol": protocol, "name": name, "options": []})
        elif kind == "isready":
            if before_ready is not None:
                before_ready()
            send({"type": "readyok"})
        elif kind == "position":
            position = message
        elif kind == "go":
            go(message, position)
        elif kind == "stop" and on_stop is not None:
            on_stop()
        elif kind == "quit":
            return
