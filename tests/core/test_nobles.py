"""Rules: nobles at the end of a turn (RULES.md, "End of turn" step 2)."""

from __future__ import annotations

import pytest

from splendor import (
    Buy,
    GameState,
    IllegalActionError,
    Pass,
    Reserve,
    ReserveFromDeck,
    Take,
    Tokens,
    apply,
    legal_actions,
)
from tests.builders import (
    bonus_cards,
    card,
    cards_of,
    deadlocked,
    deal,
    noble,
    toks,
    with_bank,
    with_nobles,
    with_player,
    with_row,
)

N1, N2, N3, N6, N8 = (
    noble(1),
    noble(2),
    noble(3),
    noble(6),
    noble(8),
)  # 4W4B, 4W4K, 3W3B3G, 4B4G, 4G4R
BLUE = card(9)  # tier 1, blue bonus, costs 3 black
GREEN = card(17)  # tier 1, green bonus, costs 3 red


def _before_buy(bonuses: str, extra: tuple[int, ...] = ()) -> GameState:
    """Player 0 (of 2) holds ``bonuses`` (and the ``extra`` cards) and can afford BLUE and GREEN."""
    state = deal(2)
    cards = (*bonus_cards(toks(bonuses), skip=[BLUE, GREEN]), *cards_of(*extra))
    state = with_player(state, tokens=toks("3K 3R"), cards=cards)
    state = with_row(state, 1, (BLUE, GREEN, *state.face_up(1)[2:]))
    return with_nobles(state, [N1, N3, N6])


def _two_qualify() -> GameState:
    """Buying the blue card meets both N1 (4W 4B) and N3 (3W 3B 3G); N6 stays out of reach."""
    return _before_buy("4W 3B 3G")


def test_noble_visits_when_bonuses_meet_its_requirement() -> None:
    state = _before_buy("3W 3B 2G")
    after = apply(state, Buy(GREEN))
    player = after.players[0]
    assert player.nobles == (N3,)
    assert player.points == 3
    assert after.nobles == (N1, N6)


def test_noble_is_not_replaced() -> None:
    state = _before_buy("3W 3B 2G")
    after = apply(state, Buy(GREEN))
    assert len(after.nobles) == len(state.nobles) - 1
    assert N3 not in after.nobles


def test_noble_is_named_in_the_listed_action() -> None:
    state = _before_buy("3W 3B 2G")
    buys = [a for a in legal_actions(state) if isinstance(a, Buy) and a.card is GREEN]
    assert buys == [Buy(GREEN, toks("3R"), N3)]
    green = [a for a in legal_actions(state) if isinstance(a, Buy) and a.card.bonus is GREEN.bonus]
    assert all(a.noble is N3 for a in green)
    others = [a for a in legal_actions(state) if a not in green]
    assert others
    assert all(a.noble is None for a in others)


def test_noble_requirement_counts_bonuses_not_tokens() -> None:
    state = with_player(deal(4), tokens=toks("4W 4B"))
    state = with_nobles(state, [N1])
    after = apply(state, Take(toks("R G K"), returned=toks("R")))
    assert after.players[0].nobles == ()
    assert after.nobles == (N1,)


def test_noble_one_per_turn_when_several_qualify() -> None:
    after = apply(_two_qualify(), Buy(BLUE, noble=N1))
    assert after.players[0].nobles == (N1,)
    assert after.players[0].points == 3
    assert after.nobles == (N3, N6)


def test_noble_choice_lists_one_action_per_qualifying_noble() -> None:
    buys = [a for a in legal_actions(_two_qualify()) if isinstance(a, Buy) and a.card is BLUE]
    assert sorted(a.noble.id for a in buys if a.noble is not None) == [1, 3]
    assert len(buys) == 2
    assert {a.payment for a in buys} == {toks("3K")}


def test_noble_choice_must_be_named_when_several_qualify() -> None:
    with pytest.raises(IllegalActionError, match="several nobles qualify"):
        apply(_two_qualify(), Buy(BLUE))


def test_noble_choice_of_a_non_qualifying_noble_is_illegal() -> None:
    with pytest.raises(IllegalActionError, match="N6 does not visit"):
        apply(_two_qualify(), Buy(BLUE, noble=N6))


def test_noble_choice_of_a_noble_not_revealed_is_illegal() -> None:
    with pytest.raises(IllegalActionError, match="not among the revealed"):
        apply(_two_qualify(), Buy(BLUE, noble=N2))


def test_noble_named_when_none_qualifies_is_illegal() -> None:
    state = with_nobles(deal(2), [N1, N3, N6])
    with pytest.raises(IllegalActionError, match="N1 does not visit"):
        apply(state, Take(toks("W B G"), noble=N1))


def _left_over() -> GameState:
    """Player 0 received N1 while N3 also qualified; it is player 0's turn again."""
    state = apply(_two_qualify(), Buy(BLUE, noble=N1))
    state = apply(state, Take(toks("W B G")))
    assert state.current_player == 0
    return state


def test_noble_left_over_comes_on_a_later_take() -> None:
    state = _left_over()
    takes = [a for a in legal_actions(state) if isinstance(a, Take)]
    assert takes
    assert all(a.noble is N3 for a in takes)
    after = apply(state, Take(toks("W B G")))
    assert after.players[0].nobles == (N1, N3)
    assert after.players[0].points == 6
    assert after.nobles == (N6,)


def test_noble_left_over_comes_on_a_later_reserve() -> None:
    state = _left_over()
    reserves = [a for a in legal_actions(state) if isinstance(a, Reserve | ReserveFromDeck)]
    assert reserves
    assert all(a.noble is N3 for a in reserves)
    after = apply(state, ReserveFromDeck(2))
    assert after.players[0].nobles == (N1, N3)


def test_noble_cannot_be_refused() -> None:
    state = _left_over()
    for action in legal_actions(state):
        if isinstance(action, Buy) and action.card.bonus is GREEN.bonus:
            assert action.noble in (N3, N6)  # buying green meets N6 (4B 4G) as well
        else:
            assert action.noble is N3
    after = apply(state, Take(toks("R G K")))
    assert N3 in after.players[0].nobles


def test_noble_check_ends_a_pass_too() -> None:
    state = deadlocked(2)
    state = with_player(state, tokens=Tokens(), cards=bonus_cards(toks("4G 4R")))
    state = with_bank(state, toks("5Y"))
    state = with_nobles(state, [N8, N1])
    assert legal_actions(state) == (Pass(N8),)
    after = apply(state, Pass())
    assert after.players[0].nobles == (N8,)
    assert after.players[0].points == 3
    assert after.nobles == (N1,)
    assert apply(state, Pass(N8)) == after


def test_noble_points_count_toward_the_points_to_win() -> None:
    state = _before_buy("2W 2B 1G", extra=(72, 77, 80))
    assert state.players[0].points == 12
    assert state.players[0].bonuses == toks("3W 3B 2G")
    after = apply(state, Buy(GREEN))
    assert after.players[0].points == 15
    assert not after.is_over
    end = apply(after, Take(toks("W B G")))
    assert end.is_over
    assert end.winners == (0,)


def test_noble_is_never_bought() -> None:
    from splendor import InvalidArgumentError

    state = _two_qualify()
    with pytest.raises(InvalidArgumentError):
        apply(state, Buy(N1))  # type: ignore[arg-type]  # a noble is not a card
    assert all(not isinstance(getattr(a, "card", None), type(N1)) for a in legal_actions(state))
