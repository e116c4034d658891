"""The version of the JSON format and its JSON Schema: :data:`FORMAT_VERSION`, :func:`json_schema`.

The schema file ships in this package as ``splendor.schema.json``. Reading
either name loads no JSON machinery beyond the standard library's, so
:mod:`splendor` exports both.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Final

__all__ = ["FORMAT_VERSION", "RECORD_FORMATS", "RECORD_FORMAT_VERSION", "json_schema"]

#: The version of the JSON format written in the ``"format"`` field of states
#: and views. Loading accepts exactly this version.
FORMAT_VERSION: Final = 1
#: The version of the JSON format written in the ``"format"`` field of game
#: records: 2 since records can end by a forfeit (``result`` became an object
#: of the winners and the forfeit, if any).
RECORD_FORMAT_VERSION: Final = 2
#: The versions of the record format that loading reads: 1 (``result`` a
#: list of the winners) and 2.
RECORD_FORMATS: Final = (1, 2)


def json_schema() -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of the format, shipped with the package.

    Its ``$defs`` hold one schema per kind of document (``state``, ``view``,
    ``record``, ``action``, ``rules``...); the root accepts a state, a view, a
    record or an action. A schema checks the shape only:
    :func:`splendor.from_json` checks more (the invariants of a state, the
    legality of a record's actions, that a view shows a possible game).

    Returns:
        The schema, freshly parsed (the caller may change it).

    >>> schema = json_schema()
    >>> sorted(schema["$defs"])[:4]
    ['action', 'buy', 'cardId', 'count']
    >>> schema["$defs"]["view"]["required"][:3]
    ['format', 'rules', 'seat']
    """
    path = resources.files("splendor").joinpath("schema", "splendor.schema.json")
    schema: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return schema
