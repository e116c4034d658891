"""What one seat may see of a game: :func:`view`, and :func:`determinize` back.

Splendor hides two things: the order of the cards in each deck, and a card
reserved blind from the top of a deck, which only its owner has seen. A
:class:`PlayerView` holds exactly what one seat (or a spectator) knows at a
moment of the game and nothing more, so a bot or a game client can be handed
a view instead of the whole :class:`~splendor.GameState`.

:func:`determinize` goes the other way for search algorithms such as
information-set Monte Carlo tree search: it deals the unseen cards at random
into a full state that the view cannot tell apart from the real one.

The module is longer than most (about 580 lines, half of them docstrings)
because making a view, checking one and dealing one back into a state must
agree field by field; kept together, a change to one is seen beside the
others.

>>> import random, splendor
>>> state = splendor.new_game(2, seed=4)
>>> seen = splendor.view(state, 0)
>>> seen.deck_sizes, len(seen.unseen())
((36, 26, 16), 78)
>>> guess = splendor.determinize(seen, random.Random(1))
>>> splendor.view(guess, 0) == seen, guess.decks == state.decks
(True, False)
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Iterator, Sequence

import attrs

from splendor.core._table_fields import HoldingsAccessors, TableAccessors
from splendor.core.actions import Action
from splendor.core.checks import TIERS, is_int, tuple_of
from splendor.core.components import CARDS, Card, Noble, is_game_card, is_game_noble, tier_index
from splendor.core.gems import Tokens
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.state import GameState, PlayerState
from splendor.core.validation import check_state
from splendor.errors import InvalidArgumentError, SplendorError

__all__ = ["PlayerView", "PublicPlayer", "check_view", "determinize", "view"]


@attrs.frozen
class PublicPlayer(HoldingsAccessors):
    """What every seat may see of one player.

    Tokens and bonuses are public, so :meth:`can_afford` and :meth:`missing`
    tell what any player can pay for, as for a :class:`~splendor.PlayerState`.

    Attributes:
        tokens: the tokens held (gold included).
        cards: the purchased development cards, in the order bought.
        reserved: the reserved cards taken face up from the board, in the
            order reserved.
        blind_reserves: the tier of each card this player reserved blind from
            a deck and still holds, in increasing order. The cards themselves
            are hidden from everyone else.
        nobles: the nobles received, in order.
        points: prestige points (cards plus nobles).
        bonuses: the number of purchased cards of each colour.

    >>> from splendor import new_game
    >>> PublicPlayer.of(new_game(2, seed=1).players[0]).blind_reserves
    ()
    """

    tokens: Tokens
    cards: tuple[Card, ...]
    reserved: tuple[Card, ...]
    blind_reserves: tuple[int, ...]
    nobles: tuple[Noble, ...]
    points: int
    bonuses: Tokens

    @classmethod
    def of(cls, player: PlayerState) -> PublicPlayer:
        """The public part of a player's state.

        Args:
            player: the full state of the player.

        Returns:
            The same holdings, with each blind reserve replaced by its tier.

        Raises:
            InvalidArgumentError: when ``player`` is not a
                :class:`~splendor.PlayerState` with one blind flag per
                reserved card.
        """
        if type(player) is not PlayerState:
            raise InvalidArgumentError(f"expected a PlayerState, got {type(player).__name__}")
        flags = player.reserved_blind
        if (
            type(flags) is not tuple
            or type(player.reserved) is not tuple
            or len(flags) != len(player.reserved)
        ):
            raise InvalidArgumentError(
                "a PlayerState needs a tuple of reserved cards and one blind flag for each"
            )
        return cls(
            tokens=player.tokens,
            cards=player.cards,
            reserved=tuple(c for c, blind in zip(player.reserved, flags, strict=True) if not blind),
            blind_reserves=tuple(
                sorted(c.tier for c, blind in zip(player.reserved, flags, strict=True) if blind)
            ),
            nobles=player.nobles,
            points=player.points,
            bonuses=player.bonuses,
        )

    @property
    def reserved_count(self) -> int:
        """The number of reserved cards held, face-up and blind together."""
        return len(self.reserved) + len(self.blind_reserves)


@attrs.frozen
class PlayerView(TableAccessors):
    """A game as one seat sees it, or as a spectator sees it.

    Build one with :func:`view`. A view is frozen, hashable and compared by
    value; two states that differ only in what the seat cannot see give equal
    views.

    Attributes:
        rules: the :class:`~splendor.Rules` of the game.
        seat: the seat whose view this is, or ``None`` for a spectator.
        own: that seat's full :class:`~splendor.PlayerState`, its blind
            reserves included; ``None`` for a spectator.
        players: the public part of every player, by seat (the viewing seat
            included).
        bank: the supply of tokens.
        board: the face-up cards, as in :attr:`splendor.GameState.board`.
        deck_sizes: the number of face-down cards left in each tier's deck
            (index 0 is tier 1).
        nobles: the revealed nobles nobody has received yet.
        current_player: the seat whose turn it is.
        turn: the number of turns played so far.
        passes: how many turns in a row ended with a pass.
        winners: the winning seats once the game is over, else ``()``.
    """

    rules: Rules
    seat: int | None
    own: PlayerState | None
    players: tuple[PublicPlayer, ...]
    bank: Tokens
    board: tuple[tuple[Card | None, ...], ...]
    deck_sizes: tuple[int, ...]
    nobles: tuple[Noble, ...]
    current_player: int
    turn: int
    passes: int
    winners: tuple[int, ...]

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move, the same as for the state.

        :func:`splendor.legal_actions` of a view calls this.

        Raises:
            InvalidArgumentError: for a view of another seat than the one to
                move, or a spectator's, or a view that no game shows (see
                :func:`check_view`).
        """
        return legal_actions(self.stand_in())

    def stand_in(self) -> GameState:
        """A state in which the seat to move has exactly the actions it has here.

        The seat to move, the board, the supply, the nobles and the turn are
        the view's; what the seat cannot see is filled with stand-ins that no
        action of its depends on: other players keep only their face-up
        reserves, and each deck holds the right number of copies of one card
        (only whether a deck is empty matters to the seat's actions). So
        :func:`splendor.legal_actions`, :func:`splendor.apply` and
        :func:`splendor.formats.notation.parse_action` give the seat's answers in it;
        the state is not one of the game (use :func:`determinize` for that).

        Raises:
            InvalidArgumentError: for a view of another seat than the one to
                move, or a spectator's (unless the game is over), or a view
                that no game shows (see :func:`check_view`).

        >>> from splendor import legal_actions, new_game
        >>> state = new_game(2, seed=1)
        >>> legal_actions(view(state, 0).stand_in()) == legal_actions(state)
        True
        """
        check_view(self)
        if not self.winners and self.seat != self.current_player:
            who = "a spectator" if self.seat is None else f"seat {self.seat}"
            raise InvalidArgumentError(
                f"the view of {who} cannot act for seat {self.current_player}, "
                "the seat to move: only its own view can"
            )
        return _state_of(self, tuple((CARDS[0],) * size for size in self.deck_sizes), ())

    def _repr_svg_(self) -> str:
        """The view as SVG, for Jupyter (drawn by :func:`splendor.render_svg`)."""
        from splendor.draw.svg import render_svg

        return render_svg(self)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.winners)

    @property
    def is_spectator(self) -> bool:
        """Whether this is a spectator's view (no seat, no private card)."""
        return self.seat is None

    def deck_size(self, tier: int) -> int:
        """The number of face-down cards left in ``tier``'s deck (1-3).

        Raises:
            InvalidArgumentError: for a tier other than 1, 2 or 3.
        """
        return self.deck_sizes[tier_index(tier)]

    def visible(self) -> tuple[Card, ...]:
        """Every card this viewer can see, ordered by id.

        The face-up cards, every player's purchased cards and face-up
        reserves, and the seat's own blind reserves.
        """
        return tuple(sorted(self._visible(), key=_card_id))

    def unseen(self, tier: int | None = None) -> tuple[Card, ...]:
        """The cards this viewer cannot see, ordered by id.

        They are the cards in the decks and in other players' blind
        reserves, in some order this viewer does not know.

        Args:
            tier: only the cards of this tier (1-3); every tier by default.

        Returns:
            The unseen cards.

        Raises:
            InvalidArgumentError: for a tier other than 1, 2, 3 or ``None``.

        >>> from splendor import new_game
        >>> [len(view(new_game(3, seed=2), None).unseen(tier)) for tier in (1, 2, 3)]
        [36, 26, 16]
        """
        if tier is not None:
            tier_index(tier)
        seen = set(self._visible())
        return tuple(
            card
            for card in CARDS
            if card not in seen and (tier is None or card.tier == tier)  # CARDS is by id
        )

    def _visible(self) -> list[Card]:
        found: list[Card] = [card for row in self.board for card in row if card is not None]
        for player in self.players:
            found += player.cards
            found += player.reserved
        if self.own is not None:
            own = self.own
            found += (c for c, blind in zip(own.reserved, own.reserved_blind, strict=True) if blind)
        return found


