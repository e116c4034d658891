"""A PettingZoo AEC environment: every seat an agent, one decision per step.

Each step is one decision of the action encoding (:mod:`splendor.formats.encoding`):
a turn is the first decision (the move) and then the follow-ups the rules
leave open (tokens given back, gold used, the noble), all made by the same
agent, so ``agent_selection`` stays on a seat until its turn is complete.

The observation of each agent is a dict: ``"observation"``, the
:func:`~splendor.rl.observation` of its view, and ``"action_mask"``, an
``int8`` vector over the :data:`~splendor.formats.encoding.ACTION_COUNT` codes with a
1 at each code legal now (all zeros for an agent that is not to move). The
action space is ``Discrete(ACTION_COUNT)``.

Rewards come at the end only: +1 to each winner and -1 to each other player.
Players tied for the win share it: each gets +1. A game that reaches
``max_turns`` is truncated with no reward.

>>> from splendor.rl import aec_env
>>> env = aec_env(players=2)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
>>> sorted(env.final_rewards.values())
[-1, 1]
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from splendor.core.deal import new_game
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.state import GameState
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.extras import require
from splendor.formats import encoding
from splendor.rl._table import table
from splendor.rl._text import RENDER_MODES, render
from splendor.rl._turns import as_code, mask_of
from splendor.rl.observations import observation_high, observation_shape

require("pettingzoo", "rl", "splendor.rl.pettingzoo_env")

import gymnasium  # noqa: E402  (after the check of the extra)
from pettingzoo import AECEnv  # noqa: E402

__all__ = ["DEFAULT_MAX_TURNS", "SplendorAECEnv", "aec_env"]

#: The default ``max_turns`` of the environments: games that run longer
#: (rare; a game can go on for ever if nobody buys) are truncated.
DEFAULT_MAX_TURNS: Final = 1000

Observation = dict[str, npt.NDArray[Any]]


def _check_players(players: object) -> int:
    if type(players) is not int or not 2 <= players <= 4:
        raise InvalidArgumentError(f"Splendor is played by 2 to 4 players, got {players!r}")
    return players


def check_options(
    render_mode: object, rules: object, max_turns: object, modes: tuple[str, ...]
) -> Rules:
    """Check the options shared by the environments; the rules to play."""
    if render_mode is not None and render_mode not in modes:
        raise InvalidArgumentError(
            f"render_mode must be None or one of {modes}, got {render_mode!r}"
        )
    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a splendor.Rules, got {rules!r}")
    if type(max_turns) is not int or max_turns < 1:
        raise InvalidArgumentError(f"max_turns must be a positive int, got {max_turns!r}")
    return rules


def observation_space(players: int, rules: Rules) -> gymnasium.spaces.Dict:
    """The dict space of the environments' observations."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                low=0.0,
                high=observation_high(players, rules),
                shape=observation_shape(players, rules),
                dtype=np.float32,
            ),
            "action_mask": gymnasium.spaces.Box(
                low=0, high=1, shape=(encoding.ACTION_COUNT,), dtype=np.int8
            ),
        }
    )


class SplendorAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """Splendor as a PettingZoo :class:`~pettingzoo.AECEnv`; see :func:`aec_env`.

    Attributes:
        players: the number of seats.
        rules: the rules played.
        max_turns: the turn after which a game is truncated.
        render_mode: ``None``, ``"ansi"``, ``"svg"`` or ``"rgb_array"``.
        final_rewards: the rewards of the last game that ended, by agent
            (``{}`` before then).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (the attribute PettingZoo reads)
        "name": "splendor_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        render_mode: str | None = None,
        rules: Rules | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
    ) -> None:
        super().__init__()
        self.players = _check_players(players)
        self.rules = check_options(render_mode, rules, max_turns, RENDER_MODES)
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = observation_space(self.players, self.rules)
        action = gymnasium.spaces.Discrete(encoding.ACTION_COUNT)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._rng = random.Random()
        self._table = table(new_game(self.players, seed=0, rules=self.rules))
        self.final_rewards: dict[str, float] = {}
        self.agents: list[str] = []

    # -- the AEC API ---------------------------------------------------------------

    def _seat_of(self, agent: object) -> int:
        """The seat of the agent named ``agent``, or the library's error."""
        seat = self._seats.get(agent) if type(agent) is str else None
        if seat is None:
            raise InvalidArgumentError(
                f"unknown agent {short_repr(agent)}: the agents are {self.possible_agents}"
            )
        return seat

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        """The observation space of ``agent`` (the same for every agent).

        Raises:
            InvalidArgumentError: for a name that is not one of the agents.
        """
        self._seat_of(agent)
        space = self.observation_spaces[agent]
        assert isinstance(space, gymnasium.spaces.Dict)
        return space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """The action space of ``agent``: ``Discrete(ACTION_COUNT)``.

        Raises:
            InvalidArgumentError: for a name that is not one of the agents.
        """
        self._seat_of(agent)
        space = self.action_spaces[agent]
        assert isinstance(space, gymnasium.spaces.Discrete)
        return space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game.

        Args:
            seed: the seed of the deal, as for :func:`splendor.new_game`;
                later resets without a seed deal from a generator seeded with
                it. ``None`` the first time: a random game.
            options: not used.
        """
        if seed is not None:
            if type(seed) is not int:
                raise InvalidArgumentError(f"seed must be an int or None, got {seed!r}")
            self._rng = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._rng.getrandbits(63)
        self._table = table(new_game(self.players, seed=game_seed, rules=self.rules))
        self.final_rewards = {}
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._table.current_player]

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``: its view and its action mask.

        Raises:
            InvalidArgumentError: for a name that is not one of the agents.
        """
        seat = self._seat_of(agent)
        game = self._table
        to_move = seat == game.current_player and not game.winners
        return {
            "observation": game.observe(seat),
            "action_mask": game.mask() if to_move else mask_of(()),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Make one decision for ``agent_selection``.

        Raises:
            IllegalActionError: for a code that the action mask does not
                allow (nothing changes then), or before ``reset``.
            InvalidArgumentError: for something that is not an int code (or
                not ``None`` for an agent whose game has ended).
        """
        if not self.agents:
            raise IllegalActionError("no game in progress: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidArgumentError(
                    f"{agent}'s game has ended: its only action is None, got {action!r}"
                )
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to move: None is not a decision")
        game = self._table
        done = game.play(as_code(action))  # raises for an illegal code, changing nothing
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if done:
            self._after_turn()
        self._accumulate_rewards()

    def _after_turn(self) -> None:
        game = self._table
        if game.winners:
            winners = set(game.winners)
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = 1 if seat in winners else -1
            self.terminations = dict.fromkeys(self.agents, True)
            self.final_rewards = dict(self.rewards)
        elif game.turn >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
            self.final_rewards = dict.fromkeys(self.agents, 0)
        self.agent_selection = self.possible_agents[game.current_player]

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The table as text (``"ansi"``), an SVG picture (``"svg"``) or an RGB frame.

        ``"rgb_array"`` gives a ``(height, width, 3)`` ``uint8`` array
        (:func:`splendor.rl.rgb_array`), the same shape all game long.

        Every card is shown face up, blind reserves included: this is the
        referee's picture, not an agent's. ``None`` without a render mode.
        """
        if self.render_mode is None:
            return None
        return render(self.render_mode, self._table.state, self._table.prefix, self.possible_agents)

    def close(self) -> None:
        """Nothing to release."""

    # -- more than PettingZoo asks -------------------------------------------------

    @property
    def game(self) -> GameState:
        """The game state before the turn being played."""
        return self._table.state

    @property
    def prefix(self) -> tuple[int, ...]:
        """The codes chosen so far in the turn being played."""
        return self._table.prefix

    def legal_codes(self) -> tuple[int, ...]:
        """The codes legal for ``agent_selection`` now (empty once the game ended)."""
        return self._table.codes


def aec_env(
    players: int = 2,
    render_mode: str | None = None,
    rules: Rules | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> SplendorAECEnv:
    """A new PettingZoo AEC environment of Splendor (call ``reset`` first).

    Args:
        players: the number of seats (agents ``player_0`` ...), 2 to 4.
        render_mode: ``None``, ``"ansi"`` (text), ``"svg"`` (an SVG
            picture, as :func:`splendor.render_svg` draws it) or
            ``"rgb_array"`` (a ``uint8`` RGB frame, as
            :func:`splendor.rl.rgb_array` draws it, for videos).
        rules: the rules to play; the published rules by default.
        max_turns: whole turns after which an unfinished game is truncated.

    Raises:
        InvalidArgumentError: for a bad player count, render mode, rules or
            ``max_turns``.
    """
    return SplendorAECEnv(players, render_mode, rules, max_turns)
