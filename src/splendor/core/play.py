"""Playing a turn: :func:`apply`.

Each action is checked against the rules with a precise message for what is
wrong, then played on the plain count tuples; the new state shares every
unchanged part (other players, decks, rows of cards) with the old one.
"""

from __future__ import annotations

import itertools
from typing import Final, TypeVar

from splendor.core import _count_tuples as cnt
from splendor.core._unchecked import player as _player
from splendor.core._unchecked import state as _state
from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import Card, Noble, is_game_card
from splendor.core.gems import GEM_INDEX, GEMS, Tokens
from splendor.core.legal import MIN_NOBLE_TOTAL, legal_actions
from splendor.core.state import GameState, PlayerState, winners_of
from splendor.core.wording import describe, plural
from splendor.errors import IllegalActionError, InvalidArgumentError

__all__ = ["apply", "is_legal"]

_T = TypeVar("_T")
Board = tuple[tuple[Card | None, ...], ...]
Decks = tuple[tuple[Card, ...], ...]

# The gems a take of different colours may bring, with their colours.
_DIFFERENT: Final = {
    cnt.as_counts([1 if c in chosen else 0 for c in range(6)]): chosen
    for size in (1, 2, 3)
    for chosen in itertools.combinations(range(5), size)
}
# The gems a take of 2 of one colour brings, with the colour.
_DOUBLE: Final = {cnt.unit(c, 2): c for c in range(5)}
_UNITS: Final = tuple(cnt.unit(c) for c in range(6))


def apply(state: GameState, action: Action) -> GameState:
    """Play one whole turn and return the state after it.

    The action's main move is played, then the tokens it returns, then the
    noble it receives; then the turn passes to the next seat. At the end of
    a round the game ends if a player has reached the points to win, or if
    every player passed throughout the round. ``state`` is never changed.

    Args:
        state: the state before the turn.
        action: the action of the player to move. Any legal form is accepted,
            not only the one :func:`~splendor.legal_actions` lists for its
            outcome: a :class:`~splendor.Buy` without a payment pays the
            default, and an action without a noble receives the one noble
            that qualifies (it must name one when several do).

    Returns:
        The state after the turn.

    Raises:
        IllegalActionError: when the rules forbid the action here, saying why.
        InvalidArgumentError: when ``state`` or ``action`` is not of the right type.

    >>> from splendor import Gem, Take, Tokens, new_game
    >>> state = apply(new_game(2, seed=1), Take(Tokens(red=2)))
    >>> state.players[0].tokens, state.bank[Gem.RED], state.current_player
    (Tokens(red=2), 2, 1)
    >>> apply(state, Take(Tokens(red=2)))
    Traceback (most recent call last):
    ...
    splendor.errors.IllegalActionError: take 2 red needs 4 red in the supply, there are 2
    """
    if type(state) is not GameState:
        raise InvalidArgumentError(f"expected a GameState, got {type(state).__name__}")
    if state.winners:
        raise IllegalActionError("the game is over")
    # ``type(x) is C`` on final classes narrows the union for type checkers
    # and is the quickest test at run time.
    if type(action) is Take:
        return _play_take(state, action)
    if type(action) is Buy:
        return _play_buy(state, action)
    if type(action) is Reserve or type(action) is ReserveFromDeck:
        return _play_reserve(state, action)
    if type(action) is Pass:
        return _play_pass(state, action)
    raise InvalidArgumentError(f"expected an action, got {action!r}")


def is_legal(state: GameState, action: Action) -> bool:
    """Whether the rules allow ``action`` in ``state``: whether :func:`apply` plays it.

    Cheaper than looking ``action`` up in :func:`~splendor.legal_actions`,
    and it accepts every form :func:`apply` accepts, not only the one form
    listed for each outcome (a :class:`~splendor.Buy` without a payment, a
    take that returns other tokens for the same result, an action without a
    noble when exactly one qualifies).

    Args:
        state: the state to move from.
        action: the action of the player to move.

    Returns:
        ``True`` when :func:`apply` would play the action, ``False`` when it
        would raise :class:`~splendor.IllegalActionError` (including once the
        game is over).

    Raises:
        InvalidArgumentError: when ``state`` or ``action`` is not of the right
            type, as :func:`apply` does.

    >>> from splendor import Take, Tokens, new_game
    >>> state = new_game(2, seed=1)
    >>> is_legal(state, Take(Tokens(red=2))), is_legal(state, Take(Tokens(red=3)))
    (True, False)
    """
    try:
        apply(state, action)
    except IllegalActionError:
        return False
    return True


