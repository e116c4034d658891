"""Words of the engine's messages: counts as text, and plurals."""

from __future__ import annotations

from collections.abc import Sequence

from splendor.core._count_tuples import as_counts
from splendor.core.gems import Tokens

__all__ = ["describe", "plural"]


def describe(counts: Sequence[int]) -> str:
    """Counts as text for messages: ``2R 1Y`` or ``nothing``.

    The counts are written as :class:`~splendor.Tokens` prints them.

    >>> describe((0, 0, 0, 2, 0, 1)), describe(())
    ('2R 1Y', 'nothing')
    """
    if not any(counts):
        return "nothing"
    return str(Tokens._of(as_counts([*counts, 0, 0, 0, 0, 0, 0])))


def plural(count: int, noun: str) -> str:
    """``"1 card"``, ``"2 cards"``.

    >>> plural(1, "card"), plural(0, "point")
    ('1 card', '0 points')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
