"""Listing the legal actions: :func:`legal_actions`.

Random playouts call this once per turn, so it works on the plain count
tuples and looks up the parts of the list that depend on a few small numbers
only: the take outcomes by the holding near the token limit (each colour
capped at what could go back), the colours in the supply and the room left;
the ways to pay by what each colour can pay, the gold needed and the gold to
spare (capped at the price). Every key is made of capped numbers (by the
token caps and by the cards' costs, never by the length of a run or by the
:class:`~splendor.Rules`). Some tables are made whole at import; the others
are filled as positions are met, and each either has a key space small enough
to fill (its size is stated with it) or keeps two generations of a stated
bound (see ``_recall``). ``MEMO_TABLES`` lists those filled as they
go, with their limits; ``tests/core/test_engine_contracts.py`` counts the key
spaces and checks the bounds. Every value in a table is immutable, so an
action object may be listed again for another position.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final, Protocol, TypeVar

from splendor.core import _count_tuples as cnt
from splendor.core import _unchecked as make
from splendor.core.actions import Action, Buy, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS, NOBLES, Card, Noble
from splendor.core.gems import GEM_INDEX, Tokens
from splendor.core.state import GameState
from splendor.errors import InvalidArgumentError, InvalidStateError

__all__ = ["ListsActions", "legal_actions"]


class ListsActions(Protocol):
    """Anything that lists the legal actions itself, like a
    :class:`~splendor.PlayerView` of the seat to move."""

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the player to move, as :func:`legal_actions` lists them."""
        ...


# The fewest bonuses any noble asks for: below it no noble can qualify.
MIN_NOBLE_TOTAL: Final = min(noble.requirement.total for noble in NOBLES)