def _counts_of(value: object, what: str) -> cnt.Counts:
    if type(value) is not Tokens:
        raise InvalidArgumentError(f"{what} must be Tokens, got {value!r}")
    return value._counts


def _after_returns(held: cnt.Counts, returned: object, limit: int) -> cnt.Counts:
    """Check the tokens given back against the limit; give the final holding."""
    r = _counts_of(returned, "returned")
    excess = held[0] + held[1] + held[2] + held[3] + held[4] + held[5] - limit
    if excess <= 0:
        if r != cnt.ZERO:
            raise IllegalActionError(
                f"nothing may be returned: the player ends with {limit + excess} tokens, "
                f"within the limit of {limit}"
            )
        return held
    count = r[0] + r[1] + r[2] + r[3] + r[4] + r[5]
    if count != excess:
        raise IllegalActionError(
            f"exactly {plural(excess, 'token')} must be returned to end at the limit "
            f"of {limit}, not {count}"
        )
    final = cnt.minus(held, r)
    if min(final) < 0:
        raise IllegalActionError(
            f"cannot return {describe(r)}: the player would hold only {describe(held)}"
        )
    return final


def _play_take(state: GameState, action: Take) -> GameState:
    g = _counts_of(action.gems, "Take.gems")
    bank = state.bank._counts
    colours = _DIFFERENT.get(g)
    if colours is None:
        colour = _DOUBLE.get(g)
        if colour is None:
            raise IllegalActionError(_bad_take(g))
        if bank[colour] < 4:
            name = GEMS[colour].value
            raise IllegalActionError(
                f"take 2 {name} needs 4 {name} in the supply, there are {bank[colour]}"
            )
    else:
        for c in colours:
            if not bank[c]:
                raise IllegalActionError(f"there is no {GEMS[c].value} in the supply")
        if len(colours) < 3:
            available = (bank[0] > 0) + (bank[1] > 0) + (bank[2] > 0) + (bank[3] > 0)
            available += bank[4] > 0
            if available > len(colours):
                raise IllegalActionError(
                    f"take 3 gems of different colours, or one of each of the "
                    f"{available} colours in the supply if fewer than 3, not {len(colours)}"
                    if available < 3
                    else f"take 3 gems of different colours (or 2 of one colour), "
                    f"not {len(colours)}"
                )
    seat = state.current_player
    player = state.players[seat]
    final = _after_returns(
        cnt.add(player.tokens._counts, g), action.returned, state.rules.token_limit
    )
    r = action.returned._counts
    new_bank = Tokens._of(
        (
            bank[0] - g[0] + r[0],
            bank[1] - g[1] + r[1],
            bank[2] - g[2] + r[2],
            bank[3] - g[3] + r[3],
            bank[4] - g[4] + r[4],
            bank[5] + r[5],
        )
    )
    new_player = _player(
        Tokens._of(final),
        player.cards,
        player.reserved,
        player.reserved_blind,
        player.nobles,
        player.points,
        player.bonuses,
    )
    return _finish(state, new_player, new_bank, state.board, state.decks, action.noble, False)


def _bad_take(g: cnt.Counts) -> str:
    if g[5]:
        return "gold cannot be taken: it comes only with a reserve"
    if not any(g):
        return "take at least one gem"
    return f"cannot take {describe(g)}: take gems of different colours, or 2 of one colour"


