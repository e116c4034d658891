"""Rules: reserving cards, face up and blind (RULES.md, "A turn", action 3)."""

from __future__ import annotations

import pytest

from splendor import (
    Card,
    GameState,
    Gem,
    IllegalActionError,
    Reserve,
    ReserveFromDeck,
    Rules,
    Tokens,
    apply,
    legal_actions,
)
from tests.builders import card, deal, toks, with_bank, with_deck, with_player


def _slot(state: GameState, tier: int, index: int) -> Card:
    found = state.face_up(tier)[index]
    assert found is not None
    return found


def _reserves(state: GameState) -> list[Reserve | ReserveFromDeck]:
    return [a for a in legal_actions(state) if isinstance(a, Reserve | ReserveFromDeck)]


def test_reserve_face_up_card_goes_to_the_player_with_a_gold() -> None:
    state = deal(2)
    target = _slot(state, 2, 1)
    after = apply(state, Reserve(target))
    player = after.players[0]
    assert player.reserved == (target,)
    assert player.reserved_blind == (False,)
    assert player.tokens == toks("Y")
    assert after.bank[Gem.GOLD] == 4
    assert player.cards == ()
    assert player.points == 0


def test_reserve_face_up_card_is_replaced_from_the_deck_top() -> None:
    state = deal(2)
    target = _slot(state, 2, 1)
    top = state.deck(2)[0]
    after = apply(state, Reserve(target))
    assert after.face_up(2) == (state.face_up(2)[0], top, *state.face_up(2)[2:])
    assert after.deck(2) == state.deck(2)[1:]
    assert after.board[0] == state.board[0]
    assert after.board[2] == state.board[2]


def test_reserve_with_no_gold_left_is_allowed() -> None:
    state = with_bank(deal(2), toks("4W 4B 4G 4R 4K"))
    target = _slot(state, 1, 0)
    assert Reserve(target) in legal_actions(state)
    after = apply(state, Reserve(target))
    assert after.players[0].reserved == (target,)
    assert after.players[0].tokens == Tokens()
    assert after.bank == state.bank


def test_reserve_limit_is_three() -> None:
    state = deal(2)
    state = with_player(state, reserved=state.deck(3)[:3])
    with pytest.raises(IllegalActionError, match="at most 3 reserved"):
        apply(state, Reserve(_slot(state, 1, 0)))
    with pytest.raises(IllegalActionError, match="at most 3 reserved"):
        apply(state, ReserveFromDeck(1))
    assert _reserves(state) == []


def test_reserve_third_card_is_allowed() -> None:
    state = deal(2)
    state = with_player(state, reserved=state.deck(3)[:2])
    after = apply(state, Reserve(_slot(state, 1, 0)))
    assert len(after.players[0].reserved) == 3
    assert len(_reserves(state)) == 12 + 3


@pytest.mark.parametrize("limit", [0, 1, 4])
def test_reserve_limit_follows_the_rules_setting(limit: int) -> None:
    state = deal(2, rules=Rules(reserve_limit=limit))
    below = with_player(state, reserved=state.deck(3)[: limit - 1]) if limit else None
    full = with_player(state, reserved=state.deck(3)[:limit])
    assert _reserves(full) == []
    with pytest.raises(IllegalActionError, match=f"at most {limit} reserved"):
        apply(full, Reserve(_slot(full, 1, 0)))
    if below is not None:
        after = apply(below, ReserveFromDeck(3))
        assert len(after.players[0].reserved) == limit


def test_reserve_at_ten_tokens_with_gold_must_return_one() -> None:
    state = with_player(deal(2), tokens=toks("3W 3B 2G 2R"))
    target = _slot(state, 1, 2)
    with pytest.raises(IllegalActionError, match="exactly 1 token"):
        apply(state, Reserve(target))
    after = apply(state, Reserve(target, returned=toks("W")))
    assert after.players[0].tokens == toks("2W 3B 2G 2R Y")
    assert after.bank == toks("2W B 2G 2R 4K 4Y")


def test_reserve_at_ten_tokens_may_return_the_gold_just_taken() -> None:
    state = with_player(deal(2), tokens=toks("3W 3B 2G 2R"))
    target = _slot(state, 1, 2)
    after = apply(state, Reserve(target, returned=toks("Y")))
    assert after.players[0].tokens == state.players[0].tokens
    assert after.bank == state.bank
    assert after.players[0].reserved == (target,)


