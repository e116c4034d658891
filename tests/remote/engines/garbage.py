"""An engine that answers ``go`` with a line that is not JSON."""

from tests.remote.engines._base import Message, run


def go(message: Message, position: Message) -> None:
    print("bestmove e2e4", flush=True)


if __name__ == "__main__":
    run(go)
