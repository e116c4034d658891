"""A strong bot: information-set Monte Carlo tree search, :class:`ISMCTSBot`.

The bot searches over whole turns (one action of :func:`splendor.legal_actions`
is one edge of the tree) and sees only its seat's
:class:`~splendor.core.views.PlayerView`. Each iteration of the search:

1. **determinizes**: deals the cards the seat cannot see (the order of the
   decks, the other players' blind reserves) at random, so the search never
   uses what is hidden (:func:`splendor.determinize` deals and checks the
   view once; each iteration shuffles the same unseen cards again);
2. **selects** down one tree shared by every determinization (single-observer
   ISMCTS): at each node only the actions legal in this determinization
   compete, by UCB1 on the mean reward of the player who chooses there,
   counted against how often each action was available;
3. **widens** progressively: the actions of a node are ordered by a cheap
   prior (buy points and noble colours, take the gems the cheapest cards
   still miss, reserve last) and only the first ``ceil(widening *
   sqrt(visits))`` of them are searched, so a small budget goes to the
   plausible moves instead of a hundred ways to return tokens;
4. **rolls out** a short way: each player plays the prior's best move until
   ``rollout_rounds`` whole rounds are complete (so every player has had the
   same number of turns), or the game ends;
5. **evaluates** the position reached: a finished game scores 1 for each
   winner (shared on a tie), an unfinished one turns a heuristic score per
   player (points, bonuses, tokens, noble progress, affordable reserved
   cards) into shares of 1 with a softmax; and **backs up** each player's
   share to the edges that player chose.

After the budget the bot plays the root action visited most. With a fixed
``seed`` and ``iterations`` the move depends only on the view, so games
are reproducible; a ``seconds`` budget depends on the machine's speed.

>>> import splendor
>>> from splendor.players.ismcts import ISMCTSBot
>>> record = splendor.play_game([ISMCTSBot(iterations=20, seed=1), splendor.RandomBot()], seed=3)
>>> record.result
(0,)

:meth:`ISMCTSBot.analyse` runs the same search and says what it found: the
move, each seat's chance of winning, and the line it expects
(:class:`SearchResult`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final

import attrs

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import Card
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.play import apply
from splendor.core.state import GameState, PlayerState
from splendor.core.views import PlayerView, determinize
from splendor.errors import InvalidArgumentError
from splendor.fast.dealing import deal_hidden
from splendor.fast.heuristics import CARD_FACTS, NOBLE_NEEDS, shortfall
from splendor.players.protocol import check_turn

__all__ = ["ISMCTSBot", "SearchResult"]

_CARD: Final = CARD_FACTS
_NOBLE: Final = NOBLE_NEEDS
_ROLLOUTS: Final = ("prior", "random", "none")
_AIMS: Final = 4
# The weights of the evaluation (see _score), in prestige points.
_W: Final = {"bonus": 0.6, "token": 0.05, "gold": 0.15, "noble": 1.2, "reach": 0.5}


# How many cards of each deck (past the other players' blind reserves) a
# determinization deals in random order; the rest of a deck stays in id order.
# A search reaches a few plies deep, each drawing at most one card, so it never
# sees the unshuffled part.
_DEALT: Final = 16


class _Dealer:
    """Deals the cards a view hides, at random, many times over.

    :func:`splendor.determinize` deals the view once (checking it); each
    :meth:`deal` then shuffles the same unseen cards again: per tier, the
    cards of the deck and of the other players' blind reserves, dealt first
    to those reserves, then to the top of the deck.
    """

    __slots__ = ("blind", "pools", "sizes", "template")

    def __init__(self, view: PlayerView, rng: random.Random) -> None:
        self.template = template = determinize(view, rng)
        blind: list[list[tuple[int, int]]] = [[], [], []]
        pools: list[list[Card]] = [[], [], []]
        for seat, player in enumerate(template.players):
            if seat == view.seat:
                continue
            for slot, (card, hidden) in enumerate(
                zip(player.reserved, player.reserved_blind, strict=True)
            ):
                if hidden:
                    blind[card.tier - 1].append((seat, slot))
                    pools[card.tier - 1].append(card)
        for tier, deck in enumerate(template.decks):
            pools[tier] += sorted(deck, key=_card_id)
        self.blind = blind
        self.pools = pools
        self.sizes = [len(deck) for deck in template.decks]

    def deal(self, rng: random.Random) -> GameState:
        """A state the view cannot tell from the real one, dealt with ``rng``."""
        draw = rng.random
        pools = []
        for tier in range(3):
            pool = self.pools[tier][:]
            n = len(pool)
            for i in range(min(n - 1, len(self.blind[tier]) + _DEALT)):
                j = i + int(draw() * (n - i))
                pool[i], pool[j] = pool[j], pool[i]
            pools.append(pool)
        return deal_hidden(self.template, self.blind, pools)


def _card_id(card: Card) -> int:
    return card.id


class _Node:
    """One node of the search tree: the edge into it and its statistics.

    ``reward`` sums the rewards of ``player``, the seat that chose ``action``;
    ``available`` counts the iterations in which ``action`` was legal at the
    parent while the parent was visited (the ISMCTS availability count).
    ``shares`` sums every seat's reward, for the children of the root only
    (what :meth:`ISMCTSBot.analyse` reports); deeper nodes leave it ``None``.
    """

    __slots__ = (
        "action",
        "available",
        "children",
        "order",
        "player",
        "reward",
        "shares",
        "visits",
    )

    def __init__(self, action: Action, player: int) -> None:
        self.action = action
        self.player = player
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.shares: list[float] | None = None
        self.children: dict[Action, _Node] = {}
        self.order: list[Action] | None = None


def _most_visited(node: _Node) -> _Node:
    """The child searched most (ties to the better mean reward): the move the search plays."""
    return max(
        node.children.values(),
        key=lambda child: (child.visits, child.reward / child.visits if child.visits else 0.0),
    )


@attrs.frozen
class SearchResult:
    """What one search of :class:`ISMCTSBot` found, from one seat's view.

    Attributes:
        action: the move the search plays (the root action visited most),
            one of the actions the search was given.
        win: each seat's chance of winning, in seat order, summing to 1: the
            mean reward of each seat over the iterations that went through
            ``action`` (a finished game scores 1 for each winner, shared on a
            tie; an unfinished one its heuristic shares).
        pv: the principal variation: ``action``, then the most visited
            reply at each node below it, as far as the tree goes (at least
            ``action`` itself). Moves past the first were searched in
            determinizations of the hidden cards, so they are what the
            search expects, not necessarily legal in the real game.
        nodes: the iterations the search ran (each adds at most one node
            to the tree).
    """

    action: Action
    win: tuple[float, ...]
    pv: tuple[Action, ...]
    nodes: int


class ISMCTSBot:
    """Information-set Monte Carlo tree search over whole turns.

    See the module's documentation for the algorithm and the "Strong play"
    page of the docs for its strength against the other bots.

    Args:
        iterations: the search budget per move in iterations (determinize,
            select, roll out, evaluate, back up). The default is 200 when
            ``seconds`` is not given either.
        seconds: a budget in seconds per move instead (or as well: the
            search stops at whichever comes first). A budget in seconds
            depends on the machine, so moves are no longer reproducible.
        seed: the seed of the search. With a seed, each move is searched
            with a generator seeded from it and the turn, whatever ``rng``
            the bot is called with; without one the bot uses the ``rng`` it
            is given (which :func:`splendor.play_game` seeds).
        exploration: the UCB1 constant (rewards are between 0 and 1).
        widening: how many actions a node searches: ``ceil(widening *
            sqrt(visits + 1))``, at least 2, in the prior's order.
        rollout: ``"prior"`` (each player plays the prior's best action),
            ``"random"`` (uniformly random actions) or ``"none"`` (evaluate
            the leaf at once).
        rollout_rounds: whole rounds a rollout plays past the leaf before
            the position is evaluated (it always finishes the leaf's round).
        temperature: the softmax temperature, in points, turning heuristic
            scores into each player's share of a win.

    Raises:
        InvalidArgumentError: for a budget that is not a positive number,
            a seed that is not an int, or an option out of range.

    >>> ISMCTSBot(iterations=50, seed=2)
    ISMCTSBot(iterations=50, seed=2)
    """

    #: The name the command line knows this bot by.
    name: Final = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        *,
        exploration: float = 0.25,
        widening: float = 1.5,
        rollout: str = "prior",
        rollout_rounds: int = 0,
        temperature: float = 2.5,
    ) -> None:
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise InvalidArgumentError(
                f"iterations must be a positive int, got {short_repr(iterations)}"
            )
        if seconds is not None and (
            type(seconds) not in (int, float) or not 0 < seconds < math.inf
        ):
            raise InvalidArgumentError(
                f"seconds must be a positive number, got {short_repr(seconds)}"
            )
        if seed is not None and type(seed) is not int:
            raise InvalidArgumentError(f"seed must be an int or None, got {short_repr(seed)}")
        for option, value in (
            ("exploration", exploration),
            ("widening", widening),
            ("temperature", temperature),
        ):
            if type(value) not in (int, float) or not 0 < value < math.inf:
                raise InvalidArgumentError(
                    f"{option} must be a positive number, got {short_repr(value)}"
                )
        if rollout not in _ROLLOUTS:
            raise InvalidArgumentError(
                f"rollout must be one of {', '.join(_ROLLOUTS)}, got {short_repr(rollout)}"
            )
        if type(rollout_rounds) is not int or rollout_rounds < 0:
            raise InvalidArgumentError(
                f"rollout_rounds must be a non-negative int, got {short_repr(rollout_rounds)}"
            )
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations: Final = iterations
        self.seconds: Final = None if seconds is None else float(seconds)
        self.seed: Final = seed
        self.exploration: Final = float(exploration)
        self.widening: Final = float(widening)
        self.rollout: Final = rollout
        self.rollout_rounds: Final = rollout_rounds
        self.temperature: Final = float(temperature)
        #: The number of iterations the last search ran.
        self.last_iterations = 0

    def __repr__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.seconds is not None:
            parts.append(f"seconds={self.seconds}")
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        defaults = {
            "exploration": 0.25,
            "widening": 1.5,
            "rollout": "prior",
            "rollout_rounds": 0,
            "temperature": 2.5,
        }
        return search_repr(self, parts, defaults)

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        """Search from ``view`` and return the action visited most.

        Args:
            view: the view of the seat to move.
            actions: its legal actions (the search lists them itself from
                the view; an action returned is always one of these).
            rng: the generator used when the bot has no ``seed``.

        Raises:
            InvalidArgumentError: for a spectator's view, a view of a seat
                not to move or of a finished game, actions that are not a
                non-empty sequence of actions, or an ``rng`` that is not a
                :class:`random.Random`.
        """
        rng = self._prepare(view, actions, rng)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        return _same_action(self.search(view, rng), actions)

    def analyse(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> SearchResult:
        """Search from ``view`` as a move does, and say what the search found.

        With a ``seed``, :attr:`SearchResult.action` is the move the bot plays
        from this view (the same search); unlike a move, a view with a
        single legal action is searched too, for its chances of winning.

        ``actions`` may be some of the legal actions only: the search then
        considers only those at the root (as UCI's ``searchmoves``), so
        ``analyse(view, [action], rng).win`` is the mover's estimate of the
        chances after ``action``.

        Args:
            view: the view of the seat to move; the search sees nothing else.
            actions: the actions to search: its legal actions, or some of them.
            rng: the generator used when the bot has no ``seed``.

        Returns:
            The move, each seat's chance of winning, the principal variation
            and the number of iterations.

        Raises:
            InvalidArgumentError: as a move does, and for an action that is
                not legal in ``view``.

        >>> import random, splendor
        >>> state = splendor.new_game(2, seed=1)
        >>> seen = splendor.view(state, 0)
        >>> result = ISMCTSBot(iterations=50, seed=1).analyse(
        ...     seen, splendor.legal_actions(seen), random.Random(0))
        >>> result.nodes, len(result.win), round(sum(result.win), 9)
        (50, 2, 1.0)
        >>> result.pv[0] == result.action
        True
        """
        rng = self._prepare(view, actions, rng)
        legal = legal_actions(view)
        wanted = set(actions)
        if not wanted <= set(legal):
            illegal = next(action for action in actions if action not in legal)
            raise InvalidArgumentError(f"{short_repr(illegal)} is not a legal action in this view")
        root = self._search(view, rng, None if len(wanted) == len(legal) else wanted)
        best = _most_visited(root)
        assert best.shares is not None  # every child of the root keeps the shares
        win = tuple(share / best.visits for share in best.shares)
        pv = [best.action]
        node = best
        while node.children:
            node = _most_visited(node)
            pv.append(node.action)
        action = _same_action(best.action, actions)
        return SearchResult(action, win, (action, *pv[1:]), self.last_iterations)

    def _prepare(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random
    ) -> random.Random:
        """Check a call and return the generator the search uses."""
        check_turn(view, actions, rng)
        if view.seat is None or view.own is None:
            raise InvalidArgumentError("ISMCTSBot needs a seat's view, not a spectator's")
        if view.is_over:
            raise InvalidArgumentError("the game is over: there is no move to search")
        if self.seed is not None:
            return random.Random(f"ismcts:{self.seed}:{view.seat}:{view.turn}")
        return rng

    def search(self, view: PlayerView, rng: random.Random) -> Action:
        """Run the search from ``view`` with ``rng`` and return the chosen action.

        Raises:
            InvalidArgumentError: as :func:`splendor.determinize` does for a
                view no game can reach, or for a view of a seat not to move.
        """
        return _most_visited(self._search(view, rng)).action

    def _search(
        self, view: PlayerView, rng: random.Random, only: set[Action] | None = None
    ) -> _Node:
        """Run the search from ``view`` with ``rng`` (among the actions ``only``, if
        given) and return the root of the tree."""
        seat = view.seat
        if seat is None:
            raise InvalidArgumentError("ISMCTSBot needs a seat's view, not a spectator's")
        root_actions = legal_actions(view)
        if only is not None:
            root_actions = tuple(action for action in root_actions if action in only)
        dealer = _Dealer(view, rng)
        root = _Node(Pass(), -1)  # the root's action is never played
        deadline = math.inf if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations if self.iterations is not None else math.inf
        players = len(view.players)
        done = 0
        while done < limit:
            if done and time.perf_counter() >= deadline:
                break
            state = dealer.deal(rng)
            first, rewards = self._iterate(root, state, root_actions, players, rng)
            shares = first.shares
            if shares is None:
                first.shares = list(rewards)
            else:
                for k in range(players):
                    shares[k] += rewards[k]
            done += 1
        self.last_iterations = done
        return root

    def _iterate(
        self,
        root: _Node,
        state: GameState,
        root_actions: tuple[Action, ...],
        players: int,
        rng: random.Random,
    ) -> tuple[_Node, list[float]]:
        """One iteration from the determinized ``state``: the root's child it went
        through, and every seat's reward."""
        node = root
        path = [root]
        actions: Sequence[Action] = root_actions
        while not state.winners:
            mover = state.current_player
            width = max(2, math.ceil(self.widening * math.sqrt(node.visits + 1)))
            order = node.order
            if order is None:
                order = node.order = _ordered(state, actions)
                candidates = order[:width]
            elif actions is root_actions:
                candidates = order[:width]
            else:
                candidates = _legal_first(order, actions, width)
            children = node.children
            fresh = None
            for action in candidates:
                if action not in children:
                    fresh = action
                    break
            if fresh is not None:
                for action in candidates:
                    child = children.get(action)
                    if child is not None:
                        child.available += 1
                child = _Node(fresh, mover)
                child.available = 1
                children[fresh] = child
                path.append(child)
                state = apply(state, fresh)
                break
            best_child = None
            best_score = -math.inf
            c = self.exploration
            for action in candidates:
                child = children[action]
                child.available += 1
                score = child.reward / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if score > best_score:
                    best_score = score
                    best_child = child
            assert best_child is not None
            node = best_child
            path.append(node)
            state = apply(state, best_child.action)
            if not state.winners:
                actions = legal_actions(state)
        rewards = self._rollout(state, players, rng)
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.reward += rewards[visited.player]
        return path[1], rewards

    def _rollout(self, state: GameState, players: int, rng: random.Random) -> list[float]:
        """Play the rollout policy to the end of the round(s) and score the position."""
        if self.rollout != "none":
            stop = (state.turn // players + 1 + self.rollout_rounds) * players
            if state.turn % players == 0:
                stop -= players
            use_prior = self.rollout == "prior"
            while not state.winners and state.turn < stop:
                actions = legal_actions(state)
                if use_prior:
                    action = _best_prior(state, actions, rng)
                else:
                    action = actions[rng.randrange(len(actions))]
                state = apply(state, action)
        if state.winners:
            share = 1.0 / len(state.winners)
            return [share if seat in state.winners else 0.0 for seat in range(players)]
        scores = [_score(state, player) for player in state.players]
        top = max(scores)
        weights = [math.exp((s - top) / self.temperature) for s in scores]
        total = sum(weights)
        return [w / total for w in weights]


def search_repr(bot: object, parts: list[str], defaults: dict[str, object]) -> str:
    """``Name(budget..., option=value...)``: the options that differ from ``defaults``."""
    for option, default in defaults.items():
        value = getattr(bot, option)
        if value != default:
            parts.append(f"{option}={value!r}")
    return f"{type(bot).__name__}({', '.join(parts)})"


def _same_action(found: Action, actions: Sequence[Action]) -> Action:
    """The caller's action equal to ``found`` (the search lists the view's own)."""
    for action in actions:
        if action == found:
            return action
    return found


def _needs(player: PlayerState, cards: Sequence[Card]) -> list[tuple[Card, tuple[int, ...]]]:
    """Each card with what it still costs ``player`` after the bonuses, per colour."""
    b0, b1, b2, b3, b4 = player.bonuses.counts[:5]
    found: list[tuple[Card, tuple[int, ...]]] = []
    for card in cards:
        c0, c1, c2, c3, c4 = _CARD[card][0]
        found.append(
            (
                card,
                (
                    c0 - b0 if c0 > b0 else 0,
                    c1 - b1 if c1 > b1 else 0,
                    c2 - b2 if c2 > b2 else 0,
                    c3 - b3 if c3 > b3 else 0,
                    c4 - b4 if c4 > b4 else 0,
                ),
            )
        )
    return found


def _priors(state: GameState, actions: Sequence[Action]) -> list[float]:
    """A cheap score per action for the player to move: higher is more promising."""
    me = state.players[state.current_player]
    bonus = me.bonuses.counts
    held = me.tokens.counts
    pull = [0.0] * 5
    for noble in state.nobles:
        need = _NOBLE[noble]
        missing = sum(need[c] - bonus[c] for c in range(5) if need[c] > bonus[c])
        if missing:
            for c in range(5):
                if need[c] > bonus[c]:
                    pull[c] = max(pull[c], 1.0 / missing)
    cards = [card for row in state.board for card in row if card is not None]
    cards += me.reserved
    needs = _needs(me, cards)
    # How much each card is worth aiming at: points, noble colour, cheapness.
    aims = []
    for card, need in needs:
        _, colour, points, _ = _CARD[card]
        gap = shortfall(need, held)
        aims.append((need, gap, (1.0 + points + 1.5 * pull[colour]) / (1.0 + gap)))
    # Takes aim at the few cards most worth aiming at (cheap to score).
    aims.sort(key=_aim_weight, reverse=True)
    del aims[_AIMS:]
    scores = []
    for action in actions:
        if isinstance(action, Buy):
            card = action.card
            _, colour, points, tier = _CARD[card]
            received = action.noble is not None
            payment = action.payment
            gold = payment.counts[5] if payment is not None else 0
            paid = payment.total if payment is not None else 0
            value = 10.0 + 4.0 * points + 2.5 * pull[colour] + (12.0 if received else 0.0)
            value += 0.6 * (3 - tier) * (1 if points == 0 else 0)
            scores.append(value - 0.6 * gold - 0.15 * paid)
        elif isinstance(action, Take):
            gems = action.gems.counts
            back = action.returned.counts
            after = [held[c] + gems[c] - back[c] for c in range(6)]
            gain = 0.0
            for need, gap, weight in aims:
                gain += weight * (gap - shortfall(need, after))
            scores.append(2.0 + gain - 0.3 * sum(back) + 0.1 * sum(gems))
        elif isinstance(action, Reserve):
            card = action.card
            _, colour, points, tier = _CARD[card]
            back = action.returned.counts
            gold = 1 if state.bank.counts[5] else 0
            value = 1.0 + 0.5 * points + 0.5 * gold + 0.5 * pull[colour]
            scores.append(value - 0.3 * sum(back) - 0.1 * len(me.reserved))
        elif isinstance(action, ReserveFromDeck):
            back = action.returned.counts
            scores.append(0.5 - 0.3 * sum(back))
        else:
            scores.append(0.0)
    return scores


def _aim_weight(aim: tuple[tuple[int, ...], int, float]) -> float:
    return aim[2]


def _ordered(state: GameState, actions: Sequence[Action]) -> list[Action]:
    """The actions by decreasing prior, stable for equal priors."""
    scores = _priors(state, actions)
    order = sorted(range(len(actions)), key=lambda i: -scores[i])
    return [actions[i] for i in order]


def _legal_first(order: list[Action], actions: Sequence[Action], width: int) -> list[Action]:
    """The first ``width`` actions of ``order`` legal now, then new ones (appended to it)."""
    legal = set(actions)
    found = [action for action in order if action in legal][:width]
    if len(found) < width or len(legal) > len(order):
        known = set(order)
        for action in actions:
            if action not in known:
                order.append(action)
                if len(found) < width:
                    found.append(action)
    return found


def _best_prior(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """The rollout policy: buy the best card when any is affordable, else the prior's best.

    Without a buy only the takes that return nothing compete, when there are
    any (as for a greedy player; it keeps the rollouts cheap).
    """
    buys = [action for action in actions if type(action) is Buy]
    if buys:
        actions = buys
    else:
        takes = [a for a in actions if type(a) is Take and not a.returned]
        if takes:
            actions = takes
    scores = _priors(state, actions)
    top = max(scores)
    best = [i for i, s in enumerate(scores) if s == top]
    return actions[best[0] if len(best) == 1 else best[rng.randrange(len(best))]]


def _score(state: GameState, player: PlayerState) -> float:
    """A heuristic score of ``player``'s position, in prestige points."""
    bonus = player.bonuses.counts
    held = player.tokens.counts
    cards = len(player.cards)
    value = float(player.points)
    # Each bonus is an engine: worth more early than late.
    value += _W["bonus"] * min(cards, 12)
    value += _W["token"] * sum(held[:5]) + _W["gold"] * held[5]
    for noble in state.nobles:
        need = _NOBLE[noble]
        missing = sum(need[c] - bonus[c] for c in range(5) if need[c] > bonus[c])
        total = sum(need)
        value += _W["noble"] * ((total - missing) / total) ** 2
    # What the tokens are for: the cards within reach (face up or reserved),
    # worth their points and bonus, the nearer the more; the best two count.
    reach = [card for row in state.board for card in row if card is not None]
    reach += player.reserved
    first = second = 0.0
    for card, need in _needs(player, reach):
        worth = (_CARD[card][2] + _W["bonus"]) / (1.0 + shortfall(need, held))
        if worth > first:
            first, second = worth, first
        elif worth > second:
            second = worth
    value += _W["reach"] * (first + 0.5 * second)
    return value
