"""``splendor tournament`` and ``splendor simulate --ray`` (without Ray installed or reachable)."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from splendor.arena.tournament import round_robin
from splendor.cli import main
from splendor.extras import install_command


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    return code, out.getvalue()


def test_a_tournament_prints_ratings_and_a_crosstable(tmp_path: Path) -> None:
    target, plot = tmp_path / "results.json", tmp_path / "ratings.svg"
    code, text = run(
        "tournament",
        "--bots",
        "random",
        "greedy",
        "ismcts:iterations=4,seed=1",
        "-n",
        "2",
        "--seed",
        "3",
        "--json",
        str(target),
        "--plot",
        str(plot),
        "--no-color",
        "-q",
    )
    assert code == 0
    assert "6 games, 2 players, seed 3" in text
    assert "95% interval" in text
    assert "Score of each row against each column" in text
    data = json.loads(target.read_text())
    expected = round_robin(
        ["random", "greedy", "ismcts:iterations=4,seed=1"], games=2, seed=3
    ).to_dict()
    assert data == json.loads(json.dumps(expected))
    for rating in data["ratings"]:
        assert f"{rating['rating']:.0f}" in text
    assert plot.read_text().startswith("<svg")


def test_a_tournament_on_two_workers_gives_the_same_results(tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    args = ("tournament", "--bots", "random", "greedy", "random", "--players", "3", "-n", "3")
    assert run(*args, "--json", str(one), "-q")[0] == 0
    assert run(*args, "--json", str(two), "--workers", "2", "-q")[0] == 0
    assert one.read_text() == two.read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy", "random", "-n", "0"], "--games"),
        (["--bots", "greedy", "random", "--players", "3"], "3-player games need"),
        (["--bots", "greedy", "chess"], "unknown bot"),
        (["--bots", "greedy", "ismcts:iterations=0"], "iterations"),
    ],
)
def test_bad_tournaments_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("tournament", *argv, "-q")
    assert code == 2
    assert message in capsys.readouterr().err


def test_ray_missing_is_a_clean_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    code, _ = run("tournament", "--bots", "greedy", "random", "-n", "2", "--ray", "-q")
    assert code == 2
    assert install_command("ray") in capsys.readouterr().err
    code, _ = run("simulate", "-n", "2", "--ray", "127.0.0.1:1", "-q")
    assert code == 2
    assert install_command("ray") in capsys.readouterr().err


def test_the_help_lists_the_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "tournament" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "--ray [ADDRESS]" in capsys.readouterr().out


def test_a_tournament_with_a_time_control_lists_forfeits_and_skill_ratings(
    tmp_path: Path,
) -> None:
    target = tmp_path / "results.json"
    spec = "tests.arena.test_referee:crash_on_third"
    argv = ["tournament", "--bots", "greedy", "random", spec, "--players", "3", "--deals", "1"]
    code, text = run(*argv, "--time-per-move", "5", "--json", str(target), "--no-color", "-q")
    assert code == 0
    assert "3 games, 3 players, seed 0" in text
    assert "OpenSkill ratings" in text
    assert "Forfeits (3)" in text
    assert text.count("RuntimeError: third move") == 3
    data = json.loads(target.read_text())
    assert [g["forfeit"]["reason"] for g in data["games"]] == ["crash"] * 3
    assert len(data["skill_ratings"]) == 3
    code, again = run(*argv, "--time-per-game", "60", "--increment", "1", "--no-color", "-q")
    assert (code, again) == (0, text.replace(f"Results written to {target}.\n", ""))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--time-per-move", "0"], "--time-per-move must be a positive number"),
        (["--time-per-game", "nan"], "--time-per-game must be a positive number"),
        (["--increment", "1"], "--increment needs --time-per-game"),
        (["--time-per-game", "5", "--increment", "-1"], "--increment must be a non-negative"),
        (["--deals", "0"], "--deals must be at least 1"),
    ],
)
def test_bad_time_controls_and_deals_are_usage_errors(
    options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("tournament", "--bots", "greedy", "random", *options, "-q")
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_tournament_seats_engine_processes_with_a_time_control() -> None:
    faulty = Path(__file__).resolve().parents[1] / "arena" / "engines" / "faulty.py"
    illegal = f"engine:{sys.executable} {faulty} illegal 4"
    plays = f"engine:{sys.executable} {faulty} none 0"
    code, text = run(
        "tournament", "--bots", illegal, plays, "--deals", "1", "--time-per-move", "2",
        "--no-color", "-q",
    )  # fmt: skip
    assert code == 0
    assert "2 games, 2 players, seed 0" in text
    assert "Forfeits (2)" in text
    assert text.count("illegal-move") == 2
    assert "played an illegal move: index" in text


def test_the_tournament_example_of_the_docs_prints_what_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    section = page.split("## Rate bots: `splendor tournament`")[1]
    block = section.split("```console\n")[1].split("```")[0]
    command, *shown = block.splitlines()
    program, *argv = shlex.split(command.removeprefix("$ "))
    assert program == "splendor"
    monkeypatch.chdir(tmp_path)
    code, text = run(*argv, "--no-color", "-q")
    assert code == 0
    assert text.splitlines() == shown
