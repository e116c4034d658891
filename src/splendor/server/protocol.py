"""The words of the server's protocol that every part of the server speaks: refusals, actions.

A refusal is a :class:`ServerError` with the protocol's code; the client is
sent it as an ``error`` message (:func:`error_message`). Actions travel as
the library's JSON (:func:`action_json`).
"""

from __future__ import annotations

import functools
import json
from typing import Final

from splendor.core.actions import Action
from splendor.errors import SplendorError
from splendor.formats.serialization import to_json

__all__ = ["MAX_MESSAGE", "ServerError", "action_json", "error_message"]

#: The longest message a client may send, in characters; longer ones are refused.
MAX_MESSAGE: Final = 8192


class ServerError(SplendorError):
    """A request the server refuses, with the protocol's error code.

    Attributes:
        code: a short stable word naming the kind of refusal, sent to the
            client as the ``code`` of an ``error`` message (see the protocol
            in the docs).
    """

    def __init__(self, code: str, message: str) -> None:
        """Make the error; ``message`` is the human-readable reason."""
        super().__init__(message)
        self.code = code


@functools.lru_cache(maxsize=1 << 16)
def action_json(action: Action) -> str:
    """An action's JSON text (:func:`splendor.to_json`), remembered: the same actions recur."""
    return to_json(action)


def error_message(code: str, message: str, version: int | None = None) -> str:
    """An ``error`` message of the protocol."""
    body: dict[str, object] = {"type": "error", "code": code, "message": message}
    if version is not None:
        body["version"] = version
    return json.dumps(body)
