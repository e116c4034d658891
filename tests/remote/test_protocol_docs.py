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
_FENCE: Final = re.compile(r"^```json\n(.*?)^```$", re.DOTALL | re.MULTILINE)
_HOST: Final = frozenset(
    {"hello", "isready", "setoption", "newgame", "position", "go", "stop", "quit"}
)


def _examples() -> list[tuple[str, object]]:
    """Every fenced ``json`` block of the protocol pages, parsed, with where it is."""
    found: list[tuple[str, object]] = []
    for page in PAGES:
        for number, match in enumerate(_FENCE.finditer(page.read_text(encoding="utf-8"))):
            found.append((f"{page.name}#{number}", json.loads(match.group(1))))
    return found


EXAMPLES: Final = _examples()


def test_the_pages_have_json_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("where", "example"), EXAMPLES, ids=[where for where, _ in EXAMPLES])
def test_each_json_example_fits_the_schema(where: str, example: object) -> None:
    assert isinstance(example, dict), where
    if "action" in example:  # one listed action of a position: its text and its JSON
        validator("position/properties/actions/items").validate(example)
    elif example.get("type") in _HOST:
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
    assert len(positions) == 2
    for position in positions:
        assert isinstance(position, Position)
        full = position.view.stand_in()
        assert position.actions == legal_actions(full)
        assert position.texts == tuple(format_action(action, full) for action in position.actions)
