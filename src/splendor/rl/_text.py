"""A plain-text picture of a game, for the environments' ``"ansi"`` render mode.

The picture is the text board of :func:`splendor.draw.text.format_board`,
every card face up, followed by the decisions of the turn in progress.
"""

from __future__ import annotations

from collections.abc import Sequence

from splendor.core.state import GameState
from splendor.draw.text import format_board


def describe(state: GameState, prefix: Sequence[int] = (), names: Sequence[str] = ()) -> str:
    """The whole table as text (every card face up), then the decisions so far.

    Args:
        state: the game.
        prefix: the decision codes already chosen in the turn in progress.
        names: a name per seat; ``player_0``, ``player_1``... by default.
    """
    names = tuple(names) or tuple(f"player_{seat}" for seat in range(len(state.players)))
    text = format_board(state, names=names)
    if prefix and not state.winners:
        text += f"\ndecisions so far {list(prefix)}"
    return text
