"""``splendor play`` on a terminal: the last moves above the prompt, a compact board when small."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from splendor import GameRecord, format_action, legal_actions
from splendor.cli import main
from splendor.cli.files import save_record

# The moves of seat 0 in the game with seed 1 against GreedyBot; each is legal when played.
_MOVES = ["+WBG", "+WBR", "+GRK"]


class _Terminal(io.StringIO):
    """A standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def screens(out: io.StringIO, answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """A ``read`` giving ``answers``, and the text written before each prompt, one per prompt."""
    feed: Iterator[str] = iter(answers)
    seen: list[str] = []

    def read(prompt: str) -> str:
        seen.append(out.getvalue())
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read, seen


def play(answers: list[str], *argv: str, out: io.StringIO | None = None) -> list[str]:
    """What ``splendor play`` wrote before each of its prompts, each screen on its own."""
    stdout = out if out is not None else io.StringIO()
    read, seen = screens(stdout, answers)
    main(["play", "--seed", "1", "--no-color", *argv], stdout=stdout, read=read)
    return [after[len(before) :] for before, after in zip(["", *seen], seen, strict=False)]


def test_the_last_moves_are_right_above_the_prompt() -> None:
    shown = play(_MOVES[:2])
    assert "Last moves" not in shown[0]  # nothing played yet
    last = shown[1].rstrip("\n").splitlines()[-3:]
    assert last[0] == "Last moves:"
    assert last[1] == "  turn 1: You play +WBG: take 1W 1B 1G"
    assert last[2].startswith("  turn 2: P1 greedy plays +")


def test_the_last_moves_are_a_round_of_turns_one_line_each() -> None:
    shown = play(_MOVES, "--players", "3")
    last = shown[2].rstrip("\n").splitlines()[-4:]
    assert last[0] == "Last moves:"
    assert [line.split(":")[0] for line in last[1:]] == ["  turn 4", "  turn 5", "  turn 6"]
    assert last[1].startswith("  turn 4: You play +WBR: ")


def test_a_resumed_game_shows_its_last_moves(tmp_path: Path) -> None:
    record = GameRecord.start(2, seed=1, names=("You", "P1 greedy"))
    state = record.final_state()
    first = next(a for a in legal_actions(state) if format_action(a, state) == "+WBG")
    record = record.append(first)
    path = tmp_path / "game.txt"
    save_record(record, str(path))
    shown = play([], "--resume", str(path))
    last = shown[0].rstrip("\n").splitlines()[-3:]
    assert last[:2] == ["Last moves:", "  turn 1: You play +WBG: take 1W 1B 1G"]
    assert last[2].startswith("  turn 2: P1 greedy plays +")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_on_an_80_by_24_terminal_the_whole_turn_fits_on_the_screen(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setenv("COLUMNS", "80")
    shown = play(_MOVES[:2], "--players", str(players), out=_Terminal())
    turn = shown[1].split("\n\n")[-1].rstrip("\n").splitlines()
    assert turn[0].startswith("Turn ")  # the compact board's headline
    assert len(turn) + 1 <= 24  # and the prompt
    assert all(len(line) <= 80 for line in turn)
    assert turn[-1].startswith(f"  turn {players}: ")


def test_a_tall_terminal_shows_the_full_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LINES", "60")
    monkeypatch.setenv("COLUMNS", "80")
    shown = play(_MOVES[:1], out=_Terminal())
    assert "Tier 3" in shown[0]


def test_the_compact_board_shows_cards_nobles_supply_and_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LINES", "24")
    shown = play(_MOVES[:1], out=_Terminal())
    board = shown[0].split("\n\n")[-1]
    assert "Turn 1, round 1: You to move" in board
    assert "Nobles N2 4W4K" in board
    assert "T3 (16) 31 [R]4 3B6G3R" in board
    assert "T1 (36) 11 [G]1 4K  12 [W] 1B2G1R1K" in board
    assert "Supply 4W 4B 4G 4R 4K 5Y" in board
    assert "> You 0pt, tokens -, bonuses -" in board
    assert "  P1 greedy 0pt" in board
