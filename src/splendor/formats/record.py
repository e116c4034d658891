"""Game records: the seed and the actions of a game, replayable.

A :class:`GameRecord` holds what it takes to rebuild every state of a game:
the rules, the number of players, the seed of the deal and the actions in
the order they were played, with optional player names and the result.
A game can also end by a forfeit (:class:`Forfeit`): a seat that broke the
referee's rules (ran out of time, played an illegal move, crashed) loses, and
the other seats share the win; the actions before it are still a valid game.
Replaying it deals the game again with :func:`splendor.new_game` and plays
each action with :func:`splendor.apply`, so the final state is reproduced
exactly. :func:`splendor.to_json` and :func:`splendor.from_json` store
records as JSON (see the "JSON formats" page of the docs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import attrs

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.checks import LARGEST
from splendor.core.deal import new_game
from splendor.core.messages import short_repr
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.formats._replay import check_result, play_turn

__all__ = [
    "FORFEIT_REASONS",
    "JUDGEMENTS",
    "MAX_COMMENT",
    "MAX_FORFEIT_DETAIL",
    "MAX_SEED",
    "Annotation",
    "Forfeit",
    "GameRecord",
]

_ACTION_TYPES: Final = (Take, Reserve, ReserveFromDeck, Buy, Pass)
_STANDARD: Final = Rules()
#: The largest magnitude of a record's seed, ``2**63 - 1`` (a signed 64-bit
#: integer's): a seed is written out in full in JSON and in text records.
MAX_SEED: Final = LARGEST
#: The reasons of a forfeit that the referee records: an engine process that
#: ran out of time, broke the protocol, played an illegal move or crashed (an
#: in-process bot that raised counts as a crash).
FORFEIT_REASONS: Final = ("timeout", "protocol", "illegal-move", "crash")
#: The longest :attr:`Forfeit.detail`, in characters.
MAX_FORFEIT_DETAIL: Final = 1000


def _check_forfeit_seat(_: object, __: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or not 0 <= value < MAX_PLAYERS:
        raise InvalidArgumentError(
            f"Forfeit.seat must be an int from 0 to {MAX_PLAYERS - 1}, got {short_repr(value)}"
        )


def _one_of(
    values: tuple[str, ...], *, optional: bool = False
) -> Callable[[object, attrs.Attribute[Any], object], None]:
    """The validator of a field that is one of ``values`` (or None when ``optional``).

    Its attribute is ``Any`` so that one factory serves ``str`` and ``str | None`` fields.
    """
    allowed = f"{'None or ' if optional else ''}one of {', '.join(values)}"

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if (value is None and optional) or (type(value) is str and value in values):
            return
        raise InvalidArgumentError(
            f"{type(instance).__name__}.{attribute.name} must be {allowed}, got {short_repr(value)}"
        )

    return check


def _text(most: int) -> Callable[[object, attrs.Attribute[str], object], None]:
    """The validator of a field that is a str of at most ``most`` characters."""

    def check(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
        if type(value) is not str or len(value) > most:
            raise InvalidArgumentError(
                f"{type(instance).__name__}.{attribute.name} must be a str of at most "
                f"{most} characters, got {short_repr(value)}"
            )

    return check


@attrs.frozen
class Forfeit:
    """How a game ended early: a seat forfeited it.

    The forfeiting seat loses and the others share the win; the record's
    actions are those played before the forfeit, a valid game that is not
    over by the rules.

    Attributes:
        seat: the seat that forfeited.
        reason: one of :data:`FORFEIT_REASONS`.
        detail: what happened, for people (at most :data:`MAX_FORFEIT_DETAIL`
            characters).

    >>> Forfeit(1, "timeout", "no move within 0.6 s")
    Forfeit(seat=1, reason='timeout', detail='no move within 0.6 s')
    >>> Forfeit(1, "bored")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: Forfeit.reason must be one of timeout, ...

    Raises:
        InvalidArgumentError: for a seat that is not a non-negative int, an
            unknown reason or a detail that is not a short str.
    """

    seat: int = attrs.field(validator=_check_forfeit_seat)
    reason: str = attrs.field(validator=_one_of(FORFEIT_REASONS))
    detail: str = attrs.field(default="", validator=_text(MAX_FORFEIT_DETAIL))


#: The judgements of a move in an :class:`Annotation`, from the worst.
JUDGEMENTS: Final = ("blunder", "mistake", "inaccuracy")
#: The longest :attr:`Annotation.comment` and :attr:`Annotation.best`, in characters.
MAX_COMMENT: Final = 1000


def _check_chances(
    instance: object, attribute: attrs.Attribute[tuple[float, ...]], value: object
) -> None:
    if (
        type(value) is not tuple
        or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS
        or not all(type(p) is float and 0.0 <= p <= 1.0 for p in value)
    ):
        raise InvalidArgumentError(
            f"Annotation.{attribute.name} must be a tuple of one float from 0 to 1 per seat, "
            f"got {short_repr(value)}"
        )


@attrs.frozen
class Annotation:
    """What an analysis says of one move of a record (see :mod:`splendor.arena.analysis`).

    Attributes:
        win_before: each seat's chance of winning before the move, in seat order.
        win_after: each seat's chance of winning after the move played.
        best: the analyser's best move, in the action notation.
        judgement: ``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None.
        comment: a remark for people (at most :data:`MAX_COMMENT` characters).

    >>> Annotation((0.6, 0.4), (0.3, 0.7), "b12", "blunder").judgement
    'blunder'

    Raises:
        InvalidArgumentError: for chances that are not floats from 0 to 1,
            an unknown judgement or a text that is not a short str.
    """

    win_before: tuple[float, ...] = attrs.field(validator=_check_chances)
    win_after: tuple[float, ...] = attrs.field(validator=_check_chances)
    best: str = attrs.field(validator=_text(MAX_COMMENT))
    judgement: str | None = attrs.field(default=None, validator=_one_of(JUDGEMENTS, optional=True))
    comment: str = attrs.field(default="", validator=_text(MAX_COMMENT))


def _check_annotations(value: object, players: int, actions: int) -> None:
    if value is None:
        return
    if type(value) is not tuple or len(value) != actions:
        raise InvalidArgumentError(
            f"GameRecord.annotations must be None or a tuple of one entry per action "
            f"({actions}), got {short_repr(value)}"
        )
    for index, note in enumerate(value):
        if note is None:
            continue
        if not isinstance(note, Annotation):
            raise InvalidArgumentError(
                f"GameRecord.annotations[{index}] must be an Annotation or None, "
                f"got {short_repr(note)}"
            )
        if len(note.win_before) != players or len(note.win_after) != players:
            raise InvalidArgumentError(
                f"GameRecord.annotations[{index}] must give a chance for each of the "
                f"{players} seats"
            )


def _check_players(value: object) -> None:
    if type(value) is not int or not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"GameRecord.players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}, got {value!r}"
        )


def _check_seed(value: object) -> None:
    if type(value) is not int or not -MAX_SEED <= value <= MAX_SEED:
        raise InvalidArgumentError(
            f"GameRecord.seed must be an int from -(2**63 - 1) to 2**63 - 1, "
            f"got {short_repr(value)}"
        )


def _check_rules(value: object) -> None:
    if not isinstance(value, Rules):
        raise InvalidArgumentError(f"GameRecord.rules must be a splendor.Rules, got {value!r}")


def _check_actions(value: object) -> None:
    if type(value) is not tuple:
        raise InvalidArgumentError(f"GameRecord.actions must be a tuple, got {value!r}")
    for i, action in enumerate(value):
        _check_action(action, i)


def _check_action(action: object, index: int) -> None:
    if type(action) not in _ACTION_TYPES:
        raise InvalidArgumentError(f"GameRecord.actions[{index}] is not an action: {action!r}")


def _check_names(value: object, players: int) -> None:
    if value is None:
        return
    if type(value) is not tuple or not all(type(name) is str for name in value):
        raise InvalidArgumentError(
            f"GameRecord.names must be None or a tuple of str, got {value!r}"
        )
    if len(value) != players:
        raise InvalidArgumentError(
            f"GameRecord.names must name each of the {players} players, got {len(value)} name(s)"
        )


def _check_result(value: object, players: int, forfeit: object) -> None:
    if forfeit is not None:
        if not isinstance(forfeit, Forfeit):
            raise InvalidArgumentError(
                f"GameRecord.forfeit must be None or a Forfeit, got {short_repr(forfeit)}"
            )
        if forfeit.seat >= players:
            raise InvalidArgumentError(
                f"GameRecord.forfeit.seat must be a seat from 0 to {players - 1}, "
                f"got {forfeit.seat}"
            )
        others = tuple(seat for seat in range(players) if seat != forfeit.seat)
        if value != others:
            raise InvalidArgumentError(
                f"a record whose seat {forfeit.seat} forfeited has the result {others} "
                f"(every other seat), got {short_repr(value)}"
            )
        return
    if value is None:
        return
    if (
        type(value) is not tuple
        or not value
        or not all(type(seat) is int and 0 <= seat < players for seat in value)
        or list(value) != sorted(set(value))
    ):
        raise InvalidArgumentError(
            "GameRecord.result must be None or the winning seats in increasing order "
            f"(each 0 to {players - 1}), got {value!r}"
        )


@attrs.frozen(init=False)
class GameRecord:
    """A whole game as its setup and the actions played: replayable and storable.

    Start one with :meth:`start` and add each action with :meth:`append`
    (each call checks only the new action, so recording a game is linear in its length);
    rebuild the states with :meth:`replay`, :meth:`state_at` or
    :meth:`final_state`.

    The seed gives the order of every deck: whoever holds a record of a game
    in progress can see the cards to come. Keep records of live games from
    the players.

    Attributes:
        players: the number of players, 2 to 4.
        seed: the seed the game was dealt with (see :func:`splendor.new_game`),
            within ``-(2**63 - 1)`` to ``2**63 - 1`` (:data:`MAX_SEED`).
        rules: the rules the game is played under.
        actions: the actions played, one per turn, in order.
        names: the players' names by seat, if known.
        result: the winning seats once the game is over, if recorded.
            :meth:`append` fills it in when the game ends, :meth:`forfeited`
            when a seat forfeits.
        forfeit: the :class:`Forfeit` that ended the game early, if any;
            :attr:`result` is then every other seat.
        annotations: what an analysis says of each move (an
            :class:`Annotation` or None per action), if the record was
            analysed; :meth:`append` drops them.

    >>> import random
    >>> from splendor import legal_actions
    >>> record = GameRecord.start(2, seed=3, names=("Ada", "Bo"))
    >>> rng = random.Random(3)
    >>> while record.result is None:
    ...     record = record.append(rng.choice(legal_actions(record.final_state())))
    >>> record.final_state().winners == record.result
    True
    >>> record.replay()[-1] == record.final_state()
    True

    Raises:
        InvalidArgumentError: on construction, for a field of the wrong type or
            out of range (the actions themselves are checked on replay).
    """

    players: int
    seed: int
    rules: Rules = _STANDARD
    actions: tuple[Action, ...] = ()
    names: tuple[str, ...] | None = None
    result: tuple[int, ...] | None = None
    forfeit: Forfeit | None = None
    annotations: tuple[Annotation | None, ...] | None = None
    # The final state once computed, in a box of at most one item so that a
    # frozen record can remember it; equal records have equal final states.
    _final: list[GameState] = attrs.field(
        factory=list, init=False, repr=False, eq=False, hash=False
    )

    if TYPE_CHECKING:
        # Made by attrs (``init=False`` keeps the checked __init__ below); said
        # here for type checkers that do not run attrs' plugin.
        def __attrs_init__(
            self,
            players: int,
            seed: int,
            rules: Rules = ...,
            actions: tuple[Action, ...] = ...,
            names: tuple[str, ...] | None = ...,
            result: tuple[int, ...] | None = ...,
            forfeit: Forfeit | None = ...,
            annotations: tuple[Annotation | None, ...] | None = ...,
        ) -> None: ...

    def __init__(
        self,
        players: int,
        seed: int,
        rules: Rules = _STANDARD,
        actions: tuple[Action, ...] = (),
        names: tuple[str, ...] | None = None,
        result: tuple[int, ...] | None = None,
        forfeit: Forfeit | None = None,
        annotations: tuple[Annotation | None, ...] | None = None,
    ) -> None:
        _check_players(players)
        _check_seed(seed)
        _check_rules(rules)
        _check_actions(actions)
        _check_names(names, players)
        _check_result(result, players, forfeit)
        _check_annotations(annotations, players, len(actions))
        self.__attrs_init__(players, seed, rules, actions, names, result, forfeit, annotations)

    @classmethod
    def start(
        cls,
        players: int,
        *,
        seed: int,
        rules: Rules | None = None,
        names: tuple[str, ...] | None = None,
    ) -> GameRecord:
        """A record of a game just dealt, with no action yet.

        Args:
            players: the number of players, 2 to 4.
            seed: the seed of the deal.
            rules: the rules to play under; the published rules by default.
            names: the players' names by seat, if any.

        Returns:
            The record, whose :meth:`final_state` is ``new_game(players,
            seed=seed, rules=rules)``.

        Raises:
            InvalidArgumentError: for a bad player count, seed, rules or names.

        >>> GameRecord.start(3, seed=1).final_state().turn
        0
        """
        record = cls(players, seed, _STANDARD if rules is None else rules, (), names)
        record._final.append(record.initial_state())
        return record

    def initial_state(self) -> GameState:
        """The state after the deal, before the first action.

        >>> GameRecord(2, seed=5).initial_state() == GameRecord(2, seed=5).initial_state()
        True
        """
        return new_game(self.players, seed=self.seed, rules=self.rules)

    def replay(self) -> tuple[GameState, ...]:
        """Every state of the game: the deal, then the state after each action.

        Returns:
            ``len(self.actions) + 1`` states; the last is :meth:`final_state`.

        Raises:
            IllegalActionError: when an action cannot be played at its turn; the
                message names the turn (counted from 1), the seat and the reason.
                Also when :attr:`result` does not match the game's winners,
                or the game of a forfeited record is over by the rules.
            InvalidArgumentError: when an action is not an action at all.

        >>> from splendor import Gem, Take, Tokens
        >>> record = GameRecord(2, seed=1, actions=(Take(Tokens(red=2)), Take(Tokens(red=2))))
        >>> record.replay()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        splendor.errors.IllegalActionError: turn 2 (player 1, take 2R): take 2 red needs 4 red ...
        """
        states = [self.initial_state()]
        for index, action in enumerate(self.actions):
            states.append(play_turn(states[-1], action, index))
        check_result(self.result, len(self.actions), states[-1], self._forfeit_seat())
        self._final[:] = [states[-1]]
        return tuple(states)

    def _forfeit_seat(self) -> int | None:
        return None if self.forfeit is None else self.forfeit.seat

    def state_at(self, turn: int) -> GameState:
        """The state after the first ``turn`` actions: 0 is the deal.

        Negative numbers count from the end, as for a sequence: ``-1`` is
        :meth:`final_state`, ``-2`` the state before the last action.

        Args:
            turn: how many actions to play, ``-(len(actions) + 1)`` to
                ``len(actions)``.

        Returns:
            The state, replayed from the deal (the final state is remembered).

        Raises:
            InvalidArgumentError: for a ``turn`` that is not an int in range.
            IllegalActionError: when one of those actions cannot be played.

        >>> from splendor import Take, Tokens
        >>> record = GameRecord(2, seed=1, actions=(Take(Tokens(red=2)),))
        >>> record.state_at(0).turn, record.state_at(1).turn, record.state_at(-1).turn
        (0, 1, 1)
        """
        played = len(self.actions)
        if type(turn) is not int or not -played - 1 <= turn <= played:
            raise InvalidArgumentError(
                f"turn must be an int from {-played - 1} to {played} for a record of "
                f"{played} action(s), got {turn!r}"
            )
        if turn < 0:
            turn += played + 1
        if turn == played:
            return self.final_state()
        state = self.initial_state()
        for index, action in enumerate(self.actions[:turn]):
            state = play_turn(state, action, index)
        return state

    def final_state(self) -> GameState:
        """The state after the last action (replayed once, then remembered).

        Raises:
            IllegalActionError: as :meth:`replay` does.
            InvalidArgumentError: as :meth:`replay` does.
        """
        if self._final:
            return self._final[0]
        state = self.initial_state()
        for index, action in enumerate(self.actions):
            state = play_turn(state, action, index)
        check_result(self.result, len(self.actions), state, self._forfeit_seat())
        self._final[:] = [state]
        return state

    def append(self, action: Action) -> GameRecord:
        """The record with one more action, checked against the rules.

        When the action ends the game, :attr:`result` is set to the winners.

        Args:
            action: the action of the player to move in :meth:`final_state`.

        Returns:
            A new record; this one is unchanged.

        Raises:
            IllegalActionError: when the action is illegal there (the message
                names the turn and the reason), or the game is over (by the
                rules or by a forfeit).
            InvalidArgumentError: when ``action`` is not an action.
        """
        if self.forfeit is not None:
            raise IllegalActionError(
                f"the game ended when seat {self.forfeit.seat} forfeited "
                f"({self.forfeit.reason}): no action follows"
            )
        state = play_turn(self.final_state(), action, len(self.actions))
        # The fields are this record's, already checked, and the new action,
        # which apply checked: attrs' own initialiser builds the record without
        # the checks of __init__, so recording a game of n turns checks n
        # actions, not n * n / 2.
        record = self._unchecked((*self.actions, action), state.winners or None, None, None)
        record._final.append(state)
        return record

    def _unchecked(
        self,
        actions: tuple[Action, ...],
        result: tuple[int, ...] | None,
        forfeit: Forfeit | None,
        annotations: tuple[Annotation | None, ...] | None,
    ) -> GameRecord:
        """A record of this game (players, seed, rules, names) with the rest given.

        It is made without the checks of ``__init__``: the caller has checked
        what it changes.
        """
        record = GameRecord.__new__(GameRecord)
        record.__attrs_init__(
            self.players, self.seed, self.rules, actions, self.names, result, forfeit, annotations
        )
        return record

    def annotated(self, annotations: tuple[Annotation | None, ...] | None) -> GameRecord:
        """This record with ``annotations`` (one per action, or None to drop them).

        Raises:
            InvalidArgumentError: for annotations that are not one
                :class:`Annotation` or None per action, with a chance per seat.

        >>> record = GameRecord(2, seed=1).annotated(())
        >>> record.annotations
        ()
        """
        _check_annotations(annotations, self.players, len(self.actions))
        record = self._unchecked(self.actions, self.result, self.forfeit, annotations)
        record._final[:] = self._final
        return record

    def forfeited(self, seat: int, reason: str, detail: str = "") -> GameRecord:
        """The record of this game ended by the forfeit of ``seat``.

        The seat loses and every other seat wins (:attr:`result`); the
        actions stay as they are.

        Args:
            seat: the seat that forfeits.
            reason: one of :data:`FORFEIT_REASONS`.
            detail: what happened (cut to :data:`MAX_FORFEIT_DETAIL` characters).

        Returns:
            A new record with :attr:`forfeit` set; this one is unchanged.

        Raises:
            IllegalActionError: when the game is already over (by the rules
                or by a forfeit).
            InvalidArgumentError: for a bad seat, reason or detail.

        >>> record = GameRecord.start(3, seed=1).forfeited(1, "crash", "exit status 1")
        >>> record.result, record.forfeit.reason
        ((0, 2), 'crash')
        """
        if self.forfeit is not None:
            raise IllegalActionError(
                f"the game already ended when seat {self.forfeit.seat} forfeited"
            )
        final = self.final_state()
        if final.is_over:
            raise IllegalActionError("the game is over by the rules: nobody can forfeit it")
        if isinstance(detail, str) and len(detail) > MAX_FORFEIT_DETAIL:
            detail = detail[: MAX_FORFEIT_DETAIL - 3] + "..."
        forfeit = Forfeit(seat, reason, detail)
        if seat >= self.players:
            raise InvalidArgumentError(f"seat must be from 0 to {self.players - 1}, got {seat}")
        losers = tuple(other for other in range(self.players) if other != seat)
        record = self._unchecked(self.actions, losers, forfeit, self.annotations)
        record._final.append(final)
        return record
