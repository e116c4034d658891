"""Text pictures of the table for the terminal: :func:`show_table` and the scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from splendor.cli.output import Output
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.core.wording import plural
from splendor.draw.text import board_lines

__all__ = ["LEGEND", "finish_lines", "show_legend", "show_table", "winners_line"]

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
