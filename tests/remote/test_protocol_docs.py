"""The protocol pages: their JSON examples fit the shipped schema; their positions are real."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Final

import pytest

from splendor import GameState, legal_actions
from splendor.formats.notation import format_action
from splendor.remote.codec import decode_host
from splendor.remote.messages import Position
from tools.protocol_examples import every_kind, host_lines, layout, only_pass

from ._engines import ROOT
from ._schema import validator

PAGES: Final = (ROOT / "docs" / "protocol.md", ROOT / "docs" / "engines-any-language.md")
TRANSCRIPT: Final = ROOT / "docs" / "protocol-transcript.txt"
_FENCE: Final = re.compile(r"^```json\n(.*?)^```$", re.DOTALL | re.MULTILINE)
_INLINE: Final = re.compile(r"`(\{\"[^`]*\})`")
# An inline example cut short: a placeholder in capitals (VIEW, RULES) or "...".
_SHORTENED: Final = re.compile(r"[A-Z]{4,}|\.\.\.")
_HOST: Final = frozenset(
    {"hello", "isready", "setoption", "newgame", "position", "go", "stop", "quit"}
)
# The part of the schema that an example which is no message fits, by a key only it has.
_PARTS: Final = {
    "action": "position/properties/actions/items",
    "bonus": "card",
    "needs": "noble",
    "kind": "option",
}


def _examples() -> list[tuple[str, object]]:
    """Every JSON example of the protocol pages and the transcript, parsed, with where it is.

    The examples are the fenced ``json`` blocks, the inline code that is a JSON
    object (unless cut short, which :func:`test_only_shortened_examples_are_left_out`
    checks), and the lines of the transcript.
    """
    found: list[tuple[str, object]] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for number, match in enumerate(_FENCE.finditer(text)):
            found.append((f"{page.name}#{number}", json.loads(match.group(1))))
        for number, match in enumerate(_INLINE.finditer(text)):
            if not _SHORTENED.search(match.group(1)):
                found.append((f"{page.name}`{number}", json.loads(match.group(1))))
    for number, line in enumerate(TRANSCRIPT.read_text(encoding="utf-8").splitlines()):
        found.append((f"{TRANSCRIPT.name}:{number + 1}", json.loads(line[2:])))
    return found


EXAMPLES: Final = _examples()


def test_the_pages_have_json_examples() -> None:
    assert len(EXAMPLES) >= 40


def test_only_shortened_examples_are_left_out() -> None:
    for page in PAGES:
        for match in _INLINE.finditer(page.read_text(encoding="utf-8")):
            try:
                json.loads(match.group(1))
            except json.JSONDecodeError:
                assert _SHORTENED.search(match.group(1)), match.group(1)


@pytest.mark.parametrize(("where", "example"), EXAMPLES, ids=[where for where, _ in EXAMPLES])
def test_each_json_example_fits_the_schema(where: str, example: object) -> None:
    assert isinstance(example, dict), where
    kind = example.get("type")
    if kind is None:
        (part,) = (part for key, part in _PARTS.items() if key in example)
        validator(part).validate(example)
    elif kind in _HOST and not (kind == "hello" and "name" in example):
        validator("hostMessage").validate(example)
    else:
        validator("engineMessage").validate(example)


@pytest.mark.parametrize("find", [every_kind, only_pass])
def test_the_example_positions_are_on_the_page_as_the_host_writes_them(
    find: Callable[[], GameState],
) -> None:
    position, go = host_lines(find(), 41 if find is every_kind else 42)
    page = PAGES[1].read_text(encoding="utf-8")
    assert f"```json\n{layout(position)}\n```" in page
    assert f"```json\n{go}\n```" in page


def test_the_example_positions_list_exactly_the_legal_actions() -> None:
    positions = [
        decode_host(json.dumps(example))
        for _, example in EXAMPLES
        if isinstance(example, dict) and example.get("type") == "position"
    ]
    assert len(positions) == 3  # the two of the page and the transcript's first
    for position in positions:
        assert isinstance(position, Position)
        full = position.view.stand_in()
        assert position.actions == legal_actions(full)
        assert position.texts == tuple(format_action(action, full) for action in position.actions)
