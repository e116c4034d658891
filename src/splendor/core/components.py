"""The development cards and noble tiles of the base game.

The 90 cards and 10 nobles are loaded once from the package data (CSV files in
``splendor/data``) and checked on load. Every card and noble has a stable
``id`` (cards 1-90, nobles 1-10) that serialisation and notation use.
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final, Literal, TypeAlias, TypeGuard

import attrs

from splendor.core.gems import GEMS, Gem, Tokens
from splendor.errors import InvalidArgumentError

__all__ = [
    "CARDS",
    "CARDS_BY_ID",
    "NOBLES",
    "NOBLES_BY_ID",
    "Card",
    "Noble",
    "Tier",
    "is_game_card",
    "is_game_noble",
    "tier_index",
]

_GEM_NAMES = tuple(g.value for g in GEMS[:5])

#: A card's tier (its level): 1, 2 or 3.
Tier: TypeAlias = Literal[1, 2, 3]
_TIERS: Final[dict[int, Tier]] = {1: 1, 2: 2, 3: 3}


@attrs.frozen(repr=False, eq=False)
class Card:
    """A development card.

    There is one instance of each of the 90 cards (see :data:`CARDS`); cards
    compare and hash by identity, and pickling or copying a card gives back
    that same instance.

    Attributes:
        id: the stable identifier, 1 to 90.
        tier: the card's level, 1, 2 or 3.
        bonus: the gem colour of the permanent bonus it gives once bought.
        points: its prestige points, 0 to 5.
        cost: what it costs, per gem colour (never gold).

    >>> from splendor import CARDS_BY_ID
    >>> card = CARDS_BY_ID[1]
    >>> card.tier, card.bonus, card.points, str(card.cost)
    (1, <Gem.WHITE: 'white'>, 0, '2R 1K')
    >>> str(card)
    '#1 (T1 W 0pt: 2R 1K)'
    """

    id: int
    tier: Tier
    bonus: Gem
    points: int
    cost: Tokens

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        # Unpickle (and copy) to the one shared instance of the card.
        return _card_by_id, (self.id,)

    def __repr__(self) -> str:
        return (
            f"Card(id={self.id}, tier={self.tier}, bonus={self.bonus.name}, "
            f"points={self.points}, cost={self.cost!r})"
        )

    def __str__(self) -> str:
        return f"#{self.id} (T{self.tier} {self.bonus.letter} {self.points}pt: {self.cost})"


@attrs.frozen(repr=False, eq=False)
class Noble:
    """A noble tile: prestige points for owning enough bonuses.

    There is one instance of each of the 10 nobles (see :data:`NOBLES`);
    nobles compare and hash by identity, like cards.

    Attributes:
        id: the stable identifier, 1 to 10.
        points: its prestige points (3 for every noble of the base game).
        requirement: the number of purchased cards (bonuses) of each colour a
            player needs to receive it; tokens never count.

    >>> from splendor import NOBLES_BY_ID
    >>> str(NOBLES_BY_ID[1])
    'N1 (3pt: 4W 4B)'
    """

    id: int
    points: int
    requirement: Tokens

    def __reduce__(self) -> tuple[Callable[[int], Noble], tuple[int]]:
        # Unpickle (and copy) to the one shared instance of the noble.
        return _noble_by_id, (self.id,)

    def __repr__(self) -> str:
        return f"Noble(id={self.id}, points={self.points}, requirement={self.requirement!r})"

    def __str__(self) -> str:
        return f"N{self.id} ({self.points}pt: {self.requirement})"


def _read_rows(name: str) -> list[dict[str, str]]:
    # A plain file next to this module, read without importlib.resources
    # (which costs more to import than the whole engine); a package that is
    # not on the file system (in a zip archive) goes through it.
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", name)
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:
        from importlib import resources

        text = resources.files("splendor").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _counts(row: dict[str, str]) -> Tokens:
    return Tokens(*(int(row[name]) for name in _GEM_NAMES))


def _load_cards() -> tuple[Card, ...]:
    cards = tuple(
        Card(
            id=int(row["id"]),
            tier=_tier(row["tier"]),
            bonus=Gem(row["bonus"]),
            points=int(row["points"]),
            cost=_counts(row),
        )
        for row in _read_rows("cards.csv")
    )
    _check(len(cards) == 90, f"expected 90 cards, found {len(cards)}")
    _check([c.id for c in cards] == list(range(1, 91)), "card ids must run 1..90 in order")
    per_tier = Counter(c.tier for c in cards)
    _check(per_tier == {1: 40, 2: 30, 3: 20}, f"cards per tier must be 40/30/20: {per_tier}")
    for tier, per_colour in ((1, 8), (2, 6), (3, 4)):
        colours = Counter(c.bonus for c in cards if c.tier == tier)
        _check(
            colours == dict.fromkeys(GEMS[:5], per_colour),
            f"tier {tier} must have {per_colour} cards of each bonus colour: {colours}",
        )
    for card in cards:
        _check(card.bonus is not Gem.GOLD, f"card {card.id} gives gold")
        _check(card.cost[Gem.GOLD] == 0 and card.cost.total > 0, f"card {card.id} cost")
        _check(0 <= card.points <= 5, f"card {card.id} points")
    _check(
        len({(c.tier, c.bonus, c.points, c.cost) for c in cards}) == 90,
        "two cards are identical",
    )
    return cards


def _load_nobles() -> tuple[Noble, ...]:
    nobles = tuple(
        Noble(id=int(row["id"]), points=int(row["points"]), requirement=_counts(row))
        for row in _read_rows("nobles.csv")
    )
    _check(len(nobles) == 10, f"expected 10 nobles, found {len(nobles)}")
    _check([n.id for n in nobles] == list(range(1, 11)), "noble ids must run 1..10")
    for noble in nobles:
        _check(noble.points == 3, f"noble {noble.id} must be worth 3 points")
        shape = sorted(n for n in noble.requirement.counts if n)
        _check(shape in ([4, 4], [3, 3, 3]), f"noble {noble.id} requirement {shape}")
    return nobles


def _tier(text: str) -> Tier:
    tier = _TIERS.get(int(text))
    if tier is None:
        raise InvalidArgumentError(f"bad package data: tier {text!r}")
    return tier


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise InvalidArgumentError(f"bad package data: {message}")


#: The 90 development cards, ordered by id (tier 1 first).
CARDS: Final[tuple[Card, ...]] = _load_cards()
#: The 10 noble tiles, ordered by id.
NOBLES: Final[tuple[Noble, ...]] = _load_nobles()
#: Every card by its id.
CARDS_BY_ID: Final[Mapping[int, Card]] = MappingProxyType({card.id: card for card in CARDS})
#: Every noble by its id.
NOBLES_BY_ID: Final[Mapping[int, Noble]] = MappingProxyType({n.id: n for n in NOBLES})


def _card_by_id(card_id: int) -> Card:
    return CARDS_BY_ID[card_id]


def _noble_by_id(noble_id: int) -> Noble:
    return NOBLES_BY_ID[noble_id]


def is_game_card(value: object) -> TypeGuard[Card]:
    """Whether ``value`` is one of the 90 cards of :data:`CARDS` (not a copy).

    >>> is_game_card(CARDS[0]), is_game_card("#1")
    (True, False)
    """
    return type(value) is Card and type(value.id) is int and CARDS_BY_ID.get(value.id) is value


def tier_index(tier: object) -> int:
    """The index (0 to 2) of ``tier`` (1 to 3) in a state's board and decks.

    >>> tier_index(3)
    2

    Raises:
        InvalidArgumentError: for anything but the ``int`` 1, 2 or 3.
    """
    if type(tier) is not int or not 1 <= tier <= 3:
        raise InvalidArgumentError(f"the tiers are 1, 2 and 3, got {tier!r}")
    return tier - 1


def is_game_noble(value: object) -> TypeGuard[Noble]:
    """Whether ``value`` is one of the 10 nobles of :data:`NOBLES` (not a copy)."""
    return type(value) is Noble and type(value.id) is int and NOBLES_BY_ID.get(value.id) is value
