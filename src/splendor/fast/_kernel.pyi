"""Types of the compiled kernel ``splendor.fast._kernel`` (use it through :mod:`splendor.fast`)."""

import random
from collections.abc import Sequence
from typing import Any, Final, Self

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from splendor.core.actions import Action
from splendor.core.rules import Rules
from splendor.core.state import GameState
from splendor.fast.network import PolicyNetwork, ValueNetwork
from splendor.fast.reference import Playouts
from splendor.fast.search_reference import SearchOutcome

STATE_SIZE: Final[int]
MOVE_SIZE: Final[int]
CODE_LAYOUT: Final[dict[str, int]]
DECISIONS_SIZE: Final[int]
GREEDY_WEIGHTS: Final[dict[str, float]]

@disjoint_base
class Game:
    # The methods in the groups and order of splendor.fast.Game's docstring
    # (and of splendor.fast.reference.Game).

    # The game.
    @classmethod
    def from_state(cls, state: GameState) -> Self: ...
    @classmethod
    def new(cls, players: int, *, seed: int | None = None, rules: Rules | None = None) -> Self: ...
    def state(self) -> GameState: ...
    def copy(self) -> Self: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: object) -> Self: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def current_player(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def points(self) -> tuple[int, ...]: ...

    # The rules (_rules.pxi).
    def action_count(self) -> int: ...
    def action(self, index: int) -> Action: ...
    def actions(self) -> tuple[Action, ...]: ...
    def play(self, index: int, /) -> None: ...
    def play_random(self, seed: int | None = None, max_turns: int | None = None) -> int: ...

    # The encoding (_codes.pxi).
    @property
    def pending_codes(self) -> tuple[int, ...]: ...
    def legal_codes(self) -> tuple[int, ...]: ...
    def play_code(self, code: int) -> bool: ...

    # The bots (_greedy.pxi).
    def greedy_choice(self, rng: random.Random) -> int: ...
    def _play_bots(
        self, greedy: Sequence[bool], rngs: Sequence[random.Random], max_turns: int
    ) -> tuple[int, ...]: ...

    # The RL rows (_observations.pxi).
    def observation_into(self, out: npt.NDArray[np.float32], seat: int) -> None: ...
    def mask_into(self, out: npt.NDArray[np.int8]) -> None: ...

@disjoint_base
class VectorCore:
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
    ) -> None: ...
    def reset(
        self,
        obs: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: npt.NDArray[np.int64],
    ) -> None: ...
    def first_illegal(self, codes: npt.NDArray[np.int64]) -> int: ...
    def step(
        self,
        codes: npt.NDArray[np.int64],
        obs: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float32],
        dones: npt.NDArray[np.uint8],
        truncated: npt.NDArray[np.uint8],
        seats: npt.NDArray[np.int64],
    ) -> int: ...
    def legal_codes(self, index: int) -> tuple[int, ...]: ...
    def game(self, index: int, cls: type[Any]) -> Any: ...

def _code_actions(game: Game, code: int) -> tuple[Action, ...]: ...
def _drawn_actions(game: Game) -> tuple[Action, ...]: ...
def random_playouts(
    start: GameState | Game, games: int, *, seed: int | None = None, max_turns: int | None = None
) -> Playouts: ...
def search(
    game: Game,
    seat: int,
    iterations: int,
    seconds: float | None,
    seed: int,
    exploration: float,
    widening: float,
    rollout_rounds: int,
    temperature: float,
    network: ValueNetwork | None = None,
    stop_early: bool = False,
    leaf_weight: float = 0.0,
    policy: PolicyNetwork | None = None,
    /,
) -> SearchOutcome: ...
def _search_parts(game: Game, /) -> tuple[list[float], list[float], int]: ...
def _policy_parts(game: Game, policy: PolicyNetwork, /) -> tuple[list[float], list[float]]: ...
def _dense_path() -> int: ...
def _dense(
    values: Sequence[float], weights: Sequence[float], biases: Sequence[float], path: int, /
) -> list[float]: ...