def _card_id(card: Card) -> int:
    return card.id


def view(state: GameState, seat: int | None) -> PlayerView:
    """What ``seat`` may see of ``state``; a spectator's view for ``None``.

    A seat sees the board, the supply, every player's tokens, purchased cards,
    nobles and face-up reserves, its own blind reserves, how many cards each
    deck holds and the tiers of the other players' blind reserves. It never
    sees the order of a deck nor another player's blind reserve. A spectator
    sees only the public part: no blind reserve of anyone.

    Args:
        state: the full state.
        seat: the seat to see from, ``0`` to ``players - 1``, or ``None``.

    Returns:
        The view.

    Raises:
        InvalidArgumentError: if ``state`` is not a :class:`~splendor.GameState`
            or ``seat`` is not one of its seats nor ``None``.

    >>> from splendor import ReserveFromDeck, apply, new_game
    >>> state = apply(new_game(2, seed=1), ReserveFromDeck(3))
    >>> view(state, 0).own.reserved == state.players[0].reserved
    True
    >>> view(state, 1).players[0].reserved, view(state, 1).players[0].blind_reserves
    ((), (3,))
    """
    if type(state) is not GameState:
        raise InvalidArgumentError(f"expected a GameState, got {type(state).__name__}")
    if seat is not None and (type(seat) is not int or not 0 <= seat < len(state.players)):
        raise InvalidArgumentError(
            f"seat must be None or a seat from 0 to {len(state.players) - 1}, got {seat!r}"
        )
    seen = PlayerView(
        rules=state.rules,
        seat=seat,
        own=None if seat is None else state.players[seat],
        players=tuple(PublicPlayer.of(player) for player in state.players),
        bank=state.bank,
        board=state.board,
        deck_sizes=tuple(len(deck) for deck in state.decks),
        nobles=state.nobles,
        current_player=state.current_player,
        turn=state.turn,
        passes=state.passes,
        winners=state.winners,
    )
    _trusted[id(seen)] = seen
    return seen


