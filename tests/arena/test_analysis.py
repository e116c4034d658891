"""Game analysis: evaluations from the mover's view, judgements, the report and the chart."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from functools import cache

import pytest

import splendor
from splendor import (
    GameRecord,
    GreedyBot,
    InvalidArgumentError,
    Pass,
    Take,
    apply,
    legal_actions,
    view,
)
from splendor.arena.analysis import (
    Analyser,
    BotAnalyser,
    EngineAnalyser,
    Evaluation,
    GameAnalysis,
    Thresholds,
    analyse_game,
    analyser_for,
)
from splendor.core.actions import Action
from splendor.core.views import PlayerView
from splendor.formats.notation import format_action
from splendor.formats.record import JUDGEMENTS
from splendor.players.ismcts import ISMCTSBot
from splendor.remote import Limit, open_engine
from tests.remote._engines import environment, gone, served

SVG = "{http://www.w3.org/2000/svg}"


def _greedy_record(seed: int, moves: int) -> GameRecord:
    """The first ``moves`` moves of a game between greedy bots."""
    record = GameRecord.start(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = record.final_state()
        seat = state.current_player
        record = record.append(GreedyBot()(view(state, seat), legal_actions(state), rng))
    return record


@cache
def _thrown_away() -> GameRecord:
    """A game whose last move throws a win away.

    Seat 0 has reached 15 points; seat 1, last to move in the round, can buy
    a card that wins the game on more points, and takes gems instead: the
    round ends and seat 0 wins.
    """
    record = _greedy_record(50, 55)
    state = record.final_state()
    assert state.current_player == 1
    assert state.players[0].points >= 15
    actions = legal_actions(state)
    assert any(apply(state, a).winners == (1,) for a in actions)
    take = next(a for a in actions if type(a) is Take)
    record = record.append(take)
    assert record.result == (0,)
    return record


@cache
def _thrown_away_analysis() -> GameAnalysis:
    return analyse_game(_thrown_away(), ISMCTSBot(iterations=50, seed=1))


def test_a_move_that_throws_a_win_away_is_a_blunder() -> None:
    analysis = _thrown_away_analysis()
    last = analysis.moves[-1]
    assert last.seat == 1
    # Every move there ends the game: the search knows the winning buy wins.
    assert last.win_before == (0.0, 1.0)
    assert last.win_after == (1.0, 0.0)  # the result
    assert last.loss == 1.0
    assert last.judgement == "blunder"
    state = analysis.record.state_at(-2)
    winning = {
        format_action(a, state) for a in legal_actions(state) if apply(state, a).winners == (1,)
    }
    assert last.best in winning
    assert last.played not in winning
    assert "blunder: lost 100% of a win; best was b" in last.comment
    assert analysis.counts(1)["blunder"] >= 1


def test_every_position_has_each_seats_chances_and_the_end_is_the_result() -> None:
    analysis = _thrown_away_analysis()
    record = analysis.record
    assert len(analysis.positions) == len(record.actions) + 1
    assert len(analysis.moves) == len(record.actions)
    for win in analysis.positions:
        assert len(win) == 2
        assert sum(win) == pytest.approx(1.0)
        assert all(0.0 <= p <= 1.0 for p in win)
    assert analysis.positions[-1] == (1.0, 0.0)
    for index, move in enumerate(analysis.moves):
        assert move.turn == index
        assert move.action == record.actions[index]
        assert move.win_before == analysis.positions[index]
        assert sum(move.win_after) == pytest.approx(1.0)
        if move.is_best:
            assert move.win_after == move.win_before
        assert move.seat == record.state_at(index).current_player


def test_the_same_seeded_analyser_gives_the_same_analysis() -> None:
    record = _greedy_record(4, 10)
    one = analyse_game(record, ISMCTSBot(iterations=30, seed=2))
    two = analyse_game(record, ISMCTSBot(iterations=30, seed=2))
    assert one == two


class Scripted:
    """An analyser with seat 0's chances given per turn, before the move and after
    the move played (a search of one action); its best move is the first it is given."""

    name = "scripted"

    def __init__(self, before: Sequence[float], after: Sequence[float] | None = None) -> None:
        self.before = before
        self.after = before if after is None else after
        self.calls: list[tuple[PlayerView, int]] = []

    def evaluate(self, seen: PlayerView, actions: Sequence[Action], /) -> Evaluation:
        self.calls.append((seen, len(actions)))
        p = (self.before if len(actions) > 1 else self.after)[seen.turn]
        return Evaluation(actions[0], (p, 1.0 - p), ("x",), 7)


def _not_first_moves(seed: int, moves: int) -> GameRecord:
    """A record whose moves are never the first legal action."""
    record = GameRecord.start(2, seed=seed)
    for _ in range(moves):
        actions = legal_actions(record.final_state())
        record = record.append(actions[-1])
    return record


def test_moves_are_judged_by_the_mover_s_lost_chance_against_the_thresholds() -> None:
    record = _not_first_moves(1, 5)
    # Seat 0 moves at 0, 2, 4; seat 1 at 1, 3. Seat 0's chances before and after each move:
    # (the last position, after the last move, is evaluated too: 0.5)
    before = [0.60, 0.56, 0.66, 0.70, 1.0, 0.5]
    after = [0.56, 0.66, 0.70, 1.0, 1.0]
    scripted = Scripted(before, after)
    analysis = analyse_game(record, scripted)
    assert analysis.analyser == "scripted"
    # Seat 0: 0.60 -> 0.56, 0.66 -> 0.70 (a gain), 1.0 -> 1.0; seat 1: 0.44 -> 0.34, 0.30 -> 0.
    losses = [round(m.loss, 9) for m in analysis.moves]
    assert losses == [0.04, 0.1, 0.0, 0.3, 0.0]
    assert [m.judgement for m in analysis.moves] == [None, "mistake", None, "blunder", None]
    assert [m.win_before[0] for m in analysis.moves] == before[:5]
    assert [p[0] for p in analysis.positions] == before
    assert [m.win_after[0] for m in analysis.moves] == after
    assert [m.pv for m in analysis.moves] == [("x",)] * 5
    tight = analyse_game(record, Scripted(before, after), thresholds=Thresholds(0.03, 0.2, 0.5))
    assert [m.judgement for m in tight.moves] == [
        "inaccuracy",
        "inaccuracy",
        None,
        "mistake",
        None,
    ]
    assert tight.counts(1) == {"blunder": 0, "mistake": 1, "inaccuracy": 1}
    assert tight.mean_loss(1) == pytest.approx(0.2)
    # The analyser saw each position from the view of the seat to move, nothing
    # more: once with every legal action, then with the move played alone.
    states = record.replay()
    assert len(scripted.calls) == 2 * len(record.actions) + 1
    for k, (seen, searched) in enumerate(scripted.calls):
        state = states[k // 2]
        assert seen == view(state, state.current_player)
        assert searched == (len(legal_actions(state)) if k % 2 == 0 else 1)
    # The unfinished game's summary gives each seat's chance at the last position.
    assert analysis.format().splitlines()[-1].endswith("50% (unfinished)")


def test_the_best_move_is_never_judged() -> None:
    record = GameRecord.start(2, seed=1)
    for _ in range(3):
        record = record.append(legal_actions(record.final_state())[0])
    scripted = Scripted([0.9, 0.1, 0.9, 0.1], [0.0, 1.0, 0.0, 1.0])
    analysis = analyse_game(record, scripted)
    assert all(m.is_best and m.judgement is None and m.loss == 0.0 for m in analysis.moves)
    assert all(m.win_after == m.win_before for m in analysis.moves)
    # The best move's chances are those of the search of every move: no search of it alone.
    assert [searched for _, searched in scripted.calls] == [
        len(legal_actions(state)) for state in record.replay()
    ]


@pytest.mark.parametrize(
    ("loss", "judgement"),
    [(0.0, None), (0.049, None), (0.05, "inaccuracy"), (0.1, "mistake"), (0.2, "blunder")],
)
def test_the_default_thresholds(loss: float, judgement: str | None) -> None:
    assert Thresholds().judge(loss) == judgement
    assert JUDGEMENTS == ("blunder", "mistake", "inaccuracy")


@pytest.mark.parametrize(
    "values", [(0.0, 0.1, 0.2), (0.1, 0.05, 0.2), (0.05, 0.1, 1.5), ("0.05", 0.1, 0.2)]
)
def test_bad_thresholds_are_refused(values: tuple[float, float, float]) -> None:
    with pytest.raises(InvalidArgumentError):
        Thresholds(*values)


class Bad:
    name = "bad"

    def __init__(self, win: object, legal: bool = True) -> None:
        self.win = win
        self.legal = legal

    def evaluate(self, seen: PlayerView, actions: Sequence[Action], /) -> Evaluation:
        best = actions[0] if self.legal else Pass()  # no pass while other moves are legal
        return Evaluation(best, self.win)  # type: ignore[arg-type]  # deliberately ill-typed


@pytest.mark.parametrize(
    "win", [(0.5,), (0.7, 0.7), (-0.1, 1.1), (float("nan"), 0.5), "ab", (0.5, "0.5")]
)
def test_an_analyser_s_bad_chances_are_refused(win: object) -> None:
    record = _not_first_moves(1, 2)
    with pytest.raises(InvalidArgumentError, match="bad gave chances of winning"):
        analyse_game(record, Bad(win))


def test_chances_that_nearly_sum_to_one_are_scaled() -> None:
    analysis = analyse_game(_not_first_moves(1, 1), Bad((0.505, 0.5)))
    assert sum(analysis.positions[0]) == pytest.approx(1.0)


def test_an_analyser_s_illegal_best_move_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="not a legal action"):
        analyse_game(_not_first_moves(1, 1), Bad((0.5, 0.5), legal=False))


def test_what_cannot_analyse_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="cannot analyse"):
        analyser_for(GreedyBot())  # type: ignore[arg-type]  # no analyse method
    with pytest.raises(InvalidArgumentError, match="cannot analyse"):
        BotAnalyser(GreedyBot())  # type: ignore[arg-type]  # no analyse method
    with pytest.raises(InvalidArgumentError):
        analyse_game("game", ISMCTSBot())  # type: ignore[arg-type]  # not a record
    scripted = Scripted([0.5])
    assert analyser_for(scripted) is scripted
    assert isinstance(analyser_for(ISMCTSBot(iterations=5)), BotAnalyser)
    assert isinstance(scripted, Analyser)


def test_a_bot_analyser_writes_the_line_in_the_notation() -> None:
    record = _greedy_record(3, 8)
    state = record.final_state()
    seen = view(state, state.current_player)
    found = BotAnalyser(ISMCTSBot(iterations=200, seed=1)).evaluate(seen, legal_actions(seen))
    assert found.nodes == 200
    assert found.pv
    assert found.pv[0] == _notation(found.best, seen)


def _notation(action: Action, seen: PlayerView) -> str:
    return format_action(action, seen)


def test_progress_is_called_after_each_position() -> None:
    record = _not_first_moves(1, 3)
    calls: list[tuple[int, int]] = []
    analyse_game(
        record, Scripted([0.5] * 4), progress=lambda done, total: calls.append((done, total))
    )
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_the_report_lists_every_move_and_sums_up_each_seat() -> None:
    analysis = _thrown_away_analysis()
    text = analysis.format()
    lines = text.splitlines()
    assert lines[0].startswith("Analysis by ISMCTSBot(iterations=50, seed=1): 2 players, seed 50")
    assert "inaccuracy >= 0.05, mistake >= 0.10, blunder >= 0.20" in lines[1]
    last = analysis.moves[-1]
    row = next(line for line in lines if line.startswith(f"{last.turn + 1:>4}  "))
    assert row.split()[3:5] == [last.played, last.best]  # after "Player 1"
    assert row.endswith("100.0%  blunder")
    summary = lines[-2:]
    assert summary[0].split()[0] == "Player"
    assert summary[0].endswith("won")
    assert summary[1].endswith("lost")
    assert len([line for line in lines if line[:4].strip().isdigit()]) == len(analysis.moves)


def test_the_chart_draws_each_seat_and_marks_the_judged_moves() -> None:
    analysis = _thrown_away_analysis()
    svg = analysis.render_svg()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("data-seat") for line in lines] == ["0", "1"]
    height = float(root.get("height", "0"))
    for line in lines:
        points = (line.get("points") or "").split()
        assert len(points) == len(analysis.positions)
        xs = [float(p.split(",")[0]) for p in points]
        assert xs == sorted(xs)
    # Seat 1's line ends at the bottom of the plot (0%), seat 0's at the top (100%).
    end0 = float((lines[0].get("points") or "").split()[-1].split(",")[1])
    end1 = float((lines[1].get("points") or "").split()[-1].split(",")[1])
    assert end0 < end1 < height
    marks = {
        (c.get("class"), c.get("data-move"))
        for c in root.iter(f"{SVG}circle")
        if c.get("data-move")
    }
    judged = {(m.judgement, str(m.turn + 1)) for m in analysis.moves if m.judgement}
    assert marks == judged
    assert ("blunder", str(len(analysis.moves))) in marks
    blunder = next(
        c for c in root.iter(f"{SVG}circle") if c.get("data-move") == str(len(analysis.moves))
    )
    assert "blunder" in (blunder.findtext(f"{SVG}title") or "")
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Player 0" in texts
    assert "Player 1" in texts
    assert "50%" in texts


def test_the_chart_escapes_the_names_and_shows_in_jupyter() -> None:
    record = _not_first_moves(1, 3)
    record = GameRecord(2, record.seed, actions=record.actions, names=("<Ann & Bo>", "C\x00"))
    # Seat 0 blunders on the first move: 0.5 -> 0.2.
    analysis = analyse_game(record, Scripted([0.5, 0.4, 0.8, 0.3], [0.2, 0.4, 0.8]))
    root = ET.fromstring(analysis._repr_svg_())
    names = [t.text for t in root.iter(f"{SVG}text")]
    assert "<Ann & Bo>" in names
    assert "C\ufffd" in names
    html = analysis._repr_html_()
    assert html.startswith("<div><svg")
    assert "&lt;Ann &amp; Bo&gt;" in html
    ET.fromstring(html)  # the HTML is well-formed too
    assert "<td>1</td><td>&lt;Ann &amp; Bo&gt;</td>" in html
    assert "<td>30.0%</td><td>blunder</td>" in html


# Analysers in another process, over the bot protocol.


def test_an_engine_over_the_protocol_gives_the_same_analysis_as_the_bot_in_process() -> None:
    record = _greedy_record(4, 12)
    spec = "ismcts:iterations=30,seed=2"
    with open_engine(served(spec), env=environment(), timeout=30.0) as engine:
        remote = analyse_game(record, engine, limit=Limit(time=5.0))
        pid = engine.pid
    assert gone(pid)
    here = analyse_game(record, ISMCTSBot(iterations=30, seed=2))
    assert remote.analyser == f"ismcts {splendor.__version__}"
    assert _flat(remote.positions) == pytest.approx(_flat(here.positions), abs=1e-9)
    assert [(m.played, m.best, m.judgement) for m in remote.moves] == [
        (m.played, m.best, m.judgement) for m in here.moves
    ]
    # The engine writes the line in the notation too, its first move the best.
    assert all(m.pv and m.pv[0] == m.best for m in remote.moves)


def test_an_engine_that_sends_no_chances_of_winning_cannot_analyse() -> None:
    record = _greedy_record(4, 2)
    with (
        open_engine(served("greedy"), env=environment(), timeout=30.0) as engine,
        pytest.raises(InvalidArgumentError, match="sent no chances of winning"),
    ):
        analyse_game(record, engine, limit=Limit(time=5.0))
    with pytest.raises(InvalidArgumentError, match=r"must be a splendor\.remote\.Engine"):
        EngineAnalyser(ISMCTSBot())  # type: ignore[arg-type]  # not an engine


def _flat(chances: Sequence[tuple[float, ...]]) -> list[float]:
    return [p for win in chances for p in win]
