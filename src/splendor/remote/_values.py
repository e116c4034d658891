"""The kinds of a protocol value, shared by the messages and their lines.

A JSON integer is an ``int`` that is no ``bool``; a number is an integer or
a finite ``float``; a text field (a name, an option value, an error
message) is at most :data:`MAX_TEXT` characters.
"""

from __future__ import annotations

import math
from typing import Final, TypeGuard, cast

__all__ = ["MAX_TEXT", "is_int", "is_number"]

#: The longest text field a reader accepts.
MAX_TEXT: Final = 10_000


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an integer (a bool is not)."""
    return type(value) is int


def is_number(value: object) -> TypeGuard[float]:
    """Whether ``value`` is an integer or a finite float (a bool is neither)."""
    return (type(value) is int or type(value) is float) and math.isfinite(cast(float, value))
