"""csplendor's notations: the SPN of a two-player view, and its moves both ways.

:mod:`splendor.remote.usi` documents and exports the public names; its engine
host reads and writes its moves with the private ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import attrs

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS, NOBLES, Card, Noble
from splendor.core.gems import GEMS, Gem, Tokens
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.views import PlayerView
from splendor.errors import InvalidArgumentError, NotationError

__all__ = [
    "OwnBlind",
    "check_mappable",
    "match_move",
    "needs_return",
    "parse_usi_move",
    "read_move",
    "spn_card_id",
    "spn_noble_id",
    "usi_move",
    "view_to_spn",
]

# The USI letter of each colour: blue is U and gold is D in that notation.
_LETTER = {
    Gem.WHITE: "W",
    Gem.BLUE: "U",
    Gem.GREEN: "G",
    Gem.RED: "R",
    Gem.BLACK: "K",
    Gem.GOLD: "D",
}
_GEM_OF_LETTER = {letter: gem for gem, letter in _LETTER.items()}
_COLOURS = GEMS[:5]

# csplendor numbers the 90 cards from 0, by tier, then by bonus colour in the
# order blue, red, black, white, green, then in an order of its own. Entry i is
# the id here (1 to 90) of its card i; the two lists name the same 90 cards
# (same tier, bonus, points and cost), as a test checks card by card.
_OUR_CARD = (
    9, 12, 10, 15, 11, 13, 14, 16, 31, 25, 28, 29, 26, 27, 30, 32, 35, 34, 38, 39,
    33, 36, 37, 40, 6, 1, 4, 5, 7, 2, 3, 8, 17, 23, 19, 18, 22, 20, 21, 24,
    47, 48, 49, 51, 50, 52, 60, 59, 61, 63, 62, 64, 66, 65, 69, 67, 68, 70, 41, 42,
    43, 44, 45, 46, 53, 54, 55, 56, 57, 58, 75, 77, 76, 78, 83, 84, 85, 86, 87, 88,
    89, 90, 71, 72, 73, 74, 79, 80, 81, 82,
)  # fmt: skip
_THEIR_CARD = {ours: theirs for theirs, ours in enumerate(_OUR_CARD)}

# csplendor has 12 nobles, numbered from 0; ten of them are the game's ten
# (same requirement), and two (4 white and 4 red; 3 blue, 3 green and 3 black)
# are not in the published game. Its nobles by requirement, in its order:
_THEIR_NOBLE_NEEDS = (
    (0, 0, 4, 4, 0),
    (0, 0, 0, 4, 4),
    (0, 4, 4, 0, 0),
    (4, 0, 0, 0, 4),
    (4, 4, 0, 0, 0),
    (4, 0, 0, 4, 0),
    (3, 0, 0, 3, 3),
    (3, 3, 3, 0, 0),
    (0, 0, 3, 3, 3),
    (0, 3, 3, 3, 0),
    (3, 3, 0, 0, 3),
    (0, 3, 3, 0, 3),
)
_THEIR_NOBLE = {
    noble.id: _THEIR_NOBLE_NEEDS.index(tuple(noble.requirement[g] for g in _COLOURS))
    for noble in NOBLES
}
_OUR_NOBLE = {theirs: ours for ours, theirs in _THEIR_NOBLE.items()}

_CARD_BY_ID = {card.id: card for card in CARDS}
_NOBLE_BY_ID = {noble.id: noble for noble in NOBLES}

OwnBlind = Literal["id", "marked", "hidden"]


def spn_card_id(card: Card) -> int:
    """The id (0 to 89) that SPN and the USI notation give to ``card``.

    >>> import splendor
    >>> spn_card_id(splendor.CARDS_BY_ID[1]), spn_card_id(splendor.CARDS_BY_ID[90])
    (25, 81)
    """
    return _THEIR_CARD[card.id]


def spn_noble_id(noble: Noble) -> int:
    """The id (0 to 11) that SPN and the USI notation give to ``noble``.

    >>> import splendor
    >>> [spn_noble_id(noble) for noble in splendor.NOBLES]
    [4, 3, 7, 10, 6, 2, 9, 0, 8, 1]
    """
    return _THEIR_NOBLE[noble.id]


def _counts(tokens: Tokens, gold: bool = True) -> str:
    gems = GEMS if gold else _COLOURS
    return "".join(f"{_LETTER[gem]}{tokens[gem]}" for gem in gems)


def _letters(tokens: Tokens) -> str:
    return "".join(_LETTER[gem] * tokens[gem] for gem in GEMS)


def _ids(values: Sequence[int | str]) -> str:
    return "[" + ",".join(str(v) for v in values) + "]"


def check_mappable(view: PlayerView) -> None:
    """Refuse a view that SPN cannot carry, with :class:`~splendor.InvalidArgumentError`."""
    if type(view) is not PlayerView:
        raise InvalidArgumentError(f"expected a PlayerView, got {type(view).__name__}")
    if len(view.players) != 2:
        raise InvalidArgumentError(
            f"SPN engines play two players; this game has {len(view.players)}"
        )
    if view.rules != Rules():
        raise InvalidArgumentError(
            "SPN cannot say which rules a game is played under: only the published rules map"
        )
    if view.seat is None or view.own is None or view.seat != view.current_player:
        raise InvalidArgumentError("only the view of the seat to move can be written as SPN")


def view_to_spn(
    view: PlayerView,
    *,
    own_blind: OwnBlind = "id",
    deck_reserve: int | None = None,
) -> str:
    """The SPN (csplendor's position notation) of the view of the seat to move.

    Args:
        view: the view of the seat to move, in a two-player game under the
            published rules.
        own_blind: how the mover's own blind reserves are written: ``"id"``
            (by card id, as for a face-up reserve: the mover knows them),
            ``"marked"`` (csplendor's ``?C<id>`` extension) or ``"hidden"``
            (``?L<tier>``, as for the opponent's).
        deck_reserve: write the position just after the mover reserved blind
            from this tier (1 to 3), before giving back the token over the
            limit: the deck one card shorter, the gold token taken, and the
            drawn card as ``?L<tier>`` (SPN's return phase; the drawn card is
            not known here, so the engine does not see it).

    Returns:
        One line: bank, face-up cards, deck sizes, nobles, the two players,
        and the seat to move.

    Raises:
        InvalidArgumentError: for a view that SPN cannot carry (three or four
            players, other rules, not the view of the seat to move), or a
            ``deck_reserve`` tier whose deck is empty.
    """
    check_mappable(view)
    if own_blind not in ("id", "marked", "hidden"):
        raise InvalidArgumentError(
            f"own_blind must be 'id', 'marked' or 'hidden', got {short_repr(own_blind)}"
        )
    assert view.own is not None
    assert view.seat is not None
    bank = view.bank
    deck_sizes = list(view.deck_sizes)
    own_tokens = view.own.tokens
    own_extra: list[str] = []
    if deck_reserve is not None:
        if deck_reserve not in (1, 2, 3) or deck_sizes[deck_reserve - 1] == 0:
            raise InvalidArgumentError(
                f"cannot reserve from the deck of tier {short_repr(deck_reserve)}"
            )
        deck_sizes[deck_reserve - 1] -= 1
        own_extra.append(f"?L{deck_reserve}")
        if bank[Gem.GOLD]:
            bank = bank - Tokens(gold=1)
            own_tokens = own_tokens + Tokens(gold=1)
    visible = "".join(
        f"L{tier}" + _ids(["-" if card is None else spn_card_id(card) for card in row])
        for tier, row in enumerate(view.board, start=1)
    )
    sections = [
        f"bank:{_counts(bank)}",
        f"visible:{visible}",
        "decks:" + ",".join(str(n) for n in deck_sizes),
        "nobles:" + _ids([spn_noble_id(noble) for noble in view.nobles]),
    ]
    for seat, player in enumerate(view.players):
        if seat == view.seat:
            tokens = own_tokens
            reserved: list[int | str] = []
            for card, blind in zip(view.own.reserved, view.own.reserved_blind, strict=True):
                if not blind or own_blind == "id":
                    reserved.append(spn_card_id(card))
                elif own_blind == "marked":
                    reserved.append(f"?C{spn_card_id(card)}")
                else:
                    reserved.append(f"?L{card.tier}")
            reserved.extend(own_extra)
        else:
            tokens = player.tokens
            reserved = [spn_card_id(card) for card in player.reserved]
            reserved.extend(f"?L{tier}" for tier in player.blind_reserves)
        sections.append(
            f"P{seat}:gems:{_counts(tokens)};bonuses:{_counts(player.bonuses, gold=False)};"
            f"points:{player.points};reserved:{_ids(reserved)};"
            f"bought:{_ids([spn_card_id(card) for card in player.cards])}"
        )
    return " | ".join(sections) + f" {view.current_player}"


def _price(card: Card, bonuses: Tokens) -> dict[Gem, int]:
    return {gem: max(0, card.cost[gem] - bonuses[gem]) for gem in _COLOURS}


def usi_move(action: Action, view: PlayerView) -> str:
    """An action in csplendor's USI move notation.

    A buy names the gold standing in for each colour (``/gold:W1R2``) unless
    it pays no gold; a return over the token limit follows the move
    (``/return:KK``), a blind reserve's in the one-line form csplendor reads
    (``reserve:L2/return:W``); a noble follows, after a space
    (``buy:C42 noble:N3``).

    Args:
        action: an action of the seat to move (normally one of
            ``legal_actions(view)``).
        view: the view of the seat to move.

    Raises:
        InvalidArgumentError: for a view SPN cannot carry, or an action that
            is not an action.
    """
    check_mappable(view)
    assert view.own is not None
    if isinstance(action, Take):
        text = "take:" + _letters(action.gems)
        returned = action.returned
    elif isinstance(action, Reserve):
        text = f"reserve:C{spn_card_id(action.card)}"
        returned = action.returned
    elif isinstance(action, ReserveFromDeck):
        text = f"reserve:L{action.tier}"
        returned = action.returned
    elif isinstance(action, Buy):
        text = f"buy:C{spn_card_id(action.card)}"
        returned = Tokens()
        payment = action.payment
        price = _price(action.card, view.own.bonuses)
        if payment is None:
            payment = _default_payment(price, view.own.tokens)
        if payment[Gem.GOLD]:
            gold = "".join(
                f"{_LETTER[gem]}{price[gem] - payment[gem]}"
                for gem in _COLOURS
                if price[gem] > payment[gem]
            )
            text += f"/gold:{gold}"
    elif isinstance(action, Pass):
        text = "pass"
        returned = Tokens()
    else:
        raise InvalidArgumentError(f"expected an action, got {type(action).__name__}")
    if returned:
        text += "/return:" + _letters(returned)
    if action.noble is not None:
        text += f" noble:N{spn_noble_id(action.noble)}"
    return text


def _default_payment(price: Mapping[Gem, int], held: Tokens) -> Tokens:
    """Coloured tokens first, gold for the rest: the least gold."""
    paid: dict[Gem | str, int] = {gem: min(price[gem], held[gem]) for gem in _COLOURS}
    paid[Gem.GOLD] = sum(price[gem] - held[gem] for gem in _COLOURS if price[gem] > held[gem])
    return Tokens.from_mapping(paid)


_NO_TOKENS = Tokens()


@attrs.frozen
class _Move:
    """A USI move read into its parts."""

    kind: str  # take, reserve, reserve_deck, buy, pass, noble, return
    tokens: Tokens = _NO_TOKENS  # taken (take) or returned (return)
    returned: Tokens | None = None
    card: int | None = None  # the id here
    tier: int | None = None
    gold: dict[Gem, int] | None = None
    noble: int | None = None  # the id here


def _read_tokens(text: str, move: str) -> Tokens:
    gems = []
    for letter in text:
        gem = _GEM_OF_LETTER.get(letter)
        if gem is None:
            raise NotationError(
                f"cannot read USI move {short_repr(move)}: {short_repr(letter)} is not a colour"
            )
        gems.append(gem)
    if not gems:
        raise NotationError(f"cannot read USI move {short_repr(move)}: no colours")
    return Tokens.of(*gems)


def _read_number(text: str, move: str, what: str) -> int:
    if not text.isdigit() or len(text) > 3:
        raise NotationError(
            f"cannot read USI move {short_repr(move)}: expected {what}, got {short_repr(text)}"
        )
    return int(text)


def read_move(text: str) -> _Move:
    """Read one bestmove's text: a move, and optionally ``noble:N<id>`` after it."""
    words = text.split()
    if not words or len(words) > 2:
        raise NotationError(
            f"cannot read USI move {short_repr(text)}: expected a move and at most a noble"
        )
    noble = None
    if len(words) == 2:
        if not words[1].startswith("noble:N"):
            raise NotationError(
                f"cannot read USI move {short_repr(text)}: expected noble:N<id> after the move"
            )
        noble = _noble_here(_read_number(words[1][7:], text, "a noble id"), text)
    word = words[0]
    head, _, rest = word.partition("/")
    suffix: dict[str, str] = {}
    for part in rest.split("/") if rest else ():
        key, colon, value = part.partition(":")
        if not colon or key not in ("return", "gold") or key in suffix:
            raise NotationError(
                f"cannot read USI move {short_repr(text)}: unexpected {short_repr(part)}"
            )
        suffix[key] = value
    returned = _read_tokens(suffix["return"], text) if "return" in suffix else None
    kind, colon, arg = head.partition(":")
    if kind == "pass" and not colon and not suffix:
        return _Move("pass", noble=noble)
    if kind == "take" and colon and "gold" not in suffix:
        return _Move("take", _read_tokens(arg, text), returned, noble=noble)
    if kind == "reserve" and colon and "gold" not in suffix and arg[:1] == "C":
        card = _card_here(_read_number(arg[1:], text, "a card id"), text)
        return _Move("reserve", returned=returned, card=card, noble=noble)
    if kind == "reserve" and colon and "gold" not in suffix and arg[:1] == "L":
        tier = _read_number(arg[1:], text, "a tier")
        if tier not in (1, 2, 3):
            raise NotationError(f"cannot read USI move {short_repr(text)}: no tier {tier}")
        return _Move("reserve_deck", returned=returned, tier=tier, noble=noble)
    if kind == "buy" and colon and "return" not in suffix and arg[:1] == "C":
        card = _card_here(_read_number(arg[1:], text, "a card id"), text)
        gold: dict[Gem, int] | None = None
        if "gold" in suffix:
            gold = {}
            pairs = suffix["gold"]
            if not pairs or len(pairs) % 2:
                raise NotationError(
                    f"cannot read USI move {short_repr(text)}: bad gold {short_repr(pairs)}"
                )
            for i in range(0, len(pairs), 2):
                gem = _GEM_OF_LETTER.get(pairs[i])
                if gem is None or gem is Gem.GOLD or gem in gold or not pairs[i + 1].isdigit():
                    raise NotationError(
                        f"cannot read USI move {short_repr(text)}: bad gold {short_repr(pairs)}"
                    )
                gold[gem] = int(pairs[i + 1])
        return _Move("buy", card=card, gold=gold, noble=noble)
    if kind == "noble" and colon and not suffix and arg[:1] == "N" and noble is None:
        return _Move("noble", noble=_noble_here(_read_number(arg[1:], text, "a noble id"), text))
    if kind == "return" and colon and not suffix and noble is None:
        return _Move("return", _read_tokens(arg, text))
    raise NotationError(f"cannot read USI move {short_repr(text)}")


def _card_here(their_id: int, move: str) -> int:
    if not 0 <= their_id < len(_OUR_CARD):
        raise NotationError(f"cannot read USI move {short_repr(move)}: no card C{their_id}")
    return _OUR_CARD[their_id]


def _noble_here(their_id: int, move: str) -> int:
    ours = _OUR_NOBLE.get(their_id)
    if ours is None:
        raise NotationError(
            f"cannot read USI move {short_repr(move)}: noble N{their_id} is not one of "
            "the game's nobles"
        )
    return ours


def _net(action: Take) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(action.gems.counts, action.returned.counts, strict=True))


def _matches(move: _Move, action: Action, view: PlayerView) -> bool:
    assert view.own is not None
    if move.noble is not None and (action.noble is None or action.noble.id != move.noble):
        return False
    returned = move.returned if move.returned is not None else Tokens()
    if move.kind == "take" and isinstance(action, Take):
        return _net(action) == tuple(
            a - b for a, b in zip(move.tokens.counts, returned.counts, strict=True)
        )
    if move.kind == "reserve" and isinstance(action, Reserve):
        return action.card.id == move.card and action.returned == returned
    if move.kind == "reserve_deck" and isinstance(action, ReserveFromDeck):
        return action.tier == move.tier and action.returned == returned
    if move.kind == "buy" and isinstance(action, Buy) and action.card.id == move.card:
        price = _price(action.card, view.own.bonuses)
        payment = action.payment or _default_payment(price, view.own.tokens)
        if move.gold is None:
            return payment == _default_payment(price, view.own.tokens)
        gold = {gem: move.gold.get(gem, 0) for gem in _COLOURS}
        return payment[Gem.GOLD] == sum(gold.values()) and all(
            payment[gem] == price[gem] - gold[gem] for gem in _COLOURS
        )
    if move.kind in ("pass", "noble") and isinstance(action, Pass):
        return move.kind == "pass" or action.noble is not None
    return False


def parse_usi_move(text: str, view: PlayerView, actions: Sequence[Action]) -> Action:
    """The one of ``actions`` that a USI move names.

    A take matches the listed take with the same tokens gained once the
    returns are given back (the listing names each outcome once); a buy
    without ``/gold:`` is the one that spends the least gold; a move that
    names no noble, when one must come, gets the first listed. A blind
    reserve whose return comes as a separate ``return:<C>`` move cannot be
    matched alone: :class:`UsiEngine` asks for the return itself.

    Args:
        text: the move, as after ``bestmove`` (``ponder`` and what follows
            already removed).
        view: the view of the seat to move.
        actions: the legal actions of ``view``, in their order.

    Returns:
        The first of ``actions`` that the move names.

    Raises:
        NotationError: for text that is not a USI move, names a card or
            noble that does not exist here, or names none of ``actions``.
        InvalidArgumentError: for a view that SPN cannot carry.
    """
    check_mappable(view)
    if type(text) is not str:
        raise InvalidArgumentError(f"a USI move is a str, got {type(text).__name__}")
    return match_move(read_move(text), view, actions, text)


def match_move(move: _Move, view: PlayerView, actions: Sequence[Action], text: str) -> Action:
    """The first of ``actions`` that ``move`` (read from ``text``) names, else a NotationError."""
    for action in actions:
        if _matches(move, action, view):
            return action
    raise NotationError(f"the USI move {short_repr(text)} is not one of the legal actions")


def needs_return(move: _Move, actions: Sequence[Action]) -> bool:
    """Whether a blind reserve named without its return must still give one back."""
    if move.kind != "reserve_deck" or move.returned is not None:
        return False
    listed = [a for a in actions if isinstance(a, ReserveFromDeck) and a.tier == move.tier]
    return bool(listed) and all(a.returned for a in listed)