def legal_actions(state: GameState | ListsActions) -> tuple[Action, ...]:
    """Every legal action of the player to move, each legal outcome once.

    The order is deterministic: takes, then reserves of face-up cards (tier 1
    to 3, slot by slot, each tier followed by its blind reserve), then buys
    of face-up cards and of the player's reserved cards. :class:`~splendor.Pass`
    comes alone, only when nothing else is legal. Two listed actions never
    lead to the same state (blind reserves aside, whose card is unknown).
    Where several forms lead to the same state (take white, green, blue and
    return white, or take green, blue, red and return red), one of them is
    listed. Each listed action names the noble received, if any.

    Args:
        state: the state to move from, or the :class:`~splendor.PlayerView`
            of the seat to move, which gives the same actions (any object
            with a ``legal_actions()`` method is asked for its own list).

    Returns:
        A tuple of actions; empty once the game is over.

    Raises:
        InvalidArgumentError: for a view of another seat than the one to move
            (or a spectator's), or an argument that is neither.
        InvalidStateError: for a hand-built state whose player to move holds
            more tokens than the token limit (no reachable state does).

    >>> from splendor import new_game
    >>> actions = legal_actions(new_game(2, seed=1))
    >>> len(actions), str(actions[0])
    (30, 'take 1W 1B 1G')
    """
    if type(state) is not GameState:
        return _listing_for(state)
    if state.winners:
        return ()
    player = state.players[state.current_player]
    t = player.tokens._counts
    tw, tb, tg, tr, tk, gold = t
    room = state.rules.token_limit - (tw + tb + tg + tr + tk + gold)
    if room < 0:
        raise _over_limit(state, room)
    sw, sb, sg, sr, sk, sgold = state.bank._counts
    bonus = player.bonuses._counts
    bw, bb, bg, br, bk, _ = bonus
    nobles = state.nobles
    if nobles and bw + bb + bg + br + bk + 1 >= MIN_NOBLE_TOTAL:
        now, after_buy = _noble_reach(nobles, bw, bb, bg, br, bk)
    else:
        now, after_buy = (), _NO_NOBLES

    # Takes depend on the supply only through which colours have at least 1
    # and at least 4 tokens, and on the holding only near the token limit.
    some = (sw > 0) | (sb > 0) << 1 | (sg > 0) << 2 | (sr > 0) << 3 | (sk > 0) << 4
    actions: list[Action]
    if some:
        if room >= 3:
            actions = list(_ROOMY_TAKES[some])
            if sw > 3:
                actions.append(_ROOMY_DOUBLES[0])
            if sb > 3:
                actions.append(_ROOMY_DOUBLES[1])
            if sg > 3:
                actions.append(_ROOMY_DOUBLES[2])
            if sr > 3:
                actions.append(_ROOMY_DOUBLES[3])
            if sk > 3:
                actions.append(_ROOMY_DOUBLES[4])
        else:
            key = cnt.capped(t, 3 - room)
            found = _TAKES_NEAR_LIMIT.get((key, some, room))
            if found is None:
                found = _recall(
                    _TAKES_NEAR_LIMIT,
                    _TAKES_NEAR_LIMIT_BEFORE,
                    TAKES_NEAR_LIMIT_BOUND,
                    (key, some, room),
                    _takes,
                    key,
                    some,
                    room,
                )
            actions = list(found)
            if sw > 3 or sb > 3 or sg > 3 or sr > 3 or sk > 3:
                back = 2 - room if room < 2 else 0
                held = cnt.capped(t, back) if back else cnt.ZERO
                if sw > 3:
                    actions += _doubles(held, 0, back)
                if sb > 3:
                    actions += _doubles(held, 1, back)
                if sg > 3:
                    actions += _doubles(held, 2, back)
                if sr > 3:
                    actions += _doubles(held, 3, back)
                if sk > 3:
                    actions += _doubles(held, 4, back)
    else:
        actions = []

    board = state.board
    if len(player.reserved) < state.rules.reserve_limit:
        if sgold and room < 1:
            # The gold taken goes over the limit: one token goes back.
            returns = cnt.sub_multisets((tw, tb, tg, tr, tk, gold + 1), 1 - room)
            for tier, row in enumerate(board, 1):
                for card in row:
                    if card is not None:
                        actions.extend(_RESERVES[card, r] for r in returns)
                if state.decks[tier - 1]:
                    actions.extend(_BLIND_RESERVES[tier, r] for r in returns)
        else:
            for row, deck, blind in zip(board, state.decks, _BLINDS, strict=True):
                if None in row:
                    actions.extend(_RESERVE[c] for c in row if c is not None)
                else:
                    actions += map(_RESERVE.__getitem__, row)
                if deck:
                    actions.append(blind)

    if now:
        actions = [make.with_noble(a, n) for a in actions for n in now]

    # What each colour is worth towards a price: bonuses plus tokens.
    ew, eb, eg, er, ek = bw + tw, bb + tb, bg + tg, br + tr, bk + tk
    budget = ew + eb + eg + er + ek + gold
    for source in (*board, player.reserved):
        for card in source:
            if card is None:
                continue
            cw, cb, cg, cr, ck, total = _COSTS[card]
            if total > budget:
                continue
            # The gold needed on top of bonuses and coloured tokens.
            short = 0
            if cw > ew:
                short = cw - ew
            if cb > eb:
                short += cb - eb
            if cg > eg:
                short += cg - eg
            if cr > er:
                short += cr - er
            if ck > ek:
                short += ck - ek
            if short > gold:
                continue
            pw = cw - bw if cw > bw else 0
            pb = cb - bb if cb > bb else 0
            pg = cg - bg if cg > bg else 0
            pr = cr - br if cr > br else 0
            pk = ck - bk if ck > bk else 0
            payments: tuple[cnt.Counts, ...]
            if gold:
                price = pw + pb + pg + pr + pk
                pay_key = (
                    pw if pw < tw else tw,
                    pb if pb < tb else tb,
                    pg if pg < tg else tg,
                    pr if pr < tr else tr,
                    pk if pk < tk else tk,
                    price,
                    gold if gold < price else price,
                )
                found_payments = _PAYMENTS.get(pay_key)
                payments = (
                    _recall(
                        _PAYMENTS, _PAYMENTS_BEFORE, PAYMENTS_BOUND, pay_key, _payments, pay_key
                    )
                    if found_payments is None
                    else found_payments
                )
            else:
                payments = ((pw, pb, pg, pr, pk, 0),)
            gained = after_buy[GEM_INDEX[card.bonus]]
            if gained:
                actions.extend(
                    make.buy(card, Tokens._of(pay), noble) for pay in payments for noble in gained
                )
            else:
                for pay in payments:
                    buy = _BUYS.get((card, pay))
                    if buy is None:
                        buy = _recall(
                            _BUYS,
                            _BUYS_BEFORE,
                            BUYS_BOUND,
                            (card, pay),
                            _buy_without_noble,
                            card,
                            pay,
                        )
                    actions.append(buy)

    if not actions:
        return tuple(make.pass_(noble) for noble in now) if now else (_PASS,)
    return tuple(actions)


