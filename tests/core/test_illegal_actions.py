"""Rules: what ``apply`` refuses, and the words it refuses it with (RULES.md, "A turn").

``apply`` says why the rules forbid an action, with the numbers and the
cards that matter: a message that lost a figure or named the wrong card
would mislead a player, so each test checks the exact words. Beside them: the
30 actions of a new two-player game, the wrong types an action can be built
with, a payment of a colour more
than held, the noble whose requirement a buy completes, and the turn played
after the end. docs/testing.md lists the mutants these tests kill.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from splendor import (
    CARDS,
    GEMS,
    Buy,
    GameState,
    Gem,
    GreedyBot,
    IllegalActionError,
    InvalidArgumentError,
    Pass,
    Reserve,
    ReserveFromDeck,
    Take,
    Tokens,
    apply,
    legal_actions,
    new_game,
    play_game,
)
from tests.builders import (
    bonus_cards,
    card,
    deal,
    noble,
    toks,
    unchecked,
    with_bank,
    with_deck,
    with_nobles,
    with_player,
)


def test_a_new_two_player_game_lists_30_actions() -> None:
    # 10 takes of 3 colours, 5 takes of 2, 12 reserves of face-up cards and
    # 3 blind reserves; nothing can be bought yet.
    assert len(legal_actions(new_game(2, seed=1))) == 30


def _start() -> GameState:
    # Tier 1 row: #1 (W, costs 2R 1K), #28, #13, #22; the top of the tier 1
    # deck is #30; the supply 4 of each gem and 5 gold; nobles N8 and two more.
    return deal(2)


def _full_hand() -> GameState:
    return with_player(_start(), tokens=toks("2W 2B 2G 2R 1K"))


def _three_reserved() -> GameState:
    state = _start()
    return with_player(state, reserved=state.deck(3)[:3])


def _only_blind_reserves() -> GameState:
    # No gem in the supply and no face-up card: the decks are left.
    state = attrs.evolve(_start(), board=((None,) * 4,) * 3)
    return with_bank(state, toks("5Y"))


def _two_nobles_qualify() -> GameState:
    state = with_nobles(_start(), [noble(1), noble(2), noble(3)])
    return with_player(state, cards=bonus_cards(toks("4W 4B 4K")))


_BAD_ACTIONS: list[tuple[str, Callable[[], GameState], object, str]] = [
    ("gold taken", _start, Take(toks("Y")), "gold cannot be taken: it comes only with a reserve"),
    ("nothing taken", _start, Take(Tokens()), "take at least one gem"),
    (
        "2 and 1 taken",
        _start,
        Take(toks("2R W")),
        "cannot take 1W 2R: take gems of different colours, or 2 of one colour",
    ),
    (
        "2 taken from 3",
        lambda: with_bank(_start(), toks("4W 4B 4G 3R 4K 5Y")),
        Take(toks("2R")),
        "take 2 red needs 4 red in the supply, there are 3",
    ),
    (
        "a colour the supply lacks",
        lambda: with_bank(_start(), toks("4W 4B 4G 0R 4K 5Y")),
        Take(toks("R W B")),
        "there is no red in the supply",
    ),
    (
        "2 colours of 5",
        _start,
        Take(toks("R W")),
        "take 3 gems of different colours (or 2 of one colour), not 2",
    ),
    (
        "2 colours of 3",
        lambda: with_bank(_start(), toks("4W 4B 4G 0R 0K 5Y")),
        Take(toks("W B")),
        "take 3 gems of different colours (or 2 of one colour), not 2",
    ),
    (
        "1 colour of 2",
        lambda: with_bank(_start(), toks("4W 4B 0G 0R 0K 5Y")),
        Take(toks("W")),
        "take 3 gems of different colours, or one of each of the 2 colours in the "
        "supply if fewer than 3, not 1",
    ),
    (
        "a return within the limit",
        _start,
        Take(toks("R W B"), toks("R")),
        "nothing may be returned: the player ends with 3 tokens, within the limit of 10",
    ),
    (
        "too few returned",
        _full_hand,
        Take(toks("R W B"), toks("R")),
        "exactly 2 tokens must be returned to end at the limit of 10, not 1",
    ),
    (
        "one token too many, none returned",
        lambda: with_player(_start(), tokens=toks("2W 2B 2G 1R 1K")),
        Take(toks("R W B")),
        "exactly 1 token must be returned to end at the limit of 10, not 0",
    ),
    (
        "a return of tokens not held",
        _full_hand,
        Take(toks("R W B"), toks("2Y")),
        "cannot return 2Y: the player would hold only 3W 3B 2G 3R 1K",
    ),
    (
        "a reserve of a card in a deck",
        _start,
        Reserve(card(30)),
        "cannot reserve card #30: it is not face up",
    ),
    (
        "a fourth reserve",
        _three_reserved,
        Reserve(card(1)),
        "a player may hold at most 3 reserved cards",
    ),
    (
        "a fourth blind reserve",
        _three_reserved,
        ReserveFromDeck(1),
        "a player may hold at most 3 reserved cards",
    ),
    (
        "a blind reserve of tier 4",
        _start,
        ReserveFromDeck(4),
        "there is no tier 4: the tiers are 1, 2 and 3",
    ),
    (
        "a blind reserve from an empty deck",
        lambda: with_deck(_start(), 2, ()),
        ReserveFromDeck(2),
        "the tier 2 deck is empty",
    ),
    (
        "a buy of a card in a deck",
        _start,
        Buy(card(30)),
        "cannot buy card #30: it is not face up nor reserved by this player",
    ),
    (
        "a buy beyond the tokens held",
        _start,
        Buy(card(1)),
        "cannot afford card #1: the price is 2R 1K and the player holds nothing",
    ),
    (
        "a payment of tokens not held",
        _start,
        Buy(card(1), toks("R")),
        "cannot pay 1R: the player holds nothing",
    ),
    (
        "a payment in the wrong colour",
        lambda: with_player(_start(), tokens=toks("3W 3B 3G 3R")),
        Buy(card(1), toks("3W")),
        "payment 3W does not match the price 2R 1K of card #1: pay each colour with at "
        "most its price, and gold for the rest",
    ),
    (
        "a pass with a take possible",
        _start,
        Pass(),
        "pass is legal only when no other action is: taking gems is possible",
    ),
    (
        "a pass with a blind reserve possible",
        _only_blind_reserves,
        Pass(),
        "pass is legal only when no other action is: reserving is possible",
    ),
    (
        "a noble not revealed",
        lambda: with_nobles(_start(), [noble(2)]),
        Take(toks("R W B"), noble=noble(1)),
        "noble N1 is not among the revealed nobles",
    ),
    (
        "a noble whose requirement is not met",
        _start,
        Take(toks("R W B"), noble=noble(8)),
        "noble N8 does not visit: the player's bonuses do not meet 4G 4R",
    ),
    (
        "no choice of two nobles",
        _two_nobles_qualify,
        Take(toks("R G B")),
        "several nobles qualify (N1, N2): choose one",
    ),
]


@pytest.mark.parametrize(
    ("before", "action", "message"),
    [(before, action, message) for _, before, action, message in _BAD_ACTIONS],
    ids=[name for name, _, _, _ in _BAD_ACTIONS],
)
def test_an_illegal_action_is_refused_with_the_reason(
    before: Callable[[], GameState], action: object, message: str
) -> None:
    state = before()
    with pytest.raises(IllegalActionError) as raised:
        apply(state, action)  # type: ignore[arg-type]  # some are built unchecked
    assert str(raised.value) == message


_WRONG_TYPES: list[tuple[str, Callable[[], object], object, str]] = [
    ("a state that is none", lambda: "state", Pass(), "expected a GameState, got str"),
    ("an action that is none", _start, "take", "expected an action, got 'take'"),
    (
        "gems that are no tokens",
        _start,
        unchecked(Take, {"red": 1}, Tokens(), None),
        "Take.gems must be Tokens, got {'red': 1}",
    ),
    (
        "returned tokens that are no tokens",
        _start,
        unchecked(Take, toks("R W B"), {"red": 1}, None),
        "returned must be Tokens, got {'red': 1}",
    ),
    (
        "a payment that is no tokens",
        _start,
        unchecked(Buy, card(1), {"red": 1}, None),
        "Buy.payment must be Tokens, got {'red': 1}",
    ),
    (
        "a reserve of something else",
        _start,
        unchecked(Reserve, "#1", Tokens(), None),
        "expected one of the game's cards to reserve, got '#1'",
    ),
    (
        "a buy of something else",
        _start,
        unchecked(Buy, 3, None, None),
        "expected one of the game's cards to buy, got 3",
    ),
    (
        "a blind reserve of a tier that is no int",
        _start,
        unchecked(ReserveFromDeck, "1", Tokens(), None),
        "ReserveFromDeck.tier must be an int, got '1'",
    ),
    (
        "a noble that is no noble",
        _start,
        unchecked(Take, toks("R W B"), Tokens(), "N1"),
        "an action's noble must be a Noble or None, got 'N1'",
    ),
]


@pytest.mark.parametrize(
    ("before", "action", "message"),
    [(before, action, message) for _, before, action, message in _WRONG_TYPES],
    ids=[name for name, _, _, _ in _WRONG_TYPES],
)
def test_apply_of_the_wrong_types_names_what_it_got(
    before: Callable[[], object], action: object, message: str
) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        apply(before(), action)  # type: ignore[arg-type]  # the wrong types, on purpose
    assert str(raised.value) == message


@pytest.mark.parametrize("short", GEMS, ids=[gem.value for gem in GEMS])
def test_a_payment_with_one_colour_more_than_held_is_refused(short: Gem) -> None:
    # The player holds the price but one token of a colour (white, when the
    # payment puts gold in its place); the payment matches the price but
    # spends one token of ``short`` more than the player holds.
    lacking = Gem.WHITE if short is Gem.GOLD else short
    buying = next(c for c in CARDS if c.tier == 1 and c.cost[lacking])
    held = buying.cost - Tokens.of(lacking)
    payment = held + Tokens.of(short)
    state = with_player(_start(), tokens=held, reserved=[buying])
    with pytest.raises(IllegalActionError) as raised:
        apply(state, Buy(buying, payment))
    assert str(raised.value) == f"cannot pay {payment}: the player holds {held or 'nothing'}"


@pytest.mark.parametrize(
    ("noble_id", "before"),
    [(2, "4W 3K"), (10, "4R 3K"), (8, "4G 3R"), (1, "3W 4B")],
    ids=["N2 white and black", "N10 red and black", "N8 green and red", "N1 white and blue"],
)
def test_the_noble_whose_bonuses_a_buy_completes_visits(noble_id: int, before: str) -> None:
    # End of turn (RULES.md): a player whose bonuses meet a revealed noble's
    # requirement receives it, whichever colours the requirement names.
    visiting = noble(noble_id)
    bonuses = toks(before)
    missing = next(g for g in GEMS if visiting.requirement[g] > bonuses[g])
    owned = bonus_cards(bonuses)
    buying = next(c for c in CARDS if c.tier == 1 and c.bonus is missing and c not in owned)
    state = with_nobles(_start(), [visiting])
    state = with_player(state, tokens=buying.cost, cards=owned, reserved=[buying])
    after = apply(state, Buy(buying))
    assert after.players[0].nobles == (visiting,)
    assert after.players[0].points == state.players[0].points + buying.points + 3
    assert after.nobles == ()


def test_no_turn_is_played_once_the_game_is_over() -> None:
    final = play_game([GreedyBot(), GreedyBot()], seed=1).final_state()
    assert final.is_over
    with pytest.raises(IllegalActionError) as raised:
        apply(final, Pass())
    assert str(raised.value) == "the game is over"
