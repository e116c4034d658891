"""An engine that floods its standard error: 8 MiB before each answer, and a thread never stops."""

import sys
import threading

from tests.remote.engines._base import Message, run, send

LINE = b"debug: " + b"." * 1000 + b"\n"


def forever() -> None:
    while True:
        sys.stderr.buffer.write(LINE)


def go(message: Message, position: Message) -> None:
    for _ in range(8192):
        sys.stderr.buffer.write(LINE)
    sys.stderr.buffer.flush()
    send({"type": "bestmove", "id": message["id"], "index": 0})


if __name__ == "__main__":
    threading.Thread(target=forever, daemon=True).start()
    run(go)
