"""Listing the legal actions: :func:`legal_actions`.

Random playouts call this once per turn, so it works on the plain count
tuples and caches the parts of the list that depend on a few small numbers
only: the take outcomes for a holding near the token limit and the colours in
the supply, and the ways to pay a price with gold at hand. Action objects are
made once and shared; every cached value is immutable.
"""

from __future__ import annotations

import functools
import itertools
from typing import Final, Protocol

import attrs

from splendor import _counts as cnt
from splendor.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.components import CARDS, NOBLES, Card, Noble
from splendor.errors import InvalidArgumentError
from splendor.gems import Tokens
from splendor.state import GameState

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
    sw, sb, sg, sr, sk, sgold = state.bank._counts
    bonus = player.bonuses._counts
    bw, bb, bg, br, bk, _ = bonus
    nobles = state.nobles
    if nobles and bw + bb + bg + br + bk + 1 >= MIN_NOBLE_TOTAL:
        now, after_buy = _noble_reach(nobles, bonus)
    else:
        now, after_buy = (), _NO_NOBLES

    # Takes depend on the supply only through which colours have at least 1
    # and at least 4 tokens, and on the holding only near the token limit.
    some = (sw > 0) | (sb > 0) << 1 | (sg > 0) << 2 | (sr > 0) << 3 | (sk > 0) << 4
    actions: list[Action]
    if some:
        if room >= 3:
            key = cnt.ZERO
            actions = list(_takes(key, some, 3))
        else:
            key = cnt.capped(t, 3 - room)
            actions = list(_takes(key, some, room))
        if sw > 3:
            actions += _doubles(key, 0, room)
        if sb > 3:
            actions += _doubles(key, 1, room)
        if sg > 3:
            actions += _doubles(key, 2, room)
        if sr > 3:
            actions += _doubles(key, 3, room)
        if sk > 3:
            actions += _doubles(key, 4, room)
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
                        actions.extend(_reserve(card, r) for r in returns)
                if state.decks[tier - 1]:
                    actions.extend(_blind(tier, r) for r in returns)
        else:
            for row, deck, blind in zip(board, state.decks, _BLINDS, strict=True):
                if None in row:
                    actions.extend(_RESERVE[c] for c in row if c is not None)
                else:
                    actions += map(_RESERVE.__getitem__, row)
                if deck:
                    actions.append(blind)

    if now:
        actions = [attrs.evolve(a, noble=n) for a in actions for n in now]

    # What each colour is worth towards a price: bonuses plus tokens.
    ew, eb, eg, er, ek = bw + tw, bb + tb, bg + tg, br + tr, bk + tk
    budget = ew + eb + eg + er + ek + gold
    for source in (*board, player.reserved):
        for card, cw, cb, cg, cr, ck, total in _costs(source):
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
                payments = _payments(
                    (
                        pw if pw < tw else tw,
                        pb if pb < tb else tb,
                        pg if pg < tg else tg,
                        pr if pr < tr else tr,
                        pk if pk < tk else tk,
                    ),
                    pw + pb + pg + pr + pk,
                    gold,
                )
            else:
                payments = ((pw, pb, pg, pr, pk, 0),)
            gained = after_buy[cnt.INDEX[card.bonus]]
            if gained:
                actions.extend(
                    Buy(card, Tokens._of(pay), noble) for pay in payments for noble in gained
                )
            else:
                for pay in payments:
                    buy = _BUYS.get((card, pay))
                    if buy is None:
                        buy = _BUYS[card, pay] = Buy(card, Tokens._of(pay))
                    actions.append(buy)

    if not actions:
        return tuple(Pass(noble) for noble in now) if now else (_PASS,)
    return tuple(actions)


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


_PASS: Final = Pass()
_RESERVE: Final[dict[Card | None, Reserve]] = {card: Reserve(card) for card in CARDS}
_BLINDS: Final = (ReserveFromDeck(1), ReserveFromDeck(2), ReserveFromDeck(3))
_NO_NOBLES: Final[tuple[tuple[Noble, ...], ...]] = ((),) * 5

# Shared action objects, by what they hold; bounded by the finite number of
# cards, gem choices and payments.
_BUYS: dict[tuple[Card, cnt.Counts], Buy] = {}
_RESERVES: dict[tuple[Card, cnt.Counts], Reserve] = {}
_BLIND_RESERVES: dict[tuple[int, cnt.Counts], ReserveFromDeck] = {}
_TAKES: dict[tuple[cnt.Counts, cnt.Counts], Take] = {}


