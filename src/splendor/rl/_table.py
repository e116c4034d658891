"""The game of an environment, played one decision at a time, in C when it can be.

:func:`table` gives the environments of :mod:`splendor.rl` a :class:`KernelTable`
when the compiled kernel is in use (:data:`splendor.fast.COMPILED`): the game
lives in the kernel, which walks the decisions and writes the observation and
the action mask itself. Otherwise, or for rules the kernel cannot hold, it
gives a :class:`PureTable` on the attrs engine and :mod:`splendor.formats.encoding`.
Both give exactly the same observations, masks and games (the tests compare
them). The bots of the Gymnasium environment play their turns on the table
too (:meth:`KernelTable.play_bots`): in the kernel, a game goes back and forth
between the bots and the learner without being converted or checked again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Final

import numpy as np
import numpy.typing as npt

from splendor import fast
from splendor.core.deal import new_game
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.rules import Rules
from splendor.core.state import GameState
from splendor.core.views import view
from splendor.errors import EncodingError, IllegalActionError, InvalidArgumentError
from splendor.fast.observations import observation_layout, observe_state
from splendor.formats import encoding
from splendor.players.bots import Bot, GreedyBot, RandomBot
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

    def deal(self, players: int, seed: int, rules: Rules) -> None:
        """Go on from the deal ``new_game(players, seed=seed, rules=rules)``."""
        self._turns.start(new_game(players, seed=seed, rules=rules))

    def play_bots(
        self, bots: Mapping[int, Bot], rngs: Mapping[int, random.Random], max_turns: int
    ) -> None:
        """Let the bots play whole turns while one of their seats is to move.

        ``bots`` and ``rngs`` are by seat; the bots stop at a seat without a
        bot, at the end of the game or once ``max_turns`` turns are played.
        Call it between turns only (no decision of the turn made yet).
        """
        state = self._turns.state
        while not state.winners and state.turn < max_turns:
            seat = state.current_player
            bot = bots.get(seat)
            if bot is None:
                break
            state = apply(state, bot(view(state, seat), legal_actions(state), rngs[seat]))
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
    """A game in the compiled kernel, which writes its observations and masks.

    It plays on :class:`splendor.fast.Game`, which is the kernel's game when
    :data:`splendor.fast.COMPILED` (:func:`table` makes one only then).
    """

    __slots__ = ("_game", "_size", "_state")

    def __init__(self, state: GameState) -> None:
        self._size = observation_layout(len(state.players), state.rules)[-1].stop
        self._game = fast.Game.from_state(state)
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
        """Go on from ``state``, a state that the rules reached (checked as it goes in)."""
        self._game = fast.Game.from_state(state)
        self._state = state

    def deal(self, players: int, seed: int, rules: Rules) -> None:
        """Go on from the deal ``new_game(players, seed=seed, rules=rules)``.

        The kernel deals it itself: a deal needs no check.
        """
        self._game = fast.Game.new(players, seed=seed, rules=rules)
        self._state = None

    def play_bots(
        self, bots: Mapping[int, Bot], rngs: Mapping[int, random.Random], max_turns: int
    ) -> None:
        """Let the bots play whole turns while one of their seats is to move.

        As :meth:`PureTable.play_bots`, with the same choices, on the
        kernel's game: a plain :class:`~splendor.RandomBot` or
        :class:`~splendor.GreedyBot` chooses in the kernel from the same
        draws on its generator, and any other bot gets the state, its view
        and the legal actions (those of :func:`~splendor.legal_actions`, in
        its order) made from the kernel's game, whose chosen action is played
        there. If a bot raises, the game is left as it was before the first
        of these turns.
        """
        game = self._game
        if game.is_over or game.turn >= max_turns or game.current_player not in bots:
            return
        before, state = game.copy(), self._state
        try:
            while not game.is_over and game.turn < max_turns:
                seat = game.current_player
                bot = bots.get(seat)
                if bot is None:
                    break
                kind = type(bot)
                if kind is RandomBot:
                    game.play(rngs[seat].randrange(game.action_count()))
                elif kind is GreedyBot:
                    game.play(game.greedy_choice(rngs[seat]))
                else:
                    self._play_bot(bot, seat, rngs[seat])
                    game = self._game  # a new game if the action was not one of the listed
        except BaseException:
            self._game, self._state = before, state
            raise
        self._state = None

    def _play_bot(self, bot: Bot, seat: int, rng: random.Random) -> None:
        """The turn of any bot: the one it would play on the engine's state."""
        game = self._game
        state = game.state()
        actions = game.actions()
        action = bot(view(state, seat), actions, rng)
        for index, listed in enumerate(actions):
            if listed is action:
                game.play(index)
                return
        try:
            index = actions.index(action)
        except ValueError:  # the engine refuses it, or plays it: as on the pure path
            self.start(apply(state, action))
            return
        game.play(index)

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
    """The game at ``state``: in the kernel when it is compiled and can hold the rules.

    Whether it is compiled is :data:`splendor.fast.COMPILED`, decided once by
    :mod:`splendor.fast.game`.
    """
    if fast.COMPILED:
        try:
            return KernelTable(state)
        except InvalidArgumentError:  # rules with more tokens than the kernel counts
            pass
    return PureTable(state)
