"""Many games stepped together, one decision code each: :class:`VectorEnv`.

Self-play at scale steps a batch of games at once and feeds the batch to a
network. :class:`VectorEnv` holds ``num_envs`` games of
:class:`splendor.fast.Game` (the compiled kernel when
:data:`splendor.fast.COMPILED`) and steps each of them by one decision code
of :mod:`splendor.encoding` per call, taking and returning ``numpy`` arrays.
It needs the ``[rl]`` extra (``pip install "splendor-rules[rl]"``) for
``numpy`` and :mod:`splendor.rl`; use it as ``splendor.fast.VectorEnv``.
"""

from __future__ import annotations

import random
from typing import Final

from splendor.rl._extras import require

require("numpy", "rl", "splendor.fast.VectorEnv")

import numpy as np  # noqa: E402  (after the check)
import numpy.typing as npt  # noqa: E402

from splendor.encoding import ACTION_COUNT  # noqa: E402
from splendor.errors import IllegalActionError, InvalidArgumentError  # noqa: E402
from splendor.fast import Game  # noqa: E402
from splendor.rl.observations import observation_shape, observe_state  # noqa: E402
from splendor.rules import Rules  # noqa: E402

__all__ = ["VectorEnv"]

# The decision field closes every observation: the number of codes chosen
# this turn, the first one one-hot, then the later ones counted.
_DECISION: Final = 1 + 2 * ACTION_COUNT


