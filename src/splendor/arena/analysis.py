"""Game analysis: every position of a game evaluated, every move judged.

:func:`analyse_game` replays a :class:`~splendor.formats.record.GameRecord`
and asks an analyser, at each position, for the mover's best move and each
seat's chance of winning. An analyser sees only the view of the seat to
move, never a hidden card: the evaluation of a position is the evaluation
of that view. Any of these analyses:

- a bot with an ``analyse(view, actions, rng)`` method, such as
  :class:`~splendor.players.ismcts.ISMCTSBot` (the default of ``splendor
  analyse``), through :class:`BotAnalyser`;
- a bot engine in another process (:class:`splendor.remote.Engine`) whose
  ``info`` lines give each seat's chance of winning, through
  :class:`EngineAnalyser` (``splendor engine`` serves any bot with an
  ``analyse`` method that way);
- any object with an ``evaluate(view, actions)`` method returning an
  :class:`Evaluation` (the :class:`Analyser` protocol).

Each move is then judged by the chance of winning its mover lost, both
chances estimated from the mover's view at the position the move was
played from: before the move, the chance with the analyser's best move;
after it, the chance with the move played (the analyser searches that move
alone, as UCI's ``searchmoves`` does; when the move ends the game, the
result). Comparing two estimates from one view cancels what an analyser
thinks of the seat it searches for. A move that is the analyser's best
move is never judged; any other is an inaccuracy, a mistake or a blunder
from the :class:`Thresholds` up (by default 0.05, 0.10 and 0.20 of a win).

The result, a :class:`GameAnalysis`, is a text report (:meth:`GameAnalysis.format`),
an SVG chart of the chances of winning (:meth:`GameAnalysis.render_svg`, which
Jupyter shows by itself) and the annotations of the record.

>>> import splendor
>>> from splendor.arena.analysis import analyse_game
>>> from splendor.players.ismcts import ISMCTSBot
>>> record = splendor.GameRecord.start(2, seed=1)
>>> for _ in range(4):
...     state = record.final_state()
...     record = record.append(splendor.legal_actions(state)[0])
>>> analysis = analyse_game(record, ISMCTSBot(iterations=30, seed=1))
>>> len(analysis.moves), len(analysis.positions)
(4, 5)
>>> round(sum(analysis.positions[0]), 9)
1.0
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol, runtime_checkable

import attrs

from splendor.core.actions import Action
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.state import GameState
from splendor.core.views import PlayerView, view
from splendor.draw.charts import Mark, MarkStyle, Series, line_chart
from splendor.errors import InvalidArgumentError
from splendor.formats.notation import format_action, format_line
from splendor.formats.record import JUDGEMENTS, Annotation, GameRecord
from splendor.formats.xml import escape
from splendor.players.ismcts import SearchResult
from splendor.remote.host import Engine
from splendor.remote.messages import Limit

__all__ = [
    "Analyser",
    "BotAnalyser",
    "EngineAnalyser",
    "Evaluation",
    "GameAnalysis",
    "MoveAnalysis",
    "SupportsAnalyse",
    "Thresholds",
    "analyse_game",
    "analyser_for",
]

# How far an analyser's chances of winning may sum from 1 before they are refused
# (an engine rounds what it prints); within it they are scaled to sum to 1.
_SUM_TOLERANCE: Final = 0.01


def _check_threshold(instance: Thresholds, attribute: attrs.Attribute[float], value: float) -> None:
    if type(value) not in (int, float) or not 0.0 < value <= 1.0:
        raise InvalidArgumentError(
            f"Thresholds.{attribute.name} must be a number above 0 and at most 1, "
            f"got {short_repr(value)}"
        )


@attrs.frozen
class Thresholds:
    """The losses of the mover's chance of winning that make a move a mistake.

    A loss is a fraction of a win: 0.20 is twenty percentage points. The
    defaults follow what chess sites use on their win-percentage scale.

    Attributes:
        inaccuracy: the least loss of an inaccuracy (0.05 by default).
        mistake: the least loss of a mistake (0.10 by default).
        blunder: the least loss of a blunder (0.20 by default).

    Raises:
        InvalidArgumentError: for a threshold that is not a number in
            ``(0, 1]``, or thresholds out of order.

    >>> Thresholds().judge(0.12)
    'mistake'
    >>> Thresholds().judge(0.01) is None
    True
    """

    inaccuracy: float = attrs.field(default=0.05, validator=_check_threshold)
    mistake: float = attrs.field(default=0.10, validator=_check_threshold)
    blunder: float = attrs.field(default=0.20, validator=_check_threshold)

    def __attrs_post_init__(self) -> None:
        if not self.inaccuracy <= self.mistake <= self.blunder:
            raise InvalidArgumentError(
                "the thresholds must satisfy inaccuracy <= mistake <= blunder, got "
                f"{self.inaccuracy}, {self.mistake}, {self.blunder}"
            )

    def judge(self, loss: float) -> str | None:
        """The judgement of a move that lost ``loss`` of a win: one of
        :data:`~splendor.formats.record.JUDGEMENTS`, or None below every threshold."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


