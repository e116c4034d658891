"""The pure-Python implementation of :mod:`splendor.fast`, on the attrs engine.

:mod:`splendor.fast` uses it when the compiled kernel is not installed (no C
compiler when the package was built, or ``SPLENDOR_PURE=1`` at build time) or
when ``SPLENDOR_PURE=1`` is set when :mod:`splendor.fast` is first imported.
It has the same interface and gives the same results as the kernel: the same
actions in the same order, the same states, and the same random playouts for
the same seed (both draw from :class:`SplitMix64` the same way). It can also
be imported directly, to compare the two.

>>> game = Game.new(2, seed=1)
>>> game.action_count(), str(game.action(0))
(30, 'take 1W 1B 1G')
"""

from __future__ import annotations

import functools
import operator
import random
import secrets
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, Final, ParamSpec, Self, SupportsIndex, TypeVar

import attrs

from splendor.core.actions import Action
from splendor.core.components import CARDS, NOBLES, Card
from splendor.core.deal import new_game
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.rules import Rules
from splendor.core.state import GameState, PlayerState
from splendor.core.validation import check_state
from splendor.errors import (
    ConcurrentUseError,
    IllegalActionError,
    InvalidArgumentError,
    SplendorError,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Game", "Playouts", "SplitMix64", "deal_with", "fresh_seed", "random_playouts"]

_T = TypeVar("_T")
_R = TypeVar("_R")
_P = ParamSpec("_P")
_MASK: Final = (1 << 64) - 1
# The most turns a loop plays, and the most games random_playouts plays in
# one call: the kernel counts both in 64 bits.
_MOST_TURNS: Final = 1 << 62
_MOST_GAMES: Final = 1 << 62

# The errors of a Game used wrongly, the same in both implementations.
_BUSY: Final = (
    "this Game is running one of its methods already (it was called again from another "
    "thread, a signal handler or a callback): use a Game from one thread at a time, "
    "and give each thread its own copy()"
)
_VECTOR_BUSY: Final = (
    "this VectorEnv is running one of its methods already (it was called again from "
    "another thread, a signal handler or a callback): use a VectorEnv from one thread "
    "at a time"
)
_DRAWING: Final = (
    "a bot's generator must not play on the game it draws for "
    "(the game's methods are refused while the bot draws)"
)
_UNMADE: Final = (
    "this Game was never made (Game.__new__ alone makes none): make a Game with "
    "Game.from_state(state) or Game.new(players, seed=...)"
)


def _as_int(value: SupportsIndex) -> int:
    """``operator.index(value)`` as a plain ``int``.

    An ``int`` subclass (or what an ``__index__`` returns) may compare as it
    likes; its plain value is what is checked and used.
    """
    return int.__index__(operator.index(value))


def _plain_state(state: object) -> GameState:
    """``state`` as a plain :class:`~splendor.GameState`, each field read once.

    A subclass of GameState may compute its fields (a property can answer
    differently at every read): a game is made from a plain copy of what
    they answer once, so the state checked is the state played.

    Raises:
        InvalidArgumentError: when ``state`` is not a GameState.
    """
    if type(state) is GameState:
        return state
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"expected a GameState, got {type(state).__name__}")
    return GameState(**{field.name: getattr(state, field.name) for field in _STATE_FIELDS})


_STATE_FIELDS: Final = attrs.fields(GameState)


