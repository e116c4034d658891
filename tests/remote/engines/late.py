"""An engine that answers a search only when told to stop, and sends stale answers.

Each ``go`` is first met with a best move and an info line for an earlier
position id (to be dropped by the host); the real answer comes at once
for a timed search, on ``stop`` for one with ``"infinite"`` or without a
time, where it is sent as the answer of that search's id.
"""

from tests.remote.engines._base import Message, run, send


class Late:
    """The searches waiting for a stop."""

    def __init__(self) -> None:
        self.running: list[int] = []

    def go(self, message: Message, position: Message) -> None:
        id_ = message["id"]
        send({"type": "bestmove", "id": max(id_ - 1, 0), "index": 0})
        send({"type": "info", "id": max(id_ - 1, 0), "nodes": 1})
        send({"type": "info", "id": id_, "nodes": 10, "win": [0.5, 0.5], "pv": ["p"]})
        if message.get("time") and not message.get("infinite"):
            send({"type": "bestmove", "id": id_, "index": len(position["actions"]) - 1})
        else:
            self.running.append(id_)

    def stop(self) -> None:
        while self.running:
            send({"type": "bestmove", "id": self.running.pop(), "index": 0})


if __name__ == "__main__":
    late = Late()
    run(late.go, on_stop=late.stop)
