"""An engine that never answers ``go`` (nor ``stop``)."""

from tests.remote.engines._base import Message, run


def go(message: Message, position: Message) -> None:
    pass


if __name__ == "__main__":
    run(go)
