"""Results of games and their ratings: Bradley-Terry for two players, OpenSkill for more.

:func:`rate` fits a **Bradley-Terry** model to the pairwise scores of the
games: in each game every two seats of different entrants meet once, and the
one ranked higher (see :meth:`GameResult.ranks`) scores 1, equal ranks 1/2
each. It gives each entrant a rating on the Elo scale (a difference of 400
means 10 to 1 odds), shifted so that their mean is 1500, with a 95% interval
relative to that mean from the curvature of the likelihood (a Wald interval:
for an entrant that won or lost every game it is only a rough guide). It is
the rating of two-player games, where it is exact.

:func:`rate_skill` rates games of 2 to 4 players as whole rankings, with the
Plackett-Luce model of OpenSkill (the ``openskill`` package, installed by the
``[arena]`` extra): each entrant has a skill ``mu`` and an uncertainty
``sigma``, updated game by game in the order of the games' indexes, and a
95% interval ``mu +- 1.96 sigma``.

Both rank a game the same way: the winners first (sharing the place), then
the others by points and by fewer purchased cards. A game ended by a forfeit
(see :func:`splendor.arena.referee.referee_game`) ranks the forfeiting seat
last and every other seat tied first, whatever the points.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Final

import attrs

from splendor.core.state import GameState
from splendor.errors import InvalidArgumentError
from splendor.extras import require
from splendor.formats.record import Forfeit, GameRecord

__all__ = ["GameResult", "Rating", "SkillRating", "rate", "rate_skill"]

#: Elo points per unit of Bradley-Terry log-strength.
_ELO: Final = 400.0 / math.log(10.0)
_Z95: Final = 1.959963984540054
_MEAN: Final = 1500.0


@attrs.frozen
class GameResult:
    """The outcome of one game of a tournament.

    Attributes:
        index: the game's number in the tournament.
        seed: the seed of its deal and of the bots' generators.
        entrants: the entrant at each seat: its index in the entrants' names
            (:attr:`splendor.arena.tournament.TournamentResult.names`).
        winners: the winning seats; ``()`` when the game stopped unfinished
            at the bound on turns.
        points: the prestige points of each seat at the end.
        cards: the number of cards each seat bought.
        turns: the number of turns played.
        forfeit: the forfeit that ended the game, if one did (see
            :func:`splendor.arena.referee.referee_game`); ``winners`` is then
            every other seat.
    """

    index: int
    seed: int
    entrants: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[int, ...]
    cards: tuple[int, ...]
    turns: int
    forfeit: Forfeit | None = None

    @property
    def finished(self) -> bool:
        """Whether the game ended by the rules."""
        return bool(self.winners)

    @classmethod
    def of(cls, index: int, seed: int, entrants: tuple[int, ...], final: GameState) -> GameResult:
        """The result of game ``index`` whose last state is ``final``."""
        return cls(
            index=index,
            seed=seed,
            entrants=entrants,
            winners=final.winners,
            points=tuple(player.points for player in final.players),
            cards=tuple(len(player.cards) for player in final.players),
            turns=final.turn,
        )

    @classmethod
    def of_record(cls, index: int, entrants: tuple[int, ...], record: GameRecord) -> GameResult:
        """The result of game ``index``, played as ``record`` (which may end by a forfeit)."""
        final = record.final_state()
        return cls(
            index=index,
            seed=record.seed,
            entrants=entrants,
            winners=record.result or (),
            points=tuple(player.points for player in final.players),
            cards=tuple(len(player.cards) for player in final.players),
            turns=final.turn,
            forfeit=record.forfeit,
        )

    def ranks(self) -> tuple[int, ...]:
        """The place of each seat, 0 for the first, equal places for a tie.

        The winners come first, then the others by points and then by fewer
        purchased cards (an unfinished game is ranked the same way). After a
        forfeit the forfeiting seat is last and every other seat ties first,
        whatever the points.

        >>> GameResult(0, 1, (0, 1, 2), (1,), (9, 15, 9), (5, 8, 6), 60).ranks()
        (1, 0, 2)
        >>> forfeit = Forfeit(2, "timeout")
        >>> GameResult(0, 1, (0, 1, 2), (0, 1), (9, 3, 12), (5, 2, 6), 9, forfeit).ranks()
        (0, 0, 1)
        """
        keys = [self._key(seat) for seat in range(len(self.entrants))]
        ordered = sorted(set(keys), reverse=True)
        return tuple(ordered.index(key) for key in keys)

    def _key(self, seat: int) -> tuple[bool, int, int]:
        if self.forfeit is not None:
            return (seat != self.forfeit.seat, 0, 0)
        return (seat in self.winners, self.points[seat], -self.cards[seat])

    def pairs(self) -> list[tuple[int, int, float]]:
        """The pairwise scores of the game: ``(entrant, other, score)`` per two seats.

        Each two seats held by different entrants appear once, with the
        score of the first (1, 1/2 or 0).
        """
        found = []
        ranks = [self._key(seat) for seat in range(len(self.entrants))]
        for a, b in itertools.combinations(range(len(self.entrants)), 2):
            if self.entrants[a] == self.entrants[b]:
                continue
            score = 1.0 if ranks[a] > ranks[b] else 0.0 if ranks[a] < ranks[b] else 0.5
            found.append((self.entrants[a], self.entrants[b], score))
        return found


@attrs.frozen
class Rating:
    """One entrant's rating.

    Attributes:
        name: the entrant's name.
        rating: the Bradley-Terry rating on the Elo scale (mean 1500).
        low: the lower end of its 95% interval.
        high: the upper end of its 95% interval.
        games: the games it played.
        wins: its wins, a shared win counting as a share.
        score: its mean pairwise score (0 to 1) against the other entrants.
    """

    name: str
    rating: float
    low: float
    high: float
    games: int
    wins: float
    score: float


def rate(names: Sequence[str], games: Sequence[GameResult]) -> tuple[Rating, ...]:
    """Fit Bradley-Terry ratings to the pairwise scores of ``games``.

    The fit adds one virtual drawn game of each entrant against an average
    player, so an entrant that won or lost everything still gets a finite
    rating (and a wide interval).

    Args:
        names: the entrants' names, by entrant index.
        games: the games played.

    Returns:
        One :class:`Rating` per entrant, best first.
    """
    n = len(names)
    played = [[0.0] * n for _ in range(n)]
    won = [0.5] * n  # the virtual draw of each entrant
    scored = [0.0] * n
    meetings = [0] * n
    games_of = [0] * n
    wins_of = [0.0] * n
    for game in games:
        for seat, entrant in enumerate(game.entrants):
            games_of[entrant] += 1
            if seat in game.winners:
                wins_of[entrant] += 1.0 / len(game.winners)
        for a, b, score in game.pairs():
            played[a][b] += 1.0
            played[b][a] += 1.0
            won[a] += score
            won[b] += 1.0 - score
            scored[a] += score
            scored[b] += 1.0 - score
            meetings[a] += 1
            meetings[b] += 1
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denominator = 1.0 / (strength[i] + 1.0)  # the virtual average player
            for j in range(n):
                if played[i][j]:
                    denominator += played[i][j] / (strength[i] + strength[j])
            new.append(won[i] / denominator)
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    theta = [math.log(s) for s in strength]
    information = [[0.0] * n for _ in range(n)]
    for i in range(n):
        p = 1.0 / (1.0 + math.exp(-theta[i]))
        information[i][i] += p * (1.0 - p)
        for j in range(n):
            if i != j and played[i][j]:
                q = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                weight = played[i][j] * q * (1.0 - q)
                information[i][i] += weight
                information[i][j] -= weight
    inverse = _inverse(information)
    # The ratings are shown relative to their mean: the variance of
    # theta_i - mean(theta) is (C H^-1 C)_ii with C = I - J/n.
    row_means = [sum(row) / n for row in inverse]
    grand = sum(row_means) / n
    shift = _MEAN - _ELO * sum(theta) / n
    ratings = []
    for i in range(n):
        centre = shift + _ELO * theta[i]
        variance = inverse[i][i] - 2.0 * row_means[i] + grand
        half = _Z95 * _ELO * math.sqrt(max(variance, 0.0))
        ratings.append(
            Rating(
                name=names[i],
                rating=centre,
                low=centre - half,
                high=centre + half,
                games=games_of[i],
                wins=wins_of[i],
                score=scored[i] / meetings[i] if meetings[i] else 0.0,
            )
        )
    ratings.sort(key=lambda r: -r.rating)
    return tuple(ratings)


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small symmetric positive definite matrix (Gauss-Jordan)."""
    n = len(matrix)
    work = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        work[col], work[pivot] = work[pivot], work[col]
        head = work[col][col]
        work[col] = [x / head for x in work[col]]
        for r in range(n):
            if r != col and work[r][col]:
                factor = work[r][col]
                work[r] = [x - factor * y for x, y in zip(work[r], work[col], strict=True)]
    return [row[n:] for row in work]


