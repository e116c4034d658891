"""Dealing a new game: :func:`new_game`."""

from __future__ import annotations

import random
from typing import Final

from splendor.core.components import CARDS, NOBLES, Card
from splendor.core.gems import Tokens
from splendor.core.rules import Rules
from splendor.core.state import GameState, PlayerState
from splendor.errors import InvalidArgumentError

__all__ = ["new_game"]

_STANDARD: Final = Rules()


def new_game(players: int, *, seed: int | None = None, rules: Rules | None = None) -> GameState:
    """Deal a new game.

    Each tier's deck is shuffled and 4 cards of each tier are laid face up;
    the nobles are shuffled and as many as the rules say are revealed. The
    supply holds the rules' number of tokens for the player count. Player 0
    starts.

    Args:
        players: the number of players, 2 to 4.
        seed: the seed of the shuffle. The same seed, player count and rules
            always deal the same game, so a seed is a secret: whoever knows
            it knows the order of every deck and of the nobles, and a small
            seed can be recovered from a few turns of play by trying them
            all. ``None`` (what live play should use) draws an unguessable
            128-bit seed from the ``secrets`` module; pass a seed only to replay or
            test a game, and never show it to the players before the end.
        rules: the :class:`~splendor.Rules` to play under; the published rules
            by default.

    Returns:
        The state before the first turn.

    Raises:
        InvalidArgumentError: for a player count outside 2-4, a seed that is
            not an ``int`` or rules that are not a :class:`~splendor.Rules`.

    >>> state = new_game(2, seed=1)
    >>> state.bank
    Tokens(white=4, blue=4, green=4, red=4, black=4, gold=5)
    >>> len(state.nobles), [len(deck) for deck in state.decks]
    (3, [36, 26, 16])
    """
    if rules is None:
        rules = _STANDARD
    elif not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a splendor.Rules, got {rules!r}")
    gems = rules.gems(players)  # checks the player count
    if seed is not None and (type(seed) is not int):
        raise InvalidArgumentError(f"seed must be an int or None, got {seed!r}")
    if seed is None:
        # Imported here: secrets loads hashlib and OpenSSL, which a program
        # that always passes its seeds need not pay for.
        import secrets

        seed = secrets.randbits(128)
    rng = random.Random(seed)
    board: list[tuple[Card | None, ...]] = []
    decks: list[tuple[Card, ...]] = []
    for tier in (1, 2, 3):
        cards = [card for card in CARDS if card.tier == tier]
        rng.shuffle(cards)
        slots: list[Card | None] = list(cards[:4])
        slots += [None] * (4 - len(slots))
        board.append(tuple(slots))
        decks.append(tuple(cards[4:]))
    nobles = list(NOBLES)
    rng.shuffle(nobles)
    return GameState(
        rules=rules,
        players=(PlayerState(),) * players,
        bank=Tokens._of((gems, gems, gems, gems, gems, rules.gold(players))),
        board=tuple(board),
        decks=tuple(decks),
        nobles=tuple(nobles[: rules.nobles(players)]),
    )
