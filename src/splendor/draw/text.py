"""The table as text: :func:`format_board`.

A multi-line picture of a state or a player's view (or of a game that gives
its state, such as a :class:`splendor.fast.Game`: :class:`SupportsState`),
for a terminal, a log or a doctest: where the game stands, the nobles, the three tiers of face-up
cards with the size of their decks, the supply, and for every seat its
points, tokens, bonuses, reserved cards and nobles. Places are written as the
action notation names them (``31`` is tier 3, slot 1, to be bought with
``b31``; ``r1`` is one's first reserved card), and colours by their letters:
W white, B blue, G green, R red, K black, Y gold.

>>> from splendor import new_game
>>> print(format_board(new_game(2, seed=1), names=["Ann", "Bo"]))
Start of the game: Ann to move
Nobles  N2 3pt for 4W 4K    N10 3pt for 4R 4K    N5 3pt for 3W 3R 3K
Tier 3  16 in the deck, blind reserve r3d
  31 [R] 4pt  cost 3B 6G 3R            #85
  32 [W] 5pt  cost 3W 7K               #74
  33 [K] 4pt  cost 7R                  #88
  34 [R] 4pt  cost 7G                  #84
Tier 2  26 in the deck, blind reserve r2d
  21 [K] 1pt  cost 3W 2B 2G            #66
  22 [W] 1pt  cost 2W 3B 3R            #42
  23 [R] 2pt  cost 5K                  #61
  24 [K] 1pt  cost 3W 3G 2K            #65
Tier 1  36 in the deck, blind reserve r1d
  11 [G] 1pt  cost 4K                  #24
  12 [W]      cost 1B 2G 1R 1K         #3
  13 [B]      cost 1W 2K               #12
  14 [W]      cost 1B 1G 1R 1K         #2
Supply  4W 4B 4G 4R 4K 5Y
> Ann  0 points, 0 cards, 0 tokens
    tokens   0W 0B 0G 0R 0K 0Y
    bonuses  0W 0B 0G 0R 0K
  Bo  0 points, 0 cards, 0 tokens
    tokens   0W 0B 0G 0R 0K 0Y
    bonuses  0W 0B 0G 0R 0K

:func:`board_lines` gives the same lines as styled pieces, for a terminal
that colours them (the ``splendor`` command uses it with `rich`_).

.. _rich: https://rich.readthedocs.io
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from splendor.core.components import Card, Noble
from splendor.core.gems import GEMS, Gem, Tokens
from splendor.core.state import GameState
from splendor.core.wording import plural
from splendor.draw._scene import TIERS_TOP_DOWN, Table, headline, table_of, with_names

__all__ = ["GEM_STYLE", "Line", "Segment", "SupportsState", "board_lines", "format_board"]

#: A piece of a line: plain text, or ``(text, style)`` with a `rich`_ style.
Segment = str | tuple[str, str]
#: One line of the board, as pieces.
Line = tuple[Segment, ...]

#: The `rich`_ style of a token of each colour in a styled board.
GEM_STYLE: Final[dict[Gem, str]] = {
    Gem.WHITE: "black on grey93",
    Gem.BLUE: "bold white on blue3",
    Gem.GREEN: "bold white on green4",
    Gem.RED: "bold white on red3",
    Gem.BLACK: "bold white on grey23",
    Gem.GOLD: "bold black on gold1",
}


class SupportsState(Protocol):
    """A game that gives its state: anything with a ``state()`` method returning a GameState.

    The pictures draw such a game as its state: a :class:`splendor.fast.Game`
    (for instance ``VectorEnv.game(i)``) is one, taken without this package
    importing :mod:`splendor.fast`, which is above it.
    """

    def state(self) -> GameState:
        """The game's state as a :class:`~splendor.core.state.GameState`."""
        ...


# The width the cost of a card is padded to, so the card ids line up.
_COST_WIDTH: Final = 20


def format_board(
    table: object, *, seat: int | None = None, names: Sequence[str] | None = None
) -> str:
    """The board of a state or a view as text, one line per item (see above).

    Args:
        table: a :class:`~splendor.GameState`, a
            :class:`~splendor.core.views.PlayerView`, or a game whose
            ``state()`` gives a state (:class:`SupportsState`: a
            :class:`splendor.fast.Game`, ``VectorEnv.game(i)``), shown as that state.
        seat: for a state, the seat whose viewpoint to show: the cards other
            seats reserved unseen from a deck are then shown face down. A view
            is always shown from its own seat.
        names: a name for each seat; ``Player 0``, ``Player 1``... by default.

    Returns:
        The board, lines joined by newlines, without a final newline.

    Raises:
        InvalidArgumentError: for something that is not a state, a view or a
            game giving a state, a seat out of range, or ``names`` that are
            not one str per seat.
    """
    return "\n".join(
        "".join(p if isinstance(p, str) else p[0] for p in line)
        for line in board_lines(table, seat=seat, names=names)
    )


