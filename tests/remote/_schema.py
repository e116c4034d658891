"""The protocol's JSON Schema as a validator, with the JSON format's schema it refers to."""

from __future__ import annotations

import functools
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # the package ships no type hints
from referencing import Registry, Resource

from splendor.schema import json_schema, protocol_schema


@functools.cache
def validator(part: str) -> jsonschema.Draft202012Validator:
    """A validator of ``$defs/<part>`` of the schema: ``hostMessage`` or ``engineMessage``."""
    game = json_schema()
    protocol = protocol_schema()
    registry: Registry[Any] = Registry().with_resources(  # jsonschema's Schema, untyped here
        [
            (str(game["$id"]), Resource.from_contents(game)),
            (str(protocol["$id"]), Resource.from_contents(protocol)),
        ]
    )
    schema = {"$ref": f"{protocol['$id']}#/$defs/{part}"}
    return jsonschema.Draft202012Validator(schema, registry=registry)
