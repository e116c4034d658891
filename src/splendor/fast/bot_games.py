"""Games between the built-in bots at kernel speed: :func:`play_bots`.

The kernel plays a seat as :class:`~splendor.RandomBot` plays (``"random"``)
or as :class:`~splendor.GreedyBot` plays without randomness (``"greedy"``,
the choice of :func:`splendor.fast.heuristics.greedy_action`), each drawing
from the generator it is given. :func:`splendor.play_game` plays such tables
here by itself.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Final

from splendor.core.messages import short_repr
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.errors import InvalidArgumentError
from splendor.fast.game import Game
from splendor.formats.record import MAX_SEED

__all__ = ["SEAT_KINDS", "play_bots"]

#: The kinds of seat :func:`play_bots` plays.
#: The kinds of seat the kernel plays: ``"random"`` and ``"greedy"``.
SEAT_KINDS: Final = ("random", "greedy")


def play_bots(
    seats: Sequence[str],
    rngs: Sequence[random.Random],
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    max_turns: int = 1000,
) -> tuple[Game, tuple[int, ...]]:
    """Play a game of ``seed`` between built-in bots, each seat one of :data:`SEAT_KINDS`.

    Each seat chooses as its bot does, drawing from its generator in ``rngs``
    (the ones :func:`splendor.players.bots.bot_rngs` makes), so the game is
    move for move the one :func:`splendor.play_game` plays between those
    bots. With the compiled kernel the whole game is played in C: the moves
    are listed, a greedy seat weighs them (the same values, compared the
    same way) and the turn is played without making an action or a view;
    only the draws on the generators call back into Python: a draw that is
    not an int in the range asked for (from a subclass of
    :class:`random.Random` that misbehaves) is refused with
    :class:`~splendor.errors.InvalidArgumentError`, and so is a generator
    that plays on the game. The loop checks for signals, so a game that
    never ends (under rules where nobody can win) can be interrupted. The
    pure fallback plays the same choices on the attrs engine.

    Args:
        seats: the kind of each seat, 2 to 4 of them; seat 0 moves first.
        rngs: the generator of each seat.
        seed: the seed of the deal, from ``-(2**63 - 1)`` to ``2**63 - 1``
            as for a game record, or ``None`` (the default) for a fresh
            random one drawn from :mod:`secrets`, as :func:`splendor.new_game`
            does.
        rules: the rules to play under; the published rules by default.
        max_turns: stop after this many turns (the game is then not over).

    Returns:
        The game at its end (or after ``max_turns`` turns) and the index of
        the action played each turn, among the legal actions of its state.

    Raises:
        InvalidArgumentError: for seats that are not 2 to 4 kinds of
            :data:`SEAT_KINDS`, generators that are not one
            :class:`random.Random` a seat, or a bad seed, rules or
            ``max_turns``.

    >>> rngs = [random.Random(1), random.Random(2)]
    >>> game, indices = play_bots(("greedy", "random"), rngs, seed=11)
    >>> game.is_over, len(indices) == game.turn
    (True, True)
    """
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        raise InvalidArgumentError(f"seats must be a sequence of seat kinds, got {seats!r}")
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(seats)}"
        )
    for kind in seats:
        if kind not in SEAT_KINDS:
            raise InvalidArgumentError(
                f"a seat is one of {', '.join(SEAT_KINDS)}, got {short_repr(kind)}"
            )
    if type(max_turns) is not int or max_turns < 0:
        raise InvalidArgumentError(f"max_turns must be a non-negative int, got {max_turns!r}")
    if seed is None:
        seed = secrets.randbits(63)
    if type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED:
        raise InvalidArgumentError(
            f"seed must be an int from -(2**63 - 1) to 2**63 - 1, got {short_repr(seed)}"
        )
    game = Game.new(len(seats), seed=seed, rules=rules)
    played = game._play_bots([kind == "greedy" for kind in seats], rngs, max_turns)
    return game, played
