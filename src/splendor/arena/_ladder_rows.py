"""The rows of a ladder's tables as values: entrants, games, and the ladder's error.

A game's row is read back by :func:`game_of_row`, which refuses a damaged
one; an entrant's name is checked by :func:`check_name` before it is written.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Final

import attrs

from splendor.core.messages import short_repr
from splendor.errors import SplendorError
from splendor.formats.record import Forfeit

__all__ = [
    "MAX_NAME",
    "Entrant",
    "LadderError",
    "LadderGame",
    "check_name",
    "game_of_row",
    "int_of",
]

# The longest name of an entrant, in characters.
MAX_NAME: Final = 40


class LadderError(SplendorError):
    """A ladder file that cannot be used, or a request the ladder cannot carry out.

    Raised for a file that is not a ladder (or is damaged, or of a newer
    version), a missing ladder, a duplicate or malformed entrant name, too
    few entrants to play, or settings that contradict the file's own.
    """


@attrs.frozen
class Entrant:
    """One entrant of a ladder.

    Attributes:
        name: its name, unique in the ladder.
        spec: its bot spec (see :func:`splendor.players.bots.load_bot`).
        added: when it was added, as an ISO 8601 UTC time.
    """

    name: str
    spec: str
    added: str


@attrs.frozen
class LadderGame:
    """One game of a ladder, finished or scheduled.

    Attributes:
        id: the game's number in the ladder (the order it was scheduled in).
        deal: the number of the deal it belongs to.
        seed: the seed it is (or was) played with.
        seats: the entrant's name at each seat.
        finished: whether it has been played; the fields below are empty
            until then.
        winners: the winning seats (every seat but the forfeiting one
            after a forfeit; ``()`` for a game stopped unfinished at the
            bound on turns).
        points: the prestige points of each seat at the end.
        cards: the number of cards each seat bought.
        turns: the turns played.
        forfeit: the forfeit that ended the game, if one did: the seat, the
            reason (``"timeout"``, ``"illegal-move"``, ``"protocol"`` or
            ``"crash"``) and what happened.
    """

    id: int
    deal: int
    seed: int
    seats: tuple[str, ...]
    finished: bool = False
    winners: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    turns: int = 0
    forfeit: Forfeit | None = None


def check_name(name: object) -> str:
    """``name`` if it can name an entrant, else the :class:`LadderError` that says why."""
    if not isinstance(name, str):
        raise LadderError(f"an entrant's name is a str, got {type(name).__name__}")
    if not 1 <= len(name) <= MAX_NAME or name != name.strip():
        raise LadderError(
            f"an entrant's name is 1 to {MAX_NAME} characters without spaces around, "
            f"got {short_repr(name)}"
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise LadderError(f"an entrant's name is printable text, got {short_repr(name)}")
    return name


def game_of_row(row: tuple[object, ...]) -> LadderGame:
    """A row of the ``games`` table as a :class:`LadderGame`."""
    game_id, deal, seed, seats, finished, winners, points, cards, turns, seat, reason, detail = row
    try:
        game = LadderGame(int_of(game_id), int_of(deal), int_of(seed), _names(seats))
        if not finished:
            return game
        return attrs.evolve(
            game,
            finished=True,
            winners=_ints(winners),
            points=_ints(points),
            cards=_ints(cards),
            turns=int_of(turns),
            forfeit=None if seat is None else Forfeit(int_of(seat), str(reason), str(detail or "")),
        )
    except (TypeError, ValueError):
        raise LadderError(f"game {short_repr(game_id)} of the ladder is damaged") from None


def int_of(value: object) -> int:
    """``value`` if it is an int, else a TypeError (a damaged row)."""
    if type(value) is not int:
        raise TypeError(value)
    return value


def _ints(text: object) -> tuple[int, ...]:
    values = json.loads(str(text))
    if not isinstance(values, list):
        raise TypeError(values)
    return tuple(int_of(value) for value in values)


def _names(text: object) -> tuple[str, ...]:
    values = json.loads(str(text))
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise TypeError(values)
    return tuple(values)
