"""The colours of the pieces: each gem's fill, ink and pale card body, and the tiers' backs.

One palette for the SVG pictures (:mod:`splendor.draw.svg`), the RL
environments' RGB pictures and the web client's style sheet.
"""

from __future__ import annotations

from typing import Final

from splendor.core.gems import Gem

__all__ = ["FILL", "INK", "PALE", "TIER_BACK"]

#: The fill colour of a token or a card's bonus, per gem.
FILL: Final[dict[Gem, str]] = {
    Gem.WHITE: "#f4f4ef",
    Gem.BLUE: "#1f5fbf",
    Gem.GREEN: "#1d8a43",
    Gem.RED: "#c62828",
    Gem.BLACK: "#303030",
    Gem.GOLD: "#e8b923",
}
#: The colour of text drawn on :data:`FILL`, per gem.
INK: Final[dict[Gem, str]] = {
    Gem.WHITE: "#202020",
    Gem.BLUE: "#ffffff",
    Gem.GREEN: "#ffffff",
    Gem.RED: "#ffffff",
    Gem.BLACK: "#ffffff",
    Gem.GOLD: "#202020",
}
#: The pale body of a card of each bonus colour.
PALE: Final[dict[Gem, str]] = {
    Gem.WHITE: "#fbfbf8",
    Gem.BLUE: "#e3ecf9",
    Gem.GREEN: "#e2f2e7",
    Gem.RED: "#f9e3e3",
    Gem.BLACK: "#e6e6e6",
    Gem.GOLD: "#fbf3d9",
}
#: The colour of the back of a card of each tier.
TIER_BACK: Final = {1: "#3f7d4e", 2: "#b07a12", 3: "#2f4f9a"}
