"""Arithmetic on the plain 6-tuples of counts inside :class:`Tokens`, and the
sub-multisets of a holding (the tokens a player may give back).

The engine works on these tuples on its hot path, where building
:class:`Tokens` for every step would cost more than the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from splendor.core.gems import Tokens

Counts = tuple[int, int, int, int, int, int]

ZERO: Final[Counts] = (0, 0, 0, 0, 0, 0)
NO_TOKENS: Final = Tokens._of(ZERO)


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


#: The largest size :func:`sub_multisets` remembers: the engine asks for at
#: most 3 tokens back (no take brings more).
MAX_REMEMBERED_SIZE: Final = 3
# By the holding capped at the size, and the size (0 to 3): each count 0 to
# the size, so 1 + 2**6 + 3**6 + 4**6 = 4,890 keys, each filled once.
SUB_MULTISETS_KEYS: Final = 4_890
_SUB_MULTISETS: dict[tuple[Counts, int], tuple[Counts, ...]] = {}


def sub_multisets(held: Counts, size: int) -> tuple[Counts, ...]:
    """Every count vector at most ``held`` (colour by colour) adding to ``size``.

    In decreasing lexicographic order: the most white first. Sizes up to
    :data:`MAX_REMEMBERED_SIZE` are remembered, larger ones computed anew.
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
    result = tuple(found)
    if size <= MAX_REMEMBERED_SIZE:
        _SUB_MULTISETS[held, size] = result
    return result
