"""The ladder: its SQLite file, schedule, ratings and exports, and resuming after a kill."""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from splendor import InvalidArgumentError
from splendor.arena import _ladder_play
from splendor.arena._ladder_schedule import choose_table, uncertainty
from splendor.arena.ladder import (
    FORMAT_VERSION,
    MAX_ENTRANTS,
    Ladder,
    LadderError,
    LadderGame,
    Standing,
    resolve_spec,
)
from splendor.arena.ratings import GameResult, rate, rate_skill
from splendor.arena.referee import referee_game
from splendor.arena.runs import game_seed
from splendor.errors import EngineError
from splendor.formats.record import GameRecord
from splendor.players.bots import Bot
from tests.remote._engines import engine_children


def make(
    path: Path, specs: Sequence[str | tuple[str, str]], *, players: int = 2, seed: int = 0
) -> Ladder:
    """A new ladder of these entrants: each a spec (named by its bot) or a (name, spec) pair."""
    ladder = Ladder(path, create=True, players=players, seed=seed)
    for entry in specs:
        name, spec = entry if isinstance(entry, tuple) else (entry.split(":")[0], entry)
        ladder.add(name, spec)
    return ladder


def summary(games: Sequence[LadderGame]) -> list[tuple[object, ...]]:
    return [(g.id, g.deal, g.seed, g.seats, g.winners, g.points, g.cards, g.turns) for g in games]


def results(games: Sequence[LadderGame], names: Sequence[str]) -> list[GameResult]:
    """The ladder's games as the ratings read them, seats by their index in ``names``."""
    return [
        GameResult(
            g.id,
            g.seed,
            tuple(names.index(n) for n in g.seats),
            g.winners,
            g.points,
            g.cards,
            g.turns,
        )
        for g in games
    ]


