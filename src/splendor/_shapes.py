"""Small shape checks shared by :mod:`splendor.validation` and :mod:`splendor.views`.

No name here is part of the public API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["TIERS", "is_int", "tuple_of"]

#: The tiers of the cards, in board and deck order.
TIERS: Final = (1, 2, 3)


def is_int(value: object) -> bool:
    """Whether ``value`` is an ``int`` (``True`` and other subclasses are not)."""
    return type(value) is int


def tuple_of(items: object, check: Callable[[object], bool]) -> bool:
    """Whether ``items`` is a tuple whose every item passes ``check``."""
    return type(items) is tuple and all(check(item) for item in items)
