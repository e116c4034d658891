"""The position message the tests send: seat 0 to make the first move of a two-player game."""

from __future__ import annotations

from splendor import legal_actions, new_game, view
from splendor.formats.notation import format_action
from splendor.remote.messages import Position


def first_position(id_: int = 1, seed: int = 3) -> Position:
    """The ``position`` message of seat 0's first move in the two-player game of ``seed``."""
    state = new_game(2, seed=seed)
    actions = legal_actions(state)
    return Position(id_, view(state, 0), actions, tuple(format_action(a, state) for a in actions))
