"""The one strict JSON reader, shared by the documents and the bot protocol's lines."""

from __future__ import annotations

import pytest

from splendor.errors import ProtocolError, SerializationError
from splendor.formats.serialization import from_json
from splendor.formats.strict_json import MalformedJsonError, read_json
from splendor.remote.codec import decode_engine, decode_host


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[NaN]", "NaN is not valid JSON"),
        ('{"a": Infinity}', "Infinity is not valid JSON"),
        ('{"a": 1, "a": 2}', 'duplicate key "a"'),
        ('{"a": 1', "Expecting"),
        ("[" * 100_000 + "]" * 100_000, "recursion"),
    ],
)
def test_text_that_is_not_strict_converter_is_refused(text: str, words: str) -> None:
    with pytest.raises(MalformedJsonError, match=words) as caught:
        read_json(text)
    assert caught.value.__cause__ is not None


def test_strict_converter_reads_what_json_reads() -> None:
    assert read_json(b'{"a": [1, 2.5, "x", true, null]}') == {"a": [1, 2.5, "x", True, None]}


def test_a_document_and_a_protocol_line_refuse_the_same_text_alike() -> None:
    text = '{"type": "isready", "type": "quit"}'
    with pytest.raises(SerializationError, match='malformed JSON: duplicate key "type"'):
        from_json(text, dict)
    with pytest.raises(ProtocolError, match='duplicate key "type"') as caught:
        decode_host(text)
    assert caught.value.code == "malformed"
    with pytest.raises(ProtocolError, match="NaN is not valid JSON"):
        decode_engine('{"type": "info", "id": 1, "nodes": NaN}')
