"""The transcript on the protocol page is real: the host and ``splendor engine greedy``."""

from __future__ import annotations

import json
import logging
import os
import re
from typing import Final

import pytest

from splendor import new_game, view
from splendor.remote import Limit, open_engine

from ._engines import ROOT, environment, served
from ._schema import validator

TRANSCRIPT: Final = ROOT / "docs" / "protocol-transcript.txt"


def _normal(text: str) -> str:
    """The transcript with the engine's version left out (it changes with each release)."""
    return re.sub(r'"version":"[^"]*"', '"version":"..."', text)


def test_the_protocol_page_shows_a_real_exchange(caplog: pytest.LogCaptureFixture) -> None:
    with (
        caplog.at_level(logging.DEBUG, logger="splendor.remote"),
        open_engine(served("greedy"), env=environment()) as engine,
    ):
        engine.play(view(new_game(2, seed=1), 0), Limit(time=0.5))
    lines = [
        record.getMessage().partition(" ")[2]
        for record in caplog.records
        if record.name == "splendor.remote" and record.levelno == logging.DEBUG
    ]
    assert lines[0] == '> {"type":"hello","protocol":1}'
    assert lines[-1] == '> {"type":"quit"}'
    written = "".join(f"{line}\n" for line in lines)
    if os.environ.get("SPLENDOR_WRITE_TRANSCRIPT"):
        TRANSCRIPT.write_text(written, encoding="utf-8")
    assert _normal(written) == _normal(TRANSCRIPT.read_text(encoding="utf-8"))
    for line in lines:  # every line of a real exchange fits the schema, both ways
        side = "hostMessage" if line.startswith(">") else "engineMessage"
        validator(side).validate(json.loads(line[2:]))
