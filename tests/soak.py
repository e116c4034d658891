"""A soak: many whole games, every invariant checked after every turn.

Run it with ``nox -s soak -- --games 1000000`` (or ``python -m tests.soak``).
Games cycle through 2, 3 and 4 players, several house rules and two kinds of
players (uniformly random moves, and :class:`splendor.GreedyBot` seats mixed
with random ones). After each turn the new state must pass
:func:`splendor.check_state`, and the turn itself must be one the rules allow:
only the mover's holdings changed, the turn counter and the seat moved on,
tokens per colour add up to the setup totals, nothing is negative, every card
and noble is in exactly one place, points are the cards' and nobles' points,
and the game ends exactly when a round ends with someone at the target (or a
whole round of passes), won by the tie-break.

It prints games per second, the violations found (the first few in full),
and the memory of the process at the start and at the end.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence

import splendor
from splendor import Action, GameState, PlayerState, Rules
from splendor.bots import GreedyBot

#: The rule sets the soak cycles through.
RULE_SETS: tuple[Rules, ...] = (
    Rules(),
    Rules.no_gold_variant(),
    Rules(points_to_win=21),
    Rules(token_limit=7, reserve_limit=2),
    Rules(gems_by_players=(3, 4, 9), gold_by_players=(2, 7, 1), nobles_by_players=(0, 10, 2)),
)

#: Games stop here if they have not ended (a game of passes can be long).
MAX_TURNS = 2_000

Chooser = Callable[[GameState, Sequence[Action], random.Random], Action]


def _random(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    return actions[rng.randrange(len(actions))]


_GREEDY = GreedyBot()


def _greedy(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    return _GREEDY(splendor.view(state, state.current_player), actions, rng)


def _points(player: PlayerState) -> int:
    return sum(card.points for card in player.cards) + sum(noble.points for noble in player.nobles)


def _tie_break(state: GameState) -> tuple[int, ...]:
    best = max((p.points, -len(p.cards)) for p in state.players)
    return tuple(i for i, p in enumerate(state.players) if (p.points, -len(p.cards)) == best)


def check_turn(before: GameState, action: Action, after: GameState) -> list[str]:
    """Every rule broken by the turn from ``before`` to ``after``; empty when none."""
    problems: list[str] = []
    try:
        splendor.check_state(after)
    except splendor.SplendorError as error:
        problems.append(f"check_state: {error}")
    players = len(before.players)
    seat = before.current_player
    if after.turn != before.turn + 1:
        problems.append(f"turn went from {before.turn} to {after.turn}")
    for other, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        if other != seat and old != new:
            problems.append(f"seat {other} changed on seat {seat}'s turn")
    mover = after.players[seat]
    if mover.points != _points(mover):
        problems.append(
            f"seat {seat} has {mover.points} points, its cards and nobles make it {_points(mover)}"
        )
    if len(mover.reserved) > after.rules.reserve_limit:
        problems.append(f"seat {seat} holds {len(mover.reserved)} reserved cards")
    if mover.tokens.total > after.rules.token_limit:
        problems.append(f"seat {seat} ends with {mover.tokens.total} tokens")
    gained = len(mover.nobles) - len(before.players[seat].nobles)
    if gained not in (0, 1):
        problems.append(f"seat {seat} received {gained} nobles in one turn")
    if len(after.nobles) + gained != len(before.nobles):
        problems.append("a noble appeared or vanished")
    end_of_round = after.turn % players == 0
    reached = max(p.points for p in after.players) >= after.rules.points_to_win
    should_end = end_of_round and (reached or after.passes >= players)
    if after.is_over != should_end:
        problems.append(f"is_over is {after.is_over}, the rules say {should_end}")
    if after.is_over:
        if after.winners != _tie_break(after):
            problems.append(f"winners {after.winners}, the tie-break gives {_tie_break(after)}")
        if after.current_player != 0:
            problems.append("a finished game has a seat other than 0 to move")
    elif after.current_player != (seat + 1) % players:
        problems.append(f"seat {after.current_player} moves after seat {seat}")
    if splendor.legal_actions(before).count(action) != 1:
        problems.append(f"{action} is not listed exactly once")
    return problems


def play(
    seed: int, players: int, rules: Rules, choosers: Sequence[Chooser]
) -> tuple[int, list[str]]:
    """Play one game, checking every turn; the turns played and the violations."""
    rng = random.Random(seed)
    state = splendor.new_game(players, seed=seed, rules=rules)
    problems: list[str] = []
    try:
        splendor.check_state(state)
    except splendor.SplendorError as error:
        problems.append(f"deal: {error}")
    while not state.is_over and state.turn < MAX_TURNS:
        actions = splendor.legal_actions(state)
        if not actions:
            problems.append(f"turn {state.turn}: no legal action in a game that is not over")
            break
        action = choosers[state.current_player](state, actions, rng)
        after = splendor.apply(state, action)
        problems += (
            f"seed {seed} turn {state.turn}: {p}" for p in check_turn(state, action, after)
        )
        state = after
    return state.turn, problems


def _memory_kib() -> int:
    """The resident memory of this process, in KiB (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return 0
    import resource

    return pages * resource.getpagesize() // 1024


def game(n: int, seed: int = 0) -> tuple[int, list[str]]:
    """Game number ``n`` of a soak: its player count, rules and players follow from ``n``."""
    players = 2 + n % 3
    rules = RULE_SETS[n // 3 % len(RULE_SETS)]
    choosers: list[Chooser] = [_random] * players
    if n % 4 == 3:
        choosers[n % players] = _greedy
    return play(seed + n, players, rules, choosers)


def soak(games: int, *, seed: int = 0, workers: int = 1, out: Callable[[str], None] = print) -> int:
    """Play ``games`` games and report; the number of violations found."""
    start_memory = _memory_kib()
    started = time.perf_counter()
    turns = 0
    violations = 0
    shown = 0
    results: Iterable[tuple[int, list[str]]]
    if workers > 1:
        pool = multiprocessing.get_context("spawn").Pool(workers)
        results = pool.imap(functools.partial(game, seed=seed), range(games), chunksize=64)
    else:
        pool = None
        results = (game(n, seed) for n in range(games))
    for n, (played, problems) in enumerate(results):
        turns += played
        violations += len(problems)
        for problem in problems[: max(0, 10 - shown)]:
            out(f"VIOLATION {problem}")
            shown += 1
        if (n + 1) % 10_000 == 0:
            rate = (n + 1) / (time.perf_counter() - started)
            out(f"{n + 1} games, {rate:.0f} games/s, {violations} violations, {_memory_kib()} KiB")
    if pool is not None:
        pool.close()
        pool.join()
    elapsed = time.perf_counter() - started
    out(
        f"soak: {games} games, {turns} turns in {elapsed:.1f} s "
        f"({games / elapsed:.0f} games/s, {turns / elapsed:.0f} turns/s); "
        f"{violations} violations; memory of the main process {start_memory} KiB at start, "
        f"{_memory_kib()} KiB at end"
    )
    return violations


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m tests.soak --games N --seed S``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play (10,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in (1)")
    args = parser.parse_args(argv)
    return 1 if soak(args.games, seed=args.seed, workers=args.workers) else 0


if __name__ == "__main__":
    sys.exit(main())
