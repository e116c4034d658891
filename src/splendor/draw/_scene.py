"""What a picture of the table shows, whatever it is drawn from.

:func:`table_of` reads a :class:`~splendor.core.state.GameState` (from a seat's
viewpoint or openly), a :class:`~splendor.core.views.PlayerView` or a game
that gives its state (:class:`splendor.draw.text.SupportsState`) into one
:class:`Table`, so the SVG picture (:mod:`splendor.draw.svg`), the text board
(:mod:`splendor.draw.text`) and the command line draw the same things the same
way. The module is internal: its names are public only to the modules of the
package that draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from splendor.core.components import Card, Noble
from splendor.core.gems import Tokens
from splendor.core.state import GameState, PlayerState
from splendor.core.views import PlayerView, PublicPlayer
from splendor.core.wording import plural
from splendor.errors import InvalidArgumentError

__all__ = [
    "TIERS_TOP_DOWN",
    "Seat",
    "Table",
    "check_seat",
    "headline",
    "table_of",
    "with_names",
]


#: The tiers from the top of the table down, as pictures draw the rows.
TIERS_TOP_DOWN: Final = (3, 2, 1)


@attrs.frozen
class Seat:
    """What a picture shows of one seat.

    Attributes:
        name: the seat's name (``Player 0`` unless given).
        tokens: the tokens held.
        bonuses: the bonuses of the cards bought.
        points: the points.
        cards: how many cards were bought.
        nobles: the nobles received.
        reserved: each reserved card, or the tier of a card reserved unseen
            from a deck that this viewpoint may not see.
        blind: per reserved card, whether it was reserved unseen from a deck.
    """

    name: str
    tokens: Tokens
    bonuses: Tokens
    points: int
    cards: int
    nobles: tuple[Noble, ...]
    reserved: tuple[Card | int, ...]
    blind: tuple[bool, ...]


@attrs.frozen
class Table:
    """Everything a picture shows.

    Attributes:
        board: the face-up cards by tier (tier 1 first), ``None`` for an empty slot.
        deck_sizes: the cards left in each tier's deck, tier 1 first.
        nobles: the nobles still on the table.
        bank: the supply.
        seats: one :class:`Seat` per player.
        current: the seat to move.
        turn: the turns played.
        winners: the winning seats once the game is over.
        viewer: the seat whose viewpoint is drawn; ``None`` for an open picture.
    """

    board: tuple[tuple[Card | None, ...], ...]
    deck_sizes: tuple[int, ...]
    nobles: tuple[Noble, ...]
    bank: Tokens
    seats: tuple[Seat, ...]
    current: int
    turn: int
    winners: tuple[int, ...]
    viewer: int | None


def table_of(table: object, seat: int | None, *, what: str = "render_svg draws") -> Table:
    """Read a state or a view into a :class:`Table`.

    Args:
        table: a state, a view, or a game whose ``state()`` is a state
            (:class:`splendor.draw.text.SupportsState`), read as that state.
        seat: for a state, the viewpoint (other seats' blind reserves are then
            hidden); a view is always read from its own seat, and ``seat``
            must be ``None`` or that seat.
        what: how the caller's error messages start, e.g. ``"render_svg draws"``.

    Raises:
        InvalidArgumentError: for something that is not a state, a view or a
            game giving a state, or a seat out of range.
    """
    if isinstance(table, GameState):
        return _from_state(table, seat)
    if isinstance(table, PlayerView):
        return _from_view(table, seat)
    state = getattr(table, "state", None)
    if callable(state):
        state = state()
        if isinstance(state, GameState):
            return _from_state(state, seat)
        raise InvalidArgumentError(
            f"{what} a GameState or a player's view, or a game whose state() gives a "
            f"GameState: {type(table).__name__}.state() gave {type(state).__name__}"
        )
    raise InvalidArgumentError(
        f"{what} a GameState or a player's view (or a game with a state() method), "
        f"got {type(table).__name__}"
    )


def check_seat(seat: object, count: int) -> None:
    """Refuse a seat that is not ``None`` or one of ``count`` seats."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < count):
        raise InvalidArgumentError(f"seat must be None or 0 to {count - 1}, got {seat!r}")


