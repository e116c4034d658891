"""The errors the command line raises: each is reported by :func:`splendor.cli.main` in one line.

Every one derives from :class:`~splendor.errors.SplendorError`, so the
command line turns it into a message on standard error with exit status 2.
They are importable from :mod:`splendor.cli` too.
"""

from __future__ import annotations

from splendor.errors import SplendorError

__all__ = ["BotError", "FileError", "UsageError"]


class UsageError(SplendorError):
    """A command-line argument that does not make sense with the others."""


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
