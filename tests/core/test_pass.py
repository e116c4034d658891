"""Rules: passing and the deadlock end (RULES.md, "A turn" and "End of game")."""

from __future__ import annotations

import pytest

from splendor import (
    Buy,
    IllegalActionError,
    Pass,
    Reserve,
    Tokens,
    apply,
    legal_actions,
)
from tests.builders import (
    bonus_cards,
    card,
    deadlocked,
    deal,
    noble,
    toks,
    with_bank,
    with_player,
    with_turn,
)

CHEAP = card(1)  # tier 1, costs 2 red and 1 black


def test_pass_is_illegal_while_a_take_is_possible() -> None:
    with pytest.raises(IllegalActionError, match="taking gems is possible"):
        apply(deal(2), Pass())


def test_pass_is_illegal_while_only_a_reserve_is_possible() -> None:
    state = with_bank(deal(2), toks("5Y"))
    assert all(
        isinstance(a, Reserve) or a.__class__.__name__ == "ReserveFromDeck"
        for a in legal_actions(state)
    )
    with pytest.raises(IllegalActionError, match="reserving is possible"):
        apply(state, Pass())


def test_pass_is_illegal_while_only_a_reserve_without_gold_is_possible() -> None:
    state = with_bank(deal(2), Tokens())
    with pytest.raises(IllegalActionError, match="reserving is possible"):
        apply(state, Pass())


def test_pass_is_illegal_while_only_a_buy_is_possible() -> None:
    state = deadlocked(2)
    reserved = state.player.reserved
    state = with_player(state, reserved=(CHEAP, *reserved[1:]))
    assert legal_actions(state) == (Buy(CHEAP, toks("2R K")),)
    with pytest.raises(IllegalActionError, match="buying is possible"):
        apply(state, Pass())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pass_is_listed_alone_when_nothing_else_is_legal(players: int) -> None:
    state = deadlocked(players)
    for seat in range(players):
        assert legal_actions(with_turn(state, seat)) == (Pass(),)


def test_pass_changes_nothing_but_the_turn() -> None:
    state = deadlocked(2)
    after = apply(state, Pass())
    assert after.players == state.players
    assert after.bank == state.bank
    assert after.board == state.board
    assert after.decks == state.decks
    assert after.nobles == state.nobles
    assert (after.current_player, after.turn, after.passes) == (1, 1, 1)
    assert not after.is_over


def test_deadlock_ends_the_game_after_a_whole_round_of_passes() -> None:
    state = deadlocked(2)
    state = with_player(state, 1, nobles=[noble(1)])
    state = apply(state, Pass())
    assert not state.is_over
    state = apply(state, Pass())
    assert state.is_over
    assert state.passes == 2
    assert state.winners == (1,)


def test_deadlock_with_nobody_ahead_is_a_shared_win() -> None:
    state = deadlocked(3)
    for _ in range(3):
        state = apply(state, Pass())
    assert state.winners == (0, 1, 2)


def test_deadlock_passes_starting_mid_round_run_until_a_whole_round_is_complete() -> None:
    state = with_turn(deadlocked(3), 1)
    state = apply(state, Pass())
    state = apply(state, Pass())
    assert state.current_player == 0
    assert state.passes == 2
    assert not state.is_over
    state = apply(state, Pass())
    assert state.passes == 3
    assert not state.is_over
    state = apply(state, Pass())
    assert not state.is_over
    state = apply(state, Pass())
    assert state.is_over
    assert state.passes == 5
    assert state.current_player == 0


def test_deadlock_a_turn_that_is_not_a_pass_resets_the_passes() -> None:
    state = deadlocked(3)
    reserved = state.players[0].reserved
    # Player 0's bonuses make the reserved card free: buying it changes no token.
    state = with_player(state, 0, reserved=(CHEAP, *reserved[1:]), cards=bonus_cards(toks("2R K")))
    state = with_turn(state, 1)
    state = apply(apply(state, Pass()), Pass())
    assert (state.current_player, state.passes, state.is_over) == (0, 2, False)
    state = apply(state, Buy(CHEAP, Tokens()))
    assert state.passes == 0
    state = apply(apply(state, Pass()), Pass())
    assert (state.current_player, state.passes, state.is_over) == (0, 2, False)
