"""``splendor analyse``: records of every form, the report, the chart, bad arguments."""

from __future__ import annotations

import io
import json
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import splendor
from splendor.cli import main
from splendor.formats.notation import format_record
from tests.remote._engines import environment, served

ENGINE = "ismcts:iterations=20,seed=1"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    return code, out.getvalue()


def _record(seed: int = 3) -> splendor.GameRecord:
    return splendor.play_game([splendor.GreedyBot(), splendor.RandomBot()], seed=seed, max_turns=16)


def test_a_json_record_is_analysed_with_a_report_and_a_chart(tmp_path: Path) -> None:
    record = _record()
    game, chart = tmp_path / "game.json", tmp_path / "chances.svg"
    game.write_text(splendor.to_json(record, indent=1))
    code, text = run("analyse", str(game), "--engine", ENGINE, "--svg", str(chart), "-q")
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == (
        f"Analysis by ISMCTSBot(iterations=20, seed=1): 2 players, seed {record.seed}, "
        f"{len(record.actions)} moves"
    )
    rows = [line for line in lines if line[:4].strip().isdigit()]
    assert len(rows) == len(record.actions)
    assert lines[-1] == f"Chart written to {chart}."
    root = ET.fromstring(chart.read_text())
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 2


def test_a_text_record_gives_the_same_analysis(tmp_path: Path) -> None:
    record = _record()
    as_json, as_text = tmp_path / "game.json", tmp_path / "game.txt"
    as_json.write_text(splendor.to_json(record))
    as_text.write_text(format_record(record))
    assert run("analyse", str(as_json), "--engine", ENGINE, "-q") == run(
        "analyse", str(as_text), "--engine", ENGINE, "-q"
    )


def test_a_game_of_a_json_lines_file_is_chosen_with_game(tmp_path: Path) -> None:
    records = [_record(seed) for seed in (3, 4, 5)]
    lines = tmp_path / "games.jsonl"
    lines.write_text("".join(splendor.to_json(r) + "\n" for r in records))
    code, text = run("analyse", str(lines), "--game", "2", "--engine", ENGINE, "-q")
    assert code == 0
    assert f"seed {records[1].seed}, {len(records[1].actions)} moves" in text.splitlines()[0]
    assert run("analyse", str(lines), "--engine", ENGINE, "-q")[0] == 2
    assert run("analyse", str(lines), "--game", "4", "--engine", ENGINE, "-q")[0] == 2


def test_a_record_that_stops_early_is_analysed_as_far_as_it_goes(tmp_path: Path) -> None:
    record = _record()
    short = splendor.GameRecord(2, record.seed, actions=record.actions[:6])
    game = tmp_path / "game.json"
    game.write_text(splendor.to_json(short))
    code, text = run("analyse", str(game), "--engine", ENGINE, "-q")
    assert code == 0
    assert "(unfinished)" in text.splitlines()[-1]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--engine", "greedy"), "greedy cannot analyse"),
        (("--time", "0"), "--time must be a positive number"),
        (("--time", "nan"), "--time must be a positive number"),
        (("--thresholds", "0.2", "0.1", "0.05"), "inaccuracy <= mistake <= blunder"),
        (("--game", "2"), "holds one game"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], message: str
) -> None:
    game = tmp_path / "game.json"
    game.write_text(splendor.to_json(_record()))
    code, _ = run("analyse", str(game), "-q", *extra)
    assert code == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_file_that_is_not_a_record_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json"
    state.write_text(splendor.to_json(splendor.new_game(2, seed=1)))
    assert run("analyse", str(state), "-q")[0] == 2
    assert "not a game record" in capsys.readouterr().err


def test_the_annotated_record_is_written_and_read_back(tmp_path: Path) -> None:
    record = _record()
    game, annotated = tmp_path / "game.json", tmp_path / "annotated.json"
    game.write_text(splendor.to_json(record))
    code, text = run("analyse", str(game), "--engine", ENGINE, "--out", str(annotated), "-q")
    assert code == 0
    assert text.splitlines()[-1] == f"Annotated record written to {annotated}."
    loaded = splendor.from_json(annotated.read_text(), splendor.GameRecord)
    assert loaded.actions == record.actions
    assert loaded.annotations is not None
    assert len(loaded.annotations) == len(record.actions)
    data = json.loads(annotated.read_text())
    assert data["format"] == 2
    assert set(data["annotations"][0]) == {
        "win_before",
        "win_after",
        "best",
        "judgement",
        "comment",
    }
    # The annotated record is analysed again like any other.
    assert (
        run("analyse", str(annotated), "--engine", ENGINE, "-q")[1]
        == run("analyse", str(game), "--engine", ENGINE, "-q")[1]
    )


def test_an_engine_spec_analyses_over_the_protocol(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", environment()["PYTHONPATH"])
    record = _record()
    game = tmp_path / "game.json"
    game.write_text(splendor.to_json(record))
    command = shlex.join([*served(ENGINE)])
    code, text = run("analyse", str(game), "--engine", f"engine:{command}", "--time", "5", "-q")
    assert code == 0
    here = run("analyse", str(game), "--engine", ENGINE, "-q")[1]
    assert text.splitlines()[0].startswith(f"Analysis by ismcts {splendor.__version__}: ")
    assert text.splitlines()[1:] == here.splitlines()[1:]
