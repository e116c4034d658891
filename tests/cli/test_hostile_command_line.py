"""Bad files, arguments and answers at the ``splendor`` command line.

A bad file or argument is a message and exit status 2, garbage at the
prompt is asked again, and input that once ended in a traceback is handled;
the comment of each of those says what went wrong before the fix.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from splendor import (
    RandomBot,
    play_game,
    to_json,
)
from splendor.cli import main


def _run_cli(argv: list[str], lines: Sequence[str] = ()) -> tuple[int, str]:
    answers: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    status = main(argv, stdout=out, read=read)
    return status, out.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    record = play_game([RandomBot(), RandomBot()], seed=3, max_turns=4)
    (folder / "record.json").write_text(to_json(record), encoding="utf-8")
    (folder / "state.json").write_text(to_json(record.final_state()), encoding="utf-8")
    (folder / "binary.txt").write_bytes(b"\xff\xfe\x00garbage")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    (folder / "format.json").write_text('{"format": 1}', encoding="utf-8")
    (folder / "actions.json").write_text('{"actions": 5}', encoding="utf-8")
    (folder / "array.json").write_text("[1, 2]", encoding="utf-8")
    (folder / "broken.json").write_text('{"format": ', encoding="utf-8")
    (folder / "illegal.txt").write_text("players: 2\nseed: 1\n\n+RR\n+RR\n", encoding="utf-8")
    (folder / "deep.json").write_text('{"a": ' + "[" * 100_000, encoding="utf-8")
    (folder / "deep_names.txt").write_text(
        "players: 2\nseed: 1\nnames: " + "[" * 100_000 + "\n", encoding="utf-8"
    )
    (folder / "superscript.txt").write_text("players: 2\nseed: 1\n\nr\u00b21\n", encoding="utf-8")
    return folder


HANDLED_CLI: dict[str, list[str]] = {
    "missing file": ["show", "{}/no_such_file"],
    "a directory": ["show", "{}"],
    "binary": ["show", "{}/binary.txt"],
    "empty": ["show", "{}/empty.txt"],
    "format only": ["show", "{}/format.json"],
    "actions not a list": ["show", "{}/actions.json"],
    "array": ["show", "{}/array.json"],
    "broken json": ["show", "{}/broken.json"],
    "illegal record": ["show", "{}/illegal.txt"],
    "turn out of range": ["show", "{}/record.json", "--turn", "99"],
    "turn negative": ["show", "{}/record.json", "--turn", "-1"],
    "turn of a state": ["show", "{}/state.json", "--turn", "1"],
    "seat out of range": ["show", "{}/record.json", "--seat", "7"],
    "svg unwritable": ["show", "{}/record.json", "--svg", "{}/no/such/dir/x.svg"],
    "replay a state": ["replay", "{}/state.json", "--no-step"],
    "resume a state": ["play", "--resume", "{}/state.json"],
    "play seat": ["play", "--seat", "5"],
    "unknown bot": ["--bots", "chess"],
    "too many bots": ["--players", "3", "--bots", "greedy", "random"],
    "negative max turns": ["--max-turns", "-1"],
    "no games": ["simulate", "--games", "0"],
    "simulate unknown bot": ["simulate", "-n", "1", "--bots", "nope_zz:x"],
}


@pytest.mark.parametrize("argv", list(HANDLED_CLI.values()), ids=list(HANDLED_CLI))
def test_cli_a_bad_file_or_argument_is_a_message(
    argv: list[str], files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = _run_cli([arg.replace("{}", str(files)) for arg in argv])
    assert status == 2
    assert capsys.readouterr().err.startswith("splendor: ")


def test_cli_argparse_errors_exit_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--seed", "abc"])
    assert caught.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_cli_garbage_at_the_prompt_is_asked_again() -> None:
    lines = ["\x00", "+" + "w" * 50, "r5", "b11", "hint", "moves", "quit"]
    status, text = _run_cli(["play", "--seed", "1", "--no-color"], lines)
    assert status == 0
    assert text.count("Not understood") == 2
    assert text.count("Not allowed") == 2


DEFECT_CLI: dict[str, tuple[list[str], list[str]]] = {
    # cli.py load_file: json.loads catches ValueError only, not RecursionError.
    "deeply nested json": (["show", "{}/deep.json"], []),
    # notation.py _parse_names, through load_file.
    "deeply nested names": (["show", "{}/deep_names.txt"], []),
    # notation.py _Reader.number, through load_file.
    "superscript in a record": (["show", "{}/superscript.txt"], []),
    # bots.py load_bot: import_module("..x") raises TypeError.
    "relative bot module": (["--bots", "..x:y"], []),
    "relative bot module in simulate": (["simulate", "-n", "1", "--bots", "..x:y"], []),
    # bots.py load_bot: a class that needs arguments.
    "bot class with arguments": (["--bots", "splendor.core.state:GameState"], []),
    # play_game calls a callable that is not a bot: TypeError from the call.
    "bot that is no bot": (["--bots", "os:getcwd"], []),
    # cli.py _ask -> parse_action: ValueError from int("\u00b2").
    "superscript at the prompt": (["play", "--seed", "1"], ["r\u00b21", "quit"]),
    # cli.py run_replay: answer.isdigit() then int(answer).
    "superscript when stepping": (["replay", "{}/record.json", "--step"], ["\u00b2", "q"]),
    "5000 digits when stepping": (["replay", "{}/record.json", "--step"], ["9" * 5000, "q"]),
}


@pytest.mark.parametrize("case", list(DEFECT_CLI.values()), ids=list(DEFECT_CLI))
def test_cli_input_that_once_ended_in_a_traceback_is_handled(
    case: tuple[list[str], list[str]], files: Path
) -> None:
    argv, lines = case
    status, _ = _run_cli([arg.replace("{}", str(files)) for arg in argv], lines)
    assert status in (0, 2)
