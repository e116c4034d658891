"""A soak: many whole games, every invariant checked after every turn.

Run it with ``nox -s soak -- --games 1000000`` (or ``python -m tools.soak``).
Games cycle through 2, 3 and 4 players and the house rules of
:data:`RULE_SETS`, and come in three kinds:

- **kernel games** (the bulk): random games played in the compiled kernel,
  every turn checked in C by the soak's own checker
  (``tools/_soak_kernel.pyx``, built by ``python -m tools.build_soak_kernel``);
- **cross-checked games** (every ``--python-every``-th): random games in the
  kernel, each state converted to a :class:`splendor.GameState` and checked
  by :func:`check_turn` below, and each successor compared with
  :func:`splendor.apply`'s;
- **bot games** (every ``--bot-every``-th): games of :class:`splendor.GreedyBot`,
  :class:`splendor.players.ismcts.ISMCTSBot` with a tiny budget and random seats,
  played by the engine and checked by :func:`check_turn`.

Without the compiled checker (``--python``, or when it is not built) every
game is played by the engine and checked by :func:`check_turn`.

A turn must pass :func:`splendor.check_state` and be one the rules allow:
only the mover's holdings changed, the turn counter and the seat moved on,
tokens per colour add up to the setup totals, nothing is negative, every
card and noble is in exactly one place, points are the cards' and nobles'
points, the game ends exactly when a round ends with someone at the target
(or a whole round of passes), won by the tie-break, and the action played
was listed once.

It prints games per second, turns, the games of each kind, the violations
found (the first few in full, each with the call of :func:`replay` that
plays the game again, shrunk to few moves) and the memory of the process at
the start and at the end.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence

import attrs

import splendor
from splendor import Action, GameState, PlayerState, Rules
from splendor.players.bots import GreedyBot
from splendor.players.ismcts import ISMCTSBot

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
#: Replays a shrink may spend on one violation.
SHRINK_BUDGET = 400

Chooser = Callable[[GameState, Sequence[Action], random.Random], Action]


def _random(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    return actions[rng.randrange(len(actions))]


_GREEDY = GreedyBot()


def _greedy(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    return _GREEDY(splendor.view(state, state.current_player), actions, rng)


def _searcher(seed: int) -> Chooser:
    bot = ISMCTSBot(iterations=8, seed=seed)

    def choose(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
        return bot(splendor.view(state, state.current_player), actions, rng)

    return choose


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


# -- The compiled checker -----------------------------------------------------------


def compiled_checker() -> bool:
    """Whether the soak's compiled checker (``tools._soak_kernel``) is built and loads."""
    try:
        from tools import _soak_kernel  # noqa: F401
    except ImportError:
        return False
    return True


def _require_checker() -> None:
    if not compiled_checker():
        raise SystemExit(
            "the soak's compiled checker is not built: run python -m tools.build_soak_kernel "
            "(it needs Cython, a C compiler and splendor's compiled kernel; nox -s soak does "
            "it), or pass --python to check every game in Python"
        )


# -- Games ---------------------------------------------------------------------------


@attrs.frozen
class Game:
    """What one game of the soak did."""

    number: int
    kind: str
    players: int
    rules: int
    seed: int
    turns: int
    finished: bool
    picks: tuple[int, ...]
    problems: tuple[str, ...]

    def replay_call(self) -> str:
        """The call of :func:`replay` that plays this game again up to its violation."""
        return f"replay({self.players}, {self.rules}, {self.seed}, {list(self.picks)})"


