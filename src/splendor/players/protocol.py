"""What a bot is: the :class:`Bot` protocol, and the check of a turn's arguments.

Every player module builds on this one: :mod:`splendor.players.bots` (the
built-in bots, the registry of bots by name and :func:`~splendor.play_game`)
and :mod:`splendor.players.ismcts` both import it, and it imports neither.
:class:`Bot` is documented with the built-in bots, in
:mod:`splendor.players.bots`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Protocol

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.messages import short_repr
from splendor.core.views import PlayerView
from splendor.errors import InvalidArgumentError

__all__ = ["ACTION_TYPES", "Bot", "check_turn"]

#: The types of the actions a bot may return.
ACTION_TYPES: Final = (Take, Reserve, ReserveFromDeck, Buy, Pass)


class Bot(Protocol):
    """What a bot is: a callable choosing one action for the seat to move.

    Any function with this signature is a bot, and so is any object whose
    ``__call__`` has it. A ``name`` attribute, if present, is shown by the
    command line and in :func:`~splendor.play_game`'s records.

    >>> from splendor import play_game
    >>> def first(view, actions, rng):
    ...     return actions[0]
    >>> record = play_game([first, first], seed=3, max_turns=4)
    >>> len(record.actions), record.result is None
    (4, True)
    """

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        """Choose an action.

        Args:
            view: the game as the seat to move sees it (``view.seat`` is that
                seat and ``view.own`` its full holdings).
            actions: the legal actions of that seat, never empty, in the
                order of :func:`splendor.legal_actions`.
            rng: the bot's own source of randomness; using only it keeps
                seeded games reproducible.

        Returns:
            One of ``actions`` (or another form of a legal action).
        """
        ...


def check_turn(view: object, actions: object, rng: object) -> None:
    """Refuse arguments a built-in bot cannot choose from.

    Raises:
        InvalidArgumentError: when ``view`` is not a view, ``actions`` is not
            a non-empty sequence of actions or ``rng`` is not a
            :class:`random.Random`.
    """
    if not isinstance(view, PlayerView):
        raise InvalidArgumentError(f"a bot needs a PlayerView, got {type(view).__name__}")
    if not isinstance(actions, Sequence) or isinstance(actions, str):
        raise InvalidArgumentError(
            f"a bot needs a sequence of actions, got {type(actions).__name__}"
        )
    if not actions:
        raise InvalidArgumentError("a bot needs at least one legal action to choose from")
    for action in actions:
        if type(action) not in ACTION_TYPES:
            raise InvalidArgumentError(
                f"a bot can only choose among actions, got {short_repr(action)}"
            )
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"a bot needs a random.Random, got {type(rng).__name__}")
