"""A picture of a game as an RGB array, for the environments' ``"rgb_array"`` render mode.

:func:`rgb_array` draws the table with numpy alone: rectangles, discs and
the digits of a small pixel font, in the colours of the SVG pictures
(:mod:`splendor.draw.palette`, the one palette). It is the referee's
picture: every card face up, a blind reserve framed in its tier's colour.
Names and words are not drawn, only counts: the frame is for videos and
quick looks, :func:`splendor.render_svg` is the picture to read.

Layout: the nobles on top, then the tiers 3, 2 and 1 (the deck, with its
size, and the four face-up cards: bonus colour, points, cost), then the
supply; to the right, one panel per seat from seat 0 down (points, tokens,
bonuses, nobles received, reserved cards), framed in orange for the seat
to move and in green for the winners. The frame's size depends only on the
player count and the rules, so every frame of an episode has the same shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from splendor.core.components import Card, Noble
from splendor.core.gems import GEMS, Gem, Tokens
from splendor.core.rules import Rules
from splendor.core.state import GameState
from splendor.draw.palette import FILL, INK, PALE, TIER_BACK
from splendor.draw.text import SupportsState
from splendor.errors import InvalidArgumentError

__all__ = ["frame_shape", "rgb_array"]

Colour = tuple[int, int, int]
Image = npt.NDArray[np.uint8]


def _rgb(value: str) -> Colour:
    return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))


_FILL: Final = {gem: _rgb(colour) for gem, colour in FILL.items()}
_INK: Final = {gem: _rgb(colour) for gem, colour in INK.items()}
_PALE: Final = {gem: _rgb(colour) for gem, colour in PALE.items()}
_BACK: Final = {tier: _rgb(colour) for tier, colour in TIER_BACK.items()}
# The other colours, as the SVG picture has them.
_PAPER: Final = _rgb("#faf8f3")
_WHITE: Final = _rgb("#ffffff")
_EDGE: Final = _rgb("#555555")
_QUIET: Final = _rgb("#999999")
_EMPTY: Final = _rgb("#cfcfcf")
_TO_MOVE: Final = _rgb("#d98c00")
_WINNER: Final = _rgb("#2e7d32")
_NOBLE: Final = _rgb("#efe3c8")
_NOBLE_EDGE: Final = _rgb("#7a6235")
_NOBLE_INK: Final = _rgb("#4a3a1a")
_DARK: Final = _rgb("#202020")

# The digits of a 3 x 5 pixel font, row by row.
_DIGITS: Final = {
    "0": ("111", "101", "101", "101", "111"),
    "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"),
    "3": ("111", "001", "011", "001", "111"),
    "4": ("101", "101", "111", "001", "001"),
    "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"),
    "7": ("111", "001", "010", "010", "010"),
    "8": ("111", "101", "111", "101", "111"),
    "9": ("111", "101", "111", "001", "111"),
}
_GLYPHS: Final = {
    digit: np.array([[c == "1" for c in row] for row in rows]) for digit, rows in _DIGITS.items()
}

_M: Final = 8  # margin
_G: Final = 6  # gap
_CW: Final = 52  # a card
_CH: Final = 72
_STRIP: Final = 15  # a card's band of its bonus colour, with its points
_NS: Final = 48  # a noble
_TOKEN_R: Final = 12  # a token of the supply
_BOARD_W: Final = 5 * (_CW + _G) - _G
_PANEL_H: Final = _CH + 2 * _G + 4
_PANEL_X: Final = _M + _BOARD_W + 2 * _G
_LEFT_W: Final = 128  # a panel's points, tokens and bonuses
_NOBLES_PER_ROW: Final = 5


def _noble_rows(players: int, rules: Rules) -> int:
    return max(1, -(-rules.nobles(players) // _NOBLES_PER_ROW))


def _panel_w(rules: Rules) -> int:
    """A panel: points, tokens, bonuses; two columns of nobles; the reserve slots."""
    return _LEFT_W + 2 * 22 + rules.reserve_limit * (_CW + 4) + 2 * _G


def frame_shape(players: int, rules: Rules) -> tuple[int, int, int]:
    """The ``(height, width, 3)`` of the frames of a game of ``players`` under ``rules``."""
    board_h = _rows_y(players, rules) + 3 * (_CH + _G) + 2 * _TOKEN_R + _M
    panels_h = _M + players * (_PANEL_H + _G) - _G + _M
    return max(board_h, panels_h), _PANEL_X + _panel_w(rules) + _M, 3


def _rows_y(players: int, rules: Rules) -> int:
    """The top of the rows of cards, below the nobles."""
    return _M + _noble_rows(players, rules) * (_NS + _G)


class _Canvas:
    """An RGB image drawn on in place."""

    __slots__ = ("pixels",)

    def __init__(self, height: int, width: int) -> None:
        self.pixels: Image = np.empty((height, width, 3), dtype=np.uint8)
        self.pixels[:] = _PAPER

    def box(self, x: int, y: int, w: int, h: int, fill: Colour, edge: Colour | None = None) -> None:
        """A filled rectangle, with a 1-pixel border of ``edge`` if given."""
        self.pixels[y : y + h, x : x + w] = fill
        if edge is not None:
            self.frame(x, y, w, h, edge, 1)

    def frame(self, x: int, y: int, w: int, h: int, colour: Colour, width: int) -> None:
        """The border of a rectangle, ``width`` pixels thick, inside it."""
        p = self.pixels
        p[y : y + width, x : x + w] = colour
        p[y + h - width : y + h, x : x + w] = colour
        p[y : y + h, x : x + width] = colour
        p[y : y + h, x + w - width : x + w] = colour

    def disc(self, cx: int, cy: int, r: int, fill: Colour, edge: Colour) -> None:
        """A disc of radius ``r`` centred on ``(cx, cy)``, with a 1-pixel rim."""
        for radius, colour in ((r, edge), (r - 1, fill)):
            area = self.pixels[cy - radius : cy + radius + 1, cx - radius : cx + radius + 1]
            area[_disc(radius)] = colour

    def number(self, x: int, y: int, value: int, colour: Colour, scale: int = 1) -> None:
        """``value`` in the pixel font, its top left corner at ``(x, y)``."""
        for i, digit in enumerate(str(value)):
            left = x + i * 4 * scale
            glyph = _glyph(digit, scale)
            self.pixels[y : y + 5 * scale, left : left + 3 * scale][glyph] = colour

    def centred(self, cx: int, cy: int, value: int, colour: Colour, scale: int = 1) -> None:
        """``value`` in the pixel font, centred on ``(cx, cy)``."""
        width = (4 * len(str(value)) - 1) * scale
        self.number(cx - width // 2, cy - (5 * scale) // 2, value, colour, scale)


@cache
def _glyph(digit: str, scale: int) -> npt.NDArray[np.bool_]:
    """The pixels of ``digit`` at ``scale`` times the font's size."""
    return _GLYPHS[digit].repeat(scale, axis=0).repeat(scale, axis=1)


