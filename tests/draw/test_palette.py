"""One palette: the web client's colours are the SVG pictures' (``splendor.draw.palette``).

The web client reads the colours of the pieces from ``static/palette.css``,
written from the constants the SVG pictures are drawn with; this test
checks that the file says exactly what they say (run this module to write
it again: ``python -m tests.draw.test_palette``), and that nothing else in
the client names a colour of its own for a gem or a deck.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Final

import splendor.server
from splendor.core.gems import GEMS
from splendor.draw.palette import FILL, INK, PALE, TIER_BACK

STATIC: Final = Path(splendor.server.__file__).parent / "static"


def palette_css() -> str:
    """The text ``static/palette.css`` must hold."""
    lines = [
        "/* The colours of the pieces, the same as in the SVG pictures: splendor.draw.palette",
        "   (FILL, INK, PALE, TIER_BACK) is their one source; tests/draw/test_palette.py checks",
        "   that this file says the same. */",
        ":root {",
    ]
    for prefix, table in (("", FILL), ("ink-", INK), ("pale-", PALE)):
        lines.append("  " + " ".join(f"--{prefix}{gem.value}: {table[gem]};" for gem in GEMS))
    lines.append("  " + " ".join(f"--tier-{t}: {c};" for t, c in sorted(TIER_BACK.items())))
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_the_web_palette_is_the_svg_palette() -> None:
    assert (STATIC / "palette.css").read_text(encoding="utf-8") == palette_css()


def test_the_deck_backs_are_those_of_the_svg() -> None:
    css = (STATIC / "palette.css").read_text(encoding="utf-8")
    declared = dict(re.findall(r"--(tier-\d): (#[0-9a-f]{6});", css))
    assert declared == {f"tier-{t}": colour for t, colour in TIER_BACK.items()}
    style = (STATIC / "style.css").read_text(encoding="utf-8")
    for tier in (2, 3):
        assert f".card.back.tier-{tier} {{ --back: var(--tier-{tier}); }}" in style
    assert "--back: var(--tier-1);" in style


def test_no_other_file_of_the_client_sets_a_gem_or_deck_colour() -> None:
    style = (STATIC / "style.css").read_text(encoding="utf-8")
    names = [gem.value for gem in GEMS]
    for name in names:
        assert not re.search(rf"--(ink-|pale-)?{name}\s*:", style), name
    assert not re.search(r"--tier-\d\s*:", style)
    # The gem classes and the deck backs take their colours from the palette only.
    for rule in re.findall(r"\.gem-\w+ \{[^}]*\}|\.card\.back[^{]*\{[^}]*\}", style):
        assert "background: #" not in rule, rule
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    assert not re.search(r"#[0-9a-fA-F]{6}\b", script)
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert page.index("/static/palette.css") < page.index("/static/style.css")


def test_the_icon_is_drawn_in_the_palette() -> None:
    root = ET.fromstring((STATIC / "favicon.svg").read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    colours = {
        value
        for element in root.iter()
        for name in ("fill", "stroke")
        if (value := element.get(name)) and value != "none"
    }
    # The gem colours, their pale and ink tones, and the pieces' outline grey.
    allowed = {*FILL.values(), *INK.values(), *PALE.values(), "#444"}
    assert colours <= allowed
    assert FILL[GEMS[3]] in colours


if __name__ == "__main__":
    (STATIC / "palette.css").write_text(palette_css(), encoding="utf-8")
