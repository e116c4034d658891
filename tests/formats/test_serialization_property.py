"""Property and fuzz tests of the JSON format.

Random games (every player count, standard rules, the no-gold variant and
house rules) round-trip every state and every legal action; records replay
to the same final state. Fuzzing feeds arbitrary JSON and text, and valid
documents with one value changed, deleted, duplicated or renamed: loading
gives a valid object or a :class:`splendor.SerializationError`, nothing else.

Run with ``-s`` to see how many states, actions and fuzz cases were tried.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from types import UnionType
from typing import Final

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor import (
    Action,
    GameRecord,
    GameState,
    Rules,
    SerializationError,
    Take,
    check_state,
    from_json,
    legal_actions,
    to_json,
)
from tests.exercised import check_paths

COUNTS: Final[Counter[str]] = Counter()

Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]


# The paths each test must go down at least once.
PATHS: Final = {
    "test_every_state_and_legal_action_round_trips": (
        "states round-tripped",
        "actions round-tripped",
    ),
    "test_a_record_replays_to_the_same_final_state": ("records replayed",),
    "test_arbitrary_json_gives_a_value_or_a_serialization_error": ("arbitrary JSON refused",),
    "test_arbitrary_text_gives_a_value_or_a_serialization_error": ("arbitrary text refused",),
    "test_a_mutated_document_gives_a_value_or_a_serialization_error": (
        "mutated documents loaded",
        "mutated documents refused",
    ),
}


@pytest.fixture(scope="module", autouse=True)
def _report_counts(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    print(f"\n{__name__}: {dict(sorted(COUNTS.items()))}")
    check_paths(request, COUNTS, PATHS)


rules_strategy = st.one_of(
    st.just(Rules()),
    st.just(Rules.no_gold_variant()),
    st.builds(
        Rules,
        points_to_win=st.integers(1, 15),
        token_limit=st.integers(3, 10),
        reserve_limit=st.integers(0, 3),
        gems_by_players=st.tuples(st.integers(2, 5), st.integers(3, 6), st.integers(4, 8)),
        gold_by_players=st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)),
        nobles_by_players=st.tuples(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10)),
    ),
)


@st.composite
def games(draw: st.DrawFn, max_turns: int = 70) -> tuple[GameRecord, tuple[GameState, ...]]:
    """A random game, as its record and its states, cut after ``max_turns``."""
    players = draw(st.integers(2, 4))
    rules = draw(rules_strategy)
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(draw(st.integers(0, 2**32)))
    record = GameRecord.start(players, seed=seed, rules=rules)
    states = [record.final_state()]
    while not states[-1].is_over and len(states) <= max_turns:
        action = rng.choice(legal_actions(states[-1]))
        record = record.append(action)
        states.append(record.final_state())
    return record, tuple(states)


@given(games())
def test_every_state_and_legal_action_round_trips(
    game: tuple[GameRecord, tuple[GameState, ...]],
) -> None:
    _, states = game
    for state in states:
        text = to_json(state)
        loaded = from_json(text, GameState)
        assert loaded == state
        assert to_json(loaded) == text
        COUNTS["states round-tripped"] += 1
    for action in legal_actions(states[len(states) // 2]):
        assert from_json(to_json(action), Action) == action
        assert from_json(to_json(action), type(action)) == action
        COUNTS["actions round-tripped"] += 1


@given(games())
def test_a_record_replays_to_the_same_final_state(
    game: tuple[GameRecord, tuple[GameState, ...]],
) -> None:
    record, states = game
    loaded = from_json(to_json(record), GameRecord)
    assert loaded == record
    assert loaded.final_state() == states[-1]
    assert GameRecord(record.players, record.seed, record.rules, record.actions).replay() == states
    assert record.result == (states[-1].winners or None)
    COUNTS["records replayed"] += 1


# Fuzzing.

json_values: st.SearchStrategy[Json] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
TARGETS: Final[tuple[type[object] | UnionType, ...]] = (GameState, GameRecord, Rules, Action, Take)


def _load(text: str | bytes, target: type[object] | UnionType, what: str) -> None:
    """Load; only a valid value or a SerializationError may come out."""
    COUNTS["fuzz cases"] += 1
    try:
        value = from_json(text, target)
    except SerializationError as error:
        problems = error.errors
        COUNTS[f"{what} refused"] += 1
    else:
        COUNTS[f"{what} loaded"] += 1
        if isinstance(value, GameState):
            check_state(value)
        assert from_json(to_json(value), target) == value
        return
    assert problems
    assert all(" @ $" in problem for problem in problems)


@given(json_values)
def test_arbitrary_json_gives_a_value_or_a_serialization_error(value: Json) -> None:
    for target in TARGETS:
        _load(json.dumps(value), target, "arbitrary JSON")


@given(st.text(max_size=40) | st.binary(max_size=40))
def test_arbitrary_text_gives_a_value_or_a_serialization_error(text: str | bytes) -> None:
    for target in TARGETS:
        _load(text, target, "arbitrary text")


def _paths(value: Json, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutated(data: Json, path: tuple[str | int, ...], how: str, new: Json) -> str:
    """The document with one change at ``path``, as JSON text."""
    if not path:
        return json.dumps(new)
    parent = data
    for step in path[:-1]:
        parent = parent[step]  # type: ignore[index]  # the path was read from the data
    last = path[-1]
    if isinstance(parent, dict):
        assert isinstance(last, str)
        if how == "delete":
            del parent[last]
        elif how == "duplicate":
            # The same key twice in one object: a text-level change.
            key, value = json.dumps(last), json.dumps(parent[last])
            parent[last] = "\0duplicate"
            pattern = f'{key}: "\\u0000duplicate"'
            return json.dumps(data).replace(pattern, f"{key}: {value}, {key}: {value}", 1)
        elif how == "rename":
            parent[last + "_"] = parent.pop(last)
        else:
            parent[last] = new
    elif isinstance(parent, list):
        assert isinstance(last, int)
        if how == "delete":
            del parent[last]
        elif how == "duplicate":
            parent.insert(last, parent[last])
        else:
            parent[last] = new
    return json.dumps(data)


MUTATIONS_PER_GAME: Final = 10


@given(games(max_turns=30), st.data())
def test_a_mutated_document_gives_a_value_or_a_serialization_error(
    game: tuple[GameRecord, tuple[GameState, ...]], data: st.DataObject
) -> None:
    record, states = game
    for _ in range(MUTATIONS_PER_GAME):
        kind = data.draw(st.sampled_from(["state", "record", "action"]))
        target: type[object] | UnionType
        if kind == "state":
            source: object = data.draw(st.sampled_from(states))
            target = GameState
        elif kind == "record":
            source, target = record, GameRecord
        else:
            source = data.draw(st.sampled_from(legal_actions(states[0])))
            target = Action
        document: Json = json.loads(to_json(source))
        path = data.draw(st.sampled_from(list(_paths(document))))
        how = data.draw(st.sampled_from(["replace", "delete", "duplicate", "rename"]))
        _load(_mutated(document, path, how, data.draw(json_values)), target, "mutated documents")
