"""Games at C speed for playouts and search: :class:`Game` and :func:`random_playouts`.

:class:`Game` holds one game in a small flat C structure (the compiled kernel
``splendor.fast._kernel``, written in Cython) and plays it in place. It lists
exactly :func:`splendor.legal_actions` in the same order, and reaches exactly
the states :func:`splendor.apply` reaches; it converts from and to
:class:`~splendor.GameState` at the edges, so everything else in the library
keeps working on states. :func:`random_playouts` plays whole random games
inside the kernel, and :func:`play_bots` plays the games
:func:`splendor.play_game` plays between the built-in
:class:`~splendor.RandomBot` and :class:`~splendor.GreedyBot`, move for
move, inside it too.

When the kernel is not compiled (the package was built without a C
compiler, or with ``SPLENDOR_PURE=1`` in the build's environment), or when
``SPLENDOR_PURE=1`` is set in the environment when the kernel is first
loaded (:mod:`splendor.fast.game` decides, once), the same interface runs
in pure Python on the attrs engine (:mod:`splendor.fast.reference`), with
the same results, only slower.
:data:`COMPILED` says which one is in use. The names are loaded on first
use, so that the modules of this package that need no kernel
(:mod:`splendor.fast.heuristics`, :mod:`splendor.fast.dealing`) import
without it.

>>> from splendor.fast import Game
>>> game = Game.new(2, seed=1)
>>> game.action_count(), str(game.action(0))
(30, 'take 1W 1B 1G')
>>> game.play(0)
>>> game.current_player, game.state().players[0].tokens
(1, Tokens(white=1, blue=1, green=1))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splendor.core.lazy import lazy_names

if TYPE_CHECKING:
    from splendor.fast.bot_games import SEAT_KINDS as SEAT_KINDS
    from splendor.fast.bot_games import play_bots as play_bots
    from splendor.fast.game import COMPILED as COMPILED
    from splendor.fast.game import COMPILED_REASON as COMPILED_REASON
    from splendor.fast.game import STATE_SIZE as STATE_SIZE
    from splendor.fast.game import Game as Game
    from splendor.fast.game import random_playouts as random_playouts
    from splendor.fast.reference import Playouts as Playouts
    from splendor.fast.vector import VectorEnv as VectorEnv
    from splendor.fast.vector import VectorStep as VectorStep
    from splendor.fast.vector import random_codes as random_codes

__all__ = [
    "COMPILED",
    "COMPILED_REASON",
    "SEAT_KINDS",
    "STATE_SIZE",
    "Game",
    "Playouts",
    "VectorEnv",
    "VectorStep",
    "play_bots",
    "random_codes",
    "random_playouts",
]

# No name here is that of a submodule (game, reference, vector,
# observations): ``from splendor.fast import game`` finds the submodule.
# VectorEnv, VectorStep and random_codes need numpy (the [rl] extra).
__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "splendor.fast.game": (
            "COMPILED",
            "COMPILED_REASON",
            "STATE_SIZE",
            "Game",
            "random_playouts",
        ),
        "splendor.fast.reference": ("Playouts",),
        "splendor.fast.bot_games": ("SEAT_KINDS", "play_bots"),
        "splendor.fast.vector": ("VectorEnv", "VectorStep", "random_codes"),
    },
)
