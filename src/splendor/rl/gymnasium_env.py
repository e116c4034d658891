"""A Gymnasium environment: one learning seat against bots.

``gymnasium.make("splendor/Splendor-v0", opponents=[...])`` makes a
:class:`SplendorEnv` (registered when :mod:`splendor.rl` is imported; the id
``"splendor.rl:splendor/Splendor-v0"`` has Gymnasium import it, since
Gymnasium 1.0 loads no plugins on its own import). The
learner plays one seat; the other seats are bots of :mod:`splendor.players.bots`
(any :class:`~splendor.players.bots.Bot`), one RandomBot by default. Each step is
one decision of :mod:`splendor.formats.encoding`; the bots play their whole turns
between the learner's.

>>> import gymnasium
>>> env = gymnasium.make("splendor.rl:splendor/Splendor-v0")
>>> obs, info = env.reset(seed=3)
>>> done = False
>>> while not done:
...     action = env.action_space.sample(info["action_mask"])
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> reward in (-1.0, 1.0)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, SupportsFloat

import numpy as np
import numpy.typing as npt

from splendor.core.checks import LARGEST
from splendor.core.deal import new_game
from splendor.core.rules import Rules
from splendor.core.state import GameState
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.extras import require
from splendor.formats import encoding
from splendor.players.bots import Bot, RandomBot
from splendor.rl._table import table
from splendor.rl._text import RENDER_MODES, render
from splendor.rl._turns import as_code, mask_of

require("gymnasium", "rl", "splendor.rl.gymnasium_env")
require("pettingzoo", "rl", "splendor.rl.gymnasium_env")

import gymnasium  # noqa: E402  (after the check of the extra)

from splendor.rl.pettingzoo_env import (  # noqa: E402
    DEFAULT_MAX_TURNS,
    check_options,
    observation_space,
)

__all__ = ["SplendorEnv"]

Observation = dict[str, Any]


class SplendorEnv(gymnasium.Env[Observation, int | np.integer[Any]]):
    """One seat of Splendor against bots, as a Gymnasium environment.

    Observations are dicts of ``"observation"`` (:func:`splendor.rl.observation`
    of the learner's view) and ``"action_mask"`` (``int8``, 1 at each legal
    code); the mask is also ``info["action_mask"]``. The action space is
    ``Discrete(ACTION_COUNT)``. The reward is +1 when the game ends with the
    learner among the winners (a shared win counts as a win), -1 when it
    ends otherwise, and 0 before; a game reaching ``max_turns`` is truncated.

    Args:
        opponents: the bots in the other seats, in seat order (1 to 3 of
            them); one :class:`~splendor.RandomBot` by default.
        seat: the learner's seat, or ``None`` for a random seat each game.
        rules: the rules to play; the published rules by default.
        max_turns: whole turns after which an unfinished game is truncated.
        illegal_action: what a code the mask does not allow does:
            ``"lose"`` (the default) ends the game as a loss (reward -1,
            ``info["illegal_action"]`` true); ``"raise"`` raises
            :class:`~splendor.IllegalActionError` and changes nothing.
        render_mode: ``None``, ``"ansi"`` (text), ``"svg"`` (an SVG
            picture) or ``"rgb_array"`` (a ``uint8`` RGB frame, for videos).

    Raises:
        InvalidArgumentError: for a bad option.

    Attributes:
        seat: the learner's seat in the current game.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponents: Sequence[Bot] | None = None,
        seat: int | None = 0,
        rules: Rules | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
    ) -> None:
        if opponents is None:
            opponents = (RandomBot(),)
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            raise InvalidArgumentError(f"opponents must be a sequence of bots, got {opponents!r}")
        self._opponents = tuple(opponents)
        if not 1 <= len(self._opponents) <= 3:
            raise InvalidArgumentError(f"a game has 1 to 3 opponents, got {len(self._opponents)}")
        for bot in self._opponents:
            if not callable(bot):
                raise InvalidArgumentError(f"an opponent must be a bot (a callable), got {bot!r}")
        self.players = len(self._opponents) + 1
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            raise InvalidArgumentError(
                f"seat must be None or a seat from 0 to {self.players - 1}, got {seat!r}"
            )
        if illegal_action not in ("lose", "raise"):
            raise InvalidArgumentError(
                f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}"
            )
        self.rules = check_options(render_mode, rules, max_turns, RENDER_MODES)
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.illegal_action = illegal_action
        self._fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.observation_space = observation_space(self.players, self.rules)
        self.action_space = gymnasium.spaces.Discrete(encoding.ACTION_COUNT)
        self._table = table(new_game(self.players, seed=0, rules=self.rules))
        self._bots: dict[int, Bot] = {}
        self._rngs: dict[int, random.Random] = {}
        self._over = True

    @property
    def game(self) -> GameState:
        """The game state before the turn being played."""
        return self._table.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first turn.

        Args:
            seed: seeds the environment's generator (``np_random``), from
                which the deal, the learner's seat (if random) and the bots'
                generators are drawn.
            options: not used.
        """
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(LARGEST))
        if self._fixed_seat is None:
            self.seat = int(rng.integers(self.players))
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = dict(zip(others, self._opponents, strict=True))
        self._rngs = {s: random.Random(int(rng.integers(LARGEST))) for s in others}
        game = self._table
        game.deal(self.players, game_seed, self.rules)
        game.play_bots(self._bots, self._rngs, self.max_turns)
        self._over = bool(game.winners) or game.turn >= self.max_turns
        return self._outputs()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Make one decision for the learner; the bots then play if its turn is over.

        Raises:
            IllegalActionError: before ``reset`` or after the game ended, or for
                an illegal code with ``illegal_action="raise"``.
            InvalidArgumentError: for something that is not an int code.
        """
        if self._over:
            raise IllegalActionError("no game in progress: call reset() to deal one")
        code = as_code(action)
        game = self._table
        try:
            done = game.play(code)  # changes nothing if the code is illegal
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            obs, info = self._outputs()
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        if not done:  # more decisions in the learner's turn: the game goes on
            obs, info = self._outputs()
            return obs, 0.0, False, False, info
        game.play_bots(self._bots, self._rngs, self.max_turns)
        reward = 0.0
        winners = game.winners
        terminated = bool(winners)
        truncated = not terminated and game.turn >= self.max_turns
        if terminated:
            reward = 1.0 if self.seat in winners else -1.0
        self._over = terminated or truncated
        obs, info = self._outputs()
        return obs, reward, terminated, truncated, info

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The table as text (``"ansi"``), an SVG picture (``"svg"``) or an RGB frame.

        ``"rgb_array"`` gives a ``(height, width, 3)`` ``uint8`` array
        (:func:`splendor.rl.rgb_array`), the same shape all game long.
        Every card is shown face up, the bots' blind reserves included.
        ``None`` without a render mode.
        """
        if self.render_mode is None:
            return None
        names = ["learner" if s == self.seat else f"bot_{s}" for s in range(self.players)]
        return render(self.render_mode, self._table.state, self._table.prefix, names)

    def _outputs(self) -> tuple[Observation, dict[str, Any]]:
        """The observation and the info: each with its own copy of the action mask."""
        game = self._table
        # A game not over stops only at the learner's turn.
        mask = game.mask() if not self._over and game.current_player == self.seat else mask_of(())
        obs = {"observation": game.observe(self.seat), "action_mask": mask}
        return obs, {"action_mask": mask.copy()}
