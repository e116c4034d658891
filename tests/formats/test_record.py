"""Game records: start, append, replay, checks."""

from __future__ import annotations

import random

import pytest

from splendor import (
    CARDS_BY_ID,
    Buy,
    GameRecord,
    IllegalActionError,
    InvalidArgumentError,
    Pass,
    Rules,
    Take,
    Tokens,
    apply,
    from_json,
    legal_actions,
    new_game,
    to_json,
)


def _random_record(players: int, seed: int, rules: Rules | None = None) -> GameRecord:
    record = GameRecord.start(players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while record.result is None:
        record = record.append(rng.choice(legal_actions(record.final_state())))
    return record


def test_start_deals_the_game_of_new_game() -> None:
    rules = Rules.no_gold_variant()
    record = GameRecord.start(3, seed=12, rules=rules, names=("a", "b", "c"))
    assert record.final_state() == new_game(3, seed=12, rules=rules)
    assert record.initial_state() == record.final_state()
    assert (record.actions, record.result, record.names) == ((), None, ("a", "b", "c"))


def test_append_plays_the_action_and_leaves_the_record_unchanged() -> None:
    record = GameRecord.start(2, seed=1)
    longer = record.append(Take(Tokens(red=2)))
    assert record.actions == ()
    assert longer.actions == (Take(Tokens(red=2)),)
    assert longer.final_state() == apply(new_game(2, seed=1), Take(Tokens(red=2)))


def test_replay_gives_every_state_in_order() -> None:
    record = _random_record(2, seed=3)
    states = record.replay()
    assert len(states) == len(record.actions) + 1
    assert states[0] == new_game(2, seed=3)
    for before, action, after in zip(states[:-1], record.actions, states[1:], strict=True):
        assert apply(before, action) == after
    assert states[-1] == record.final_state()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_record_has_the_winners_as_result(players: int) -> None:
    record = _random_record(players, seed=players)
    final = record.final_state()
    assert final.is_over
    assert record.result == final.winners


def test_a_rebuilt_record_replays_to_the_same_final_state() -> None:
    record = _random_record(4, seed=21, rules=Rules(points_to_win=10))
    rebuilt = GameRecord(4, 21, Rules(points_to_win=10), record.actions, None, record.result)
    assert rebuilt == record
    assert rebuilt.final_state() == record.final_state()
    assert from_json(to_json(record), GameRecord).final_state() == record.final_state()


def test_an_illegal_action_names_the_turn_and_the_reason() -> None:
    record = GameRecord(2, seed=1, actions=(Take(Tokens(red=2)), Take(Tokens(red=2))))
    with pytest.raises(
        IllegalActionError, match=r"^turn 2 \(player 1, take 2R\): take 2 red needs"
    ):
        record.replay()
    with pytest.raises(IllegalActionError, match=r"^turn 2 "):
        record.final_state()


def test_append_refuses_an_illegal_action_with_the_turn() -> None:
    record = GameRecord.start(2, seed=1).append(Take(Tokens(red=2)))
    with pytest.raises(IllegalActionError, match=r"^turn 2 \(player 1, pass\): "):
        record.append(Pass())
    with pytest.raises(IllegalActionError, match=r"^turn 2 .*cannot buy card #90: it is not"):
        record.append(Buy(CARDS_BY_ID[90]))
    with pytest.raises(InvalidArgumentError, match=r"^turn 2 "):
        record.append("pass")  # type: ignore[arg-type]  # the wrong type on purpose
    assert record.actions == (Take(Tokens(red=2)),)


def test_append_after_the_end_is_refused() -> None:
    record = _random_record(2, seed=5)
    with pytest.raises(IllegalActionError, match="the game is over"):
        record.append(Pass())


def test_a_result_that_does_not_match_is_refused() -> None:
    record = _random_record(2, seed=6)
    assert record.result is not None
    losers = tuple(seat for seat in range(2) if seat not in record.result)
    wrong = GameRecord(2, 6, record.rules, record.actions, None, losers)
    with pytest.raises(IllegalActionError, match="does not match the winners"):
        wrong.replay()
    with pytest.raises(IllegalActionError, match="the game is not over"):
        GameRecord(2, seed=6, result=(0,)).final_state()


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        ({"players": 5, "seed": 1}, "players must be an int from 2 to 4"),
        ({"players": 2, "seed": None}, "seed must be an int"),
        ({"players": 2, "seed": 1, "rules": "standard"}, "rules must be a splendor.Rules"),
        ({"players": 2, "seed": 1, "actions": [Pass()]}, "actions must be a tuple"),
        ({"players": 2, "seed": 1, "actions": ("pass",)}, "actions[0] is not an action"),
        ({"players": 2, "seed": 1, "names": ("a",)}, "must name each of the 2 players"),
        ({"players": 2, "seed": 1, "names": ("a", 2)}, "names must be None or a tuple of str"),
        ({"players": 2, "seed": 1, "result": (2,)}, "result must be None or the winning seats"),
        ({"players": 2, "seed": 1, "result": (1, 0)}, "in increasing order"),
        ({"players": 2, "seed": 1, "result": ()}, "result must be None"),
    ],
)
def test_bad_fields_are_refused(kwargs: dict[str, object], text: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        GameRecord(**kwargs)  # type: ignore[arg-type]  # wrong on purpose
    assert text in str(info.value)


def test_records_compare_by_value_not_by_cache() -> None:
    first = GameRecord.start(2, seed=9).append(Take(Tokens(red=2)))
    second = GameRecord(2, seed=9, actions=(Take(Tokens(red=2)),))
    assert first == second
    assert hash(first) == hash(second)
    assert "final" not in repr(first)
