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

from collections.abc import Sequence
from typing import Final

from splendor.core.components import Card
from splendor.core.gems import GEMS
from splendor.core.wording import plural
from splendor.draw import _svg_pieces as pieces
from splendor.draw._scene import (
    TIERS_TOP_DOWN,
    Seat,
    Table,
    headline,
    table_of,
    with_names,
)

__all__ = ["SvgImage", "render_svg"]


class SvgImage(str):
    """An SVG document as a ``str`` that Jupyter displays as a picture.

    It is an ordinary string (write it to a ``.svg`` file as it is); its
    ``_repr_svg_`` method lets notebooks draw it.
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


_MARGIN: Final = 16
_GAP: Final = 10
_PANEL_W: Final = 560
_PANEL_H: Final = 156
# Reserved cards and nobles in a player's panel, at a scale that keeps their text readable.
_MINI: Final = 0.8
_PANEL_NOBLE: Final = 0.8
# The height of the supply's row of tokens, with their letters.
_SUPPLY_H: Final = 62
_FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"


def render_svg(
    table: object,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
) -> SvgImage:
    """Draw a game state or a player's view as an SVG picture.

    Args:
        table: a :class:`~splendor.GameState`, a
            :class:`~splendor.core.views.PlayerView` (a seat's or a
            spectator's), or a game whose ``state()`` gives a state
            (:class:`~splendor.draw.text.SupportsState`: a
            :class:`splendor.fast.Game`, ``VectorEnv.game(i)``), drawn as that state.
        seat: for a state, the seat whose viewpoint to draw: the cards other
            seats reserved unseen from a deck are then drawn face down. By
            default a state is drawn openly, every reserved card face up (a
            blind reserve is marked with a dashed border). A view is always
            drawn from its own seat, and ``seat`` must be ``None`` or that seat.
        names: a name for each seat; ``Player 0``, ``Player 1``... by default.

    Returns:
        The SVG document as an :class:`SvgImage` (a ``str``).

    Raises:
        InvalidArgumentError: for something that is not a state, a view or a
            game giving a state, a seat out of range, ``names`` that is not a
            sequence of str or a wrong number of names.

    >>> from splendor import new_game
    >>> picture = render_svg(new_game(3, seed=2), seat=1, names=["Ann", "Bo", "Cy"])
    >>> "Bo" in picture, picture.count('class="card"')
    (True, 12)
    """
    data = table_of(table, seat)
    if names is not None:
        data = with_names(data, names)
    return SvgImage(_draw(data))


def _panel(x: float, y: float, index: int, seat: Seat, table: Table) -> str:
    """One seat: name and points, tokens, bonuses; its nobles; its reserved cards."""
    to_move = not table.winners and index == table.current
    won = index in table.winners
    border = "#d98c00" if to_move else ("#2e7d32" if won else "#999")
    parts = [
        f'<g class="player" data-seat="{index}" data-points="{seat.points}">',
        pieces.element(
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
    if table.viewer == index and seat.name.lower() != "you":
        title += " (you)"
    parts.append(pieces.text_at(x + 10, y + 20, title, size=14, font_weight="bold", class_="name"))
    status = "to move" if to_move else ("winner" if won else "")
    if status:
        parts.append(
            pieces.text_at(
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
        pieces.text_at(
            x + 168,
            y + 26,
            f"{seat.points}",
            size=24,
            font_weight="bold",
            text_anchor="end",
            class_="points",
        )
    )
    parts.append(
        pieces.text_at(x + 171, y + 26, "pts" if seat.points != 1 else "pt", size=11, fill="#555")
    )
    parts.append(
        pieces.text_at(
            x + 10,
            y + _PANEL_H - 10,
            f"{plural(seat.cards, 'card')} \u00b7 {plural(seat.tokens.total, 'token')} \u00b7 "
            f"{plural(len(seat.nobles), 'noble')}",
            size=11,
            fill="#555",
        )
    )
    parts.append(pieces.text_at(x + 10, y + 52, "tokens", size=10, fill="#777"))
    for i, gem in enumerate(GEMS):
        parts.append(
            pieces.token(x + 22 + 31 * i, y + 70, gem, seat.tokens[gem], r=12, cls="player-token")
        )
    parts.append(pieces.text_at(x + 10, y + 117, "bonuses", size=10, fill="#777"))
    for i, gem in enumerate(GEMS[:5]):
        parts.append(
            pieces.label(
                x + 58 + 27 * i,
                y + 104,
                gem,
                seat.bonuses[gem],
                cls="bonus",
                width=24,
                height=18,
                rx=3,
                size=10.5,
            )
        )
    # The nobles received, in a grid of two columns, then the reserved cards.
    scale = _PANEL_NOBLE if len(seat.nobles) <= 4 else _PANEL_NOBLE / 2
    side = pieces.NOBLE * scale + 4
    for i, noble in enumerate(seat.nobles):
        column, row = i % 2, i // 2
        parts.append(pieces.noble(x + 210 + column * side, y + 8 + row * side, noble, scale=scale))
    rx = x + _PANEL_W - 3 * (pieces.CARD_W * _MINI + 6) - 4
    for i, item in enumerate(seat.reserved):
        cx = rx + i * (pieces.CARD_W * _MINI + 6)
        if isinstance(item, Card):
            parts.append(pieces.card(cx, y + 8, item, blind=seat.blind[i], scale=_MINI))
        else:
            parts.append(pieces.back(cx, y + 8, item, "?", cls="hidden-reserve", scale=_MINI))
    if seat.reserved:
        parts.append(
            pieces.text_at(
                rx, y + _PANEL_H - 10, "reserved", size=11, fill="#555", class_="reserved-label"
            )
        )
    parts.append("</g>")
    return "".join(parts)


def _supply(x: float, y: float, table: Table) -> str:
    """The supply in a row: a labelled token per colour."""
    parts = [pieces.text_at(x, y + 26, "Supply", size=12, fill="#555")]
    for i, gem in enumerate(GEMS):
        parts.append(
            pieces.token(x + 76 + i * 50, y + 22, gem, table.bank[gem], r=19, cls="supply-token")
        )
    return "".join(parts)


def _draw(table: Table) -> str:
    board_w = _MARGIN + 5 * (pieces.CARD_W + _GAP)
    panels_x = board_w + 8
    width = panels_x + _PANEL_W + _MARGIN
    nobles_y = 44
    rows_y = nobles_y + pieces.NOBLE + 16
    board_h = rows_y + 3 * (pieces.CARD_H + _GAP) - _GAP
    panels_h = len(table.seats) * (_PANEL_H + 10) - 10
    # The supply goes above the panels when they leave room beside the board, else below it.
    beside = 44 + _SUPPLY_H + panels_h <= board_h
    panels_y = 44 + (_SUPPLY_H if beside else 0)
    supply_x, supply_y = (panels_x, 44) if beside else (_MARGIN, board_h + 12)
    height = max(board_h if beside else board_h + 12 + _SUPPLY_H, panels_y + panels_h) + _MARGIN
    title = headline(table)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg"'
        f' width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' font-family="{_FONT}">',
        f"<title>Splendor: {pieces.escape(title)}</title>",
        pieces.element("rect", width=width, height=height, fill="#faf8f3"),
        pieces.text_at(_MARGIN, 28, title, size=16, font_weight="bold", class_="headline"),
    ]
    parts.append(pieces.text_at(_MARGIN, nobles_y + 40, "Nobles", size=12, fill="#555"))
    for i, noble in enumerate(table.nobles):
        parts.append(pieces.noble(_MARGIN + 64 + i * (pieces.NOBLE + 8), nobles_y, noble))
    if not table.nobles:
        parts.append(pieces.text_at(_MARGIN + 64, nobles_y + 40, "none left", size=12, fill="#999"))
    for row, tier in enumerate(TIERS_TOP_DOWN):
        y = rows_y + row * (pieces.CARD_H + _GAP)
        size = table.deck_sizes[tier - 1]
        parts.append(pieces.back(_MARGIN, y, tier, f"{size} left", cls="deck", count=size))
        for slot, card in enumerate(table.board[tier - 1]):
            x = _MARGIN + (slot + 1) * (pieces.CARD_W + _GAP)
            parts.append(pieces.empty_slot(x, y) if card is None else pieces.card(x, y, card))
    parts.append(_supply(supply_x, supply_y, table))
    for index, seat in enumerate(table.seats):
        parts.append(_panel(panels_x, panels_y + index * (_PANEL_H + 10), index, seat, table))
    parts.append("</svg>")
    return "".join(parts)