def play(
    seed: int, players: int, rules: Rules, choosers: Sequence[Chooser]
) -> tuple[GameState, list[int], list[str]]:
    """Play one game on the engine, checking every turn; the last state, the
    indices of the actions played and the violations (the game stops at the first)."""
    rng = random.Random(seed)
    state = splendor.new_game(players, seed=seed, rules=rules)
    picks: list[int] = []
    try:
        splendor.check_state(state)
    except splendor.SplendorError as error:
        return state, picks, [f"deal: {error}"]
    while not state.is_over and state.turn < MAX_TURNS:
        actions = splendor.legal_actions(state)
        if not actions:
            return state, picks, [f"turn {state.turn}: no legal action in a game not over"]
        action = choosers[state.current_player](state, actions, rng)
        picks.append(actions.index(action))
        after = splendor.apply(state, action)
        problems = [f"turn {state.turn}: {p}" for p in check_turn(state, action, after)]
        if problems:
            return after, picks, problems
        state = after
    return state, picks, []


def _kernel_game(state: GameState, seed: int) -> tuple[int, bool, list[int], list[str]]:
    from tools._soak_kernel import Walker, describe

    walker = Walker(state, seed)
    turns = walker.run(MAX_TURNS)
    where = f"turn {walker.turn - 1}" if turns else "deal"
    problems = [f"{where}: {name}" for name in describe(walker.violations)]
    return turns, walker.is_over, walker.picks, problems


def _cross_checked_game(state: GameState, seed: int) -> tuple[int, bool, list[int], list[str]]:
    from tools._soak_kernel import Walker, describe

    walker = Walker(state, seed)
    problems = [f"deal: {name}" for name in describe(walker.violations)]
    turns = 0
    while not problems and not walker.is_over and walker.turn < MAX_TURNS:
        actions = splendor.legal_actions(state)
        if len(actions) != walker.moves:
            problems.append(
                f"turn {state.turn}: the kernel lists {walker.moves} moves, the engine "
                f"{len(actions)}"
            )
            break
        index = walker.pick()
        bad = walker.step(index)
        turns += 1
        after = walker.state()
        problems += (f"turn {state.turn}: {p}" for p in describe(bad))
        problems += (f"turn {state.turn}: {p}" for p in check_turn(state, actions[index], after))
        if after != splendor.apply(state, actions[index]):
            problems.append(f"turn {state.turn}: the kernel's successor differs from apply's")
        state = after
    return turns, walker.is_over, walker.picks, problems


def game(
    n: int, seed: int = 0, *, python_every: int = 0, bot_every: int = 0, kernel: bool = False
) -> Game:
    """Game number ``n`` of a soak: its player count, rules, kind and seed follow from ``n``.

    Every ``bot_every``-th game (none when 0) is played by bots on the
    engine; with ``kernel``, every ``python_every``-th of the rest is a
    cross-checked kernel game and the others kernel games; without it,
    every game is played by the engine with random (and on every fourth
    game one greedy) seats.
    """
    players = 2 + n % 3
    rules_index = n // 3 % len(RULE_SETS)
    rules = RULE_SETS[rules_index]
    game_seed = seed + n
    if bot_every and n % bot_every == bot_every - 1:
        kind = "bot"
        choosers: list[Chooser] = [_greedy, _searcher(game_seed), _random, _greedy][:players]
        rotation = n // bot_every % players
        choosers = choosers[rotation:] + choosers[:rotation]
    elif not kernel:
        kind = "python"
        choosers = [_random] * players
        if n % 4 == 3:
            choosers[n % players] = _greedy
    else:
        _require_checker()
        state = splendor.new_game(players, seed=game_seed, rules=rules)
        if python_every and n % python_every == python_every // 2:
            kind = "cross-checked"
            turns, over, picks, problems = _cross_checked_game(state, game_seed)
        else:
            kind = "kernel"
            turns, over, picks, problems = _kernel_game(state, game_seed)
        return Game(
            n, kind, players, rules_index, game_seed, turns, over, tuple(picks), tuple(problems)
        )
    last, picks, problems = play(game_seed, players, rules, choosers)
    return Game(
        n,
        kind,
        players,
        rules_index,
        game_seed,
        last.turn,
        last.is_over,
        tuple(picks),
        tuple(problems),
    )


# -- Replaying and shrinking a violation --------------------------------------------------