def test_reserve_at_ten_tokens_lists_each_return_once() -> None:
    state = with_player(deal(2), tokens=toks("3W 3B 2G 2R"))
    target = _slot(state, 1, 2)
    listed = [a.returned for a in _reserves(state) if isinstance(a, Reserve) and a.card is target]
    assert sorted(map(str, listed)) == sorted(map(str, map(toks, ["W", "B", "G", "R", "Y"])))
    blind = [a.returned for a in _reserves(state) if isinstance(a, ReserveFromDeck) and a.tier == 1]
    assert len(blind) == 5


def test_reserve_at_ten_tokens_without_gold_left_returns_nothing() -> None:
    state = with_player(deal(2), tokens=toks("3W 3B 2G 2R"))
    state = with_bank(state, toks("W B 2G 2R 4K"))
    target = _slot(state, 1, 2)
    after = apply(state, Reserve(target))
    assert after.players[0].tokens == state.players[0].tokens
    with pytest.raises(IllegalActionError, match="nothing may be returned"):
        apply(state, Reserve(target, returned=toks("W")))
    assert all(a.returned == Tokens() for a in _reserves(state))


def test_reserve_blind_takes_the_deck_top() -> None:
    state = deal(2)
    top = state.deck(3)[0]
    after = apply(state, ReserveFromDeck(3))
    player = after.players[0]
    assert player.reserved == (top,)
    assert player.reserved_blind == (True,)
    assert player.tokens == toks("Y")
    assert after.deck(3) == state.deck(3)[1:]
    assert after.board == state.board


def test_reserve_blind_flags_stay_parallel_to_reserved() -> None:
    state = deal(2)
    state = with_player(state, reserved=[card(80)], blind=[True])
    face_up = _slot(state, 1, 0)
    after = apply(state, Reserve(face_up))
    assert after.players[0].reserved == (card(80), face_up)
    assert after.players[0].reserved_blind == (True, False)


def test_reserve_blind_from_an_empty_deck_is_illegal() -> None:
    state = with_deck(deal(2), 2, ())
    with pytest.raises(IllegalActionError, match="tier 2 deck is empty"):
        apply(state, ReserveFromDeck(2))
    assert ReserveFromDeck(2) not in legal_actions(state)
    assert ReserveFromDeck(1) in legal_actions(state)


@pytest.mark.parametrize("tier", [0, 4, -1])
def test_reserve_blind_from_a_tier_that_does_not_exist_is_illegal(tier: int) -> None:
    with pytest.raises(IllegalActionError, match="no tier"):
        apply(deal(2), ReserveFromDeck(tier))


def test_reserve_face_up_slot_stays_empty_when_the_deck_is_empty() -> None:
    state = with_deck(deal(2), 2, ())
    target = _slot(state, 2, 3)
    after = apply(state, Reserve(target))
    assert after.face_up(2) == (*state.face_up(2)[:3], None)
    assert after.deck(2) == ()


def test_reserve_lists_nothing_for_an_empty_slot() -> None:
    state = with_deck(deal(2), 2, ())
    state = apply(state, Reserve(_slot(state, 2, 1)))
    state = apply(state, ReserveFromDeck(1))
    assert state.current_player == 0
    assert state.face_up(2)[1] is None
    reserves = _reserves(state)
    tier_two = [a for a in reserves if isinstance(a, Reserve) and a.card.tier == 2]
    assert [a.card for a in tier_two] == [c for c in state.face_up(2) if c is not None]
    assert len(tier_two) == 3
    assert not any(isinstance(a, ReserveFromDeck) and a.tier == 2 for a in reserves)


def test_reserve_a_card_that_is_not_face_up_is_illegal() -> None:
    state = deal(2)
    with pytest.raises(IllegalActionError, match="not face up"):
        apply(state, Reserve(state.deck(1)[0]))


def test_reserve_a_card_reserved_by_another_player_is_illegal() -> None:
    state = deal(2)
    other = _slot(state, 1, 0)
    state = apply(state, Reserve(other))
    with pytest.raises(IllegalActionError, match="not face up"):
        apply(state, Reserve(other))


def test_reserve_lists_every_face_up_card_and_every_non_empty_deck() -> None:
    state = deal(2)
    reserves = _reserves(state)
    face_up = {a.card for a in reserves if isinstance(a, Reserve)}
    assert face_up == {c for row in state.board for c in row if c is not None}
    assert {a.tier for a in reserves if isinstance(a, ReserveFromDeck)} == {1, 2, 3}
    assert len(reserves) == 15
