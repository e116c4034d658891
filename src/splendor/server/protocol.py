"""The words of the server's protocol that every part of the server speaks: refusals, actions.

A refusal is a :class:`ServerError` with the protocol's code; the client is
sent it as an ``error`` message (:func:`error_message`). Actions travel as
the library's JSON (:func:`action_json`); a client's ``move`` message names
one as JSON or in the notation (:func:`read_move`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Final

import attrs

from splendor.core.actions import Action
from splendor.core.views import PlayerView
from splendor.errors import SplendorError
from splendor.formats.notation import parse_action
from splendor.formats.serialization import from_json, to_json

__all__ = ["MAX_MESSAGE", "Move", "ServerError", "action_json", "error_message", "read_move"]

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


@attrs.frozen
class Move:
    """A client's ``move`` message, its fields checked; its action is read against a view.

    Attributes:
        version: the version the move was made at.
        action: the ``action`` field's JSON value, when the move has one.
        notation: the ``notation`` field's value, when the move has one.
    """

    version: int
    action: object = None
    notation: str | None = None

    def action_in(self, seen: PlayerView) -> Action:
        """The action the move names, read for the mover's view ``seen``.

        Raises:
            ServerError: ``bad_action`` for JSON or notation that names no action.
        """
        try:
            if self.notation is None:
                return from_json(json.dumps(self.action), Action)
            return parse_action(self.notation, seen)
        except SplendorError as error:
            raise ServerError("bad_action", str(error)) from None


def read_move(message: Mapping[str, object]) -> Move:
    """Check the fields of a ``move`` message: its version, and one of an action or notation.

    Raises:
        ServerError: ``malformed`` for an unknown field, a version that is
            not an integer, not exactly one of ``action`` and ``notation``, or
            a notation that is not a string.
    """
    unknown = set(message) - {"type", "version", "action", "notation"}
    if unknown:
        raise ServerError("malformed", f"unknown field(s): {', '.join(sorted(unknown))}")
    version = message.get("version")
    if type(version) is not int:
        raise ServerError("malformed", "a move needs the integer version it was made against")
    has_action, has_text = "action" in message, "notation" in message
    if has_action == has_text:
        raise ServerError("malformed", "a move needs exactly one of 'action' or 'notation'")
    if has_action:
        return Move(version, action=message["action"])
    notation = message["notation"]
    if not isinstance(notation, str):
        raise ServerError("malformed", "notation must be a string")
    return Move(version, notation=notation)
