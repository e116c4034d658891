"""The search of :class:`splendor.players.search.SearchBot` in pure Python.

The compiled kernel runs this search in C (``_search.pxi``); this module is
its twin on the attrs engine, used where the kernel is not compiled. Both
make the same draws from the same :class:`~splendor.fast.reference.SplitMix64`,
compute the same floats in the same order and break every tie the same way,
so for a seed and an iteration budget they play the same move and report
the same figures (``tests/fast/test_search.py`` compares them); the
kernel only runs a few hundred times faster.

The search, one iteration after another from the seat's view:

1. **deal**: the cards the seat cannot see (per tier, the deck and the other
   players' blind reserves) are shuffled again and dealt, first to those
   reserves in seat and slot order, then to the deck;
2. **select** down one tree shared by every deal: at a node, the legal moves
   of this deal are ranked by a cheap prior (:func:`priors`; ties keep the
   listing's order), or by a learned policy (:func:`policy_scores`, whose
   features include the prior), and only the first ``max(2, ceil(widening *
   sqrt(visits + 1)))`` of them compete (progressive widening). The first of them not
   yet in the tree is added and the descent stops; when all are there, the
   one with the best UCB1 score on the mover's mean reward (counted against
   how often it was available) is played and the descent goes on;
3. **roll out**: each player plays the rollout policy (a buy when it can,
   else a take that returns nothing, else any move, the prior's best among
   them, ties drawn at random) to the end of the round, then
   ``rollout_rounds`` more rounds;
4. **evaluate**: a finished game gives 1 to each winner (shared on a tie),
   an unfinished one turns :func:`score` per player into shares of 1 by a
   softmax at ``temperature`` points, or asks a value network
   (:mod:`splendor.fast.network`) for each seat's chance of winning, from
   the view of the seat to move; with ``leaf_weight`` above 0 the leaf
   (the position after the new node's move) is evaluated too, before the
   rollout, and each reward is ``leaf_weight`` times the leaf's plus
   ``1 - leaf_weight`` times the rollout's end's (a leaf where the game is
   over is scored by its result alone);
5. **back up** each player's share to the moves that player chose.

The move played is the root move visited most (ties to the better mean,
then the first listed).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Final

import attrs

from splendor.core.actions import Action, Buy, Reserve, ReserveFromDeck, Take
from splendor.core.components import Card
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.state import GameState, PlayerState
from splendor.fast.dealing import deal_hidden
from splendor.fast.heuristics import CARD_FACTS, NOBLE_NEEDS, shortfall
from splendor.fast.network import (
    MOVE_FEATURES,
    PolicyNetwork,
    ValueNetwork,
    evaluate,
    network_input,
    policy_state,
)
from splendor.fast.reference import SplitMix64

__all__ = [
    "AIMS",
    "CHUNK",
    "MAX_ITERATIONS",
    "W_BONUS",
    "W_GOLD",
    "W_NOBLE",
    "W_REACH",
    "W_TOKEN",
    "SearchOutcome",
    "move_features",
    "policy_scores",
    "priors",
    "score",
    "search",
]

#: The most rounds a rollout plays past the leaf's round.
MAX_ROLLOUT_ROUNDS: Final = 1000

#: The largest iteration budget of one search (each iteration adds at most
#: one node to the tree; the kernel's tree then takes about 96 MB). A search
#: with a budget in seconds stops there too.
MAX_ITERATIONS: Final = 2_000_000

_CARD: Final = CARD_FACTS
_NOBLE: Final = NOBLE_NEEDS
#: Iterations between two looks at the clock.
CHUNK: Final = 16
#: How many cards the prior of a take aims at.
AIMS: Final = 4
# The weights of score(), in prestige points; the compiled kernel reads them.
#: :func:`score`'s weight of a bonus card (up to 12 of them).
W_BONUS: Final = 0.6
#: :func:`score`'s weight of a gem token in hand.
W_TOKEN: Final = 0.05
#: :func:`score`'s weight of a gold token in hand.
W_GOLD: Final = 0.15
#: :func:`score`'s weight of the square of the share of a noble's requirement met.
W_NOBLE: Final = 1.2
#: :func:`score`'s weight of the worth within reach of the best card (and half the second).
W_REACH: Final = 0.5


@attrs.frozen
class SearchOutcome:
    """What one search found.

    Attributes:
        index: the index of the move played among the root's legal moves.
        win: each seat's share of the rewards backed up through that move,
            per visit (each seat's chance of winning, summing to 1).
        pv: the moves of the principal variation, the first one ``index``'s.
        iterations: the iterations the search ran.
        visits: the visits of each root move, in the listing's order.
    """

    index: int
    win: tuple[float, ...]
    pv: tuple[Action, ...]
    iterations: int
    visits: tuple[int, ...]


def _needs(bonus: Sequence[int], card: Card) -> tuple[int, ...]:
    cost = _CARD[card][0]
    return tuple(cost[c] - bonus[c] if cost[c] > bonus[c] else 0 for c in range(5))


def _pull(state: GameState, bonus: Sequence[int]) -> list[float]:
    """How much a bonus of each colour brings the revealed nobles nearer."""
    pull = [0.0] * 5
    for noble in state.nobles:
        need = _NOBLE[noble]
        missing = 0
        for c in range(5):
            if need[c] > bonus[c]:
                missing += need[c] - bonus[c]
        if missing:
            share = 1.0 / missing
            for c in range(5):
                if need[c] > bonus[c] and share > pull[c]:
                    pull[c] = share
    return pull


def _reach(state: GameState, me: PlayerState) -> list[Card]:
    cards = [card for row in state.board for card in row if card is not None]
    cards += me.reserved
    return cards


def priors(state: GameState, actions: Sequence[Action]) -> list[float]:
    """A cheap score per action of the player to move: higher is more promising."""
    me = state.players[state.current_player]
    bonus = me.bonuses.counts
    held = me.tokens.counts
    pull = _pull(state, bonus)
    # The cards most worth aiming at: points, noble colour, cheapness.
    weights: list[float] = []
    needs: list[tuple[int, ...]] = []
    gaps: list[int] = []
    for card in _reach(state, me):
        need = _needs(bonus, card)
        gap = shortfall(need, held)
        _, colour, points, _ = _CARD[card]
        needs.append(need)
        gaps.append(gap)
        weights.append((1.0 + points + 1.5 * pull[colour]) / (1.0 + gap))
    aims = sorted(range(len(weights)), key=lambda i: -weights[i])[:AIMS]
    gold_left = 1 if state.bank.counts[5] else 0
    scores = []
    for action in actions:
        if type(action) is Buy:
            _, colour, points, tier = _CARD[action.card]
            payment = action.payment
            assert payment is not None  # legal_actions lists every buy with its payment
            paid = payment.counts
            value = 10.0 + 4.0 * points + 2.5 * pull[colour]
            if action.noble is not None:
                value += 12.0
            if points == 0:
                value += 0.6 * (3 - tier)
            total = paid[0] + paid[1] + paid[2] + paid[3] + paid[4] + paid[5]
            scores.append(value - 0.6 * paid[5] - 0.15 * total)
        elif type(action) is Take:
            gems = action.gems.counts
            back = action.returned.counts
            after = [held[c] + gems[c] - back[c] for c in range(6)]
            gain = 0.0
            for i in aims:
                gain += weights[i] * (gaps[i] - shortfall(needs[i], after))
            taken = gems[0] + gems[1] + gems[2] + gems[3] + gems[4]
            returned = back[0] + back[1] + back[2] + back[3] + back[4] + back[5]
            scores.append(2.0 + gain - 0.3 * returned + 0.1 * taken)
        elif type(action) is Reserve:
            _, colour, points, _ = _CARD[action.card]
            back = action.returned.counts
            returned = back[0] + back[1] + back[2] + back[3] + back[4] + back[5]
            value = 1.0 + 0.5 * points + 0.5 * gold_left + 0.5 * pull[colour]
            scores.append(value - 0.3 * returned - 0.1 * len(me.reserved))
        elif type(action) is ReserveFromDeck:
            back = action.returned.counts
            returned = back[0] + back[1] + back[2] + back[3] + back[4] + back[5]
            scores.append(0.5 - 0.3 * returned)
        else:
            scores.append(0.0)
    return scores


def move_features(state: GameState, actions: Sequence[Action]) -> list[tuple[float, ...]]:
    """The :data:`~splendor.fast.network.MOVE_FEATURES` of each action of the player to move.

    >>> import splendor
    >>> from splendor.fast.network import MOVE_FEATURES
    >>> state = splendor.new_game(2, seed=1)
    >>> first = move_features(state, splendor.legal_actions(state))[0]
    >>> [name for name, x in zip(MOVE_FEATURES, first) if x]
    ['take', 'taken_white', 'taken_blue', 'taken_green', 'taken', 'prior']
    """
    me = state.players[state.current_player]
    rows = []
    for action, prior in zip(actions, priors(state, actions), strict=True):
        f = [0.0] * len(MOVE_FEATURES)
        if type(action) is Buy or type(action) is Reserve:
            cost, colour, points, tier = _CARD[action.card]
            f[0 if type(action) is Buy else 2] = 1.0
            f[5] = float(points)
            f[5 + tier] = 1.0
            f[9 + colour] = 1.0
            if type(action) is Buy:
                if action.card in me.reserved:
                    f[14] = 1.0
                payment = action.payment
                assert payment is not None  # legal_actions lists every buy with its payment
                for c in range(6):
                    f[15 + c] = float(payment.counts[c])
                f[33] = float(payment.total)
            f[32] = sum(cost) / 5.0
        elif type(action) is Take:
            f[1] = 1.0
            gems = action.gems.counts
            for c in range(5):
                f[21 + c] = float(gems[c])
            if max(gems[:5]) == 2:
                f[26] = 1.0
            f[27] = float(sum(gems[:5]))
        elif type(action) is ReserveFromDeck:
            f[3] = 1.0
            f[5 + action.tier] = 1.0
        else:
            f[4] = 1.0
        if isinstance(action, Take | Reserve | ReserveFromDeck):
            back = action.returned.counts
            f[28] = float(sum(back))
            f[29] = float(back[5])
        if action.noble is not None:
            f[30] = 1.0
        f[31] = prior / 10.0
        rows.append(tuple(f))
    return rows


def policy_scores(
    state: GameState, actions: Sequence[Action], weights: Sequence[float]
) -> list[float]:
    """Each action's score under a policy whose state part is ``weights``
    (:func:`~splendor.fast.network.policy_state`): the sum, feature by
    feature in order, of each of its :func:`move_features` that is not 0
    times its weight. Higher is tried sooner."""
    scores = []
    for row in move_features(state, actions):
        value = 0.0
        for k, x in enumerate(row):
            if x != 0.0:
                value += x * weights[k]
        scores.append(value)
    return scores


def score(state: GameState, seat: int) -> float:
    """A heuristic score of ``seat``'s position, in prestige points."""
    player = state.players[seat]
    bonus = player.bonuses.counts
    held = player.tokens.counts
    value = float(player.points)
    value += W_BONUS * min(len(player.cards), 12)
    value += W_TOKEN * (held[0] + held[1] + held[2] + held[3] + held[4]) + W_GOLD * held[5]
    for noble in state.nobles:
        need = _NOBLE[noble]
        missing = 0
        total = 0
        for c in range(5):
            total += need[c]
            if need[c] > bonus[c]:
                missing += need[c] - bonus[c]
        part = (total - missing) / total
        value += W_NOBLE * (part * part)
    first = second = 0.0
    for card in _reach(state, player):
        worth = (_CARD[card][2] + W_BONUS) / (1.0 + shortfall(_needs(bonus, card), held))
        if worth > first:
            first, second = worth, first
        elif worth > second:
            second = worth
    return value + W_REACH * (first + 0.5 * second)


def _ranked(scores: list[float], width: int) -> list[int]:
    """The indices of the ``width`` best scores, best first, ties in index order."""
    return sorted(range(len(scores)), key=lambda i: -scores[i])[:width]


def _rollout_pick(state: GameState, actions: Sequence[Action], rng: SplitMix64) -> int:
    """The rollout policy's choice: an index into ``actions``."""
    pool = [i for i, a in enumerate(actions) if type(a) is Buy]
    if not pool:
        pool = [i for i, a in enumerate(actions) if type(a) is Take and not a.returned.total]
        if not pool:
            pool = list(range(len(actions)))
    values = priors(state, [actions[i] for i in pool])
    top = values[0]
    ties = 1
    for v in values[1:]:
        if v > top:
            top = v
            ties = 1
        elif v == top:
            ties += 1
    pick = 0 if ties == 1 else rng.below(ties)
    for i, v in zip(pool, values, strict=True):
        if v == top:
            if pick == 0:
                return i
            pick -= 1
    raise AssertionError("not reached")


def _evaluate(state: GameState, temperature: float, network: ValueNetwork | None) -> list[float]:
    players = len(state.players)
    if state.winners:
        share = 1.0 / len(state.winners)
        return [share if seat in state.winners else 0.0 for seat in range(players)]
    if network is not None:
        seat = state.current_player
        found = evaluate(network, network_input(state, seat))
        rewards = [0.0] * players
        for k in range(players):
            rewards[(seat + k) % players] = found[k]
        return rewards
    scores = [score(state, seat) for seat in range(players)]
    top = scores[0]
    for s in scores[1:]:
        top = max(top, s)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = 0.0
    for w in weights:
        total += w
    return [w / total for w in weights]


class _Node:
    __slots__ = ("action", "available", "children", "player", "policy", "reward", "visits")

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        # The policy's state part, from the first deal that ranked this node's moves.
        self.policy: tuple[float, ...] | None = None
        self.player = player
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[Action, _Node] = {}


class _Dealer:
    """Deals the unseen cards of ``template`` (as ``seat`` sees it) again and again."""

    def __init__(self, template: GameState, seat: int) -> None:
        self.template = template
        self.blind: list[list[tuple[int, int]]] = [[], [], []]
        pools: list[list[Card]] = [[], [], []]
        for other, player in enumerate(template.players):
            if other == seat:
                continue
            for slot, (card, hidden) in enumerate(
                zip(player.reserved, player.reserved_blind, strict=True)
            ):
                if hidden:
                    self.blind[card.tier - 1].append((other, slot))
                    pools[card.tier - 1].append(card)
        for tier, deck in enumerate(template.decks):
            pools[tier] += deck
        self.pools = [sorted(pool, key=_card_id) for pool in pools]

    def deal(self, rng: SplitMix64) -> GameState:
        pools = []
        for tier in range(3):
            pool = self.pools[tier][:]
            n = len(pool)
            for i in range(n - 1):
                j = i + rng.below(n - i)
                pool[i], pool[j] = pool[j], pool[i]
            pools.append(pool)
        return deal_hidden(self.template, self.blind, pools)


def _card_id(card: Card) -> int:
    return card.id


def _best_child(node: _Node) -> tuple[int, _Node]:
    """The child visited most, ties to the better mean, then the first made."""
    best: tuple[int, _Node] | None = None
    for k, child in enumerate(node.children.values()):
        if best is None:
            best = (k, child)
            continue
        other = best[1]
        if child.visits > other.visits or (
            child.visits == other.visits
            and child.reward / child.visits > other.reward / other.visits
        ):
            best = (k, child)
    assert best is not None
    return best


def _decided(root: _Node, moves: int, remaining: int) -> bool:
    """Whether no root move but the most visited one could end the search
    with the most visits after ``remaining`` more iterations (each adds one
    visit to one root move): the move :func:`search` returns is known."""
    if moves == 1:
        return True
    top = second = 0
    for child in root.children.values():
        if child.visits > top:
            top, second = child.visits, top
        elif child.visits > second:
            second = child.visits
    return top - second > remaining


def search(
    template: GameState,
    seat: int,
    *,
    iterations: int,
    seconds: float | None,
    seed: int,
    exploration: float,
    widening: float,
    rollout_rounds: int,
    temperature: float,
    network: ValueNetwork | None = None,
    stop_early: bool = False,
    leaf_weight: float = 0.0,
    policy: PolicyNetwork | None = None,
) -> SearchOutcome:
    """Search from ``template``, a state ``seat`` (to move) cannot tell from its game.

    Only what ``seat`` sees of ``template`` matters: its unseen cards are
    dealt again at every iteration. With a ``network`` (for the template's
    player count and rules), an unfinished position at the end of a rollout
    is evaluated by the network from the view of the seat to move instead
    of by :func:`score`. ``iterations`` (at most
    :data:`MAX_ITERATIONS`) and ``seconds`` bound the search, whichever
    comes first; the arguments are checked by the caller. With
    ``stop_early``, it also stops, at the same checks as the clock's, once
    no other root move could overtake the most visited one in the
    iterations left (``_decided``): the same move, sooner. With a
    ``leaf_weight`` above 0, the rewards of an iteration whose leaf (the
    position after the new node's move) is unfinished are ``leaf_weight``
    times the leaf's evaluation plus ``1 - leaf_weight`` times that of the
    rollout's end. With a ``policy``, a node's moves are ranked by
    :func:`policy_scores` instead of :func:`priors`, with the policy's state
    part worked out from the first deal that ranks them and kept.
    """
    rng = SplitMix64(seed)
    dealer = _Dealer(template, seat)
    root_actions = legal_actions(template)
    index_of = {action: i for i, action in enumerate(root_actions)}
    players = len(template.players)
    root = _Node(None, -1)
    if policy is not None:
        root.policy = policy_state(policy, network_input(template, seat))
    shares = [[0.0] * players for _ in root_actions]
    deadline = math.inf if seconds is None else time.perf_counter() + seconds
    done = 0
    while done < iterations:
        if done and done % CHUNK == 0:
            if time.perf_counter() >= deadline:
                break
            if stop_early and _decided(root, len(root_actions), iterations - done):
                break
        state = dealer.deal(rng)
        node = root
        path = [root]
        actions = root_actions
        while not state.winners:
            if node is not root:
                actions = legal_actions(state)
            width = max(2, math.ceil(widening * math.sqrt(node.visits + 1)))
            if policy is None:
                candidates = _ranked(priors(state, actions), width)
            else:
                if node.policy is None:
                    node.policy = policy_state(policy, network_input(state, state.current_player))
                candidates = _ranked(policy_scores(state, actions, node.policy), width)
            children = node.children
            fresh = -1
            for i in candidates:
                if actions[i] not in children:
                    fresh = i
                    break
            if fresh >= 0:
                for i in candidates:
                    known = children.get(actions[i])
                    if known is not None:
                        known.available += 1
                child = _Node(actions[fresh], state.current_player)
                child.available = 1
                children[actions[fresh]] = child
                path.append(child)
                state = apply(state, actions[fresh])
                break
            best: _Node | None = None
            best_value = -math.inf
            for i in candidates:
                child = children[actions[i]]
                child.available += 1
                value = child.reward / child.visits + exploration * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if value > best_value:
                    best_value = value
                    best = child
            assert best is not None
            assert best.action is not None
            node = best
            path.append(node)
            state = apply(state, best.action)
        mixed = leaf_weight > 0.0 and not state.winners
        leaf = _evaluate(state, temperature, network) if mixed else []
        # Roll out to the end of the round, then rollout_rounds more.
        stop = (state.turn // players + 1 + rollout_rounds) * players
        if state.turn % players == 0:
            stop -= players
        while not state.winners and state.turn < stop:
            listed = legal_actions(state)
            state = apply(state, listed[_rollout_pick(state, listed, rng)])
        rewards = _evaluate(state, temperature, network)
        if mixed:
            rewards = [
                leaf_weight * leaf[k] + (1.0 - leaf_weight) * rewards[k] for k in range(players)
            ]
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.reward += rewards[visited.player]
        if len(path) > 1:
            assert path[1].action is not None
            row = shares[index_of[path[1].action]]
            for k in range(players):
                row[k] += rewards[k]
        done += 1
    visits = [0] * len(root_actions)
    for action, child in root.children.items():
        visits[index_of[action]] = child.visits
    # The root move visited most, ties to the better mean, then the first listed.
    index = -1
    for action, child in sorted(root.children.items(), key=lambda item: index_of[item[0]]):
        i = index_of[action]
        if index < 0:
            index = i
            continue
        other = root.children[root_actions[index]]
        if child.visits > other.visits or (
            child.visits == other.visits
            and child.reward / child.visits > other.reward / other.visits
        ):
            index = i
    if index < 0:
        return SearchOutcome(
            0, tuple(1.0 / players for _ in range(players)), (root_actions[0],), done, tuple(visits)
        )
    chosen = root.children[root_actions[index]]
    win = tuple(share / chosen.visits for share in shares[index])
    pv = [root_actions[index]]
    node = chosen
    while node.children:
        node = _best_child(node)[1]
        assert node.action is not None
        pv.append(node.action)
    return SearchOutcome(index, win, tuple(pv), done, tuple(visits))
