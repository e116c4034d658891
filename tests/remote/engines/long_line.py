"""An engine that answers ``go`` with a line over the protocol's limit.

``python -m tests.remote.engines.long_line endless`` never ends the line: it keeps writing.
"""

import sys

from tests.remote.engines._base import Message, run

CHUNK = b"x" * 65536


def go(message: Message, position: Message) -> None:
    out = sys.stdout.buffer
    out.write(b'{"type": "info", "id": %d, "pv": ["' % message["id"])
    if sys.argv[1:] == ["endless"]:
        while True:
            out.write(CHUNK)
            out.flush()
    out.write(CHUNK * 17 + b'"]}\n')  # 1,114,112 bytes and more: over 1 MiB
    out.flush()


if __name__ == "__main__":
    run(go)
