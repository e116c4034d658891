"""The layout of the format modules: who imports whom, converters, shared helpers, records."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Final

import attrs
import pytest
from cattrs.preconf.json import JsonConverter

import splendor
import splendor.formats.record
from splendor import (
    GameRecord,
    IllegalActionError,
    InvalidArgumentError,
    Take,
    Tokens,
    from_json,
    legal_actions,
    new_game,
    to_json,
    view,
)
from splendor.core.views import check_view
from splendor.formats.serialization import make_converter

SOURCE: Final = Path(splendor.__file__).parent
# The modules below serialisation: none of them may import it or cattrs, even lazily.
BELOW_JSON: Final = (
    "core/views",
    "formats/record",
    "core/validation",
    "formats/notation",
    "formats/_action_notation",
    "formats/record_text",
    "formats/_replay",
    "formats/xml",
)


def _imports(module: str) -> set[str]:
    """Every module ``module`` imports, at any depth of its code."""
    tree = ast.parse((SOURCE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("module", BELOW_JSON)
def test_a_module_below_json_imports_neither_serialization_nor_cattrs(module: str) -> None:
    imported = _imports(module)
    assert not {name for name in imported if name.startswith("cattrs")}
    assert "splendor.formats.serialization" not in imported
    assert "splendor.formats._strict_converter" not in imported


@pytest.mark.parametrize(
    "module",
    [
        "formats/serialization",
        "core/views",
        "formats/record",
        "core/validation",
        "formats/notation",
        "formats/_action_notation",
        "formats/record_text",
    ],
)
def test_no_private_name_of_another_module_is_imported(module: str) -> None:
    # An underscore module is a home for shared helpers: importing it is fine.
    tree = ast.parse((SOURCE / f"{module}.py").read_text(encoding="utf-8"))
    private = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("splendor")
        for alias in node.names
        if alias.name.startswith("_")
        and not (
            SOURCE / node.module.replace(".", "/").removeprefix("splendor/") / f"{alias.name}.py"
        ).exists()
    ]
    assert private == []


def test_make_converter_builds_a_fresh_fully_registered_converter() -> None:
    first, second = make_converter(), make_converter()
    assert isinstance(first, JsonConverter)
    assert first is not second
    state = new_game(3, seed=4)
    assert first.unstructure(state) == second.unstructure(state)
    assert first.structure(first.unstructure(state), splendor.GameState) == state
    seen = view(state, 1)
    assert first.structure(first.unstructure(seen), splendor.PlayerView) == seen


def test_changing_a_converter_changes_no_other_nor_to_json() -> None:
    mine = make_converter()
    mine.register_unstructure_hook(Tokens, lambda tokens: "changed")
    assert mine.unstructure(Tokens(red=1)) == "changed"
    assert make_converter().unstructure(Tokens(red=1)) == {"red": 1}
    assert to_json(Take(Tokens(red=2))) == '{"type":"take","gems":{"red":2}}'


def test_serialization_no_longer_exports_a_global_converter() -> None:
    from splendor.formats import serialization

    assert not hasattr(serialization, "converter")
    assert "converter" not in serialization.__all__


def _recorded(turns: int, seed: int = 3) -> GameRecord:
    record = GameRecord.start(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if record.result is not None:
            break
        record = record.append(rng.choice(legal_actions(record.final_state())))
    return record


def test_append_does_not_check_the_earlier_actions_again(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[int] = []
    original = splendor.formats.record._check_action

    def counting(action: object, index: int) -> None:
        checked.append(index)
        original(action, index)

    monkeypatch.setattr(splendor.formats.record, "_check_action", counting)
    record = _recorded(60)
    assert len(record.actions) == 60
    # Building a record checks its actions once; appending checks none again.
    assert checked == []
    GameRecord(2, seed=3, actions=record.actions)
    assert checked == list(range(60))


def test_an_appended_record_equals_one_built_at_once() -> None:
    record = _recorded(40)
    rebuilt = GameRecord(
        record.players, record.seed, record.rules, record.actions, record.names, record.result
    )
    assert record == rebuilt
    assert hash(record) == hash(rebuilt)
    assert record.final_state() == rebuilt.final_state()
    assert attrs.evolve(record, names=("a", "b")).names == ("a", "b")


def test_state_at_gives_each_state_of_the_replay() -> None:
    record = _recorded(25)
    states = record.replay()
    for turn, state in enumerate(states):
        assert record.state_at(turn) == state
        assert record.state_at(turn - len(states)) == state
    assert record.state_at(-1) is record.final_state()


@pytest.mark.parametrize("turn", [26, -27, 1.0, True, "3", None])
def test_state_at_refuses_a_turn_out_of_range(turn: object) -> None:
    record = _recorded(25)
    with pytest.raises(InvalidArgumentError, match="turn must be an int from -26 to 25"):
        record.state_at(turn)  # type: ignore[arg-type]  # wrong on purpose


def test_state_at_names_an_illegal_action() -> None:
    record = GameRecord(2, seed=1, actions=(Take(Tokens(red=2)), Take(Tokens(red=2))))
    assert record.state_at(1).turn == 1
    with pytest.raises(IllegalActionError, match=r"^turn 2 "):
        record.state_at(2)


@pytest.mark.parametrize("seed", [2**63, -(2**63), 10**5000], ids=["2**63", "-2**63", "10**5000"])
def test_a_record_seed_is_bounded(seed: int) -> None:
    with pytest.raises(InvalidArgumentError, match=r"seed must be an int from") as info:
        GameRecord(2, seed=seed)
    assert len(str(info.value)) < 200


def test_the_largest_seed_is_accepted_and_written() -> None:
    record = GameRecord(2, seed=2**63 - 1)
    assert from_json(to_json(record), GameRecord) == record


def test_check_view_accepts_views_of_states_and_refuses_impossible_ones() -> None:
    seen = view(new_game(2, seed=1), 0)
    check_view(seen)
    check_view(attrs.evolve(seen, turn=0))  # equal to a real view: checked in full, passes
    with pytest.raises(InvalidArgumentError, match=r"^impossible view: "):
        check_view(attrs.evolve(seen, turn=1))
    with pytest.raises(InvalidArgumentError, match="expected a PlayerView, got str"):
        check_view("a view")  # type: ignore[arg-type]  # wrong on purpose


def test_the_action_notation_and_the_record_text_import_each_other_in_no_circle() -> None:
    # record_text reads actions with the action notation; notation offers the
    # record functions too, so the action notation's code lives below both.
    assert "splendor.formats.notation" not in _imports("formats/record_text")
    assert "splendor.formats.notation" not in _imports("formats/_action_notation")
    assert "splendor.formats.record_text" not in _imports("formats/_action_notation")
