"""The ladder's schedule: which table plays the next deal.

A deal is the table whose entrants' ratings are least certain together
(the widest 95% intervals summed, for 2 players weighted by how open the
game is by those ratings; ties go to the table that has met least, then to
a draw seeded by the deal's seed), played once from every rotation of its
seats. For 3 or 4 players the tables are made from the :data:`POOL` least
certain entrants.
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
#: the least certain: the tables of all of them would be too many to weigh.
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

    Args:
        entrants: the entrants' names, in the order they were added.
        ranked: every entrant's standing.
        tables_met: the entrants of every game scheduled or played so far.
        players: the players of a game.
        seed: the deal's seed, which draws among tables tied to the end.
    """
    by_name = {standing.name: standing for standing in ranked}
    met: dict[frozenset[str], int] = {}
    for seats in tables_met:
        key = frozenset(seats)
        met[key] = met.get(key, 0) + 1
    pool = list(entrants)
    if players > 2 and len(pool) > POOL:
        order = {name: k for k, name in enumerate(entrants)}
        pool = sorted(
            entrants,
            key=lambda name: (-by_name[name].width, by_name[name].games, order[name]),
        )[:POOL]
        pool.sort(key=order.__getitem__)
    tables = list(itertools.combinations(pool, players))
    ranks = [
        (
            -round(uncertainty([by_name[name] for name in table], players), 6),
            met.get(frozenset(table), 0),
        )
        for table in tables
    ]
    best = min(ranks)
    tied = [table for table, rank in zip(tables, ranks, strict=True) if rank == best]
    return list(tied[random.Random(seed).randrange(len(tied))])


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
