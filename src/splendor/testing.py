"""A conformance check for other implementations of the game: does an engine play splendor's game?

A port of the rules to another language, an adapter around another library
or a faster kernel (:mod:`splendor.fast`) can be checked against the
library's engine with :func:`check_engine`: it plays seeded random games
through the engine under test and, at every state, compares

- the engine's state with the one :func:`splendor.apply` reached,
- whether the game is over, and its winners,
- the legal actions it lists with :func:`splendor.legal_actions` (as a set,
  and in order unless ``ordered=False``),
- the state each legal action leads to (every action, or a random sample of
  ``successors`` of them) with the one :func:`splendor.apply` gives.

It raises :class:`ConformanceError` at the first disagreement, with the seed,
the turn, the state as JSON and both answers, so the failure can be replayed
with :func:`check_game` or :func:`check_replay`.

The engine under test is anything with a ``from_state(state)`` that returns a
game in progress (:class:`Engine` and :class:`EngineGame`), for example the
class :class:`splendor.fast.Game` itself; or two functions, ``legal(state)``
and ``successor(state, action)`` (:class:`Functions`):

>>> from splendor import apply, legal_actions
>>> check_engine((legal_actions, apply), games=3, max_turns=20)
ConformanceReport(games=3, states=63, successors=1855, unfinished=3)
>>> def forgetful(state):  # forgets the last legal action
...     return legal_actions(state)[:-1]
>>> try:
...     check_engine((forgetful, apply), games=1)
... except ConformanceError as error:
...     print(error.seed, error.turn, str(error).splitlines()[0])
0 0 at turn 0 of a 2-player game (seed 0): the engine lists 29 legal actions, splendor 30
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol, TypeVar, cast

import attrs

from splendor.core.actions import Action
from splendor.core.deal import new_game
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState, PlayerState
from splendor.errors import InvalidArgumentError, SplendorError

__all__ = [
    "MAX_TURNS",
    "ConformanceError",
    "ConformanceReport",
    "Engine",
    "EngineGame",
    "Functions",
    "Legal",
    "Successor",
    "check_engine",
    "check_game",
    "check_replay",
    "state_difference",
]

_T = TypeVar("_T")

#: The most turns a game of the check plays by default before it is stopped.
MAX_TURNS: Final = 1000


class EngineGame(Protocol):
    """One game of the engine under test, in progress, played in place.

    :class:`splendor.fast.Game` has this interface. An adapter around
    another library converts its states to :class:`~splendor.GameState`
    (``state``) and its moves to actions (``actions``); it may hold the
    game in any form it likes.
    """

    def state(self) -> GameState:
        """The current state, as a :class:`~splendor.GameState`."""
        ...

    def actions(self) -> Sequence[Action]:
        """The legal actions of the current state (none once the game is over)."""
        ...

    def play(self, index: int, /) -> None:
        """Play ``actions()[index]``, in place."""
        ...

    def copy(self) -> EngineGame:
        """An independent copy: playing on it leaves this game as it is."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    @property
    def winners(self) -> Sequence[int]:
        """The winning seats once the game is over, else none."""
        ...


class Engine(Protocol):
    """The engine under test: it starts a game at any state.

    The class :class:`splendor.fast.Game` is one (its classmethod
    ``from_state``); so is :class:`Functions`.
    """

    def from_state(self, state: GameState, /) -> EngineGame:
        """A game of the engine at ``state``."""
        ...


#: The legal actions of a state, as an engine lists them.
Legal = Callable[[GameState], Sequence[Action]]
#: The state an action leads to.
Successor = Callable[[GameState, Action], GameState]


