"""An engine that plays its first moves, then dies in the middle of the game.

``python -m tests.remote.engines.crash N`` answers N searches with the first
action, then writes to its standard error and exits with status 3 on the
next ``go``.
"""

import sys

from tests.remote.engines._base import Message, run, send


class Crash:
    """The searches left before the crash."""

    def __init__(self, left: int) -> None:
        self.left = left

    def go(self, message: Message, position: Message) -> None:
        if self.left == 0:
            sys.stderr.write("out of memory, or so it says\n")
            sys.stderr.flush()
            sys.exit(3)
        self.left -= 1
        send({"type": "bestmove", "id": message["id"], "index": 0})


if __name__ == "__main__":
    run(Crash(int(sys.argv[1])).go)
