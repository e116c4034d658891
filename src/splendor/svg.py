"""Pictures of the table as SVG: :func:`render_svg`.

The picture shows what a player at the table sees: the nobles, the three
tiers of face-up cards with their decks, the supply, and for every seat the
tokens, bonuses, reserved cards, nobles and points. Every colour also carries
its letter (W, B, G, R, K for black, Y for gold) so the picture reads without
telling colours apart.

>>> from splendor import new_game
>>> picture = render_svg(new_game(2, seed=1))
>>> picture.startswith("<svg")
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from splendor._table import (
    TIERS_TOP_DOWN,
    Seat,
    Table,
    headline,
    plural,
    table_of,
    with_names,
)
from splendor.components import Card, Noble
from splendor.gems import GEMS, Gem

__all__ = ["SvgImage", "render_svg"]


# Characters XML 1.0 does not allow anywhere in a document, even as references:
# the C0 controls but tab, newline and carriage return, lone surrogates, U+FFFE, U+FFFF.
_NOT_XML: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` written as XML entities.

    Characters XML 1.0 forbids become U+FFFD (the replacement character), so
    the document stays well-formed whatever the text holds.
    """
    text = _NOT_XML.sub("\ufffd", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _quoteattr(value: str) -> str:
    """``value`` as a double-quoted XML attribute value."""
    return '"' + _escape(value).replace('"', "&quot;") + '"'


class SvgImage(str):
    """An SVG document as a ``str`` that Jupyter displays as a picture.

    It is an ordinary string (write it to a ``.svg`` file as it is); its
    ``_repr_svg_`` method lets notebooks draw it.
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


# Fill colour and the colour of text drawn on it, per gem.
_FILL: Final[dict[Gem, str]] = {
    Gem.WHITE: "#f4f4ef",
    Gem.BLUE: "#1f5fbf",
    Gem.GREEN: "#1d8a43",
    Gem.RED: "#c62828",
    Gem.BLACK: "#303030",
    Gem.GOLD: "#e8b923",
}
_INK: Final[dict[Gem, str]] = {
    Gem.WHITE: "#202020",
    Gem.BLUE: "#ffffff",
    Gem.GREEN: "#ffffff",
    Gem.RED: "#ffffff",
    Gem.BLACK: "#ffffff",
    Gem.GOLD: "#202020",
}
# The pale body of a card of each bonus colour.
_PALE: Final[dict[Gem, str]] = {
    Gem.WHITE: "#fbfbf8",
    Gem.BLUE: "#e3ecf9",
    Gem.GREEN: "#e2f2e7",
    Gem.RED: "#f9e3e3",
    Gem.BLACK: "#e6e6e6",
    Gem.GOLD: "#fbf3d9",
}
_TIER_BACK: Final = {1: "#3f7d4e", 2: "#b07a12", 3: "#2f4f9a"}

_MARGIN: Final = 16
_CARD_W: Final = 84
_CARD_H: Final = 112
_GAP: Final = 10
_NOBLE: Final = 72
_PANEL_W: Final = 440
_PANEL_H: Final = 122
_MINI: Final = 0.6
_FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"


def render_svg(
    table: object,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
) -> SvgImage:
    """Draw a game state or a player's view as an SVG picture.

    Args:
        table: a :class:`~splendor.GameState`, or a
            :class:`~splendor.views.PlayerView` (a seat's or a spectator's).
        seat: for a state, the seat whose viewpoint to draw: the cards other
            seats reserved unseen from a deck are then drawn face down. By
            default a state is drawn openly, every reserved card face up (a
            blind reserve is marked with a dashed border). A view is always
            drawn from its own seat, and ``seat`` must be ``None`` or that seat.
        names: a name for each seat; ``Player 0``, ``Player 1``... by default.

    Returns:
        The SVG document as an :class:`SvgImage` (a ``str``).

    Raises:
        InvalidArgumentError: for something that is not a state or a view, a
            seat out of range, ``names`` that is not a sequence of str or a
            wrong number of names.

    >>> from splendor import new_game
    >>> picture = render_svg(new_game(3, seed=2), seat=1, names=["Ann", "Bo", "Cy"])
    >>> "Bo" in picture, picture.count('class="card"')
    (True, 12)
    """
    data = table_of(table, seat)
    if names is not None:
        data = with_names(data, names)
    return SvgImage(_draw(data))


# Drawing ----------------------------------------------------------------


def _attrs(**values: object) -> str:
    return "".join(
        f" {k.rstrip('_').replace('_', '-')}={_quoteattr(str(v))}" for k, v in values.items()
    )


def _el(tag: str, **values: object) -> str:
    """An empty element, e.g. ``<rect .../>``."""
    return f"<{tag}{_attrs(**values)}/>"


def _text(x: float, y: float, content: str, *, size: float = 12, **extra: object) -> str:
    return f"<text{_attrs(x=x, y=y, font_size=size, **extra)}>{_escape(content)}</text>"


def _label(
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
        f'<g class="{cls}" data-gem="{gem.value}" data-count="{count}">'
        + _el("rect", x=x, y=y, width=width, height=height, rx=rx, fill=_FILL[gem], stroke="#555")
        + _text(
            x + width / 2,
            y + height / 2 + size * 0.4,
            f"{count}{gem.letter}",
            size=size,
            fill=_INK[gem],
            text_anchor="middle",
            font_weight="bold",
        )
        + "</g>"
    )


def _token(x: float, y: float, gem: Gem, count: int, *, r: float, cls: str) -> str:
    """A token: a disc with the count inside and the colour letter below."""
    return (
        f'<g class="{cls}" data-gem="{gem.value}" data-count="{count}">'
        + _el("circle", cx=x, cy=y, r=r, fill=_FILL[gem], stroke="#444", stroke_width=1.5)
        + (
            _el(
                "circle",
                cx=x,
                cy=y,
                r=r - 4,
                fill="none",
                stroke=_INK[gem],
                stroke_opacity=0.35,
                stroke_dasharray="3 2",
            )
            if gem is Gem.GOLD
            else ""
        )
        + _text(
            x,
            y + r * 0.38,
            str(count),
            size=round(r * 1.05, 1),
            fill=_INK[gem],
            text_anchor="middle",
            font_weight="bold",
        )
        + _text(x, y + r + 11, gem.letter, size=10, fill="#333", text_anchor="middle")
        + "</g>"
    )


def _card(x: float, y: float, card: Card, *, blind: bool = False, scale: float = 1.0) -> str:
    """A face-up card: points and bonus colour on top, the cost below."""
    gem = card.bonus
    parts = [
        f'<g class="card" data-card-id="{card.id}" transform="translate({x} {y}) scale({scale})">',
        _el(
            "rect",
            width=_CARD_W,
            height=_CARD_H,
            rx=7,
            fill=_PALE[gem],
            stroke="#444",
            stroke_width=1.5,
            stroke_dasharray="5 3" if blind else "none",
        ),
        _el("rect", x=1, y=1, width=_CARD_W - 2, height=28, rx=6, fill=_FILL[gem]),
    ]
    if card.points:
        parts.append(
            _text(
                7,
                23,
                str(card.points),
                size=20,
                fill=_INK[gem],
                font_weight="bold",
                class_="points",
            )
        )
    parts.append(_el("circle", cx=_CARD_W - 15, cy=15, r=10, fill=_PALE[gem], stroke=_INK[gem]))
    parts.append(
        _text(
            _CARD_W - 15,
            19.5,
            gem.letter,
            size=12,
            fill="#202020",
            text_anchor="middle",
            font_weight="bold",
        )
    )
    costs = [(g, n) for g, n in card.cost.items() if n]
    top = _CARD_H - 6 - 18 * len(costs)
    for i, (g, n) in enumerate(costs):
        parts.append(_label(6, top + 18 * i, g, n))
    parts.append(
        _text(_CARD_W - 6, _CARD_H - 7, f"#{card.id}", size=9, fill="#666", text_anchor="end")
    )
    if blind:
        parts.append(_text(_CARD_W - 6, 44, "blind", size=9, fill="#666", text_anchor="end"))
    parts.append("</g>")
    return "".join(parts)


def _back(
    x: float, y: float, tier: int, label: str, *, cls: str, scale: float = 1.0, count: int = -1
) -> str:
    """A face-down card (a deck, or a hidden reserved card)."""
    data = f' data-count="{count}"' if count >= 0 else ""
    fill = _TIER_BACK[tier] if count != 0 else "#cfcfcf"
    return (
        f'<g class="{cls}" data-tier="{tier}"{data} transform="translate({x} {y}) scale({scale})">'
        + _el(
            "rect", width=_CARD_W, height=_CARD_H, rx=7, fill=fill, stroke="#333", stroke_width=1.5
        )
        + _el(
            "rect",
            x=7,
            y=7,
            width=_CARD_W - 14,
            height=_CARD_H - 14,
            rx=4,
            fill="none",
            stroke="#ffffff",
            stroke_opacity=0.5,
        )
        + _text(
            _CARD_W / 2,
            42,
            "I" * tier,
            size=22,
            fill="#ffffff",
            text_anchor="middle",
            font_weight="bold",
        )
        + _text(_CARD_W / 2, 80, label, size=14, fill="#ffffff", text_anchor="middle")
        + "</g>"
    )


def _empty_slot(x: float, y: float) -> str:
    return (
        '<g class="empty-slot">'
        + _el(
            "rect",
            x=x,
            y=y,
            width=_CARD_W,
            height=_CARD_H,
            rx=7,
            fill="none",
            stroke="#aaa",
            stroke_dasharray="6 4",
        )
        + _text(
            x + _CARD_W / 2,
            y + _CARD_H / 2 + 4,
            "empty",
            size=11,
            fill="#999",
            text_anchor="middle",
        )
        + "</g>"
    )


def _noble(x: float, y: float, noble: Noble, *, scale: float = 1.0) -> str:
    needs = [(g, n) for g, n in noble.requirement.items() if n]
    parts = [
        f'<g class="noble" data-noble-id="{noble.id}"'
        f' transform="translate({x} {y}) scale({scale})">',
        _el(
            "rect",
            width=_NOBLE,
            height=_NOBLE,
            rx=6,
            fill="#efe3c8",
            stroke="#7a6235",
            stroke_width=1.5,
        ),
        _text(
            8, 24, str(noble.points), size=20, fill="#4a3a1a", font_weight="bold", class_="points"
        ),
        _text(8, _NOBLE - 8, f"N{noble.id}", size=9, fill="#7a6235"),
    ]
    for i, (g, n) in enumerate(needs):
        parts.append(_label(_NOBLE - 36, 6 + 20 * i, g, n))
    parts.append("</g>")
    return "".join(parts)


def _panel(x: float, y: float, index: int, seat: Seat, table: Table) -> str:
    """One seat: name and points, tokens, bonuses, reserved cards, nobles."""
    to_move = not table.winners and index == table.current
    won = index in table.winners
    border = "#d98c00" if to_move else ("#2e7d32" if won else "#999")
    parts = [
        f'<g class="player" data-seat="{index}" data-points="{seat.points}">',
        _el(
            "rect",
            x=x,
            y=y,
            width=_PANEL_W,
            height=_PANEL_H,
            rx=8,
            fill="#ffffff",
            stroke=border,
            stroke_width=3 if (to_move or won) else 1.2,
        ),
    ]
    title = seat.name
    if table.viewer == index:
        title += " (you)"
    parts.append(_text(x + 10, y + 20, title, size=14, font_weight="bold", class_="name"))
    status = "to move" if to_move else ("winner" if won else "")
    if status:
        parts.append(
            _text(
                x + 10,
                y + 36,
                ("\u25b6 " if to_move else "\u2605 ") + status,
                size=11,
                fill=border,
                font_weight="bold",
                class_="status",
            )
        )
    parts.append(
        _text(
            x + 200,
            y + 24,
            f"{seat.points}",
            size=22,
            font_weight="bold",
            text_anchor="end",
            class_="points",
        )
    )
    parts.append(_text(x + 203, y + 24, "pts", size=11, fill="#555"))
    parts.append(
        _text(
            x + 10,
            y + _PANEL_H - 8,
            f"{plural(seat.cards, 'card')} \u00b7 {plural(seat.tokens.total, 'token')} \u00b7 "
            f"{plural(len(seat.nobles), 'noble')}",
            size=10,
            fill="#555",
        )
    )
    for i, gem in enumerate(GEMS):
        parts.append(
            _token(x + 22 + 31 * i, y + 56, gem, seat.tokens[gem], r=12, cls="player-token")
        )
    for i, gem in enumerate(GEMS[:5]):
        parts.append(
            _label(
                x + 10 + 31 * i,
                y + 80,
                gem,
                seat.bonuses[gem],
                cls="bonus",
                width=24,
                height=18,
                rx=3,
                size=10.5,
            )
        )
    rx = x + _PANEL_W - 3 * (_CARD_W * _MINI + 6) - 4
    for i, item in enumerate(seat.reserved):
        cx = rx + i * (_CARD_W * _MINI + 6)
        cy = y + 8
        if isinstance(item, Card):
            parts.append(_card(cx, cy, item, blind=seat.blind[i], scale=_MINI))
        else:
            parts.append(_back(cx, cy, item, "?", cls="hidden-reserve", scale=_MINI))
    if seat.reserved:
        parts.append(
            _text(rx, y + _PANEL_H - 8, "reserved", size=10, fill="#555", class_="reserved-label")
        )
    for i, noble in enumerate(seat.nobles):
        parts.append(_noble(x + 170 + i * 28, y + 72, noble, scale=0.36))
    parts.append("</g>")
    return "".join(parts)


def _draw(table: Table) -> str:
    board_w = _MARGIN + 5 * (_CARD_W + _GAP)
    supply_x = board_w + 26
    panels_x = supply_x + 40
    width = panels_x + _PANEL_W + _MARGIN
    nobles_y = 44
    rows_y = nobles_y + _NOBLE + 16
    board_h = rows_y + 3 * (_CARD_H + _GAP) + _MARGIN
    panels_h = 44 + len(table.seats) * (_PANEL_H + 10) + _MARGIN
    height = max(board_h, panels_h)
    title = headline(table)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg"'
        f' width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' font-family="{_FONT}">',
        f"<title>Splendor: {_escape(title)}</title>",
        _el("rect", width=width, height=height, fill="#faf8f3"),
        _text(_MARGIN, 28, title, size=16, font_weight="bold", class_="headline"),
    ]
    parts.append(_text(_MARGIN, nobles_y + 40, "Nobles", size=12, fill="#555"))
    for i, noble in enumerate(table.nobles):
        parts.append(_noble(_MARGIN + 64 + i * (_NOBLE + 8), nobles_y, noble))
    if not table.nobles:
        parts.append(_text(_MARGIN + 64, nobles_y + 40, "none left", size=12, fill="#999"))
    for row, tier in enumerate(TIERS_TOP_DOWN):
        y = rows_y + row * (_CARD_H + _GAP)
        size = table.deck_sizes[tier - 1]
        parts.append(_back(_MARGIN, y, tier, f"{size} left", cls="deck", count=size))
        for slot, card in enumerate(table.board[tier - 1]):
            x = _MARGIN + (slot + 1) * (_CARD_W + _GAP)
            parts.append(_empty_slot(x, y) if card is None else _card(x, y, card))
    parts.append(_text(supply_x, rows_y - 8, "Supply", size=12, fill="#555", text_anchor="middle"))
    for i, gem in enumerate(GEMS):
        parts.append(
            _token(supply_x, rows_y + 22 + i * 58, gem, table.bank[gem], r=19, cls="supply-token")
        )
    for index, seat in enumerate(table.seats):
        parts.append(_panel(panels_x, 44 + index * (_PANEL_H + 10), index, seat, table))
    parts.append("</svg>")
    return "".join(parts)