@attrs.frozen
class Functions:
    """An engine given as two functions of states, like :func:`~splendor.legal_actions`
    and :func:`~splendor.apply`.

    The end of the game and the winners are read from the states
    ``successor`` returns. :func:`check_engine` and the other checks also
    take the pair as a plain tuple ``(legal, successor)``.

    Attributes:
        legal: the legal actions of a state.
        successor: the state an action leads to.

    >>> from splendor import apply, legal_actions, new_game
    >>> game = Functions(legal_actions, apply).from_state(new_game(2, seed=1))
    >>> str(game.actions()[0]), game.is_over
    ('take 1W 1B 1G', False)
    """

    legal: Legal
    successor: Successor

    def from_state(self, state: GameState, /) -> EngineGame:
        """A game at ``state`` played with the two functions."""
        return _FunctionGame(self, state)


class _FunctionGame:
    """A game of :class:`Functions`: a state, moved on by ``successor``."""

    __slots__ = ("_engine", "_listed", "_state")

    def __init__(
        self, engine: Functions, state: GameState, listed: Sequence[Action] | None = None
    ) -> None:
        self._engine = engine
        self._state = state
        self._listed = listed  # legal(state), once asked for

    def state(self) -> GameState:
        return self._state

    def actions(self) -> Sequence[Action]:
        if self._listed is None:
            self._listed = tuple(self._engine.legal(self._state))
        return self._listed

    def play(self, index: int, /) -> None:
        self._state = self._engine.successor(self._state, self.actions()[index])
        self._listed = None

    def copy(self) -> EngineGame:
        return _FunctionGame(self._engine, self._state, self._listed)

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def winners(self) -> Sequence[int]:
        return self._state.winners


@attrs.frozen
class ConformanceReport:
    """What a check compared, all of it in agreement.

    Reports add up with ``+``.

    Attributes:
        games: the games played.
        states: the states whose listing, end and winners were compared.
        successors: the successor states compared on copies of the game (the
            state each turn goes on to is compared besides, uncounted).
        unfinished: the games stopped by ``max_turns`` before their end.
    """

    games: int = 0
    states: int = 0
    successors: int = 0
    unfinished: int = 0

    def __add__(self, other: ConformanceReport) -> ConformanceReport:
        return ConformanceReport(
            self.games + other.games,
            self.states + other.states,
            self.successors + other.successors,
            self.unfinished + other.unfinished,
        )


class ConformanceError(SplendorError, AssertionError):
    """The engine under test and splendor's engine disagree.

    Raised by :func:`check_engine`, :func:`check_game` and
    :func:`check_replay` at the first difference. The message says where
    (the players, seed and rules of the game, the turn), what differs, both
    answers, how to run the check again on that game, and the state before
    as JSON (:func:`splendor.to_json`; load it with
    ``from_json(text, GameState)``). It is an :class:`AssertionError` too,
    as a failed check in a test is.

    Attributes:
        players: the number of players of the game.
        seed: the seed of the game (the deal and the random moves), or
            ``None`` for :func:`check_replay`.
        turn: the turn of the state where the answers differ.
        state: that state, as splendor's engine has it.
        action: the action whose successor differs (or that was being
            played), else ``None``.
        expected: splendor's answer (a tuple of actions, a state, a bool or
            the winners).
        got: the engine's answer, of the same kind.
    """

    def __init__(
        self,
        message: str,
        *,
        state: GameState,
        seed: int | None = None,
        action: Action | None = None,
        expected: object = None,
        got: object = None,
    ) -> None:
        super().__init__(message)
        self.players = len(state.players)
        self.seed = seed
        self.turn = state.turn
        self.state = state
        self.action = action
        self.expected = expected
        self.got = got

    def __str__(self) -> str:
        return str(self.args[0])


def state_difference(got: object, expected: GameState) -> str | None:
    """Where a state ``got`` first differs from ``expected``, in words; ``None`` when equal.

    The path names the field, by seat and place, as in ``players[1].tokens``;
    ``got`` may be anything (an engine under test may answer with anything).

    >>> import attrs
    >>> from splendor import Tokens, new_game
    >>> state = new_game(2, seed=1)
    >>> more = attrs.evolve(state.players[1], tokens=Tokens(white=1))
    >>> state_difference(attrs.evolve(state, players=(state.players[0], more)), state)
    'players[1].tokens: Tokens(white=1) instead of Tokens()'
    >>> state_difference(state, state) is None
    True
    """
    if got == expected:
        return None
    return _difference(got, expected, "") or "the states differ (in nothing a field shows)"