def test_entrants_are_kept_in_the_file_in_the_order_added(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    with make(path, ["greedy", "random"]) as ladder:
        ladder.add("deep", "ismcts:iterations=5,seed=2")
    with Ladder(path) as again:
        assert [(e.name, e.spec) for e in again.entrants()] == [
            ("greedy", "greedy"),
            ("random", "random"),
            ("deep", "ismcts:iterations=5,seed=2"),
        ]
        assert again.players == 2
        assert again.seed == 0


@pytest.mark.parametrize("name", ["", " x", "x ", "a\nb", "x" * 41, 3])
def test_a_malformed_name_is_refused(tmp_path: Path, name: object) -> None:
    with make(tmp_path / "l.sqlite", []) as ladder:
        with pytest.raises(LadderError):
            ladder.add(name, "greedy")  # type: ignore[arg-type]  # a wrong type on purpose
        assert ladder.entrants() == ()


def test_a_duplicate_name_or_a_bad_spec_adds_nothing(tmp_path: Path) -> None:
    with make(tmp_path / "l.sqlite", ["greedy"]) as ladder:
        with pytest.raises(LadderError, match="already has an entrant named 'greedy'"):
            ladder.add("greedy", "random")
        with pytest.raises(InvalidArgumentError, match="unknown bot"):
            ladder.add("chess", "chess")
        assert [e.name for e in ladder.entrants()] == ["greedy"]


def test_every_game_is_kept_with_a_record_that_replays_to_its_result(tmp_path: Path) -> None:
    with make(tmp_path / "l.sqlite", ["greedy", "random", "ismcts:iterations=4,seed=1"]) as ladder:
        played = ladder.play(6)
        assert len(played) == 6
        assert summary(played) == summary(ladder.games())
        for game in played:
            record = ladder.record(game.id)
            assert record.seed == game.seed
            assert record.names == game.seats
            final = record.final_state()
            assert final.winners == game.winners
            assert tuple(p.points for p in final.players) == game.points
            assert final.turn == game.turns
        with pytest.raises(LadderError):
            ladder.record(999)


def test_each_deal_is_played_from_both_seats_with_its_seed(tmp_path: Path) -> None:
    with make(tmp_path / "l.sqlite", ["greedy", "random", "ismcts:iterations=4,seed=1"]) as ladder:
        games = ladder.play(8)
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first.deal == second.deal
        assert first.seed == second.seed == game_seed(0, first.deal)
        assert second.seats == first.seats[::-1]


def test_three_player_deals_rotate_every_seat(tmp_path: Path) -> None:
    specs: list[str | tuple[str, str]] = [
        "greedy",
        "random",
        "ismcts:iterations=3,seed=1",
        ("other", "random"),
    ]
    with make(tmp_path / "l.sqlite", specs, players=3, seed=4) as ladder:
        games = ladder.play(6)
    for deal in (games[:3], games[3:]):
        seatings = {game.seats for game in deal}
        first = deal[0].seats
        assert seatings == {first, first[1:] + first[:1], first[2:] + first[:2]}
        assert len({game.seed for game in deal}) == 1


def test_the_schedule_follows_the_seed_and_nothing_else(tmp_path: Path) -> None:
    specs = ["greedy", "random", "ismcts:iterations=3,seed=1"]
    with (
        make(tmp_path / "a.sqlite", specs, seed=7) as a,
        make(tmp_path / "b.sqlite", specs, seed=7) as b,
    ):
        assert summary(a.play(6)) == summary(b.play(6))
    with make(tmp_path / "c.sqlite", specs, seed=8) as c:
        assert [g.seed for g in c.play(2)] == [game_seed(8, 0)] * 2


def test_a_new_entrant_is_scheduled_first_its_rating_being_the_least_certain(
    tmp_path: Path,
) -> None:
    with make(tmp_path / "l.sqlite", ["greedy", "random"]) as ladder:
        ladder.play(10)
        ladder.add("deep", "ismcts:iterations=3,seed=1")
        widths = {s.name: s.width for s in ladder.standings()}
        assert widths["deep"] > max(widths["greedy"], widths["random"])
        nxt = ladder.play(2)
        assert all("deep" in game.seats for game in nxt)


def test_the_least_met_table_is_chosen_among_equally_uncertain_ones(tmp_path: Path) -> None:
    with make(tmp_path / "l.sqlite", [("a", "random"), ("b", "random"), ("c", "random")]) as ladder:
        # Three copies of one bot: ratings stay close, so every pair gets its turn.
        games = ladder.play(6)
    assert len({frozenset(game.seats) for game in games}) == 3


def _standing(name: str, rating: float, width: float) -> Standing:
    return Standing(name, "random", rating, rating - width / 2, rating + width / 2, 0, 0.0, 0)


def test_a_two_player_game_whose_result_is_all_but_known_tells_little() -> None:
    even = [_standing("a", 1500.0, 200.0), _standing("b", 1500.0, 200.0)]
    lopsided = [_standing("a", 1900.0, 200.0), _standing("b", 1500.0, 200.0)]
    assert uncertainty(even, 2) == pytest.approx(400.0)
    assert uncertainty(lopsided, 2) < uncertainty(even, 2) / 2
    # For 3 or 4 players the widths are summed as they are.
    assert uncertainty([*lopsided, _standing("c", 1000.0, 100.0)], 3) == pytest.approx(500.0)


def test_the_entrant_with_fewest_games_plays_the_least_met_then_the_least_played() -> None:
    names = ["a", "b", "c", "d"]
    ranked = [_standing("a", 1500.0, 300.0)] + [_standing(n, 1500.0, 100.0) for n in "bcd"]
    # "d" has played least: it plays, against "c", which has played less than "a" or "b".
    met = [("a", "b"), ("b", "a"), ("c", "a")]
    assert choose_table(names, ranked, met, 2, seed=0) == ["c", "d"]
    # Equal games: the widest interval plays, against the one it has met least.
    met = [("a", "b"), ("b", "a"), ("c", "d"), ("d", "c")]
    assert choose_table(names, ranked, met, 2, seed=0) in (["a", "c"], ["a", "d"])
    # Equally met and equally played: the least certain table.
    widths = {"a": 300.0, "b": 100.0, "c": 50.0, "d": 200.0}
    ranked = [_standing(n, 1500.0, width) for n, width in widths.items()]
    assert choose_table(names, ranked, [], 2, seed=0) == ["a", "d"]
    # Equally uncertain and equally met: the seed draws, and the same seed draws the same.
    even = [_standing(n, 1500.0, 100.0) for n in names]
    draws = {tuple(choose_table(names, even, [], 2, seed)) for seed in range(20)}
    assert len(draws) > 1
    assert all(
        choose_table(names, even, [], 2, 7) == choose_table(names, even, [], 2, 7) for _ in range(3)
    )
    # A table lists its entrants in the order they were added.
    assert all(list(table) == sorted(table, key=names.index) for table in draws)


@pytest.mark.parametrize("players", [2, 3])
def test_every_entrant_and_every_pairing_gets_a_fair_share_of_the_games(players: int) -> None:
    # Two entrants far apart with wide intervals drew most games when the widest table played.
    names = ["a", "b", "c", "d", "e"]
    ranked = [
        _standing("a", 1900.0, 400.0),
        _standing("b", 1100.0, 400.0),
        *(_standing(n, 1500.0, 80.0) for n in "cde"),
    ]
    met: list[tuple[str, ...]] = []
    for deal in range(40 // players):
        table = choose_table(names, ranked, met, players, seed=deal)
        met += [tuple(table)] * players  # a deal is played from every rotation
    games = {name: sum(name in seats for seats in met) for name in names}
    mean = len(met) * players / len(names)
    assert all(abs(count - mean) <= players for count in games.values()), games
    pairs = {
        pair: sum(set(pair) <= set(seats) for seats in met)
        for pair in itertools.combinations(names, 2)
    }
    fair = len(met) * players * (players - 1) / 2 / len(pairs)
    assert max(pairs.values()) <= math.ceil(fair) + players, pairs  # one deal over at most


def test_a_ladder_of_five_unequal_entrants_shares_40_games_fairly(tmp_path: Path) -> None:
    specs: list[str | tuple[str, str]] = [
        "greedy",
        "random",
        ("weak", "level:1"),
        ("greedy-2", "greedy"),
        ("random-2", "random"),
    ]
    with make(tmp_path / "l.sqlite", specs, seed=5) as ladder:
        games = ladder.play(40)
    names = ["greedy", "random", "weak", "greedy-2", "random-2"]
    assert all(sum(name in game.seats for game in games) == 16 for name in names)
    assert all(
        sum(set(pair) == set(game.seats) for game in games) == 4
        for pair in itertools.combinations(names, 2)
    )


def test_ratings_are_recomputed_from_the_stored_results(tmp_path: Path) -> None:
    with make(tmp_path / "l.sqlite", ["greedy", "random", "ismcts:iterations=3,seed=1"]) as ladder:
        games = ladder.play(6)
        names = [e.name for e in ladder.entrants()]
        expected = rate(
            names,
            results(games, names),
        )
        standings = ladder.standings()
    assert [(s.name, s.rating, s.low, s.high, s.games, s.wins) for s in standings] == [
        (r.name, r.rating, r.low, r.high, r.games, r.wins) for r in expected
    ]
    assert all(s.forfeits == 0 for s in standings)


def test_a_game_interrupted_midway_is_replayed_from_its_scheduled_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = ["greedy", "random", "ismcts:iterations=3,seed=1"]
    with make(tmp_path / "whole.sqlite", specs) as whole:
        expected = summary(whole.play(5))
    real = referee_game
    calls = 0

    def interrupted(bots: Sequence[Bot], **kwargs: object) -> GameRecord:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise KeyboardInterrupt  # Ctrl-C in the middle of the fourth game
        return real(bots, **kwargs)  # type: ignore[arg-type]  # the referee's own keywords

    path = tmp_path / "cut.sqlite"
    monkeypatch.setattr(_ladder_play, "referee_game", interrupted)
    with make(path, specs) as cut, pytest.raises(KeyboardInterrupt):
        cut.play(5)
    monkeypatch.setattr(_ladder_play, "referee_game", real)
    with Ladder(path) as cut:
        assert len(cut.games()) == 3
        (left,) = cut.games(finished=False)
        assert (left.id, left.seed, left.seats) == expected[3][:1] + expected[3][2:4]
        cut.play(2)
        assert summary(cut.games()) == expected


def test_a_ladder_killed_mid_game_loses_nothing_and_resumes(tmp_path: Path) -> None:
    specs = ["greedy", "ismcts:iterations=12,seed=1"]
    path = tmp_path / "l.sqlite"
    make(path, specs, seed=2).close()
    command = [sys.executable, "-m", "splendor", "ladder", "play", "-n", "100", "--db", str(path)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        finished = 0
        while finished < 3 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
            with contextlib.closing(sqlite3.connect(path)) as db:
                (finished,) = db.execute(
                    "SELECT COUNT(*) FROM games WHERE record IS NOT NULL"
                ).fetchone()
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
        if process.stderr:
            process.stderr.close()
    assert process.returncode == -signal.SIGKILL
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with Ladder(path) as ladder:
        kept = ladder.games()
        assert len(kept) >= 3
        for game in kept:
            final = ladder.record(game.id).final_state()
            assert final.winners == game.winners
            assert final.turn == game.turns
        total = len(kept) + 3
        ladder.play(3)
        resumed = summary(ladder.games())
    with make(tmp_path / "whole.sqlite", specs, seed=2) as whole:
        assert summary(whole.play(total)) == resumed


CRASHING = """
import time

def crashes(view, actions, rng):
    if view.turn >= 4:
        raise RuntimeError("out of ideas")
    return actions[0]

def answers_nonsense(view, actions, rng):
    return "take 3 red"

def slow(view, actions, rng):
    time.sleep(0.05)
    return actions[0]
"""


def test_a_failing_entrant_forfeits_and_the_ladder_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "failing_bots.py").write_text(CRASHING)
    monkeypatch.syspath_prepend(str(tmp_path))
    with make(tmp_path / "l.sqlite", ["greedy", ("crashes", "failing_bots:crashes")]) as ladder:
        games = ladder.play(2)
        standings = {s.name: s for s in ladder.standings()}
        for game in games:
            assert game.forfeit is not None
            assert game.forfeit.reason == "crash"
            assert "RuntimeError: out of ideas" in game.forfeit.detail
            assert game.seats[game.forfeit.seat] == "crashes"
            assert game.winners == (1 - game.forfeit.seat,)
            record = ladder.record(game.id)
            assert record.forfeit == game.forfeit
            assert record.final_state().turn == game.turns
        assert summary(ladder.games()) == summary(games)
        assert ladder.games()[0].forfeit == games[0].forfeit
    assert standings["crashes"].forfeits == 2
    assert standings["greedy"].forfeits == 0
    assert standings["greedy"].wins == 2
    assert standings["greedy"].rating > standings["crashes"].rating


def test_a_forfeit_names_the_entrant_by_its_ladder_name_and_seats_from_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "failing_bots.py").write_text(CRASHING)
    monkeypatch.syspath_prepend(str(tmp_path))
    specs: list[str | tuple[str, str]] = ["greedy", ("mine", "failing_bots:answers_nonsense")]
    with make(tmp_path / "l.sqlite", specs) as ladder:
        games = ladder.play(2)
        page = ladder.render_html()
    for game in games:
        assert game.forfeit is not None
        assert game.forfeit.detail == "mine returned 'take 3 red', not an action"
        assert f"mine (seat {game.forfeit.seat}): illegal-move" in page


def test_a_slow_entrant_forfeits_on_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "failing_bots.py").write_text(CRASHING)
    monkeypatch.syspath_prepend(str(tmp_path))
    with make(tmp_path / "l.sqlite", ["greedy", ("slow", "failing_bots:slow")]) as ladder:
        untimed = ladder.play(0)
        assert untimed == ()
        games = ladder.play(2, time_per_move=0.01)
    for game in games:
        assert game.forfeit is not None
        assert game.forfeit.reason == "timeout"
        assert game.seats[game.forfeit.seat] == "slow"


