"""The actions a player can take on a turn.

One action is one whole turn: the main move together with every choice that
comes with it (the tokens returned over the limit, the exact payment, the
noble received when several qualify). :func:`splendor.legal_actions` lists
them; :func:`splendor.apply` plays them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias, final

import attrs

from splendor.core.components import Card, Noble
from splendor.core.gems import Tokens
from splendor.errors import InvalidArgumentError

__all__ = ["Action", "Buy", "Pass", "Reserve", "ReserveFromDeck", "Take"]

_NO_TOKENS = Tokens()


def _exactly(*kinds: type | None) -> Callable[[object, attrs.Attribute[Any], object], None]:
    """A validator: the value's type is one of ``kinds`` exactly (``None`` for None)."""
    allowed = tuple(type(None) if kind is None else kind for kind in kinds)
    names = " or ".join("None" if kind is None else kind.__name__ for kind in kinds)

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if type(value) not in allowed:
            raise InvalidArgumentError(
                f"{type(instance).__name__}.{attribute.name} must be {names}, got {value!r}"
            )

    return check


_TOKENS = _exactly(Tokens)
_NOBLE = _exactly(Noble, None)


def _suffix(returned: Tokens, noble: Noble | None) -> str:
    text = f", return {returned}" if returned else ""
    if noble is not None:
        text += f", noble N{noble.id}"
    return text


@final
@attrs.frozen(cache_hash=True)
class Take:
    """Take gems from the supply: 3 of different colours, 2 of one colour,
    or one of each colour left when fewer than 3 colours remain.

    Attributes:
        gems: the gems taken (never gold).
        returned: tokens given back to keep within the token limit; may
            include tokens just taken and gold.
        noble: the noble received at the end of the turn, if any.

    >>> from splendor import Gem, Tokens
    >>> str(Take(Tokens.of(Gem.RED, Gem.BLUE, Gem.GREEN)))
    'take 1B 1G 1R'
    """

    gems: Tokens = attrs.field(validator=_TOKENS)
    returned: Tokens = attrs.field(default=_NO_TOKENS, validator=_TOKENS)
    noble: Noble | None = attrs.field(default=None, validator=_NOBLE)

    def __str__(self) -> str:
        return f"take {self.gems}{_suffix(self.returned, self.noble)}"


@final
@attrs.frozen(cache_hash=True)
class Reserve:
    """Reserve a face-up card (and take a gold token if any is left).

    Attributes:
        card: the face-up card reserved.
        returned: tokens given back to keep within the token limit.
        noble: the noble received at the end of the turn, if any.
    """

    card: Card = attrs.field(validator=_exactly(Card))
    returned: Tokens = attrs.field(default=_NO_TOKENS, validator=_TOKENS)
    noble: Noble | None = attrs.field(default=None, validator=_NOBLE)

    def __str__(self) -> str:
        return f"reserve {self.card}{_suffix(self.returned, self.noble)}"


@final
@attrs.frozen(cache_hash=True)
class ReserveFromDeck:
    """Reserve the top card of a tier's deck unseen (a blind reserve).

    Attributes:
        tier: the deck reserved from, 1 to 3.
        returned: tokens given back to keep within the token limit.
        noble: the noble received at the end of the turn, if any.
    """

    tier: int = attrs.field(validator=_exactly(int))
    returned: Tokens = attrs.field(default=_NO_TOKENS, validator=_TOKENS)
    noble: Noble | None = attrs.field(default=None, validator=_NOBLE)

    def __str__(self) -> str:
        return f"reserve from tier {self.tier} deck{_suffix(self.returned, self.noble)}"


@final
@attrs.frozen(cache_hash=True)
class Buy:
    """Buy a face-up card or one of the player's own reserved cards.

    Attributes:
        card: the card bought.
        payment: the tokens paid, gold included. ``None`` pays the default:
            coloured tokens first, gold only for what they cannot cover.
        noble: the noble received at the end of the turn, if any.
    """

    card: Card = attrs.field(validator=_exactly(Card))
    payment: Tokens | None = attrs.field(default=None, validator=_exactly(Tokens, None))
    noble: Noble | None = attrs.field(default=None, validator=_NOBLE)

    def __str__(self) -> str:
        if self.payment is None:
            paid = ""
        else:
            paid = f", pay {self.payment}" if self.payment else ", pay nothing"
        noble = "" if self.noble is None else f", noble N{self.noble.id}"
        return f"buy {self.card}{paid}{noble}"


@final
@attrs.frozen(cache_hash=True)
class Pass:
    """Do nothing; legal only when no other action is.

    Attributes:
        noble: the noble received at the end of the turn, if any.
    """

    noble: Noble | None = attrs.field(default=None, validator=_NOBLE)

    def __str__(self) -> str:
        return "pass" if self.noble is None else f"pass, noble N{self.noble.id}"


#: Any action.
Action: TypeAlias = Take | Reserve | ReserveFromDeck | Buy | Pass
