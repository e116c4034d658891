"""Rules: buying cards and paying for them (RULES.md, "A turn", action 4)."""

from __future__ import annotations

import random

import pytest

from splendor import (
    Buy,
    Card,
    GameState,
    Gem,
    IllegalActionError,
    RandomBot,
    Tokens,
    apply,
    legal_actions,
    new_game,
    view,
)
from tests.builders import bonus_cards, card, deal, toks, with_deck, with_player, with_row

# Card #1: tier 1, white bonus, 0 points, costs 2 red and 1 black.
CHEAP = card(1)
# Card #72: tier 3, white bonus, 4 points, costs 7 black.
DEAR = card(72)


def _face_up(state: GameState, target: Card) -> GameState:
    """``state`` with ``target`` in the first slot of its tier's row."""
    row = state.face_up(target.tier)
    if target in row:
        return state
    return with_row(state, target.tier, (target, *row[1:]))


def _ready(tokens: str, bonuses: str = "-", target: Card = CHEAP) -> GameState:
    """Player 0 to move with ``tokens`` and ``bonuses``, ``target`` face up (4 players)."""
    state = deal(4)
    state = with_player(state, tokens=toks(tokens), cards=bonus_cards(toks(bonuses), skip=[target]))
    return _face_up(state, target)


def _buys(state: GameState, target: Card) -> list[Buy]:
    return [a for a in legal_actions(state) if isinstance(a, Buy) and a.card is target]


def test_buy_face_up_card_pays_its_cost() -> None:
    state = _ready("3R 1K 1W")
    after = apply(state, Buy(CHEAP, toks("2R K")))
    player = after.players[0]
    assert player.cards == (CHEAP,)
    assert player.tokens == toks("R W")
    assert player.bonuses == toks("W")


def test_buy_spent_tokens_return_to_the_supply() -> None:
    state = _ready("3R 1K 1W")
    after = apply(state, Buy(CHEAP, toks("2R K")))
    assert after.bank == state.bank + toks("2R K")


def test_buy_face_up_card_is_replaced_from_the_deck_top() -> None:
    state = _ready("2R 1K")
    top = state.deck(1)[0]
    after = apply(state, Buy(CHEAP))
    assert after.face_up(1) == (top, *state.face_up(1)[1:])
    assert after.deck(1) == state.deck(1)[1:]


def test_buy_face_up_slot_stays_empty_when_the_deck_is_empty() -> None:
    state = with_deck(_ready("2R 1K"), 1, ())
    after = apply(state, Buy(CHEAP))
    assert after.face_up(1) == (None, *state.face_up(1)[1:])
    assert after.deck(1) == ()


def test_buy_reserved_card_is_not_replaced_by_anything() -> None:
    state = with_player(deal(4), tokens=toks("7K"), reserved=[DEAR])
    after = apply(state, Buy(DEAR))
    player = after.players[0]
    assert player.cards == (DEAR,)
    assert player.reserved == ()
    assert player.reserved_blind == ()
    assert after.board == state.board
    assert after.decks == state.decks
    assert Buy(DEAR, toks("7K")) in legal_actions(state)


def test_buy_reserved_card_keeps_the_other_blind_flags() -> None:
    others = (card(80), card(90))
    state = with_player(
        deal(4),
        tokens=toks("7K"),
        reserved=[others[0], DEAR, others[1]],
        blind=[True, False, False],
    )
    after = apply(state, Buy(DEAR))
    assert after.players[0].reserved == others
    assert after.players[0].reserved_blind == (True, False)


def test_buy_bought_card_points_and_bonus_count() -> None:
    state = with_player(deal(4), tokens=toks("7K"), reserved=[DEAR])
    player = apply(state, Buy(DEAR)).players[0]
    assert player.points == 4
    assert player.bonuses == toks("W")


def test_buy_bonuses_lower_the_price() -> None:
    state = _ready("1R 1K", bonuses="R")
    assert _buys(state, CHEAP) == [Buy(CHEAP, toks("R K"))]
    after = apply(state, Buy(CHEAP, toks("R K")))
    assert after.players[0].tokens == Tokens()
    assert after.players[0].bonuses == toks("W R")


def test_buy_bonuses_never_lower_the_price_below_zero() -> None:
    state = _ready("2R 1K", bonuses="4R 3K")
    after = apply(state, Buy(CHEAP, Tokens()))
    assert after.players[0].tokens == toks("2R K")
    assert after.bank == state.bank
    assert _buys(state, CHEAP) == [Buy(CHEAP, Tokens())]
    with pytest.raises(IllegalActionError, match="does not match the price"):
        apply(state, Buy(CHEAP, toks("R")))


def test_buy_earlier_bought_cards_lower_later_prices() -> None:
    state = _ready("2R 2K")
    state = apply(state, Buy(CHEAP))
    for _ in range(3):
        state = apply(state, legal_actions(state)[0])
    assert state.current_player == 0
    target = card(7)  # tier 1, costs 3W 1B 1K; the white bonus lowers it
    state = _face_up(state, target)
    state = with_player(state, tokens=toks("2W B K"))
    after = apply(state, Buy(target, toks("2W B K")))
    assert after.players[0].tokens == Tokens()


def test_buy_gold_stands_in_for_missing_tokens() -> None:
    state = _ready("1R 1K 1Y")
    after = apply(state, Buy(CHEAP))
    assert after.players[0].tokens == Tokens()
    assert after.bank == state.bank + toks("R K Y")
    assert _buys(state, CHEAP) == [Buy(CHEAP, toks("R K Y"))]


