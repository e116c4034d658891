"""Bots on the command line: custom bots from the current directory, their names, the JSON."""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from splendor import GreedyBot, SplendorError, play_game
from splendor.cli import main
from splendor.cli.errors import BotError
from splendor.players.bots import load_bot

HOARDER = '''\
class Hoarder:
    """Takes gems while it can, else plays the first action."""

    name = "hoarder"

    def __call__(self, view, actions, rng):
        takes = [a for a in actions if type(a).__name__ == "Take"]
        return (takes or actions)[0]


def first(view, actions, rng):
    return actions[0]
'''


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current directory holding mybots_here.py, which is not on sys.path."""
    (tmp_path / "mybots_here.py").write_text(HOARDER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "mybots_here", raising=False)
    return tmp_path


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), stdout=out), out.getvalue()


def test_a_bot_is_loaded_from_the_current_directory_without_changing_sys_path(
    here: Path,
) -> None:
    path = list(sys.path)
    bot = load_bot("mybots_here:Hoarder")
    assert type(bot).__name__ == "Hoarder"
    assert sys.path == path


def test_a_missing_module_is_still_reported(here: Path) -> None:
    code, _ = run("simulate", "-n", "1", "--bots", "nowhere_to_be_found:Bot", "greedy")
    assert code == 2


def test_simulate_names_custom_bots_by_their_own_name_in_the_table(here: Path) -> None:
    code, text = run(
        "simulate", "-n", "4", "-q", "--no-color", "--bots", "mybots_here:Hoarder", "greedy"
    )
    assert code == 0
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line[:1].isalpha()}
    assert "hoarder" in rows
    assert "greedy" in rows
    assert "mybots_here:Hoarder" not in text


def test_simulate_json_to_standard_output_has_names_seats_and_integer_wins(here: Path) -> None:
    argv = ["simulate", "-n", "6", "-q", "--bots", "mybots_here:first", "greedy", "--json", "-"]
    code, text = run(*argv)
    assert code == 0
    document = json.loads(text)  # nothing but the JSON on standard output
    first, greedy = document["bots"]
    assert (first["bot"], first["spec"], first["seat"]) == ("first", "mybots_here:first", 0)
    assert (greedy["bot"], greedy["spec"], greedy["seat"]) == ("greedy", "greedy", 1)
    for entry in (first, greedy):
        assert type(entry["wins"]) is int
        assert type(entry["shared_wins"]) is int
    assert first["wins"] + greedy["wins"] - greedy["shared_wins"] == document["finished"]
    assert not (here / "-").exists()


def test_simulate_takes_a_bot_with_options_as_the_tournament_does() -> None:
    argv = ["simulate", "-n", "2", "-q", "--bots", "ismcts:iterations=5", "random", "--json", "-"]
    code, text = run(*argv)
    assert code == 0
    ismcts, random_bot = json.loads(text)["bots"]
    assert (ismcts["bot"], ismcts["spec"]) == ("ismcts", "ismcts:iterations=5")
    assert (random_bot["bot"], random_bot["spec"]) == ("random", "random")


def test_a_bot_with_options_from_the_current_directory(here: Path) -> None:
    (here / "mybots_options.py").write_text(
        "class Picky:\n"
        "    def __init__(self, index=0):\n"
        "        self.index = index\n"
        "    def __call__(self, view, actions, rng):\n"
        "        return actions[min(self.index, len(actions) - 1)]\n",
        encoding="utf-8",
    )
    bot = load_bot("mybots_options:Picky:index=2")
    assert type(bot).__name__ == "Picky"
    assert bot.index == 2  # type: ignore[attr-defined]  # a class of the test's own


def test_the_same_bot_twice_is_told_apart_by_seat(here: Path) -> None:
    code, text = run("simulate", "-n", "2", "-q", "--no-color", "--bots", "greedy")
    assert code == 0
    assert "greedy #1" in text
    assert "greedy #2" in text


def test_a_finished_simulation_says_wins_in_words() -> None:
    code, text = run("simulate", "-n", "3", "-q", "--no-color", "--max-turns", "4")
    assert code == 0
    assert "3 games stopped unfinished at 4 turns." in text
    assert "1 worker." in text


def test_play_game_without_a_seed_draws_one_and_records_it() -> None:
    record = play_game([GreedyBot(), GreedyBot()])
    assert type(record.seed) is int
    again = play_game([GreedyBot(), GreedyBot()], seed=record.seed)
    assert again == record
    seeds = {play_game([GreedyBot(), GreedyBot()], max_turns=0).seed for _ in range(5)}
    assert len(seeds) > 1


def test_the_installed_command_finds_a_bot_in_the_current_directory(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "splendor"
    if not script.exists():
        pytest.skip("the splendor console script is not installed beside this Python")
    (tmp_path / "mybots.py").write_text(HOARDER, encoding="utf-8")
    done = subprocess.run(
        [str(script), "simulate", "-n", "2", "-q", "--bots", "mybots:Hoarder", "greedy"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "hoarder" in done.stdout


def test_the_command_lines_errors_live_in_the_cli_package() -> None:
    import splendor.cli
    import splendor.errors
    from splendor.cli import errors

    for name in ("BotError", "FileError", "UsageError"):
        error = getattr(errors, name)
        assert issubclass(error, SplendorError)
        assert getattr(splendor.cli, name) is error
        assert error.__module__ == "splendor.cli.errors"
        assert not hasattr(splendor.errors, name)


def test_a_bot_error_keeps_its_trace_across_processes() -> None:
    error = BotError("bot x (seat 1) raised KeyError: 'red' on turn 3", trace="Traceback ...\n")
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == "bot x (seat 1) raised KeyError: 'red' on turn 3"
    assert again.trace == "Traceback ...\n"
    assert isinstance(again, SplendorError)


def test_traceback_shows_an_unexpected_error_in_full(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import splendor.cli.show

    def broken(*args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(splendor.cli.show, "run_show", broken)
    assert main(["show", "anything.json", "--traceback"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):")
    assert err.endswith("splendor: unexpected error: RuntimeError: a bug\n")