def _difference(got: object, expected: object, path: str) -> str | None:
    if got == expected:
        return None
    where = path.removeprefix(".") or "the state"
    if type(got) is not type(expected):
        return f"{where}: {got!r} instead of {expected!r}"
    if isinstance(got, GameState | PlayerState):
        for field in attrs.fields(type(got)):
            if field.eq:
                found = _difference(
                    getattr(got, field.name), getattr(expected, field.name), f"{path}.{field.name}"
                )
                if found:
                    return found
    elif isinstance(got, tuple) and isinstance(expected, tuple):
        if len(got) != len(expected):
            sizes = f"length {len(got)}, not {len(expected)}"
            return f"{where}: {got!r} instead of {expected!r} ({sizes})"
        for index, (a, b) in enumerate(zip(got, expected, strict=True)):
            found = _difference(a, b, f"{path}[{index}]")
            if found:
                return found
    return f"{where}: {got!r} instead of {expected!r}"


def _notation(actions: Sequence[object]) -> str:
    return "[" + ", ".join(str(action) for action in actions) + "]"


def _json(state: GameState) -> str:
    try:
        from splendor.formats.serialization import to_json
    except ImportError:  # cattrs missing: the repr says as much, if longer
        return repr(state)
    return to_json(state)


def _listing_difference(got: Sequence[Action], expected: Sequence[Action]) -> str:
    """What is wrong with the engine's listing, in words."""
    missing = [action for action in expected if action not in set(got)]
    extra = [action for action in dict.fromkeys(got) if action not in set(expected)]
    twice = [action for action in dict.fromkeys(got) if got.count(action) > 1]
    lines = []
    if missing:
        lines.append(f"missing from the engine's: {_notation(missing)}")
    if extra:
        lines.append(f"listed by the engine, not legal: {_notation(extra)}")
    if twice:
        lines.append(f"listed more than once by the engine: {_notation(twice)}")
    if not lines:
        index = next(i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b)
        lines.append(
            f"the same actions in another order: at index {index} the engine lists "
            f"{got[index]}, splendor {expected[index]}"
        )
    return "\n".join(lines)


