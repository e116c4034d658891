"""Private helpers for the text of error messages."""

from __future__ import annotations

__all__ = ["short_repr"]


def short_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters.

    A huge ``int`` is described by its size, since Python refuses to print
    one of more than 4,300 digits.

    >>> short_repr(10**5000)
    'an int of 16610 bits'
    >>> short_repr("x" * 100, limit=10)
    "'xxxxxx..."
    """
    if type(value) is int and value.bit_length() > 64:
        sign = "a negative " if value < 0 else "an "
        return f"{sign}int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:
        return f"a {type(value).__name__} too large to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."
