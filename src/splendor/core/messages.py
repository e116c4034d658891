"""The text of error messages: :func:`short_repr`, the one shortener of the values they quote."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["short_repr"]


def short_repr(value: object, limit: int = 60, *, write: Callable[[object], str] = repr) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters.

    The one way the library shortens a value it quotes in a message. A huge
    ``int`` is described by its size, since Python refuses to print one of
    more than 4,300 digits; a value whose text is longer than ``limit`` ends
    with ``...``.

    Args:
        value: the value to show.
        limit: the most characters of the result.
        write: how the value is written out: ``repr`` by default; the JSON
            formats pass ``json.dumps``, the messages of errors ``str``.

    >>> short_repr(10**5000)
    'an int of 16610 bits'
    >>> short_repr("x" * 100, limit=10)
    "'xxxxxx..."
    >>> import json
    >>> short_repr("x" * 100, limit=10, write=json.dumps)
    '"xxxxxx...'
    """
    if type(value) is int and value.bit_length() > 64:
        sign = "a negative " if value < 0 else "an "
        return f"{sign}int of {value.bit_length()} bits"
    try:
        text = write(value)
    except ValueError:
        return f"a {type(value).__name__} too large to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."