@attrs.define
class _Check:
    """One check in progress: what it compares, and where it is (for the messages)."""

    ordered: bool
    successors: int | None
    sampler: random.Random
    seed: int | None = None
    line: list[Action] = attrs.Factory(list)  # the actions played from the first state
    states: int = 0
    compared: int = 0

    def error(
        self,
        problem: str,
        state: GameState,
        *,
        action: Action | None = None,
        expected: object = None,
        got: object = None,
        details: str = "",
    ) -> ConformanceError:
        """The error for ``problem`` at ``state``, its message in full."""
        players = len(state.players)
        if self.seed is not None:
            game = f"a {players}-player game (seed {self.seed}"
            if state.rules != Rules():
                game += f", {state.rules!r}"
            game += ")"
            rerun = f"check_game(engine, {players}, seed={self.seed}"
            rerun += f", rules={state.rules!r})" if state.rules != Rules() else ")"
            rerun += f", or check_replay(engine, STATE, [{action}])" if action else ""
        else:
            game = f"a {players}-player game"
            rerun = f"check_replay(engine, STATE, [{action}])" if action else ""
            rerun = rerun or "check_replay(engine, STATE, [])"
        message = f"at turn {state.turn} of {game}: {problem}"
        if details:
            message += "\n" + details
        message += f"\nrun again: splendor.testing.{rerun}"
        if self.line:
            first = "the deal" if self.seed is not None else "the state given"
            message += f"\n(the actions played since {first}: {_notation(self.line)})"
        message += "\nwith STATE = from_json(<the state below>, GameState), the state before:"
        message += f"\n{_json(state)}"
        return ConformanceError(
            message, state=state, seed=self.seed, action=action, expected=expected, got=got
        )

    def raised(
        self, error: Exception, what: str, state: GameState, action: Action | None = None
    ) -> ConformanceError:
        """The failure of an engine that raised ``error`` while doing ``what``."""
        problem = f"the engine raised {type(error).__name__} {what}: {error}"
        return self.error(problem, state, action=action)

    def engine_call(self, state: GameState, what: str, call: Callable[[], _T]) -> _T:
        """``call()``: a call of the engine; an exception it raises is reported as a failure."""
        try:
            return call()
        except Exception as error:
            raise self.raised(error, what, state) from error

    def compare_state(
        self, got: GameState, expected: GameState, before: GameState, action: Action | None
    ) -> None:
        """Fail unless the state ``got`` the engine reached by ``action`` is ``expected``."""
        if got != expected:
            where = (
                f"after {action}, the engine's state differs"
                if action
                else "the engine's state differs from the state it was given"
            )
            raise self.error(
                where,
                before,
                action=action,
                expected=expected,
                got=got,
                details=state_difference(got, expected) or "",
            )

    def position(
        self, game: EngineGame, state: GameState
    ) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
        """Compare the end, the winners, the listing and the successors at ``state``.

        Returns:
            The engine's listing and splendor's.
        """
        self.states += 1
        is_over = self.engine_call(state, "telling whether the game is over", lambda: game.is_over)
        if bool(is_over) != state.is_over:
            said = "is over" if is_over else "goes on"
            truth = f"is over, won by {state.winners}" if state.is_over else "goes on"
            raise self.error(
                f"the engine says the game {said}, splendor that it {truth}",
                state,
                expected=state.is_over,
                got=is_over,
            )
        winners = self.engine_call(state, "giving the winners", lambda: tuple(game.winners))
        if winners != state.winners:
            raise self.error(
                f"the engine's winners are {winners}, splendor's {state.winners}",
                state,
                expected=state.winners,
                got=winners,
            )
        got = self.engine_call(state, "listing the legal actions", lambda: tuple(game.actions()))
        expected = legal_actions(state)
        if got != expected and (self.ordered or not _same_set(got, expected)):
            if len(got) != len(expected):
                problem = f"the engine lists {len(got)} legal actions, splendor {len(expected)}"
            elif _same_set(got, expected):
                problem = f"the engine lists splendor's {len(got)} legal actions in another order"
            else:
                problem = f"the engine lists {len(got)} legal actions, not all of them splendor's"
            raise self.error(
                problem,
                state,
                expected=expected,
                got=got,
                details=f"{_listing_difference(got, expected)}\n"
                f"splendor lists: {_notation(expected)}\nthe engine lists: {_notation(got)}",
            )
        indices: Sequence[int] = range(len(got))
        if self.successors is not None and self.successors < len(got):
            indices = sorted(self.sampler.sample(range(len(got)), self.successors))
        for index in indices:
            action = got[index]
            try:
                child = game.copy()
                child.play(index)
                reached = child.state()
            except Exception as error:
                what = f"playing {action} on a copy of its game"
                raise self.raised(error, what, state, action) from error
            self.compare_state(reached, apply(state, action), state, action)
        if indices:
            self.compared += len(indices)
            after = self.engine_call(state, "giving its state", game.state)
            if after != state:
                raise self.error(
                    "playing on a copy of the engine's game changed the game",
                    state,
                    expected=state,
                    got=after,
                    details=state_difference(after, state) or "",
                )
        return got, expected

    def play(
        self, game: EngineGame, state: GameState, listed: Sequence[Action], action: Action
    ) -> GameState:
        """Play ``action`` on both sides and compare the states reached."""
        index = listed.index(action)
        try:
            game.play(index)
            reached = game.state()
        except Exception as error:
            raise self.raised(error, f"playing {action}", state, action) from error
        after = apply(state, action)
        self.compare_state(reached, after, state, action)
        self.line.append(action)
        return after

    def report(self, games: int, unfinished: int) -> ConformanceReport:
        return ConformanceReport(games, self.states, self.compared, unfinished)


