"""Observations: what one seat sees, as a flat ``numpy`` array of fixed shape.

:func:`~splendor.rl.observation` turns a seat's :class:`~splendor.core.views.PlayerView` (and
the decisions already made in the current turn) into a ``float32`` vector.
It reads only the view, so it cannot leak what the seat does not see: two
states that give a seat equal views give it equal observations. The layout
(:func:`~splendor.rl.observation_layout`) depends only on the player count and the rules:

>>> import splendor
>>> from splendor.rl import observation, observation_shape
>>> state = splendor.new_game(3, seed=1)
>>> obs = observation(splendor.view(state, 1))
>>> obs.shape == observation_shape(3), obs.dtype.name
(True, 'float32')

The players come in turn order starting with the observing seat, so the
first player block is always "me" and the next one the player after me.
Every entry is a count, a 0/1 flag or a one-hot entry, never negative.

The rows are defined once, below the kernel that writes them too: their
layout in :mod:`splendor.fast.layout`, their writer in
:mod:`splendor.fast.observations`; this module offers them to the environments.
"""

from __future__ import annotations

from splendor.fast.observations import (
    CARD_FEATURES,
    NOBLE_FEATURES,
    ObservationField,
    observation,
    observation_high,
    observation_layout,
    observation_shape,
    observe_state,
)

__all__ = [
    "CARD_FEATURES",
    "NOBLE_FEATURES",
    "ObservationField",
    "observation",
    "observation_high",
    "observation_layout",
    "observation_shape",
    "observe_state",
]
