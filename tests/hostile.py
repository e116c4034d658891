"""Bad input from a careless or hostile caller: the values and checks the hostile tests share.

The standard the ``test_hostile_*.py`` files of each package hold the public
API to: every call either gives a correct result or raises a
:class:`splendor.SplendorError` subclass with a clear message; no other
exception escapes, nothing hangs and no argument is changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import attrs
import pytest

from splendor import (
    Card,
    GameState,
    GreedyBot,
    Noble,
    RandomBot,
    SplendorError,
    Take,
    Tokens,
    new_game,
    play_game,
)

__all__ = [
    "FACE_UP",
    "STATE",
    "STATES",
    "THREE",
    "Call",
    "bad_take",
    "copy_card",
    "copy_noble",
    "evolve_any",
    "has_message",
    "raises_library_error",
]

Call = Callable[[], object]
"""A call that takes no argument: one hostile use of the API."""

_T = TypeVar("_T")

STATE = new_game(2, seed=1)
"""A fresh game of 2 players, the target of most hostile calls."""


def _first_face_up() -> Card:
    card = STATE.board[0][0]
    assert card is not None
    return card


FACE_UP = _first_face_up()
"""The first face-up card of :data:`STATE`."""

THREE = Tokens(red=1, blue=1, green=1)
"""A legal take of three colours in :data:`STATE`."""

STATES: tuple[GameState, ...] = (
    new_game(2, seed=1),
    play_game([GreedyBot(), GreedyBot()], seed=2, max_turns=40).final_state(),
    play_game([RandomBot()] * 3, seed=4, max_turns=60).final_state(),
)
"""States the fuzzing tests start from: a fresh game, two games under way."""


def copy_card(card: Card, **changes: object) -> Card:
    """A hand-made card with the fields of ``card``, some changed."""
    fields: dict[str, object] = {
        "id": card.id,
        "tier": card.tier,
        "bonus": card.bonus,
        "points": card.points,
        "cost": card.cost,
    }
    fields.update(changes)
    return Card(**fields)  # type: ignore[arg-type]  # wrong field types on purpose


def copy_noble(noble: Noble, **changes: object) -> Noble:
    """A hand-made noble with the fields of ``noble``, some changed."""
    fields: dict[str, object] = {
        "id": noble.id,
        "points": noble.points,
        "requirement": noble.requirement,
    }
    fields.update(changes)
    return Noble(**fields)  # type: ignore[arg-type]  # wrong field types on purpose


def evolve_any(value: _T, **changes: object) -> _T:
    """:func:`attrs.evolve` taking fields of any type, to build broken values on purpose."""
    return attrs.evolve(value, **changes)  # type: ignore[misc]  # any attrs instance


def has_message(error: Exception) -> None:
    """Fail unless ``error`` says something."""
    assert str(error), f"{type(error).__name__} without a message"


def raises_library_error(call: Call) -> SplendorError:
    """Run ``call``; it must raise a library error with a message, nothing else."""
    with pytest.raises(SplendorError) as caught:
        call()
    assert str(caught.value)
    return caught.value


def bad_take() -> Take:
    """A take whose gems are a string, not tokens."""
    return Take("x")  # type: ignore[arg-type]  # wrong type on purpose