def test_buy_only_gold_can_pay() -> None:
    state = _ready("3Y")
    after = apply(state, Buy(CHEAP, toks("3Y")))
    assert after.players[0].cards == (CHEAP,)
    assert after.players[0].tokens == Tokens()


def test_buy_optional_gold_payment_is_its_own_listed_action() -> None:
    state = _ready("2R 1K 1Y")
    payments = {a.payment for a in _buys(state, CHEAP)}
    assert payments == {toks("2R K"), toks("R K Y"), toks("2R Y")}
    with_gold = apply(state, Buy(CHEAP, toks("2R Y")))
    without = apply(state, Buy(CHEAP, toks("2R K")))
    assert with_gold.players[0].tokens == toks("K")
    assert without.players[0].tokens == toks("Y")
    assert with_gold != without


def test_buy_default_payment_spends_coloured_tokens_before_gold() -> None:
    state = _ready("2R 1K 1Y")
    after = apply(state, Buy(CHEAP))
    assert after == apply(state, Buy(CHEAP, toks("2R K")))
    assert after.players[0].tokens == toks("Y")


@pytest.mark.parametrize("payment", ["2R 2K", "2R K Y", "3R K", "2R K W"])
def test_buy_over_payment_is_rejected(payment: str) -> None:
    state = _ready("3R 2K 1W 1Y")
    with pytest.raises(IllegalActionError, match="does not match the price"):
        apply(state, Buy(CHEAP, toks(payment)))


@pytest.mark.parametrize("payment", ["2R", "R K", "-", "K Y"])
def test_buy_under_payment_is_rejected(payment: str) -> None:
    state = _ready("3R 2K 1W 1Y")
    with pytest.raises(IllegalActionError, match="does not match the price"):
        apply(state, Buy(CHEAP, toks(payment)))


@pytest.mark.parametrize("payment", ["2R W", "2B K", "3W"])
def test_buy_payment_in_the_wrong_colour_is_rejected(payment: str) -> None:
    state = _ready("3R 2K 3W 2B")
    with pytest.raises(IllegalActionError, match="does not match the price"):
        apply(state, Buy(CHEAP, toks(payment)))


def test_buy_payment_with_tokens_not_held_is_rejected() -> None:
    state = _ready("2R")
    with pytest.raises(IllegalActionError, match="cannot pay"):
        apply(state, Buy(CHEAP, toks("2R K")))
    with pytest.raises(IllegalActionError, match="cannot pay"):
        apply(state, Buy(CHEAP, toks("2R Y")))


def test_buy_unaffordable_card_is_rejected_and_not_listed() -> None:
    state = _ready("1R 1K 1Y", target=card(2))
    state = _face_up(state, CHEAP)
    state = with_player(state, tokens=toks("R K"))
    assert _buys(state, CHEAP) == []
    with pytest.raises(IllegalActionError, match="cannot afford card #1"):
        apply(state, Buy(CHEAP))


def test_buy_a_card_neither_face_up_nor_reserved_is_illegal() -> None:
    state = with_player(deal(4), tokens=toks("7W 3B"))
    with pytest.raises(IllegalActionError, match="not face up nor reserved"):
        apply(state, Buy(state.deck(1)[0]))


def test_buy_another_players_reserved_card_is_illegal() -> None:
    state = with_player(deal(4), seat=1, reserved=[DEAR])
    state = with_player(state, tokens=toks("7K"))
    with pytest.raises(IllegalActionError, match="not face up nor reserved"):
        apply(state, Buy(DEAR))
    assert _buys(state, DEAR) == []


def test_buy_lists_reserved_cards_too() -> None:
    state = with_player(deal(4), tokens=toks("7K 2R"), reserved=[DEAR])
    state = _face_up(state, CHEAP)
    bought = {a.card for a in legal_actions(state) if isinstance(a, Buy)}
    assert {DEAR, CHEAP} <= bought


def test_buy_gives_no_gold_and_moves_no_other_token() -> None:
    state = _ready("2R 1K 2W")
    after = apply(state, Buy(CHEAP))
    assert after.players[0].tokens == toks("2W")
    assert after.bank[Gem.GOLD] == state.bank[Gem.GOLD]


# What a player can afford (PlayerState.can_afford, PlayerState.missing).


def test_missing_counts_each_colour_short_after_bonuses_and_tokens() -> None:
    player = _ready("1R", bonuses="1K").players[0]
    assert player.missing(CHEAP) == toks("1R")  # 2R 1K: 1 red token, 1 black bonus
    assert player.missing(DEAR) == toks("6K")
    assert not player.can_afford(CHEAP)


def test_gold_covers_what_is_missing() -> None:
    player = _ready("1R 1Y", bonuses="1K").players[0]
    assert player.missing(CHEAP) == toks("1R")
    assert player.can_afford(CHEAP)
    assert not player.can_afford(DEAR)


def test_can_afford_is_whether_a_buy_of_the_card_is_listed() -> None:
    bot = RandomBot()
    for seed in range(6):
        state, rng = new_game(2 + seed % 3, seed=seed), random.Random(seed)
        while not state.is_over and state.turn < 60:
            player = state.player
            listed = {a.card for a in legal_actions(state) if isinstance(a, Buy)}
            open_cards = [c for row in state.board for c in row if c] + list(player.reserved)
            assert {c for c in open_cards if player.can_afford(c)} == listed
            public = view(state, None).players[state.current_player]
            assert all(public.can_afford(c) == player.can_afford(c) for c in open_cards)
            seat_view = view(state, state.current_player)
            state = apply(state, bot(seat_view, legal_actions(seat_view), rng))
