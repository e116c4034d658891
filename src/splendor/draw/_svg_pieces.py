"""The pieces of the SVG pictures: tokens, cards, nobles, labels, and XML quoting.

Internal to :mod:`splendor.draw.svg`, which lays the pieces out; the names are
public only to it. Each piece is drawn at its native size at ``(x, y)``;
cards and nobles take a ``scale``.
"""

from __future__ import annotations

from typing import Final

from splendor.core.components import Card, Noble
from splendor.core.gems import Gem
from splendor.draw.palette import FILL, INK, PALE, TIER_BACK
from splendor.formats.xml import escape

__all__ = [
    "CARD_H",
    "CARD_W",
    "NOBLE",
    "attributes",
    "back",
    "card",
    "dim",
    "element",
    "empty_slot",
    "escape",
    "label",
    "noble",
    "quoteattr",
    "text_at",
    "token",
]


def quoteattr(value: str) -> str:
    """``value`` as a double-quoted XML attribute value."""
    return '"' + escape(value) + '"'


CARD_W: Final = 84
CARD_H: Final = 112
NOBLE: Final = 72


def attributes(**values: object) -> str:
    return "".join(
        f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in values.items()
    )


def element(tag: str, **values: object) -> str:
    """An empty element, e.g. ``<rect .../>``."""
    return f"<{tag}{attributes(**values)}/>"


def text_at(x: float, y: float, content: str, *, size: float = 12, **extra: object) -> str:
    return f"<text{attributes(x=x, y=y, font_size=size, **extra)}>{escape(content)}</text>"


def label(
    x: float,
    y: float,
    gem: Gem,
    count: int,
    *,
    cls: str = "cost",
    width: float = 30,
    height: float = 16,
    rx: float = 8,
    size: float = 11.5,
) -> str:
    """A label in the gem's colour reading e.g. ``3R``: a cost pill or a bonus badge."""
    return (
        f'<g class="{cls}" data-gem="{gem.value}" data-count="{count}"{dim(count)}>'
        + element(
            "rect", x=x, y=y, width=width, height=height, rx=rx, fill=FILL[gem], stroke="#555"
        )
        + text_at(
            x + width / 2,
            y + height / 2 + size * 0.4,
            f"{count}{gem.letter}",
            size=size,
            fill=INK[gem],
            text_anchor="middle",
            font_weight="bold",
        )
        + "</g>"
    )


def dim(count: int) -> str:
    """The attribute that dims a zero count (no tokens, no bonus of a colour)."""
    return ' opacity="0.3"' if count == 0 else ""


def token(x: float, y: float, gem: Gem, count: int, *, r: float, cls: str) -> str:
    """A token: a disc with the count inside and the colour letter below."""
    return (
        f'<g class="{cls}" data-gem="{gem.value}" data-count="{count}"{dim(count)}>'
        + element("circle", cx=x, cy=y, r=r, fill=FILL[gem], stroke="#444", stroke_width=1.5)
        + (
            element(
                "circle",
                cx=x,
                cy=y,
                r=r - 4,
                fill="none",
                stroke=INK[gem],
                stroke_opacity=0.35,
                stroke_dasharray="3 2",
            )
            if gem is Gem.GOLD
            else ""
        )
        + text_at(
            x,
            y + r * 0.38,
            str(count),
            size=round(r * 1.05, 1),
            fill=INK[gem],
            text_anchor="middle",
            font_weight="bold",
        )
        + text_at(x, y + r + 11, gem.letter, size=10, fill="#333", text_anchor="middle")
        + "</g>"
    )


