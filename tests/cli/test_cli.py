"""The ``splendor`` command line, driven in-process (no terminal)."""

from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from splendor import (
    Action,
    Buy,
    GameRecord,
    GreedyBot,
    PlayerView,
    RandomBot,
    Take,
    Tokens,
    format_action,
    legal_actions,
    parse_record,
    play_game,
    to_json,
    view,
)
from splendor.arena.tournament import GameResult
from splendor.cli import FileError, main
from splendor.cli.files import load_file, save_record
from splendor.cli.stats import simulate_one, summarize, wilson
from splendor.players.bots import load_bot

SVG = "{http://www.w3.org/2000/svg}"


def run(*argv: str, read: Callable[[str], str] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out, read=read)
    return code, out.getvalue()


def lines_from(answers: list[str]) -> Callable[[str], str]:
    """A ``read`` giving the answers in turn, then end of input."""
    feed: Iterator[str] = iter(answers)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def test_no_command_plays_and_prints_a_whole_seeded_game() -> None:
    code, text = run("--seed", "3", "--no-color")
    record = play_game([GreedyBot(), GreedyBot()], seed=3)
    assert code == 0
    assert record.result is not None
    turns = [line for line in text.splitlines() if line.lstrip()[:1].isdigit() and ". P" in line]
    assert len(turns) == len(record.actions)
    assert f"after {len(record.actions) // 2} rounds" in text
    winner = f"P{record.result[0]} greedy"
    assert f"{winner} wins." in text


def test_no_command_takes_the_bots_and_player_count() -> None:
    code, text = run("--no-color", "--seed", "2", "--players", "3", "--bots", "random")
    assert code == 0
    assert "P2 random" in text


def test_the_package_documentation_lists_every_command() -> None:
    import splendor.cli
    from splendor.cli.parser import build_parser

    parser = build_parser()
    commands = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    assert len(commands.choices) == 9
    for name in commands.choices:
        assert f"* ``splendor {name}" in (splendor.cli.__doc__ or "")


def test_the_module_runs_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "splendor", "--seed", "5", "--no-color"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "wins." in done.stdout or "share the win." in done.stdout


def test_the_output_is_plain_text_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("rich", "rich.console", "rich.table", "rich.text", "rich.progress"):
        monkeypatch.setitem(sys.modules, name, None)
    code, text = run("--seed", "3")
    assert code == 0
    assert "Final scores" in text
    assert "Player Points Cards Nobles -----------" in " ".join(text.split())
    code, text = run("simulate", "-n", "4")
    assert code == 0
    assert "Win rate" in text


