"""The command line's messages: every kind of bot named, the right format, values shortened."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from splendor.arena.referee import referee_game
from splendor.arena.tournament import round_robin
from splendor.cli import main
from splendor.errors import InvalidArgumentError
from splendor.players.bots import BOT_KINDS, GreedyBot, load_bot
from splendor.players.ismcts import ISMCTSBot
from splendor.schema import FORMAT_VERSION, RECORD_FORMAT_VERSION

HUGE = 10**5000

# A bot module written where the command runs: one bot answers a huge int, one raises it.
_BOTS = """
def answers_huge(view, actions, rng):
    return 10**5000


def raises_huge(view, actions, rng):
    raise ValueError(10**5000)
"""


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), stdout=out), out.getvalue()


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("splendor: ")
    return err


@pytest.fixture
def huge_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The name of a module of misbehaving bots, importable from the current directory."""
    (tmp_path / "hugebots_messages.py").write_text(_BOTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "hugebots_messages"


def test_an_unknown_bot_is_answered_with_every_kind_of_spec(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _ = run("--bots", "foo")
    assert code == 2
    err = one_line(capsys)
    assert f"unknown bot 'foo': use {BOT_KINDS}" in err
    for kind in (
        "greedy",
        "ismcts",
        "random",
        "search",
        "level:N",
        "engine:COMMAND",
        "module:name",
    ):
        assert kind in err


def test_a_document_of_neither_kind_is_told_the_format_of_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": 7}', encoding="utf-8")
    code, _ = run("show", str(path))
    assert code == 2
    err = one_line(capsys)
    assert f'game record (a JSON document with "format": {RECORD_FORMAT_VERSION}' in err
    assert f'game state or view (with "format": {FORMAT_VERSION})' in err


def test_a_saved_game_has_the_record_format_the_message_names(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    answers = iter(["+WBG", "quit"])
    argv = ["play", "--seed", "1", "--save", str(path), "--no-color"]
    assert main(argv, stdout=io.StringIO(), read=lambda _: next(answers)) == 0
    assert f'"format": {RECORD_FORMAT_VERSION}' in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("bot", "said"),
    [
        ("answers_huge", "returned an int of 16610 bits, not an action"),
        ("raises_huge", "raised ValueError: a ValueError too large to print"),
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        ["--seed", "1", "--no-color", "--bots"],
        ["simulate", "-n", "1", "-q", "--bots"],
    ],
)
def test_a_bot_answering_a_huge_int_is_reported_in_one_line(
    huge_bots: str, bot: str, said: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(*command, f"{huge_bots}:{bot}", "greedy")
    assert code == 2
    err = one_line(capsys)
    assert said in err
    assert "Exceeds the limit" not in err


@pytest.mark.parametrize(
    ("bot", "reason", "detail"),
    [
        ("answers_huge", "illegal-move", "16610"),
        ("raises_huge", "crash", "ValueError"),
    ],
)
def test_a_tournament_shows_the_forfeit_of_a_bot_answering_a_huge_int(
    huge_bots: str, bot: str, reason: str, detail: str
) -> None:
    code, text = run(
        "tournament", "-n", "2", "--no-color", "--bots", f"{huge_bots}:{bot}", "greedy"
    )
    assert code == 0
    assert reason in text
    assert detail in text
    assert "Exceeds the limit" not in text


@pytest.mark.parametrize(
    ("bot", "reason", "detail"),
    [
        (
            "answers_huge",
            "illegal-move",
            "answers_huge returned an int of 16610 bits, not an action",
        ),
        ("raises_huge", "crash", "ValueError: a ValueError too large to print"),
    ],
)
def test_the_referee_forfeits_a_bot_answering_a_huge_int(
    huge_bots: str, bot: str, reason: str, detail: str
) -> None:
    record = referee_game([load_bot(f"{huge_bots}:{bot}"), GreedyBot()], seed=1)
    assert record.result == (1,)
    assert record.forfeit is not None
    assert (record.forfeit.seat, record.forfeit.reason) == (0, reason)
    assert record.forfeit.detail == detail


@pytest.mark.parametrize(
    "make",
    [
        lambda: round_robin(["greedy", "random"], games=-HUGE),
        lambda: round_robin(["greedy", "random"], max_turns=-HUGE),
        lambda: ISMCTSBot(iterations=-HUGE),
        lambda: load_bot("x" * 5000),
        lambda: load_bot("level:" + "9" * 5000),
    ],
)
def test_an_argument_quoted_in_a_message_is_shortened(make: Callable[[], object]) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        make()
    assert len(str(caught.value)) < 300
