"""``python -m splendor``: play a seeded game between random players and show it."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from splendor.deal import new_game
from splendor.legal import legal_actions
from splendor.play import apply
from splendor.state import GameState


def describe(state: GameState) -> str:
    """A few lines of text showing the board: nobles, face-up cards, supply."""
    lines = ["Nobles: " + "  ".join(str(n) for n in state.nobles)]
    for tier in (3, 2, 1):
        cards = "  ".join("(empty)" if c is None else str(c) for c in state.face_up(tier))
        lines.append(f"Tier {tier} [{len(state.deck(tier))} in deck]: {cards}")
    lines.append(f"Supply: {state.bank}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="splendor",
        description="Play a complete seeded game of Splendor between random players.",
    )
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the players")
    args = parser.parse_args(argv)

    state = new_game(args.players, seed=args.seed)
    rng = random.Random(args.seed)
    print(f"A {args.players}-player game, seed {args.seed}.")
    print(describe(state))
    print()
    while not state.is_over:
        seat = state.current_player
        actions = legal_actions(state)
        action = actions[rng.randrange(len(actions))]
        state = apply(state, action)
        player = state.players[seat]
        print(
            f"Turn {state.turn:3}  player {seat}: {action}"
            f"  -> {player.points} pts, tokens {player.tokens}"
        )
    print()
    print(describe(state))
    print()
    for seat, player in enumerate(state.players):
        print(
            f"Player {seat}: {player.points} points, {len(player.cards)} cards, "
            f"{len(player.nobles)} nobles"
        )
    names = " and ".join(f"player {seat}" for seat in state.winners)
    verb = "shares the win" if len(state.winners) > 1 else "wins"
    print(f"After {state.round} rounds, {names} {verb}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
