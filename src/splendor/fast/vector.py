"""Many games stepped together, one decision code each: :class:`VectorEnv`.

Self-play at scale steps a batch of games at once and feeds the batch to a
network. :class:`VectorEnv` holds ``num_envs`` games and steps each of them
by one decision code of :mod:`splendor.formats.encoding` per call, taking and
returning ``numpy`` arrays. With the compiled kernel
(:data:`splendor.fast.COMPILED`) the whole batch is stepped in C: the codes,
the moves, the observations and the masks, and the deals of finished games;
the pure-Python fallback steps the same games with the same arrays, only
slower. It needs ``numpy``, from the ``[rl]`` extra (``pip install
"splendor-rules[rl]"``), and nothing else of it: stepping a batch loads
neither Gymnasium nor PettingZoo. Use it as ``splendor.fast.VectorEnv``.
"""

from __future__ import annotations

import secrets
import threading
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple

from splendor.extras import require

require("numpy", "rl", "splendor.fast.VectorEnv")

import numpy as np  # noqa: E402  (after the check)
import numpy.typing as npt  # noqa: E402

from splendor.core.rules import Rules  # noqa: E402
from splendor.errors import (  # noqa: E402
    ConcurrentUseError,
    IllegalActionError,
    InvalidArgumentError,
)
from splendor.fast import reference as fast_pure  # noqa: E402
from splendor.fast.game import COMPILED, Game  # noqa: E402
from splendor.fast.observations import observation_layout, observe_state  # noqa: E402
from splendor.fast.reference import SplitMix64, deal_with  # noqa: E402
from splendor.formats.encoding import ACTION_COUNT, RESERVED_SLOTS  # noqa: E402

if TYPE_CHECKING:
    from splendor.fast._kernel import VectorCore

__all__ = ["MAX_ENVS", "VectorEnv", "VectorStep", "random_codes"]

#: The most games one :class:`VectorEnv` holds: 2**24 (16,777,216), each
#: taking about 3 KB of memory with its arrays.
MAX_ENVS: Final = 1 << 24

_F32 = npt.NDArray[np.float32]
_I8 = npt.NDArray[np.int8]
_I64 = npt.NDArray[np.int64]
_U8 = npt.NDArray[np.uint8]
_Bools = npt.NDArray[np.bool_]
_Arrays = tuple[_F32, _I8, _F32, _Bools, _Bools, _I64]


class _StepArrays(NamedTuple):
    observations: _F32
    action_masks: _I8
    rewards: _F32
    dones: _Bools
    current_players: _I64


class VectorStep(_StepArrays):
    """What :meth:`VectorEnv.step` returns: the batch after one code per game.

    A named tuple of five arrays, which unpacks as
    ``obs, masks, rewards, dones, seats = env.step(codes)``:

    - ``observations``: ``float32``, one row per game.
    - ``action_masks``: ``int8``, one row of :data:`~splendor.formats.encoding.ACTION_COUNT`
      entries per game, 1 for each legal code.
    - ``rewards``: ``float32``, one row per game and one column per seat.
    - ``dones``: ``bool``, whether the game ended at this step, for either
      reason: ``dones == terminated | truncated``.
    - ``current_players``: ``int64``, the seat to move in every game.

    Two more attributes, not part of the tuple, split ``dones`` as
    ``gymnasium.vector`` environments do: :attr:`terminated` (the game ended
    by the rules) and :attr:`truncated` (cut short at ``max_turns``). As
    there, a finished game is reset at once, within the same step (the
    ``"same-step"`` autoreset of ``gymnasium.vector.AutoresetMode``): its
    row of ``observations``, ``action_masks`` and ``current_players`` is
    the first decision of its next deal. Unlike a Gymnasium environment,
    the step returns every seat's reward and the seat to move, since the
    games have several players and no info dict.
    """

    truncated: _Bools
    """Which games were cut short at ``max_turns`` (each also in ``dones``)."""

    def __new__(
        cls,
        observations: _F32,
        action_masks: _I8,
        rewards: _F32,
        dones: _Bools,
        current_players: _I64,
        truncated: _Bools,
    ) -> VectorStep:
        """The arrays of one step: the five fields, then ``truncated``."""
        step = super().__new__(cls, observations, action_masks, rewards, dones, current_players)
        step.truncated = truncated
        return step

    @property
    def terminated(self) -> _Bools:
        """Which games ended by the rules at this step: ``dones & ~truncated`` (a new array)."""
        terminated: _Bools = self.dones & ~self.truncated
        return terminated

    def __repr__(self) -> str:
        return f"{super().__repr__()[:-1]}, truncated={self.truncated!r})"