def card(x: float, y: float, card: Card, *, blind: bool = False, scale: float = 1.0) -> str:
    """A face-up card: points and bonus colour on top, the cost below."""
    gem = card.bonus
    parts = [
        f'<g class="card" data-card-id="{card.id}" transform="translate({x} {y}) scale({scale})">',
        element(
            "rect",
            width=CARD_W,
            height=CARD_H,
            rx=7,
            fill=PALE[gem],
            stroke="#444",
            stroke_width=1.5,
            stroke_dasharray="5 3" if blind else "none",
        ),
        element("rect", x=1, y=1, width=CARD_W - 2, height=28, rx=6, fill=FILL[gem]),
    ]
    if card.points:
        parts.append(
            text_at(
                7,
                23,
                str(card.points),
                size=20,
                fill=INK[gem],
                font_weight="bold",
                class_="points",
            )
        )
    parts.append(element("circle", cx=CARD_W - 15, cy=15, r=10, fill=PALE[gem], stroke=INK[gem]))
    parts.append(
        text_at(
            CARD_W - 15,
            19.5,
            gem.letter,
            size=12,
            fill="#202020",
            text_anchor="middle",
            font_weight="bold",
        )
    )
    costs = [(g, n) for g, n in card.cost.items() if n]
    top = CARD_H - 6 - 18 * len(costs)
    for i, (g, n) in enumerate(costs):
        parts.append(label(6, top + 18 * i, g, n))
    parts.append(
        text_at(CARD_W - 6, CARD_H - 7, f"#{card.id}", size=9, fill="#666", text_anchor="end")
    )
    if blind:
        parts.append(text_at(CARD_W - 6, 44, "blind", size=9, fill="#666", text_anchor="end"))
    parts.append("</g>")
    return "".join(parts)


def back(
    x: float, y: float, tier: int, label: str, *, cls: str, scale: float = 1.0, count: int = -1
) -> str:
    """A face-down card (a deck, or a hidden reserved card)."""
    data = f' data-count="{count}"' if count >= 0 else ""
    fill = TIER_BACK[tier] if count != 0 else "#cfcfcf"
    return (
        f'<g class="{cls}" data-tier="{tier}"{data} transform="translate({x} {y}) scale({scale})">'
        + element(
            "rect", width=CARD_W, height=CARD_H, rx=7, fill=fill, stroke="#333", stroke_width=1.5
        )
        + element(
            "rect",
            x=7,
            y=7,
            width=CARD_W - 14,
            height=CARD_H - 14,
            rx=4,
            fill="none",
            stroke="#ffffff",
            stroke_opacity=0.5,
        )
        + text_at(
            CARD_W / 2,
            42,
            "I" * tier,
            size=22,
            fill="#ffffff",
            text_anchor="middle",
            font_weight="bold",
        )
        + text_at(CARD_W / 2, 80, label, size=14, fill="#ffffff", text_anchor="middle")
        + "</g>"
    )


def empty_slot(x: float, y: float) -> str:
    return (
        '<g class="empty-slot">'
        + element(
            "rect",
            x=x,
            y=y,
            width=CARD_W,
            height=CARD_H,
            rx=7,
            fill="none",
            stroke="#aaa",
            stroke_dasharray="6 4",
        )
        + text_at(
            x + CARD_W / 2,
            y + CARD_H / 2 + 4,
            "empty",
            size=11,
            fill="#999",
            text_anchor="middle",
        )
        + "</g>"
    )


def noble(x: float, y: float, noble: Noble, *, scale: float = 1.0) -> str:
    needs = [(g, n) for g, n in noble.requirement.items() if n]
    parts = [
        f'<g class="noble" data-noble-id="{noble.id}"'
        f' transform="translate({x} {y}) scale({scale})">',
        element(
            "rect",
            width=NOBLE,
            height=NOBLE,
            rx=6,
            fill="#efe3c8",
            stroke="#7a6235",
            stroke_width=1.5,
        ),
        text_at(
            8, 24, str(noble.points), size=20, fill="#4a3a1a", font_weight="bold", class_="points"
        ),
        text_at(8, NOBLE - 8, f"N{noble.id}", size=9, fill="#7a6235"),
    ]
    for i, (g, n) in enumerate(needs):
        parts.append(label(NOBLE - 36, 6 + 20 * i, g, n))
    parts.append("</g>")
    return "".join(parts)
