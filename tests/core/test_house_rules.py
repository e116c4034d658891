"""Rules under house rules, and the noble choices and ends the other rule tests leave open.

Most tests here pin a rule under a house-rule setting (a token limit other
than 10, a reserve limit of 0, a points target of 1, scarce supplies) or a
noble choice the other files do not reach (RULES.md's decided points). The
outcome tests compare
:func:`legal_actions` and :func:`apply` with a plain reading of the rules
written here, sharing no code with the engine's listing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import attrs
import pytest

from splendor import (
    GEMS,
    Action,
    Buy,
    Card,
    GameState,
    IllegalActionError,
    Noble,
    Pass,
    Reserve,
    ReserveFromDeck,
    Rules,
    Take,
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
    with_deck,
    with_nobles,
    with_player,
    with_row,
    with_turn,
)

COLOURS = range(5)
N1, N2, N3, N6 = noble(1), noble(2), noble(3), noble(6)  # 4W4B, 4W4K, 3W3B3G, 4B4G
BLUE = card(9)  # tier 1, blue bonus, costs 3 black
GREEN = card(17)  # tier 1, green bonus, costs 3 red
CHEAP = card(1)  # tier 1, costs 2 red and 1 black


# A plain reading of the rules: which forms are legal, and every form to try.


def _within(most: Tokens, size: int) -> Iterator[Tokens]:
    """Every count at most ``most`` colour by colour, ``size`` tokens in all."""
    for counts in itertools.product(*(range(min(n, size) + 1) for n in most.counts)):
        if sum(counts) == size:
            yield Tokens(*counts)


def _returns(state: GameState, held: Tokens) -> Iterator[Tokens]:
    """Every return of exactly the excess over the limit, and some one token off it."""
    excess = max(0, held.total - state.rules.token_limit)
    for size in {excess, excess + 1, max(0, excess - 1)}:
        yield from _within(held, size)


def _return_is_legal(state: GameState, held: Tokens, returned: Tokens) -> bool:
    excess = max(0, held.total - state.rules.token_limit)
    return returned.total == excess and returned <= held


def _take_is_legal(state: GameState, action: Take) -> bool:
    bank = state.bank.counts
    gems = action.gems.counts
    if gems[5] or not action.gems:
        return False
    if max(gems) == 2 and action.gems.total == 2:
        if bank[gems.index(2)] < 4:
            return False
    else:
        available = sum(1 for c in COLOURS if bank[c])
        if max(gems) > 1 or any(gems[c] and not bank[c] for c in COLOURS):
            return False
        if action.gems.total != min(3, available):
            return False
    return _return_is_legal(state, state.player.tokens + action.gems, action.returned)


def _gold_on_reserve(state: GameState) -> Tokens:
    return Tokens(gold=1) if state.bank[GEMS[5]] else Tokens()


def _reserve_is_legal(state: GameState, action: Reserve | ReserveFromDeck) -> bool:
    if len(state.player.reserved) >= state.rules.reserve_limit:
        return False
    if isinstance(action, Reserve):
        if not any(action.card in row for row in state.board):
            return False
    elif not state.deck(action.tier):
        return False
    held = state.player.tokens + _gold_on_reserve(state)
    return _return_is_legal(state, held, action.returned)


def _price(state: GameState, target: Card) -> list[int]:
    bonuses = state.player.bonuses
    return [max(0, target.cost[g] - bonuses[g]) for g in GEMS[:5]]


def _buy_is_legal(state: GameState, action: Buy) -> bool:
    target = action.card
    if target not in state.player.reserved and not any(target in row for row in state.board):
        return False
    assert action.payment is not None
    price = _price(state, target)
    paid = action.payment.counts
    if not action.payment <= state.player.tokens:
        return False
    if any(paid[c] > price[c] for c in COLOURS):
        return False
    return paid[5] == sum(price) - sum(paid[:5])


def _main_forms(state: GameState) -> Iterator[Action]:
    """Every take, reserve and buy worth trying, without a noble."""
    shapes = [
        Tokens(*(1 if c in chosen else 0 for c in range(6)))
        for size in (1, 2, 3)
        for chosen in itertools.combinations(COLOURS, size)
    ]
    shapes += [Tokens(*(2 if c == colour else 0 for c in range(6))) for colour in COLOURS]
    for gems in shapes:
        for returned in _returns(state, state.player.tokens + gems):
            yield Take(gems, returned)
    held = state.player.tokens + _gold_on_reserve(state)
    for returned in _returns(state, held):
        for row in state.board:
            yield from (Reserve(c, returned) for c in row if c is not None)
        yield from (ReserveFromDeck(tier, returned) for tier in (1, 2, 3))
    targets = [c for row in state.board for c in row if c is not None]
    for target in (*targets, *state.player.reserved):
        price = _price(state, target)
        held_counts = state.player.tokens.counts
        ranges = [range(min(held_counts[c], price[c]) + 1) for c in COLOURS]
        for paid in itertools.product(*ranges):
            gold = sum(price) - sum(paid)
            if 0 <= gold <= held_counts[5]:
                yield Buy(target, Tokens(*[*paid, gold]))
        if sum(price) <= state.player.tokens.total:
            yield Buy(target, Tokens(*[*price, 1]))  # one token too many


def _main_is_legal(state: GameState, action: Action) -> bool:
    if isinstance(action, Take):
        return _take_is_legal(state, action)
    if isinstance(action, Reserve | ReserveFromDeck):
        return _reserve_is_legal(state, action)
    assert isinstance(action, Buy)
    return _buy_is_legal(state, action)


def _qualifying(state: GameState, action: Action) -> list[Noble]:
    bonuses = state.player.bonuses
    if isinstance(action, Buy):
        bonuses = bonuses + Tokens.of(action.card.bonus)
    return [n for n in state.nobles if n.requirement <= bonuses]


def _noble_forms(state: GameState) -> list[Noble | None]:
    unrevealed = [n for n in (N1, N2, N3, N6) if n not in state.nobles][:1]
    return [None, *state.nobles, *unrevealed]


def _noble_is_legal(qualifying: list[Noble], choice: Noble | None) -> bool:
    if choice is None:
        return len(qualifying) <= 1
    return choice in qualifying


def _with_noble(action: Action, choice: Noble | None) -> Action:
    if isinstance(action, Take):
        return Take(action.gems, action.returned, choice)
    if isinstance(action, Reserve):
        return Reserve(action.card, action.returned, choice)
    if isinstance(action, ReserveFromDeck):
        return ReserveFromDeck(action.tier, action.returned, choice)
    if isinstance(action, Buy):
        return Buy(action.card, action.payment, choice)
    return Pass(choice)


def _check_outcomes(state: GameState) -> None:
    """apply accepts exactly the legal forms; the listing reaches their outcomes, each once."""
    reachable: set[GameState] = set()
    any_main = False
    seat = state.current_player
    mains: list[Action] = list(_main_forms(state))
    for main in [*mains, Pass()]:
        if isinstance(main, Pass):
            main_legal = not any_main
        else:
            main_legal = _main_is_legal(state, main)
            any_main = any_main or main_legal
        qualifying = _qualifying(state, main)
        for choice in _noble_forms(state):
            action = _with_noble(main, choice)
            legal = main_legal and _noble_is_legal(qualifying, choice)
            try:
                after = apply(state, action)
            except IllegalActionError:
                assert not legal, f"legal {action} was rejected"
                continue
            assert legal, f"illegal {action} was accepted"
            received = set(after.players[seat].nobles) - set(state.player.nobles)
            assert len(received) == (1 if qualifying else 0), str(action)
            if choice is not None:
                assert received == {choice}
            reachable.add(after)
    listed = legal_actions(state)
    outcomes = [apply(state, a) for a in listed]
    assert len(set(outcomes)) == len(outcomes), "two listed actions share an outcome"
    assert set(outcomes) == reachable
    assert reachable


def _state_limit_0() -> GameState:
    """Token limit 0: every take is undone, a reserve gives its gold back."""
    return deal(2, rules=Rules(token_limit=0))


def _state_limit_1() -> GameState:
    """Token limit 1 holding one gold; 1 or 2 tokens of three colours left."""
    state = with_player(deal(2, rules=Rules(token_limit=1)), tokens=toks("Y"))
    return with_bank(state, toks("W B 2G 2Y"))


def _state_limit_2_two_colours() -> GameState:
    """Token limit 2, 2 of each colour at setup, no gold; two colours left."""
    rules = Rules(gems_by_players=(2, 2, 2), gold_by_players=(0, 0, 0), token_limit=2)
    state = with_player(deal(3, rules=rules), tokens=toks("W R"))
    return with_bank(state, toks("2B K"))


def _state_limit_3_blind() -> GameState:
    """Token limit 3, reserve limit 1 (full, with a blind reserve), gold to pay with."""
    state = deal(2, rules=Rules(token_limit=3, reserve_limit=1))
    return with_player(state, tokens=toks("R K Y"), reserved=[CHEAP], blind=[True])


def _state_two_nobles_at_the_limit() -> GameState:
    """Two nobles qualify before the turn; 10 tokens with gold, gold left to reserve."""
    state = deal(2)
    cards = bonus_cards(toks("4W 4B 3G"), skip=[BLUE, GREEN])
    state = with_player(state, tokens=toks("3R 3K 2W 1B 1Y"), cards=cards)
    state = with_row(state, 1, (BLUE, GREEN, *state.face_up(1)[2:]))
    state = with_nobles(state, [N1, N3, N6])
    return with_bank(state, toks("4W 4B 4G 4R 2K 2Y"))


def _state_reserve_limit_0_points_1() -> GameState:
    """Reserve limit 0 and 1 point to win; a buy meets a 4-4 noble from 7 bonuses."""
    state = deal(2, rules=Rules(reserve_limit=0, points_to_win=1))
    cards = bonus_cards(toks("4W 3B"), skip=[BLUE])
    state = with_player(state, tokens=toks("2K 1Y"), cards=cards)
    state = with_row(state, 1, (BLUE, *state.face_up(1)[1:]))
    return with_nobles(state, [N1, N2, N6])


def _state_empty_deck_no_gold() -> GameState:
    """At 10 tokens with no gold in the supply and an empty tier 2 deck."""
    state = with_player(deal(4), tokens=toks("3W 3B 2G 1R 1Y"))
    return with_deck(with_bank(state, toks("4W 4B 5G 6R 7K")), 2, ())


OUTCOME_STATES = {
    "token limit 0": _state_limit_0,
    "token limit 1 with gold": _state_limit_1,
    "token limit 2, two colours left": _state_limit_2_two_colours,
    "token limit 3, blind reserve to buy": _state_limit_3_blind,
    "two nobles qualify at the limit": _state_two_nobles_at_the_limit,
    "reserve limit 0, one point to win": _state_reserve_limit_0_points_1,
    "no gold left, empty deck": _state_empty_deck_no_gold,
}


@pytest.mark.parametrize("build", OUTCOME_STATES.values(), ids=OUTCOME_STATES.keys())
def test_outcomes_listed_exactly_once_under_house_rules(build: Callable[[], GameState]) -> None:
    _check_outcomes(build())


def _stuck_with_two_nobles() -> GameState:
    """Only a pass is left to player 0, whose bonuses meet N1 and N3 (not N6)."""
    state = deadlocked(2)
    state = with_player(state, tokens=Tokens(), cards=bonus_cards(toks("4W 4B 3G")))
    state = with_bank(state, toks("5Y"))
    empty = tuple((None,) * 4 for _ in range(3))
    state = attrs.evolve(state, board=empty, decks=((), (), ()))
    return with_nobles(state, [N6, N3, N1])


def test_outcomes_of_a_deadlock_with_two_nobles_are_two_passes() -> None:
    state = _stuck_with_two_nobles()
    assert set(legal_actions(state)) == {Pass(N1), Pass(N3)}
    _check_outcomes(state)


# The token limit as a house rule applies to the gold of a reserve.


def test_token_limit_house_rule_applies_to_reserve_gold() -> None:
    state = with_player(deal(2, rules=Rules(token_limit=4)), tokens=toks("2W 2B"))
    target = state.face_up(1)[0]
    assert target is not None
    with pytest.raises(IllegalActionError, match="exactly 1 token"):
        apply(state, Reserve(target))
    after = apply(state, Reserve(target, returned=toks("W")))
    assert after.players[0].tokens == toks("W 2B Y")
    assert after.players[0].reserved == (target,)
    assert after.bank == state.bank - toks("Y") + toks("W")
    listed = {
        a.returned for a in legal_actions(state) if isinstance(a, Reserve) and a.card is target
    }
    assert listed == {toks("W"), toks("B"), toks("Y")}


def test_token_limit_zero_a_reserve_gives_its_gold_back() -> None:
    state = deal(2, rules=Rules(token_limit=0))
    target = state.face_up(2)[1]
    assert target is not None
    listed = [a for a in legal_actions(state) if isinstance(a, Reserve) and a.card is target]
    assert listed == [Reserve(target, returned=toks("Y"))]
    after = apply(state, ReserveFromDeck(3, returned=toks("Y")))
    assert after.players[0].tokens == Tokens()
    assert after.bank == state.bank
    assert after.players[0].reserved_blind == (True,)


def test_token_limit_house_rule_takes_end_exactly_at_the_limit() -> None:
    state = _state_limit_1()
    takes = [a for a in legal_actions(state) if isinstance(a, Take)]
    assert takes
    for action in takes:
        assert (state.player.tokens + action.gems - action.returned).total == 1
    kept = {state.player.tokens + a.gems - a.returned for a in takes}
    assert kept == {toks("Y"), toks("W"), toks("B"), toks("G")}


# Nobles: the listing names the noble, and every choice when several qualify.


def test_noble_reached_by_a_buy_at_the_smallest_requirement_is_named() -> None:
    state = _state_reserve_limit_0_points_1()
    assert state.player.bonuses.total == 7
    buys = [a for a in legal_actions(state) if isinstance(a, Buy) and a.card is BLUE]
    assert buys
    assert all(a.noble is N1 for a in buys)
    after = apply(state, buys[0])
    assert after.players[0].nobles == (N1,)


def test_noble_choice_when_several_qualify_is_offered_on_every_take_and_reserve() -> None:
    state = _state_two_nobles_at_the_limit()
    listed = legal_actions(state)
    for kind in (Take, Reserve, ReserveFromDeck):
        actions = [a for a in listed if isinstance(a, kind)]
        assert actions
        plain = {_with_noble(a, None) for a in actions}
        assert {(a, n) for a in plain for n in (N1, N3)} == {
            (_with_noble(a, None), a.noble) for a in actions
        }
    with pytest.raises(IllegalActionError, match="choose one"):
        apply(state, Take(toks("W B G"), returned=toks("3R")))
    after = apply(state, Take(toks("W B G"), returned=toks("3R"), noble=N3))
    assert after.players[0].nobles == (N3,)
    assert after.nobles == (N1, N6)


def test_noble_choice_when_several_qualify_on_a_pass() -> None:
    state = _stuck_with_two_nobles()
    assert legal_actions(state) == (Pass(N3), Pass(N1))
    with pytest.raises(IllegalActionError, match="choose one"):
        apply(state, Pass())
    after = apply(state, Pass(N1))
    assert after.players[0].nobles == (N1,)
    assert after.nobles == (N6, N3)
    assert after.passes == 1


# End of game.


def test_end_points_to_win_one_plays_the_round_out() -> None:
    state = _state_reserve_limit_0_points_1()
    state = apply(state, Buy(BLUE))
    assert state.players[0].points == 3
    assert not state.is_over
    assert state.current_player == 1
    state = apply(state, Take(toks("W B G")))
    assert state.winners == (0,)


def test_end_a_deadlocked_game_is_over_with_no_legal_actions() -> None:
    state = deadlocked(2)
    state = apply(apply(state, Pass()), Pass())
    assert state.is_over
    assert legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        apply(state, Pass())


def test_end_passes_beginning_mid_round_with_two_players() -> None:
    state = with_turn(deadlocked(2), 1)
    state = apply(state, Pass())
    assert (state.current_player, state.passes, state.is_over) == (0, 1, False)
    state = apply(state, Pass())
    assert not state.is_over
    state = apply(state, Pass())
    assert state.is_over
    assert state.winners == (0, 1)
