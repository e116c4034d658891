"""Private helpers on the plain 6-tuples of counts inside :class:`Tokens`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from splendor.core.gems import GEMS, Tokens

Counts = tuple[int, int, int, int, int, int]

ZERO: Final[Counts] = (0, 0, 0, 0, 0, 0)
NO_TOKENS: Final = Tokens._of(ZERO)
NAMES: Final = tuple(gem.value for gem in GEMS)
INDEX: Final = {gem: i for i, gem in enumerate(GEMS)}


def unit(colour: int, n: int = 1) -> Counts:
    """``n`` tokens of one colour."""
    counts = [0] * 6
    counts[colour] = n
    return as_counts(counts)


def as_counts(values: Sequence[int]) -> Counts:
    """The first six values as a count tuple."""
    return (values[0], values[1], values[2], values[3], values[4], values[5])


def add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])


def minus(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5])


def capped(t: Counts, cap: int) -> Counts:
    """Every count capped at ``cap``."""
    a, b, c, d, e, f = t
    return (
        a if a < cap else cap,
        b if b < cap else cap,
        c if c < cap else cap,
        d if d < cap else cap,
        e if e < cap else cap,
        f if f < cap else cap,
    )


def describe(counts: Sequence[int]) -> str:
    """Counts as text for messages: ``2R 1Y`` as :class:`Tokens` prints them, or ``nothing``."""
    if not any(counts):
        return "nothing"
    padded = [*counts, 0, 0, 0, 0, 0, 0]
    return str(Tokens._of(as_counts(padded)))


def plural(count: int, word: str) -> str:
    """``1 token``, ``2 tokens``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# By the holding capped at the size, and the size: bounded by the sizes asked
# for (the engine asks for at most 3 tokens back).
_SUB_MULTISETS: dict[tuple[Counts, int], tuple[Counts, ...]] = {}


def sub_multisets(held: Counts, size: int) -> tuple[Counts, ...]:
    """Every count vector at most ``held`` (colour by colour) adding to ``size``.

    In decreasing lexicographic order: the most white first.
    """
    held = capped(held, size)
    found_before = _SUB_MULTISETS.get((held, size))
    if found_before is not None:
        return found_before
    found: list[Counts] = []
    stack = [0] * 6

    def fill(i: int, left: int) -> None:
        if i == 5:
            if left <= held[5]:
                stack[5] = left
                found.append(as_counts(stack))
            return
        for n in range(min(held[i], left), -1, -1):
            stack[i] = n
            fill(i + 1, left - n)

    fill(0, size)
    result = _SUB_MULTISETS[held, size] = tuple(found)
    return result
