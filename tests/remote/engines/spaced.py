"""An engine that writes blank lines and Windows line ends around its answers, which is allowed."""

import sys

from tests.remote.engines._base import Message, run


def go(message: Message, position: Message) -> None:
    out = sys.stdout.buffer
    out.write(b"\n  \r\n")
    out.write(b'{"type": "bestmove", "id": %d, "index": 1}\r\n\n' % message["id"])
    out.flush()


if __name__ == "__main__":
    run(go)
