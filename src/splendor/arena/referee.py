"""The referee: one game under a time control, with forfeits; fair schedules of games.

:func:`referee_game` plays one seeded game between bots as
:func:`splendor.play_game` does, but never lets a bot stop the game by
failing: a bot that runs out of time, plays an illegal move or crashes
forfeits, and the game record says so (:class:`~splendor.formats.record.Forfeit`):
the forfeiting seat loses, the other seats share the win, and the actions
played until then stay a valid, replayable game. A bot's move is asked and
judged by :func:`splendor.players.seats.ask_bot`, whose failure
(:class:`~splendor.players.seats.BotFailedError`) gives the forfeit, the one
policy for a bot that fails; a forfeiting engine is closed by
:func:`~splendor.players.seats.close_bot`.

The reasons of a forfeit are those of :data:`~splendor.formats.record.FORFEIT_REASONS`:

- ``"timeout"``: the bot took longer than its time control allowed;
- ``"illegal-move"``: it returned something that is not a legal action;
- ``"crash"``: it raised an exception (an engine process died);
- ``"protocol"``: an engine process broke the bot protocol.

A bot engine in another process (a :class:`~splendor.remote.Engine`) is
given each move a :class:`~splendor.remote.Limit` with the move's time and
the clocks, and its host stops waiting at that time plus the engine's grace
(:data:`~splendor.remote.GRACE`): its move's time is what the host measured,
and a move within the grace counts (its clock may then go below zero by the
grace, and is counted as zero). The process of an engine that forfeits is
ended. A bot in this process cannot be stopped while it thinks: it is timed
by the wall clock, and a move that comes too late is a timeout once it comes.

:func:`fair_schedule` lists the games of a fair round robin: every deal is
played with the seats rotated, so every entrant of a table plays it from
every seat.

>>> from splendor import GreedyBot, RandomBot
>>> record = referee_game([GreedyBot(), RandomBot()], seed=5, time_control=TimeControl(move=1.0))
>>> record.result, record.forfeit
((0,), None)
>>> def crashes(view, actions, rng):
...     raise RuntimeError("out of memory")
>>> record = referee_game([GreedyBot(), crashes], seed=5)
>>> record.result, record.forfeit
((0,), Forfeit(seat=1, reason='crash', detail='RuntimeError: out of memory'))
>>> [table.seats for table in fair_schedule(["a", "b"], players=2, deals=2, seed=0)]
[('a', 'b'), ('b', 'a'), ('a', 'b'), ('b', 'a')]
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from splendor.arena.runs import check_players, game_seed
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.errors import EngineError, InvalidArgumentError
from splendor.formats.record import GameRecord
from splendor.players.bots import (
    DEFAULT_MAX_TURNS,
    Bot,
    bot_rngs,
    check_table,
    table_names,
)
from splendor.players.seats import BotFailedError, ask_bot, close_bot
from splendor.remote.host import Engine
from splendor.remote.messages import Clock, Limit

__all__ = ["TABLE_DEALS", "Table", "TimeControl", "fair_schedule", "referee_game"]

#: The deals of the ``t``-th combination of entrants in :func:`fair_schedule`
#: are numbered from ``t * TABLE_DEALS``: combinations share no deal.
TABLE_DEALS: Final = 10_007
# The clock that times a move in this process (a test may stand in its own).
_now: Callable[[], float] = time.perf_counter


def _check_seconds(name: str, value: object, *, zero: bool) -> None:
    if value is None and name != "increment":
        return
    number = value if type(value) in (int, float) else None
    if (
        not isinstance(number, int | float)
        or not math.isfinite(number)
        or number < 0
        or (number == 0 and not zero)
    ):
        wanted = "a non-negative" if zero else "a positive"
        raise InvalidArgumentError(
            f"TimeControl.{name} must be {wanted} finite number of seconds"
            f"{'' if zero else ' or None'}, got {short_repr(value)}"
        )


@attrs.frozen
class TimeControl:
    """How long a bot may think: per move, per game with an increment, or both.

    Attributes:
        move: the seconds each move may take, or ``None`` for no bound per move.
        game: the seconds each seat has for the whole game (its clock), or
            ``None`` for no clock.
        increment: the seconds added to a seat's clock after each of its
            moves (only with ``game``).

    With both ``move`` and ``game``, a move may take the smaller of ``move``
    and what is left on the seat's clock.

    >>> TimeControl(move=0.5)
    TimeControl(move=0.5, game=None, increment=0.0)
    >>> TimeControl(game=60, increment=1).budget(30.5)
    30.5
    >>> TimeControl(increment=1.0)
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: TimeControl.increment needs a clock (game=...)

    Raises:
        InvalidArgumentError: for a time that is not a positive finite
            number (a non-negative one for ``increment``), or an increment
            without a clock.
    """

    move: float | None = None
    game: float | None = None
    increment: float = 0.0

    def __attrs_post_init__(self) -> None:
        _check_seconds("move", self.move, zero=False)
        _check_seconds("game", self.game, zero=False)
        _check_seconds("increment", self.increment, zero=True)
        if self.increment and self.game is None:
            raise InvalidArgumentError("TimeControl.increment needs a clock (game=...)")

    def budget(self, remaining: float | None) -> float | None:
        """The seconds the next move may take, given what is left on the mover's clock.

        Args:
            remaining: the seconds left on the mover's clock, or ``None``
                without a clock.

        Returns:
            The bound on the move, or ``None`` when there is none.
        """
        bounds = [b for b in (self.move, remaining) if b is not None]
        return min(bounds) if bounds else None


@attrs.frozen
class Table:
    """One game of a schedule: who sits where, and the seed of the deal.

    Attributes:
        seats: the entrant at each seat, seat 0 moving first.
        seed: the seed of the deal (and of the bots' generators).
    """

    seats: tuple[str, ...]
    seed: int


def fair_schedule(
    entrants: Sequence[str], players: int, deals: int, seed: int
) -> tuple[Table, ...]:
    """The games of a fair round robin: every deal with the seats rotated.

    Every combination of ``players`` entrants (in the order of ``entrants``)
    plays ``deals`` deals, and each deal is played ``players`` times, the
    seats rotated by one each time: with 2 players both orders, with 3 or 4
    every entrant of the table once in every seat. The deal ``d`` of the
    ``t``-th combination has the seed ``game_seed(seed, t * TABLE_DEALS + d)``
    (see :func:`splendor.arena.runs.game_seed`), so the same arguments always
    give the same schedule.

    Args:
        entrants: the entrants' names, distinct, at least ``players`` of them.
        players: players per game, 2 to 4.
        deals: the deals each combination plays, at least 1.
        seed: the schedule's seed.

    Returns:
        The tables, combination by combination, deal by deal, rotation by
        rotation: ``comb(len(entrants), players) * deals * players`` of them.

    Raises:
        InvalidArgumentError: for entrants that are not distinct strings or
            too few, or numbers out of range.

    >>> tables = fair_schedule(["a", "b", "c"], players=3, deals=1, seed=4)
    >>> [table.seats for table in tables]
    [('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')]
    >>> len({table.seed for table in tables})
    1
    """
    if isinstance(entrants, str) or not isinstance(entrants, Sequence):
        raise InvalidArgumentError(
            f"entrants must be a sequence of names, got {short_repr(entrants)}"
        )
    names = tuple(entrants)
    if not all(type(name) is str for name in names) or len(set(names)) != len(names):
        raise InvalidArgumentError(f"entrants must be distinct str names, got {short_repr(names)}")
    check_players(players)
    if len(names) < players:
        raise InvalidArgumentError(
            f"{players}-player games need at least {players} entrants, got {len(names)}"
        )
    if type(deals) is not int or not 1 <= deals < TABLE_DEALS:
        raise InvalidArgumentError(
            f"deals must be an int from 1 to {TABLE_DEALS - 1}, got {short_repr(deals)}"
        )
    if type(seed) is not int:
        raise InvalidArgumentError(f"seed must be an int, got {short_repr(seed)}")
    tables = []
    for index, chosen in enumerate(itertools.combinations(names, players)):
        for deal in range(deals):
            dealt = game_seed(seed, index * TABLE_DEALS + deal)
            for shift in range(players):
                tables.append(Table(chosen[shift:] + chosen[:shift], dealt))
    return tuple(tables)


def referee_game(
    bots: Sequence[Bot],
    *,
    seed: int,
    names: Sequence[str] | None = None,
    time_control: TimeControl | None = None,
    rules: Rules | None = None,
    max_turns: int | None = None,
) -> GameRecord:
    """Play one seeded game under a time control, turning a bot's failure into a forfeit.

    The game is the one :func:`splendor.play_game` plays with the same bots,
    seed and rules, until a bot fails: each seat gets its view, the legal
    actions and its own generator seeded from ``seed`` and the seat.

    A bot forfeits (see :class:`~splendor.formats.record.Forfeit`) when it

    - raises an exception: ``"crash"`` (an engine's
      :class:`~splendor.errors.EngineError` gives its own
      :attr:`~splendor.errors.EngineError.reason`);
    - returns something that is not a legal action: ``"illegal-move"``;
    - takes longer than the time control allows: ``"timeout"``. The bound on
      a move is :meth:`TimeControl.budget`: the move's time, or what is left
      on the seat's clock, whichever is less; each move's time is taken off
      the clock and the increment added.

    Args:
        bots: one bot per seat, 2 to 4 of them; seat 0 moves first.
        seed: the seed of the deal and of the bots' generators.
        names: a name per seat, for the record and for a forfeit's message;
            the bots' own names by default.
        time_control: the time control; ``None`` for no bound.
        rules: the rules to play under; the published rules by default.
        max_turns: the turns after which an unfinished game stops with no
            result; ``None`` for :data:`~splendor.players.bots.DEFAULT_MAX_TURNS`.

    Returns:
        The game's record: its result is the winners, every seat but the
        forfeiting one after a forfeit (:attr:`~splendor.GameRecord.forfeit`),
        or ``None`` when the game stopped at ``max_turns``.

    An engine in another process (:class:`~splendor.remote.Engine`) plays
    through :meth:`~splendor.remote.Engine.play` with a
    :class:`~splendor.remote.Limit` built from the time control (or its own
    :attr:`~splendor.remote.Engine.limit` without one); its
    :class:`~splendor.errors.EngineError` gives the forfeit's reason, and a
    forfeiting engine's process is ended.

    Raises:
        InvalidArgumentError: for a bad table, names, seed, time control,
            rules or ``max_turns`` (before any move is played).
    """
    table = check_table(bots)
    for bot in table:
        if not callable(bot):
            raise InvalidArgumentError(f"a bot must be callable, got {short_repr(bot)}")
    if max_turns is None:
        max_turns = DEFAULT_MAX_TURNS
    if type(max_turns) is not int or max_turns < 0:
        raise InvalidArgumentError(
            f"max_turns must be a non-negative int or None, got {short_repr(max_turns)}"
        )
    if time_control is not None and not isinstance(time_control, TimeControl):
        raise InvalidArgumentError(
            f"time_control must be a TimeControl or None, got {short_repr(time_control)}"
        )
    control = time_control or TimeControl()
    seat_names = table_names(table, names)
    record = GameRecord.start(len(table), seed=seed, rules=rules, names=seat_names)
    rngs = bot_rngs(seed, len(table))
    clocks: list[float | None] = [control.game] * len(table)
    for _ in range(max_turns):
        state = record.final_state()
        if state.is_over:
            break
        seat = state.current_player
        actions = legal_actions(state)
        budget = control.budget(clocks[seat])
        bot = table[seat]
        engine = bot if isinstance(bot, Engine) else None
        try:
            answer = ask_bot(
                bot,
                state,
                actions,
                rngs[seat],
                name=seat_names[seat],
                limit=None if engine is None else _limit(engine, control, clocks, budget),
                clock=_now,
            )
        except BotFailedError as error:
            # A forfeiting engine's process is ended (an EngineError has ended it already).
            if engine is not None and not isinstance(error.__cause__, EngineError):
                close_bot(engine)
            return record.forfeited(seat, error.reason, error.detail)
        grace = 0.0 if engine is None else engine.grace
        if budget is not None and answer.seconds > budget + grace:
            if engine is not None:
                close_bot(engine)
            return record.forfeited(
                seat,
                "timeout",
                f"the move took {answer.seconds:.3f} s; the bound was {budget:.3f} s",
            )
        remaining = clocks[seat]
        if remaining is not None:
            clocks[seat] = max(remaining - answer.seconds, 0.0) + control.increment
        record = record.append(answer.action)
    return record


def _limit(
    engine: Engine, control: TimeControl, clocks: Sequence[float | None], budget: float | None
) -> Limit:
    """The limit of an engine's move: the move's time and the clocks, or its own limit."""
    if control.move is None and control.game is None:
        return engine.limit
    clock = None
    if control.game is not None:
        clock = Clock(tuple(c or 0.0 for c in clocks), control.increment)
    # With a clock only, the host reads the mover's time from it.
    return Limit(time=budget if control.move is not None else None, clock=clock)