def _reserve(card: Card, returned: cnt.Counts) -> Reserve:
    action = _RESERVES.get((card, returned))
    if action is None:
        action = _RESERVES[card, returned] = Reserve(card, Tokens._of(returned))
    return action


def _blind(tier: int, returned: cnt.Counts) -> ReserveFromDeck:
    action = _BLIND_RESERVES.get((tier, returned))
    if action is None:
        action = _BLIND_RESERVES[tier, returned] = ReserveFromDeck(tier, Tokens._of(returned))
    return action


def _take(gems: cnt.Counts, returned: cnt.Counts) -> Take:
    action = _TAKES.get((gems, returned))
    if action is None:
        action = _TAKES[gems, returned] = Take(Tokens._of(gems), Tokens._of(returned))
    return action


@functools.lru_cache(maxsize=1 << 12)
def _costs(cards: tuple[Card | None, ...]) -> tuple[tuple[Card, int, int, int, int, int, int], ...]:
    """The cards of a row (or a reserve) with their cost per gem colour and in all."""
    found = []
    for card in cards:
        if card is not None:
            w, b, g, r, k, _ = card.cost._counts
            found.append((card, w, b, g, r, k, w + b + g + r + k))
    return tuple(found)


@functools.lru_cache(maxsize=1 << 12)
def _noble_reach(
    nobles: tuple[Noble, ...], bonus: cnt.Counts
) -> tuple[tuple[Noble, ...], tuple[tuple[Noble, ...], ...]]:
    """The nobles that qualify now, and those that would after buying each colour."""
    now: list[Noble] = []
    after: tuple[list[Noble], ...] = ([], [], [], [], [])
    for noble in nobles:
        need = noble.requirement._counts
        missing = 0
        colour = 0
        for c in range(5):
            if need[c] > bonus[c]:
                missing += need[c] - bonus[c]
                colour = c
        if missing == 0:
            now.append(noble)
            for listed in after:
                listed.append(noble)
        elif missing == 1:
            after[colour].append(noble)
    return tuple(now), tuple(tuple(listed) for listed in after)


@functools.lru_cache(maxsize=1 << 15)
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
    for gems, back, gained, size in _plan(some, room):
        if size:
            rest = list(t)
            for c in gained:
                rest[c] = 0
            found += _chunk(gems, back, cnt.capped(cnt.as_counts(rest), size), size)
        else:
            found += _chunk(gems, back, cnt.ZERO, 0)
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _plan(some: int, room: int) -> tuple[tuple[cnt.Counts, cnt.Counts, tuple[int, ...], int], ...]:
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


@functools.lru_cache(maxsize=1 << 14)
def _chunk(gems: cnt.Counts, back: cnt.Counts, rest: cnt.Counts, size: int) -> tuple[Take, ...]:
    """For :func:`_takes`: one gained set's outcomes, ``size`` more tokens back from ``rest``."""
    return tuple(_take(gems, cnt.add(n, back)) for n in cnt.sub_multisets(rest, size))


@functools.lru_cache(maxsize=1 << 12)
def _doubles(t: cnt.Counts, colour: int, room: int) -> tuple[Take, ...]:
    """The outcomes of taking 2 of ``colour`` that no :func:`_takes` outcome has.

    Those keep both gems: ``2 colour - returned``, with ``2 - min(2, room)``
    tokens returned from the holding's other colours.
    """
    rest = list(t)
    rest[colour] = 0
    gems = cnt.unit(colour, 2)
    return tuple(
        _take(gems, returned)
        for returned in cnt.sub_multisets(cnt.as_counts(rest), 2 - min(2, room))
    )


@functools.lru_cache(maxsize=1 << 14)
def _payments(most: tuple[int, ...], price: int, gold: int) -> tuple[cnt.Counts, ...]:
    """Every way to pay a price with gold at hand.

    ``most`` is, per colour, the most coloured tokens that can go to the
    price; ``price`` is its total and ``gold`` the gold held. The default
    (most coloured tokens, least gold) comes first.
    """
    found: list[cnt.Counts] = []
    for paid in itertools.product(*(range(m, -1, -1) for m in most)):
        spent = price - sum(paid)
        if spent <= gold:
            found.append(cnt.as_counts((*paid, spent)))
    return tuple(found)
