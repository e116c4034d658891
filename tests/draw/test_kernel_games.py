"""The pictures draw a kernel game (anything whose ``state()`` is a state) as its state."""

from __future__ import annotations

import pytest

from splendor import GameState, InvalidArgumentError, new_game
from splendor.draw.svg import render_svg
from splendor.draw.text import SupportsState, board_lines, format_board
from splendor.fast import Game


def _played(turns: int) -> Game:
    game = Game.new(3, seed=5)
    for _ in range(turns):
        game.play(game.action_count() // 2)
    return game


@pytest.mark.parametrize("turns", [0, 7, 20])
def test_a_kernel_game_is_drawn_as_its_state(turns: int) -> None:
    game = _played(turns)
    state = game.state()
    names = ["Ann", "Bo", "Cy"]
    assert format_board(game) == format_board(state)
    assert format_board(game, seat=1, names=names) == format_board(state, seat=1, names=names)
    assert board_lines(game, styled=True) == board_lines(state, styled=True)
    assert render_svg(game) == render_svg(state)
    assert render_svg(game, seat=2, names=names) == render_svg(state, seat=2, names=names)


def test_a_vector_env_game_is_drawn() -> None:
    pytest.importorskip("numpy")
    from splendor.fast import VectorEnv

    env = VectorEnv(2, 2, seed=3)
    env.reset()
    assert format_board(env.game(1)) == format_board(env.game(1).state())


def test_any_object_giving_a_state_is_drawn() -> None:
    class Holder:
        def __init__(self, state: GameState) -> None:
            self._state = state

        def state(self) -> GameState:
            return self._state

    state = new_game(2, seed=9)
    holder: SupportsState = Holder(state)
    assert format_board(holder) == format_board(state)
    assert render_svg(holder) == render_svg(state)


def test_a_state_method_giving_something_else_is_refused() -> None:
    class Liar:
        def state(self) -> str:
            return "board"

    with pytest.raises(InvalidArgumentError, match=r"Liar.state\(\) gave str"):
        format_board(Liar())
    with pytest.raises(InvalidArgumentError, match="GameState or a player's view"):
        render_svg(Liar())
    with pytest.raises(InvalidArgumentError, match="a game with a state"):
        render_svg(object())
