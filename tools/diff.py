"""Differential check of a :mod:`splendor.fast` implementation against the attrs engine.

A seeded random game is played on both side by side by
:func:`splendor.testing.check_game`: at every state the implementation must
list exactly :func:`splendor.legal_actions` (the same actions in the same
order), agree on the end of the game and its winners, and playing each
action on a copy must give exactly the state :func:`splendor.apply` gives.
Besides, its count of the actions (``action_count()``) must be the length of its
listing. The default test run checks a sample (``tests/fast/test_diff.py``);
``nox -s kernel-diff`` runs this module as a script over a million states or
more::

    python -m tools.diff --successors 1000000 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Sequence
from typing import Final, Protocol

import attrs

from splendor import GameState, Rules
from splendor.core.actions import Action
from splendor.testing import ConformanceReport, EngineGame
from splendor.testing import check_game as check_conformance
from tools.variants import VARIANTS


class FastGame(Protocol):
    """What the check needs of a game of :mod:`splendor.fast` (either implementation)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    def state(self) -> GameState: ...

    def actions(self) -> tuple[Action, ...]: ...

    def action_count(self) -> int: ...

    def copy(self) -> FastGame: ...

    def play(self, index: int, /) -> None: ...


class GameMaker(Protocol):
    """``Game.from_state`` of either implementation."""

    def __call__(self, state: GameState, /) -> FastGame: ...


class CountError(AssertionError):
    """The game's count of its actions is not the length of its listing."""


@attrs.frozen
class Counted:
    """A game of :mod:`splendor.fast` whose listing is checked against its ``action_count()`` too.

    The games played on copies, for the successor states, are the
    implementation's own.
    """

    game: FastGame

    @property
    def is_over(self) -> bool:
        """The game's ``is_over``."""
        return self.game.is_over

    @property
    def winners(self) -> tuple[int, ...]:
        """The game's ``winners``."""
        return self.game.winners

    def state(self) -> GameState:
        """The game's state."""
        return self.game.state()

    def actions(self) -> tuple[Action, ...]:
        """The game's listing, once its length is checked against ``action_count()``.

        Raises:
            CountError: when they differ.
        """
        counted = self.game.action_count()  # counted before the listing, then by it
        actions = self.game.actions()
        if counted != len(actions) or self.game.action_count() != len(actions):
            raise CountError(f"action_count() counts {counted}, actions() lists {len(actions)}")
        return actions

    def copy(self) -> EngineGame:
        """A copy of the game (not counted)."""
        return self.game.copy()

    def play(self, index: int, /) -> None:
        """Play action ``index`` of the listing."""
        self.game.play(index)


@attrs.frozen
class CountedEngine:
    """The engine of :func:`splendor.testing.check_game`: games of ``from_state``, counted."""

    from_state_of: GameMaker

    def from_state(self, state: GameState, /) -> EngineGame:
        """A :class:`Counted` game at ``state``."""
        return Counted(self.from_state_of(state))


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
) -> ConformanceReport:
    """Play one seeded random game on both sides, comparing at every state.

    Raises:
        ConformanceError: at the first difference (a :class:`CountError` is
            reported as one, raised by the engine).
    """
    return check_conformance(
        CountedEngine(from_state),
        players,
        seed=seed,
        rules=rules,
        successors=None if successors else 0,
        max_turns=max_turns,
    )


def _implementation(name: str) -> GameMaker:
    if name == "pure":
        from splendor.fast import reference as fast_pure

        return fast_pure.Game.from_state
    from splendor.fast import _kernel

    maker: GameMaker = _kernel.Game.from_state
    return maker


def _worker(job: tuple[str, int, int, int]) -> ConformanceReport:
    name, first_seed, step, target = job
    from_state = _implementation(name)
    total = ConformanceReport()
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
    total = sum(parts, ConformanceReport())
    seconds = time.perf_counter() - start
    print(
        f"{args.implementation}: {total.games:,} games, {total.states:,} states "
        f"(listing compared), {total.successors:,} successor states compared, "
        f"{total.states + total.successors:,} states in all, no difference, in {seconds:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
