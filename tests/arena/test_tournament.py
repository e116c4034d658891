"""Tournaments, ratings, bot specs, self-play records and the local runners."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest

from splendor import GreedyBot, InvalidArgumentError, RandomBot, from_json
from splendor.arena.parallel import RayError, run_tasks
from splendor.arena.runs import game_seed
from splendor.arena.selfplay import generate_records, read_records
from splendor.arena.tournament import (
    GameResult,
    make_bot,
    parse_bot_spec,
    rate,
    round_robin,
)
from splendor.extras import install_command
from splendor.formats.record import GameRecord
from splendor.players import bots
from splendor.players.ismcts import ISMCTSBot


def square(n: int) -> int:
    return n * n


def fail_on_three(n: int) -> int:
    if n == 3:
        raise InvalidArgumentError("three")
    return n


class Options:
    """A third-party bot class taking options."""

    def __init__(self, depth: int = 1, label: str = "x") -> None:
        self.depth = depth
        self.label = label

    def __call__(self, view: object, actions: list[object], rng: object) -> object:
        return actions[0]


class Fails:
    """A bot class whose constructor raises."""

    def __init__(self, depth: int) -> None:
        raise RuntimeError("no")


# --- bot specs ----------------------------------------------------------------


def test_specs_split_into_a_name_and_typed_options() -> None:
    assert parse_bot_spec("greedy") == ("greedy", {})
    assert parse_bot_spec("ismcts:iterations=200,seed=3") == (
        "ismcts",
        {"iterations": 200, "seed": 3},
    )
    assert parse_bot_spec("ismcts:seconds=0.5,rollout=none,seed=-2") == (
        "ismcts",
        {"seconds": 0.5, "rollout": "none", "seed": -2},
    )
    assert parse_bot_spec("pkg.mod:Bot:flag=true,other=False") == (
        "pkg.mod:Bot",
        {"flag": True, "other": False},
    )
    assert parse_bot_spec("pkg.mod:Bot") == ("pkg.mod:Bot", {})


@pytest.mark.parametrize(
    "spec", ["", "  ", ":iterations=3", "ismcts:iterations", "ismcts:a=1,a=2", "ismcts:1x=2"]
)
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(InvalidArgumentError):
        parse_bot_spec(spec if "=" in spec or not spec.strip() else spec + ",b=1")


def test_the_tournament_reads_specs_with_the_one_reader_of_the_bots_module() -> None:
    assert make_bot is bots.load_bot
    assert parse_bot_spec is bots.parse_bot_spec


def test_specs_make_bots_with_their_options() -> None:
    bot = make_bot("ismcts:iterations=30,seed=4,rollout=none")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.seed, bot.rollout) == (30, 4, "none")
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("random"), RandomBot)
    made = make_bot("tests.arena.test_tournament:Options:depth=3,label=deep")
    assert isinstance(made, Options)
    assert (made.depth, made.label) == (3, "deep")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("chess", "unknown bot"),
        ("chess:depth=2", "unknown bot"),
        ("ismcts:iterations=-1", "iterations"),
        ("ismcts:depth=2", "bad options"),
        ("greedy:depth=2", "bad options"),
        ("no_such_module_xyz:Bot:depth=1", "cannot import"),
        ("tests.arena.test_tournament:missing:depth=1", "not a callable"),
        ("tests.arena.test_tournament:Fails:depth=1", r"Fails\(\.\.\.\) raised RuntimeError: no"),
        ("tests.arena.test_tournament:square:n=3", "is not a bot: a int instance is not callable"),
    ],
)
def test_specs_that_make_no_bot_get_the_library_error(spec: str, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make_bot(spec)


# --- ratings ------------------------------------------------------------------


def _game(index: int, entrants: tuple[int, ...], winners: tuple[int, ...]) -> GameResult:
    points = tuple(15 if seat in winners else 10 for seat in range(len(entrants)))
    return GameResult(
        index=index,
        seed=index,
        entrants=entrants,
        winners=winners,
        points=points,
        cards=(10,) * len(entrants),
        turns=60,
    )


def test_pairs_rank_by_winner_then_points_then_fewer_cards() -> None:
    game = GameResult(
        index=0,
        seed=0,
        entrants=(0, 1, 2, 3),
        winners=(2,),
        points=(12, 12, 15, 12),
        cards=(9, 10, 12, 9),
        turns=80,
    )
    assert sorted(game.pairs()) == [
        (0, 1, 1.0),
        (0, 2, 0.0),
        (0, 3, 0.5),
        (1, 2, 0.0),
        (1, 3, 0.0),
        (2, 3, 1.0),
    ]


def test_equal_records_give_equal_ratings_centred_on_1500() -> None:
    games = [_game(i, (i % 2, 1 - i % 2), (0,)) for i in range(40)]  # seat 0 always wins
    ratings = rate(["a", "b"], games)
    assert ratings[0].rating == pytest.approx(1500.0)
    assert ratings[1].rating == pytest.approx(1500.0)
    assert ratings[0].low < 1500.0 < ratings[0].high


def test_the_rating_difference_follows_the_odds() -> None:
    # a beats b 3 times in 4: Bradley-Terry puts them log10(3) * 400 (191) Elo apart,
    # a little less with the virtual draw that keeps ratings finite.
    games = [_game(i, (0, 1), (0,) if i % 4 else (1,)) for i in range(400)]
    first, second = rate(["a", "b"], games)
    assert first.name == "a"
    assert 170.0 < first.rating - second.rating < 191.0
    assert first.score == pytest.approx(0.75)
    assert first.wins == 300.0
    assert first.games == 400


def test_more_games_narrow_the_interval() -> None:
    few = rate(["a", "b"], [_game(i, (0, 1), (0,) if i % 4 else (1,)) for i in range(20)])
    many = rate(["a", "b"], [_game(i, (0, 1), (0,) if i % 4 else (1,)) for i in range(2000)])
    assert many[0].high - many[0].low < (few[0].high - few[0].low) / 5


def test_a_clean_sweep_stays_finite_and_grows_with_the_games() -> None:
    few = rate(["a", "b"], [_game(i, (0, 1), (0,)) for i in range(10)])
    many = rate(["a", "b"], [_game(i, (0, 1), (0,)) for i in range(1000)])
    assert all(math.isfinite(r.low) and math.isfinite(r.high) for r in (*few, *many))
    assert many[0].rating - many[1].rating > few[0].rating - few[1].rating > 0


def test_ratings_order_a_chain_of_strengths() -> None:
    games = []
    for i in range(300):
        a, b = sorted(((i % 3), (i + 1) % 3))
        games.append(_game(i, (a, b), (0,) if i % 5 else (1,)))
    order = [r.name for r in rate(["x", "y", "z"], games)]
    assert order == ["x", "y", "z"]


# --- round robin ---------------------------------------------------------------


def test_a_round_robin_rotates_seats_and_plays_every_table() -> None:
    result = round_robin(["random", "greedy", "ismcts:iterations=4,seed=1"], games=4, seed=2)
    assert len(result.games) == 3 * 4
    tables: dict[frozenset[int], list[tuple[int, ...]]] = {}
    for game in result.games:
        tables.setdefault(frozenset(game.entrants), []).append(game.entrants)
    assert len(tables) == 3
    for seatings in tables.values():
        assert len(set(seatings)) == 2  # each entrant sat first twice
        assert len(seatings) == 4
    # Rotated seatings of a table share their deal.
    first_table = [g for g in result.games if frozenset(g.entrants) == frozenset({0, 1})]
    assert first_table[0].seed == first_table[1].seed != first_table[2].seed
    # Table t deals deal t * 10007 + g // 2 of the run's seeds.
    assert [g.seed for g in result.games] == [
        game_seed(2, table * 10_007 + g // 2) for table in range(3) for g in range(4)
    ]
    assert result.games[4].seed == 2 * 1_000_003 + 10_007
    assert [g.index for g in result.games] == list(range(12))
    for i in range(3):
        assert result.crosstable[i][i] is None
        for j in range(3):
            if i != j:
                cell, other = result.crosstable[i][j], result.crosstable[j][i]
                assert cell is not None
                assert other is not None
                assert cell + other == pytest.approx(1.0)


def test_a_round_robin_is_reproducible_and_the_same_on_processes() -> None:
    here = round_robin(["random", "greedy"], games=6, seed=5)
    again = round_robin(["random", "greedy"], games=6, seed=5)
    spread = round_robin(["random", "greedy"], games=6, seed=5, workers=2)
    assert here == again == spread
    other = round_robin(["random", "greedy"], games=6, seed=6)
    assert other.games != here.games


def test_the_stronger_bot_is_rated_higher() -> None:
    result = round_robin(["random", "greedy"], games=10, seed=1)
    best, worst = result.ratings
    assert best.name == "greedy"
    assert worst.name == "random"
    assert best.score == 1.0
    assert best.rating - worst.rating > 300


def test_multiplayer_tables_and_repeated_specs() -> None:
    result = round_robin(["greedy", "greedy", "random"], games=3, players=3, seed=1)
    assert result.names == ("greedy", "greedy#2", "random")
    assert len(result.games) == 3
    assert {g.entrants for g in result.games} == {(0, 1, 2), (1, 2, 0), (2, 0, 1)}
    assert result.crosstable[0][1] is not None


def test_progress_is_reported_as_games_finish() -> None:
    seen: list[tuple[int, int]] = []
    round_robin(["random", "greedy"], games=3, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_results_as_json_text_and_svg() -> None:
    result = round_robin(["random", "greedy"], games=2, seed=1)
    data = json.loads(result.to_json())
    assert data["names"] == ["random", "greedy"]
    assert data["players"] == 2
    assert len(data["games"]) == 2
    assert data["games"][0].keys() == {
        "index",
        "seed",
        "entrants",
        "winners",
        "points",
        "cards",
        "turns",
        "forfeit",
    }
    assert data["games"][0]["forfeit"] is None
    assert data["skill_ratings"] == []
    assert [r["name"] for r in data["ratings"]] == ["greedy", "random"]
    assert data["crosstable"][1][0] == 1.0
    text = result.format()
    assert "greedy" in text
    assert "95% interval" in text
    svg = result.render_svg()
    assert svg.startswith("<svg")
    assert svg.count("<circle") == 2
    assert ">greedy</text>" in svg


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"bots": "greedy"}, "sequence"),
        ({"bots": ["greedy"]}, "at least 2 bots"),
        ({"bots": ["greedy", "random"], "games": 0}, "games"),
        ({"bots": ["greedy", "random"], "players": 5}, "players"),
        ({"bots": ["greedy", "random"], "seed": "1"}, "seed"),
        ({"bots": ["greedy", "random"], "workers": 0}, "workers"),
        ({"bots": ["greedy", "random"], "max_turns": -1}, "max_turns"),
        ({"bots": ["greedy", "chess"]}, "unknown bot"),
    ],
)
def test_bad_tournaments_are_refused(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        round_robin(**arguments)  # type: ignore[arg-type]  # the wrong types are the point


# --- runners --------------------------------------------------------------------


def test_run_tasks_gives_every_result_with_its_index() -> None:
    assert sorted(run_tasks(square, range(5))) == [(i, i * i) for i in range(5)]
    assert sorted(run_tasks(square, range(5), workers=2)) == [(i, i * i) for i in range(5)]


def test_run_tasks_passes_errors_through() -> None:
    with pytest.raises(InvalidArgumentError, match="three"):
        list(run_tasks(fail_on_three, range(5)))
    with pytest.raises(InvalidArgumentError, match="three"):
        list(run_tasks(fail_on_three, range(5), workers=2))


def test_run_tasks_refuses_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="workers"):
        run_tasks(square, [1], workers=0)
    with pytest.raises(InvalidArgumentError, match="ray"):
        run_tasks(square, [1], ray="")
    with pytest.raises(InvalidArgumentError, match="progress"):
        run_tasks(square, [1], progress=3)  # type: ignore[arg-type]  # the point


def test_a_missing_ray_is_a_library_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    advice = re.escape(install_command("ray"))
    with pytest.raises(RayError, match=advice):
        run_tasks(square, [1], ray="local")
    with pytest.raises(RayError, match=advice):
        round_robin(["greedy", "random"], games=2, ray="local")


# --- self-play records ------------------------------------------------------------


def test_records_are_written_one_json_line_per_game(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert generate_records(path, ["greedy", "random"], games=4, seed=7) == 4
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    records = [from_json(line, GameRecord) for line in lines]
    assert [r.seed for r in records] == [7000021, 7000022, 7000023, 7000024]
    assert [r.seed for r in records] == [game_seed(7, i) for i in range(4)]
    assert [r.names for r in records] == [("greedy", "random"), ("random", "greedy")] * 2
    assert all(r.result is not None for r in records)
    assert list(read_records(path)) == records


def test_records_are_the_same_on_processes(tmp_path: Path) -> None:
    here = tmp_path / "here.jsonl"
    spread = tmp_path / "spread.jsonl"
    generate_records(here, ["greedy", "random", "random"], games=5, seed=1)
    generate_records(spread, ["greedy", "random", "random"], games=5, seed=1, workers=2)
    assert sorted(here.read_text().splitlines()) == sorted(spread.read_text().splitlines())
    assert all(len(r.names or ()) == 3 for r in read_records(here))


def test_resume_drops_a_torn_line_and_plays_only_what_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    generate_records(path, ["greedy", "random"], games=3, seed=0)
    whole = path.read_text().splitlines()
    # An interrupted run: two whole lines and half of a third.
    path.write_text(whole[0] + "\n" + whole[1] + "\n" + whole[2][:40])
    assert generate_records(path, ["greedy", "random"], games=3, seed=0, resume=True) == 1
    assert path.read_text().splitlines() == whole
    assert generate_records(path, ["greedy", "random"], games=3, seed=0, resume=True) == 0


def test_self_play_refuses_bad_arguments(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    with pytest.raises(InvalidArgumentError, match="bots"):
        generate_records(path, [], games=1)
    with pytest.raises(InvalidArgumentError, match="players"):
        generate_records(path, ["greedy"], games=1)
    with pytest.raises(InvalidArgumentError, match="games"):
        generate_records(path, ["greedy", "random"], games=-1)
    with pytest.raises(InvalidArgumentError, match="unknown bot"):
        generate_records(path, ["greedy", "chess"], games=1)
    assert not path.exists()


def test_a_forfeit_names_the_entrant_by_its_spec_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "nonsense_bots.py").write_text(
        "def answers(view, actions, rng):\n    return 'take 3 red'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = round_robin(["greedy", "nonsense_bots:answers"], games=2, seed=1)
    assert len(result.forfeits) == 2
    for game in result.forfeits:
        assert game.forfeit is not None
        assert game.forfeit.detail == "nonsense_bots:answers returned 'take 3 red', not an action"
    first = result.forfeits[0]
    assert first.forfeit is not None
    assert f"  game 0 seat {first.forfeit.seat} nonsense_bots:answers: illegal-move (" in (
        result.format()
    )
