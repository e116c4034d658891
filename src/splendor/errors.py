"""The exceptions raised by :mod:`splendor`.

Every error the library raises on purpose derives from :class:`SplendorError`,
so ``except splendor.SplendorError`` catches them all. Each concrete error
also derives from :class:`ValueError`, the built-in error for a value that is
wrong for the operation.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "SplendorError",
    "UnknownColourError",
]


class SplendorError(Exception):
    """Base class of every error raised by :mod:`splendor`."""


class InvalidArgumentError(SplendorError, ValueError):
    """An argument is outside what the function accepts.

    For example ``new_game(5)`` (Splendor seats 2 to 4 players) or a negative
    token count.
    """


class UnknownColourError(InvalidArgumentError, KeyError):
    """A key of :class:`~splendor.Tokens` that is not a colour, like ``"purple"``.

    It is also a :class:`KeyError`, as a mapping's missing key must be, so
    ``tokens.get("purple")`` answers ``None``.
    """

    def __str__(self) -> str:
        # KeyError would print the message with quotes around it.
        return str(self.args[0]) if self.args else ""


class IllegalActionError(SplendorError, ValueError):
    """The action is not allowed by the rules in this state.

    The message says why, for example
    ``"take 2 red needs 4 red in the supply, there are 3"``.
    """


class InvalidStateError(SplendorError, ValueError):
    """A game state breaks an invariant that every reachable state keeps.

    Raised by :func:`splendor.check_state` with the name of the broken
    invariant, for example when tokens do not add up to the rules' totals.
    """


# The command line's errors (raised by :mod:`splendor.cli`).
__all__ += ["BotError", "FileError"]


class FileError(SplendorError):
    """A file given on the command line cannot be read or written."""


class BotError(SplendorError):
    """A bot given on the command line raised an exception while choosing its action.

    Args:
        message: what happened: the bot, its seat, the turn and the seed.
        trace: the bot's own traceback as text (kept when the error crosses
            from a worker process, where the original exception is lost).
    """

    def __init__(self, message: str, trace: str = "") -> None:
        super().__init__(message, trace)
        #: The bot's own traceback as text; empty when unknown.
        self.trace = trace

    def __str__(self) -> str:
        return str(self.args[0])