@attrs.frozen
class SkillRating:
    """One entrant's OpenSkill rating (see :func:`rate_skill`).

    Attributes:
        name: the entrant's name.
        mu: the estimate of its skill (25 before any game).
        sigma: the uncertainty of ``mu`` (25/3 before any game).
        low: the lower end of the 95% interval, ``mu - 1.96 sigma``.
        high: the upper end of the 95% interval, ``mu + 1.96 sigma``.
        ordinal: the conservative skill ``mu - 3 sigma``, the usual key of
            a leaderboard that rewards certainty.
        games: the games it played.
    """

    name: str
    mu: float
    sigma: float
    low: float
    high: float
    ordinal: float
    games: int


def rate_skill(names: Sequence[str], results: Sequence[GameResult]) -> tuple[SkillRating, ...]:
    """Rate the entrants of games of 2 to 4 players with OpenSkill's Plackett-Luce model.

    The games are taken in the order of their indexes, each as the ranking
    of its seats by :meth:`GameResult.ranks` (ties share a place); a forfeit
    puts the forfeiting seat last and ties the others.

    Args:
        names: the entrants' names, by entrant index.
        results: the games played; an entrant holds at most one seat of a game.

    Returns:
        One :class:`SkillRating` per entrant, best ``mu`` first.

    Raises:
        InvalidArgumentError: for a game with an entrant index out of range
            or at two seats.
        MissingExtraError: when the ``openskill`` package is not installed
            (the ``[arena]`` extra).

    >>> games = [GameResult(i, i, (0, 1, 2), (int(i > 3),), (15, 15, 3), (9, 9, 4), 70)
    ...          for i in range(6)]  # ann wins 4 games, bo 2, cy comes last in all
    >>> [r.name for r in rate_skill(["ann", "bo", "cy"], games)]
    ['ann', 'bo', 'cy']
    >>> ann = rate_skill(["ann", "bo", "cy"], games)[0]
    >>> ann.low < ann.mu < ann.high, ann.games
    (True, 6)
    """
    models = require("openskill.models", "arena", "the multiplayer rating")
    model = models.PlackettLuce()
    n = len(names)
    ratings = [model.rating(name=name) for name in names]
    games = [0] * n
    for result in sorted(results, key=lambda r: r.index):
        if len(set(result.entrants)) != len(result.entrants) or not all(
            0 <= e < n for e in result.entrants
        ):
            raise InvalidArgumentError(
                f"game {result.index}: each seat must hold a different entrant of 0 to {n - 1}, "
                f"got {result.entrants}"
            )
        teams = [[ratings[e]] for e in result.entrants]
        rated = model.rate(teams, ranks=[float(rank) for rank in result.ranks()])
        for entrant, team in zip(result.entrants, rated, strict=True):
            ratings[entrant] = team[0]
            games[entrant] += 1
    found = [
        SkillRating(
            name=name,
            mu=float(r.mu),
            sigma=float(r.sigma),
            low=float(r.mu) - _Z95 * float(r.sigma),
            high=float(r.mu) + _Z95 * float(r.sigma),
            ordinal=float(r.mu) - 3.0 * float(r.sigma),
            games=played,
        )
        for name, r, played in zip(names, ratings, games, strict=True)
    ]
    found.sort(key=lambda r: -r.mu)
    return tuple(found)