def board_lines(
    table: object,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    styled: bool = False,
) -> list[Line]:
    """The lines of :func:`format_board` as styled pieces.

    Args:
        table: a state, a view or a game giving a state, as for :func:`format_board`.
        seat: the viewpoint, as for :func:`format_board`.
        names: a name per seat.
        styled: draw tokens as coloured chips (`` 3W `` on the gem's colour,
            zero counts dimmed) for a terminal that shows styles; the plain
            text (``3W``) otherwise.

    Raises:
        InvalidArgumentError: as :func:`format_board`.
    """
    data = table_of(table, seat, what="format_board shows")
    if names is not None:
        data = with_names(data, names)
    lines: list[Line] = [((headline(data), "bold"),)]
    nobles: list[Segment] = ["Nobles  "]
    for i, noble in enumerate(data.nobles):
        if i:
            nobles.append("    ")
        nobles += _noble(noble, styled)
    if not data.nobles:
        nobles.append("none left")
    lines.append(tuple(nobles))
    for tier in TIERS_TOP_DOWN:
        size = data.deck_sizes[tier - 1]
        deck = f"{size} in the deck" + (f", blind reserve r{tier}d" if size else "")
        lines.append(((f"Tier {tier}", "bold underline"), ("  " + deck, "dim")))
        for slot, card in enumerate(data.board[tier - 1], 1):
            if card is None:
                lines.append(((f"  {tier}{slot}  (empty)", "dim"),))
            else:
                lines.append(tuple(_card(f"{tier}{slot}", card, styled)))
    lines.append(("Supply  ", *_tokens(data.bank, styled)))
    for index in range(len(data.seats)):
        lines += _seat(data, index, styled)
    return lines


def _chip(gem: Gem, count: int, styled: bool) -> Segment:
    text = f"{count}{gem.letter}"
    if not styled:
        return text
    return (f" {text} ", GEM_STYLE[gem]) if count else (f" {text} ", "dim")


def _tokens(
    tokens: Tokens, styled: bool, *, gems: Sequence[Gem] = GEMS, zeros: bool = True
) -> list[Segment]:
    parts: list[Segment] = []
    for gem in gems:
        if zeros or tokens[gem]:
            if parts:
                parts.append(" ")
            parts.append(_chip(gem, tokens[gem], styled))
    return parts or ["-"]


def _card(place: str, card: Card, styled: bool, *, blind: bool = False) -> list[Segment]:
    points = f"{card.points}pt" if card.points else "   "
    letter = card.bonus.letter
    bonus: Segment = (f" {letter} ", GEM_STYLE[card.bonus]) if styled else f"[{letter}]"
    cost = _tokens(card.cost, styled, gems=GEMS[:5], zeros=False)
    # Pad the cost to a fixed width of visible text, so the ids line up.
    width = sum(len(p if isinstance(p, str) else p[0]) for p in cost)
    parts: list[Segment] = [
        (f"{place:>4} ", "bold"),
        bonus,
        f" {points}  cost ",
        *cost,
        " " * max(1, _COST_WIDTH - width),
        (f"#{card.id}", "dim"),
    ]
    if blind:
        parts.append((" (reserved blind)", "dim"))
    return parts


def _noble(noble: Noble, styled: bool) -> list[Segment]:
    return [
        (f"N{noble.id}", "bold"),
        f" {noble.points}pt for ",
        *_tokens(noble.requirement, styled, gems=GEMS[:5], zeros=False),
    ]


def _seat(data: Table, index: int, styled: bool) -> list[Line]:
    player = data.seats[index]
    marker = "  "
    if data.winners:
        if index in data.winners:
            marker = "* "
    elif index == data.current:
        marker = "> "
    you = " (you)" if data.viewer == index and player.name.lower() != "you" else ""
    head: list[Segment] = [
        (marker, "bold yellow"),
        (f"{player.name}{you}", "bold"),
        f"  {plural(player.points, 'point')}, {plural(player.cards, 'card')}, "
        f"{plural(player.tokens.total, 'token')}",
    ]
    if player.nobles:
        head.append(", nobles " + " ".join(f"N{n.id}" for n in player.nobles))
    lines: list[Line] = [
        tuple(head),
        ("    tokens   ", *_tokens(player.tokens, styled)),
        ("    bonuses  ", *_tokens(player.bonuses, styled, gems=GEMS[:5])),
    ]
    for i, (item, blind) in enumerate(zip(player.reserved, player.blind, strict=True), 1):
        if isinstance(item, Card):
            lines.append(("    reserved", *_card(f"r{i}", item, styled, blind=blind)))
        else:
            lines.append(("    reserved", (f"  r{i} a tier {item} card, face down", "dim")))
    return lines
