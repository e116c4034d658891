"""Differential check of a :mod:`splendor.fast` implementation against the attrs engine.

A seeded random game is played on both side by side; at every state the
implementation must list exactly :func:`splendor.legal_actions` (the same
actions in the same order), and playing each action on a copy must give
exactly the state :func:`splendor.apply` gives. The default test run checks a
sample (``tests/kernel/test_diff.py``); ``nox -s kernel-diff`` runs this module
as a script over a million states or more::

    python -m tests.kernel.diff --successors 1000000 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from typing import Final, Protocol

import attrs

import splendor
from splendor import GameState, Rules
from splendor.core.actions import Action
from tests.strategies import VARIANTS


class FastGame(Protocol):
    """What the check needs of a game of :mod:`splendor.fast` (either implementation)."""

    @property
    def is_over(self) -> bool: ...

    def state(self) -> GameState: ...

    def actions(self) -> tuple[Action, ...]: ...

    def moves(self) -> int: ...

    def copy(self) -> FastGame: ...

    def play(self, index: int) -> None: ...


class GameMaker(Protocol):
    """``Game.from_state`` of either implementation."""

    def __call__(self, state: GameState, /) -> FastGame: ...


@attrs.frozen
class Tally:
    """What a check covered."""

    games: int = 0
    states: int = 0
    successors: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.states + other.states,
            self.successors + other.successors,
        )


class Mismatch(AssertionError):
    """The implementation and the engine disagree; the message says where."""


#: The settings the games are dealt under: every player count with every variant.
SETTINGS: Final = tuple((players, name) for name in VARIANTS for players in (2, 3, 4))


def check_game(
    from_state: GameMaker,
    players: int,
    rules: Rules,
    seed: int,
    *,
    max_turns: int = 1000,
    successors: bool = True,
) -> Tally:
    """Play one seeded random game on both sides, comparing at every state.

    Raises:
        Mismatch: at the first difference.
    """
    state = splendor.new_game(players, seed=seed, rules=rules)
    game = from_state(state)
    rng = random.Random(seed)
    states = compared = 0
    where = f"players={players} rules={rules!r} seed={seed}"
    while True:
        if game.state() != state:
            raise Mismatch(f"{where} turn {state.turn}: the states differ")
        expected = splendor.legal_actions(state)
        if game.moves() != len(expected) or game.actions() != expected:
            raise Mismatch(
                f"{where} turn {state.turn}: listed {game.moves()} actions, expected "
                f"{len(expected)}; first difference at "
                f"{_first_difference(game.actions(), expected)}"
            )
        states += 1
        if state.is_over or state.turn >= max_turns:
            break
        if successors:
            for index, action in enumerate(expected):
                child = game.copy()
                child.play(index)
                if child.state() != splendor.apply(state, action):
                    raise Mismatch(f"{where} turn {state.turn}: action {index} ({action}) differs")
            compared += len(expected)
        index = rng.randrange(len(expected))
        game.play(index)
        state = splendor.apply(state, expected[index])
    if game.is_over != state.is_over:
        raise Mismatch(f"{where}: is_over differs at the end")
    return Tally(1, states, compared)


def _first_difference(got: Sequence[Action], expected: Sequence[Action]) -> str:
    for index, (a, b) in enumerate(zip(got, expected, strict=False)):
        if a != b:
            return f"index {index}: {a} instead of {b}"
    return f"index {min(len(got), len(expected))} (one list is longer)"


def _implementation(name: str) -> GameMaker:
    if name == "pure":
        from splendor.fast import reference as fast_pure

        return fast_pure.Game.from_state
    from splendor.fast import _kernel

    maker: GameMaker = _kernel.Game.from_state
    return maker


def _worker(job: tuple[str, int, int, int]) -> Tally:
    name, first_seed, step, target = job
    from_state = _implementation(name)
    total = Tally()
    seed = first_seed
    while total.successors < target:
        players, variant = SETTINGS[seed % len(SETTINGS)]
        total += check_game(from_state, players, VARIANTS[variant], seed)
        seed += step
    return total


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check from the command line; print what it covered."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--successors", type=int, default=1_000_000, help="successor states")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--implementation", choices=["kernel", "pure"], default="kernel")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    jobs = [
        (args.implementation, args.seed + w, args.workers, -(-args.successors // args.workers))
        for w in range(args.workers)
    ]
    with multiprocessing.Pool(args.workers) as pool:
        parts = pool.map(_worker, jobs)
    total = sum(parts, Tally())
    seconds = time.perf_counter() - start
    print(
        f"{args.implementation}: {total.games:,} games, {total.states:,} states "
        f"(listing compared), {total.successors:,} successor states compared, "
        f"{total.states + total.successors:,} states in all, no difference, in {seconds:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
