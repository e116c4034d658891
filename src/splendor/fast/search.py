"""The search of :class:`~splendor.players.search.SearchBot` at kernel speed: :func:`search`.

The search runs in C inside the compiled kernel, with no Python per
iteration; where the kernel is not compiled the same search runs in pure
Python (:func:`splendor.fast.search_reference.search`), move for move the
same, only slower. The algorithm is described there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splendor.core.state import GameState
from splendor.fast import game as _game
from splendor.fast import search_reference
from splendor.fast.network import PolicyNetwork, ValueNetwork
from splendor.fast.search_reference import SearchOutcome

__all__ = ["search"]

if TYPE_CHECKING:
    _kernel_search = None
else:
    _kernel_search = None
    if _game.COMPILED:
        from splendor.fast import _kernel

        _kernel_search = _kernel.search


def search(
    template: GameState,
    seat: int,
    *,
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
) -> SearchOutcome:
    """Search from ``template`` for ``seat``, in the kernel when it is compiled.

    The arguments, the result and what the caller checks are those of
    :func:`splendor.fast.search_reference.search`; both implementations
    find the same move and report the same figures.
    """
    if _kernel_search is not None:
        outcome: SearchOutcome = _kernel_search(
            _game.Game.from_state(template),
            seat,
            iterations,
            seconds,
            seed,
            exploration,
            widening,
            rollout_rounds,
            temperature,
            network,
            stop_early,
            leaf_weight,
            policy,
        )
        return outcome
    return search_reference.search(
        template,
        seat,
        iterations=iterations,
        seconds=seconds,
        seed=seed,
        exploration=exploration,
        widening=widening,
        rollout_rounds=rollout_rounds,
        temperature=temperature,
        network=network,
        stop_early=stop_early,
        leaf_weight=leaf_weight,
        policy=policy,
    )
