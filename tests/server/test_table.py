"""A table's game: its moves, a forfeit, and the rows the store keeps of them."""

from __future__ import annotations

import pytest

from splendor import GameRecord, legal_actions, to_json
from splendor.errors import SerializationError
from splendor.formats.record import Forfeit
from splendor.server.seating import Seat
from splendor.server.table import Table, forfeit_json, read_forfeit

FORFEIT = Forfeit(1, "timeout", "no move within 5 s")


def table(max_moves: int | None = None) -> Table:
    seats = (Seat("Ada", "person"), Seat("greedy bot", "bot", "greedy"))
    return Table("t", seats, GameRecord.start(2, seed=3), max_moves=max_moves)


def test_a_stored_forfeit_reads_back_and_a_move_is_no_forfeit() -> None:
    assert read_forfeit(forfeit_json(FORFEIT)) == FORFEIT
    action = legal_actions(table().state)[0]
    assert read_forfeit(to_json(action)) is None


def test_a_forfeit_row_that_is_not_a_forfeit_is_refused() -> None:
    with pytest.raises(SerializationError):
        read_forfeit('{"type":"forfeit","seat":1}')
    with pytest.raises(SerializationError):
        read_forfeit('{"type":"forfeit","seat":1,"reason":"bored","detail":""}')


def test_a_forfeit_ends_the_game_as_one_more_version() -> None:
    played = table(max_moves=1)
    played.catch_up([to_json(legal_actions(played.state)[0]), forfeit_json(FORFEIT)])
    assert played.version == 2
    assert played.is_over
    assert not played.stopped
    assert played.forfeit == FORFEIT
    expected = GameRecord.start(2, seed=3).append(played.actions[0])
    assert played.record == expected.forfeited(1, "timeout", "no move within 5 s")
    assert played.stored().actions[-1] == forfeit_json(FORFEIT)


def test_no_row_follows_a_forfeit() -> None:
    played = table()
    with pytest.raises(SerializationError, match="no row follows a forfeit"):
        played.catch_up([forfeit_json(FORFEIT), to_json(legal_actions(played.state)[0])])
    assert played.version == 0
