"""The action encoding over random games: how long, how wide, how fast?

Two measurements, per player count:

- **Shape.** Over seeded random games under the published rules and house
  rules, every decision of every state is visited: the longest decision
  sequence and the most legal codes at one decision (first decisions and
  follow-ups apart) are reported, with the share of states where some turn
  needs a follow-up decision.
- **Speed.** Over the states of seeded random games, one turn is played from
  each state two ways: by the engine (``legal_actions``, then ``apply`` of
  one action) and by codes (``legal_codes`` at each decision, a code picked,
  then ``decode`` and ``apply``). Both pick with the same random numbers; the
  ratio is the time by codes over the time by the engine. The encoding alone
  (``legal_codes`` and ``decode``, no ``apply``) is given in decisions per
  second. Every state is new to the encoding, so each turn pays for its
  decision tree once, as a learner stepping through a game does.

Run with ``python benchmarks/encoding.py --help``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

import splendor
from splendor import GameState, Rules
from splendor.formats import encoding

HOUSE_RULES = {
    "standard": Rules(),
    "no-gold": Rules.no_gold_variant(),
    "token-limit-8": Rules(token_limit=8),
    "token-limit-5": Rules(token_limit=5),
    "all-nobles": Rules(nobles_by_players=(10, 10, 10)),
    "reserve-limit-5": Rules(reserve_limit=5),
}


def shape(state: GameState, seen: Counter[str]) -> None:
    """Visit every decision of ``state``; keep the maxima in ``seen``."""
    stack: list[tuple[int, ...]] = [()]
    follow_up = False
    while stack:
        prefix = stack.pop()
        codes = encoding.legal_codes(state, prefix)
        if not codes:
            seen["longest sequence"] = max(seen["longest sequence"], len(prefix))
            continue
        key = "widest follow-up" if prefix else "widest first decision"
        seen[key] = max(seen[key], len(codes))
        follow_up = follow_up or bool(prefix)
        stack.extend((*prefix, code) for code in codes)
    seen["states"] += 1
    seen["states with a follow-up"] += follow_up


def survey(players: int, games: int, seed: int) -> dict[str, Counter[str]]:
    """The shape of the encoding over random games, per rule set."""
    found: dict[str, Counter[str]] = {}
    for name, rules in HOUSE_RULES.items():
        seen: Counter[str] = Counter()
        for game in range(games):
            rng = random.Random(seed + game)
            state = splendor.new_game(players, seed=seed + game, rules=rules)
            while not state.is_over and state.turn < 400:
                shape(state, seen)
                actions = splendor.legal_actions(state)
                state = splendor.apply(state, actions[rng.randrange(len(actions))])
        found[name] = seen
    return found


def sample(players: int, games: int, seed: int) -> list[GameState]:
    """Every state of ``games`` seeded random games (published rules)."""
    states = []
    for game in range(games):
        rng = random.Random(seed + game)
        state = splendor.new_game(players, seed=seed + game)
        while not state.is_over:
            states.append(state)
            actions = splendor.legal_actions(state)
            state = splendor.apply(state, actions[rng.randrange(len(actions))])
    return states


def by_engine(states: list[GameState], picks: list[float]) -> float:
    """Seconds to list the actions of each state and play one (a turn)."""
    legal_actions, apply = splendor.legal_actions, splendor.apply
    start = time.perf_counter()
    for state, pick in zip(states, picks, strict=True):
        actions = legal_actions(state)
        apply(state, actions[int(pick * len(actions))])
    return time.perf_counter() - start


def by_codes(states: list[GameState], picks: list[float], play: bool) -> tuple[float, int]:
    """Seconds to take every decision of a turn in each state by codes, and
    the number of decisions; ``play`` also applies the decoded action."""
    legal_codes, decode, apply = encoding.legal_codes, encoding.decode, splendor.apply
    decisions = 0
    start = time.perf_counter()
    for state, pick in zip(states, picks, strict=True):
        prefix: tuple[int, ...] = ()
        codes = legal_codes(state, prefix)
        while codes:
            prefix = (*prefix, codes[int(pick * len(codes))])
            codes = legal_codes(state, prefix)
        action = decode(state, prefix)
        if play:
            apply(state, action)
        decisions += len(prefix)
    return time.perf_counter() - start, decisions


def main() -> int:
    """Run both measurements and print tables."""
    parser = argparse.ArgumentParser(description="The action encoding over random games.")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--survey-games", type=int, default=40, help="games per rule set")
    parser.add_argument("--games", type=int, default=100, help="games timed per player count")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds; the best counts")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()

    print(f"splendor {splendor.__version__}, Python {sys.version.split()[0]}")
    print(f"encoding version {encoding.ENCODING_VERSION}, ACTION_COUNT {encoding.ACTION_COUNT}")
    print()
    print(
        f"{'players':>7} {'rules':>16} {'states':>7} {'follow-up':>9} "
        f"{'longest':>7} {'widest 1st':>10} {'widest next':>11}"
    )
    overall: Counter[str] = Counter()
    for players in args.players:
        for name, seen in survey(players, args.survey_games, args.seed).items():
            share = seen["states with a follow-up"] / max(1, seen["states"])
            print(
                f"{players:>7} {name:>16} {seen['states']:>7} {share:>9.1%} "
                f"{seen['longest sequence']:>7} {seen['widest first decision']:>10} "
                f"{seen['widest follow-up']:>11}"
            )
            for key in ("longest sequence", "widest first decision", "widest follow-up"):
                overall[key] = max(overall[key], seen[key])
            overall["states"] += seen["states"]
    print(
        f"over {overall['states']} states: longest sequence {overall['longest sequence']}, "
        f"widest first decision {overall['widest first decision']}, "
        f"widest follow-up {overall['widest follow-up']}"
    )
    print()
    print(
        f"{'players':>7} {'states':>7} {'engine turns/s':>14} {'by codes turns/s':>16} "
        f"{'ratio':>6} {'decisions/turn':>14} {'codes decisions/s':>17}"
    )
    for players in args.players:
        states = sample(players, args.games, args.seed)
        rng = random.Random(args.seed)
        picks = [rng.random() for _ in states]
        engine = codes_only = codes_played = float("inf")
        decisions = 0
        # The best of several rounds, alternating, so that a busy machine
        # slows both sides alike.
        for _ in range(args.rounds):
            engine = min(engine, by_engine(states, picks))
            seconds, decisions = by_codes(states, picks, play=False)
            codes_only = min(codes_only, seconds)
            codes_played = min(codes_played, by_codes(states, picks, play=True)[0])
        turns = len(states)
        print(
            f"{players:>7} {turns:>7} {turns / engine:>14,.0f} {turns / codes_played:>16,.0f} "
            f"{codes_played / engine:>6.2f} {decisions / turns:>14.3f} "
            f"{decisions / codes_only:>17,.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
