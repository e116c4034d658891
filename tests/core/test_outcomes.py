"""Rules: every legal outcome listed exactly once (RULES.md, "Actions and outcomes").

Besides a few named cases, each test here compares :func:`legal_actions`
with a plain reading of the rules: every form an action type can express is
tried with :func:`apply`, which must accept exactly the forms the rules allow;
the outcomes of those must be exactly the outcomes of the listed actions, and
no two listed actions may share an outcome.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import pytest

from splendor import (
    GEMS,
    Action,
    Buy,
    Card,
    GameState,
    IllegalActionError,
    Reserve,
    ReserveFromDeck,
    Rules,
    Take,
    Tokens,
    apply,
    legal_actions,
)
from tests.builders import card, deal, toks, with_bank, with_deck, with_player, with_row

COLOURS = range(5)


def _within(most: Tokens, size: int) -> Iterator[Tokens]:
    """Every count at most ``most`` colour by colour, ``size`` tokens in all."""
    ranges = [range(min(n, size) + 1) for n in most.counts]
    for counts in itertools.product(*ranges):
        if sum(counts) == size:
            yield Tokens(*counts)


def _take_shapes() -> list[Tokens]:
    """Every 1-3 gems of different colours, every 2 of one colour, and some never legal."""
    shapes = [
        Tokens(*(1 if c in chosen else 0 for c in range(6)))
        for size in (1, 2, 3)
        for chosen in itertools.combinations(COLOURS, size)
    ]
    shapes += [Tokens(*(2 if c == colour else 0 for c in range(6))) for colour in COLOURS]
    return [*shapes, toks("Y"), toks("W B Y"), toks("2W B"), toks("W B G R")]


def _take_is_legal(state: GameState, gems: Tokens, returned: Tokens) -> bool:
    """The rules on taking gems and the token limit, read plainly."""
    bank = state.bank.counts
    counts = gems.counts
    available = sum(1 for c in COLOURS if bank[c] > 0)
    if counts[5]:
        return False
    if sorted(counts) == [0, 0, 0, 0, 0, 2]:
        colour = counts.index(2)
        if bank[colour] < 4:
            return False
    else:
        if any(n > 1 for n in counts) or not gems:
            return False
        if any(counts[c] and not bank[c] for c in COLOURS):
            return False
        if gems.total != min(3, available):
            return False
    held = state.player.tokens + gems
    excess = max(0, held.total - state.rules.token_limit)
    return returned.total == excess and returned <= held


def _outcome(state: GameState, action: Action) -> GameState | None:
    try:
        return apply(state, action)
    except IllegalActionError:
        return None


def _listed(state: GameState, kind: type) -> list[Action]:
    return [a for a in legal_actions(state) if type(a) is kind]


def _assert_distinct_outcomes(state: GameState, actions: Sequence[Action]) -> set[GameState]:
    outcomes = [apply(state, a) for a in actions]
    assert len(set(outcomes)) == len(outcomes), "two listed actions share an outcome"
    return set(outcomes)


TAKE_HOLDINGS = [
    ("nothing", "-", "4W 4B 4G 4R 4K 5Y", 10),
    ("9 tokens", "3W 3B 3G", "4W 4B 4G 4R 4K 5Y", 10),
    ("8 tokens", "4W 4B", "4W 4B 4G 4R 4K 5Y", 10),
    ("10 tokens", "2W 2B 2G 2R 2K", "4W 4B 4G 4R 4K 5Y", 10),
    ("10 with gold", "3W 3B 2G R Y", "4W 4B 4G 4R 4K 4Y", 10),
    ("9 with gold", "5W 4Y", "4W 4B 4G 4R 4K Y", 10),
    ("two colours left", "3W 3B 2R", "W 4K 5Y", 10),
    ("one colour left", "4B 4R 1Y", "4G 4Y", 10),
    ("supply of 3 and 4", "3W 3B 1R", "3W 4B 2G 5Y", 10),
    ("limit 4", "2W K", "4W 4B 4G 4R 4K 5Y", 4),
    ("limit 0", "-", "4W 4B 4G 4R 4K 5Y", 0),
]


@pytest.mark.parametrize(
    ("holding", "bank", "limit"),
    [row[1:] for row in TAKE_HOLDINGS],
    ids=[row[0] for row in TAKE_HOLDINGS],
)
def test_take_listed_outcomes_are_exactly_the_legal_outcomes(
    holding: str, bank: str, limit: int
) -> None:
    state = with_player(deal(4, rules=Rules(token_limit=limit)), tokens=toks(holding))
    state = with_bank(state, toks(bank))
    reachable: set[GameState] = set()
    for gems in _take_shapes():
        held = state.player.tokens + gems
        for size in range(4):
            for returned in _within(held, size):
                after = _outcome(state, Take(gems, returned))
                assert (after is not None) == _take_is_legal(state, gems, returned), (
                    f"take {gems}, return {returned}"
                )
                if after is not None:
                    reachable.add(after)
    listed = _assert_distinct_outcomes(state, _listed(state, Take))
    assert listed == reachable


def test_take_wgb_return_w_and_gbr_return_r_are_one_listed_outcome() -> None:
    """Take white, green, blue, return white = take green, blue, red, return red."""
    state = with_player(deal(4), tokens=toks("3K 3R 2W"))
    first = Take(toks("W G B"), returned=toks("W"))
    second = Take(toks("G B R"), returned=toks("R"))
    assert apply(state, first) == apply(state, second)
    same = [a for a in _listed(state, Take) if apply(state, a) == apply(state, first)]
    assert len(same) == 1


def test_take_two_returning_one_of_them_is_listed_once_with_a_single_take() -> None:
    state = with_player(deal(4), tokens=toks("3K 3R 3W"))
    double = Take(toks("2G"), returned=toks("G"))
    assert apply(state, double).players[0].tokens == toks("3K 3R 3W G")
    same = [a for a in _listed(state, Take) if apply(state, a) == apply(state, double)]
    assert len(same) == 1


def _payments(held: Tokens) -> Iterator[Tokens]:
    for counts in itertools.product(*(range(n + 1) for n in held.counts)):
        yield Tokens(*counts)


def _buy_is_legal(state: GameState, target: Card, payment: Tokens) -> bool:
    """The rules on paying, read plainly."""
    bonuses = state.player.bonuses
    price = [max(0, target.cost[g] - bonuses[g]) for g in GEMS[:5]]
    paid = payment.counts
    if not payment <= state.player.tokens:
        return False
    if any(paid[c] > price[c] for c in COLOURS):
        return False
    return paid[5] == sum(price) - sum(paid[:5])


BUY_HOLDINGS = [
    ("no gold", "3W 2B 2G 2R 1K", ()),
    ("gold", "2W 1B 2R 1K 2Y", ()),
    ("much gold", "1W 1R 1K 4Y", ()),
    ("bonuses", "2W 2R 2Y", (2, 9, 17, 26)),
]


@pytest.mark.parametrize(
    ("holding", "bought"), [row[1:] for row in BUY_HOLDINGS], ids=[row[0] for row in BUY_HOLDINGS]
)
def test_buy_listed_outcomes_are_exactly_the_legal_outcomes(
    holding: str, bought: tuple[int, ...]
) -> None:
    state = with_player(
        deal(4), tokens=toks(holding), cards=[card(i) for i in bought], reserved=[card(25)]
    )
    state = with_row(state, 1, (card(1), card(6), card(23), card(31)))
    targets = [c for row in state.board for c in row if c is not None] + [card(25)]
    reachable: set[GameState] = set()
    for target in targets:
        for payment in _payments(state.player.tokens):
            after = _outcome(state, Buy(target, payment))
            assert (after is not None) == _buy_is_legal(state, target, payment), (
                f"buy #{target.id}, pay {payment}"
            )
            if after is not None:
                reachable.add(after)
    listed = _assert_distinct_outcomes(state, _listed(state, Buy))
    assert listed == reachable
    assert reachable


RESERVE_HOLDINGS = [
    ("8 tokens", "4W 4B", "5Y"),
    ("10 tokens", "3W 3B 2G 1R 1Y", "4Y"),
    ("10 tokens no gold left", "3W 3B 2G 1R 1Y", "-"),
    ("9 tokens", "3W 3B 2G 1R", "5Y"),
]


@pytest.mark.parametrize(
    ("holding", "bank"),
    [row[1:] for row in RESERVE_HOLDINGS],
    ids=[row[0] for row in RESERVE_HOLDINGS],
)
def test_reserve_listed_outcomes_are_exactly_the_legal_outcomes(holding: str, bank: str) -> None:
    state = with_player(deal(4), tokens=toks(holding))
    state = with_deck(with_bank(state, toks(bank)), 3, ())
    gold = 1 if state.bank[GEMS[5]] else 0
    held = state.player.tokens + Tokens(gold=gold)
    excess = max(0, held.total - 10)
    reachable: set[GameState] = set()
    blind_reachable: set[GameState] = set()
    targets = [c for row in state.board for c in row if c is not None]
    for size in range(3):
        for returned in _within(held, size):
            legal = size == excess
            for target in targets:
                after = _outcome(state, Reserve(target, returned))
                assert (after is not None) == legal, f"reserve #{target.id}, return {returned}"
                if after is not None:
                    reachable.add(after)
            for tier in (1, 2, 3):
                after = _outcome(state, ReserveFromDeck(tier, returned))
                assert (after is not None) == (legal and tier != 3)
                if after is not None:
                    blind_reachable.add(after)
    assert _assert_distinct_outcomes(state, _listed(state, Reserve)) == reachable
    assert _assert_distinct_outcomes(state, _listed(state, ReserveFromDeck)) == blind_reachable


def test_all_listed_actions_of_a_state_lead_to_distinct_states() -> None:
    state = with_player(deal(4), tokens=toks("3W 2B 2G 1R 1K 1Y"), reserved=[card(25)])
    actions = [a for a in legal_actions(state) if not isinstance(a, ReserveFromDeck)]
    assert len(actions) > 50
    _assert_distinct_outcomes(state, actions)
