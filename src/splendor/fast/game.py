"""Which implementation :mod:`splendor.fast` uses, for ``Game`` and ``random_playouts``.

The one place that decides, once, when it is first imported: the compiled
kernel (``splendor.fast._kernel``) when it is built and ``SPLENDOR_PURE`` is
not set, else the pure-Python twin (:mod:`splendor.fast.reference`).
:data:`~splendor.fast.COMPILED` says which, ``COMPILED_REASON`` why. The fallback is
silent only when it is asked for (``SPLENDOR_PURE=1``) or the kernel is not
built (the package was built without a C compiler); a kernel that is built
but refuses to load (its sizes do not hold the library's constants, or a
name it imports is missing) warns with
:class:`~splendor.errors.KernelRefusedWarning` and its reason, or, with
``SPLENDOR_EXPECT_COMPILED=1`` in the environment, raises its
:class:`ImportError` (as a kernel that is not built then does too). Use these
names through :mod:`splendor.fast`, which re-exports them;
:mod:`splendor.fast.vector` and :mod:`splendor.rl` read ``COMPILED``.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Final

from splendor.core.state import GameState
from splendor.errors import KernelRefusedWarning
from splendor.fast import reference
from splendor.fast.reference import Playouts

__all__ = ["COMPILED", "COMPILED_REASON", "STATE_SIZE", "Game", "random_playouts"]

#: The name of the compiled kernel's module.
_KERNEL: Final = "splendor.fast._kernel"


def _flag(name: str) -> bool:
    """Whether the environment variable ``name`` is set to something other than 0."""
    return os.environ.get(name, "") not in ("", "0")


def _expected(error: ImportError) -> ImportError:
    """``error``, noting that ``SPLENDOR_EXPECT_COMPILED`` forbids the fallback."""
    error.add_note(
        "SPLENDOR_EXPECT_COMPILED is set: splendor.fast does not fall back to pure Python"
    )
    return error


def _load_kernel() -> tuple[ModuleType | None, str]:
    """The compiled kernel to use (``None``: the pure twin) and the reason why.

    Raises:
        ImportError: the kernel's, when ``SPLENDOR_EXPECT_COMPILED`` is set and
            it cannot be used.
    """
    if _flag("SPLENDOR_PURE"):
        return None, "SPLENDOR_PURE is set: the pure-Python twin is in use"
    expected = _flag("SPLENDOR_EXPECT_COMPILED")
    refused: ImportError
    try:
        return importlib.import_module(_KERNEL), "the compiled kernel is in use"
    except ModuleNotFoundError as error:
        if error.name != _KERNEL:  # a module that the kernel imports is missing
            refused = error
        elif expected:
            raise _expected(error) from None
        else:
            return None, "the compiled kernel is not built: the pure-Python twin is in use"
    except ImportError as error:  # the kernel's layout check, or a name it imports
        refused = error
    except Exception as error:  # the kernel's start-up failed: the values it reads changed
        refused = ImportError(f"{type(error).__name__}: {error}")
        refused.__cause__ = error
    if expected:
        raise _expected(refused) from None
    reason = f"the compiled kernel refused to load ({refused}): the pure-Python twin is in use"
    warnings.warn(reason, KernelRefusedWarning, stacklevel=1)
    return None, reason


if TYPE_CHECKING:
    # Both implementations have the interface of the pure one.
    from splendor.fast.reference import Game as _Base
    from splendor.fast.reference import random_playouts as _random_playouts

    _COMPILED = False
    _STATE_SIZE = 0
    _REASON = ""
else:
    _compiled, _REASON = _load_kernel()
    if _compiled is None:
        _Base = reference.Game
        _random_playouts = reference.random_playouts
        _COMPILED = False
        _STATE_SIZE = 0
    else:
        _Base = _compiled.Game
        _random_playouts = _compiled.random_playouts
        _COMPILED = True
        _STATE_SIZE = _compiled.STATE_SIZE

#: Whether the compiled kernel is in use (``False``: the pure-Python fallback).
COMPILED: Final[bool] = _COMPILED
#: Why :data:`COMPILED` is what it is, in a sentence: the kernel is in use,
#: ``SPLENDOR_PURE`` is set, the kernel is not built, or it refused to load
#: (with its error).
COMPILED_REASON: Final[str] = _REASON
#: The size in bytes of the C structure holding one game (0 for the fallback).
STATE_SIZE: Final[int] = _STATE_SIZE


class Game(_Base):
    """A game in progress, played in place: at C speed when :data:`~splendor.fast.COMPILED`.

    Make one with :meth:`~splendor.fast.reference.Game.from_state` or
    :meth:`~splendor.fast.reference.Game.new`. :meth:`~splendor.fast.reference.Game.action_count`
    counts the legal actions, in the order of :func:`splendor.legal_actions`;
    :meth:`~splendor.fast.reference.Game.action` gives one as an action value and
    :meth:`~splendor.fast.reference.Game.play` plays it by its index, in place.
    :meth:`~splendor.fast.reference.Game.state` converts back to a
    :class:`~splendor.GameState`; :meth:`~splendor.fast.reference.Game.copy` is cheap
    (a copy of the C structure), for tree search. The methods are those of
    :class:`splendor.fast.reference.Game`, documented there, in the same
    groups and order as below (and in the kernel's ``_kernel.pyi``).

    **The game:**

    - ``Game.from_state(state)``: the game at a :class:`~splendor.GameState`;
      a state that fails :func:`splendor.check_state` is refused with its
      :class:`~splendor.InvalidStateError`. The state is read once (an
      instance of a subclass is copied into a plain GameState, which is
      checked and played).
    - ``Game.new(players, *, seed=None, rules=None)``: the game
      :func:`splendor.new_game` deals for the same arguments.
    - ``state()``: the current :class:`~splendor.GameState`.
    - ``copy()``: an independent copy (also ``copy.copy``; a game pickles as
      its state).
    - Properties: ``rules``, ``current_player``, ``turn``, ``is_over``,
      ``winners`` and ``points`` (per seat).

    **The rules** (:func:`splendor.legal_actions` and :func:`splendor.apply`):

    - ``action_count()``: the number of legal actions (0 once the game is over).
    - ``action(i)``: ``legal_actions(game.state())[i]``; ``actions()``: all.
    - ``play(i)``: play action ``i`` in place. An index that is not an int
      or is out of range raises :class:`~splendor.InvalidArgumentError`, and
      :class:`~splendor.IllegalActionError` once the game is over; the game
      is then unchanged. Negative indices count from the end, as in a tuple.
    - ``play_random(seed=None, max_turns=None)``: play uniformly random actions
      in place to the end (or ``max_turns`` turns), drawn as
      :func:`~splendor.fast.random_playouts` draws them; returns the turns played.

    **The encoding** (the decision codes of :mod:`splendor.formats.encoding`):

    - ``pending_codes``, ``legal_codes()`` and ``play_code(code)``: the turn
      as decisions, one code at a time.

    **The bots** (:mod:`splendor.fast.heuristics`):

    - ``greedy_choice(rng)``: the index of the action
      :class:`~splendor.GreedyBot` plays for the seat to move, its ties
      broken with the :class:`random.Random` ``rng`` exactly as the bot
      breaks them (the compiled kernel weighs the actions in C; see
      :func:`splendor.fast.play_bots`).

    **The RL rows** (:mod:`splendor.rl`'s observations and masks):

    - ``observation_into(out, seat)`` and ``mask_into(out)``: write the
      :func:`splendor.rl.observation` of a seat (with the pending codes when
      it is to move) and the mask of the legal codes into ``numpy`` vectors,
      for the environments (the compiled kernel writes them itself).

    The compiled kernel plays with at most 255 tokens of each colour; a state
    with more raises :class:`~splendor.InvalidArgumentError`.

    A game is used by one thread at a time. While a method that lists or
    plays runs, a call of another from another thread, a signal handler or
    a callback (any Python code the method calls) raises
    :class:`~splendor.errors.ConcurrentUseError` and changes nothing (from a
    bot's generator drawing for this game:
    :class:`~splendor.InvalidArgumentError`); ``state()``, ``copy()`` and the
    properties are always allowed. An object that ``Game.__new__`` alone
    made is no game: every method raises
    :class:`~splendor.InvalidArgumentError`.

    >>> game = Game.new(3, seed=5)
    >>> clone = game.copy()
    >>> clone.play_random(seed=1) > 0, clone.is_over, game.turn
    (True, True, 0)
    """

    __slots__ = ()


def random_playouts(
    start: GameState | Game, games: int, *, seed: int | None = None, max_turns: int | None = None
) -> Playouts:
    """Play ``games`` uniformly random games to their end from ``start``.

    Every turn draws one action uniformly among the legal ones with
    :class:`~splendor.fast.reference.SplitMix64` (one generator seeded with
    ``seed`` for all the games, one draw per turn), so the result depends only
    on ``start`` and ``seed``, and is the same with and without the compiled
    kernel. When compiled, the games are played entirely inside the kernel.

    Args:
        start: a :class:`~splendor.GameState` (checked with
            :func:`splendor.check_state`) or a :class:`Game` (left as it is).
        games: the number of games to play, 0 to 2**62.
        seed: the seed of the generator (any int, taken mod 2**64), or
            ``None`` (the default) for a fresh random one drawn from
            :mod:`secrets`, as :func:`splendor.new_game` does.
        max_turns: stop a game after this many turns (it then counts as
            unfinished); ``None`` plays every game to its end. Under house
            rules where no card can be bought, a game may never end: the
            kernel still answers Ctrl-C (any pending signal).

    Returns:
        The wins per seat, the turns played and the unfinished games.

    Raises:
        InvalidArgumentError: for a bad argument.
        InvalidStateError: for a state that fails :func:`splendor.check_state`.

    >>> from splendor import new_game
    >>> result = random_playouts(new_game(2, seed=3), 10, seed=7)
    >>> result.games, len(result.wins), result.unfinished
    (10, 2, 0)
    """
    return _random_playouts(start, games, seed=seed, max_turns=max_turns)