def check_view(player_view: PlayerView) -> None:
    """Check that some state of a game shows exactly this view.

    A view made by :func:`view` passes at once; one built by hand, changed
    with ``attrs.evolve`` or loaded from outside is checked in full, once
    (the answer is remembered while the view lives): the types of its fields,
    a board row and a deck size per tier, the seat's own state against its
    public part, no card shown twice, as many unseen cards of each tier as
    the decks and hidden reserves need, and every invariant of
    :func:`splendor.check_state` on a state completed from it.
    :meth:`PlayerView.legal_actions`, :func:`determinize`,
    :func:`splendor.formats.notation.parse_action` and :func:`splendor.from_json`
    run this check.

    Args:
        player_view: the view to check.

    Raises:
        InvalidArgumentError: naming what is wrong, after ``"impossible
            view: "`` (or when ``player_view`` is not a :class:`PlayerView`).

    >>> import attrs
    >>> from splendor import new_game
    >>> seen = view(new_game(2, seed=1), 0)
    >>> check_view(seen)
    >>> check_view(attrs.evolve(seen, current_player=7, seat=7))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: impossible view: the view's seat 7 is not one of ...
    """
    if _trusted.get(id(player_view)) is not player_view:
        _checked(player_view, None)


def determinize(player_view: PlayerView, rng: random.Random | int) -> GameState:
    """A full state that ``player_view`` cannot tell from the real one, at random.

    The unseen cards of each tier (see :meth:`PlayerView.unseen`) are shuffled
    and dealt into that tier's deck and into the blind reserves of that tier
    held by the players whose cards the viewer cannot see, every arrangement
    being equally likely. Everything the view shows is kept as it is, so
    ``view(determinize(v, rng), v.seat) == v``. In the state made, a player's
    hidden blind reserves follow its face-up reserves, in tier order.

    Args:
        player_view: the view to complete.
        rng: the source of randomness, or an ``int`` seed for one. The same
            seed (or a generator in the same state) gives the same result.

    Returns:
        A state consistent with the view.

    Raises:
        InvalidArgumentError: if ``rng`` is neither a :class:`random.Random`
            nor an ``int``, or the view is not a :class:`PlayerView` that a
            game can reach (for example, one card shown in two places).

    >>> from splendor import new_game
    >>> seen = view(new_game(2, seed=1), 1)
    >>> determinize(seen, 5) == determinize(seen, 5)
    True
    """
    if type(rng) is int:
        rng = random.Random(rng)
    elif not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"rng must be a random.Random or an int seed, got {rng!r}")
    return _checked(player_view, rng.shuffle)


