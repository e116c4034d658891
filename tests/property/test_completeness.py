"""legal_actions against a naive enumeration of the rulebook's choices.

The enumeration below is written from RULES.md alone: every gem take, every
way to return exactly the excess, every reserve, every payment, every noble
choice. It shares no code with the engine's listing. From sampled states of
random games it checks that:

* every enumerated action is accepted by ``apply``;
* the enumerated actions and the listed actions reach the same set of states;
* actions just outside the enumeration (one token too many or too few
  returned, taken or paid, gold taken, the wrong noble, ...) are rejected.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import event, given

from splendor import (
    GEMS,
    NOBLES,
    Action,
    Buy,
    Card,
    GameState,
    IllegalActionError,
    Noble,
    Pass,
    Reserve,
    ReserveFromDeck,
    Take,
    Tokens,
    apply,
    legal_actions,
)
from tests.strategies import RandomGame, random_games

Counts = tuple[int, ...]
MainAction = Take | Reserve | ReserveFromDeck | Buy | Pass

# States checked per game (the last one and others spread along the game).
STATES_PER_GAME = 6
# Enumerated actions whose near misses are tried, per state.
NEAR_MISS_SAMPLE = 8


def _vectors(held: Counts, size: int) -> Iterator[Counts]:
    """Every count vector within ``held``, colour by colour, adding to ``size``."""
    for picked in itertools.product(*(range(min(h, size) + 1) for h in held)):
        if sum(picked) == size:
            yield picked


def _returns(held: Counts, limit: int) -> list[Tokens]:
    """Every way to give back exactly the tokens over ``limit``."""
    excess = sum(held) - limit
    if excess <= 0:
        return [Tokens()]
    return [Tokens(*r) for r in _vectors(held, excess)]


def _plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _qualifying(nobles: tuple[Noble, ...], bonuses: Counts) -> list[Noble]:
    return [n for n in nobles if all(n.requirement.counts[c] <= bonuses[c] for c in range(5))]


def _main_actions(state: GameState) -> list[MainAction]:
    """Every main move with its returns and payment, without the noble."""
    rules = state.rules
    player = state.player
    held = player.tokens.counts
    bank = state.bank.counts
    limit = rules.token_limit
    found: list[MainAction] = []

    in_supply = [c for c in range(5) if bank[c] > 0]
    takes: list[Counts] = []
    if in_supply:
        for colours in itertools.combinations(in_supply, min(3, len(in_supply))):
            takes.append(tuple(1 if c in colours else 0 for c in range(6)))
    takes += [tuple(2 if c == colour else 0 for c in range(6)) for colour in range(5)]
    for gems in takes:
        if max(gems) == 2 and bank[gems.index(2)] < 4:
            continue
        for returned in _returns(_plus(held, gems), limit):
            found.append(Take(Tokens(*gems), returned))

    if len(player.reserved) < rules.reserve_limit:
        gold = (0, 0, 0, 0, 0, 1 if bank[5] > 0 else 0)
        returns = _returns(_plus(held, gold), limit)
        for row in state.board:
            for card in row:
                if card is not None:
                    found += [Reserve(card, returned) for returned in returns]
        for tier in (1, 2, 3):
            if state.deck(tier):
                found += [ReserveFromDeck(tier, returned) for returned in returns]

    buyable: list[Card] = [card for row in state.board for card in row if card is not None]
    buyable += player.reserved
    for card in buyable:
        price = [max(0, card.cost.counts[c] - player.bonuses.counts[c]) for c in range(5)]
        for paid in itertools.product(*(range(min(price[c], held[c]) + 1) for c in range(5))):
            gold_paid = sum(price) - sum(paid)
            if gold_paid <= held[5]:
                found.append(Buy(card, Tokens(*paid) + Tokens(gold=gold_paid)))

    if not found:
        found.append(Pass())
    return found


def _bonuses_after(state: GameState, action: MainAction) -> Counts:
    bonuses = state.player.bonuses.counts
    if isinstance(action, Buy):
        colour = GEMS.index(action.card.bonus)
        return tuple(n + (c == colour) for c, n in enumerate(bonuses))
    return bonuses


def brute_force(state: GameState) -> tuple[set[Action], set[Action]]:
    """The legal actions in their full form, and every other form ``apply`` accepts.

    The full form names the payment and the noble received. ``apply`` also
    accepts a buy without a payment (paid coloured tokens first) and an
    action without a noble when exactly one qualifies.
    """
    if state.is_over:
        return set(), set()
    full: set[Action] = set()
    forms: set[Action] = set()
    for main in _main_actions(state):
        qualifying = _qualifying(state.nobles, _bonuses_after(state, main))
        variants: list[MainAction] = [main]
        if isinstance(main, Buy):
            assert main.payment is not None
            if _is_default_payment(state, main.card, main.payment):
                variants.append(attrs.evolve(main, payment=None))
        if qualifying:
            full.update(attrs.evolve(main, noble=noble) for noble in qualifying)
            for variant in variants:
                forms.update(attrs.evolve(variant, noble=noble) for noble in qualifying)
                if len(qualifying) == 1:
                    forms.add(variant)
        else:
            full.add(main)
            forms.update(variants)
    return full, forms


def _is_default_payment(state: GameState, card: Card, payment: Tokens) -> bool:
    """Coloured tokens as far as they go, gold for the rest."""
    held = state.player.tokens.counts
    price = [max(0, card.cost.counts[c] - state.player.bonuses.counts[c]) for c in range(5)]
    coloured = [min(price[c], held[c]) for c in range(5)]
    return payment.counts == (*coloured, sum(price) - sum(coloured))


def _situations(state: GameState, full: set[Action]) -> list[str]:
    """What a state exercises, for ``--hypothesis-show-statistics``."""
    found = []
    if any(getattr(action, "returned", None) for action in full):
        found.append("tokens returned")
    if any(isinstance(a, Reserve | ReserveFromDeck) and a.returned for a in full):
        found.append("reserve with a return")
    if any(isinstance(a, Take) and a.gems.total < 3 and max(a.gems.counts) == 1 for a in full):
        found.append("take of fewer than 3 colours")
    if any(isinstance(a, Pass) for a in full):
        found.append("pass")
    if any(isinstance(a, Buy) and a.payment and a.payment.counts[5] for a in full):
        found.append("gold payment")
    if any(isinstance(a, Buy) and a.card in state.player.reserved for a in full):
        found.append("buy from reserve")
    nobles = [a.noble for a in full if a.noble is not None]
    if nobles:
        found.append("noble received")
    if len(set(nobles)) > 1:
        found.append("noble choice")
    if any(not isinstance(a, Buy) and a.noble is not None for a in full):
        found.append("noble without a buy")
    return found


def _sampled_states(game: RandomGame) -> list[GameState]:
    states = [s for s in game.states() if not s.is_over]
    if not states:
        return []
    picked = random.Random(game.play_seed).sample(states, min(STATES_PER_GAME - 1, len(states)))
    return [*picked, states[-1]]


@given(random_games())
def test_legal_actions_reach_exactly_the_outcomes_of_the_rulebook(game: RandomGame) -> None:
    for state in _sampled_states(game):
        full, forms = brute_force(state)
        outcomes = {apply(state, action) for action in full}
        listed = {apply(state, action) for action in legal_actions(state)}
        assert listed == outcomes
        for label in _situations(state, full):
            event(label)
        for form in forms - full:
            assert apply(state, form) in outcomes


def _shifted(tokens: Tokens) -> Iterator[Tokens]:
    """The token counts one more or one fewer of a single colour."""
    counts = tokens.counts
    for colour in range(6):
        for step in (-1, 1):
            changed = list(counts)
            changed[colour] += step
            if changed[colour] >= 0:
                yield Tokens(*changed)


def _near_misses(state: GameState, action: Action) -> Iterator[Action]:
    """Actions one step away from ``action``."""
    if isinstance(action, Take | Reserve | ReserveFromDeck):
        for returned in _shifted(action.returned):
            yield attrs.evolve(action, returned=returned)
    if isinstance(action, Take):
        for gems in _shifted(action.gems):
            yield attrs.evolve(action, gems=gems)
        yield attrs.evolve(action, gems=action.gems + Tokens(gold=1))
    if isinstance(action, ReserveFromDeck):
        for tier in (action.tier - 1, action.tier + 1):
            yield attrs.evolve(action, tier=tier)
    if isinstance(action, Buy) and action.payment is not None:
        for payment in _shifted(action.payment):
            yield attrs.evolve(action, payment=payment)
    if isinstance(action, Reserve | Buy):
        deck = state.deck(action.card.tier)
        if deck:
            yield attrs.evolve(action, card=deck[0])
    # Every revealed noble, and one that is not (received or out of the game).
    hidden = [noble for noble in NOBLES if noble not in state.nobles][:1]
    for noble in (None, *state.nobles, *hidden):
        yield attrs.evolve(action, noble=noble)


def _candidates(state: GameState) -> Iterator[Action]:
    """One action of every kind and target, legal here or not.

    Each comes with a return that fits the token limit (when it is needed),
    so that whether it is accepted turns on the move itself: a take of every
    set of colours, a reserve of every face-up card and of every deck, a buy
    (default payment) of every face-up and reserved card, a pass.
    """
    held = state.player.tokens.counts
    limit = state.rules.token_limit
    gem_sets = [
        tuple(1 if c in colours else 0 for c in range(6))
        for size in (1, 2, 3)
        for colours in itertools.combinations(range(5), size)
    ]
    gem_sets += [tuple(2 if c == colour else 0 for c in range(6)) for colour in range(5)]
    for gems in gem_sets:
        yield Take(Tokens(*gems), _returns(_plus(held, gems), limit)[0])
    gold = (0, 0, 0, 0, 0, 1 if state.bank.counts[5] else 0)
    returned = _returns(_plus(held, gold), limit)[0]
    for row in state.board:
        for card in row:
            if card is not None:
                yield Reserve(card, returned)
                yield Buy(card)
    for tier in (1, 2, 3):
        yield ReserveFromDeck(tier, returned)
    for card in state.player.reserved:
        yield Buy(card)
    yield Pass()


@given(random_games())
def test_apply_accepts_every_rulebook_action_and_rejects_near_misses(game: RandomGame) -> None:
    rng = random.Random(game.seed)
    for state in _sampled_states(game):
        # Every form itself is applied by the test above.
        full, forms = brute_force(state)
        ordered = sorted(full, key=str)
        tried = [*rng.sample(ordered, min(NEAR_MISS_SAMPLE, len(ordered))), Pass()]
        misses = [miss for action in tried for miss in _near_misses(state, action)]
        for miss in [*misses, *_candidates(state)]:
            if miss in forms:
                apply(state, miss)
            else:
                with pytest.raises(IllegalActionError):
                    apply(state, miss)
