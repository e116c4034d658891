"""A game played decision by decision: the part every environment shares."""

from __future__ import annotations

import operator
from typing import Final

import numpy as np
import numpy.typing as npt

from splendor.core.actions import Action
from splendor.core.state import GameState
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.formats import encoding


def as_code(action: object) -> int:
    """An action of an environment (an int or a numpy integer) as a plain int."""
    if isinstance(action, bool | np.bool_):
        raise InvalidArgumentError(f"an action is an int code, got {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]  # raises TypeError if not
    except TypeError:
        raise InvalidArgumentError(
            f"an action is an int code, got {type(action).__name__} {action!r}"
        ) from None


# The bytes of the masks met so far: the same sets of legal codes come back
# again and again, and copying bytes is quicker than filling an array.
_MASKS: dict[tuple[int, ...], bytes] = {}
_MASKS_SIZE: Final = 4096


def mask_of(codes: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """A new int8 mask over every code with a 1 at each of ``codes``."""
    raw = _MASKS.get(codes)
    if raw is None:
        mask = bytearray(encoding.ACTION_COUNT)
        for code in codes:
            mask[code] = 1
        raw = bytes(mask)
        if len(_MASKS) >= _MASKS_SIZE:
            _MASKS.clear()
        _MASKS[codes] = raw
    return np.frombuffer(bytearray(raw), dtype=np.int8)


class Turns:
    """A game state and the decisions made so far in the turn being played.

    Attributes:
        state: the state before the turn being played.
        prefix: the codes chosen so far in this turn.
        codes: the codes legal next (empty once the game is over).
    """

    __slots__ = ("codes", "prefix", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.prefix: tuple[int, ...] = ()
        self.codes: tuple[int, ...] = () if state.winners else encoding.legal_codes(state)

    def choose(self, code: int) -> Action | None:
        """Make the next decision; the whole action once the turn is complete.

        The state is not changed: the caller plays the action it gets and
        calls :meth:`start` with the state after it.

        Raises:
            IllegalActionError: when ``code`` is not one of :attr:`codes`.
        """
        if code not in self.codes:
            raise IllegalActionError(
                f"code {code} is not legal here; the legal codes are {list(self.codes)}"
            )
        prefix = (*self.prefix, code)
        following = encoding.legal_codes(self.state, prefix)
        if following:
            self.prefix = prefix
            self.codes = following
            return None
        return encoding.decode(self.state, prefix)

    def start(self, state: GameState) -> None:
        """Begin the next turn from ``state``."""
        self.state = state
        self.prefix = ()
        self.codes = () if state.winners else encoding.legal_codes(state)