class SplitMix64:
    """The seeded generator of random playouts: SplitMix64.

    SplitMix64 (Steele, Lea and Flood, 2014) keeps one 64-bit word ``x``; each
    output adds ``0x9E3779B97F4A7C15`` to it (mod 2**64) and mixes the result.
    The seed is taken mod 2**64. :meth:`below` draws a uniform integer in
    ``[0, n)``: it rejects outputs below ``2**64 mod n`` and answers the
    output mod ``n``. The compiled kernel draws the same numbers, so a
    playout with the same seed plays the same game on both.

    >>> rng = SplitMix64(0)
    >>> hex(rng.next())
    '0xe220a8397b1dcdaf'
    >>> [rng.below(10) for _ in range(5)]
    [0, 9, 4, 7, 0]
    """

    __slots__ = ("_x",)

    def __init__(self, seed: int) -> None:
        self._x = _seed(seed)

    def next(self) -> int:
        """The next 64-bit output."""
        x = self._x = (self._x + 0x9E3779B97F4A7C15) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        return x ^ (x >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, for ``n >= 1``."""
        threshold = ((1 << 64) - n) % n
        r = self.next()
        while r < threshold:
            r = self.next()
        return r % n


def fresh_seed() -> int:
    """A new random seed for a playout given none: 64 bits from :mod:`secrets`."""
    return secrets.randbits(64)


def _seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidArgumentError(f"seed must be an int, got {seed!r}")
    return int.__index__(seed) & _MASK


def _most_turns(max_turns: object) -> int:
    if max_turns is None:
        return _MOST_TURNS
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or _as_int(max_turns) < 0:
        raise InvalidArgumentError(
            f"max_turns must be a non-negative int or None, got {max_turns!r}"
        )
    return min(_as_int(max_turns), _MOST_TURNS)


def _games(games: object) -> int:
    """The number of games asked of random_playouts: an int from 0 to 2**62."""
    if isinstance(games, bool) or not isinstance(games, int) or _as_int(games) < 0:
        raise InvalidArgumentError(f"games must be a non-negative int, got {games!r}")
    if _as_int(games) > _MOST_GAMES:
        raise InvalidArgumentError(f"games must be at most 2**62, got {games!r}")
    return _as_int(games)


def _shuffle(items: list[_T], rng: SplitMix64) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def deal_with(players: int, rng: SplitMix64, rules: Rules | None = None) -> GameState:
    """Deal a new game with a :class:`SplitMix64` generator: the deals of ``VectorEnv``.

    Each tier's cards, in the order of :data:`splendor.core.components.CARDS`, are
    shuffled by Fisher-Yates from the last place down (place ``i`` swapped
    with place ``rng.below(i + 1)``); the first 4 are laid face up and the
    rest is the deck, top card first. Then the nobles, in the order of
    :data:`~splendor.core.components.NOBLES`, are shuffled the same way and the
    first ``rules.nobles(players)`` revealed. The compiled kernel deals
    exactly the same game from the same generator state. (:func:`splendor.new_game`
    shuffles with :class:`random.Random` instead, so its deals differ.)

    >>> state = deal_with(2, SplitMix64(1))
    >>> [len(deck) for deck in state.decks], len(state.nobles)
    ([36, 26, 16], 3)
    """
    table = new_game(players, seed=0, rules=rules)  # checks the arguments
    board: list[tuple[Card | None, ...]] = []
    decks: list[tuple[Card, ...]] = []
    for tier in (1, 2, 3):
        cards = [card for card in CARDS if card.tier == tier]
        _shuffle(cards, rng)
        slots: list[Card | None] = list(cards[:4])
        slots += [None] * (4 - len(slots))
        board.append(tuple(slots))
        decks.append(tuple(cards[4:]))
    nobles = list(NOBLES)
    _shuffle(nobles, rng)
    return GameState(
        rules=table.rules,
        players=(PlayerState(),) * players,
        bank=table.bank,
        board=tuple(board),
        decks=tuple(decks),
        nobles=tuple(nobles[: table.rules.nobles(players)]),
    )


@attrs.frozen
class Playouts:
    """What :func:`random_playouts` found.

    Attributes:
        games: the number of games played.
        wins: per seat, the number of games that seat won; a shared win
            counts for every seat that shares it, so the wins may add up to
            more than ``games``.
        turns: the turns played in all the games together.
        unfinished: the games stopped by ``max_turns`` before their end
            (they count in ``turns`` but nobody wins them).
    """

    games: int
    wins: tuple[int, ...]
    turns: int
    unfinished: int = 0

    def win_rates(self) -> tuple[float, ...]:
        """Per seat, the share of the games it won (0.0 when no game was played).

        >>> Playouts(games=4, wins=(3, 1), turns=300).win_rates()
        (0.75, 0.25)
        """
        if not self.games:
            return tuple(0.0 for _ in self.wins)
        return tuple(won / self.games for won in self.wins)


def _exclusive(method: Callable[Concatenate[Game, _P], _R]) -> Callable[Concatenate[Game, _P], _R]:
    """``method``, refused while another method of the same game runs (see :data:`_BUSY`)."""

    @functools.wraps(method)
    def run(self: Game, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        lock = self._lock
        if not lock.acquire(blocking=False):
            raise self._refusal()
        try:
            return method(self, *args, **kwargs)
        finally:
            lock.release()

    return run


class Game:
    """A game in progress that moves in place, on the attrs engine.

    See :class:`splendor.fast.Game` for the interface; this class plays it with
    :func:`~splendor.legal_actions` and :func:`~splendor.apply`. Its methods
    come in the groups and order of that class: the game, the rules, the
    encoding, the bots, the RL rows.

    A game is used by one thread at a time, as the compiled one is: a method
    called while another method of the same game runs (from another thread,
    a signal handler or a callback) raises
    :class:`~splendor.errors.ConcurrentUseError` and changes nothing.
    """

    __slots__ = ("_actions", "_codes", "_drawer", "_lock", "_state")

    _state: GameState
    _actions: tuple[Action, ...] | None
    _codes: tuple[int, ...]
    _lock: threading.Lock  # held while a method that lists or plays runs
    _drawer: int  # the thread whose bot is drawing on this game, else 0

    def __init__(self) -> None:
        raise InvalidArgumentError(
            "make a Game with Game.from_state(state) or Game.new(players, seed=...)"
        )

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> object:
            # Only an attribute that is not set comes here: a slot of a game
            # that Game.__new__ alone made, which no method can use.
            if name in Game.__slots__:
                raise InvalidArgumentError(_UNMADE)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def _of(cls, state: GameState) -> Self:
        game = object.__new__(cls)
        game._state = state
        game._actions = None
        game._codes = ()
        game._lock = threading.Lock()
        game._drawer = 0
        return game

    def _refusal(self) -> SplendorError:
        """The error of a call made while another method of this game runs."""
        if self._drawer == threading.get_ident():
            return InvalidArgumentError(_DRAWING)
        return ConcurrentUseError(_BUSY)

    @classmethod
    def from_state(cls, state: GameState) -> Self:
        """The game at ``state``.

        A subclass of :class:`~splendor.GameState` is read once, into a plain
        GameState, and that is checked and played.

        Raises:
            InvalidStateError: when ``state`` fails :func:`splendor.check_state`.
            InvalidArgumentError: when ``state`` is not a :class:`~splendor.GameState`.
        """
        plain = _plain_state(state)
        check_state(plain)
        return cls._of(plain)

    @classmethod
    def new(cls, players: int, *, seed: int | None = None, rules: Rules | None = None) -> Self:
        """A new game, dealt as :func:`splendor.new_game` deals it for the same arguments.

        As there, ``seed=None`` (the default) deals from a fresh random seed.
        """
        return cls._of(new_game(players, seed=seed, rules=rules))

    def state(self) -> GameState:
        """The game's current state as a :class:`~splendor.GameState`."""
        return self._state

    def copy(self) -> Self:
        """An independent copy: playing on one leaves the other as it is."""
        other = type(self)._of(self._state)
        other._actions = self._actions
        other._codes = self._codes
        return other

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Self:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return _restore, (type(self), self._state)

    @property
    def rules(self) -> Rules:
        """The :class:`~splendor.Rules` the game is played under."""
        return self._state.rules

    @property
    def current_player(self) -> int:
        """The seat to move (0 once the game is over)."""
        return self._state.current_player

    @property
    def turn(self) -> int:
        """The number of turns played so far."""
        return self._state.turn

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return bool(self._state.winners)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over, else ``()``."""
        return self._state.winners

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's prestige points."""
        return tuple(player.points for player in self._state.players)

    # -- The rules: splendor.core.legal and splendor.core.play -------------------------

    def _listing(self) -> tuple[Action, ...]:
        actions = self._actions
        if actions is None:
            actions = self._actions = legal_actions(self._state)
        return actions

    def _index(self, index: object) -> int:
        if isinstance(index, bool) or not isinstance(index, SupportsIndex):
            raise InvalidArgumentError(
                f"an action index must be an int, got {type(index).__name__}"
            )
        try:
            i = _as_int(index)
        except TypeError as error:  # an __index__ that returns no int
            raise InvalidArgumentError(f"an action index must be an int: {error}") from error
        n = len(self._listing())
        if n == 0:
            raise IllegalActionError("the game is over")
        if not -n <= i < n:
            raise InvalidArgumentError(
                f"action index {i} is out of range: there are {n} legal actions"
            )
        return i + n if i < 0 else i

    @_exclusive
    def action_count(self) -> int:
        """The number of legal actions (0 once the game is over)."""
        return len(self._listing())

    @_exclusive
    def action(self, index: int) -> Action:
        """The action at ``index`` in ``legal_actions(self.state())``.

        Raises:
            InvalidArgumentError: for an index that is not an int or out of range.
            IllegalActionError: when the game is over.
        """
        return self._listing()[self._index(index)]

    @_exclusive
    def actions(self) -> tuple[Action, ...]:
        """Every legal action, as :func:`splendor.legal_actions` lists them."""
        return self._listing()

    @_exclusive
    def play(self, index: int, /) -> None:
        """Play the action at ``index`` in place (see :meth:`action`).

        Raises:
            InvalidArgumentError: for an index that is not an int or out of range.
            IllegalActionError: when the game is over.
        """
        action = self._listing()[self._index(index)]
        self._state = apply(self._state, action)
        self._actions = None
        self._codes = ()

    @_exclusive
    def play_random(self, seed: int | None = None, max_turns: int | None = None) -> int:
        """Play uniformly random actions to the end (or ``max_turns`` turns) in place.

        The actions are drawn with :class:`SplitMix64` from ``seed`` (``None``:
        from :func:`fresh_seed`), as :func:`random_playouts` draws them;
        returns the number of turns played.
        """
        rng = SplitMix64(fresh_seed() if seed is None else seed)
        most = _most_turns(max_turns)
        turns = 0
        state = self._state
        while not state.winners and turns < most:
            actions = legal_actions(state)
            state = apply(state, actions[rng.below(len(actions))])
            turns += 1
        self._state = state
        self._actions = None
        self._codes = ()
        return turns

    # -- The encoding: the decision codes of splendor.formats.encoding -----------------

    @property
    def pending_codes(self) -> tuple[int, ...]:
        """The decision codes taken so far this turn (see :meth:`play_code`)."""
        return self._codes

    @_exclusive
    def legal_codes(self) -> tuple[int, ...]:
        """The legal codes of the next decision of this turn, sorted.

        The codes are those of :mod:`splendor.formats.encoding`: the same as
        ``splendor.formats.encoding.legal_codes(game.state(), game.pending_codes)``.
        ``()`` once the game is over.

        Raises:
            EncodingError: when the encoding cannot tell the player's
                reserved cards apart (more than it has codes for).
        """
        return self._legal_codes()

    def _legal_codes(self) -> tuple[int, ...]:
        from splendor.formats import encoding

        return encoding.legal_codes(self._state, self._codes)

    @_exclusive
    def play_code(self, code: int) -> bool:
        """Take one decision of this turn, by its code; play the turn once it is whole.

        Returns:
            ``True`` when the code completed the turn (the action was played
            and the next turn begins), ``False`` when more decisions follow.

        Raises:
            EncodingError: for a code that is not legal here (nothing changes).
        """
        from splendor.formats import encoding

        codes = (*self._codes, code)
        if not encoding.is_complete(self._state, codes):
            # Checked by is_complete: ints, or integers such as numpy's.
            self._codes = tuple(_as_int(c) for c in codes)
            return False
        self._state = apply(self._state, encoding.decode(self._state, codes))
        self._actions = None
        self._codes = ()
        return True

    # -- The bots: splendor.fast.heuristics --------------------------------------------

    @_exclusive
    def greedy_choice(self, rng: random.Random) -> int:
        """The index of the action :class:`~splendor.GreedyBot` plays here.

        The bot chooses for the seat to move, from that seat's view, and
        breaks its ties with ``rng``, exactly as
        ``GreedyBot()(view(state, seat), legal_actions(state), rng)`` does
        (the same draws on ``rng``). The game is not changed.

        The compiled kernel makes the bot's draws itself and checks them: a
        ``randrange`` that returns no int in the range asked for, a
        ``choice`` that returns none of the candidates (from a subclass of
        :class:`random.Random` that misbehaves), or a generator that plays on
        this game while it draws, is refused with
        :class:`~splendor.errors.InvalidArgumentError`. This pure version
        hands ``rng`` to the bot, which fails as it does. An exception
        raised by the generator itself comes through unchanged in both.

        Raises:
            InvalidArgumentError: when ``rng`` is not a :class:`random.Random`
                (or, compiled, misbehaves as above).
            IllegalActionError: when the game is over.
        """
        if not isinstance(rng, random.Random):
            raise InvalidArgumentError(f"a bot needs a random.Random, got {type(rng).__name__}")
        actions = self._listing()
        if not actions:
            raise IllegalActionError("the game is over")
        self._drawer = threading.get_ident()
        try:
            return _choose(self._state, actions, True, rng)
        finally:
            self._drawer = 0

    @_exclusive
    def _play_bots(
        self, greedy: Sequence[bool], rngs: Sequence[random.Random], max_turns: int
    ) -> tuple[int, ...]:
        """Play in place, each seat a GreedyBot (``greedy[seat]``) or a RandomBot
        drawing from ``rngs[seat]``, until the end or ``max_turns`` turns;
        the index played each turn (see :func:`splendor.fast.play_bots`)."""
        state = self._state
        players = len(state.players)
        greedy, rngs = tuple(greedy), tuple(rngs)
        if len(greedy) != players or len(rngs) != players:
            raise InvalidArgumentError(
                f"give a bot and a generator for each of the {players} seats"
            )
        for rng in rngs:
            if not isinstance(rng, random.Random):
                raise InvalidArgumentError(f"a bot needs a random.Random, got {type(rng).__name__}")
        most = _most_turns(max_turns)
        played: list[int] = []
        self._drawer = threading.get_ident()
        try:
            while not state.winners and len(played) < most:
                actions = legal_actions(state)
                seat = state.current_player
                index = _choose(state, actions, bool(greedy[seat]), rngs[seat])
                state = apply(state, actions[index])
                played.append(index)
        finally:
            self._drawer = 0
        self._state = state
        self._actions = None
        self._codes = ()
        return tuple(played)

    # -- The RL rows: splendor.fast.observations ---------------------------------------

    @_exclusive
    def observation_into(self, out: npt.NDArray[np.float32], seat: int) -> None:
        """Write the observation of ``seat`` to ``out``, a ``float32`` vector.

        It is ``splendor.rl.observation(view(game.state(), seat), prefix)``,
        with the :attr:`pending_codes` as ``prefix`` when ``seat`` is to move
        (and ``()`` otherwise). Needs the ``[rl]`` extra (``numpy``).

        Raises:
            InvalidArgumentError: for a seat that is not one of the game's, or
                an ``out`` that is not a writable, contiguous ``float32``
                vector of ``splendor.rl.observation_shape(players, rules)``.
        """
        from splendor.fast.observations import observe_state

        state = self._state
        players = len(state.players)
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidArgumentError(
                f"seat must be a seat of this game (0 to {players - 1}), got {seat!r}"
            )
        to_move = seat == state.current_player and not state.winners
        row = observe_state(state, seat, self._codes if to_move else ())
        _writable(out, "float32", row.shape[0])[:] = row

    @_exclusive
    def mask_into(self, out: npt.NDArray[np.int8]) -> None:
        """Write the action mask of :meth:`legal_codes` (1 for each) to ``out``.

        ``out`` is a writable, contiguous ``int8`` vector of
        :data:`splendor.formats.encoding.ACTION_COUNT` entries (else
        :class:`~splendor.InvalidArgumentError`). Needs ``numpy``.
        """
        from splendor.formats.encoding import ACTION_COUNT

        row = _writable(out, "int8", ACTION_COUNT)
        legal = self._legal_codes()
        row[:] = 0
        row[list(legal)] = 1

    def __repr__(self) -> str:
        try:
            state = self._state
        except InvalidArgumentError:
            return "Game(never made)"
        return (
            f"Game(players={len(state.players)}, turn={state.turn}, "
            f"current_player={state.current_player}, points={list(self.points)}, "
            f"winners={state.winners})"
        )


def _writable(out: object, dtype: str, size: int) -> npt.NDArray[Any]:
    """``out`` if it is a writable, contiguous vector of ``size`` entries of ``dtype``."""
    import numpy as np

    what = f"out must be a writable, contiguous {dtype} vector"
    if not isinstance(out, np.ndarray):
        raise InvalidArgumentError(f"{what}, got {type(out).__name__}")
    if out.dtype != np.dtype(dtype) or out.ndim != 1 or not out.flags.c_contiguous:
        raise InvalidArgumentError(f"{what}, got {out.dtype} of shape {out.shape}")
    if not out.flags.writeable:
        raise InvalidArgumentError(f"{what}, got a read-only array")
    if out.shape[0] != size:
        raise InvalidArgumentError(f"out must have {size} entries, got {out.shape[0]}")
    return out


def _choose(state: GameState, actions: Sequence[Action], greedy: bool, rng: random.Random) -> int:
    """The index in ``actions`` of the action the built-in bot plays at ``state``."""
    from splendor.core.views import view
    from splendor.fast.heuristics import greedy_action

    if not greedy:
        return rng.randrange(len(actions))  # RandomBot's draw
    # greedy_action returns one of the actions (index() finds it by identity first).
    return actions.index(greedy_action(view(state, state.current_player), actions, rng))


def _restore(cls: type[Game], state: GameState) -> Game:
    return cls.from_state(state)


def random_playouts(
    start: GameState | Game, games: int, *, seed: int | None = None, max_turns: int | None = None
) -> Playouts:
    """Play ``games`` uniformly random games to their end from ``start``.

    See :func:`splendor.fast.random_playouts`.
    """
    if isinstance(start, Game):
        origin = start.state()
    elif isinstance(start, GameState):
        origin = _plain_state(start)
        check_state(origin)
    else:
        raise InvalidArgumentError(
            f"expected a GameState or a splendor.fast.Game, got {type(start).__name__}"
        )
    games = _games(games)
    rng = SplitMix64(fresh_seed() if seed is None else seed)
    most = _most_turns(max_turns)
    wins = [0] * len(origin.players)
    total = 0
    unfinished = 0
    for _ in range(games):
        state = origin
        turns = 0
        while not state.winners and turns < most:
            actions = legal_actions(state)
            state = apply(state, actions[rng.below(len(actions))])
            turns += 1
        total += turns
        if state.winners:
            for seat in state.winners:
                wins[seat] += 1
        else:
            unfinished += 1
    return Playouts(games=games, wins=tuple(wins), turns=total, unfinished=unfinished)