def _play_reserve(state: GameState, action: Reserve | ReserveFromDeck) -> GameState:
    seat = state.current_player
    player = state.players[seat]
    limit = state.rules.reserve_limit
    board = state.board
    decks = state.decks
    if type(action) is Reserve:
        card: Card = action.card
        tier, slot = _face_up(board, card, "reserve", "")
        if len(player.reserved) >= limit:
            raise IllegalActionError(f"a player may hold at most {limit} reserved cards")
        board, decks = _refill(board, decks, tier, slot)
        blind = False
    else:
        tier = action.tier
        if type(tier) is not int:
            raise InvalidArgumentError(f"ReserveFromDeck.tier must be an int, got {tier!r}")
        if not 1 <= tier <= 3:
            raise IllegalActionError(f"there is no tier {tier}: the tiers are 1, 2 and 3")
        if len(player.reserved) >= limit:
            raise IllegalActionError(f"a player may hold at most {limit} reserved cards")
        deck = decks[tier - 1]
        if not deck:
            raise IllegalActionError(f"the tier {tier} deck is empty")
        card = deck[0]
        decks = _replace(decks, tier - 1, deck[1:])
        blind = True
    bank = state.bank._counts
    gold = 1 if bank[5] else 0
    t = player.tokens._counts
    held = (t[0], t[1], t[2], t[3], t[4], t[5] + gold)
    final = _after_returns(held, action.returned, state.rules.token_limit)
    r = action.returned._counts
    new_bank = Tokens._of(
        (
            bank[0] + r[0],
            bank[1] + r[1],
            bank[2] + r[2],
            bank[3] + r[3],
            bank[4] + r[4],
            bank[5] - gold + r[5],
        )
    )
    new_player = _player(
        Tokens._of(final),
        player.cards,
        (*player.reserved, card),
        (*player.reserved_blind, blind),
        player.nobles,
        player.points,
        player.bonuses,
    )
    return _finish(state, new_player, new_bank, board, decks, action.noble, False)


def _face_up(board: Board, card: object, verb: str, more: str) -> tuple[int, int]:
    """The tier and slot of a face-up card."""
    if not is_game_card(card):
        raise InvalidArgumentError(f"expected one of the game's cards to {verb}, got {card!r}")
    tier = card.tier
    row = board[tier - 1]
    if card not in row:
        raise IllegalActionError(f"cannot {verb} card #{card.id}: it is not face up{more}")
    return tier, row.index(card)


