"""The SVG picture's layout: readable thumbnails, dimmed zeros, no empty area for two players."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from splendor import GameState, GreedyBot, ReserveFromDeck, apply, new_game, play_game, render_svg

SVG = "{http://www.w3.org/2000/svg}"
# The smallest font size, in pixels at the picture's native size, for text that must be read.
READABLE = 9.0


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def scale_of(group: ET.Element) -> float:
    found = re.search(r"scale\(([\d.]+)\)", group.get("transform", ""))
    return float(found.group(1)) if found else 1.0


def late_game() -> GameState:
    """A 2-player state where a player holds a noble and reserved cards (seed 48, turn 43)."""
    state = play_game([GreedyBot(), GreedyBot()], seed=48).replay()[43]
    assert any(p.nobles for p in state.players)
    assert any(len(p.reserved) >= 2 for p in state.players)
    return state


def test_nobles_and_reserved_cards_in_the_panels_are_readable_at_native_size() -> None:
    root = ET.fromstring(render_svg(late_game()))
    panels = groups(root, "player")
    thumbnails = [g for panel in panels for g in (*groups(panel, "card"), *groups(panel, "noble"))]
    assert len(thumbnails) >= 3
    for thumbnail in thumbnails:
        scale = scale_of(thumbnail)
        for pill in groups(thumbnail, "cost"):
            for text in pill.iter(f"{SVG}text"):
                assert float(text.get("font-size", "0")) * scale >= READABLE


def test_zero_counts_are_dimmed_and_others_are_not() -> None:
    state = late_game()
    root = ET.fromstring(render_svg(state))
    seen = set()
    for cls in ("player-token", "bonus", "supply-token"):
        for g in groups(root, cls):
            zero = g.get("data-count") == "0"
            seen.add(zero)
            assert (g.get("opacity") == "0.3") == zero
    assert seen == {True, False}


def translated_y(group: ET.Element) -> float:
    found = re.search(r"translate\(([\d.]+) ([\d.]+)\)", group.get("transform", ""))
    assert found is not None
    return float(found.group(2))


@pytest.mark.parametrize(("players", "most"), [(2, 90), (3, 90), (4, 180)])
def test_neither_column_leaves_a_large_empty_area_below_it(players: int, most: float) -> None:
    state = new_game(players, seed=1)
    for _ in range(players):
        state = apply(state, ReserveFromDeck(1))
    root = ET.fromstring(render_svg(state))
    height = float(root.get("height", "0"))
    decks = max(translated_y(g) + 112 for g in groups(root, "deck"))
    supply = [
        (float(c.get("cx", "0")), float(c.get("cy", "0")) + float(c.get("r", "0")))
        for g in groups(root, "supply-token")
        for c in g.iter(f"{SVG}circle")
    ]
    # Each panel's frame: the first rectangle of its group.
    frames = [next(g.iter(f"{SVG}rect")) for g in groups(root, "player")]
    panels = [float(r.get("y", "0")) + float(r.get("height", "0")) for r in frames]
    panels_x = min(float(r.get("x", "0")) for r in frames)
    left = max([decks] + [bottom for x, bottom in supply if x < panels_x])
    right = max(panels)
    assert height - left < most
    assert height - right < most
    if players == 2:
        # The supply sits above the two panels, beside the board.
        assert all(x > panels_x for x, _ in supply)
