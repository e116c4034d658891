"""The pictures of a game for the environments' render modes.

``"ansi"`` is the text board of :func:`splendor.draw.text.format_board`,
every card face up, followed by the decisions of the turn in progress;
``"svg"`` the picture of :func:`splendor.draw.svg.render_svg`; ``"rgb_array"``
the frame of :func:`splendor.rl.rgb_array`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from splendor.core.state import GameState
from splendor.draw.text import SupportsState, format_board
from splendor.rl._raster import rgb_array

#: The render modes of the environments.
RENDER_MODES: Final = ("ansi", "svg", "rgb_array")


def describe(
    state: GameState | SupportsState, prefix: Sequence[int] = (), names: Sequence[str] = ()
) -> str:
    """The whole table as text (every card face up), then the decisions so far.

    Args:
        state: the game: a state, or a game whose ``state()`` gives it.
        prefix: the decision codes already chosen in the turn in progress.
        names: a name per seat; ``player_0``, ``player_1``... by default.
    """
    if not isinstance(state, GameState):
        state = state.state()
    names = tuple(names) or tuple(f"player_{seat}" for seat in range(len(state.players)))
    text = format_board(state, names=names)
    if prefix and not state.winners:
        text += f"\ndecisions so far {list(prefix)}"
    return text


def render(
    mode: str, state: GameState, prefix: Sequence[int], names: Sequence[str]
) -> str | npt.NDArray[np.uint8]:
    """The picture of ``state`` in render mode ``mode``, one of :data:`RENDER_MODES`."""
    if mode == "svg":
        from splendor.draw.svg import render_svg

        return str(render_svg(state, names=names))
    if mode == "rgb_array":
        return rgb_array(state)
    return describe(state, prefix, names)
