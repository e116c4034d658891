"""Games as data: versioned JSON, the action and record notation, game
records, and the fixed-size encoding of states and actions.

Built on :mod:`splendor.core`; the JSON readers and writers need ``cattrs``.
The names below are the package's public API, each defined in one of its
modules and imported from it on first use, so that ``from splendor.formats
import parse_action`` loads no JSON machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splendor.core.lazy import lazy_names

if TYPE_CHECKING:
    from splendor.formats.component_data import card_data as card_data
    from splendor.formats.component_data import tokens_data as tokens_data
    from splendor.formats.encoding import ACTION_COUNT as ACTION_COUNT
    from splendor.formats.encoding import BUY_CODES as BUY_CODES
    from splendor.formats.encoding import ENCODING_VERSION as ENCODING_VERSION
    from splendor.formats.encoding import GOLD_CODES as GOLD_CODES
    from splendor.formats.encoding import MOVE_CODES as MOVE_CODES
    from splendor.formats.encoding import NO_MORE_GOLD_CODE as NO_MORE_GOLD_CODE
    from splendor.formats.encoding import NOBLE_CODES as NOBLE_CODES
    from splendor.formats.encoding import NOBLE_SLOTS as NOBLE_SLOTS
    from splendor.formats.encoding import PASS_CODE as PASS_CODE
    from splendor.formats.encoding import RESERVE_CODES as RESERVE_CODES
    from splendor.formats.encoding import RESERVED_SLOTS as RESERVED_SLOTS
    from splendor.formats.encoding import RETURN_CODES as RETURN_CODES
    from splendor.formats.encoding import TAKE_CODES as TAKE_CODES
    from splendor.formats.encoding import action_codes as action_codes
    from splendor.formats.encoding import code_sequences as code_sequences
    from splendor.formats.encoding import decode as decode
    from splendor.formats.encoding import describe_code as describe_code
    from splendor.formats.encoding import is_complete as is_complete
    from splendor.formats.encoding import legal_codes as legal_codes
    from splendor.formats.notation import MAX_ACTION_LENGTH as MAX_ACTION_LENGTH
    from splendor.formats.notation import format_action as format_action
    from splendor.formats.notation import format_line as format_line
    from splendor.formats.notation import parse_action as parse_action
    from splendor.formats.record import FORFEIT_REASONS as FORFEIT_REASONS
    from splendor.formats.record import JUDGEMENTS as JUDGEMENTS
    from splendor.formats.record import MAX_COMMENT as MAX_COMMENT
    from splendor.formats.record import MAX_FORFEIT_DETAIL as MAX_FORFEIT_DETAIL
    from splendor.formats.record import MAX_SEED as MAX_SEED
    from splendor.formats.record import Annotation as Annotation
    from splendor.formats.record import Forfeit as Forfeit
    from splendor.formats.record import GameRecord as GameRecord
    from splendor.formats.record_text import MAX_RECORD_LENGTH as MAX_RECORD_LENGTH
    from splendor.formats.record_text import format_record as format_record
    from splendor.formats.record_text import parse_record as parse_record
    from splendor.formats.serialization import ACTION_TAGS as ACTION_TAGS
    from splendor.formats.serialization import MAX_DOCUMENT_SIZE as MAX_DOCUMENT_SIZE
    from splendor.formats.serialization import MAX_INTEGER as MAX_INTEGER
    from splendor.formats.serialization import MAX_PROBLEMS as MAX_PROBLEMS
    from splendor.formats.serialization import from_json as from_json
    from splendor.formats.serialization import make_converter as make_converter
    from splendor.formats.serialization import to_json as to_json
    from splendor.formats.xml import escape as escape

__all__ = [
    "ACTION_COUNT",
    "ACTION_TAGS",
    "BUY_CODES",
    "ENCODING_VERSION",
    "FORFEIT_REASONS",
    "GOLD_CODES",
    "JUDGEMENTS",
    "MAX_ACTION_LENGTH",
    "MAX_COMMENT",
    "MAX_DOCUMENT_SIZE",
    "MAX_FORFEIT_DETAIL",
    "MAX_INTEGER",
    "MAX_PROBLEMS",
    "MAX_RECORD_LENGTH",
    "MAX_SEED",
    "MOVE_CODES",
    "NOBLE_CODES",
    "NOBLE_SLOTS",
    "NO_MORE_GOLD_CODE",
    "PASS_CODE",
    "RESERVED_SLOTS",
    "RESERVE_CODES",
    "RETURN_CODES",
    "TAKE_CODES",
    "Annotation",
    "Forfeit",
    "GameRecord",
    "action_codes",
    "card_data",
    "code_sequences",
    "decode",
    "describe_code",
    "escape",
    "format_action",
    "format_line",
    "format_record",
    "from_json",
    "is_complete",
    "legal_codes",
    "make_converter",
    "parse_action",
    "parse_record",
    "to_json",
    "tokens_data",
]

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "splendor.formats.component_data": ("card_data", "tokens_data"),
        "splendor.formats.encoding": (
            "ACTION_COUNT",
            "BUY_CODES",
            "ENCODING_VERSION",
            "GOLD_CODES",
            "MOVE_CODES",
            "NOBLE_CODES",
            "NOBLE_SLOTS",
            "NO_MORE_GOLD_CODE",
            "PASS_CODE",
            "RESERVED_SLOTS",
            "RESERVE_CODES",
            "RETURN_CODES",
            "TAKE_CODES",
            "action_codes",
            "code_sequences",
            "decode",
            "describe_code",
            "is_complete",
            "legal_codes",
        ),
        "splendor.formats.notation": (
            "MAX_ACTION_LENGTH",
            "format_action",
            "format_line",
            "parse_action",
        ),
        "splendor.formats.record": (
            "FORFEIT_REASONS",
            "JUDGEMENTS",
            "MAX_COMMENT",
            "MAX_FORFEIT_DETAIL",
            "MAX_SEED",
            "Annotation",
            "Forfeit",
            "GameRecord",
        ),
        "splendor.formats.record_text": ("MAX_RECORD_LENGTH", "format_record", "parse_record"),
        "splendor.formats.serialization": (
            "ACTION_TAGS",
            "MAX_DOCUMENT_SIZE",
            "MAX_INTEGER",
            "MAX_PROBLEMS",
            "from_json",
            "make_converter",
            "to_json",
        ),
        "splendor.formats.xml": ("escape",),
    },
)
