"""The built-in bots' heuristics: how far a seat is from a card, and GreedyBot's choice.

:func:`greedy_action` is the choice :class:`~splendor.GreedyBot` makes on a
turn it plays by its heuristic, with the weights defined here; the compiled
kernel reads the same weights from this module when it is imported, and plays
the same choice in C. :func:`shortfall`, :data:`CARD_FACTS` and
:data:`NOBLE_NEEDS` are the measures of reach that GreedyBot, the
information-set searches and their evaluations share.

Importing this module loads the engine only, never the compiled kernel.

>>> import random
>>> from splendor import legal_actions, new_game, view
>>> state = new_game(2, seed=1)
>>> print(greedy_action(view(state, 0), legal_actions(state), random.Random(0)))
take 1W 1G 1K
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from splendor.core.actions import Action, Buy, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS, NOBLES, Card, Noble
from splendor.core.gems import GEM_INDEX
from splendor.core.views import PlayerView
from splendor.errors import InvalidArgumentError

__all__ = [
    "BUY_DEMAND",
    "BUY_GOLD",
    "BUY_PAID",
    "BUY_POINTS",
    "BUY_PULL",
    "CARD_FACTS",
    "GREEDY_WEIGHT_NAMES",
    "NOBLE_NEEDS",
    "TAKE_REST",
    "TAKE_TARGET",
    "TARGET_POINTS",
    "greedy_action",
    "shortfall",
]

#: Per card: (cost of each of the five colours, bonus colour index, points, tier).
CARD_FACTS: Final[dict[Card, tuple[tuple[int, ...], int, int, int]]] = {
    card: (card.cost.counts[:5], GEM_INDEX[card.bonus], card.points, card.tier) for card in CARDS
}
#: Per noble: the bonuses of each of the five colours it requires.
NOBLE_NEEDS: Final[dict[Noble, tuple[int, ...]]] = {
    noble: noble.requirement.counts[:5] for noble in NOBLES
}


def shortfall(need: Sequence[int], held: Sequence[int]) -> int:
    """The tokens still missing to pay ``need`` with ``held``, gold (index 5) standing in.

    ``need`` holds the five gem colours a card still costs after the bonuses,
    ``held`` the six counts of tokens in hand.

    >>> shortfall((2, 0, 1, 0, 0), (1, 0, 0, 0, 3, 1))
    1
    """
    short = 0
    for d in (
        need[0] - held[0],
        need[1] - held[1],
        need[2] - held[2],
        need[3] - held[3],
        need[4] - held[4],
    ):
        if d > 0:
            short += d
    gold = held[5]
    return short - gold if short > gold else 0


# GreedyBot's weights: the compiled kernel reads them when it is imported.
#: A buy: worth this per point it brings (its card's and its noble's).
BUY_POINTS: Final = 10.0
#: A buy: worth this per unit of noble pull of its bonus colour.
BUY_PULL: Final = 3.0
#: A buy: worth this per card in view that still needs its bonus colour.
BUY_DEMAND: Final = 0.5
#: A buy: worth this less per gold token it pays.
BUY_GOLD: Final = 2.0
#: A buy: worth this less per token it pays.
BUY_PAID: Final = 0.1
#: A target: this many fewer missing tokens per point it brings.
TARGET_POINTS: Final = 0.5
#: A take: worth this less per token the target still misses after it.
TAKE_TARGET: Final = 10.0
#: A take: worth this less per token the other cards still miss after it.
TAKE_REST: Final = 0.1
#: The names of GreedyBot's weights in this module.
GREEDY_WEIGHT_NAMES: Final = (
    "BUY_POINTS",
    "BUY_PULL",
    "BUY_DEMAND",
    "BUY_GOLD",
    "BUY_PAID",
    "TARGET_POINTS",
    "TAKE_TARGET",
    "TAKE_REST",
)

_Counts = tuple[int, ...]
_A = TypeVar("_A", Take, Buy)


def greedy_action(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
    """The action :class:`~splendor.GreedyBot` plays by its heuristic (see there).

    ``actions`` are the legal actions of the view's seat, in the order of
    :func:`splendor.legal_actions`; ties are broken with ``rng``. A single
    action is played without drawing.

    Raises:
        InvalidArgumentError: for a spectator's view (it has no holdings).
    """
    me = view.own
    if me is None:
        raise InvalidArgumentError("GreedyBot needs a seat's view, not a spectator's")
    if len(actions) == 1:
        return actions[0]
    bonus = me.bonuses.counts
    pull = _noble_pull(view.nobles, bonus)
    cards = [card for row in view.board for card in row if card is not None]
    cards += me.reserved
    needs = [_need(card, bonus) for card in cards]

    buys = [a for a in actions if isinstance(a, Buy)]
    if buys:
        demand = [0] * 5
        for need in needs:
            for c in range(5):
                if need[c]:
                    demand[c] += 1
        return _best(buys, lambda a: _buy_value(a, pull, demand), rng)

    if not cards:
        # No card left anywhere to aim at: only rules that let a game
        # outlast its cards come here.
        return actions[0]
    held = me.tokens.counts
    # The target: the least missing tokens, a little less for points and nobles.
    ranks = [
        shortfall(need, held) - TARGET_POINTS * card.points - pull[GEM_INDEX[card.bonus]]
        for card, need in zip(cards, needs, strict=True)
    ]
    lowest = min(ranks)
    target = rng.choice([i for i, r in enumerate(ranks) if r == lowest])
    target_need = needs[target]

    def value(action: Take) -> float:
        after = _after(held, action.gems.counts, action.returned.counts)
        rest = sum(shortfall(need, after) for need in needs)
        return -TAKE_TARGET * shortfall(target_need, after) - TAKE_REST * rest

    takes = [a for a in actions if isinstance(a, Take)]
    best_take = _best(takes, value, rng) if takes else None
    if best_take is not None and shortfall(
        target_need, _after(held, best_take.gems.counts, best_take.returned.counts)
    ) < shortfall(target_need, held):
        return best_take
    reserve = _reserve_of(actions, cards[target])
    if reserve is not None:
        return reserve
    if best_take is not None:
        return best_take
    reserves = [a for a in actions if isinstance(a, Reserve | ReserveFromDeck)]
    if reserves:
        return reserves[rng.randrange(len(reserves))]
    return actions[0]


def _need(card: Card, bonus: _Counts) -> _Counts:
    """The tokens of each colour a card still costs after the bonuses."""
    cost = card.cost.counts
    return tuple(cost[c] - bonus[c] if cost[c] > bonus[c] else 0 for c in range(5))


def _after(held: _Counts, gained: _Counts, returned: _Counts) -> _Counts:
    return tuple(held[c] + gained[c] - returned[c] for c in range(6))


def _noble_pull(nobles: Sequence[Noble], bonus: _Counts) -> list[float]:
    """How much one more bonus of each colour brings the nearest nobles nearer (0 to 1)."""
    pull = [0.0] * 5
    for noble in nobles:
        need = noble.requirement.counts
        missing = sum(need[c] - bonus[c] for c in range(5) if need[c] > bonus[c])
        for c in range(5):
            if need[c] > bonus[c]:
                pull[c] = max(pull[c], 1.0 / missing)
    return pull


def _buy_value(action: Buy, pull: Sequence[float], demand: Sequence[int]) -> float:
    card = action.card
    colour = GEM_INDEX[card.bonus]
    points = card.points + (action.noble.points if action.noble is not None else 0)
    payment = action.payment
    gold = payment.counts[5] if payment is not None else 0
    paid = payment.total if payment is not None else 0
    return (
        BUY_POINTS * points
        + BUY_PULL * pull[colour]
        + BUY_DEMAND * demand[colour]
        - BUY_GOLD * gold
        - BUY_PAID * paid
    )


def _reserve_of(actions: Sequence[Action], card: Card) -> Reserve | None:
    """The listed reservation of ``card`` that gives back the least gold, if any."""
    found = [a for a in actions if isinstance(a, Reserve) and a.card is card]
    if not found:
        return None
    return min(found, key=lambda a: a.returned.counts[5])


def _best(actions: Sequence[_A], value: Callable[[_A], float], rng: random.Random) -> _A:
    """The action of highest value; ties broken with ``rng``."""
    scored = [value(a) for a in actions]
    top = max(scored)
    best = [a for a, s in zip(actions, scored, strict=True) if s == top]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