def _same_set(got: Sequence[Action], expected: Sequence[Action]) -> bool:
    """Whether ``got`` lists the actions of ``expected`` (which has no repeats), each once."""
    listed = set(got)
    return len(got) == len(listed) == len(expected) and listed == set(expected)


def _engine(engine: object) -> Engine:
    if isinstance(engine, tuple) and len(engine) == 2 and all(map(callable, engine)):
        return Functions(*engine)
    if callable(getattr(engine, "from_state", None)):
        return cast(Engine, engine)  # as far as a method's presence can tell
    raise InvalidArgumentError(
        "the engine must have a from_state(state) method or be a pair of functions "
        f"(legal, successor), got {type(engine).__name__}"
    )


def _count(name: str, value: object, *, none: bool = False) -> None:
    if value is None and none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        what = "a non-negative int or None" if none else "a non-negative int"
        raise InvalidArgumentError(f"{name} must be {what}, got {value!r}")


def _start(
    engine: object, ordered: bool, successors: int | None, seed: int | None
) -> tuple[Engine, _Check]:
    _count("successors", successors, none=True)
    return _engine(engine), _Check(
        ordered=bool(ordered),
        successors=successors,
        sampler=random.Random(f"splendor-conformance:{seed}"),
        seed=seed,
    )


def _game(engine: Engine, state: GameState, check: _Check) -> EngineGame:
    game = check.engine_call(state, "starting a game", lambda: engine.from_state(state))
    check.compare_state(
        check.engine_call(state, "giving its state", game.state), state, state, None
    )
    return game


def check_game(
    engine: Engine | tuple[Legal, Successor],
    players: int,
    *,
    seed: int,
    rules: Rules | None = None,
    ordered: bool = True,
    successors: int | None = None,
    max_turns: int = MAX_TURNS,
) -> ConformanceReport:
    """Check ``engine`` over one seeded random game (see :func:`check_engine`).

    The game is dealt by ``new_game(players, seed=seed, rules=rules)``, and
    each turn plays an action drawn with ``random.Random(seed)``
    (``randrange`` over :func:`splendor.legal_actions`), so a game is the
    same on every run, whatever the engine under test lists.

    Raises:
        ConformanceError: at the first difference.
        InvalidArgumentError: for a bad argument.

    >>> from splendor import apply, legal_actions
    >>> check_game((legal_actions, apply), 4, seed=3, successors=2)
    ConformanceReport(games=1, states=157, successors=311, unfinished=0)
    """
    tested, check = _start(engine, ordered, successors, seed)
    _count("max_turns", max_turns)
    state = new_game(players, seed=seed, rules=rules)
    game = _game(tested, state, check)
    rng = random.Random(seed)
    while True:
        listed, expected = check.position(game, state)
        if state.is_over or state.turn >= max_turns:
            break
        state = check.play(game, state, listed, expected[rng.randrange(len(expected))])
    return check.report(1, int(not state.is_over))


def check_replay(
    engine: Engine | tuple[Legal, Successor],
    state: GameState,
    actions: Sequence[Action] = (),
    *,
    ordered: bool = True,
    successors: int | None = None,
) -> ConformanceReport:
    """Check ``engine`` at ``state`` and along ``actions`` played from it.

    The state itself, each state the actions reach and the last one are
    compared as :func:`check_engine` compares them: a way to check hand-made
    positions, the games of a record (``check_replay(engine,
    record.initial_state(), record.actions)``), or a failure again. An
    action given in another form than the listed one (a
    :class:`~splendor.Buy` that pays the default, for example) is played
    as the listed action with the same outcome.

    Raises:
        ConformanceError: at the first difference.
        IllegalActionError: for an action that is not legal where it is
            played.

    >>> from splendor import apply, legal_actions, new_game
    >>> state = new_game(3, seed=2)
    >>> line = legal_actions(state)[:1]
    >>> check_replay((legal_actions, apply), state, line, successors=0)
    ConformanceReport(games=1, states=2, successors=0, unfinished=1)
    """
    tested, check = _start(engine, ordered, successors, None)
    game = _game(tested, state, check)
    for given in actions:
        listed, expected = check.position(game, state)
        action = given
        if action not in listed:
            # Another form of a listed action (a buy that pays the default,
            # say): the listed one with the same outcome. apply raises the
            # engine's error, which says why, for an illegal one.
            after = apply(state, given)
            action = next(other for other in expected if apply(state, other) == after)
        state = check.play(game, state, listed, action)
    check.position(game, state)
    return check.report(1, int(not state.is_over))