def _over_limit(state: GameState, room: int) -> InvalidStateError:
    seat = state.current_player
    held = state.players[seat].tokens.total
    return InvalidStateError(
        f"token limit: player {seat} holds {held} tokens, more than the limit of "
        f"{held + room}; no reachable state does"
    )


def _listing_for(value: object) -> tuple[Action, ...]:
    """:func:`legal_actions` of an object that lists its own, like a view."""
    listing = getattr(type(value), "legal_actions", None)
    if listing is None or type(value) is type:
        raise InvalidArgumentError(
            f"expected a GameState or a PlayerView, got {type(value).__name__}"
        )
    actions = listing(value)
    if type(actions) is not tuple:
        raise InvalidArgumentError(
            f"{type(value).__name__}.legal_actions() must return a tuple of actions"
        )
    return actions


_PASS: Final = make.pass_(None)
_RESERVE: Final[dict[Card | None, Reserve]] = {
    card: make.reserve(card, cnt.NO_TOKENS, None) for card in CARDS
}
_BLINDS: Final = tuple(make.blind(tier, cnt.NO_TOKENS, None) for tier in (1, 2, 3))
_NO_NOBLES: Final[tuple[tuple[Noble, ...], ...]] = ((),) * 5

#: Each card's cost per gem colour, and in all.
_COSTS: Final[dict[Card, tuple[int, int, int, int, int, int]]] = {
    card: (*card.cost._counts[:5], card.cost.total) for card in CARDS
}
#: Each noble's requirement: its colours with the bonuses needed.
_NEEDS: Final[dict[Noble, tuple[tuple[int, int], ...]]] = {
    noble: tuple((c, n) for c, n in enumerate(noble.requirement._counts[:5]) if n)
    for noble in NOBLES
}

_K = TypeVar("_K")
_V = TypeVar("_V")


def _recall(
    table: dict[_K, _V],
    before: dict[_K, _V],
    bound: int,
    key: _K,
    build: Callable[..., _V],
    *args: Any,
) -> _V:
    """The value under ``key`` of a bounded table of two generations, after a miss in ``table``.

    ``table`` is the one the caller looked up first (inline, so that a hit
    costs one dict lookup); ``before`` holds its entries from before it was
    last full, and ``build(*args)`` makes the value when neither has it. The
    value is stored in ``table``. When ``table`` holds ``bound`` entries they
    become ``before`` and ``table`` starts empty: the two hold at most
    ``2 * bound`` entries, and an entry met since the last turnover stays at
    least until the one after (an LRU order would cost at each hit).
    """
    value = before.get(key)
    if value is None:
        value = build(*args)
    if len(table) >= bound:
        before.clear()
        before.update(table)
        table.clear()
    table[key] = value
    return value


def _buy_without_noble(card: Card, pay: cnt.Counts) -> Buy:
    return make.buy(card, Tokens._of(pay), None)


# Reserves that give one token back (at the token limit, the gold taken goes
# over it by one), made at import: by the card (or the tier of a blind
# reserve) and the colour returned, 90 * 6 and 3 * 6 keys.
_ONE_BACK: Final = tuple(cnt.unit(c) for c in range(6))
_RESERVES: Final[dict[tuple[Card, cnt.Counts], Reserve]] = {
    (card, r): make.reserve(card, Tokens._of(r), None) for card in CARDS for r in _ONE_BACK
}
_BLIND_RESERVES: Final[dict[tuple[int, cnt.Counts], ReserveFromDeck]] = {
    (tier, r): make.blind(tier, Tokens._of(r), None) for tier in (1, 2, 3) for r in _ONE_BACK
}
# Buys without a noble, by the card and the payment: the key space is every
# payment of every card under any bonuses (each colour at most its cost, gold
# for any part of the rest), 25,540 keys, more than play needs at once: two
# generations of at most BUYS_BOUND entries each (see _recall).
BUYS_BOUND: Final = 16_384
_BUYS: dict[tuple[Card, cnt.Counts], Buy] = {}
_BUYS_BEFORE: dict[tuple[Card, cnt.Counts], Buy] = {}
# Takes, by the gems (one of the 25 takes of different colours or the 5 of 2
# of one colour) and the tokens returned (at most 3, so one of 84 count
# vectors): at most 30 * 84 = 2,520 keys, each filled once.
TAKE_ACTIONS_KEYS: Final = 2_520
_TAKE_ACTIONS: dict[tuple[cnt.Counts, cnt.Counts], Take] = {}


