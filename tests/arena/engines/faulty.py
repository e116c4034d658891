"""A bot engine of the bot protocol that plays the first listed action, then fails on purpose.

Usage: ``faulty.py FAULT MOVE``: at its MOVE-th ``go`` (counted from 1 over
the whole process) the engine does FAULT:

- ``sleep``: answers 3 seconds late;
- ``crash``: exits with status 3;
- ``garbage``: prints a line that is not JSON;
- ``illegal``: answers an index past the listed actions;
- ``none``: nothing, it plays on.
"""

import json
import sys
import time


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> int:
    fault, at = sys.argv[1], int(sys.argv[2])
    moves = 0
    listed = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "name": f"faulty-{fault}",
                    "author": "tests",
                    "version": "1",
                    "options": [],
                }
            )
        elif kind == "isready":
            send({"type": "readyok"})
        elif kind == "position":
            listed = len(message["actions"])
        elif kind == "go":
            moves += 1
            index = 0
            if moves == at:
                if fault == "sleep":
                    time.sleep(3.0)
                elif fault == "crash":
                    return 3
                elif fault == "garbage":
                    sys.stdout.write("this is not the protocol\n")
                    sys.stdout.flush()
                    continue
                elif fault == "illegal":
                    index = listed + 5
            send({"type": "bestmove", "id": message["id"], "index": index})
        elif kind == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
