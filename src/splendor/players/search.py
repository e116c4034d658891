"""The strongest built-in bot: information-set search inside the kernel, :class:`SearchBot`.

:class:`SearchBot` runs an information-set Monte Carlo tree search over whole
turns from its seat's view, like :class:`~splendor.players.ismcts.ISMCTSBot`,
but every iteration (dealing the unseen cards, walking the tree, the
rollout, the evaluation, the backup) runs in C inside the compiled kernel,
with no Python per iteration; where the kernel is not compiled the same
search runs in pure Python (:mod:`splendor.fast.search_reference`), move for
move the same, only slower. The algorithm is described there.

The search sees nothing but the view: the unseen cards are dealt again at
every iteration, so two games that show the seat the same view get the same
move from a seeded bot.

>>> import splendor
>>> from splendor.players.search import SearchBot
>>> record = splendor.play_game([SearchBot(iterations=2000, seed=1), splendor.GreedyBot()], seed=3)
>>> record.result
(0,)
"""

from __future__ import annotations

import functools
import math
import os
import random
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from splendor.core.actions import Action
from splendor.core.messages import short_repr
from splendor.core.views import PlayerView, determinize
from splendor.errors import InvalidArgumentError
from splendor.fast import search as fast_search
from splendor.fast.network import (
    PolicyNetwork,
    ValueNetwork,
    load_network,
    load_policy,
    shipped_networks,
    shipped_policies,
)
from splendor.fast.search_reference import MAX_ITERATIONS, MAX_ROLLOUT_ROUNDS, SearchOutcome
from splendor.players.ismcts import SearchResult, search_repr
from splendor.players.protocol import check_turn

__all__ = ["SearchBot", "SearchOutcome"]


@functools.cache
def _shipped(players: int) -> ValueNetwork:
    """The network shipped for ``players``, read once."""
    return load_network(players)


@functools.cache
def _shipped_policy(players: int) -> PolicyNetwork:
    """The policy shipped for ``players``, read once."""
    return load_policy(players)


#: The defaults of :class:`SearchBot`'s options.
_DEFAULTS: Final[dict[str, object]] = {
    "exploration": 0.15,
    "widening": 1.0,
    "rollout_rounds": 4,
    "temperature": 2.5,
    "network": False,
    "stop_early": False,
    "leaf_weight": 0.0,
    "policy": False,
}


_Weights = TypeVar("_Weights", ValueNetwork, PolicyNetwork)


def _chosen(
    option: bool | _Weights | str | os.PathLike[str],
    players: int,
    read: dict[int, _Weights],
    load: Callable[[int, str | os.PathLike[str]], _Weights],
    shipped: Callable[[int], _Weights],
    shipped_for: tuple[int, ...],
    noun: str,
) -> _Weights | None:
    """The network or policy an option of the bot names for ``players``:
    none for False, the shipped one (if any) for True, the one given, or
    the one in the file named (read once per player count, kept in ``read``)."""
    if option is False:
        return None
    if option is True:
        return shipped(players) if players in shipped_for else None
    if isinstance(option, str | os.PathLike):
        if players not in read:
            read[players] = load(players, option)
        return read[players]
    if option.players != players:
        raise InvalidArgumentError(
            f"the bot's {noun} is for {option.players}-player games, not this {players}-player one"
        )
    return option