def test_three_player_ladders_are_rated_with_openskill(tmp_path: Path) -> None:
    specs: list[str | tuple[str, str]] = ["greedy", "random", ("other", "random")]
    with make(tmp_path / "l.sqlite", specs, players=3) as ladder:
        games = ladder.play(3)
        standings = ladder.standings()
    names = ["greedy", "random", "other"]
    expected = rate_skill(
        names,
        results(games, names),
    )
    assert [(s.name, s.rating, s.low, s.high, s.games) for s in standings] == [
        (r.name, r.mu, r.low, r.high, r.games) for r in expected
    ]


def test_too_few_entrants_cannot_play(tmp_path: Path) -> None:
    with make(tmp_path / "l.sqlite", ["greedy"]) as ladder:
        with pytest.raises(LadderError, match="needs at least 2 entrants, it has 1"):
            ladder.play(1)
        assert ladder.play(0) == ()
        assert ladder.games(finished=None) == ()


@pytest.mark.parametrize(
    "arguments",
    [{"games": -1}, {"games": 1.5}, {"games": 1, "time_per_move": 0}, {"games": 1, "max_turns": 0}],
)
def test_bad_numbers_are_refused(tmp_path: Path, arguments: dict[str, object]) -> None:
    with (
        make(tmp_path / "l.sqlite", ["greedy", "random"]) as ladder,
        pytest.raises(InvalidArgumentError),
    ):
        ladder.play(**arguments)  # type: ignore[arg-type]  # wrong values on purpose


