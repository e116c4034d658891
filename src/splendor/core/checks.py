"""Small shape checks shared by :mod:`splendor.core.validation` and :mod:`splendor.core.views`.

It also holds the library's one bound of an integer field, :data:`LARGEST`,
which the formats (a record's seed, any integer of a JSON document) and the
RL environments' seed draws use too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["LARGEST", "TIERS", "is_int", "tuple_of"]

#: The tiers of the cards, in board and deck order.
TIERS: Final = (1, 2, 3)


#: The largest magnitude of an integer field, ``2**63 - 1``: a signed 64-bit
#: integer's. Larger numbers could not even be written out (Python refuses to
#: turn an int of more than 4,300 digits into text).
LARGEST: Final = 2**63 - 1


def is_int(value: object) -> bool:
    """Whether ``value`` is an ``int`` within ``-LARGEST`` to ``LARGEST``.

    ``True`` and other subclasses of ``int`` are not.
    """
    return type(value) is int and -LARGEST <= value <= LARGEST


def tuple_of(items: object, check: Callable[[object], bool]) -> bool:
    """Whether ``items`` is a tuple whose every item passes ``check``."""
    return type(items) is tuple and all(check(item) for item in items)