class VectorEnv:
    """``num_envs`` games of ``players`` seats, stepped one decision code each.

    Every game is played one decision code of :mod:`splendor.encoding` at a
    time (as :meth:`splendor.fast_pure.Game.legal_codes` and
    :meth:`~splendor.fast_pure.Game.play_code` play it), by whichever seat is
    to move. :meth:`reset` deals every game; :meth:`step` takes one code per
    game and plays it. Both return, per game:

    - ``observations``, ``float32`` of shape ``(num_envs,) +
      observation_shape(players, rules)``: row ``i`` is exactly
      ``splendor.rl.observation(view(state_i, seat_i), prefix_i)`` for the
      seat to move, with the codes it already chose this turn;
    - ``action_masks``, ``int8`` of shape ``(num_envs, ACTION_COUNT)``: 1 for
      the codes of ``splendor.encoding.legal_codes(state_i, prefix_i)``;
    - ``current_players``, ``int64`` of shape ``(num_envs,)``: the seat to move.

    :meth:`step` also returns ``rewards``, ``float32`` of shape ``(num_envs,
    players)``, and ``dones``, ``bool`` of shape ``(num_envs,)``. When a
    code ends a game, its ``dones`` entry is true and its rewards row holds
    +1 for each winner (players who share the win each get +1) and -1 for
    each other seat, as the environments of :mod:`splendor.rl` reward; every
    other row is zeros. A game that reaches ``max_turns`` whole turns
    without ending is done too, with a rewards row of zeros and its
    :attr:`truncated` entry true. A done game is dealt again at once: the
    observation, mask and seat returned for it are those of the first
    decision of the new game, and the final state of the old one is not
    returned (use :meth:`game` before the last step to look at it).

    Deals are seeded: game ``i`` draws the seed of each of its deals from a
    generator of its own seeded with ``seed`` and ``i``, so the same seed and
    the same codes give the same arrays, whatever the other games do.

    Args:
        num_envs: the number of games, at least 1.
        players: the number of seats of every game, 2 to 4.
        seed: the seed of the deals (an int).
        rules: the rules of every game; the published rules by default.
        max_turns: the turns after which a game is cut short (``None``:
            never; under house rules where no card can be bought a game may
            never end).

    Raises:
        InvalidArgumentError: for a bad argument.
        splendor.errors.MissingExtraError: when ``numpy`` is not installed
            (at import).

    >>> import numpy as np
    >>> from splendor.fast import VectorEnv
    >>> env = VectorEnv(8, 2, seed=1)
    >>> obs, masks, seats = env.reset()
    >>> obs.shape, obs.dtype.name, masks.shape, masks.dtype.name, seats.tolist()
    ((8, 521), 'float32', (8, 85), 'int8', [0, 0, 0, 0, 0, 0, 0, 0])
    >>> rng = np.random.default_rng(0)
    >>> while True:  # random legal codes until a game ends
    ...     codes = (masks + rng.random(masks.shape)).argmax(axis=1)
    ...     obs, masks, rewards, dones, seats = env.step(codes)
    ...     if dones.any():
    ...         break
    >>> np.flatnonzero(dones).tolist(), rewards[1].tolist(), env.game(1).turn
    ([1], [1.0, -1.0], 0)
    """

    __slots__ = (
        "_bases",
        "_deals",
        "_games",
        "_legal",
        "_max_turns",
        "_num_envs",
        "_players",
        "_rules",
        "_seed",
        "_size",
        "truncated",
    )

    def __init__(
        self,
        num_envs: int,
        players: int,
        *,
        seed: int,
        rules: Rules | None = None,
        max_turns: int | None = 1000,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidArgumentError(f"num_envs must be a positive int, got {num_envs!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidArgumentError(f"seed must be an int, got {seed!r}")
        if max_turns is not None and (
            isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1
        ):
            raise InvalidArgumentError(
                f"max_turns must be a positive int or None, got {max_turns!r}"
            )
        # Checks players and rules with the library's errors.
        (self._size,) = observation_shape(players, rules)
        self._num_envs = num_envs
        self._players = players
        self._rules = rules
        self._seed = seed
        self._max_turns = max_turns
        self._deals = [random.Random(f"splendor-vector:{seed}:{i}") for i in range(num_envs)]
        self._games: list[Game] = []
        self._bases: list[npt.NDArray[np.float32]] = []
        self._legal: list[tuple[int, ...]] = []
        #: Which games the last :meth:`step` cut short at ``max_turns``.
        self.truncated: npt.NDArray[np.bool_] = np.zeros(num_envs, dtype=np.bool_)

    @property
    def num_envs(self) -> int:
        """The number of games."""
        return self._num_envs

    @property
    def players(self) -> int:
        """The number of seats of every game."""
        return self._players

    @property
    def observation_size(self) -> int:
        """The length of one observation: ``observation_shape(players, rules)[0]``."""
        return self._size

    def game(self, index: int) -> Game:
        """A copy of game ``index`` as it stands (changing it changes nothing here)."""
        self._check_ready()
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidArgumentError(f"an env index is an int, got {index!r}")
        if not -self._num_envs <= index < self._num_envs:
            raise InvalidArgumentError(
                f"env index {index} is out of range for {self._num_envs} envs"
            )
        return self._games[index].copy()

    def reset(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Deal every game anew (the next deal of each game's seeded sequence).

        Returns:
            ``(observations, action_masks, current_players)`` of the first
            decision of every game.
        """
        self._games = [self._deal(i) for i in range(self._num_envs)]
        self._bases = [self._base(game) for game in self._games]
        self._legal = [game.legal_codes() for game in self._games]
        self.truncated = np.zeros(self._num_envs, dtype=np.bool_)
        obs = np.empty((self._num_envs, self._size), dtype=np.float32)
        masks = np.zeros((self._num_envs, ACTION_COUNT), dtype=np.int8)
        seats = np.empty(self._num_envs, dtype=np.int64)
        for i, game in enumerate(self._games):
            obs[i] = self._bases[i]
            seats[i] = game.current_player
        self._fill(masks)
        return obs, masks, seats

    def step(
        self, codes: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int64],
    ]:
        """Play one decision code in every game.

        Args:
            codes: one code per game, integers of shape ``(num_envs,)``;
                ``codes[i]`` must be legal in game ``i`` (its mask entry 1).

        Returns:
            ``(observations, action_masks, rewards, dones, current_players)``
            after the codes, finished games already dealt anew (see the class).

        Raises:
            InvalidArgumentError: for codes of the wrong shape or type, or
                before :meth:`reset`.
            IllegalActionError: for a code that is not legal in its game
                (the message names the env index). Nothing is played then,
                in any game.
        """
        self._check_ready()
        array = np.asarray(codes)
        if array.shape != (self._num_envs,):
            raise InvalidArgumentError(
                f"codes must have shape ({self._num_envs},), got {array.shape}"
            )
        if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
            raise InvalidArgumentError(f"codes must be integers, got dtype {array.dtype}")
        moves: list[int] = array.tolist()
        legal = self._legal
        for i, code in enumerate(moves):
            if code not in legal[i]:
                raise IllegalActionError(
                    f"env {i}: code {code} is not legal here (legal codes: {list(legal[i])})"
                )
        num_envs = self._num_envs
        obs = np.empty((num_envs, self._size), dtype=np.float32)
        masks = np.zeros((num_envs, ACTION_COUNT), dtype=np.int8)
        rewards = np.zeros((num_envs, self._players), dtype=np.float32)
        dones = np.zeros(num_envs, dtype=np.bool_)
        truncated = np.zeros(num_envs, dtype=np.bool_)
        seats = np.empty(num_envs, dtype=np.int64)
        decision = self._size - _DECISION
        max_turns = self._max_turns
        games = self._games
        bases = self._bases
        for i, code in enumerate(moves):
            game = games[i]
            if game.play_code(code):
                if game.is_over:
                    dones[i] = True
                    row = rewards[i]
                    row[:] = -1.0
                    row[list(game.winners)] = 1.0
                    game = games[i] = self._deal(i)
                elif max_turns is not None and game.turn >= max_turns:
                    dones[i] = True
                    truncated[i] = True
                    game = games[i] = self._deal(i)
                base = bases[i] = self._base(game)
                obs[i] = base
            else:
                obs[i] = bases[i]
                prefix = game.pending_codes
                out = obs[i]
                out[decision] = len(prefix)
                out[decision + 1 + prefix[0]] = 1.0
                later = decision + 1 + ACTION_COUNT
                for chosen in prefix[1:]:
                    out[later + chosen] += 1.0
            legal[i] = game.legal_codes()
            seats[i] = game.current_player
        self._fill(masks)
        self.truncated = truncated
        return obs, masks, rewards, dones, seats

    def _fill(self, masks: npt.NDArray[np.int8]) -> None:
        # One fancy assignment for the whole batch: far quicker than one per row.
        rows: list[int] = []
        columns: list[int] = []
        for i, options in enumerate(self._legal):
            rows += [i] * len(options)
            columns += options
        masks[rows, columns] = 1

    def _check_ready(self) -> None:
        if not self._games:
            raise InvalidArgumentError("call reset() before using the environment")

    def _deal(self, index: int) -> Game:
        return Game.new(self._players, seed=self._deals[index].getrandbits(63), rules=self._rules)

    @staticmethod
    def _base(game: Game) -> npt.NDArray[np.float32]:
        # The observation between decisions: the turn's prefix is added on top.
        return observe_state(game.state(), game.current_player)