def test_a_missing_file_is_not_made_unless_asked(tmp_path: Path) -> None:
    with pytest.raises(LadderError, match="there is no ladder at"):
        Ladder(tmp_path / "none.sqlite")
    assert not (tmp_path / "none.sqlite").exists()


def test_settings_that_differ_from_the_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    make(path, ["greedy"], players=3, seed=5).close()
    with pytest.raises(LadderError, match="3-player games"):
        Ladder(path, players=2)
    with pytest.raises(LadderError, match="the seed 5"):
        Ladder(path, seed=6)
    Ladder(path, players=3, seed=5).close()
    with pytest.raises(InvalidArgumentError):
        Ladder(path, players=5)


def test_files_that_are_not_ladders_are_refused_clearly(tmp_path: Path) -> None:
    text = tmp_path / "text.sqlite"
    text.write_text("not a database at all, but long enough to have a header of sorts\n" * 20)
    with pytest.raises(LadderError, match="not a ladder file"):
        Ladder(text)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    with pytest.raises(LadderError, match="but not a ladder"):
        Ladder(other, create=True)
    with contextlib.closing(sqlite3.connect(other)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # left as it was
        assert [row[0] for row in db.execute("SELECT name FROM sqlite_master")] == ["t"]
    with pytest.raises(InvalidArgumentError):
        Ladder(3)  # type: ignore[arg-type]  # a wrong type on purpose
    newer = tmp_path / "newer.sqlite"
    make(newer, []).close()
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE ladder SET value = ? WHERE key = 'version'", (str(FORMAT_VERSION + 1),))
    db.close()
    with pytest.raises(LadderError, match="reads versions up to"):
        Ladder(newer)


def test_a_damaged_game_row_is_a_ladder_error(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    with make(path, ["greedy", "random"]) as ladder:
        ladder.play(2)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET points = '[1, \"x\"]' WHERE id = 1")
    db.close()
    with (
        Ladder(path) as ladder,
        pytest.raises(LadderError, match="game 1 of the ladder is damaged"),
    ):
        ladder.standings()


def test_the_exports_show_every_entrant_escaped(tmp_path: Path) -> None:
    with Ladder(tmp_path / "l.sqlite", create=True) as ladder:
        with pytest.raises(LadderError, match="no entrant"):
            ladder.render_svg()
        ladder.add("<b>&bold", "greedy")
        ladder.add("plain", "random")
        ladder.play(4)
        page = ladder.render_html()
        svg = ladder.render_svg()
        standings = ladder.standings()
    assert page.startswith("<!DOCTYPE html>")
    assert "<svg" in page
    assert page.rstrip().endswith("</html>")
    assert "&lt;b&gt;&amp;bold" in page
    assert "<b>&bold" not in page
    assert "&lt;b&gt;&amp;bold" in svg
    assert "(4 games, 2 players)" in svg
    for standing in standings:
        assert f"{standing.low:.0f}..{standing.high:.0f}" in page


def test_the_file_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    make(path, ["greedy"]).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.close()
    assert os.path.getsize(path) > 0


ENGINE = f"engine:{shlex.quote(sys.executable)} -m splendor engine"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_engines_play_in_the_ladder_and_no_process_is_left(tmp_path: Path) -> None:
    with make(
        tmp_path / "l.sqlite", ["random", ("bot-engine", f"{ENGINE} greedy")], seed=1
    ) as ladder:
        assert engine_children() == []  # the check of the spec closed it
        games = ladder.play(2, time_per_move=5.0)
        assert engine_children() == []
        table = {s.name: s for s in ladder.standings()}
    assert [game.forfeit for game in games] == [None, None]
    assert table["bot-engine"].wins == 2
    with make(tmp_path / "m.sqlite", ["greedy"]) as other:
        with pytest.raises(EngineError):
            other.add("broken", f"engine:{shlex.quote(sys.executable)} -c 'print(1)'")
        assert [e.name for e in other.entrants()] == ["greedy"]
    assert engine_children() == []


def test_a_ladder_takes_a_bounded_number_of_entrants(tmp_path: Path) -> None:
    with make(tmp_path / "l.sqlite", [(f"e{k}", "random") for k in range(MAX_ENTRANTS)]) as ladder:
        with pytest.raises(LadderError, match=f"at most {MAX_ENTRANTS} entrants"):
            ladder.add("one-more", "random")
        assert len(ladder.entrants()) == MAX_ENTRANTS


def test_a_large_multiplayer_ladder_deals_to_the_least_certain(tmp_path: Path) -> None:
    specs: list[str | tuple[str, str]] = [(f"e{k}", "random") for k in range(20)]
    with make(tmp_path / "l.sqlite", specs, players=3) as ladder:
        first = ladder.play(3)
        second = ladder.play(3)
    assert len({game.seats for game in first}) == 3
    assert not set(first[0].seats) & set(second[0].seats)


def test_a_damaged_file_is_a_ladder_error(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    make(path, ["greedy", "random"]).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DROP TABLE games")
        db.commit()
    with Ladder(path) as ladder:
        with pytest.raises(LadderError, match="no such table: games"):
            ladder.play(1)
        with pytest.raises(LadderError, match="no such table: games"):
            ladder.standings()


def write_engine(folder: Path) -> Path:
    """An executable ``mybot`` in ``folder`` that runs the greedy bot engine."""
    folder.mkdir()
    script = folder / "mybot"
    script.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m splendor engine greedy\n")
    script.chmod(0o755)
    return script


@pytest.mark.skipif(os.name != "posix", reason="runs a shell script")
def test_an_engine_added_by_a_relative_path_plays_from_another_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = write_engine(tmp_path / "bots")
    monkeypatch.chdir(tmp_path / "bots")
    with make(tmp_path / "l.sqlite", ["random", ("mine", "engine:./mybot --fast")]) as ladder:
        assert ladder.entrants()[1].spec == f"engine:{shlex.join([str(script), '--fast'])}"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    with Ladder(tmp_path / "l.sqlite") as ladder:
        games = ladder.play(2, time_per_move=5.0)
    assert [game.forfeit for game in games] == [None, None]


def test_an_engine_command_on_the_path_and_other_specs_stay_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "greedy.js").write_text("")
    (tmp_path / "node").write_text("")
    monkeypatch.chdir(tmp_path)
    assert resolve_spec("engine:node greedy.js --x") == (
        f"engine:node {shlex.quote(str(tmp_path / 'greedy.js'))} --x"
    )
    for spec in ("engine:node missing.js", "engine:/bin/true", "greedy", "level:5", "node"):
        assert resolve_spec(spec) == spec
    with pytest.raises(InvalidArgumentError, match="not well quoted"):
        resolve_spec("engine:node 'open")