class Replay:
    """A game dealt again from its seed, played move by move with every turn checked.

    Each turn is checked by :func:`check_turn` and, when the compiled checker
    is built, played and checked in the kernel too (its state compared with
    the engine's). :attr:`problems` holds the violations of the deal.
    """

    def __init__(self, players: int, rules: int, seed: int) -> None:
        self.state = splendor.new_game(players, seed=seed, rules=RULE_SETS[rules])
        self.problems: list[str] = []
        self._actions: list[Action] | None = None
        self._walker = None
        if compiled_checker():
            from tools._soak_kernel import Walker, describe

            self._walker = Walker(self.state, seed)
            self.problems = [f"deal: {name}" for name in describe(self._walker.violations)]

    @property
    def actions(self) -> list[Action]:
        """The legal actions of the seat to move."""
        if self._actions is None:
            self._actions = list(splendor.legal_actions(self.state))
        return self._actions

    def play(self, index: int) -> list[str]:
        """Play ``actions[index]``; the violations of the turn."""
        state = self.state
        action = self.actions[index]
        after = splendor.apply(state, action)
        problems = [f"turn {state.turn}: {p}" for p in check_turn(state, action, after)]
        walker = self._walker
        if walker is not None:
            from tools._soak_kernel import describe

            if walker.moves != len(self.actions):
                problems.append(f"turn {state.turn}: the kernel lists {walker.moves} moves")
            else:
                problems += (f"turn {state.turn}: {p}" for p in describe(walker.step(index)))
                if walker.state() != after:
                    problems.append(f"turn {state.turn}: the kernel's state differs")
        self.state = after
        self._actions = None
        return problems


def replay(players: int, rules: int, seed: int, picks: Sequence[int]) -> list[str]:
    """Play the game dealt by ``seed`` for ``players`` under ``RULE_SETS[rules]``,
    move ``picks[i] % len(legal_actions)`` at turn ``i``; the violations.

    The turns are checked as :class:`Replay` does; the replay stops at the
    end of the game, at the end of ``picks`` or at the first violation. This
    is the form a soak failure takes as a regression test:
    ``assert soak.replay(3, 2, 123, [4, 0, 12]) == []``.
    """
    game = Replay(players, rules, seed)
    if game.problems:
        return game.problems
    for pick in picks:
        if game.state.is_over:
            break
        if not game.actions:
            return [f"turn {game.state.turn}: no legal action in a game not over"]
        problems = game.play(pick % len(game.actions))
        if problems:
            return problems
    return []


def shrink(
    picks: Sequence[int], fails: Callable[[list[int]], bool], budget: int = SHRINK_BUDGET
) -> list[int]:
    """A shorter, smaller list of move indices that still ``fails``.

    Greedy: drop the tail, then each move in turn, then lower each index to 0,
    keeping every change after which the game still fails, within ``budget``
    calls of ``fails``.
    """
    best = list(picks)
    tries = 0

    def still(candidate: list[int]) -> bool:
        nonlocal tries
        tries += 1
        return fails(candidate)

    # The shortest prefix that fails.
    low, high = 0, len(best)
    while low < high and tries < budget:
        middle = (low + high) // 2
        if still(best[:middle]):
            high = middle
        else:
            low = middle + 1
    best = best[:high]
    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(best) - 1, -1, -1):
            if tries >= budget or i >= len(best):
                break
            candidate = best[:i] + best[i + 1 :]
            if still(candidate):
                best = candidate
                changed = True
        for i in range(len(best)):
            if tries >= budget:
                break
            if best[i] and still([*best[:i], 0, *best[i + 1 :]]):
                best[i] = 0
                changed = True
    return best


def shrunk(found: Game) -> Game:
    """``found`` with its moves shrunk to a short sequence that still fails on replay."""

    def fails(picks: list[int]) -> bool:
        return bool(replay(found.players, found.rules, found.seed, picks))

    if not fails(list(found.picks)):
        return found
    picks = shrink(found.picks, fails)
    problems = replay(found.players, found.rules, found.seed, picks)
    return attrs.evolve(found, picks=tuple(picks), problems=tuple(problems), turns=len(picks))


