"""The ladder's standings: each entrant's rating and counts, from the stored results.

For 2 players Bradley-Terry on the Elo scale (:func:`splendor.arena.ratings.rate`),
for 3 or 4 players OpenSkill's Plackett-Luce model
(:func:`splendor.arena.ratings.rate_skill`), each with a 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from splendor.arena._ladder_rows import Entrant, LadderGame
from splendor.arena.ratings import GameResult, rate, rate_skill

__all__ = ["Standing", "standings"]


@attrs.frozen
class Standing:
    """One entrant's line of the ladder's table.

    Attributes:
        name: the entrant's name.
        spec: its bot spec.
        rating: its rating: for 2 players Bradley-Terry on the Elo scale
            (mean 1500), for 3 or 4 players OpenSkill's ``mu`` (25 at the start).
        low: the lower end of the rating's 95% interval.
        high: the upper end of the rating's 95% interval.
        games: the finished games it played.
        wins: its wins, a shared win counting as a share.
        forfeits: the games it forfeited.
    """

    name: str
    spec: str
    rating: float
    low: float
    high: float
    games: int
    wins: float
    forfeits: int

    @property
    def width(self) -> float:
        """The width of the rating's interval: how uncertain the rating still is."""
        return self.high - self.low


def standings(
    entrants: Sequence[Entrant], games: Sequence[LadderGame], players: int
) -> tuple[Standing, ...]:
    """Every entrant's rating, interval and counts from the finished ``games``, best first.

    Raises:
        splendor.errors.MissingExtraError: for games of 3 or 4 players when
            the ``openskill`` package (the ``[arena]`` extra) is missing.
    """
    if not entrants:
        return ()
    names = [entrant.name for entrant in entrants]
    index = {name: k for k, name in enumerate(names)}
    results = []
    wins = dict.fromkeys(names, 0.0)
    forfeits = dict.fromkeys(names, 0)
    for game in games:
        seats = tuple(index[name] for name in game.seats)
        results.append(
            GameResult(
                game.id,
                game.seed,
                seats,
                game.winners,
                game.points,
                game.cards,
                game.turns,
                game.forfeit,
            )
        )
        for seat in game.winners:
            wins[game.seats[seat]] += 1.0 / len(game.winners)
        if game.forfeit is not None:
            forfeits[game.seats[game.forfeit.seat]] += 1
    specs = {entrant.name: entrant.spec for entrant in entrants}
    if players == 2:
        rated = [(r.name, r.rating, r.low, r.high, r.games) for r in rate(names, results)]
    else:
        rated = [(r.name, r.mu, r.low, r.high, r.games) for r in rate_skill(names, results)]
    return tuple(
        Standing(
            name=name,
            spec=specs[name],
            rating=rating,
            low=low,
            high=high,
            games=count,
            wins=wins[name],
            forfeits=forfeits[name],
        )
        for name, rating, low, high, count in rated
    )
