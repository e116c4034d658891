"""Differential check of the built-in bots played by :mod:`splendor.fast` against the engine.

A game between :class:`~splendor.GreedyBot` and :class:`~splendor.RandomBot`
seats is played twice: by :func:`splendor.play_game` with the real bots
played on the engine turn by turn (:func:`on_the_engine`), and by
``Game._play_bots`` of an implementation (the compiled kernel, whose
greedy seats weigh the moves in C, or the pure fallback). The two must play
the same action at every turn and reach the same final state; a difference
is a :class:`splendor.testing.ConformanceError` with the state where it
shows, and the final states are compared field by field
(:func:`splendor.testing.state_difference`). The default
test run checks a sample (``tests/fast/test_bot_game.py``); ``nox -s
kernel-diff`` runs this module as a script over thousands of games::

    python -m tools.bot_diff --games 5000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Final, Protocol

import splendor
from splendor import GameState, GreedyBot, RandomBot, Rules
from splendor.players.bots import Bot, bot_name
from splendor.testing import ConformanceError, state_difference
from tools.variants import VARIANTS

#: The settings the games are played under: every player count with every variant.
SETTINGS: Final = tuple((players, name) for name in VARIANTS for players in (2, 3, 4))


class BotGame(Protocol):
    """What the check needs of a game of either implementation."""

    def state(self) -> GameState: ...

    def action(self, index: int) -> splendor.Action: ...

    def play(self, index: int, /) -> None: ...

    def _play_bots(
        self, greedy: Sequence[bool], rngs: Sequence[random.Random], max_turns: int
    ) -> tuple[int, ...]: ...


class GameMaker(Protocol):
    """``Game.new`` of either implementation."""

    def __call__(self, players: int, *, seed: int, rules: Rules | None = None) -> BotGame: ...


def on_the_engine(bots: Sequence[Bot]) -> list[Bot]:
    """The bots, each called through a function of the same name.

    :func:`splendor.play_game` plays such a table on the engine, asking each
    bot for each move, where it plays a table of the built-in bots inside the
    compiled kernel: the game to compare the kernel's with.
    """

    def through(bot: Bot) -> Bot:
        def choose(
            view: splendor.PlayerView, actions: Sequence[splendor.Action], rng: random.Random
        ) -> splendor.Action:
            return bot(view, actions, rng)

        choose.name = bot_name(bot)  # type: ignore[attr-defined]  # the record's name of the seat
        return choose

    return [through(bot) for bot in bots]


def seats(players: int, mix: int) -> tuple[bool, ...]:
    """The greedy seats of mix ``mix``: bit ``seat`` of ``mix`` set for a random seat.

    >>> seats(3, 0), seats(3, 5)
    ((True, True, True), (False, True, False))
    """
    return tuple(not mix >> seat & 1 for seat in range(players))


def check_bot_game(
    new: GameMaker,
    players: int,
    rules: Rules,
    seed: int,
    greedy: tuple[bool, ...],
    max_turns: int = 1000,
) -> int:
    """Play one game both ways and compare every turn; return the turns played.

    Raises:
        ConformanceError: at the first difference.
    """
    bots: list[Bot] = [GreedyBot() if g else RandomBot() for g in greedy]
    record = splendor.play_game(on_the_engine(bots), seed=seed, rules=rules, max_turns=max_turns)
    game = new(players, seed=seed, rules=rules)
    rngs = [random.Random(f"splendor-bot:{seed}:{seat}") for seat in range(players)]
    indices = game._play_bots(greedy, rngs, max_turns)
    where = f"players={players} rules={rules!r} seed={seed} greedy={greedy}"
    replay = new(players, seed=seed, rules=rules)
    for turn, (index, expected) in enumerate(zip(indices, record.actions, strict=False)):
        if replay.action(index) != expected:
            raise ConformanceError(
                f"{where} turn {turn}: played {replay.action(index)}, the bot played {expected}",
                state=record.state_at(turn),
                seed=seed,
                expected=expected,
                got=replay.action(index),
            )
        replay.play(index)
    final = record.final_state()
    if len(indices) != len(record.actions):
        raise ConformanceError(
            f"{where}: {len(indices)} turns played, the bots played {len(record.actions)}",
            state=final,
            seed=seed,
            expected=len(record.actions),
            got=len(indices),
        )
    played = splendor.play_game(bots, seed=seed, rules=rules, max_turns=max_turns)
    if played != record:
        raise ConformanceError(
            f"{where}: play_game's record is not that of the bots played on the engine",
            state=final,
            seed=seed,
            expected=record,
            got=played,
        )
    difference = state_difference(game.state(), final)
    if difference:
        raise ConformanceError(
            f"{where}: the final states differ at {difference}",
            state=final,
            seed=seed,
            expected=final,
            got=game.state(),
        )
    return len(indices)


def run(new: GameMaker, games: int, first_seed: int = 0) -> tuple[int, int]:
    """Check ``games`` games over every setting, seat mix and a few turn bounds.

    Returns:
        The games and turns checked.
    """
    turns = 0
    for seed in range(first_seed, first_seed + games):
        players, variant = SETTINGS[seed % len(SETTINGS)]
        mix = (seed // len(SETTINGS)) % (1 << players)
        # One game in four is cut short, at a turn that depends on the seed.
        max_turns = 1000 if seed % 4 else 1 + seed % 97
        turns += check_bot_game(
            new, players, VARIANTS[variant], seed, seats(players, mix), max_turns
        )
    return games, turns


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check from the command line; print what it covered."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--implementation", choices=["kernel", "pure"], default="kernel")
    args = parser.parse_args(argv)
    if args.implementation == "pure":
        from splendor.fast import reference as fast_pure

        new: GameMaker = fast_pure.Game.new
    else:
        from splendor.fast import _kernel

        new = _kernel.Game.new
    start = time.perf_counter()
    games, turns = run(new, args.games, args.seed)
    seconds = time.perf_counter() - start
    print(
        f"{args.implementation}: {games:,} games between greedy and random bots, "
        f"{turns:,} turns compared, no difference, in {seconds:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
