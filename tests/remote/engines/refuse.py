"""An engine that sends error lines: 150 before each ``readyok``, and one instead of a move."""

from tests.remote.engines._base import Message, run, send


def go(message: Message, position: Message) -> None:
    send({"type": "error", "code": "internal", "message": "no idea", "id": message["id"]})


def ready() -> None:
    for count in range(150):
        send({"type": "error", "code": "bad-field", "message": f"complaint {count}"})


if __name__ == "__main__":
    run(go, before_ready=ready)
