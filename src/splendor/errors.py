"""The exceptions raised by :mod:`splendor`.

Every error the library raises on purpose derives from :class:`SplendorError`,
so ``except splendor.SplendorError`` catches them all, those defined beside
the code that raises them (in the command line, the server, the parallel
runs) included. Most also derive from :class:`ValueError`, the built-in error
for a value that is wrong for the operation; :class:`MissingExtraError`
derives from :class:`ImportError` instead, :class:`ConcurrentUseError` and
the :class:`EngineError` family (a bot in another process that misbehaves) from
:class:`RuntimeError`, and the errors of the command line's files and bots
from neither.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "ConcurrentUseError",
    "EncodingError",
    "EngineCrashedError",
    "EngineError",
    "EngineMoveError",
    "EngineProtocolError",
    "EngineTimeoutError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "KernelRefusedWarning",
    "MissingExtraError",
    "NotationError",
    "ProtocolError",
    "SerializationError",
    "SplendorError",
    "UnknownColourError",
    "WeightsError",
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


class NotationError(SplendorError, ValueError):
    """A text that is not an action (or a record) in the notation.

    Raised by :func:`splendor.formats.notation.parse_action` and
    :func:`splendor.formats.record_text.parse_record`. The message says what was
    expected and where, for example ``"cannot read 'r5': expected a tier
    1-3 after 'r', got '5'"``, quoting at most a short, escaped excerpt of
    the text. A well-formed action that the rules forbid raises
    :class:`~splendor.IllegalActionError` instead.
    """


class SerializationError(SplendorError, ValueError):
    """A JSON document cannot be loaded: the problems found, with their JSON paths.

    Raised by :func:`splendor.formats.serialization.from_json`.

    Attributes:
        errors: one message per problem, each ending with ``@`` and the path of
            the value at fault, like ``"unknown card id 91 @ $.board[0][2]"``.
            At most 100 problems are listed
            (:data:`splendor.formats.serialization.MAX_PROBLEMS`); a document with more
            ends the list with a line saying that loading stopped there.

    The message lists the problems too, cut at 20,000 characters.

    >>> from splendor import Buy, from_json
    >>> try:
    ...     from_json('{"type": "buy", "card": 91}', Buy)
    ... except SerializationError as error:
    ...     print(error.errors)
    ('unknown card id 91 (card ids run 1 to 90) @ $.card',)
    """

    errors: tuple[str, ...]

    def __init__(self, what: str, errors: Sequence[str]) -> None:
        self.errors = tuple(errors)
        if len(self.errors) == 1:
            message = f"cannot load {what} from JSON: {self.errors[0]}"
        else:
            listed = "".join(f"\n  - {error}" for error in self.errors)
            message = f"cannot load {what} from JSON, {len(self.errors)} problems:{listed}"
        if len(message) > _MAX_MESSAGE:
            message = message[: _MAX_MESSAGE - 20] + " ... (cut short)"
        super().__init__(message)


# The most characters of the message of a SerializationError.
_MAX_MESSAGE = 20_000


class EncodingError(SplendorError, ValueError):
    """A sequence of action codes (see :mod:`splendor.formats.encoding`) that is not
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


class ConcurrentUseError(SplendorError, RuntimeError):
    """A :class:`splendor.fast.Game` (or ``VectorEnv``) called while one of its methods runs.

    A game of :mod:`splendor.fast` is used by one thread at a time: a call
    from another thread, from a signal handler or from a garbage collector's
    callback while one of its methods is running is refused with this error,
    and the game is left as it was. Give each thread its own game
    (``copy()`` is cheap).
    """


class ProtocolError(SplendorError, ValueError):
    """A line of the bot protocol that is not a valid message.

    Raised by the readers of :mod:`splendor.remote` for a line that is not
    JSON, is longer than the protocol allows, has an unknown ``type``, or has
    a field of the wrong kind; an engine served by :func:`splendor.remote.serve`
    answers it with an ``error`` message carrying :attr:`code`.

    Attributes:
        code: the protocol's name for the fault, one of ``"malformed"``,
            ``"too-long"``, ``"unknown-type"``, ``"bad-field"``,
            ``"bad-position"``, ``"unsupported-version"``, ``"out-of-order"``.
    """

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.code = code


class EngineError(SplendorError, RuntimeError):
    """A bot playing in another process over the bot protocol failed.

    The host side of :mod:`splendor.remote` raises a subclass, and the
    referee records it as a forfeit with :attr:`reason`. The engine's process
    has been ended by the time the error is raised, unless the subclass says
    otherwise.

    Attributes:
        reason: a short name of the fault, as the game record stores it:
            ``"timeout"``, ``"protocol"``, ``"illegal-move"`` or ``"crash"``.
    """

    reason = "crash"


class EngineTimeoutError(EngineError, TimeoutError):
    """An engine did not answer within its time limit (at start-up or on a move)."""

    #: The fault's name in a game record: ``"timeout"``.
    reason = "timeout"


class EngineProtocolError(EngineError):
    """An engine printed a line that is not the protocol: not JSON, too long,
    an unknown message, or a message out of order."""

    #: The fault's name in a game record: ``"protocol"``.
    reason = "protocol"


class EngineMoveError(EngineError):
    """An engine's best move is not one of the legal actions it was given:
    an index out of range, notation that names no listed action, or notation
    that names more than one."""

    #: The fault's name in a game record: ``"illegal-move"``.
    reason = "illegal-move"


class EngineCrashedError(EngineError):
    """An engine's process ended, or closed its output, while the host waited for it."""

    #: The fault's name in a game record: ``"crash"``.
    reason = "crash"


class WeightsError(SplendorError, ValueError):
    """A value or policy network's weights that cannot be used: a file that is
    not a sound weights file, or one made for another player count,
    observation layout or set of move features.

    Raised by :func:`splendor.fast.network.load_network`,
    :func:`~splendor.fast.network.load_policy` (and the other functions of
    :mod:`splendor.fast.network`). The message says what is
    wrong, for example that the payload is cut short, that the weights do not
    match their checksum, or that they were trained for another observation
    layout.
    """


class KernelRefusedWarning(RuntimeWarning):
    """The compiled kernel is built but refused to load: :mod:`splendor.fast` runs in pure Python.

    Warned once, when :mod:`splendor.fast` is first imported, with the reason
    (for example a kernel compiled for other constants of
    :mod:`splendor.formats.encoding`: rebuild it); the results are the same,
    only much slower. ``splendor.fast.game.COMPILED_REASON`` holds the same
    reason. With ``SPLENDOR_EXPECT_COMPILED=1`` in the environment the
    kernel's own :class:`ImportError` is raised instead.
    """


class MissingExtraError(SplendorError, ImportError):
    """An optional feature needs a package that is not installed.

    The message names the extra that brings it and ends with the command
    that installs it where this copy of the package came from: for example
    ``pip install -e "/path/to/checkout[rl]"`` for a checkout installed in
    place, ``pip install "/path/to/splendor_rules-...whl[rl]"`` for a wheel
    file, ``pip install "splendor-rules[rl]"`` from the package index. Unlike
    the other errors it derives
    from :class:`ImportError`, not :class:`ValueError`: it is raised on
    import, where ``except ImportError`` expects it.

    Attributes:
        extra: the name of the extra to install.
    """

    def __init__(self, message: str, *, extra: str) -> None:
        super().__init__(message)
        self.extra = extra
