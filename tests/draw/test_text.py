"""The text board: format_board and board_lines."""

from __future__ import annotations

import io

import pytest

from splendor import (
    GameState,
    GreedyBot,
    InvalidArgumentError,
    RandomBot,
    ReserveFromDeck,
    apply,
    new_game,
    play_game,
    view,
)
from splendor.cli.output import Output
from splendor.cli.text import show_table
from splendor.draw.text import GEM_STYLE, board_lines, format_board


def blind_reserve_state() -> tuple[GameState, int]:
    """A 2-player state where seat 0 has reserved the top of the tier 2 deck."""
    state = new_game(2, seed=4)
    after = apply(state, ReserveFromDeck(2))
    card = after.players[0].reserved[0]
    return after, card.id


def test_the_board_lists_nobles_every_face_up_card_the_supply_and_each_seat() -> None:
    state = new_game(3, seed=2)
    text = format_board(state, names=["Ann", "Bo", "Cy"])
    for noble in state.nobles:
        assert f"N{noble.id} {noble.points}pt for " in text
    for tier, row in enumerate(state.board, 1):
        for slot, card in enumerate(row, 1):
            assert card is not None
            assert f"  {tier}{slot} [{card.bonus.letter}]" in text
            assert f"#{card.id}\n" in text
    assert "Supply  5W 5B 5G 5R 5K 5Y" in text
    assert "> Ann  0 points, 0 cards, 0 tokens" in text
    assert "  Bo  0 points" in text
    assert text.splitlines()[0] == "Start of the game: Ann to move"


def test_a_state_shows_a_blind_reserve_openly_and_a_view_of_another_seat_hides_it() -> None:
    state, card_id = blind_reserve_state()
    open_text = format_board(state)
    assert f"#{card_id} (reserved blind)" in open_text
    hidden = format_board(view(state, 1))
    assert f"#{card_id}" not in hidden
    assert "r1 a tier 2 card, face down" in hidden
    assert format_board(state, seat=1) == hidden
    assert "Player 1 (you)" in hidden
    assert f"#{card_id} (reserved blind)" in format_board(view(state, 0))


def test_the_headline_counts_turns_played_and_names_the_winner() -> None:
    record = play_game([GreedyBot(), RandomBot()], seed=1, names=["Ann", "Bo"])
    states = record.replay()
    assert format_board(states[20], names=["Ann", "Bo"]).startswith(
        "After 20 turns: Ann to move (round 11)\n"
    )
    assert format_board(states[-1], names=["You", "Bo"]).startswith(
        f"Game over after {len(record.actions)} turns: You win\n"
    )
    assert "* Ann  " in format_board(states[-1], names=["Ann", "Bo"])


def test_the_card_ids_line_up() -> None:
    text = format_board(new_game(2, seed=1))
    columns = {
        line.index("#") for line in text.splitlines() if line.startswith("  ") and "#" in line
    }
    assert len(columns) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"names": ["a"]}, "expected 2 names"),
        ({"names": "ab"}, "as a sequence of str"),
        ({"seat": 2}, "seat must be None or 0 to 1"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        format_board(new_game(2, seed=1), **kwargs)  # type: ignore[arg-type]  # wrong on purpose


def test_something_else_than_a_table_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="format_board shows a GameState or a player"):
        format_board("board")


def test_styled_lines_colour_the_tokens_and_dim_the_zeros() -> None:
    state = new_game(2, seed=1)
    lines = board_lines(state, styled=True)
    supply = next(line for line in lines if line[0] == "Supply  ")
    assert (" 4W ", GEM_STYLE[next(iter(GEM_STYLE))]) in supply
    tokens = next(line for line in lines if line[0] == "    tokens   ")
    assert (" 0Y ", "dim") in tokens
    plain = [
        "".join(p if isinstance(p, str) else p[0] for p in line) for line in board_lines(state)
    ]
    assert "\n".join(plain) == format_board(state)


def test_the_command_line_shows_the_same_board() -> None:
    state, _ = blind_reserve_state()
    out = io.StringIO()
    show_table(state, Output(out, color=False), seat=0, names=["Ann", "Bo"])
    assert out.getvalue() == format_board(state, seat=0, names=["Ann", "Bo"]) + "\n"
