"""Pictures of a table: the SVG drawing, the text board and their palette.

Both draw one model of the table (``_scene``); built on :mod:`splendor.core`.
The names below are the package's public API, each defined in one of its
modules and imported from it on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splendor.core.lazy import lazy_names

if TYPE_CHECKING:
    from splendor.draw.palette import FILL as FILL
    from splendor.draw.palette import INK as INK
    from splendor.draw.palette import PALE as PALE
    from splendor.draw.palette import TIER_BACK as TIER_BACK
    from splendor.draw.svg import SvgImage as SvgImage
    from splendor.draw.svg import render_svg as render_svg
    from splendor.draw.text import GEM_STYLE as GEM_STYLE
    from splendor.draw.text import Line as Line
    from splendor.draw.text import Segment as Segment
    from splendor.draw.text import SupportsState as SupportsState
    from splendor.draw.text import board_lines as board_lines
    from splendor.draw.text import format_board as format_board

__all__ = [
    "FILL",
    "GEM_STYLE",
    "INK",
    "PALE",
    "TIER_BACK",
    "Line",
    "Segment",
    "SupportsState",
    "SvgImage",
    "board_lines",
    "format_board",
    "render_svg",
]

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "splendor.draw.palette": ("FILL", "INK", "PALE", "TIER_BACK"),
        "splendor.draw.svg": ("SvgImage", "render_svg"),
        "splendor.draw.text": (
            "GEM_STYLE",
            "Line",
            "Segment",
            "SupportsState",
            "board_lines",
            "format_board",
        ),
    },
)
