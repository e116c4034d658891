"""Shared Hypothesis strategies and random-play helpers for the tests.

Games are described by a :class:`RandomGame`: the player count, a rule
variant, the deal seed and a seeded random policy. Everything a test needs
(the states along the game, the actions played) is recomputed from those few
numbers, so a failing example prints as a short, replayable value.

>>> game = RandomGame(players=2, variant="standard", seed=1, play_seed=2, turns=5)
>>> len(game.states()), game.states()[0] == splendor.new_game(2, seed=1)
(6, True)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Final

import attrs
from hypothesis import strategies as st

import splendor
from splendor import (
    Action,
    Buy,
    Card,
    GameState,
    Noble,
    Pass,
    Reserve,
    ReserveFromDeck,
    Rules,
    Take,
    Tokens,
)
from tools.variants import VARIANTS

__all__ = [
    "BUY_BIASES",
    "VARIANTS",
    "RandomGame",
    "action_key",
    "choose",
    "fingerprint",
    "game_states",
    "leaf_digest",
    "perft",
    "play_random",
    "position_digest",
    "random_games",
    "rules_from_json",
    "seeded_position",
    "setup_tokens",
    "variant_states",
]

#: How strongly the random policy prefers buying when it can: 0 is uniform
#: play (long games, full hands, full reserves), near 1 finishes games fast.
BUY_BIASES: Final = (0.0, 0.5, 0.9)

_KIND_ORDER: Final[dict[type, int]] = {Take: 0, Reserve: 1, ReserveFromDeck: 2, Buy: 3, Pass: 4}


def setup_tokens(rules: Rules, players: int) -> Tokens:
    """The tokens in play for ``players`` under ``rules`` (all in the supply at setup).

    >>> setup_tokens(Rules.standard(), 4).total
    40
    """
    gems = rules.gems(players)
    return Tokens(gems, gems, gems, gems, gems, rules.gold(players))


def choose(rng: random.Random, actions: Sequence[Action], buy_bias: float = 0.0) -> Action:
    """Pick one of ``actions`` at random, preferring a buy with probability ``buy_bias``.

    Args:
        rng: the source of randomness.
        actions: the legal actions (not empty).
        buy_bias: the probability of picking among the buys when there are some.

    Returns:
        One of ``actions``.
    """
    if buy_bias and rng.random() < buy_bias:
        buys = [action for action in actions if type(action) is Buy]
        if buys:
            return rng.choice(buys)
    return rng.choice(actions)


def play_random(
    state: GameState,
    rng: random.Random,
    turns: int,
    buy_bias: float = 0.0,
) -> list[Action]:
    """Play up to ``turns`` random turns from ``state`` (fewer if the game ends).

    Args:
        state: the state to start from.
        rng: the source of randomness.
        turns: the most turns to play.
        buy_bias: see :func:`choose`.

    Returns:
        The actions played, in order.
    """
    played: list[Action] = []
    for _ in range(turns):
        if state.is_over:
            break
        action = choose(rng, splendor.legal_actions(state), buy_bias)
        state = splendor.apply(state, action)
        played.append(action)
    return played


@attrs.frozen
class RandomGame:
    """A game dealt from a seed and played by a seeded random policy.

    Attributes:
        players: the number of players.
        variant: a key of :data:`VARIANTS`.
        seed: the deal seed given to :func:`splendor.new_game`.
        play_seed: the seed of the random policy.
        turns: the most turns to play (the game may end sooner).
        buy_bias: see :func:`choose`.
    """

    players: int
    variant: str
    seed: int
    play_seed: int
    turns: int
    buy_bias: float = 0.0

    @property
    def rules(self) -> Rules:
        """The rules of :attr:`variant`."""
        return VARIANTS[self.variant]

    def first_state(self) -> GameState:
        """The dealt state, before any turn."""
        return splendor.new_game(self.players, seed=self.seed, rules=self.rules)

    def actions(self) -> list[Action]:
        """The actions the policy plays, in order."""
        return play_random(
            self.first_state(), random.Random(self.play_seed), self.turns, self.buy_bias
        )

    def states(self) -> list[GameState]:
        """Every state of the game, the dealt one first (one more than the actions)."""
        state = self.first_state()
        found = [state]
        rng = random.Random(self.play_seed)
        for _ in range(self.turns):
            if state.is_over:
                break
            state = splendor.apply(state, choose(rng, splendor.legal_actions(state), self.buy_bias))
            found.append(state)
        return found

    def final_state(self) -> GameState:
        """The state after the last turn played."""
        return self.states()[-1]


def variant_states(
    players: int, variant: str, turns: int, *, name: str, seed: int
) -> Iterator[GameState]:
    """The states of one random game under :data:`VARIANTS` ``[variant]``, each before its turn.

    The game is dealt with ``seed`` and played uniformly at random from a
    generator named by ``name``, the player count and the variant, for at
    most ``turns`` turns (fewer if no action is left).
    """
    rng = random.Random(f"{name}:{players}:{variant}")
    state = splendor.new_game(players, seed=seed, rules=VARIANTS[variant])
    for _ in range(turns):
        yield state
        actions = splendor.legal_actions(state)
        if not actions:
            return
        state = splendor.apply(state, actions[rng.randrange(len(actions))])


def random_games(
    *,
    min_players: int = 2,
    max_players: int = 4,
    max_turns: int = 300,
    variants: Sequence[str] = tuple(VARIANTS),
) -> st.SearchStrategy[RandomGame]:
    """Random games: every player count, every variant, any seeds and policy.

    Args:
        min_players: the fewest players.
        max_players: the most players.
        max_turns: the most turns a game plays.
        variants: the keys of :data:`VARIANTS` to draw from.

    Returns:
        A strategy of :class:`RandomGame`.
    """
    return st.builds(
        RandomGame,
        players=st.integers(min_players, max_players),
        variant=st.sampled_from(tuple(variants)),
        seed=st.integers(0, 2**32 - 1),
        play_seed=st.integers(0, 2**32 - 1),
        # Half the games are played to the turn bound (most of them to the end).
        turns=st.one_of(st.just(max_turns), st.integers(0, max_turns)),
        buy_bias=st.sampled_from(BUY_BIASES),
    )


def game_states(*, max_turns: int = 300) -> st.SearchStrategy[GameState]:
    """States reached by seeded random play (see :func:`random_games`)."""
    return random_games(max_turns=max_turns).map(RandomGame.final_state)


def action_key(action: Action) -> tuple[int, ...]:
    """A sort key for actions that depends only on what they hold.

    >>> from splendor import Gem
    >>> action_key(Take(Tokens.of(Gem.RED)))
    (0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    """
    kind = _KIND_ORDER[type(action)]
    noble = 0 if action.noble is None else action.noble.id
    if isinstance(action, Take):
        return (kind, *action.gems.counts, *action.returned.counts, noble)
    if isinstance(action, Reserve):
        return (kind, action.card.id, *action.returned.counts, noble)
    if isinstance(action, ReserveFromDeck):
        return (kind, action.tier, *action.returned.counts, noble)
    if isinstance(action, Buy):
        paid = (-1,) if action.payment is None else action.payment.counts
        return (kind, action.card.id, *paid, noble)
    return (kind, noble)


def seeded_position(
    players: int,
    seed: int,
    play_seed: int,
    turns: int,
    rules: Rules | None = None,
    buy_bias: float = 0.0,
) -> GameState:
    """The state after ``turns`` random turns, chosen from the legal actions in
    :func:`action_key` order (so the position does not depend on the order the
    engine lists them in, only on which actions are legal).

    Args:
        players: the number of players.
        seed: the deal seed.
        play_seed: the seed of the random choices.
        turns: the number of turns to play (fewer if the game ends).
        rules: the rules (the published ones by default).
        buy_bias: see :func:`choose`.

    Returns:
        The state reached.
    """
    state = splendor.new_game(players, seed=seed, rules=rules)
    rng = random.Random(play_seed)
    for _ in range(turns):
        if state.is_over:
            break
        actions = sorted(splendor.legal_actions(state), key=action_key)
        state = splendor.apply(state, choose(rng, actions, buy_bias))
    return state


def fingerprint(state: GameState) -> str:
    """A text that tells states apart, stable across runs (ids and counts only).

    >>> fingerprint(splendor.new_game(2, seed=1))[:40]
    'bank=4,4,4,4,4,5 board=24,3,12,2/66,42,6'
    """

    def ids(items: Sequence[Card | Noble | None]) -> str:
        return ",".join("-" if item is None else str(item.id) for item in items)

    def counts(tokens: Tokens) -> str:
        return ",".join(map(str, tokens.counts))

    parts = [
        f"bank={counts(state.bank)}",
        "board=" + "/".join(ids(row) for row in state.board),
        "decks=" + "/".join(ids(deck) for deck in state.decks),
        f"nobles={ids(state.nobles)}",
        f"at={state.current_player},{state.turn},{state.passes}",
        f"winners={','.join(map(str, state.winners))}",
    ]
    for player in state.players:
        blind = "".join("b" if flag else "f" for flag in player.reserved_blind)
        parts.append(
            f"p=({counts(player.tokens)};{ids(player.cards)};{ids(player.reserved)};{blind};"
            f"{ids(player.nobles)};{player.points};{counts(player.bonuses)})"
        )
    return " ".join(parts)


def position_digest(state: GameState) -> str:
    """A short digest of :func:`fingerprint`."""
    return hashlib.sha256(fingerprint(state).encode()).hexdigest()[:16]


def rules_from_json(overrides: Mapping[str, object]) -> Rules:
    """:class:`~splendor.Rules` from keyword arguments read from JSON (lists for tuples).

    >>> rules_from_json({"gold_by_players": [0, 0, 5]}) == Rules.no_gold_variant()
    True
    """
    values = {key: tuple(v) if isinstance(v, list) else v for key, v in overrides.items()}
    return Rules(**values)  # type: ignore[arg-type]  # attrs validates every value


def leaf_digest(state: GameState, depth: int) -> str:
    """A digest of every state reached by the action sequences of length ``depth``.

    The fingerprints of the leaves (one per sequence, repeats kept) are sorted,
    so the digest does not depend on the order of the legal actions.
    """
    leaves: list[str] = []

    def walk(node: GameState, left: int) -> None:
        if left == 0:
            leaves.append(fingerprint(node))
            return
        for action in splendor.legal_actions(node):
            walk(splendor.apply(node, action), left - 1)

    walk(state, depth)
    leaves.sort()
    return hashlib.sha256("\n".join(leaves).encode()).hexdigest()[:32]


def perft(state: GameState, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``state``.

    A state where the game is over has no actions, so a sequence that ends
    the game early is not counted at greater depths.

    >>> perft(splendor.new_game(2, seed=1), 1)
    30
    """
    if depth == 0:
        return 1
    actions = splendor.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(splendor.apply(state, action), depth - 1) for action in actions)


def spread(states: list[GameState], most: int) -> list[GameState]:
    """At most about ``most`` of ``states``, evenly spread over the game."""
    step = max(1, len(states) // most)
    return states[::step]


def search_positions() -> Iterator[GameState]:
    """Unfinished positions of 2 to 4 players, early, middle and late, many
    with blind reserves held by a player other than the one to move."""
    for players in (2, 3, 4):
        for seed in range(4):
            for turns in (0, 13, 37, 61):
                state = seeded_position(players, seed, seed + 100, turns, buy_bias=0.3)
                if not state.is_over:
                    yield state