def random_codes(masks: npt.ArrayLike, rng: np.random.Generator) -> _I64:
    """A uniformly random legal code for every game: one draw per row of ``masks``.

    Row ``i`` of the result is one of the codes whose entry in row ``i`` of
    ``masks`` is not 0, each with the same chance (up to the ``2**-53``
    grain of ``rng.random``), the rows independent: what a random agent
    plays. It draws one double per row from ``rng`` and reads the masks in a
    few passes of numpy, so it costs a small part of a
    :meth:`VectorEnv.step` (the common recipe ``(masks +
    rng.random(masks.shape)).argmax(axis=1)``, with its double per code,
    costs about as much as the step itself).

    Args:
        masks: the action masks of :meth:`VectorEnv.reset` or
            :meth:`VectorEnv.step` (or any 2-dimensional array of integers
            or booleans, nonzero for a legal code).
        rng: the generator drawn from, as ``numpy.random.default_rng(seed)`` makes.

    Returns:
        ``int64`` codes of shape ``(len(masks),)``, ready for :meth:`VectorEnv.step`.

    Raises:
        InvalidArgumentError: when ``masks`` is not a 2-dimensional array of
            integers or booleans, a row has no legal code, or ``rng`` is not a
            ``numpy.random.Generator``.

    >>> import numpy as np
    >>> from splendor.fast import VectorEnv, random_codes
    >>> env = VectorEnv(4, 2, seed=1)
    >>> obs, masks, seats = env.reset()
    >>> codes = random_codes(masks, np.random.default_rng(0))
    >>> codes.dtype.name, bool(masks[np.arange(4), codes].all())
    ('int64', True)
    """
    if not isinstance(rng, np.random.Generator):
        raise InvalidArgumentError(
            f"rng must be a numpy.random.Generator (numpy.random.default_rng(seed)), "
            f"got {type(rng).__name__}"
        )
    array = np.asarray(masks)
    if array.ndim != 2 or array.dtype.kind not in "biu":
        raise InvalidArgumentError(
            f"masks must be a 2-dimensional array of integers or booleans, "
            f"got shape {array.shape} and dtype {array.dtype}"
        )
    rows, width = array.shape
    if array.dtype.itemsize == 1 and array.flags.c_contiguous:
        legal = array.view(np.bool_)  # a byte per code: nonzero reads as True
    else:
        legal = array != 0
    flat = np.flatnonzero(legal)  # the legal codes of every row, row after row
    counts = np.bincount(flat // max(width, 1), minlength=rows)
    if rows and not counts.all():
        raise InvalidArgumentError(f"row {int(np.argmin(counts))} of masks has no legal code")
    ends = np.cumsum(counts)
    picks = np.minimum((rng.random(rows) * counts).astype(np.intp), counts - 1)
    codes: _I64 = (flat[ends - counts + picks] - np.arange(rows) * width).astype(
        np.int64, copy=False
    )
    return codes


class _PureCore:
    """The games of a VectorEnv in Python, writing exactly the arrays of the kernel's core."""

    def __init__(
        self,
        num_envs: int,
        players: int,
        seed: int,
        rules: Rules | None,
        max_turns: int | None,
        slots: int,
        shown: int,
        size: int,
    ) -> None:
        seeds = SplitMix64(seed)
        self._rngs = [SplitMix64(seeds.next()) for _ in range(num_envs)]
        self._players = players
        self._rules = rules
        self._max_turns = max_turns
        self._games: list[fast_pure.Game] = []
        self._legal: list[tuple[int, ...]] = []

    def _deal(self, index: int) -> fast_pure.Game:
        return fast_pure.Game._of(deal_with(self._players, self._rngs[index], self._rules))

    def _observe(self, index: int, obs: _F32, masks: _I8, seats: _I64) -> None:
        game = self._games[index]
        state = game.state()
        legal = self._legal[index] = game.legal_codes()
        obs[index] = observe_state(state, state.current_player, game.pending_codes)
        masks[index] = 0
        masks[index, list(legal)] = 1
        seats[index] = state.current_player

    def reset(self, obs: _F32, masks: _I8, seats: _I64) -> None:
        self._games = [self._deal(i) for i in range(len(self._rngs))]
        self._legal = [()] * len(self._games)
        for i in range(len(self._games)):
            self._observe(i, obs, masks, seats)

    def first_illegal(self, codes: _I64) -> int:
        for i, code in enumerate(codes.tolist()):
            if code not in self._legal[i]:
                return i
        return -1

    def step(
        self,
        codes: _I64,
        obs: _F32,
        masks: _I8,
        rewards: _F32,
        dones: _U8,
        truncated: _U8,
        seats: _I64,
    ) -> int:
        bad = self.first_illegal(codes)
        if bad >= 0:
            return bad
        dones[:] = 0
        truncated[:] = 0
        rewards[:] = 0.0
        for i, code in enumerate(codes.tolist()):
            game = self._games[i]
            if game.play_code(code):
                if game.is_over:
                    dones[i] = 1
                    rewards[i] = -1.0
                    rewards[i, list(game.winners)] = 1.0
                elif self._max_turns is not None and game.turn >= self._max_turns:
                    dones[i] = 1
                    truncated[i] = 1
                if dones[i]:
                    self._games[i] = self._deal(i)
            self._observe(i, obs, masks, seats)
        return -1

    def legal_codes(self, index: int) -> tuple[int, ...]:
        return self._legal[index]

    def game(self, index: int, cls: type[Game]) -> Game:
        source = self._games[index]
        game = cls.from_state(source.state())
        for code in source.pending_codes:
            game.play_code(code)
        return game


class VectorEnv:
    """``num_envs`` games of ``players`` seats, stepped one decision code each.

    Every game is played one decision code of :mod:`splendor.formats.encoding` at a
    time (as :meth:`splendor.fast.reference.Game.legal_codes` and
    :meth:`~splendor.fast.reference.Game.play_code` play it), by whichever seat is
    to move; with the compiled kernel one call steps the whole batch in C.
    :meth:`reset` deals every game; :meth:`step` takes one code per game and
    plays it. Both return, per game:

    - ``observations``, ``float32`` of shape ``(num_envs,) +
      observation_shape(players, rules)``: row ``i`` is exactly
      ``splendor.rl.observation(view(state_i, seat_i), prefix_i)`` for the
      seat to move, with the codes it already chose this turn;
    - ``action_masks``, ``int8`` of shape ``(num_envs, ACTION_COUNT)``: 1 for
      the codes of ``splendor.formats.encoding.legal_codes(state_i, prefix_i)``;
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

    Deals are seeded: game ``i`` deals from a
    :class:`~splendor.fast.reference.SplitMix64` generator of its own, seeded with
    the ``i``-th output (from 0) of ``SplitMix64(seed)``, one deal after the
    other, as :func:`splendor.fast.reference.deal_with` deals (not as
    :func:`splendor.new_game` does). So the same seed and the same codes give
    the same arrays, with or without the compiled kernel, whatever the other
    games do.

    By default every call returns new arrays, which the caller may keep.
    With ``copy_arrays=False`` the environment makes its arrays once and writes every
    :meth:`reset` and :meth:`step` into the same ones (the same objects are
    returned each time, :attr:`truncated` included): no array is allocated
    per step, which is faster for a large batch, but an array kept from one
    step is overwritten by the next (copy what you keep, as a replay buffer
    does when it stores a step). ``gymnasium``'s vector environments have the
    same choice, as their ``copy`` argument.

    A VectorEnv is used by one thread at a time: a call made while another
    of its methods runs (from another thread, a signal handler or a
    callback) raises :class:`~splendor.errors.ConcurrentUseError`.

    Args:
        num_envs: the number of games, 1 to :data:`MAX_ENVS` (2**24).
        players: the number of seats of every game, 2 to 4.
        seed: the seed of the deals (an int), or ``None`` (the default) for
            a fresh random one drawn from :mod:`secrets`, as
            :func:`splendor.new_game` does.
        rules: the rules of every game; the published rules by default.
        max_turns: the turns after which a game is cut short (``None``:
            never; under house rules where no card can be bought a game may
            never end).
        copy_arrays: ``True`` (the default) for new arrays at every call;
            ``False`` to have every call write into, and return, the same
            arrays.

    Raises:
        InvalidArgumentError: for a bad argument, or rules that let a player
            hold more reserved cards than the encoding tells apart
            (:data:`~splendor.formats.encoding.RESERVED_SLOTS`).
        splendor.errors.MissingExtraError: when ``numpy`` is not installed
            (at import).

    >>> import numpy as np
    >>> from splendor.fast import VectorEnv, random_codes
    >>> env = VectorEnv(8, 2, seed=1)
    >>> obs, masks, seats = env.reset()
    >>> obs.shape, obs.dtype.name, masks.shape, masks.dtype.name, seats.tolist()
    ((8, 521), 'float32', (8, 85), 'int8', [0, 0, 0, 0, 0, 0, 0, 0])
    >>> rng = np.random.default_rng(0)
    >>> while True:  # random legal codes until a game ends
    ...     codes = random_codes(masks, rng)
    ...     obs, masks, rewards, dones, seats = env.step(codes)
    ...     if dones.any():
    ...         break
    >>> done = int(np.flatnonzero(dones)[0])
    >>> done, rewards[done].tolist(), env.game(done).turn
    (0, [-1.0, 1.0], 0)

    The step is a :class:`VectorStep`, whose fields are named, with the
    ``terminated`` and ``truncated`` split of ``dones``:

    >>> step = env.step(random_codes(masks, rng))
    >>> step.observations.shape, step.rewards.shape, step.current_players.shape
    ((8, 521), (8, 2), (8,))
    >>> bool((step.dones == step.terminated | step.truncated).all())
    True
    """

    __slots__ = (
        "_core",
        "_lock",
        "_num_envs",
        "_out",
        "_players",
        "_ready",
        "_size",
        "truncated",
    )

    # Which implementation steps the games: the kernel's VectorCore exactly
    # when splendor.fast.game chose the kernel (tests set it to compare the two).
    _use_kernel: ClassVar[bool] = COMPILED

    def __init__(
        self,
        num_envs: int,
        players: int,
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        max_turns: int | None = 1000,
        copy_arrays: bool = True,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidArgumentError(f"num_envs must be a positive int, got {num_envs!r}")
        if num_envs > MAX_ENVS:
            raise InvalidArgumentError(f"num_envs must be at most 2**24, got {num_envs!r}")
        num_envs = int.__index__(num_envs)
        if seed is None:
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidArgumentError(f"seed must be an int, got {seed!r}")
        if max_turns is not None and (
            isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1
        ):
            raise InvalidArgumentError(
                f"max_turns must be a positive int or None, got {max_turns!r}"
            )
        if not isinstance(copy_arrays, bool):
            raise InvalidArgumentError(f"copy_arrays must be a bool, got {copy_arrays!r}")
        # Checks players and rules with the library's errors.
        layout = observation_layout(players, rules)
        fields = {field.name: field for field in layout}
        slots = fields["reserved"].shape[1]
        if slots > RESERVED_SLOTS:
            raise InvalidArgumentError(
                f"the encoding tells apart at most {RESERVED_SLOTS} reserved cards; "
                f"these rules allow {slots}"
            )
        self._size = layout[-1].stop
        self._num_envs = num_envs
        self._players = players
        self._ready = False
        self._lock = threading.Lock()
        shown = fields["nobles"].shape[0]
        args = (num_envs, players, seed, rules, max_turns, slots, shown, self._size)
        if self._use_kernel:
            from splendor.fast import _kernel

            self._core: VectorCore | _PureCore = _kernel.VectorCore(*args)
        else:
            self._core = _PureCore(*args)
        # The arrays every call writes into with copy_arrays=False; None: new ones each call.
        self._out: _Arrays | None = None if copy_arrays else self._arrays()
        #: Which games the last :meth:`step` cut short at ``max_turns``.
        self.truncated: npt.NDArray[np.bool_] = (
            np.zeros(num_envs, dtype=np.bool_) if self._out is None else self._out[4]
        )

    def _arrays(self) -> _Arrays:
        """New arrays for one step: observations, masks, rewards, dones, truncated, seats."""
        num_envs = self._num_envs
        return (
            np.empty((num_envs, self._size), dtype=np.float32),
            np.empty((num_envs, ACTION_COUNT), dtype=np.int8),
            np.empty((num_envs, self._players), dtype=np.float32),
            np.empty(num_envs, dtype=np.bool_),
            np.zeros(num_envs, dtype=np.bool_),
            np.empty(num_envs, dtype=np.int64),
        )

    @property
    def copy_arrays(self) -> bool:
        """Whether every call returns new arrays (see the class)."""
        return self._out is None

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
        index = int.__index__(index)
        if not -self._num_envs <= index < self._num_envs:
            raise InvalidArgumentError(
                f"env index {index} is out of range for {self._num_envs} envs"
            )
        self._enter()
        try:
            return self._core.game(index % self._num_envs, Game)
        finally:
            self._lock.release()

    def reset(self) -> tuple[_F32, _I8, _I64]:
        """Deal every game anew (the next deal of each game's seeded sequence).

        Returns:
            ``(observations, action_masks, current_players)`` of the first
            decision of every game.
        """
        obs, masks, _, _, truncated, seats = self._out or self._arrays()
        self._enter()
        try:
            self._core.reset(obs, masks, seats)
            self._ready = True
            truncated[:] = False
            self.truncated = truncated
        finally:
            self._lock.release()
        return obs, masks, seats

    def step(self, codes: npt.ArrayLike) -> VectorStep:
        """Play one decision code in every game.

        Args:
            codes: one code per game, integers of shape ``(num_envs,)``
                (a read-only array will do); ``codes[i]`` must be legal in
                game ``i`` (its mask entry 1).

        Returns:
            a :class:`VectorStep`, the named tuple ``(observations,
            action_masks, rewards, dones, current_players)`` after the codes,
            finished games already dealt anew (see the class), with its
            ``terminated`` and ``truncated`` split of ``dones``.

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
        # Codes beyond int64 wrap to negative numbers, which are illegal too.
        wide = np.ascontiguousarray(array, dtype=np.int64)
        obs, masks, rewards, dones, truncated, seats = self._out or self._arrays()
        core = self._core
        self._enter()
        try:
            bad = core.step(
                wide, obs, masks, rewards, dones.view(np.uint8), truncated.view(np.uint8), seats
            )
            if bad >= 0:
                raise IllegalActionError(
                    f"env {bad}: code {int(array[bad])} is not legal here "
                    f"(legal codes: {list(core.legal_codes(bad))})"
                )
            self.truncated = truncated
        finally:
            self._lock.release()
        return VectorStep(obs, masks, rewards, dones, seats, truncated)

    def _check_ready(self) -> None:
        if not self._ready:
            raise InvalidArgumentError("call reset() before using the environment")

    def _enter(self) -> None:
        """Take the environment for one method (the caller releases the lock)."""
        if not self._lock.acquire(blocking=False):
            raise ConcurrentUseError(fast_pure._VECTOR_BUSY)
