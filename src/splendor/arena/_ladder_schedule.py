"""The ladder's schedule: which table plays the next deal.

A deal is played once from every rotation of its table's seats. Its
table (:func:`choose_table`) gives every entrant a fair share of the
games: the entrant with the fewest games plays, against those it has met
least, then those with the fewest games, then those whose ratings are
least certain with it (:func:`uncertainty`); a draw seeded by the deal's
seed breaks the ties left. For 3 or 4 players the opponents are taken from
the :data:`POOL` entrants with the fewest games.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Final

from splendor.arena._ladder_file import LadderFile
from splendor.arena._ladder_rows import LadderError, LadderGame
from splendor.arena._ladder_standings import Standing, standings
from splendor.arena.referee import fair_schedule
from splendor.arena.runs import game_seed

__all__ = ["POOL", "choose_table", "next_game", "uncertainty"]

#: For 3 or 4 players, the tables of a deal are made from this many entrants,
#: those with the fewest games: the tables of all of them would be too many to weigh.
POOL: Final = 16


def next_game(file: LadderFile) -> LadderGame:
    """The first scheduled game; a new deal is scheduled when none is left.

    Raises:
        LadderError: when a deal is due and the ladder has fewer entrants
            than a game has players.
    """
    pending = file.games(finished=False)
    if pending:
        return pending[0]
    with file.transaction():
        pending = file.games(finished=False)  # another process may have scheduled meanwhile
        if not pending:
            _schedule(file)
            pending = file.games(finished=False)
    return pending[0]


def _schedule(file: LadderFile) -> None:
    """Schedule the next deal (inside a transaction)."""
    entrants = file.entrants()
    names = [entrant.name for entrant in entrants]
    players = file.players
    if len(names) < players:
        raise LadderError(
            f"a ladder of {players}-player games needs at least {players} "
            f"entrants, it has {len(names)}"
        )
    deal = file.next_deal()
    seed = game_seed(file.seed, deal)
    if len(names) > players:
        games = file.games(finished=None)
        table = choose_table(
            names,
            standings(entrants, [game for game in games if game.finished], players),
            [game.seats for game in games],
            players,
            seed,
        )
    else:
        table = names
    # The seats of every game of the deal, rotated as in any fair schedule.
    rotations = fair_schedule(table, players, deals=1, seed=0)
    file.schedule(deal, seed, [rotation.seats for rotation in rotations])


def choose_table(
    entrants: Sequence[str],
    ranked: Sequence[Standing],
    tables_met: Sequence[Sequence[str]],
    players: int,
    seed: int,
) -> list[str]:
    """The table of the next deal, its entrants in the order of ``entrants``.

    The entrant with the fewest games sits first (ties: the widest
    interval). Its opponents are those it has met least (the games each
    pair of the table has shared, summed), then those with the fewest
    games, then the table whose ratings are least certain
    (:func:`uncertainty`); a draw seeded by ``seed`` breaks the ties left.
    So every entrant plays its share of the games and every pairing its
    share of each entrant's. For 3 or 4 players the opponents are taken
    from the :data:`POOL` entrants with the fewest games.

    Args:
        entrants: the entrants' names, in the order they were added.
        ranked: every entrant's standing.
        tables_met: the entrants of every game scheduled or played so far.
        players: the players of a game.
        seed: the deal's seed, which draws among entrants and tables tied to the end.
    """
    by_name = {standing.name: standing for standing in ranked}
    played = dict.fromkeys(entrants, 0)
    pairs: dict[frozenset[str], int] = {}
    for seats in tables_met:
        for name in seats:
            played[name] = played.get(name, 0) + 1
        for pair in itertools.combinations(sorted(set(seats)), 2):
            key = frozenset(pair)
            pairs[key] = pairs.get(key, 0) + 1
    draw = random.Random(seed)
    order = {name: k for k, name in enumerate(entrants)}

    def priority(name: str) -> tuple[int, float]:
        return played[name], -round(by_name[name].width, 6)

    fewest = min(priority(name) for name in entrants)
    tied_first = [name for name in entrants if priority(name) == fewest]
    first = tied_first[draw.randrange(len(tied_first))]
    others = sorted(
        (name for name in entrants if name != first),
        key=lambda name: (*priority(name), order[name]),
    )[: POOL - 1]
    tables = [
        sorted((first, *rest), key=order.__getitem__)
        for rest in itertools.combinations(others, players - 1)
    ]
    ranks = [
        (
            sum(pairs.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2)),
            sum(played[name] for name in table),
            -round(uncertainty([by_name[name] for name in table], players), 6),
        )
        for table in tables
    ]
    best = min(ranks)
    tied = [table for table, rank in zip(tables, ranks, strict=True) if rank == best]
    return tied[draw.randrange(len(tied))]


def uncertainty(table: Sequence[Standing], players: int) -> float:
    """How much a game of ``table`` would tell: the widths of its ratings' intervals, summed.

    For 2 players the sum is weighted by how open the game is, ``4 p (1 - p)``
    with ``p`` the first's chance to win by the ratings (1 for equal
    ratings): a Bradley-Terry interval stays wide for an entrant that
    won or lost every game, and a game whose result is all but known
    tells little.
    """
    total = sum(standing.width for standing in table)
    if players == 2:
        first, second = table
        p = 1.0 / (1.0 + 10.0 ** ((second.rating - first.rating) / 400.0))
        total *= 4.0 * p * (1.0 - p)
    return total
