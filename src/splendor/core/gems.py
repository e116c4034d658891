"""Gem colours and immutable token counts."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from typing import Final

import attrs

from splendor.core.messages import short_repr
from splendor.errors import InvalidArgumentError, UnknownColourError

__all__ = ["GEMS", "MAX_COUNT", "Gem", "Tokens"]

#: The largest count a :class:`Tokens` holds, and the largest number a
#: :class:`~splendor.Rules` setting takes: far beyond any game (the published
#: game has 40 tokens), and small enough that every count prints.
MAX_COUNT: Final = 1_000_000_000


class Gem(enum.StrEnum):
    """A token colour: the five gem colours and gold.

    The values are the lower-case colour names. The rulebook's gem names map
    to them as white = diamond, blue = sapphire, green = emerald, red = ruby,
    black = onyx; gold is the wild joker.

    >>> Gem.RED
    <Gem.RED: 'red'>
    >>> Gem("gold").letter
    'Y'
    """

    WHITE = "white"
    BLUE = "blue"
    GREEN = "green"
    RED = "red"
    BLACK = "black"
    GOLD = "gold"

    @property
    def letter(self) -> str:
        """One upper-case letter for the colour: W, B, G, R, K (black), Y (gold)."""
        return _LETTERS[GEM_INDEX[self]]


#: Every colour in their fixed order: white, blue, green, red, black, gold.
GEMS: Final[tuple[Gem, ...]] = tuple(Gem)
#: Each colour's index in :data:`GEMS` and in :attr:`Tokens.counts`: white 0
#: to black 4, gold 5. The keys are the :class:`Gem` members, which as
#: strings equal their names, so ``GEM_INDEX["red"]`` is 3 as well. The one
#: colour-to-index map of the library: read it, never change it.
GEM_INDEX: Final[Mapping[str, int]] = {gem: i for i, gem in enumerate(GEMS)}
_LETTERS: Final = "WBGRKY"

_Counts = tuple[int, int, int, int, int, int]


@attrs.frozen(init=False, repr=False, eq=False)
class Tokens(Mapping[Gem, int]):
    """An immutable count of tokens (or bonuses, or a cost) per colour.

    A read-only mapping from every :class:`Gem` (gold included) to an
    ``int``; colours not given count 0, and every colour is a key, so
    ``len(tokens)`` is 6. Instances are hashable and compared by value. As
    the :class:`~collections.abc.Mapping` contract asks, a :class:`Tokens` is
    equal to any mapping with the same items: all six colours (by
    :class:`Gem` or by name), zeros included. A mapping that leaves out the
    colours it has none of is not equal; build a :class:`Tokens` from it to
    compare counts:

    >>> Tokens(red=1) == dict(Tokens(red=1)) == {"white": 0, "blue": 0, "green": 0,
    ...     "red": 1, "black": 0, "gold": 0}
    True
    >>> Tokens(red=1) == {"red": 1}, Tokens(red=1) == Tokens.from_mapping({"red": 1})
    (False, True)

    Each colour reads as it is written, by attribute or by key:

    >>> t = Tokens(red=2, gold=1)
    >>> t.red, t.blue, t.gold, t.total
    (2, 0, 1, 3)
    >>> t[Gem.RED], t["red"]
    (2, 2)
    >>> t + Tokens(red=1)
    Tokens(red=3, gold=1)
    >>> str(t)
    '2R 1Y'

    Raises:
        InvalidArgumentError: if a count is not an ``int`` from 0 to
            :data:`MAX_COUNT`.
    """

    _counts: _Counts

    def __init__(
        self,
        white: int = 0,
        blue: int = 0,
        green: int = 0,
        red: int = 0,
        black: int = 0,
        gold: int = 0,
    ) -> None:
        counts = (white, blue, green, red, black, gold)
        for gem, n in zip(GEMS, counts, strict=True):
            if type(n) is not int or not 0 <= n <= MAX_COUNT:
                raise InvalidArgumentError(
                    f"a token count must be an int from 0 to {MAX_COUNT:,}, "
                    f"got {gem.value}={short_repr(n)}"
                )
        object.__setattr__(self, "_counts", counts)

    @classmethod
    def _of(cls, counts: _Counts) -> Tokens:
        """Build from a 6-tuple of counts without checking it (engine use)."""
        tokens = object.__new__(cls)
        object.__setattr__(tokens, "_counts", counts)
        return tokens

    @classmethod
    def from_mapping(cls, counts: Mapping[Gem | str, int]) -> Tokens:
        """Build from a mapping of colour (a :class:`Gem` or its name) to count.

        >>> Tokens.from_mapping({"red": 2, Gem.BLUE: 1})
        Tokens(blue=1, red=2)

        Raises:
            InvalidArgumentError: for an unknown colour or a bad count.
        """
        if not isinstance(counts, Mapping):
            raise InvalidArgumentError(f"expected a mapping of colour to count, got {counts!r}")
        values = [0] * 6
        for key, n in counts.items():
            index = GEM_INDEX.get(key) if isinstance(key, str) else None
            if index is None:
                raise InvalidArgumentError(f"unknown colour {key!r}")
            values[index] = n
        return cls(*values)

    @classmethod
    def of(cls, *gems: Gem) -> Tokens:
        """Count the given colours, one token per argument.

        >>> Tokens.of(Gem.RED, Gem.RED, Gem.BLUE)
        Tokens(blue=1, red=2)
        """
        values = [0] * 6
        for gem in gems:
            index = GEM_INDEX.get(gem) if isinstance(gem, str) else None
            if index is None:
                raise InvalidArgumentError(f"unknown colour {gem!r}")
            values[index] += 1
        return cls(*values)

    @property
    def counts(self) -> _Counts:
        """The six counts in :data:`GEMS` order (white ... black, gold)."""
        return self._counts

    @property
    def white(self) -> int:
        """The count of white tokens, as ``tokens["white"]``."""
        return self._counts[0]

    @property
    def blue(self) -> int:
        """The count of blue tokens, as ``tokens["blue"]``."""
        return self._counts[1]

    @property
    def green(self) -> int:
        """The count of green tokens, as ``tokens["green"]``."""
        return self._counts[2]

    @property
    def red(self) -> int:
        """The count of red tokens, as ``tokens["red"]``."""
        return self._counts[3]

    @property
    def black(self) -> int:
        """The count of black tokens, as ``tokens["black"]``."""
        return self._counts[4]

    @property
    def gold(self) -> int:
        """The count of gold tokens (jokers), as ``tokens["gold"]``."""
        return self._counts[5]

    @property
    def total(self) -> int:
        """The number of tokens of every colour together."""
        return sum(self._counts)

    def __getitem__(self, gem: Gem | str) -> int:
        """The count of ``gem`` (a :class:`Gem` or its name, like ``"red"``)."""
        index = GEM_INDEX.get(gem) if isinstance(gem, str) else None
        if index is None:
            raise UnknownColourError(f"not a colour: {gem!r}")
        return self._counts[index]

    def __iter__(self) -> Iterator[Gem]:
        return iter(GEMS)

    def __len__(self) -> int:
        return 6

    def __contains__(self, gem: object) -> bool:
        return isinstance(gem, str) and gem in GEM_INDEX

    def __add__(self, other: Tokens) -> Tokens:
        if type(other) is not Tokens:
            return NotImplemented
        a, b = self._counts, other._counts
        return Tokens._of(
            (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])
        )

    def __sub__(self, other: Tokens) -> Tokens:
        """Subtract count by count; raises if a count would go negative."""
        if type(other) is not Tokens:
            return NotImplemented
        a, b = self._counts, other._counts
        c = (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5])
        if min(c) < 0:
            raise InvalidArgumentError(f"cannot take {other} from {self}")
        return Tokens._of(c)

    def __le__(self, other: Tokens) -> bool:
        """True when every count is at most the other's (a sub-multiset)."""
        if type(other) is not Tokens:
            return NotImplemented
        return all(x <= y for x, y in zip(self._counts, other._counts, strict=True))

    def __eq__(self, other: object) -> bool:
        if type(other) is Tokens:
            return self._counts == other._counts
        if isinstance(other, Mapping):
            # The Mapping contract: equal to a mapping with the same items.
            return (
                len(other) == 6
                and all(isinstance(key, str) and GEM_INDEX.get(key) is not None for key in other)
                and all(other[gem] == n for gem, n in zip(GEMS, self._counts, strict=True))
            )
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self._counts)

    def __bool__(self) -> bool:
        return any(self._counts)

    def __repr__(self) -> str:
        inner = ", ".join(f"{g.value}={n}" for g, n in zip(GEMS, self._counts, strict=True) if n)
        return f"Tokens({inner})"

    def __str__(self) -> str:
        """Counts with colour letters, e.g. ``2R 1Y``; ``-`` when empty."""
        parts = [f"{n}{_LETTERS[i]}" for i, n in enumerate(self._counts) if n]
        return " ".join(parts) if parts else "-"
