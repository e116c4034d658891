"""Rules: the end of the game and the winners (RULES.md, "End of game")."""

from __future__ import annotations

import pytest

from splendor import (
    Buy,
    GameState,
    IllegalActionError,
    Pass,
    Rules,
    Take,
    apply,
    legal_actions,
)
from tests.builders import card, cards_of, deal, toks, with_player, with_turn

# Player 0 (of 4) holds 10 points (#74 and #78, white and blue bonus) and can buy
# the reserved #82 (5 points, costs 7 blue 3 green; 6 blue 3 green after the bonus).
SEAT0_CARDS = (74, 78)
SEAT0_BUY = card(82)
# Player 3 holds 11 points (#73, #86 and #43) and can buy the
# reserved #90 (5 points, costs 7 red 3 black; 6 red 3 black after the red bonus).
SEAT3_CARDS = (73, 86, 43)
SEAT3_BUY = card(90)


def _race() -> GameState:
    """4 players: seat 0 can reach 15 now, seat 3 can reach 16 on the round's last turn."""
    state = deal(4)
    state = with_player(
        state, 0, tokens=toks("6B 3G"), cards=cards_of(*SEAT0_CARDS), reserved=[SEAT0_BUY]
    )
    return with_player(
        state, 3, tokens=toks("6R 3K"), cards=cards_of(*SEAT3_CARDS), reserved=[SEAT3_BUY]
    )


def _last_turn(card_ids: tuple[tuple[int, ...], ...], seat_to_move: int) -> GameState:
    """Each player holding the cards with the given ids; the last seat ``seat_to_move`` to move."""
    state = deal(len(card_ids))
    for seat, ids in enumerate(card_ids):
        state = with_player(state, seat, cards=cards_of(*ids))
    return with_turn(state, seat_to_move)


def test_end_game_goes_on_until_the_seat_before_player_zero_has_played() -> None:
    state = with_turn(_race(), 0)
    state = apply(state, Buy(SEAT0_BUY))
    assert state.players[0].points == 15
    for seat in (1, 2):
        assert not state.is_over
        assert state.current_player == seat
        state = apply(state, Take(toks("W B G") if seat == 1 else toks("W R K")))
    assert not state.is_over
    assert state.current_player == 3
    state = apply(state, Take(toks("W G B"), returned=toks("W G")))
    assert state.is_over
    assert state.winners == (0,)


def test_end_game_reached_mid_round_still_lets_later_seats_play() -> None:
    state = apply(with_turn(_race(), 0), Buy(SEAT0_BUY))
    state = apply(state, Take(toks("W B G")))
    assert legal_actions(state)
    assert state.winners == ()


def test_end_last_seat_can_still_change_the_winner() -> None:
    state = apply(with_turn(_race(), 0), Buy(SEAT0_BUY))
    state = apply(state, Take(toks("W B G")))
    state = apply(state, Take(toks("W R K")))
    assert state.players[3].points == 11
    state = apply(state, Buy(SEAT3_BUY))
    assert state.is_over
    assert [p.points for p in state.players] == [15, 0, 0, 16]
    assert state.winners == (3,)


def test_end_reaching_the_points_on_the_last_seat_ends_the_game_at_once() -> None:
    state = with_turn(_race(), 3, turn=3)
    state = apply(state, Buy(SEAT3_BUY))
    assert state.is_over
    assert state.winners == (3,)
    assert state.turn == 4


def test_end_fewer_points_than_the_target_goes_on() -> None:
    state = _last_turn(((74, 78, 46), ()), 1)
    assert state.players[0].points == 13
    after = apply(state, Take(toks("W B G")))
    assert not after.is_over
    assert after.current_player == 0
    assert after.turn == 2


def test_end_most_points_wins_whatever_the_cards() -> None:
    state = _last_turn(((74, 78, 82, 1, 2), (86, 90, 71, 43)), 1)
    assert [p.points for p in state.players] == [15, 15]
    state = with_player(state, 0, cards=cards_of(74, 78, 82, 8, 2))
    assert [p.points for p in state.players] == [16, 15]
    after = apply(state, Take(toks("W B G")))
    assert after.winners == (0,)


def test_end_tie_is_broken_by_fewest_purchased_cards() -> None:
    state = _last_turn(((74, 78, 82, 1), (86, 90, 71, 43)), 1)
    state = with_player(state, 0, cards=cards_of(74, 78, 82, 1, 2))
    assert [p.points for p in state.players] == [15, 15]
    assert [len(p.cards) for p in state.players] == [5, 4]
    after = apply(state, Take(toks("W B G")))
    assert after.winners == (1,)


def test_end_tie_break_ignores_reserved_cards() -> None:
    state = _last_turn(((74, 78, 82), (86, 90, 71, 43)), 1)
    state = with_player(state, 0, reserved=cards_of(1, 2, 3))
    after = apply(state, Take(toks("W B G")))
    assert after.winners == (0,)


def test_end_players_still_tied_share_the_win() -> None:
    state = _last_turn(((74, 78, 72, 8), (82, 86, 76, 16), (90,)), 2)
    assert [p.points for p in state.players] == [15, 15, 5]
    assert [len(p.cards) for p in state.players] == [4, 4, 1]
    after = apply(state, Take(toks("W B G")))
    assert after.winners == (0, 1)


def test_end_finished_game_has_no_legal_actions_and_seat_zero_to_move() -> None:
    state = _last_turn(((74, 78, 82), ()), 1)
    after = apply(state, Take(toks("W B G")))
    assert after.is_over
    assert after.current_player == 0
    assert legal_actions(after) == ()


@pytest.mark.parametrize(
    "action",
    [Take(toks("W B G")), Pass(), Buy(card(1)), Take(toks("2R"))],
    # Written out, not the actions' text, so that the test names stay the same
    # when the text of tokens changes (mutation testing changes it).
    ids=["take W B G", "pass", "buy card 1", "take 2R"],
)
def test_end_apply_on_a_finished_game_raises(action: object) -> None:
    state = _last_turn(((74, 78, 82), ()), 1)
    after = apply(state, Take(toks("W B G")))
    with pytest.raises(IllegalActionError, match="the game is over"):
        apply(after, action)  # type: ignore[arg-type]  # every action type, the union


def test_end_points_to_win_follows_the_rules_setting() -> None:
    state = deal(2, rules=Rules(points_to_win=5))
    state = with_turn(with_player(state, 0, cards=cards_of(74)), 1)
    after = apply(state, Take(toks("W B G")))
    assert after.is_over
    assert after.winners == (0,)
    standard = with_turn(with_player(deal(2), 0, cards=cards_of(74)), 1)
    assert not apply(standard, Take(toks("W B G"))).is_over