# Views known to be possible: those made by view() from a state, and those
# already checked, so that determinizing a view many times (as a search does)
# checks it at most once. Views are frozen; entries go with their views.
_trusted: weakref.WeakValueDictionary[int, PlayerView] = weakref.WeakValueDictionary()


def _checked(player_view: PlayerView, shuffle: Callable[[list[Card]], None] | None) -> GameState:
    """:func:`_complete`, raising for a view that no state of a game shows."""
    if type(player_view) is not PlayerView:
        raise InvalidArgumentError(f"expected a PlayerView, got {type(player_view).__name__}")
    try:
        state = _complete(player_view, shuffle)
    except InvalidArgumentError as error:
        message = str(error)
        if not message.startswith("impossible view: "):
            message = f"impossible view: {message}"
        raise InvalidArgumentError(message) from error
    if _trusted.get(id(player_view)) is player_view:
        return state
    try:
        check_state(state)
    except SplendorError as error:
        raise InvalidArgumentError(f"impossible view: {error}") from error
    if view(state, player_view.seat) != player_view:
        raise InvalidArgumentError(
            "impossible view: its seat's own state and the public players do not agree"
        )
    _trusted[id(player_view)] = player_view
    return state


def _complete(player_view: PlayerView, shuffle: Callable[[list[Card]], None] | None) -> GameState:
    """The view's state with its unseen cards dealt in ``shuffle``'d order (id order if None).

    Only what dealing needs is checked: the state made may still break the
    invariants of :func:`~splendor.check_state`.
    """
    if type(player_view) is not PlayerView:
        raise InvalidArgumentError(f"expected a PlayerView, got {type(player_view).__name__}")
    problem = _shape_problem(player_view)
    if problem is not None:
        raise InvalidArgumentError(f"impossible view: {problem}")
    seat = player_view.seat
    own = player_view.own
    if len(player_view.deck_sizes) != len(TIERS) or len(player_view.board) != len(TIERS):
        raise InvalidArgumentError("a view has a board row and a deck size for each of 3 tiers")
    if min(player_view.deck_sizes) < 0:
        raise InvalidArgumentError(f"negative deck size in {player_view.deck_sizes}")
    for i, player in enumerate(player_view.players):
        if list(player.blind_reserves) != sorted(player.blind_reserves) or not set(
            player.blind_reserves
        ) <= set(TIERS):
            raise InvalidArgumentError(
                f"player {i}'s blind reserves must be tiers 1-3 in increasing order, "
                f"got {player.blind_reserves}"
            )
    if seat is None or own is None:
        if seat is not None or own is not None:
            raise InvalidArgumentError("a view has its seat's own state exactly when it has a seat")
    elif not 0 <= seat < len(player_view.players):
        raise InvalidArgumentError(f"the view's seat {seat} is not one of its players")
    elif len(own.reserved) != len(own.reserved_blind):
        raise InvalidArgumentError("the view's own state needs one blind flag per reserved card")
    elif PublicPlayer.of(own) != player_view.players[seat]:
        raise InvalidArgumentError(f"the view's own state does not match seat {seat}'s")
    visible = player_view._visible()
    if len(set(visible)) != len(visible):
        raise InvalidArgumentError("the view shows a card in two places")
    decks: list[tuple[Card, ...]] = []
    left: list[Iterator[Card]] = []
    for tier, size in zip(TIERS, player_view.deck_sizes, strict=True):
        pool = list(player_view.unseen(tier))
        wanted = size + sum(
            player.blind_reserves.count(tier)
            for i, player in enumerate(player_view.players)
            if i != seat
        )
        if len(pool) != wanted:
            raise InvalidArgumentError(
                f"the view hides {wanted} tier {tier} card(s) but {len(pool)} are unseen"
            )
        if shuffle is not None:
            shuffle(pool)
        decks.append(tuple(pool[:size]))
        left.append(iter(pool[size:]))
    return _state_of(player_view, tuple(decks), left)