def check_engine(
    engine: Engine | tuple[Legal, Successor],
    *,
    games: int = 12,
    players: Sequence[int] = (2, 3, 4),
    seed: int = 0,
    rules: Rules | Sequence[Rules] | None = None,
    ordered: bool = True,
    successors: int | None = None,
    max_turns: int = MAX_TURNS,
) -> ConformanceReport:
    """Check that ``engine`` plays splendor's game: the conformance check.

    Plays ``games`` seeded random games through ``engine`` and through
    :func:`splendor.legal_actions` and :func:`splendor.apply` side by side,
    and compares at every state the engine's state, whether the game is
    over, the winners, the legal actions and the successor states (the
    module's docstring lists them). Game ``g`` has ``players[g %
    len(players)]`` players, the rules ``rules[g // len(players) %
    len(rules)]`` and the seed ``seed + g`` (see :func:`check_game`).

    Args:
        engine: the engine under test: an :class:`Engine` (such as the class
            :class:`splendor.fast.Game`), or a pair of functions ``(legal,
            successor)`` (see :class:`Functions`).
        games: the number of games to play.
        players: the player counts the games cycle through.
        seed: the seed of the first game.
        rules: the rules to play under, or several to cycle through; the
            published rules by default.
        ordered: whether the engine must list the actions in the order of
            :func:`splendor.legal_actions`; with ``False`` the same set of
            actions, each once, in any order, is enough.
        successors: how many legal actions of each state to play on a copy
            of the game and compare: ``None`` (the default) for all of them,
            else a random sample of that many (0 for none). The action the
            game goes on with is always compared.
        max_turns: stop a game after this many turns (it then counts in
            ``unfinished``); under the published rules random games end
            well before the default.

    Returns:
        What was compared.

    Raises:
        ConformanceError: at the first difference, with the seed, the turn
            and the state, to replay it with :func:`check_game` or
            :func:`check_replay`.
        InvalidArgumentError: for a bad argument.

    >>> import splendor.fast
    >>> check_engine(splendor.fast.Game, games=6, successors=5)
    ConformanceReport(games=6, states=803, successors=3498, unfinished=0)
    """
    _count("games", games)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidArgumentError(f"seed must be an int, got {seed!r}")
    counts = tuple(players) if isinstance(players, Sequence) else ()
    if not counts or not all(
        isinstance(count, int) and MIN_PLAYERS <= count <= MAX_PLAYERS for count in counts
    ):
        raise InvalidArgumentError(
            f"players must be a sequence of player counts, {MIN_PLAYERS} to {MAX_PLAYERS}, "
            f"got {players!r}"
        )
    if rules is None or isinstance(rules, Rules):
        every_rules: tuple[Rules | None, ...] = (rules,)
    else:
        every_rules = tuple(rules)
        if not every_rules:
            raise InvalidArgumentError("rules must not be an empty sequence")
    total = ConformanceReport()
    for number in range(games):
        total += check_game(
            engine,
            counts[number % len(counts)],
            seed=seed + number,
            rules=every_rules[number // len(counts) % len(every_rules)],
            ordered=ordered,
            successors=successors,
            max_turns=max_turns,
        )
    return total