def _replace(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _refill(board: Board, decks: Decks, tier: int, slot: int) -> tuple[Board, Decks]:
    """Take the card in ``slot`` of ``tier``; refill the slot from the deck if it can."""
    deck = decks[tier - 1]
    if deck:
        new: Card | None = deck[0]
        decks = _replace(decks, tier - 1, deck[1:])
    else:
        new = None
    board = _replace(board, tier - 1, _replace(board[tier - 1], slot, new))
    return board, decks


def _play_buy(state: GameState, action: Buy) -> GameState:
    seat = state.current_player
    player = state.players[seat]
    card = action.card
    board = state.board
    decks = state.decks
    reserved = player.reserved
    blind = player.reserved_blind
    if type(card) is Card and card in reserved:
        index = reserved.index(card)
        reserved = (*reserved[:index], *reserved[index + 1 :])
        blind = (*blind[:index], *blind[index + 1 :])
    else:
        tier, slot = _face_up(board, card, "buy", " nor reserved by this player")
        board, decks = _refill(board, decks, tier, slot)
    t = player.tokens._counts
    bonus = player.bonuses._counts
    cw, cb, cg, cr, ck, _ = card.cost._counts
    bw, bb, bg, br, bk, _ = bonus
    price = (
        cw - bw if cw > bw else 0,
        cb - bb if cb > bb else 0,
        cg - bg if cg > bg else 0,
        cr - br if cr > br else 0,
        ck - bk if ck > bk else 0,
        0,
    )
    if action.payment is None:
        paid = [min(p, h) for p, h in zip(price, t, strict=True)]
        paid[5] = sum(price) - sum(paid)
        pay = cnt.as_counts(paid)
        if pay[5] > t[5]:
            raise IllegalActionError(
                f"cannot afford card #{card.id}: the price is {describe(price)} "
                f"and the player holds {describe(t)}"
            )
    else:
        pay = _counts_of(action.payment, "Buy.payment")
        if (
            pay[0] > t[0]
            or pay[1] > t[1]
            or pay[2] > t[2]
            or pay[3] > t[3]
            or pay[4] > t[4]
            or pay[5] > t[5]
        ):
            raise IllegalActionError(f"cannot pay {describe(pay)}: the player holds {describe(t)}")
        if (
            pay[0] > price[0]
            or pay[1] > price[1]
            or pay[2] > price[2]
            or pay[3] > price[3]
            or pay[4] > price[4]
            or pay[5] != sum(price) - (pay[0] + pay[1] + pay[2] + pay[3] + pay[4])
        ):
            raise IllegalActionError(
                f"payment {describe(pay)} does not match the price {describe(price)} of "
                f"card #{card.id}: pay each colour with at most its price, and gold for the rest"
            )
    new_player = _player(
        Tokens._of(cnt.minus(t, pay)),
        (*player.cards, card),
        reserved,
        blind,
        player.nobles,
        player.points + card.points,
        Tokens._of(cnt.add(bonus, _UNITS[GEM_INDEX[card.bonus]])),
    )
    new_bank = Tokens._of(cnt.add(state.bank._counts, pay))
    return _finish(state, new_player, new_bank, board, decks, action.noble, False)


def _play_pass(state: GameState, action: Pass) -> GameState:
    if type(legal_actions(state)[0]) is not Pass:
        raise IllegalActionError(
            f"pass is legal only when no other action is: {_first_other(state)} is possible"
        )
    player = state.players[state.current_player]
    return _finish(state, player, state.bank, state.board, state.decks, action.noble, True)


def _first_other(state: GameState) -> str:
    kinds = {Take: "taking gems", Reserve: "reserving", ReserveFromDeck: "reserving", Buy: "buying"}
    return kinds[type(legal_actions(state)[0])]


def _qualifying(nobles: tuple[Noble, ...], bonus: cnt.Counts) -> tuple[Noble, ...]:
    """The nobles whose requirement ``bonus`` meets."""
    w, b, g, r, k, _ = bonus
    found = []
    for noble in nobles:
        rw, rb, rg, rr, rk, _ = noble.requirement._counts
        if rw <= w and rb <= b and rg <= g and rr <= r and rk <= k:
            found.append(noble)
    return tuple(found)


def _finish(
    state: GameState,
    player: PlayerState,
    bank: Tokens,
    board: Board,
    decks: Decks,
    choice: Noble | None,
    passed: bool,
) -> GameState:
    """End the turn: the noble, then the next seat, then the end of the game."""
    if choice is not None and type(choice) is not Noble:
        raise InvalidArgumentError(f"an action's noble must be a Noble or None, got {choice!r}")
    nobles = state.nobles
    b = player.bonuses._counts
    qualified = (
        _qualifying(nobles, b)
        if nobles and b[0] + b[1] + b[2] + b[3] + b[4] >= MIN_NOBLE_TOTAL
        else None
    )
    if qualified:
        if choice is None:
            choice = qualified[0]
            if len(qualified) > 1:
                names = ", ".join(f"N{n.id}" for n in qualified)
                raise IllegalActionError(f"several nobles qualify ({names}): choose one")
        elif choice not in qualified:
            raise IllegalActionError(_no_visit(choice, nobles))
        player = _player(
            player.tokens,
            player.cards,
            player.reserved,
            player.reserved_blind,
            (*player.nobles, choice),
            player.points + choice.points,
            player.bonuses,
        )
        nobles = tuple(n for n in nobles if n is not choice)
    elif choice is not None:
        raise IllegalActionError(_no_visit(choice, nobles))
    seat = state.current_player
    players = state.players
    players = (*players[:seat], player, *players[seat + 1 :])
    passes = state.passes + 1 if passed else 0
    following = seat + 1
    winners: tuple[int, ...] = ()
    if following == len(players):
        following = 0
        target = state.rules.points_to_win
        if passes >= len(players) or max(p.points for p in players) >= target:
            winners = winners_of(players)
    return _state(
        state.rules,
        players,
        bank,
        board,
        decks,
        nobles,
        following,
        state.turn + 1,
        passes,
        winners,
    )


def _no_visit(noble: Noble, nobles: tuple[Noble, ...]) -> str:
    if noble not in nobles:
        return f"noble N{noble.id} is not among the revealed nobles"
    return f"noble N{noble.id} does not visit: the player's bonuses do not meet {noble.requirement}"
