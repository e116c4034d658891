"""How well cheap orderings of the moves foresee what a deep search plays.

SearchBot's progressive widening lets a node's moves compete in the order of
a cheap prior, so the prior decides which moves a shallow node ever tries.
This script measures that order against the move a deep search visits most:
it plays games between two bots (``--bot`` and ``--against``, each deal
twice with the seats swapped), and at every turn runs a deep search
(``--iterations``, the network, from the mover's view) and ranks its most
visited move under

- ``prior``: the search's prior (:func:`splendor.fast.search_reference.priors`);
- ``network``: the value network one move ahead, from the mover's view (a
  move that ends the game ranked by its result);
- ``again``: a second deep search with another seed, ranked by its visits:
  how far two searches of the same size agree, the most an ordering can hope
  to foresee.

A rank is the number of moves placed before the move (ties in the listing's
order, as the search breaks them). It prints, for each ordering, the share
of turns where the deep search's move is ranked first, in the first 2, 4 and
8, and its mean rank.

    python benchmarks/move_order.py --deals 10 --first 6000 --workers 2 --out order.jsonl

Deal ``d`` is dealt with seed ``10000 + d``, as in ``strength.py``. With
``--out`` each deal's turns are appended to a JSON-lines file and a run
started again with the same file plays only the missing deals.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import splendor
from splendor import GameState, play_game
from splendor.arena.parallel import run_tasks
from splendor.fast.network import ValueNetwork, evaluate_batch, load_network, network_input
from splendor.fast.search_reference import priors
from splendor.players.bots import load_bot

ORDERINGS = ("prior", "network", "again")
TOPS = (1, 2, 4, 8)

Task = tuple[str, str, int, int]


def rank(scores: Sequence[float], index: int) -> int:
    """The moves ``scores`` places before move ``index`` (ties in listing order)."""
    mine = scores[index]
    return sum(1 for k, value in enumerate(scores) if value > mine or (value == mine and k < index))


def _ahead(network: ValueNetwork, state: GameState) -> list[float]:
    """Each legal move's chance of winning for the mover, one move ahead."""
    seat = state.current_player
    rows = []
    ended: list[float | None] = []
    for action in splendor.legal_actions(state):
        after = splendor.apply(state, action)
        if after.is_over:
            ended.append(1.0 / len(after.winners) if seat in after.winners else 0.0)
            rows.append(network_input(state, seat))
        else:
            ended.append(None)
            rows.append(network_input(after, seat))
    values = evaluate_batch(network, np.array(rows))[:, 0]
    return [float(v) if e is None else e for e, v in zip(ended, values, strict=True)]


def play_deal(task: Task) -> list[dict[str, int]]:
    """The ranks of the deep search's move at every turn of one deal's two games."""
    bot, against, iterations, deal = task
    network = load_network(2)
    rows = []
    for seat in (0, 1):
        bots = [load_bot(against), load_bot(against)]
        bots[seat] = load_bot(bot)
        record = play_game(bots, seed=10000 + deal)
        state = record.initial_state()
        deep = splendor.SearchBot(iterations=iterations, network=True, seed=deal)
        again = splendor.SearchBot(iterations=iterations, network=True, seed=deal + 1)
        for action in record.actions:
            seen = splendor.view(state, state.current_player)
            visits = deep.search(seen, random.Random(0)).visits
            best = max(range(len(visits)), key=lambda k: (visits[k], -k))
            orders = {
                "prior": priors(state, splendor.legal_actions(state)),
                "network": _ahead(network, state),
                "again": [float(v) for v in again.search(seen, random.Random(0)).visits],
            }
            row = {name: rank(scores, best) for name, scores in orders.items()}
            rows.append({"deal": deal, "turn": state.turn, **row})
            state = splendor.apply(state, action)
    return rows


def summary(rows: Sequence[dict[str, int]]) -> str:
    """The table this script prints."""
    head = "ordering   " + "".join(f" first {k:<3}" for k in TOPS) + "  mean rank"
    lines = [f"{len(rows)} turns", head]
    for name in ORDERINGS:
        ranks = [row[name] for row in rows]
        shares = "".join(f"   {sum(r < k for r in ranks) / len(ranks):6.1%} " for k in TOPS)
        lines.append(f"{name:<10} {shares}  {sum(ranks) / len(ranks):8.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--bot", default="search:iterations=3000,network=true")
    parser.add_argument("--against", default="ismcts:iterations=500")
    parser.add_argument("--iterations", type=int, default=10000, help="the deep search's budget")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--first", type=int, default=6000, help="the first deal's number")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, help="a JSON-lines file to append to and resume from")
    args = parser.parse_args(argv)
    rows: list[dict[str, int]] = []
    if args.out is not None and args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line]
    done = {row["deal"] for row in rows}
    tasks = [
        (args.bot, args.against, args.iterations, deal)
        for deal in range(args.first, args.first + args.deals)
        if deal not in done
    ]
    for _, result in run_tasks(play_deal, tasks, workers=args.workers):
        rows.extend(result)
        if args.out is not None:
            with args.out.open("a") as out:
                out.writelines(json.dumps(row) + "\n" for row in result)
        print(f"deal {result[0]['deal'] if result else '?'}: {len(result)} turns", file=sys.stderr)
    wanted = set(range(args.first, args.first + args.deals))
    print(summary([row for row in rows if row["deal"] in wanted]))


if __name__ == "__main__":
    main()
