"""What the ``splendor`` command says: version, banners, headings, saving, views."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import pytest

import splendor
from splendor import (
    NOBLES,
    GameRecord,
    GreedyBot,
    RandomBot,
    ReserveFromDeck,
    Take,
    apply,
    format_board,
    format_record,
    new_game,
    parse_record,
    play_game,
    render_svg,
    to_json,
    view,
)
from splendor.cli import main
from splendor.cli.files import load_file
from splendor.cli.output import Output
from splendor.cli.text import show_table
from tests.builders import bonus_cards, deal, toks, with_player


def run(*argv: str, answers: list[str] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    feed: Iterator[str] = iter(answers or [])

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    reader: Callable[[str], str] = read
    return main(list(argv), stdout=out, read=reader), out.getvalue()


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"splendor {splendor.__version__}\n"


@pytest.mark.parametrize("command", [[], ["play"], ["simulate"]])
def test_every_command_explains_players(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--players N number of players, 2 to 4 (default: " in text


def test_turn_lines_say_points_in_words() -> None:
    code, text = run("--seed", "3", "--no-color")
    assert code == 0
    assert " pts" not in text
    assert "-> 0 points" in text


def test_the_demo_saves_the_game_it_plays(tmp_path: Path) -> None:
    target = tmp_path / "demo.json"
    code, text = run("--seed", "3", "--no-color", "--save", str(target))
    assert code == 0
    assert load_file(str(target)) == play_game(
        [GreedyBot(), GreedyBot()], seed=3, names=["P0 greedy", "P1 greedy"]
    )
    assert f"splendor replay {target}" in text


def test_a_resumed_game_says_where_it_goes_on_not_who_moves_first(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    run("play", "--seed", "4", "--save", str(save), "--no-color", answers=["+WBG", "q"])
    code, text = run("play", "--resume", str(save), "--no-color", answers=["q"])
    assert code == 0
    banner = text.splitlines()[0]
    assert "move first" not in banner
    assert "You play seat 0 as You; the game goes on after 2 turns." in banner
    code, text = run("play", "--seed", "4", "--no-color", answers=["q"])
    assert "You play seat 0 as You and move first." in text.splitlines()[0]


def test_the_board_at_the_prompt_calls_the_player_you(tmp_path: Path) -> None:
    code, text = run("play", "--seed", "4", "--no-color", answers=["board", "q"])
    assert code == 0
    assert "Player 0" not in text
    assert "> You  0 points" in text


def test_saving_to_another_file_keeps_saving_to_both(tmp_path: Path) -> None:
    first, second = tmp_path / "game.json", tmp_path / "other.txt"
    answers = ["+WBG", f"save {second}", "+WBR", "q"]
    code, text = run("play", "--seed", "4", "--save", str(first), "--no-color", answers=answers)
    assert code == 0
    assert f"{first} and {second} are saved again after every turn." in text
    one, two = load_file(str(first)), parse_record(second.read_text(encoding="utf-8"))
    assert isinstance(one, GameRecord)
    assert one == two
    assert len(one.actions) == 4
    assert f"the game so far is in {first} and {second}." in text


def test_show_turn_n_is_headed_by_the_turns_played(tmp_path: Path) -> None:
    record = play_game([GreedyBot(), RandomBot()], seed=21, names=["Ann", "Bo"])
    path = tmp_path / "game.json"
    path.write_text(to_json(record), encoding="utf-8")
    code, text = run("show", str(path), "--turn", "20", "--no-color")
    assert code == 0
    assert text.startswith("After 20 turns: Ann to move (round 11)\n")
    assert "Turn 21" not in text


def saved_view(tmp_path: Path) -> tuple[Path, int]:
    state = new_game(2, seed=3)
    state = apply(state, ReserveFromDeck(2))
    hidden = state.players[0].reserved[0].id
    path = tmp_path / "view.json"
    path.write_text(to_json(view(state, 1)), encoding="utf-8")
    return path, hidden


def test_show_displays_a_saved_view_as_its_seat_sees_it(tmp_path: Path) -> None:
    path, hidden = saved_view(tmp_path)
    code, text = run("show", str(path), "--no-color")
    assert code == 0
    assert "> Player 1 (you)  0 points" in text
    assert "r1 a tier 2 card, face down" in text
    assert f"#{hidden}" not in text
    picture = tmp_path / "view.svg"
    assert run("show", str(path), "--svg", str(picture))[0] == 0
    assert picture.read_text(encoding="utf-8").startswith("<svg")


def test_show_refuses_another_seat_for_a_view(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = saved_view(tmp_path)
    assert run("show", str(path), "--seat", "0")[0] == 2
    assert "is seat 1's view: it can only be shown as that seat sees it" in capsys.readouterr().err
    assert run("show", str(path), "--turn", "1")[0] == 2
    assert "--turn needs a game record, not a player's view" in capsys.readouterr().err
    assert run("replay", str(path))[0] == 2
    assert "holds a player's view, not a game record" in capsys.readouterr().err


# A count of 1 followed by a plural noun: "1 cards", "1 games".
ONE_PLURAL: Final = re.compile(
    r"\b1 (card|token|point|turn|game|noble|round|worker|win|seat|bot|player|reserve)s\b"
)


def test_the_board_and_the_commands_say_1_card_not_1_cards(tmp_path: Path) -> None:
    state = with_player(
        deal(2, seed=1),
        tokens=toks("1R"),
        cards=bonus_cards(toks("1W")),
        nobles=(NOBLES[0],),
    )
    reserved = apply(state, ReserveFromDeck(1))
    texts = [format_board(state), format_board(reserved), format_board(view(reserved, 1))]
    texts += [render_svg(state), render_svg(reserved)]
    out = io.StringIO()
    show_table(state, Output(out, color=False))
    texts.append(out.getvalue())
    assert "3 points, 1 card, 1 token, nobles N1" in texts[0]
    assert "1 reserved card" not in texts[1]
    record = GameRecord.start(2, seed=5).append(Take(toks("1W 1B 1G")))
    path = tmp_path / "one.txt"
    path.write_text(format_record(record), encoding="utf-8")
    for argv in (
        ["--max-turns", "1"],
        ["simulate", "-n", "1", "--max-turns", "1", "-q"],
        ["simulate", "-n", "1", "-q"],
        ["tournament", "--bots", "greedy", "random", "-n", "1", "-q"],
        ["replay", str(path)],
        ["show", str(path)],
        ["play", "--seed", "1"],
    ):
        texts.append(run(*argv, "--no-color", answers=["+WBG", "q"])[1])
    assert "1 game, 2 players" in texts[-4]
    assert "stops after 1 turn," in texts[-3]
    assert "stopped unfinished after 1 turn." in texts[6]
    for text in texts:
        assert ONE_PLURAL.search(text) is None, ONE_PLURAL.search(text)


@pytest.mark.parametrize("command", [[], ["play"]])
def test_the_demo_and_play_explain_the_letters_and_the_card_ids(command: list[str]) -> None:
    _, text = run(*command, "--seed", "1", "--no-color", answers=["q"])
    lines = text.splitlines()
    legend = [line for line in lines if line.startswith("Key: ")]
    assert legend == [
        "Key: W white, B blue, G green, R red, K black, Y gold; [R] a card's bonus, #85 its id"
    ]
    # Once, before the first board.
    assert lines.index(legend[0]) < next(i for i, line in enumerate(lines) if "Tier 3" in line)
