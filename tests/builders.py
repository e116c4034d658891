"""Small helpers that build precise game states for the rule-by-rule tests.

Every builder starts from a dealt game (:func:`deal`) and changes only what a
test names, through :func:`attrs.evolve`, keeping the state consistent enough
for the rule under test: a card handed to a player leaves the board (its slot
refilled from the deck, as in play) or the deck; a player's points and
bonuses are recomputed from their cards and nobles; tokens handed to a player
come out of the supply.

>>> state = with_player(deal(2), tokens=toks("2R 1Y"), cards=bonus_cards(toks("1W")))
>>> state.player.tokens, state.bank[Gem.RED], state.player.bonuses
(Tokens(red=2, gold=1), 2, Tokens(white=1))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import attrs

from splendor import (
    CARDS,
    CARDS_BY_ID,
    GEMS,
    NOBLES_BY_ID,
    Card,
    GameState,
    Gem,
    Noble,
    PlayerState,
    Rules,
    Tokens,
    new_game,
)

__all__ = [
    "bonus_cards",
    "card",
    "cards_of",
    "deadlocked",
    "deal",
    "noble",
    "toks",
    "unchecked",
    "with_bank",
    "with_deck",
    "with_nobles",
    "with_player",
    "with_row",
    "with_turn",
]

_BY_LETTER = {gem.letter: gem for gem in GEMS}

Board = tuple[tuple[Card | None, ...], ...]
Decks = tuple[tuple[Card, ...], ...]


def toks(text: str) -> Tokens:
    """Tokens from their short text form, as ``str(Tokens)`` prints them.

    Args:
        text: space-separated items such as ``"2R 1Y"`` or ``"W B G"`` (a bare
            letter counts one); ``""`` or ``"-"`` is no token.

    Returns:
        The tokens.

    >>> toks("2R Y W")
    Tokens(white=1, red=2, gold=1)
    """
    counts = [0] * len(GEMS)
    for item in text.split():
        if item == "-":
            continue
        number, letter = item[:-1], item[-1]
        counts[GEMS.index(_BY_LETTER[letter])] += int(number) if number else 1
    return Tokens(*counts)


def card(card_id: int) -> Card:
    """The card with id ``card_id`` (1-90)."""
    return CARDS_BY_ID[card_id]


def cards_of(*card_ids: int) -> tuple[Card, ...]:
    """The cards with the given ids, in that order."""
    return tuple(CARDS_BY_ID[i] for i in card_ids)


def noble(noble_id: int) -> Noble:
    """The noble with id ``noble_id`` (1-10)."""
    return NOBLES_BY_ID[noble_id]


def bonus_cards(bonuses: Tokens, *, skip: Iterable[Card] = ()) -> tuple[Card, ...]:
    """Cards that give exactly ``bonuses``, the fewest points first.

    Up to 7 cards of a colour are worth no points (tier 1).

    Args:
        bonuses: how many cards of each gem colour.
        skip: cards not to use (for instance the one a test buys).

    Returns:
        The cards, colour by colour.
    """
    avoid = set(skip)
    picked: list[Card] = []
    for gem in GEMS[:5]:
        pool = sorted(
            (c for c in CARDS if c.bonus is gem and c not in avoid),
            key=lambda c: (c.points, c.tier, c.id),
        )
        picked += pool[: bonuses[gem]]
    return tuple(picked)


def deal(players: int = 2, *, seed: int = 0, rules: Rules | None = None) -> GameState:
    """A freshly dealt game (:func:`splendor.new_game` with a fixed seed)."""
    return new_game(players, seed=seed, rules=rules)


def _replace(items: tuple[Card, ...], index: int, value: Card) -> tuple[Card, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _take_out(board: Board, decks: Decks, taken: Card) -> tuple[Board, Decks]:
    """Remove a card from the board (refilling its slot as in play) or from its deck."""
    tier = taken.tier - 1
    row, deck = board[tier], decks[tier]
    if taken in row:
        slot = row.index(taken)
        new: Card | None = deck[0] if deck else None
        new_row = (*row[:slot], new, *row[slot + 1 :])
        board = (*board[:tier], new_row, *board[tier + 1 :])
        deck = deck[1:]
    else:  # from the deck, or from outside play (a deck emptied by with_deck)
        deck = tuple(c for c in deck if c is not taken)
    return board, (*decks[:tier], deck, *decks[tier + 1 :])


def _put_back(decks: Decks, returned: Card) -> Decks:
    """Put a card back at the bottom of its deck."""
    tier = returned.tier - 1
    return (*decks[:tier], (*decks[tier], returned), *decks[tier + 1 :])


def with_player(
    state: GameState,
    seat: int | None = None,
    *,
    tokens: Tokens | None = None,
    cards: Sequence[Card] | None = None,
    reserved: Sequence[Card] | None = None,
    blind: Sequence[bool] | None = None,
    nobles: Sequence[Noble] | None = None,
) -> GameState:
    """Replace one player's holdings; every part not given is kept.

    Args:
        state: the state to change.
        seat: the player (by default the one to move).
        tokens: the tokens held; the supply gives or takes the difference.
        cards: the purchased cards; new ones leave the board or their deck,
            and cards the player no longer holds go to the bottom of their deck.
        reserved: the reserved cards, handled like ``cards``.
        blind: the blind flags of the reserved cards (all ``False`` by default).
        nobles: the nobles received; they leave the revealed nobles.

    Returns:
        The new state.
    """
    if seat is None:
        seat = state.current_player
    old = state.players[seat]
    new_cards = old.cards if cards is None else tuple(cards)
    new_reserved = old.reserved if reserved is None else tuple(reserved)
    if blind is not None:
        new_blind = tuple(blind)
    elif reserved is not None:
        new_blind = (False,) * len(new_reserved)
    else:
        new_blind = old.reserved_blind
    new_nobles = old.nobles if nobles is None else tuple(nobles)
    held_before = {*old.cards, *old.reserved}
    held_after = {*new_cards, *new_reserved}
    for other, holder in enumerate(state.players):
        if other != seat and held_after & {*holder.cards, *holder.reserved}:
            raise ValueError(f"player {other} already holds one of those cards")
    board, decks = state.board, state.decks
    for released in (*old.cards, *old.reserved):
        if released not in held_after:
            decks = _put_back(decks, released)
    for added in (*new_cards, *new_reserved):
        if added not in held_before:
            board, decks = _take_out(board, decks, added)
    bank = state.bank
    if tokens is not None:
        bank = bank + old.tokens - tokens
    player = PlayerState(
        tokens=old.tokens if tokens is None else tokens,
        cards=new_cards,
        reserved=new_reserved,
        reserved_blind=new_blind,
        nobles=new_nobles,
        points=sum(c.points for c in new_cards) + sum(n.points for n in new_nobles),
        bonuses=Tokens.of(*(c.bonus for c in new_cards)),
    )
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    revealed = tuple(n for n in state.nobles if n not in new_nobles)
    return attrs.evolve(
        state, players=players, bank=bank, board=board, decks=decks, nobles=revealed
    )


def with_bank(state: GameState, bank: Tokens) -> GameState:
    """Set the supply of tokens."""
    return attrs.evolve(state, bank=bank)


def with_row(state: GameState, tier: int, slots: Sequence[Card | None]) -> GameState:
    """Set the four face-up slots of ``tier``.

    Cards laid out leave the deck; cards no longer face up go to the bottom
    of the deck.

    Args:
        state: the state to change.
        tier: 1 to 3.
        slots: four cards of that tier, or ``None`` for an empty slot.

    Returns:
        The new state.
    """
    row = tuple(slots)
    if len(row) != 4 or any(c is not None and c.tier != tier for c in row):
        raise ValueError(f"a tier {tier} row is 4 slots of tier {tier} cards: {row}")
    old_row = state.board[tier - 1]
    deck = tuple(c for c in state.deck(tier) if c not in row)
    for c in row:
        if c is not None and c not in old_row and c not in state.deck(tier):
            raise ValueError(f"card #{c.id} is held by a player")
    deck += tuple(c for c in old_row if c is not None and c not in row)
    board = (*state.board[: tier - 1], row, *state.board[tier:])
    decks = (*state.decks[: tier - 1], deck, *state.decks[tier:])
    return attrs.evolve(state, board=board, decks=decks)


def with_deck(state: GameState, tier: int, cards: Sequence[Card]) -> GameState:
    """Set the deck of ``tier`` (top card first); ``()`` empties it."""
    decks = (*state.decks[: tier - 1], tuple(cards), *state.decks[tier:])
    return attrs.evolve(state, decks=decks)


def with_nobles(state: GameState, nobles: Sequence[Noble]) -> GameState:
    """Set the revealed nobles."""
    return attrs.evolve(state, nobles=tuple(nobles))


def with_turn(
    state: GameState, current_player: int, *, turn: int | None = None, passes: int = 0
) -> GameState:
    """Set whose turn it is (by default in the first round), and the passes in a row."""
    return attrs.evolve(
        state,
        current_player=current_player,
        turn=current_player if turn is None else turn,
        passes=passes,
    )


def deadlocked(players: int = 2) -> GameState:
    """A state where no player can do anything but pass.

    The gems are all held (2 of each colour per player while they last), the
    gold stays in the supply, every player holds 3 reserved tier-3 cards, the
    tier-1 row and deck are empty and nothing on the board or in reserve is
    affordable with those tokens.

    >>> from splendor import Pass, legal_actions
    >>> legal_actions(deadlocked(3))
    (Pass(noble=None),)
    """
    state = deal(players)
    state = with_deck(state, 1, ())
    state = attrs.evolve(state, board=((None,) * 4, *state.board[1:]))
    each = state.bank[Gem.WHITE]
    for seat in range(players):
        share = min(2, each - 2 * seat)
        hand = Tokens(share, share, share, share, share)
        state = with_player(state, seat, tokens=hand, reserved=state.deck(3)[:3])
    return state


_T = TypeVar("_T")


def unchecked(cls: Callable[..., _T], *values: object) -> _T:
    """``cls(*values)`` with attrs' validators off: a value the constructor
    would refuse, to test what other functions make of it.

    >>> from splendor import Take
    >>> unchecked(Take, "x").gems
    'x'
    """
    with attrs.validators.disabled():
        return cls(*values)
