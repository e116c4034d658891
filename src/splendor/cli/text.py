"""Text pictures of the table for the terminal: :func:`show_table` and the scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from splendor.cli.output import Output
from splendor.core.components import Card
from splendor.core.gems import GEMS, Tokens
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.core.wording import plural
from splendor.draw.text import board_lines

__all__ = [
    "LEGEND",
    "compact_lines",
    "finish_lines",
    "show_legend",
    "show_table",
    "winners_line",
]

#: The key to the letters and marks of the text board, in one line.
LEGEND: Final = (
    "Key: W white, B blue, G green, R red, K black, Y gold; [R] a card's bonus, #85 its id"
)


def show_table(
    table: GameState | PlayerView,
    out: Output,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
) -> None:
    """Write the board (:func:`splendor.draw.text.board_lines`), in colour when ``out`` has it.

    Args:
        table: a state or a view.
        out: where to write.
        seat: for a state, draw from this seat's viewpoint (as
            :func:`~splendor.draw.svg.render_svg`).
        names: a name per seat.
    """
    for line in board_lines(table, seat=seat, names=names, styled=out.rich):
        out.line(*line)


def compact_lines(seen: PlayerView, names: Sequence[str]) -> list[str]:
    """The board from a seat in a few lines, for a small terminal.

    A card reads ``31 [R]4 3B6G3R``: its place, its bonus and points, its
    cost; a noble ``N2 4W4K`` (3 points each). The seat to move is marked
    ``>``; the viewer's reserved cards are listed, the others' counted.

    Args:
        seen: the viewer's view.
        names: a name per seat.
    """
    mover = names[seen.current_player]
    lines = [f"Turn {seen.turn + 1}, round {seen.round + 1}: {mover} to move"]
    nobles = "  ".join(f"N{n.id} {_packed(n.requirement)}" for n in seen.nobles)
    lines.append(f"Nobles {nobles or 'none left'}")
    for tier in (3, 2, 1):
        cards = [
            _compact_card(f"{tier}{slot}", card) for slot, card in enumerate(seen.face_up(tier), 1)
        ]
        lines.append(f"T{tier} ({seen.deck_size(tier):>2}) " + "  ".join(cards))
    lines.append("Supply " + " ".join(f"{seen.bank[g]}{g.letter}" for g in GEMS))
    for seat, player in enumerate(seen.players):
        mark = ">" if seat == seen.current_player else " "
        line = (
            f"{mark} {names[seat]} {player.points}pt, tokens {_packed(player.tokens)}, "
            f"bonuses {_packed(player.bonuses)}"
        )
        if seat != seen.seat and player.reserved_count:
            line += f", {plural(player.reserved_count, 'reserved card')}"
        lines.append(line)
        own = seen.own
        if seat == seen.seat and own is not None and own.reserved:
            held = [_compact_card(f"r{i}", c) for i, c in enumerate(own.reserved, 1)]
            lines.append("    reserved " + "  ".join(held))
    return lines


def _compact_card(place: str, card: Card | None) -> str:
    if card is None:
        return f"{place} -"
    points = str(card.points) if card.points else ""
    return f"{place} [{card.bonus.letter}]{points} {_packed(card.cost)}"


def _packed(tokens: Tokens) -> str:
    return "".join(f"{tokens[g]}{g.letter}" for g in GEMS if tokens[g]) or "-"


def show_legend(out: Output) -> None:
    """Write :data:`LEGEND`, the key to the board's letters and marks."""
    out.line((LEGEND, "dim"))


def winners_line(winners: Sequence[int], names: Sequence[str]) -> str:
    """``"Ann wins."``, ``"You win."``, ``"Ann and Bo share the win."``.

    >>> winners_line([1], ["Ann", "You"]), winners_line([0, 1], ["Ann", "Bo"])
    ('You win.', 'Ann and Bo share the win.')
    """
    who = " and ".join(names[s] for s in winners)
    if len(winners) > 1:
        return f"{who} share the win."
    return f"{who} win." if who.lower() == "you" else f"{who} wins."


def finish_lines(state: GameState, names: Sequence[str], out: Output) -> None:
    """Write the final scores table and who won."""
    rows = [
        [
            ("* " if seat in state.winners else "  ") + names[seat],
            str(player.points),
            str(len(player.cards)),
            str(len(player.nobles)),
        ]
        for seat, player in enumerate(state.players)
    ]
    out.table(
        f"Final scores after {plural(state.round, 'round')}",
        ["Player", "Points", "Cards", "Nobles"],
        rows,
    )
    out.line((winners_line(state.winners, names), "bold green"))
