"""``splendor ladder``: add, play, show, export, and its errors."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from splendor.arena.ladder import Ladder
from splendor.cli import main
from tests.arena.test_ladder import write_engine


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([*argv, "--no-color"], stdout=out)
    return code, out.getvalue()


def test_add_play_show_and_export(tmp_path: Path) -> None:
    db = str(tmp_path / "l.sqlite")
    assert run("ladder", "add", "g", "greedy", "--db", db, "--seed", "4")[0] == 0
    code, text = run("ladder", "add", "r", "random", "--db", db)
    assert code == 0
    assert "Added r (random): 2 entrants" in text
    code, text = run("ladder", "play", "-n", "4", "-q", "--db", db)
    assert code == 0
    assert "Played 4 games." in text
    assert "4 games of 2 players, seed 4" in text
    code, shown = run("ladder", "show", "--db", db)
    assert code == 0
    with Ladder(db) as ladder:
        standings = ladder.standings()
        assert ladder.games()[0].seed == 4 * 1_000_003
    for s in standings:
        assert f"{s.rating:.0f}" in shown
        assert f"{s.low:.0f}..{s.high:.0f}" in shown
    page, plot = tmp_path / "l.html", tmp_path / "l.svg"
    code, text = run("ladder", "export", "--html", str(page), "--svg", str(plot), "--db", db)
    assert code == 0
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert plot.read_text().startswith("<svg")


def test_play_goes_on_where_the_last_run_stopped(tmp_path: Path) -> None:
    db = str(tmp_path / "l.sqlite")
    run("ladder", "add", "g", "greedy", "--db", db)
    run("ladder", "add", "r", "random", "--db", db)
    run("ladder", "play", "-n", "3", "-q", "--db", db)
    with Ladder(db) as ladder:
        assert len(ladder.games(finished=False)) == 1  # the deal's other seating waits
    run("ladder", "play", "-n", "1", "-q", "--db", db)
    with Ladder(db) as ladder:
        games = ladder.games()
        assert len(games) == 4
        assert ladder.games(finished=False) == ()
        assert games[3].seats == games[2].seats[::-1]
        assert games[3].seed == games[2].seed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ladder"], "say what to do"),
        (["ladder", "show"], "there is no ladder at"),
        (["ladder", "play", "-n", "1"], "there is no ladder at"),
        (["ladder", "export", "--html", "x.html"], "there is no ladder at"),
        (["ladder", "export"], "give --html FILE, --svg FILE or both"),
        (["ladder", "add", "bad", "chess"], "unknown bot 'chess'"),
    ],
)
def test_errors_are_one_line_with_status_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _ = run(*argv)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_play_with_too_few_entrants_or_bad_numbers_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "l.sqlite")
    run("ladder", "add", "g", "greedy", "--db", db)
    assert run("ladder", "play", "-n", "2", "--db", db)[0] == 2
    assert "needs at least 2 entrants, it has 1" in capsys.readouterr().err
    assert run("ladder", "play", "-n", "-1", "--db", db)[0] == 2
    assert "--games must be 0 or more" in capsys.readouterr().err
    assert run("ladder", "play", "-n", "1", "--time-per-move", "0", "--db", db)[0] == 2
    assert "--time-per-move must be above 0" in capsys.readouterr().err
    assert run("ladder", "add", "r", "random", "--players", "3", "--db", db)[0] == 2
    assert "2-player games" in capsys.readouterr().err


def test_a_three_player_ladder_shows_openskill_ratings_to_a_tenth(tmp_path: Path) -> None:
    db = str(tmp_path / "l.sqlite")
    assert run("ladder", "add", "g", "greedy", "--players", "3", "--db", db)[0] == 0
    run("ladder", "add", "r", "random", "--db", db)
    run("ladder", "add", "s", "random", "--db", db)
    code, text = run("ladder", "play", "-n", "3", "-q", "--db", db)
    assert code == 0
    assert "3 games of 3 players" in text
    with Ladder(db) as ladder:
        standings = ladder.standings()
        page = ladder.render_html()
    for s in standings:
        assert f"{s.low:.1f}..{s.high:.1f}" in text
        assert f"<td>{s.rating:.1f}</td>" in page


@pytest.mark.skipif(os.name != "posix", reason="runs a shell script")
def test_an_engine_added_as_a_relative_path_plays_from_another_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "l.sqlite")
    write_engine(tmp_path / "bots")
    monkeypatch.chdir(tmp_path / "bots")
    assert run("ladder", "add", "mine", "engine:./mybot", "--db", db)[0] == 0
    assert run("ladder", "add", "r", "random", "--db", db)[0] == 0
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, text = run("ladder", "play", "-n", "2", "-q", "--db", db)
    assert code == 0, text
    with Ladder(db) as ladder:
        assert [game.forfeit for game in ladder.games()] == [None, None]
