"""The exceptions raised by :mod:`splendor`.

Every error the library raises on purpose derives from :class:`SplendorError`,
so ``except splendor.SplendorError`` catches them all. Each concrete error
also derives from :class:`ValueError`, the built-in error for a value that is
wrong for the operation.
"""

from __future__ import annotations

__all__ = [
    "EncodingError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "MissingExtraError",
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


class EncodingError(SplendorError, ValueError):
    """A sequence of action codes (see :mod:`splendor.encoding`) that is not
    a legal turn, or part of one, in the given state.

    The message names the first bad code and its position, for example
    ``"code 12 (reserve tier 1 slot 0) at position 0 is not legal here"``.

    Attributes:
        position: the index of the first bad code in the sequence (the length
            of the sequence when it ends before the turn is complete), or
            ``None`` when the error is not about one place in a sequence.
        code: the bad code, or ``None`` when there is none (a sequence that
            ends too soon) or it is not an ``int``.
    """

    def __init__(self, message: str, *, position: int | None = None, code: int | None = None):
        super().__init__(message)
        self.position = position
        self.code = code


class MissingExtraError(SplendorError, ImportError):
    """An optional feature needs a package that is not installed.

    The message names the extra that brings it, for example
    ``pip install "splendor-rules[rl]"``. Unlike the other errors it derives
    from :class:`ImportError`, not :class:`ValueError`: it is raised on
    import, where ``except ImportError`` expects it.

    Attributes:
        extra: the name of the extra to install.
    """

    def __init__(self, message: str, *, extra: str) -> None:
        super().__init__(message)
        self.extra = extra