def _take_returning(gems: cnt.Counts, returned: cnt.Counts) -> Take:
    action = _TAKE_ACTIONS.get((gems, returned))
    if action is None:
        action = _TAKE_ACTIONS[gems, returned] = make.take(
            Tokens._of(gems), Tokens._of(returned), None
        )
    return action


def _noble_reach(
    nobles: tuple[Noble, ...], bw: int, bb: int, bg: int, br: int, bk: int
) -> tuple[tuple[Noble, ...], tuple[tuple[Noble, ...], ...]]:
    """The nobles that qualify now, and those that would after buying each colour."""
    bonus = (bw, bb, bg, br, bk)
    now: list[Noble] = []
    near: list[tuple[Noble, int]] = []
    for noble in nobles:
        missing = 0
        colour = -1
        for c, need in _NEEDS[noble]:
            if need > bonus[c]:
                missing += need - bonus[c]
                colour = c
        if missing == 0:
            now.append(noble)
            near.append((noble, -1))
        elif missing == 1:
            near.append((noble, colour))
    if not near:
        return (), _NO_NOBLES
    # After buying a colour: the nobles qualifying now and those missing
    # just that colour, in the nobles' order.
    after = tuple(tuple(noble for noble, c in near if c < 0 or c == colour) for colour in range(5))
    return tuple(now), after


# The plans of the takes of different colours, by the colours in the supply
# (a bit mask) and the room left under the token limit (3 standing for 3 or
# more): made at import.
_Plan = tuple[tuple[cnt.Counts, cnt.Counts, tuple[int, ...], int], ...]


def _plan(some: int, room: int) -> _Plan:
    """For :func:`_takes`: each set of gained colours, with the gems taken, the
    fillers given back and how many more tokens go back, in listing order."""
    available = [c for c in range(5) if some >> c & 1]
    k = min(3, len(available))
    net = min(k, room)
    plan = []
    for size in range(k, net - 1, -1):
        for gained in itertools.combinations(available, size):
            filler = [c for c in available if c not in gained][: k - size]
            gems = [0] * 6
            back = [0] * 6
            for c in (*gained, *filler):
                gems[c] = 1
            for c in filler:
                back[c] = 1
            plan.append((cnt.as_counts(gems), cnt.as_counts(back), gained, size - net))
    return tuple(plan)


_PLANS: Final = {(some, room): _plan(some, room) for some in range(32) for room in range(4)}
# One gained set's outcomes, by the gems, the fillers, the holding outside
# the gained colours capped at the tokens to return, and that number (at
# most 3): 296 plans of a gained set, each with every count of the holding
# outside it from 0 to the number to return, 6,761 keys, each filled once.
CHUNKS_KEYS: Final = 6_761
_CHUNKS: dict[tuple[cnt.Counts, cnt.Counts, cnt.Counts, int], tuple[Take, ...]] = {}


def _takes(t: cnt.Counts, some: int, room: int) -> tuple[Take, ...]:
    """The outcomes of taking gems of different colours, one action each.

    ``some`` is the bit mask of the colours in the supply, ``room`` how many
    more tokens the player may hold (at most 3: no take brings more) and ``t``
    the holding capped at ``3 - room`` per colour, all that the returns depend
    on. With ``k`` the number of gems a take brings (3, or one of each colour
    left when fewer remain), a turn's net change is ``gained - returned``:
    one of each of at most ``k`` available colours gained, and ``returned``
    from the holding outside those colours, for ``min(k, room)`` tokens more
    in all. Each such change is listed once, as the take of the gained
    colours and the first other available ones, returning those and
    ``returned``.
    """
    found: list[Take] = []
    for gems, back, gained, size in _PLANS[some, room]:
        if size:
            rest = list(t)
            for c in gained:
                rest[c] = 0
            key = (gems, back, cnt.capped(cnt.as_counts(rest), size), size)
        else:
            key = (gems, back, cnt.ZERO, 0)
        chunk = _CHUNKS.get(key)
        if chunk is None:
            chunk = _CHUNKS[key] = tuple(
                _take_returning(gems, cnt.add(n, back)) for n in cnt.sub_multisets(key[2], size)
            )
        found += chunk
    return tuple(found)