def _positive(name: str, value: object) -> float:
    if type(value) not in (int, float) or not isinstance(value, int | float):
        raise InvalidArgumentError(f"{name} must be a positive number, got {short_repr(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond the floats
        number = math.inf
    if not 0 < number < math.inf:
        raise InvalidArgumentError(f"{name} must be a positive number, got {short_repr(value)}")
    return number


class SearchBot:
    """Information-set Monte Carlo tree search in the compiled kernel.

    Args:
        iterations: the budget per move in iterations, 1 to
            :data:`~splendor.fast.search_reference.MAX_ITERATIONS`. The
            default is 5,000 when ``seconds`` is not given either.
        seconds: a budget in seconds per move (wall clock) instead, or as
            well: the search stops at whichever comes first (the clock is
            read every 16 iterations). A budget in
            seconds depends on the machine, so moves are no longer
            reproducible.
        seed: the seed of the search. With a seed each move is searched
            from a seed made of it, the seat and the turn, whatever ``rng``
            the bot is called with; without one the bot draws its seed from
            the ``rng`` it is given (which :func:`splendor.play_game` seeds).
        exploration: the UCB1 constant (rewards lie between 0 and 1).
        widening: a node searches its ``max(2, ceil(widening *
            sqrt(visits + 1)))`` best moves by the prior.
        rollout_rounds: whole rounds each rollout plays past the end of the
            leaf's round before the position is evaluated, 0 to 1,000.
        temperature: the softmax temperature, in points, that turns the
            heuristic scores of an unfinished game into shares of a win.
        network: how an unfinished position is evaluated at the end of a
            rollout: ``False`` by the heuristic score; ``True`` by the value
            network shipped for the game's player count
            (:func:`~splendor.fast.network.load_network`), and by the
            heuristic score for a player count no network is shipped for
            (:func:`~splendor.fast.network.shipped_networks`); by the
            :class:`~splendor.fast.network.ValueNetwork` given, which must be
            for the game's player count; or by the network in the weights
            file at the path given (a ``str`` or path-like object), read
            with :func:`~splendor.fast.network.load_network` for the game's
            player count at the first search and kept (in a bot spec:
            ``search:network=my-2p.net``).
        stop_early: stop the search, at the same checks as the clock's, once
            no other root move could overtake the most visited one in the
            iterations left of ``iterations``: it plays the same move as
            without, sooner, but its analysis has fewer iterations behind it.
        leaf_weight: how much of an iteration's reward comes from the
            evaluation of its leaf (the position just after the move that
            added a node to the tree, when the game is not over there), 0 to
            1; the rest comes from the evaluation at the end of the rollout.
            0 (the default) evaluates only the rollout's end; a weight above
            0 costs one more evaluation per iteration.
        policy: how a node's moves are ranked for progressive widening:
            ``False`` by the prior; ``True`` by the policy network shipped for
            the game's player count
            (:func:`~splendor.fast.network.load_policy`), and by the prior for
            a player count no policy is shipped for
            (:func:`~splendor.fast.network.shipped_policies`); by the
            :class:`~splendor.fast.network.PolicyNetwork` given, which must
            be for the game's player count; or by the policy in the weights
            file at the path given, read at the first search of a player
            count and kept (in a bot spec: ``search:policy=my-2p.policy``).
            A policy costs one small network evaluation per node of the tree
            (about 6% more time per iteration with the shipped one).

    Raises:
        InvalidArgumentError: for a budget that is not a positive number
            (or an iteration budget over
            :data:`~splendor.fast.search_reference.MAX_ITERATIONS`), a seed
            that is not an int, or an option out of range (``leaf_weight``
            a number from 0 to 1).

    >>> SearchBot(iterations=1000, seed=2)
    SearchBot(iterations=1000, seed=2)
    >>> SearchBot(seconds=0)
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: seconds must be a positive number, got 0
    """

    #: The name the command line knows this bot by.
    name: Final = "search"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        *,
        exploration: float = 0.15,
        widening: float = 1.0,
        rollout_rounds: int = 4,
        temperature: float = 2.5,
        network: bool | ValueNetwork | str | os.PathLike[str] = False,
        stop_early: bool = False,
        leaf_weight: float = 0.0,
        policy: bool | PolicyNetwork | str | os.PathLike[str] = False,
    ) -> None:
        if iterations is not None and (
            type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS
        ):
            raise InvalidArgumentError(
                f"iterations must be an int from 1 to {MAX_ITERATIONS:,}, "
                f"got {short_repr(iterations)}"
            )
        if seconds is not None:
            seconds = _positive("seconds", seconds)
        if seed is not None and type(seed) is not int:
            raise InvalidArgumentError(f"seed must be an int or None, got {short_repr(seed)}")
        if type(rollout_rounds) is not int or not 0 <= rollout_rounds <= MAX_ROLLOUT_ROUNDS:
            raise InvalidArgumentError(
                f"rollout_rounds must be an int from 0 to {MAX_ROLLOUT_ROUNDS}, "
                f"got {short_repr(rollout_rounds)}"
            )
        if type(network) is not bool and not isinstance(network, ValueNetwork | str | os.PathLike):
            raise InvalidArgumentError(
                f"network must be True, False, a ValueNetwork or the path of a weights file, "
                f"got {short_repr(network)}"
            )
        if isinstance(network, str | os.PathLike) and (
            not isinstance(os.fspath(network), str) or not os.fspath(network)
        ):
            raise InvalidArgumentError(
                f"the network's path must be a non-empty str, got {short_repr(network)}"
            )
        if type(policy) is not bool and not isinstance(policy, PolicyNetwork | str | os.PathLike):
            raise InvalidArgumentError(
                f"policy must be True, False, a PolicyNetwork or the path of a weights file, "
                f"got {short_repr(policy)}"
            )
        if isinstance(policy, str | os.PathLike) and (
            not isinstance(os.fspath(policy), str) or not os.fspath(policy)
        ):
            raise InvalidArgumentError(
                f"the policy's path must be a non-empty str, got {short_repr(policy)}"
            )
        if type(stop_early) is not bool:
            raise InvalidArgumentError(
                f"stop_early must be True or False, got {short_repr(stop_early)}"
            )
        if type(leaf_weight) not in (int, float) or not 0 <= leaf_weight <= 1:
            raise InvalidArgumentError(
                f"leaf_weight must be a number from 0 to 1, got {short_repr(leaf_weight)}"
            )
        if iterations is None and seconds is None:
            iterations = 5000
        self.iterations: Final = iterations
        self.seconds: Final = seconds
        self.seed: Final = seed
        self.exploration: Final = _positive("exploration", exploration)
        self.widening: Final = _positive("widening", widening)
        self.rollout_rounds: Final = rollout_rounds
        self.temperature: Final = _positive("temperature", temperature)
        self.network: Final = network
        self.stop_early: Final = stop_early
        self.leaf_weight: Final = float(leaf_weight)
        self.policy: Final = policy
        #: The number of iterations the last search ran.
        self.last_iterations = 0
        # The networks read from the file ``network`` names, by player count.
        self._read: dict[int, ValueNetwork] = {}
        # The policies read from the file ``policy`` names, by player count.
        self._read_policy: dict[int, PolicyNetwork] = {}

    def __repr__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        if self.seconds is not None:
            parts.append(f"seconds={self.seconds}")
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        return search_repr(self, parts, _DEFAULTS)

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        """Search from ``view`` and return the move visited most.

        Args:
            view: the view of the seat to move.
            actions: its legal actions (the search lists them itself from
                the view; the action returned is always one of these).
            rng: the generator the seed is drawn from when the bot has none.

        Raises:
            InvalidArgumentError: for a spectator's view, a view of a seat
                not to move, of a finished game or that no game can reach,
                actions that are not the view's legal actions, or an ``rng``
                that is not a :class:`random.Random`.
            WeightsError: when ``network`` names a file that cannot be read
                as a network for the view's player count (at the first
                search of that player count).
        """
        check_turn(view, actions, rng)
        if len(actions) == 1:
            self._check(view)
            self.last_iterations = 0
            return actions[0]
        outcome = self.search(view, rng)
        found = outcome.pv[0]
        for action in actions:
            if action == found:
                return action
        raise InvalidArgumentError(
            f"the actions given are not the view's legal actions: {found} is missing"
        )

    def analyse(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> SearchResult:
        """Search from ``view`` as a move does, and say what the search found.

        With a ``seed`` the action is the move the bot plays from this view.
        ``actions`` are checked as for a move; the search considers all the
        view's legal moves.

        >>> import random, splendor
        >>> seen = splendor.view(splendor.new_game(2, seed=1), 0)
        >>> result = SearchBot(iterations=300, seed=1).analyse(
        ...     seen, splendor.legal_actions(seen), random.Random(0))
        >>> result.nodes, len(result.win), round(sum(result.win), 9)
        (300, 2, 1.0)
        >>> result.pv[0] == result.action
        True
        """
        check_turn(view, actions, rng)
        outcome = self.search(view, rng)
        return SearchResult(outcome.pv[0], outcome.win, outcome.pv, outcome.iterations)

    def _check(self, view: PlayerView) -> int:
        seat = view.seat
        if seat is None or view.own is None:
            raise InvalidArgumentError("SearchBot needs a seat's view, not a spectator's")
        if view.is_over:
            raise InvalidArgumentError("the game is over: there is no move to search")
        if view.current_player != seat:
            raise InvalidArgumentError(
                f"it is seat {view.current_player}'s turn, not seat {seat}'s: nothing to search"
            )
        return seat

    def _network(self, players: int) -> ValueNetwork | None:
        """The network the search evaluates with, for ``players``, or None."""
        return _chosen(
            self.network,
            players,
            self._read,
            load_network,
            _shipped,
            shipped_networks(),
            "network",
        )

    def _policy(self, players: int) -> PolicyNetwork | None:
        """The policy the search ranks moves with, for ``players``, or None."""
        return _chosen(
            self.policy,
            players,
            self._read_policy,
            load_policy,
            _shipped_policy,
            shipped_policies(),
            "policy",
        )

    def search(self, view: PlayerView, rng: random.Random) -> SearchOutcome:
        """Run the search from ``view`` and return what it found.

        The seed of the search is made of the bot's ``seed``, the seat and
        the turn when the bot has a seed, else drawn from ``rng``.

        Raises:
            InvalidArgumentError: as a move does.
            WeightsError: as a move does.
        """
        seat = self._check(view)
        if not isinstance(rng, random.Random):
            raise InvalidArgumentError(f"rng must be a random.Random, got {short_repr(rng)}")
        if self.seed is not None:
            seeder = random.Random(f"search:{self.seed}:{seat}:{view.turn}")
        else:
            seeder = random.Random(rng.getrandbits(64))
        # The template: any state with this view (the search deals its
        # unseen cards again at every iteration).
        template = determinize(view, seeder)
        seed = seeder.getrandbits(64)
        iterations = self.iterations if self.iterations is not None else MAX_ITERATIONS
        network = self._network(len(view.players))
        policy = self._policy(len(view.players))
        outcome = fast_search.search(
            template,
            seat,
            iterations=iterations,
            seconds=self.seconds,
            seed=seed,
            exploration=self.exploration,
            widening=self.widening,
            rollout_rounds=self.rollout_rounds,
            temperature=self.temperature,
            network=network,
            stop_early=self.stop_early,
            leaf_weight=self.leaf_weight,
            policy=policy,
        )
        self.last_iterations = outcome.iterations
        return outcome
