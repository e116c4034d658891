"""Game states: :class:`PlayerState` and :class:`GameState`.

States are frozen values: hashable, compared by value, and never changed in
place. :func:`splendor.apply` returns a new state that shares every unchanged
part with the old one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from splendor.core._table_fields import HoldingsAccessors, TableAccessors
from splendor.core.components import Card, Noble, tier_index
from splendor.core.gems import Tokens
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.errors import InvalidArgumentError

__all__ = ["MAX_TURN", "GameState", "PlayerState"]

#: The largest :attr:`GameState.turn`: no game comes near it (a published
#: game lasts well under 200 turns, and every game ends), and every turn
#: number prints.
MAX_TURN: Final = 1_000_000_000


def _check_turn(instance: GameState, attribute: attrs.Attribute[int], value: object) -> None:
    # Only the size: a hand-built state with a negative turn (or one of the
    # wrong type) is for check_state to report, with the invariant it breaks.
    if type(value) is int and not -MAX_TURN <= value <= MAX_TURN:
        raise InvalidArgumentError(
            f"GameState.turn must be at most {MAX_TURN:,}, got {short_repr(value)}"
        )


_NO_TOKENS = Tokens()


@attrs.frozen(repr=False, cache_hash=True)
class PlayerState(HoldingsAccessors):
    """One player's holdings.

    :meth:`can_afford` tells whether the player can pay for a card, and
    :meth:`missing` which tokens it lacks for it.

    Attributes:
        tokens: the tokens held (gold included).
        cards: the purchased development cards, in the order bought.
        reserved: the reserved cards not yet bought, in the order reserved.
        reserved_blind: one flag per reserved card: ``True`` when it was
            reserved unseen from the top of a deck (so only this player knows it).
        nobles: the nobles received, in order.
        points: prestige points (cards plus nobles).
        bonuses: the number of purchased cards of each colour (gold is 0).
    """

    tokens: Tokens = _NO_TOKENS
    cards: tuple[Card, ...] = ()
    reserved: tuple[Card, ...] = ()
    reserved_blind: tuple[bool, ...] = ()
    nobles: tuple[Noble, ...] = ()
    points: int = 0
    bonuses: Tokens = _NO_TOKENS

    def __repr__(self) -> str:
        return (
            f"PlayerState(points={self.points}, tokens={self.tokens}, bonuses={self.bonuses}, "
            f"cards={len(self.cards)}, reserved={[c.id for c in self.reserved]}, "
            f"nobles={[n.id for n in self.nobles]})"
        )


@attrs.frozen(repr=False, cache_hash=True)
class GameState(TableAccessors):
    """The whole state of a game between two turns.

    Build one with :func:`splendor.new_game`; move on with
    :func:`splendor.apply`.

    Attributes:
        rules: the :class:`~splendor.Rules` the game is played under.
        players: every player's :class:`PlayerState`, by seat.
        bank: the supply of tokens.
        board: the face-up cards, one tuple of 4 slots per tier (index 0 is
            tier 1); a slot is ``None`` once its tier's deck ran out.
        decks: the face-down cards of each tier (index 0 is tier 1), the top
            card first.
        nobles: the revealed nobles nobody has received yet.
        current_player: the seat whose turn it is (0 when the game is over).
        turn: the number of turns played so far. The constructor refuses a
            number beyond :data:`MAX_TURN` (either side of 0);
            :func:`~splendor.check_state` reports any other wrong turn.
        passes: how many turns in a row ended with a pass.
        winners: the winning seats once the game is over, else ``()``.
    """

    rules: Rules
    players: tuple[PlayerState, ...]
    bank: Tokens
    board: tuple[tuple[Card | None, ...], ...]
    decks: tuple[tuple[Card, ...], ...]
    nobles: tuple[Noble, ...]
    current_player: int = 0
    turn: int = attrs.field(default=0, validator=_check_turn)
    passes: int = 0
    winners: tuple[int, ...] = ()

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (then :attr:`winners` is not empty)."""
        return bool(self.winners)

    @property
    def player(self) -> PlayerState:
        """The state of the player whose turn it is."""
        return self.players[self.current_player]

    def deck(self, tier: int) -> tuple[Card, ...]:
        """The face-down cards of ``tier`` (1-3), the top card first.

        Raises:
            InvalidArgumentError: for a tier other than 1, 2 or 3.
        """
        return self.decks[tier_index(tier)]

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter (drawn by :func:`splendor.render_svg`)."""
        from splendor.draw.svg import render_svg

        return render_svg(self)

    def __repr__(self) -> str:
        return (
            f"GameState(players={len(self.players)}, turn={self.turn}, "
            f"current_player={self.current_player}, points={[p.points for p in self.players]}, "
            f"winners={self.winners})"
        )


def winners_of(players: Sequence[PlayerState]) -> tuple[int, ...]:
    """The winning seats by the rules once the game ends: most points, then
    fewest purchased cards; those still tied share the win.

    >>> winners_of((PlayerState(points=15), PlayerState(points=15)))
    (0, 1)
    """
    best = max((p.points, -len(p.cards)) for p in players)
    return tuple(seat for seat, p in enumerate(players) if (p.points, -len(p.cards)) == best)