@cache
def _disc(radius: int) -> npt.NDArray[np.bool_]:
    """The pixels of a disc of ``radius`` in its square."""
    yy, xx = np.ogrid[-radius : radius + 1, -radius : radius + 1]
    return np.asarray(xx * xx + yy * yy <= radius * radius + radius)


def _token(canvas: _Canvas, cx: int, cy: int, r: int, gem: Gem, count: int) -> None:
    canvas.disc(cx, cy, r, _FILL[gem], _EDGE)
    canvas.centred(cx, cy, count, _INK[gem], 2 if r >= 9 else 1)


def _card(canvas: _Canvas, x: int, y: int, card: Card, blind: bool = False) -> None:
    """A card: its pale body, a band of its bonus colour with its points, then its cost."""
    canvas.box(x, y, _CW, _CH, _PALE[card.bonus], _EDGE)
    canvas.box(x + 1, y + 1, _CW - 2, _STRIP, _FILL[card.bonus])
    if card.points:
        canvas.number(x + 4, y + 3, card.points, _INK[card.bonus], 2)
    canvas.centred(x + _CW - 10, y + 1 + _STRIP // 2, card.tier, _INK[card.bonus])
    costs = [(gem, card.cost[gem]) for gem in GEMS[:5] if card.cost[gem]]
    for i, (gem, count) in enumerate(costs):
        _token(canvas, x + 10, y + _STRIP + 9 + i * 13, 6, gem, count)
    if blind:
        canvas.frame(x, y, _CW, _CH, _BACK[card.tier], 2)


def _back(canvas: _Canvas, x: int, y: int, tier: int, count: int) -> None:
    """A deck of ``tier`` with its size (grey once empty)."""
    canvas.box(x, y, _CW, _CH, _BACK[tier] if count else _EMPTY, _EDGE)
    canvas.centred(x + _CW // 2, y + _CH // 2, count, _WHITE, 2)


def _noble(canvas: _Canvas, x: int, y: int, noble: Noble, size: int = _NS) -> None:
    canvas.box(x, y, size, size, _NOBLE, _NOBLE_EDGE)
    needs = [(gem, noble.requirement[gem]) for gem in GEMS[:5] if noble.requirement[gem]]
    if size < _NS:  # a noble received: its points alone
        canvas.centred(x + size // 2, y + size // 2, noble.points, _NOBLE_INK)
        return
    canvas.number(x + 4, y + 4, noble.points, _NOBLE_INK, 2)
    for i, (gem, count) in enumerate(needs):
        canvas.box(x + size - 13, y + 3 + i * 14, 10, 12, _FILL[gem], _EDGE)
        canvas.centred(x + size - 8, y + 9 + i * 14, count, _INK[gem])


def _row(tokens: Tokens, gems: Iterable[Gem]) -> list[tuple[Gem, int]]:
    return [(gem, tokens[gem]) for gem in gems]


def _panel(canvas: _Canvas, y: int, state: GameState, seat: int, width: int) -> None:
    """One seat's panel."""
    player = state.players[seat]
    x = _PANEL_X
    to_move = not state.winners and seat == state.current_player
    won = seat in state.winners
    canvas.box(x, y, width, _PANEL_H, _WHITE)
    edge = _TO_MOVE if to_move else (_WINNER if won else _QUIET)
    canvas.frame(x, y, width, _PANEL_H, edge, 3 if (to_move or won) else 1)
    canvas.number(x + 8, y + 8, player.points, _DARK, 3)
    canvas.number(x + _LEFT_W - 28, y + 8, len(player.cards), _QUIET, 2)
    for i, (gem, count) in enumerate(_row(player.tokens, GEMS)):
        _token(canvas, x + 18 + 20 * i, y + 40, 9, gem, count)
    for i, (gem, count) in enumerate(_row(player.bonuses, GEMS[:5])):
        canvas.box(x + 9 + 20 * i, y + 56, 18, 18, _FILL[gem], _EDGE)
        canvas.centred(x + 18 + 20 * i, y + 65, count, _INK[gem], 2)
    for i, noble in enumerate(player.nobles):
        column, row = i % 2, i // 2
        _noble(canvas, x + _LEFT_W + column * 22, y + 6 + row * 22, noble, 20)
    reserve_x = x + width - _G - state.rules.reserve_limit * (_CW + 4) + 4
    for i, (card, blind) in enumerate(zip(player.reserved, player.reserved_blind, strict=True)):
        _card(canvas, reserve_x + i * (_CW + 4), y + _G + 2, card, blind)


def rgb_array(table: GameState | SupportsState) -> Image:
    """A picture of a game as a new ``(height, width, 3)`` ``uint8`` RGB array.

    What the environments' ``"rgb_array"`` render mode gives, for videos: the
    whole table, every card face up, drawn with numpy alone (the RL guide
    shows the layout). The shape depends only on the player count and the
    rules, so the frames of a game stack.

    Args:
        table: a :class:`~splendor.GameState`, or a game whose ``state()``
            gives one, such as a :class:`splendor.fast.Game` or
            ``VectorEnv.game(i)``.

    Raises:
        InvalidArgumentError: for anything else.

    >>> import splendor
    >>> from splendor.rl import rgb_array
    >>> frame = rgb_array(splendor.new_game(2, seed=1))
    >>> frame.shape, frame.dtype.name
    ((328, 664, 3), 'uint8')
    """
    state = table.state() if not isinstance(table, GameState) and hasattr(table, "state") else table
    if not isinstance(state, GameState):
        raise InvalidArgumentError(
            "rgb_array draws a GameState or a game whose state() gives one, "
            f"got {type(table).__name__}"
        )
    players = len(state.players)
    height, width, _ = frame_shape(players, state.rules)
    canvas = _Canvas(height, width)
    for i, noble in enumerate(state.nobles):
        row, column = divmod(i, _NOBLES_PER_ROW)
        _noble(canvas, _M + column * (_NS + _G), _M + row * (_NS + _G), noble)
    rows_y = _rows_y(players, state.rules)
    for row, tier in enumerate((3, 2, 1)):
        y = rows_y + row * (_CH + _G)
        _back(canvas, _M, y, tier, len(state.decks[tier - 1]))
        for slot, card in enumerate(state.board[tier - 1]):
            x = _M + (slot + 1) * (_CW + _G)
            if card is None:
                canvas.box(x, y, _CW, _CH, _PAPER, _EMPTY)
            else:
                _card(canvas, x, y, card)
    supply_y = rows_y + 3 * (_CH + _G) + _TOKEN_R
    for i, (gem, count) in enumerate(_row(state.bank, GEMS)):
        _token(canvas, _M + _TOKEN_R + i * (2 * _TOKEN_R + 8), supply_y, _TOKEN_R, gem, count)
    panel_w = _panel_w(state.rules)
    for seat in range(players):
        _panel(canvas, _M + seat * (_PANEL_H + _G), state, seat, panel_w)
    return canvas.pixels
