"""An engine whose best move is not legal: ``python -m tests.remote.engines.bad_move MODE``.

``index`` answers an index past the end of the actions, ``text`` notation
that names no listed action; any other argument is sent as the move's text.
"""

import sys

from tests.remote.engines._base import Message, run, send


def go(message: Message, position: Message) -> None:
    mode = sys.argv[1]
    if mode == "index":
        send({"type": "bestmove", "id": message["id"], "index": len(position["actions"])})
    elif mode == "text":
        send({"type": "bestmove", "id": message["id"], "move": "b11=WWWWWWWWWW"})
    else:
        send({"type": "bestmove", "id": message["id"], "move": mode})


if __name__ == "__main__":
    run(go)