@attrs.frozen
class Evaluation:
    """One position, evaluated from the view of the seat to move.

    Attributes:
        best: the move the analyser prefers, one of the legal actions.
        win: each seat's chance of winning, in seat order, summing to 1.
        pv: the principal variation in the action notation: ``best`` and
            the replies the analyser expects, as far as it says (may be empty).
        nodes: how much the analyser searched (iterations or nodes), if it says.
    """

    best: Action
    win: tuple[float, ...]
    pv: tuple[str, ...] = ()
    nodes: int | None = None


@runtime_checkable
class Analyser(Protocol):
    """What evaluates positions for :func:`analyse_game`.

    ``name`` says who analysed, for the report; :meth:`evaluate` sees the
    view of the seat to move and the actions to search, nothing else: the
    legal actions, or one of them when :func:`analyse_game` asks for the
    chances after the move played (the best move among ``actions`` is then
    that move).
    """

    @property
    def name(self) -> str:
        """Who analyses, as the report names it."""
        ...

    def evaluate(self, view: PlayerView, actions: Sequence[Action], /) -> Evaluation:
        """The best move and each seat's chance of winning from ``view``."""
        ...


@runtime_checkable
class SupportsAnalyse(Protocol):
    """A bot that can say what its search found (as :meth:`ISMCTSBot.analyse
    <splendor.players.ismcts.ISMCTSBot.analyse>` does)."""

    def analyse(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> SearchResult:
        """Search from ``view`` and return the move, the chances of winning and the line."""
        ...


class BotAnalyser:
    """An :class:`Analyser` made of a bot with an ``analyse`` method, run in this process.

    Args:
        bot: the bot, for instance an :class:`~splendor.players.ismcts.ISMCTSBot`.
        seed: the seed of the generator the bot is given at each position
            (with the turn), so an analysis is reproducible when the bot's
            budget is in iterations.

    >>> from splendor.players.ismcts import ISMCTSBot
    >>> BotAnalyser(ISMCTSBot(iterations=50, seed=1)).name
    'ISMCTSBot(iterations=50, seed=1)'
    """

    def __init__(self, bot: SupportsAnalyse, *, seed: int = 0) -> None:
        if not isinstance(bot, SupportsAnalyse):
            raise InvalidArgumentError(
                f"{short_repr(bot)} cannot analyse: it has no analyse method"
            )
        if type(seed) is not int:
            raise InvalidArgumentError(f"seed must be an int, got {short_repr(seed)}")
        self.bot = bot
        self.seed = seed

    @property
    def name(self) -> str:
        """The bot's repr."""
        return repr(self.bot)

    def evaluate(self, view: PlayerView, actions: Sequence[Action], /) -> Evaluation:
        """Run the bot's search from ``view`` and return what it found.

        Raises:
            InvalidArgumentError: when the bot's answer is not a move among
                ``actions`` with a chance of winning for each seat summing to 1.
        """
        rng = random.Random(f"analyse:{self.seed}:{view.turn}")
        found = self.bot.analyse(view, actions, rng)
        if not isinstance(found, SearchResult):
            raise InvalidArgumentError(
                f"{self.name}.analyse returned {type(found).__name__}, not a SearchResult"
            )
        if found.action not in actions:
            raise InvalidArgumentError(
                f"{self.name} chose {short_repr(found.action)}, not a legal action"
            )
        win = _checked_win(found.win, len(view.players), self.name)
        return Evaluation(found.action, win, format_line(found.pv, view), found.nodes)


class EngineAnalyser:
    """An :class:`Analyser` made of a bot engine in another process, over the bot protocol.

    Each position is sent to the engine (its view and the actions to search,
    nothing hidden) with ``go`` and ``limit``; the engine's best move and its
    last ``info`` line with ``win`` make the evaluation. The engine stays
    open: close it when the analysis is done.

    Args:
        engine: the engine, from :func:`splendor.remote.open_engine` (or an
            ``engine:`` bot spec).
        limit: how long it may search each position; the engine's own
            :attr:`~splendor.remote.Engine.limit` by default.
    """

    def __init__(self, engine: Engine, limit: Limit | None = None) -> None:
        if not isinstance(engine, Engine):
            raise InvalidArgumentError(
                f"engine must be a splendor.remote.Engine, got {short_repr(engine)}"
            )
        if limit is not None and not isinstance(limit, Limit):
            raise InvalidArgumentError(
                f"limit must be a splendor.remote.Limit, got {short_repr(limit)}"
            )
        self.engine = engine
        self.limit = limit

    @property
    def name(self) -> str:
        """The engine's name, and its version when it gives one."""
        engine_id = self.engine.id
        return f"{engine_id.name} {engine_id.version}".strip()

    def evaluate(self, view: PlayerView, actions: Sequence[Action], /) -> Evaluation:
        """The engine's analysis of ``view`` among ``actions``.

        Raises:
            InvalidArgumentError: when the engine sends no chances of winning
                (no ``info`` line with ``win``): it cannot analyse.
            EngineError: when the engine fails (see :meth:`splendor.remote.Engine.play`).
        """
        found = self.engine.analyse(view, self.limit, actions=actions)
        for info in reversed(found.info):
            if info.win is not None:
                return Evaluation(found.best, info.win, info.pv, info.nodes)
        raise InvalidArgumentError(
            f"engine {self.name} sent no chances of winning (no info line with win): "
            "it cannot analyse"
        )


def analyser_for(
    source: Analyser | SupportsAnalyse | Engine,
    *,
    seed: int = 0,
    limit: Limit | None = None,
) -> Analyser:
    """The analyser of ``source``: itself if it is an :class:`Analyser`, an
    :class:`EngineAnalyser` of an engine (searching each position within
    ``limit``), or a :class:`BotAnalyser` of a bot (seeded with ``seed``).

    Raises:
        InvalidArgumentError: for anything that can neither evaluate nor analyse.

    >>> analyser_for(print)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: <built-in function print> cannot analyse: ...
    """
    if isinstance(source, Engine):
        return EngineAnalyser(source, limit)
    if isinstance(source, Analyser):
        return source
    if isinstance(source, SupportsAnalyse):
        return BotAnalyser(source, seed=seed)
    raise InvalidArgumentError(
        f"{short_repr(source)} cannot analyse: it has neither an evaluate(view, actions) method "
        "nor an analyse(view, actions, rng) method"
    )


def _checked_win(win: object, players: int, who: str) -> tuple[float, ...]:
    """``win`` as one probability per seat summing to 1, or the library's error."""
    if (
        not isinstance(win, tuple | list)
        or len(win) != players
        or not all(type(p) in (int, float) and math.isfinite(p) and 0.0 <= p <= 1.0 for p in win)
    ):
        raise InvalidArgumentError(
            f"{who} gave chances of winning {short_repr(win)}: it must give one "
            "probability per seat "
            f"({players})"
        )
    total = float(sum(win))
    if abs(total - 1.0) > _SUM_TOLERANCE:
        raise InvalidArgumentError(
            f"{who} gave chances of winning {short_repr(win)} that sum to {total:g}, not 1"
        )
    return tuple(float(p) / total for p in win)


def _drop(before: tuple[float, ...], after: tuple[float, ...], seat: int) -> float:
    """How much ``seat``'s chance fell from ``before`` to ``after``, 0 if it rose.

    Rounded to 9 decimals, so that a fall of 0.1 given in decimals meets a
    threshold of 0.1 whatever the binary rounding.
    """
    return max(0.0, round(before[seat] - after[seat], 9))


@attrs.frozen
class MoveAnalysis:
    """One move of an analysed game.

    Attributes:
        turn: the move's index in the record, from 0 (the report counts from 1).
        seat: the seat that played it.
        action: the move played.
        played: the move played, in the action notation.
        best: the analyser's best move in that position, in the notation.
        win_before: each seat's chance of winning before the move: the
            evaluation of the position from the mover's view, with the best move.
        win_after: each seat's chance of winning after the move played, from
            the same view (the result when the move ends the game).
        pv: the line the analyser expected, in the notation.
        judgement: ``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None.
    """

    turn: int
    seat: int
    action: Action
    played: str
    best: str
    win_before: tuple[float, ...]
    win_after: tuple[float, ...]
    pv: tuple[str, ...]
    judgement: str | None

    @property
    def loss(self) -> float:
        """The mover's chance of winning that the move lost: 0 for the best move."""
        if self.is_best:
            return 0.0
        return _drop(self.win_before, self.win_after, self.seat)

    @property
    def is_best(self) -> bool:
        """Whether the move played is the analyser's best move."""
        return self.played == self.best

    @property
    def comment(self) -> str:
        """A sentence on the move for a judged one (the loss and the best move), else ``""``."""
        if self.judgement is None:
            return ""
        return (
            f"{self.judgement}: lost {100 * self.loss:.0f}% of a win; "
            f"best was {self.best} ({100 * self.win_before[self.seat]:.0f}%)"
        )


@attrs.frozen
class GameAnalysis:
    """A game analysed position by position: see :func:`analyse_game`.

    Attributes:
        record: the game.
        analyser: who analysed it (:attr:`Analyser.name`).
        thresholds: the thresholds the moves were judged by.
        positions: each seat's chance of winning at each position, from the
            deal to the last (one more than the moves), as the seat to move
            there sees it; the result once the game is over.
        moves: each move analysed.
    """

    record: GameRecord
    analyser: str
    thresholds: Thresholds
    positions: tuple[tuple[float, ...], ...]
    moves: tuple[MoveAnalysis, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names: the record's, else ``Player 0``, ``Player 1``..."""
        if self.record.names:
            return self.record.names
        return tuple(f"Player {seat}" for seat in range(self.record.players))

    def counts(self, seat: int) -> dict[str, int]:
        """How many moves of ``seat`` got each judgement (a key for each judgement)."""
        found: dict[str, int] = dict.fromkeys(JUDGEMENTS, 0)
        for move in self.moves:
            if move.seat == seat and move.judgement is not None:
                found[move.judgement] += 1
        return found

    def mean_loss(self, seat: int) -> float:
        """The mean chance of winning ``seat`` lost a move (0 for a seat that did not move)."""
        losses = [move.loss for move in self.moves if move.seat == seat]
        return sum(losses) / len(losses) if losses else 0.0

    def format(self) -> str:
        """The analysis as plain text: every move, then a summary per seat."""
        record = self.record
        names = self.names
        t = self.thresholds
        width = max(len("player"), *(len(name) for name in names))
        notation = max(len("played"), *(len(m.played) for m in self.moves), 4)
        best = max(len("best"), *(len(m.best) for m in self.moves), 4)
        lines = [
            f"Analysis by {self.analyser}: {record.players} players, seed {record.seed}, "
            f"{len(self.moves)} moves",
            "Judged by the chance of winning the mover lost: "
            f"inaccuracy >= {t.inaccuracy:.2f}, mistake >= {t.mistake:.2f}, "
            f"blunder >= {t.blunder:.2f}",
            "",
            f"move  {'player':<{width}}  {'played':<{notation}}  {'best':<{best}}  "
            "before   after    lost",
        ]
        for m in self.moves:
            lost = "-" if m.is_best else f"{100 * m.loss:.1f}%"
            line = (
                f"{m.turn + 1:>4}  {names[m.seat]:<{width}}  {m.played:<{notation}}  "
                f"{m.best:<{best}}  {100 * m.win_before[m.seat]:5.1f}%  "
                f"{100 * m.win_after[m.seat]:5.1f}%  {lost:>6}"
            )
            if m.judgement is not None:
                line += f"  {m.judgement}"
            lines.append(line.rstrip())
        lines.append("")
        lines.append(f"{'player':<{width}}  inaccuracies  mistakes  blunders  mean loss  result")
        final = self.positions[-1]
        for seat, name in enumerate(names):
            c = self.counts(seat)
            if record.result is None:
                result = f"{100 * final[seat]:.0f}% (unfinished)"
            else:
                result = "won" if seat in record.result else "lost"
            lines.append(
                f"{name:<{width}}  {c['inaccuracy']:>12}  {c['mistake']:>8}  "
                f"{c['blunder']:>8}  {100 * self.mean_loss(seat):8.1f}%  {result}"
            )
        return "\n".join(lines)

    def render_svg(self) -> str:
        """A chart of each seat's chance of winning over the moves, as an SVG document.

        Each seat is a line from the deal to the end; a move judged an
        inaccuracy, a mistake or a blunder is marked on its mover's line
        where the move left it, with a tooltip naming the move.
        """
        return _chart(self)

    def annotations(self) -> tuple[Annotation, ...]:
        """An :class:`~splendor.formats.record.Annotation` of each move, in order."""
        return tuple(
            Annotation(m.win_before, m.win_after, m.best, m.judgement, m.comment)
            for m in self.moves
        )

    def annotated_record(self) -> GameRecord:
        """The record with the annotations of its moves, as ``splendor.to_json`` writes it."""
        return self.record.annotated(self.annotations())

    def _repr_svg_(self) -> str:
        """The chart, for Jupyter."""
        return self.render_svg()

    def _repr_html_(self) -> str:
        """The chart and the judged moves, for Jupyter."""
        judged = [m for m in self.moves if m.judgement is not None]
        rows = "".join(
            f"<tr><td>{m.turn + 1}</td><td>{escape(self.names[m.seat])}</td>"
            f"<td><code>{escape(m.played)}</code></td><td><code>{escape(m.best)}</code></td>"
            f"<td>{100 * m.loss:.1f}%</td><td>{m.judgement}</td></tr>"
            for m in judged
        )
        table = (
            "<table><thead><tr><th>move</th><th>player</th><th>played</th><th>best</th>"
            f"<th>lost</th><th>judgement</th></tr></thead><tbody>{rows}</tbody></table>"
            if judged
            else "<p>No inaccuracy, mistake or blunder.</p>"
        )
        return f"<div>{self.render_svg()}{table}</div>"


def analyse_game(
    record: GameRecord,
    analyser: Analyser | SupportsAnalyse | Engine,
    *,
    thresholds: Thresholds | None = None,
    seed: int = 0,
    limit: Limit | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Evaluate every position of ``record`` and judge every move.

    Args:
        record: the game: a finished game, or one stopped part way.
        analyser: an :class:`Analyser`, a bot with an ``analyse`` method,
            or a :class:`splendor.remote.Engine` (see :func:`analyser_for`).
        thresholds: the thresholds of the judgements (:class:`Thresholds`
            by default).
        seed: the seed a bot analyser's generator is made from.
        limit: how long an engine may search each position (its own limit
            by default).
        progress: called with (positions done, positions in all) after each
            position evaluated.

    Returns:
        The analysis. Positions the game is over in are not evaluated: the
        chances of winning there are the result (1 for the winner, shared
        on a tie).

    Raises:
        InvalidArgumentError: for an analyser that cannot analyse or gives
            an answer that is not valid, or bad thresholds.
        IllegalActionError: when the record does not replay.
        EngineError: when an engine analyser fails.
    """
    if not isinstance(record, GameRecord):
        raise InvalidArgumentError(f"analyse_game needs a GameRecord, got {short_repr(record)}")
    if thresholds is None:
        thresholds = Thresholds()
    elif not isinstance(thresholds, Thresholds):
        raise InvalidArgumentError(f"thresholds must be Thresholds, got {short_repr(thresholds)}")
    evaluate = analyser_for(analyser, seed=seed, limit=limit)
    states = record.replay()
    players = record.players
    wins: list[tuple[float, ...]] = []
    moves: list[MoveAnalysis] = []
    for index, state in enumerate(states):
        if state.is_over:
            wins.append(_result(state, players))
        else:
            seen = view(state, state.current_player)
            found = _evaluate(evaluate, seen, legal_actions(seen), index, players)
            wins.append(found.win)
            if index < len(record.actions):
                action = record.actions[index]
                after = states[index + 1]
                if action == found.best:
                    win_after = found.win
                elif after.is_over:
                    win_after = _result(after, players)
                else:
                    win_after = _evaluate(evaluate, seen, (action,), index, players).win
                seat = state.current_player
                loss = 0.0 if action == found.best else _drop(found.win, win_after, seat)
                moves.append(
                    MoveAnalysis(
                        index,
                        seat,
                        action,
                        format_action(action, state),
                        format_action(found.best, state),
                        found.win,
                        win_after,
                        found.pv,
                        thresholds.judge(loss) if loss else None,
                    )
                )
        if progress is not None:
            progress(index + 1, len(states))
    return GameAnalysis(record, evaluate.name, thresholds, tuple(wins), tuple(moves))


def _result(state: GameState, players: int) -> tuple[float, ...]:
    """Each seat's share of the win in a finished game: 1 for the winner, shared on a tie."""
    share = 1.0 / len(state.winners)
    return tuple(share if seat in state.winners else 0.0 for seat in range(players))


def _evaluate(
    analyser: Analyser,
    seen: PlayerView,
    actions: Sequence[Action],
    index: int,
    players: int,
) -> Evaluation:
    """``analyser``'s evaluation of ``seen`` among ``actions``, checked."""
    found = analyser.evaluate(seen, actions)
    if not isinstance(found, Evaluation):
        raise InvalidArgumentError(
            f"{analyser.name} gave {type(found).__name__} on turn {index + 1}, not an Evaluation"
        )
    if found.best not in actions:
        raise InvalidArgumentError(
            f"{analyser.name} chose {short_repr(found.best)} on turn {index + 1}: not a "
            "legal action"
        )
    return attrs.evolve(found, win=_checked_win(found.win, players, analyser.name))


# The colours of the seats' lines, and the marks of the judgements (fill and radius),
# in the legend in the order of JUDGEMENTS.
_SEAT_COLOURS: Final = ("#3366cc", "#2a9d55", "#8e44ad", "#8d6e3f")
_MARK_LOOKS: Final = {
    "blunder": ("#d62728", 6),
    "mistake": ("#ff8c00", 5),
    "inaccuracy": ("#f2c500", 4),
}
_MARKS: Final = tuple(MarkStyle(name, *_MARK_LOOKS[name]) for name in JUDGEMENTS)


def _chart(analysis: GameAnalysis) -> str:
    """The chart of :meth:`GameAnalysis.render_svg`."""
    names = analysis.names
    positions = analysis.positions
    record = analysis.record
    return line_chart(
        [
            Series(name, tuple(win[seat] for win in positions), _SEAT_COLOURS[seat])
            for seat, name in enumerate(names)
        ],
        title=f"Chances of winning, move by move ({record.players} players, seed {record.seed})",
        x_label="moves played",
        styles=_MARKS,
        marks=[
            Mark(
                m.seat,
                m.turn + 1,
                m.judgement,
                f"{m.turn + 1}. {names[m.seat]} {m.played}: {m.comment}",
            )
            for m in analysis.moves
            if m.judgement is not None
        ],
        series_name="seat",
        step_name="move",
    )
