"""Reinforcement learning and search: observations and environments.

Needs the ``[rl]`` extra (``pip install "splendor-rules[rl]"``: numpy,
PettingZoo and Gymnasium); OpenSpiel comes with the ``[openspiel]`` extra.

- :func:`observation`: a seat's view as a fixed-shape ``numpy`` vector
  (layout: :func:`observation_layout`);
- :func:`rgb_array`: a picture of a game as an RGB array, the environments'
  ``"rgb_array"`` render mode;
- :func:`aec_env`: a PettingZoo AEC environment, every seat an agent;
- ``gymnasium.make("splendor/Splendor-v0", opponents=[...])``: one seat
  against bots of :mod:`splendor.players.bots` (:class:`~splendor.rl.gymnasium_env.SplendorEnv`),
  registered when this package is imported; the id
  ``"splendor.rl:splendor/Splendor-v0"`` has Gymnasium import it first;
- ``import splendor.rl.openspiel``: registers the OpenSpiel game
  ``python_splendor`` (:mod:`splendor.rl.openspiel`).

Each environment steps one decision of :mod:`splendor.formats.encoding` at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from splendor.extras import require

require("numpy", "rl", "splendor.rl")

from splendor.rl import observations as _observations  # noqa: E402  (after the check)
from splendor.rl._raster import rgb_array  # noqa: E402
from splendor.rl.observations import (  # noqa: E402
    ObservationField,
    observation,
    observation_high,
    observation_layout,
    observation_shape,
)

if TYPE_CHECKING:
    from splendor.rl.gymnasium_env import SplendorEnv
    from splendor.rl.pettingzoo_env import SplendorAECEnv, aec_env

__all__ = [
    "CARD_FEATURES",
    "GYMNASIUM_ID",
    "NOBLE_FEATURES",
    "ObservationField",
    "SplendorAECEnv",
    "SplendorEnv",
    "aec_env",
    "observation",
    "observation_high",
    "observation_layout",
    "observation_shape",
    "rgb_array",
]

#: The id of the Gymnasium environment: ``gymnasium.make(GYMNASIUM_ID)``
#: once this package is imported (``"splendor.rl:" + GYMNASIUM_ID`` imports it).
GYMNASIUM_ID: Final = "splendor/Splendor-v0"

#: The 16 features of a card slot in an observation, in order: ``visible``
#: (a card whose face the observer sees), ``hidden`` (another player's blind
#: reserve: only its tier is known), ``tier1`` to ``tier3`` (one-hot),
#: ``bonus_white`` to ``bonus_black`` (one-hot), ``points``, ``cost_white``
#: to ``cost_black``. An empty slot is all zeros.
CARD_FEATURES: Final = _observations.CARD_FEATURES

#: The 7 features of a noble slot: ``present``, ``points``, ``need_white``
#: to ``need_black``. An empty slot is all zeros.
NOBLE_FEATURES: Final = _observations.NOBLE_FEATURES


def __getattr__(name: str) -> object:
    # The environments load their framework on first use.
    if name in ("aec_env", "SplendorAECEnv"):
        from splendor.rl import pettingzoo_env

        return getattr(pettingzoo_env, name)
    if name == "SplendorEnv":
        from splendor.rl import gymnasium_env

        return gymnasium_env.SplendorEnv
    raise AttributeError(f"module 'splendor.rl' has no attribute {name!r}")


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # without Gymnasium there is nothing to register with
        return
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYMNASIUM_ID,
            entry_point="splendor.rl.gymnasium_env:SplendorEnv",
            disable_env_checker=False,
        )


_register()


def __dir__() -> list[str]:
    # The lazily loaded names too, for dir() and documentation tools.
    return sorted({*globals(), *__all__})