#: With room for 3 more tokens: the takes of different colours by the
#: colours in the supply, and the take of 2 of each colour.
_ROOMY_TAKES: Final = tuple(_takes(cnt.ZERO, some, 3) for some in range(32))
_ROOMY_DOUBLES: Final = tuple(_take_returning(cnt.unit(c, 2), cnt.ZERO) for c in range(5))
# Nearer the limit: by the holding capped at ``3 - room`` per colour, the
# colours in the supply and the room (0 to 2): (4**6 + 3**6 + 2**6) * 32 =
# 156,448 keys, tens of thousands of them met in play (each entry a tuple
# of up to 30 takes): two generations of at most TAKES_NEAR_LIMIT_BOUND
# entries each (see _recall).
TAKES_NEAR_LIMIT_BOUND: Final = 32_768
_TAKES_NEAR_LIMIT: dict[tuple[cnt.Counts, int, int], tuple[Take, ...]] = {}
_TAKES_NEAR_LIMIT_BEFORE: dict[tuple[cnt.Counts, int, int], tuple[Take, ...]] = {}
# The takes of 2 of one colour near the limit, by the holding capped at the
# tokens to return, the colour, and that number (0 to 2): 5 * (1 + 2**6 +
# 3**6) = 3,970 keys, each filled once.
DOUBLES_KEYS: Final = 3_970
_DOUBLES: dict[tuple[cnt.Counts, int, int], tuple[Take, ...]] = {}


def _doubles(held: cnt.Counts, colour: int, back: int) -> tuple[Take, ...]:
    """The outcomes of taking 2 of ``colour`` that no :func:`_takes` outcome has.

    Those keep both gems: ``2 colour - returned``, with ``back`` tokens
    returned from the holding's other colours (``held`` capped at ``back``).
    """
    found = _DOUBLES.get((held, colour, back))
    if found is None:
        rest = list(held)
        rest[colour] = 0
        gems = cnt.unit(colour, 2)
        found = _DOUBLES[held, colour, back] = tuple(
            _take_returning(gems, returned)
            for returned in cnt.sub_multisets(cnt.as_counts(rest), back)
        )
    return found


# The ways to pay, by what each colour can pay, the price and the gold that
# may go to it (the gold held, capped at the price): bounded by the cards'
# costs whatever the rules, 111,775 keys under every bonus and holding, a few
# thousand met in play: two generations of at most PAYMENTS_BOUND entries
# each (see _recall).
PAYMENTS_BOUND: Final = 8_192
_PaymentKey = tuple[int, int, int, int, int, int, int]
_PAYMENTS: dict[_PaymentKey, tuple[cnt.Counts, ...]] = {}
_PAYMENTS_BEFORE: dict[_PaymentKey, tuple[cnt.Counts, ...]] = {}


def _payments(key: _PaymentKey) -> tuple[cnt.Counts, ...]:
    """Every way to pay a price with gold at hand.

    ``key`` holds, per colour, the most coloured tokens that can go to the
    price, then the price's total and the gold that may pay for it. The
    default (most coloured tokens, least gold) comes first.
    """
    *most, price, gold = key
    found: list[cnt.Counts] = []
    for paid in itertools.product(*(range(m, -1, -1) for m in most)):
        spent = price - sum(paid)
        if spent <= gold:
            found.append(cnt.as_counts((*paid, spent)))
    return tuple(found)


#: The tables :func:`legal_actions` fills as it meets positions, by name:
#: the dicts that make each one up, and the most entries they ever hold
#: together (the size of the key space, or twice the bound of a table of two
#: generations). Read by the tests and by ``benchmarks/memo_tables.py``.
MEMO_TABLES: Final[dict[str, tuple[tuple[dict[Any, Any], ...], int]]] = {
    "_TAKES_NEAR_LIMIT": (
        (_TAKES_NEAR_LIMIT, _TAKES_NEAR_LIMIT_BEFORE),
        2 * TAKES_NEAR_LIMIT_BOUND,
    ),
    "_CHUNKS": ((_CHUNKS,), CHUNKS_KEYS),
    "_DOUBLES": ((_DOUBLES,), DOUBLES_KEYS),
    "_PAYMENTS": ((_PAYMENTS, _PAYMENTS_BEFORE), 2 * PAYMENTS_BOUND),
    "_BUYS": ((_BUYS, _BUYS_BEFORE), 2 * BUYS_BOUND),
    "_TAKE_ACTIONS": ((_TAKE_ACTIONS,), TAKE_ACTIONS_KEYS),
    "_SUB_MULTISETS": ((cnt._SUB_MULTISETS,), cnt.SUB_MULTISETS_KEYS),
}
