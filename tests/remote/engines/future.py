"""An engine that speaks a later version of the protocol (2), which the host does not."""

from tests.remote.engines._base import Message, run, send


def go(message: Message, position: Message) -> None:
    send({"type": "bestmove", "id": message["id"], "index": 0})


if __name__ == "__main__":
    run(go, protocol=2)
