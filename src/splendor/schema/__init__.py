"""The version of the JSON format and its JSON Schema: :data:`FORMAT_VERSION`, :func:`json_schema`;
the JSON Schema of the bot protocol's lines: :func:`protocol_schema`.

The schema files ship in this package as ``splendor.schema.json`` and
``protocol.schema.json``. Reading them loads no JSON machinery beyond the
standard library's, so :mod:`splendor` exports :data:`FORMAT_VERSION` and
:func:`json_schema`.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Final

__all__ = [
    "FORMAT_VERSION",
    "RECORD_FORMATS",
    "RECORD_FORMAT_VERSION",
    "json_schema",
    "protocol_schema",
]

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
    ['action', 'annotation', 'buy', 'cardId']
    >>> schema["$defs"]["view"]["required"][:3]
    ['format', 'rules', 'seat']
    """
    path = resources.files("splendor").joinpath("schema", "splendor.schema.json")
    schema: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def protocol_schema() -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of a line of the bot protocol, shipped with the package.

    ``$defs/hostMessage`` is a line the host sends, ``$defs/engineMessage``
    one an engine sends (see :mod:`splendor.remote.messages`). The views,
    actions and rules inside refer to the format's schema
    (:func:`json_schema`) by its ``$id``: a validator needs both, for
    example in a ``referencing.Registry`` with ``jsonschema``.

    Returns:
        The schema, freshly parsed (the caller may change it).

    >>> schema = protocol_schema()
    >>> [ref["$ref"] for ref in schema["$defs"]["engineMessage"]["oneOf"]][:3]
    ['#/$defs/engineHello', '#/$defs/readyok', '#/$defs/info']
    >>> schema["$defs"]["position"]["properties"]["view"]
    {'$ref': 'splendor.schema.json#/$defs/view'}
    """
    path = resources.files("splendor").joinpath("schema", "protocol.schema.json")
    schema: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return schema
