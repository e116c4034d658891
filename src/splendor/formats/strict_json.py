"""Strict JSON text: the one reader of the library's JSON documents and protocol lines.

:func:`read_json` reads what ``json.loads`` reads, except what JSON does
not allow or a reader could take two ways: ``NaN``, ``Infinity`` and
``-Infinity``, and an object that names a key twice. Both
:func:`splendor.formats.serialization.from_json` (documents) and
:mod:`splendor.remote.codec` (the bot protocol's lines) read with it.

>>> read_json('{"type": "pass", "noble": null}')
{'type': 'pass', 'noble': None}
>>> read_json('{"type": "pass", "type": "take"}')
Traceback (most recent call last):
...
splendor.formats.strict_json.MalformedJsonError: duplicate key "type" in an object
"""

from __future__ import annotations

import json

from splendor.core.messages import short_repr
from splendor.errors import SplendorError

__all__ = ["MalformedJsonError", "read_json"]


class MalformedJsonError(SplendorError, ValueError):
    """Text that is not strict JSON; the message says where, as ``json`` does."""


class _Refused(ValueError):
    """What JSON's grammar allows but the strict reader does not."""


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                quoted = short_repr(key, 32, write=json.dumps)
                raise _Refused(f"duplicate key {quoted} in an object")
            seen.add(key)
    return result


def _constant(name: str) -> object:
    raise _Refused(f"{name} is not valid JSON")


def read_json(text: str | bytes | bytearray) -> object:
    """The value of the JSON text ``text`` (bytes are decoded as UTF-8, -16 or -32).

    Raises:
        MalformedJsonError: for text that is not JSON, ``NaN`` or an
            infinity, a key named twice in an object, or values nested too
            deep to read. The error of ``json`` (or the ``RecursionError``)
            is chained as ``__cause__``.
    """
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except (ValueError, RecursionError) as error:
        raise MalformedJsonError(str(error)) from error
