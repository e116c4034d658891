"""Where the command line writes: :class:`Output`, with colour from rich when installed."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TextIO

from splendor.draw.text import Segment

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_USAGE", "Output", "report"]

#: The exit status when interrupted (Ctrl-C).
EXIT_INTERRUPTED: Final = 130
#: The exit status for a bad argument or file, or a bot that failed.
EXIT_USAGE: Final = 2
#: The exit status for an unfinished game or an unexpected error.
EXIT_FAILED: Final = 1
# The longest error message written (a message can quote a long value from a file).
_MAX_MESSAGE: Final = 1000


class Output:
    """Where the command line writes: rich when available, else plain text.

    Args:
        file: the stream to write to; standard output by default.
        color: ``False`` for plain text even when rich is installed.
    """

    def __init__(self, file: TextIO | None = None, *, color: bool = True) -> None:
        self.file = file if file is not None else sys.stdout
        self.console: Console | None = None
        if color:
            try:
                from rich.console import Console
            except ImportError:
                pass
            else:
                self.console = Console(file=self.file, highlight=False, soft_wrap=True)

    @property
    def height(self) -> int | None:
        """The number of lines the terminal shows; ``None`` when the output is no terminal."""
        if self.console is not None:
            return self.console.size.height if self.console.is_terminal else None
        isatty = getattr(self.file, "isatty", None)
        if isatty is None or not isatty():
            return None
        return shutil.get_terminal_size().lines

    @property
    def rich(self) -> bool:
        """Whether rich writes in colour (not when the output is a file or pipe)."""
        return self.console is not None and self.console.color_system is not None

    def line(self, *parts: Segment) -> None:
        """Write one line made of plain and styled pieces."""
        if self.console is None:
            print("".join(p if isinstance(p, str) else p[0] for p in parts), file=self.file)
            return
        from rich.text import Text

        self.console.print(Text.assemble(*parts))

    def table(self, title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """Write a table; numbers (the columns after the first) are right-aligned."""
        if self.console is not None:
            from rich.table import Table

            table = Table(title=title, title_justify="left")
            for i, name in enumerate(columns):
                table.add_column(name, justify="left" if i == 0 else "right")
            for row in rows:
                table.add_row(*row)
            self.console.print(table)
            return
        widths = [max(len(str(c)) for c in column) for column in zip(columns, *rows, strict=True)]
        print(title, file=self.file)

        def fmt(row: Sequence[str]) -> str:
            return "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )

        print(fmt(columns), file=self.file)
        print("  ".join("-" * w for w in widths), file=self.file)
        for row in rows:
            print(fmt(row), file=self.file)


def report(message: str) -> None:
    """Write an error to standard error as one line of bounded length."""
    line = " ".join(message.split())
    if len(line) > _MAX_MESSAGE:
        line = line[: _MAX_MESSAGE - 3] + "..."
    print(f"splendor: {line}", file=sys.stderr)
