"""The game of an environment, played one decision at a time, in C when it can be.

:func:`table` gives the environments of :mod:`splendor.rl` a :class:`KernelTable`
when the compiled kernel is in use (:data:`splendor.fast.COMPILED`): the game
lives in the kernel, which walks the decisions and writes the observation and
the action mask itself. Otherwise, or for rules the kernel cannot hold, it
gives a :class:`PureTable` on the attrs engine and :mod:`splendor.formats.encoding`.
Both give exactly the same observations, masks and games (the tests compare
them).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from splendor import fast
from splendor.core.play import apply
from splendor.core.state import GameState
from splendor.errors import EncodingError, IllegalActionError, InvalidArgumentError
from splendor.fast.observations import observation_layout, observe_state
from splendor.formats import encoding
from splendor.rl._turns import Turns, mask_of

_NO_CODES: Final = np.zeros(encoding.ACTION_COUNT, dtype=np.int8)


def _illegal(code: int, legal: tuple[int, ...]) -> IllegalActionError:
    return IllegalActionError(f"code {code} is not legal here; the legal codes are {list(legal)}")


class PureTable:
    """A game on the attrs engine: :class:`~splendor.rl._turns.Turns` and ``apply``."""

    __slots__ = ("_turns",)

    def __init__(self, state: GameState) -> None:
        self._turns = Turns(state)

    @property
    def state(self) -> GameState:
        """The state before the turn being played."""
        return self._turns.state

    @property
    def prefix(self) -> tuple[int, ...]:
        """The codes chosen so far this turn."""
        return self._turns.prefix

    @property
    def codes(self) -> tuple[int, ...]:
        """The codes legal next (empty once the game is over)."""
        return self._turns.codes

    @property
    def current_player(self) -> int:
        """The seat to move."""
        return self._turns.state.current_player

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners once the game is over, else ``()``."""
        return self._turns.state.winners

    @property
    def turn(self) -> int:
        """The whole turns played."""
        return self._turns.state.turn

    def start(self, state: GameState) -> None:
        """Go on from ``state``, a state that the rules reached."""
        self._turns.start(state)

    def play(self, code: int) -> bool:
        """Take one decision; whether it completed (and played) the turn.

        Raises:
            IllegalActionError: for a code that is not legal now (nothing changes).
        """
        turns = self._turns
        chosen = turns.choose(code)
        if chosen is None:
            return False
        turns.start(apply(turns.state, chosen))
        return True

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` (with the codes of this turn if it is to move)."""
        state = self._turns.state
        to_move = seat == state.current_player and not state.winners
        return observe_state(state, seat, self._turns.prefix if to_move else ())

    def mask(self) -> npt.NDArray[np.int8]:
        """A new mask with a 1 at each code legal now."""
        return mask_of(self._turns.codes)


class KernelTable:
    """A game in the compiled kernel, which writes its observations and masks."""

    __slots__ = ("_game", "_size", "_state")

    def __init__(self, state: GameState) -> None:
        from splendor.fast import _kernel

        self._size = observation_layout(len(state.players), state.rules)[-1].stop
        self._game = _kernel.Game.from_state(state)
        self._state: GameState | None = state

    @property
    def state(self) -> GameState:
        """The state before the turn being played (converted from the kernel once)."""
        state = self._state
        if state is None:
            state = self._state = self._game.state()
        return state

    @property
    def prefix(self) -> tuple[int, ...]:
        """The codes chosen so far this turn."""
        return self._game.pending_codes

    @property
    def codes(self) -> tuple[int, ...]:
        """The codes legal next (empty once the game is over)."""
        return self._game.legal_codes()

    @property
    def current_player(self) -> int:
        """The seat to move."""
        return self._game.current_player

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners once the game is over, else ``()``."""
        return self._game.winners

    @property
    def turn(self) -> int:
        """The whole turns played."""
        return self._game.turn

    def start(self, state: GameState) -> None:
        """Go on from ``state``, a state that the rules reached."""
        from splendor.fast import _kernel

        self._game = _kernel.Game.from_state(state)
        self._state = state

    def play(self, code: int) -> bool:
        """Take one decision; whether it completed (and played) the turn.

        Raises:
            IllegalActionError: for a code that is not legal now (nothing changes).
        """
        game = self._game
        try:
            done = game.play_code(code)
        except EncodingError:
            raise _illegal(code, game.legal_codes()) from None
        if done:
            self._state = None
        return done

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` (with the codes of this turn if it is to move)."""
        out = np.empty(self._size, dtype=np.float32)
        self._game.observation_into(out, seat)
        return out

    def mask(self) -> npt.NDArray[np.int8]:
        """A new mask with a 1 at each code legal now."""
        out = _NO_CODES.copy()
        self._game.mask_into(out)
        return out


def table(state: GameState) -> PureTable | KernelTable:
    """The game at ``state``: in the kernel when it is compiled and can hold the rules."""
    if fast.COMPILED:
        try:
            return KernelTable(state)
        except InvalidArgumentError:  # rules with more tokens than the kernel counts
            pass
    return PureTable(state)