def test_simulate_reports_win_rates_and_writes_json(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    code, text = run("simulate", "-n", "30", "--json", str(target), "--no-color", "-q")
    assert code == 0
    assert "Win rate" in text
    assert "Mean game length" in text
    results = json.loads(target.read_text())
    assert results["games"] == 30
    greedy, random_bot = results["bots"]
    assert greedy["bot"] == "greedy"
    assert random_bot["bot"] == "random"
    assert greedy["wins"] + random_bot["wins"] == 30 + greedy["shared_wins"]
    assert greedy["win_rate"] > 0.9
    low, high = greedy["ci95"]
    assert low < greedy["win_rate"] <= high


def test_simulate_gives_the_same_results_with_any_number_of_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    args = ("simulate", "-n", "12", "--bots", "random", "--players", "3", "--seed", "5", "-q")
    assert run(*args, "--workers", "1", "--json", str(one))[0] == 0
    assert run(*args, "--workers", "2", "--json", str(two))[0] == 0
    assert one.read_text() == two.read_text()
    assert json.loads(one.read_text())["players"] == 3


def test_summarize_counts_a_shared_win_as_a_win_for_each_winner() -> None:
    outcomes = [
        GameResult(0, 0, (0, 1), (0,), (15, 3), (9, 4), 40),
        GameResult(1, 1, (1, 0), (0, 1), (15, 15), (8, 8), 42),
    ]
    summary = summarize(["a", "b"], outcomes)
    assert [bot.wins for bot in summary.bots] == [2, 1]
    assert [bot.shared_wins for bot in summary.bots] == [1, 1]
    assert [bot.win_rate for bot in summary.bots] == [1.0, 0.5]
    assert summary.mean_turns == 41
    assert summary.as_json()["mean_rounds"] == 20.5


def test_wilson_interval_is_inside_zero_one() -> None:
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    low, high = wilson(95, 100)
    assert 0.88 < low < 0.95 < high < 0.98


def test_simulate_plays_random_games_in_the_kernel_with_the_engines_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from splendor import fast

    if not fast.COMPILED:
        pytest.skip("the compiled kernel is not in use")
    jobs = [
        (specs, 7, index, True, max_turns)
        for players in (2, 3, 4)
        for specs in (("random",) * players, ("greedy",) + ("random",) * (players - 1))
        for index in range(3)
        for max_turns in (1000, 25)
    ]
    played: list[int] = []
    real = fast.play_bots

    def counted(
        seats: Sequence[str], rngs: Sequence[random.Random], *, seed: int, **options: object
    ) -> tuple[fast.Game, tuple[int, ...]]:
        played.append(seed)
        return real(seats, rngs, seed=seed, **options)  # type: ignore[arg-type]  # passed on

    monkeypatch.setattr(fast, "play_bots", counted)
    in_kernel = [simulate_one(job) for job in jobs]
    assert len(played) == len(jobs)
    monkeypatch.setattr(fast, "COMPILED", False)
    in_engine = [simulate_one(job) for job in jobs]
    assert len(played) == len(jobs)  # the engine played these
    assert in_kernel == in_engine
    assert any(result.winners for result in in_kernel)
    assert any(not result.winners for result in in_kernel)  # cut short at 25 turns
    # Any other bot at the table: the engine plays every game.
    monkeypatch.setattr(fast, "COMPILED", True)
    simulate_one((("random", "ismcts"), 7, 0, True, 2))
    assert len(played) == len(jobs)


def test_simulate_deals_game_i_with_seed_times_1000003_plus_i() -> None:
    results = [simulate_one((("greedy", "random"), 3, index, True, 4)) for index in range(3)]
    assert [result.seed for result in results] == [3000009, 3000010, 3000011]


def test_simulate_rejects_a_bot_per_seat_mismatch() -> None:
    code, _ = run("simulate", "--players", "3", "--bots", "greedy", "random")
    assert code == 2


def greedy_reader(save: Path) -> Callable[[str], str]:
    """Play the human seat with the greedy bot, through the notation."""

    def read(prompt: str) -> str:
        record = load_file(str(save)) if save.exists() else GameRecord.start(2, seed=11)
        assert isinstance(record, GameRecord)
        state = record.final_state()
        seen = view(state, state.current_player)
        action = GreedyBot()(seen, legal_actions(state), __import__("random").Random(0))
        return format_action(action, state)

    return read


def test_play_a_whole_game_through_the_prompt(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    code, text = run(
        "play",
        "--seed",
        "11",
        "--bots",
        "random",
        "--save",
        str(save),
        "--no-color",
        read=greedy_reader(save),
    )
    assert code == 0
    record = parse_record(save.read_text())
    assert record.result is not None
    assert record.names == ("You", "P1 random")
    assert 0 in record.result
    assert "You win." in text or "share the win" in text
    assert "You wins" not in text
    assert "Your legal moves:" in text


def test_play_answers_garbled_and_illegal_input_and_asks_again(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    answers = ["", "xyz", "b11", "+RRR", "help", "moves", "hint", "board", "+WBG", "quit"]
    code, text = run(
        "play", "--seed", "1", "--save", str(save), "--no-color", read=lines_from(answers)
    )
    assert code == 0
    assert "Not understood: cannot read 'xyz'" in text
    assert "Not allowed: cannot afford card" in text
    assert "Not understood" in text.split("+RRR")[0] or "Not allowed" in text
    assert "Type an action in the notation" in text
    assert "The greedy bot would play" in text
    assert "Traceback" not in text
    record = load_file(str(save))
    assert isinstance(record, GameRecord)
    assert format_action(record.actions[0], record.initial_state()) == "+WBG"
    assert len(record.actions) == 2  # the move, then the bot's answer
    assert "Game stopped after 2 turns" in text


def test_ctrl_c_at_the_prompt_stops_cleanly_and_keeps_the_record(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    answers = iter(["+WBG", "+WBR"])

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    code, text = run("play", "--seed", "4", "--save", str(save), "--no-color", read=read)
    assert code == 0
    assert "Game stopped after 4 turns" in text
    record = parse_record(save.read_text())
    assert len(record.actions) == 4
    assert not list(tmp_path.glob(".*.tmp"))


def test_end_of_input_stops_the_game() -> None:
    code, text = run("play", "--seed", "4", "--no-color", read=lines_from([]))
    assert code == 0
    assert "Game stopped after 0 turns" in text


def test_play_resumes_a_saved_game(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    run("play", "--seed", "4", "--save", str(save), "--no-color", read=lines_from(["+WBG", "q"]))
    code, text = run("play", "--resume", str(save), "--no-color", read=lines_from(["+RR", "q"]))
    assert code == 0
    record = parse_record(save.read_text())
    assert len(record.actions) == 4
    assert "Game stopped after 4 turns" in text


def test_play_against_a_level_seats_its_bot() -> None:
    code, text = run(
        "play", "--level", "3", "--seed", "4", "--seat", "1", "--no-color", read=lines_from(["q"])
    )
    assert code == 0
    assert "The other players play at level 3, Casual" in text
    # Seat 0 is level 3's bot (greedy, half its turns at random): its first move is that bot's.
    record = GameRecord.start(2, seed=4)
    state = record.final_state()
    move = load_bot("level:3")(
        view(state, 0), legal_actions(state), random.Random("splendor-bot:4:0")
    )
    assert f"P0 level 3 plays {format_action(move, state)}" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--level", "0"], "unknown level 0: the levels are 1 to 9"),
        (["--level", "99"], "unknown level 99: the levels are 1 to 9"),
        (["--level", "x"], "unknown level 'x': the levels are 1 to 9"),
        (["--level", "2", "--bots", "random"], "as --bots or as --level, not both"),
    ],
)
def test_play_refuses_a_level_that_does_not_exist(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("play", "--seed", "4", *argv, read=lines_from([]))
    assert code == 2
    assert message in capsys.readouterr().err


def test_play_with_the_human_second_lets_the_bot_move_first() -> None:
    code, text = run("play", "--seed", "4", "--seat", "1", "--no-color", read=lines_from(["q"]))
    assert code == 0
    assert text.index("P0 greedy plays") < text.index("Your legal moves")


def saved_game(tmp_path: Path, suffix: str) -> tuple[GameRecord, Path]:
    record = play_game([GreedyBot(), RandomBot()], seed=21, names=["Ann", "Bo"])
    path = tmp_path / f"game{suffix}"
    save_record(record, str(path))
    return record, path


@pytest.mark.parametrize("suffix", [".json", ".txt"])
def test_records_load_back_as_saved(tmp_path: Path, suffix: str) -> None:
    record, path = saved_game(tmp_path, suffix)
    assert load_file(str(path)) == record


def test_replay_prints_every_turn_and_the_result(tmp_path: Path) -> None:
    record, path = saved_game(tmp_path, ".json")
    code, text = run("replay", str(path), "--no-step", "--no-color")
    assert code == 0
    assert text.count(". Ann ") + text.count(". Bo ") == len(record.actions)
    assert "Ann wins." in text


def test_replay_steps_on_enter_and_jumps_to_a_turn(tmp_path: Path) -> None:
    _, path = saved_game(tmp_path, ".txt")
    code, text = run(
        "replay", str(path), "--step", "--no-color", read=lines_from(["", "b", "10", "3", "", "q"])
    )
    assert code == 0
    before, after = text.split("At turn 3.")
    assert "  10. " in before
    assert "  11. " not in before
    assert after.lstrip().startswith("4. ")
    assert "Ann wins." not in text


def test_show_prints_a_records_state_or_a_state(tmp_path: Path) -> None:
    record, path = saved_game(tmp_path, ".json")
    code, text = run("show", str(path), "--no-color")
    assert code == 0
    assert "Ann wins." in text
    state = record.replay()[5]
    state_file = tmp_path / "state.json"
    state_file.write_text(to_json(state))
    code, text = run("show", str(state_file), "--no-color")
    assert code == 0
    assert f"Supply  {' '.join(f'{n}{g.letter}' for g, n in state.bank.items())}" in text


def test_show_writes_an_svg_picture(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    _, path = saved_game(tmp_path, ".txt")
    picture = tmp_path / "board.svg"
    code, _ = run("show", str(path), "--turn", "6", "--seat", "1", "--svg", str(picture))
    assert code == 0
    root = ET.fromstring(picture.read_text())
    assert root.tag == f"{SVG}svg"
    assert "Ann" in picture.read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "missing-file.json"], "cannot read missing-file.json"),
        (["show", "{bad}"], "cannot read"),
        (["replay", "pyproject.toml"], "cannot load pyproject.toml"),
        (["play", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["play", "--seat", "3"], "--seat must be 0 to 1"),
        (["--bots", "..x:y"], "give an absolute module name"),
        (["simulate", "-n", "1", "--bots", "..x:y"], "give an absolute module name"),
        (["--bots", "splendor.core.state:GameState"], "GameState() raised TypeError"),
        (["--bots", "os:getcwd"], "'os:getcwd' is not a bot"),
        (["play", "--bots", "random:random"], "'random:random' is not a bot"),
    ],
)
def test_bad_arguments_and_files_are_explained_without_a_traceback(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(*argv, read=lines_from([]))
    assert code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_replay_refuses_a_state_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = saved_game(tmp_path, ".json")
    state_file = tmp_path / "state.json"
    state_file.write_text(to_json(record.final_state()))
    assert run("replay", str(state_file))[0] == 2
    assert "not a game record" in capsys.readouterr().err


def test_ctrl_c_during_simulate_reports_the_games_played(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import splendor.cli.simulate
    from splendor.cli.stats import simulate_one as real

    def interrupted_at_five(job: tuple[tuple[str, ...], int, int, bool, int]) -> GameResult:
        if job[2] == 5:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(splendor.cli.simulate, "simulate_one", interrupted_at_five)
    target = tmp_path / "partial.json"
    code, text = run("simulate", "-n", "20", "-q", "--no-color", "--json", str(target))
    assert code == 130
    assert "interrupted: 5 of 20 played" in text
    results = json.loads(target.read_text())
    assert results["games"] == 5
    assert results["interrupted"] is True


def test_the_moves_list_shows_each_buy_once_with_its_other_payments() -> None:
    from splendor.cli.prompt import action_groups

    record = play_game([GreedyBot(), RandomBot()], seed=3)
    state = record.replay()[9]
    groups = {name: items for name, items, _ in action_groups(legal_actions(state), state)}
    buys = [a for a in legal_actions(state) if isinstance(a, Buy)]
    assert len(groups["Buy"]) == len({a.card for a in buys}) < len(buys)
    assert "b11 (3 ways to pay)" in groups["Buy"]


def crashing(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
    """A third-party bot with a bug: it raises on its first turn."""
    raise ZeroDivisionError("the bot's own bug")


def cheating(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
    """A third-party bot that plays an illegal action."""
    return Take(Tokens(gold=1, red=1, blue=1))


def not_acting(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
    """A third-party bot that answers with something other than an action."""
    return "+WBG"  # type: ignore[return-value]  # deliberately not an action


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("cheating", "the bot at seat 1 (cheating) played Take("),
        ("not_acting", "the bot at seat 1 (not_acting) played '+WBG': "),
    ],
)
def test_play_names_a_bot_that_plays_no_legal_action(
    bot: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "--seed", "1", "--no-color", "--bots", f"tests.cli.test_cli:{bot}"]
    code, _ = run(*argv, read=lines_from(["+WBG"]))
    assert code == 2
    assert message in one_line_error(capsys)


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.endswith("\n")
    assert err.count("\n") == 1, err
    assert err.startswith("splendor: ")
    return err


@pytest.mark.parametrize(
    ("argv", "seed"),
    [
        (["--bots", "greedy", "tests.cli.test_cli:crashing"], 1),
        (["play", "--seed", "1", "--bots", "tests.cli.test_cli:crashing"], 1),
        (["simulate", "-n", "2", "-q", "--bots", "greedy", "tests.cli.test_cli:crashing"], 0),
    ],
    ids=["demo", "play", "simulate"],
)
def test_a_bot_that_raises_is_reported_in_one_line_with_its_seat_turn_and_seed(
    argv: list[str], seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(*argv, "--no-color", read=lines_from(["+WBG"]))
    assert code == 2
    err = one_line_error(capsys)
    assert (
        "bot tests.cli.test_cli:crashing (seat 1) raised ZeroDivisionError: the bot's own bug "
        f"on turn 2 of the game with seed {seed} (--traceback shows where)"
    ) in err


@pytest.mark.parametrize("where", ["before", "after"])
def test_traceback_shows_where_a_bot_raised(where: str, capsys: pytest.CaptureFixture[str]) -> None:
    bots = ["--bots", "greedy", "tests.cli.test_cli:crashing"]
    argv = ["--traceback", *bots] if where == "before" else ["simulate", "-q", "-n", "1", *bots]
    if where == "after":
        argv.append("--traceback")
    code, _ = run(*argv, "--no-color")
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):")
    assert 'in crashing\n    raise ZeroDivisionError("the bot\'s own bug")' in err
    assert err.endswith("on turn 2 of the game with seed 0\n" if where == "after" else "seed 1\n")


def test_a_bot_that_raises_in_a_worker_is_reported_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The workers import the bot again: it must live in a module they can find.
    (tmp_path / "splendor_crashing_bot_zz.py").write_text(
        "def bot(view, actions, rng):\n    raise ZeroDivisionError('the bot is broken')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = "splendor_crashing_bot_zz:bot"
    code, _ = run("simulate", "-n", "2", "-q", "--workers", "2", "--bots", spec, "random")
    assert code == 2
    err = one_line_error(capsys)
    assert f"bot {spec} (seat 0) raised ZeroDivisionError: the bot is broken on turn 1" in err
    # The bot's traceback crosses from the worker process.
    argv = ["simulate", "-n", "2", "-q", "--workers", "2", "--bots", spec, "random", "--traceback"]
    assert run(*argv)[0] == 2
    err = capsys.readouterr().err
    assert 'splendor_crashing_bot_zz.py", line 2, in bot' in err


def test_a_deeply_nested_json_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    code, _ = run("show", str(deep))
    assert code == 2
    assert "nested too deeply" in one_line_error(capsys)


@pytest.mark.parametrize("error", [RecursionError(), ValueError("odd value")])
def test_load_file_turns_a_stray_error_of_a_loader_into_a_file_error(
    error: Exception, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import splendor.cli.files

    def failing(text: str) -> GameRecord:
        raise error

    monkeypatch.setattr(splendor.cli.files, "parse_record", failing)
    path = tmp_path / "game.txt"
    path.write_text("players: 2\nseed: 1\n", encoding="utf-8")
    with pytest.raises(FileError, match="cannot load"):
        load_file(str(path))


@pytest.mark.parametrize(
    "error", [ValueError("int() of a strange digit"), FileError("a library error")]
)
def test_the_prompt_asks_again_after_any_error_of_the_notation(
    error: Exception, monkeypatch: pytest.MonkeyPatch
) -> None:
    import splendor.cli.prompt

    def failing(text: str, table: object) -> Action:
        raise error

    monkeypatch.setattr(splendor.cli.prompt, "parse_action", failing)
    code, text = run("play", "--seed", "1", "--no-color", read=lines_from(["r\u00b21", "quit"]))
    assert code == 0
    assert f"Not understood: {error}" in text
    assert "Game stopped after 0 turns" in text


def test_replay_reads_only_ascii_turn_numbers_of_any_length(tmp_path: Path) -> None:
    record, path = saved_game(tmp_path, ".txt")
    answers = ["\u00b2", "\u0663", "0003", "9" * 5000, "q"]
    code, text = run("replay", str(path), "--step", "--no-color", read=lines_from(answers))
    assert code == 0
    # The superscript and the Arabic-Indic digit are not numbers: each moves on one turn.
    before, after = text.split("At turn 3.")
    assert "   3. " in before
    assert "   4. " not in before
    # A number past the end goes to the end of the record.
    assert f"{len(record.actions):4}. " in after
    assert "Ann wins." in after


def test_an_unexpected_error_is_one_line_with_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import splendor.cli.show

    def broken(*args: object) -> int:
        raise RuntimeError("first line\nsecond line")

    monkeypatch.setattr(splendor.cli.show, "run_show", broken)
    code, _ = run("show", "anything.json")
    assert code == 1
    assert one_line_error(capsys) == (
        "splendor: unexpected error: RuntimeError: first line second line\n"
    )


def test_a_long_error_message_is_cut_short(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import splendor.cli.show

    def broken(*args: object) -> int:
        raise FileError("x" * 50_000)

    monkeypatch.setattr(splendor.cli.show, "run_show", broken)
    code, _ = run("show", "anything.json")
    assert code == 2
    err = one_line_error(capsys)
    assert err.endswith("...\n")
    assert len(err) < 1100


def test_simulate_by_default_seats_greedy_then_random_for_any_player_count(
    tmp_path: Path,
) -> None:
    target = tmp_path / "three.json"
    code, text = run("simulate", "-n", "6", "--players", "3", "-q", "--json", str(target))
    assert code == 0
    results = json.loads(target.read_text())
    assert [bot["bot"] for bot in results["bots"]] == ["greedy", "random", "random"]
    assert "random #3" in text
    assert results["players"] == 3
    code, _ = run("simulate", "-n", "2", "-q", "--json", str(target))
    assert code == 0
    assert [bot["bot"] for bot in json.loads(target.read_text())["bots"]] == ["greedy", "random"]


def test_the_help_says_what_the_bots_option_takes(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["simulate", "--help"], ["play", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
    text = " ".join(capsys.readouterr().out.split())
    assert "one for every seat" not in text
    listed = (
        "one bot for all seats, or one per seat: greedy, ismcts, random, search, "
        "level:N (1 to 9), engine:COMMAND or module:name"
    )
    assert listed in text
    assert "module:name (default: greedy in seat 0 and random in the others)" in text
    assert "one bot for all other seats, or one per other seat" in text


def test_save_file_at_the_prompt_saves_there_and_after_every_turn(tmp_path: Path) -> None:
    save = tmp_path / "later.txt"
    answers = ["save", f"save {save}", "+WBG", "quit"]
    code, text = run("play", "--seed", "1", "--no-color", read=lines_from(answers))
    assert code == 0
    assert "Give a file to save to: save FILE" in text
    assert f"Saved to {save}" in text
    record = parse_record(save.read_text())
    assert len(record.actions) == 2  # the move and the bot's answer, saved after the turns
    assert f"Game stopped after 2 turns; the game so far is in {save}." in text
    assert f"splendor play --resume {save}" in text


def test_save_at_the_prompt_reports_a_file_it_cannot_write(tmp_path: Path) -> None:
    bad = tmp_path / "no-such-dir" / "game.txt"
    code, text = run("play", "--seed", "1", "--no-color", read=lines_from([f"save {bad}", "q"]))
    assert code == 0
    assert "Not saved: cannot write" in text
    assert "not saved." in text


def test_quit_without_a_save_file_offers_to_save(tmp_path: Path) -> None:
    kept = tmp_path / "kept.json"
    answers = ["+WBG", "quit", str(kept)]
    code, text = run("play", "--seed", "1", "--no-color", read=lines_from(answers))
    assert code == 0
    assert "Save the game before quitting?" not in text  # the question is the prompt
    record = load_file(str(kept))
    assert isinstance(record, GameRecord)
    assert len(record.actions) == 2
    assert f"Saved to {kept}.\n" in text
    assert f"the game so far is in {kept}" in text


def test_quit_declining_to_save_says_how_to_keep_a_game() -> None:
    prompts: list[str] = []
    answers = iter(["+WBG", "quit", ""])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    code, text = run("play", "--seed", "1", "--no-color", read=read)
    assert code == 0
    assert prompts[-1].startswith("Save the game before quitting?")
    assert "Game stopped after 2 turns, not saved." in text
    assert "type save FILE at the prompt" in text
    assert "--save FILE" in text


def test_end_of_input_without_a_save_file_says_how_to_keep_a_game() -> None:
    code, text = run("play", "--seed", "1", "--no-color", read=lines_from(["+WBG"]))
    assert code == 0
    assert "Game stopped after 2 turns, not saved." in text
    assert "type save FILE at the prompt" in text


def test_the_players_own_move_is_echoed_and_words_are_understood() -> None:
    answers = ["help", "take white, blue and green", "q"]
    code, text = run("play", "--seed", "1", "--no-color", read=lines_from(answers))
    assert code == 0
    assert "take 2 red" in text.split("You play +WBG")[0]  # the word forms in the help
    assert "diamond sapphire emerald ruby onyx" in text
    assert "You play +WBG: take 1W 1B 1G" in text
    assert text.index("You play +WBG") < text.index("P1 greedy plays")


def test_a_misspelt_colour_at_the_prompt_is_pointed_at() -> None:
    answers = ["take red blue grean", "q"]
    code, text = run("play", "--seed", "1", "--no-color", read=lines_from(answers))
    assert code == 0
    assert "Not understood: " in text
    assert "colours are W B G R K (and Y for gold) or their names, got 'grean'" in text


def test_player_lines_say_1_card_and_1_token_but_2_points() -> None:
    from splendor.cli.output import Output
    from splendor.cli.text import show_table
    from tests.builders import bonus_cards, deal, toks, with_player

    state = with_player(deal(2, seed=1), tokens=toks("1R"), cards=bonus_cards(toks("1W")))
    out = io.StringIO()
    show_table(state, Output(out, color=False))
    text = out.getvalue()
    assert "0 points, 1 card, 1 token\n" in text
    assert "0 points, 0 cards, 0 tokens\n" in text
    assert "1 cards" not in text


@pytest.mark.parametrize(
    ("document", "detail"),
    [
        ('{"format": 1, "foo": 2}', "read as a state: cannot load GameState"),
        ('{"hello": "world"}', "required field missing @ $.format"),
        ("[1, 2]", "it holds no JSON object"),
    ],
)
def test_show_says_a_json_document_is_neither_a_record_nor_a_state(
    document: str, detail: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "other.json"
    path.write_text(document, encoding="utf-8")
    code, _ = run("show", str(path))
    assert code == 2
    err = one_line_error(capsys)
    assert err.startswith(
        f'splendor: {path} is not a game record (a JSON document with "format": 2, '
        'or 1 from earlier versions) or a game state or view (with "format": 1)'
    )
    assert detail in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_plain_progress_lines_appear_only_on_a_terminal(
    terminal: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("rich", "rich.console", "rich.table", "rich.text", "rich.progress"):
        monkeypatch.setitem(sys.modules, name, None)
    err = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    code, _ = run("simulate", "-n", "10")
    assert code == 0
    lines = err.getvalue().splitlines()
    assert lines == ([f"  {n}/10 games" for n in range(1, 11)] if terminal else [])