# -- The run --------------------------------------------------------------------------------


def _memory_kib() -> int:
    """The resident memory of this process, in KiB (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return 0
    import resource

    return pages * resource.getpagesize() // 1024


def soak(
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    kernel: bool = False,
    python_every: int = 1000,
    bot_every: int = 1000,
    out: Callable[[str], None] = print,
) -> int:
    """Play ``games`` games and report; the number of games with a violation.

    With ``kernel`` the bulk is played and checked in the compiled kernel
    (see :func:`game` for the kinds of games).
    """
    if kernel:
        _require_checker()
    start_memory = _memory_kib()
    started = time.perf_counter()
    processor = time.process_time()
    turns = 0
    bad_games = 0
    shown = 0
    kinds: dict[str, list[int]] = {}
    unfinished = 0
    play_one = functools.partial(
        game, seed=seed, python_every=python_every, bot_every=bot_every, kernel=kernel
    )
    results: Iterable[Game]
    if workers > 1:
        pool = multiprocessing.get_context("spawn").Pool(workers)
        results = pool.imap(play_one, range(games), chunksize=256)
    else:
        pool = None
        results = map(play_one, range(games))
    for n, played in enumerate(results):
        turns += played.turns
        tally = kinds.setdefault(played.kind, [0, 0])
        tally[0] += 1
        tally[1] += played.turns
        if not played.finished and not played.problems:
            unfinished += 1
            if unfinished <= 3:
                out(
                    f"UNFINISHED game {played.number} ({played.kind}, {played.players} players, "
                    f"rules {played.rules}, seed {played.seed}) stopped at {played.turns} turns"
                )
        if played.problems:
            bad_games += 1
            if shown < 5:
                shown += 1
                small = shrunk(played)
                out(
                    f"VIOLATION in game {played.number} ({played.kind}, {played.players} players, "
                    f"rules {played.rules}, seed {played.seed}): {'; '.join(played.problems)}"
                )
                out(f"  moves played: {played.replay_call()}")
                out(f"  shrunk to {len(small.picks)} moves: {small.replay_call()}")
        if (n + 1) % 50_000 == 0:
            rate = (n + 1) / (time.perf_counter() - started)
            out(f"{n + 1} games, {rate:.0f} games/s, {bad_games} violations, {_memory_kib()} KiB")
    if pool is not None:
        pool.close()
        pool.join()
    elapsed = time.perf_counter() - started
    # Processor time of this process: the workers' when they play in it.
    busy = time.process_time() - processor
    split = ", ".join(f"{count} {kind} ({moved} turns)" for kind, (count, moved) in kinds.items())
    out(
        f"soak: {games} games, {turns} turns in {elapsed:.1f} s "
        f"({games / elapsed:.0f} games/s, {turns / elapsed:.0f} turns/s; "
        f"{busy:.1f} s of processor time in the main process): {split}; "
        f"{unfinished} stopped at {MAX_TURNS} turns; {bad_games} games with a violation; "
        f"memory of the main process {start_memory} KiB at start, {_memory_kib()} KiB at end"
    )
    return bad_games


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m tools.soak --games N --seed S``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play (10,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in (1)")
    parser.add_argument(
        "--python",
        action="store_true",
        help="play and check every game in Python (no compiled checker needed)",
    )
    parser.add_argument(
        "--python-every",
        type=int,
        default=1000,
        help="every N-th kernel game is cross-checked in Python (1000; 0 for none)",
    )
    parser.add_argument(
        "--bot-every",
        type=int,
        default=1000,
        help="every N-th game is played by bots on the engine (1000; 0 for none)",
    )
    args = parser.parse_args(argv)
    found = soak(
        args.games,
        seed=args.seed,
        workers=args.workers,
        kernel=not args.python,
        python_every=args.python_every,
        bot_every=args.bot_every,
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
