"""An engine that answers the handshake, the end of its input ends nothing."""

import time

from tests.remote.engines._base import Message, run


def go(message: Message, position: Message) -> None:
    pass


if __name__ == "__main__":
    run(go)
    time.sleep(600)