def _seat(
    index: int,
    player: PlayerState | PublicPlayer,
    reserved: tuple[Card | int, ...],
    blind: tuple[bool, ...],
) -> Seat:
    """One seat: what both a state and a view show of a player."""
    return Seat(
        name=f"Player {index}",
        tokens=player.tokens,
        bonuses=player.bonuses,
        points=player.points,
        cards=len(player.cards),
        nobles=player.nobles,
        reserved=reserved,
        blind=blind,
    )


def _from_state(state: GameState, seat: int | None) -> Table:
    check_seat(seat, len(state.players))
    seats = []
    for index, player in enumerate(state.players):
        hidden = seat is not None and index != seat
        reserved: tuple[Card | int, ...] = tuple(
            card.tier if (hidden and blind) else card
            for card, blind in zip(player.reserved, player.reserved_blind, strict=True)
        )
        seats.append(_seat(index, player, reserved, player.reserved_blind))
    return Table(
        board=state.board,
        deck_sizes=tuple(len(deck) for deck in state.decks),
        nobles=state.nobles,
        bank=state.bank,
        seats=tuple(seats),
        current=state.current_player,
        turn=state.turn,
        winners=state.winners,
        viewer=seat,
    )


def _from_view(seen: PlayerView, seat: int | None) -> Table:
    if seat is not None and seat != seen.seat:
        raise InvalidArgumentError(
            f"a view is drawn from its own seat {seen.seat}, not from seat {seat!r}"
        )
    seats = []
    for index, player in enumerate(seen.players):
        reserved: tuple[Card | int, ...]
        if index == seen.seat and seen.own is not None:
            reserved = seen.own.reserved
            blind = seen.own.reserved_blind
        else:
            reserved = (*player.reserved, *player.blind_reserves)
            blind = (False,) * len(reserved)
        seats.append(_seat(index, player, reserved, blind))
    return Table(
        board=seen.board,
        deck_sizes=seen.deck_sizes,
        nobles=seen.nobles,
        bank=seen.bank,
        seats=tuple(seats),
        current=seen.current_player,
        turn=seen.turn,
        winners=seen.winners,
        viewer=seen.seat,
    )


def with_names(table: Table, names: object) -> Table:
    """``table`` with a name per seat, checked.

    Raises:
        InvalidArgumentError: for ``names`` that is not a sequence of str, one per seat.
    """
    count = len(table.seats)
    if not isinstance(names, Sequence) or isinstance(names, str):
        raise InvalidArgumentError(
            f"expected {count} names, one per seat, as a sequence of str, "
            f"got {type(names).__name__}"
        )
    if len(names) != count:
        raise InvalidArgumentError(f"expected {count} names, one per seat, got {names!r}")
    for name in names:
        if not isinstance(name, str):
            raise InvalidArgumentError(f"a name must be a str, got {name!r}")
    seats = tuple(attrs.evolve(s, name=n) for s, n in zip(table.seats, names, strict=True))
    return attrs.evolve(table, seats=seats)


def headline(table: Table) -> str:
    """Where the game stands, in one line: the turns played and who moves, or who won.

    >>> from splendor import new_game
    >>> headline(table_of(new_game(2, seed=1), None))
    'Start of the game: Player 0 to move'
    """
    names = [seat.name for seat in table.seats]
    if table.winners:
        who = " and ".join(names[s] for s in table.winners)
        verb = "share the win" if len(table.winners) > 1 else "wins"
        if len(table.winners) == 1 and who.lower() == "you":
            verb = "win"
        return f"Game over after {plural(table.turn, 'turn')}: {who} {verb}"
    mover = f"{names[table.current]} to move"
    if table.turn == 0:
        return f"Start of the game: {mover}"
    return f"After {plural(table.turn, 'turn')}: {mover} (round {table.turn // len(names) + 1})"