def _state_of(
    player_view: PlayerView, decks: tuple[tuple[Card, ...], ...], left: Sequence[Iterator[Card]]
) -> GameState:
    """The state of the view with these decks, and the hidden reserves dealt from ``left``.

    The seat's own state is the view's; each other player's blind reserves
    are dealt from ``left`` (one iterator of cards per tier), or left out
    when ``left`` is empty.
    """
    seat = player_view.seat
    own = player_view.own
    players = tuple(
        own if i == seat and own is not None else _dealt(player, left)
        for i, player in enumerate(player_view.players)
    )
    return GameState(
        rules=player_view.rules,
        players=players,
        bank=player_view.bank,
        board=player_view.board,
        decks=decks,
        nobles=player_view.nobles,
        current_player=player_view.current_player,
        turn=player_view.turn,
        passes=player_view.passes,
        winners=player_view.winners,
    )


def _shape_problem(player_view: PlayerView) -> str | None:
    """What field of a view has the wrong type, or ``None`` when all are right."""
    v = player_view
    if not isinstance(v.rules, Rules):
        return f"rules must be a Rules, got {short_repr(v.rules)}"
    if v.seat is not None and not is_int(v.seat):
        return f"seat must be None or an int, got {short_repr(v.seat)}"
    own = v.own
    if own is not None and (
        type(own) is not PlayerState
        or not tuple_of(own.cards, is_game_card)
        or not tuple_of(own.reserved, is_game_card)
        or type(own.reserved_blind) is not tuple
    ):
        return "own must be None or a PlayerState holding the game's cards"
    if type(v.players) is not tuple or not v.players:
        return "players must be a non-empty tuple"
    for i, player in enumerate(v.players):
        if (
            type(player) is not PublicPlayer
            or type(player.tokens) is not Tokens
            or type(player.bonuses) is not Tokens
            or not tuple_of(player.tokens.counts, is_int)
            or not tuple_of(player.cards, is_game_card)
            or not tuple_of(player.reserved, is_game_card)
            or not tuple_of(player.blind_reserves, is_int)
            or not tuple_of(player.nobles, is_game_noble)
            or not is_int(player.points)
        ):
            return f"player {i} must be a PublicPlayer with fields of the right types"
    if type(v.bank) is not Tokens or not tuple_of(v.bank.counts, is_int):
        return f"bank must be Tokens, got {short_repr(v.bank)}"
    if type(v.board) is not tuple or not all(
        tuple_of(row, lambda card: card is None or is_game_card(card)) for row in v.board
    ):
        return "board must be a tuple of rows of the game's cards or None"
    if not tuple_of(v.deck_sizes, is_int):
        return f"deck_sizes must be a tuple of int, got {short_repr(v.deck_sizes)}"
    if not tuple_of(v.nobles, is_game_noble):
        return "nobles must be a tuple of the game's nobles"
    for name in ("current_player", "turn", "passes"):
        if not is_int(getattr(v, name)):
            return f"{name} must be an int within 64 bits, got {short_repr(getattr(v, name))}"
    if not tuple_of(v.winners, is_int):
        return f"winners must be a tuple of int, got {short_repr(v.winners)}"
    return None


def _dealt(player: PublicPlayer, left: Sequence[Iterator[Card]]) -> PlayerState:
    """The player's state with its blind reserves dealt from the unseen cards left
    (left out when ``left`` is empty)."""
    blind = tuple(next(left[tier - 1]) for tier in player.blind_reserves) if left else ()
    return PlayerState(
        tokens=player.tokens,
        cards=player.cards,
        reserved=(*player.reserved, *blind),
        reserved_blind=(False,) * len(player.reserved) + (True,) * len(blind),
        nobles=player.nobles,
        points=player.points,
        bonuses=player.bonuses,
    )
