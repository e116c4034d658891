"""The tables and validators the engine builds once, at import, rebuilt and checked.

The engine loads its cards and nobles, makes its validators and plans its
takes when a module is imported. These tests call the functions that build
them again, so that a fault in them is seen by the test that calls them, not
only by whichever test happens to run first after the import (which is all
that mutation testing can see of code run at import).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from splendor import (
    CARDS,
    NOBLES,
    Card,
    InvalidArgumentError,
    Noble,
    Rules,
    Take,
    Tokens,
)
from splendor.core import actions as actions_module
from splendor.core import components, legal
from splendor.core import rules as rules_module
from splendor.core.gems import MAX_COUNT

# ---------------------------------------------------------------------------
# Cards and nobles: read from the package data and checked on load.


def test_loading_the_cards_again_gives_the_same_90_cards() -> None:
    loaded = components._load_cards()
    assert [(c.id, c.tier, c.bonus, c.points, c.cost) for c in loaded] == [
        (c.id, c.tier, c.bonus, c.points, c.cost) for c in CARDS
    ]


def test_loading_the_nobles_again_gives_the_same_10_nobles() -> None:
    loaded = components._load_nobles()
    assert [(n.id, n.points, n.requirement) for n in loaded] == [
        (n.id, n.points, n.requirement) for n in NOBLES
    ]


def test_the_data_is_read_from_the_files_beside_the_module() -> None:
    # importlib.resources is the fallback for a package not on the file
    # system; the usual read must not need it.
    rows = components._read_rows("cards.csv")
    package = os.path.dirname(os.path.dirname(components.__file__))
    path = os.path.join(package, "data", "cards.csv")
    with open(path, encoding="utf-8") as file:
        assert len(rows) == sum(1 for _ in file) - 1 == 90
    assert rows[0] == {
        "id": "1",
        "tier": "1",
        "bonus": "white",
        "points": "0",
        "white": "0",
        "blue": "0",
        "green": "0",
        "red": "2",
        "black": "1",
    }


def test_the_data_is_read_without_importlib_resources_when_on_disk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.resources

    def refuse(*args: object) -> None:
        raise AssertionError("importlib.resources used for data on disk")

    monkeypatch.setattr(importlib.resources, "files", refuse)
    assert len(components._read_rows("nobles.csv")) == 10


def test_the_data_is_read_through_importlib_resources_when_not_on_disk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As for a package in a zip archive: the file beside the module is not there.
    on_disk = components._read_rows("cards.csv")
    monkeypatch.setattr(os.path, "dirname", lambda path: "/nonexistent")
    assert components._read_rows("cards.csv") == on_disk


def _rows_with(name: str, change: Callable[[list[dict[str, str]]], object]) -> Any:
    rows = components._read_rows(name)
    change(rows)
    return lambda asked: rows if asked == name else components._read_rows(asked)


def _drop_last(rows: list[dict[str, str]]) -> None:
    rows.pop()


def _swap_first_two(rows: list[dict[str, str]]) -> None:
    rows[0], rows[1] = rows[1], rows[0]


def _set(index: int, **values: str) -> Callable[[list[dict[str, str]]], None]:
    def change(rows: list[dict[str, str]]) -> None:
        rows[index] = {**rows[index], **values}

    return change


def _tier_2_as_tier_1(rows: list[dict[str, str]]) -> None:
    rows[40] = {**rows[40], "tier": "1"}


def _a_ninth_white_card_in_tier_1(rows: list[dict[str, str]]) -> None:
    index = next(i for i, row in enumerate(rows) if row["tier"] == "1" and row["bonus"] != "white")
    rows[index] = {**rows[index], "bonus": "white"}


def _copy_card_2_onto_1(rows: list[dict[str, str]]) -> None:
    rows[0] = {**rows[1], "id": "1"}


BAD_DATA = [
    ("89 cards", "cards.csv", _drop_last, "expected 90 cards, found 89"),
    ("card ids out of order", "cards.csv", _swap_first_two, "card ids must run 1..90 in order"),
    ("tier 4", "cards.csv", _set(0, tier="4"), "tier '4'"),
    ("41 cards of tier 1", "cards.csv", _tier_2_as_tier_1, "cards per tier must be 40/30/20"),
    ("9 white in tier 1", "cards.csv", _a_ninth_white_card_in_tier_1, "tier 1 must have 8 cards"),
    # Caught by the count of bonus colours, before the check of each card.
    ("a gold bonus", "cards.csv", _set(0, bonus="gold"), "tier 1 must have 8 cards"),
    ("a free card", "cards.csv", _set(0, red="0", black="0"), "card 1 cost"),
    ("6 points", "cards.csv", _set(0, points="6"), "card 1 points"),
    ("-1 points", "cards.csv", _set(0, points="-1"), "card 1 points"),
    ("two identical cards", "cards.csv", _copy_card_2_onto_1, "two cards are identical"),
    ("9 nobles", "nobles.csv", _drop_last, "expected 10 nobles, found 9"),
    ("noble ids out of order", "nobles.csv", _swap_first_two, "noble ids must run 1..10"),
    ("a 4-point noble", "nobles.csv", _set(0, points="4"), "noble 1 must be worth 3 points"),
    ("a 4-4-1 noble", "nobles.csv", _set(0, green="1"), "noble 1 requirement [1, 4, 4]"),
]


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [(name, change, message) for _, name, change, message in BAD_DATA],
    ids=[case for case, _, _, _ in BAD_DATA],
)
def test_bad_package_data_is_refused_on_load(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    change: Callable[[list[dict[str, str]]], object],
    message: str,
) -> None:
    monkeypatch.setattr(components, "_read_rows", _rows_with(name, change))
    load = components._load_cards if name == "cards.csv" else components._load_nobles
    with pytest.raises(InvalidArgumentError, match=r"^bad package data: ") as raised:
        load()
    assert str(raised.value).startswith(f"bad package data: {message}")


# ---------------------------------------------------------------------------
# Validators made by factories in the class bodies.


def _attribute(cls: type, name: str) -> attrs.Attribute[Any]:
    found: attrs.Attribute[Any] = getattr(attrs.fields(cls), name)
    return found


@pytest.mark.parametrize("minimum", [0, 1])
def test_a_rules_count_validator_takes_ints_from_its_minimum_to_max_count(minimum: int) -> None:
    check = rules_module._count(minimum)
    attribute = _attribute(Rules, "points_to_win")
    for good in (minimum, minimum + 1, MAX_COUNT):
        check(Rules(), attribute, good)
    for bad in (minimum - 1, MAX_COUNT + 1, True, 3.0, "3", None):
        with pytest.raises(InvalidArgumentError) as raised:
            check(Rules(), attribute, bad)
        assert str(raised.value) == (
            f"Rules.points_to_win must be an int from {minimum} to {MAX_COUNT:,}, got {bad!r}"
        )


def test_a_rules_count_out_of_range_names_the_value() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^Rules\.token_limit must be .*, got -1$"):
        Rules(token_limit=-1)
    with pytest.raises(InvalidArgumentError, match=r"^Rules\.points_to_win .*, got 0$"):
        Rules(points_to_win=0)


def test_a_per_player_count_out_of_range_names_the_value() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Rules(gems_by_players=(4, 5, -7))
    assert str(raised.value) == (
        f"Rules.gems_by_players must be 3 ints from 0 to {MAX_COUNT:,} "
        "(for 2, 3 and 4 players), got (4, 5, -7)"
    )


def test_more_nobles_than_the_game_has_is_refused_with_the_numbers() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Rules(nobles_by_players=(3, 4, 11))
    assert str(raised.value) == "Rules.nobles_by_players: the game has 10 nobles, got (3, 4, 11)"


def test_a_player_count_out_of_range_names_the_range_and_the_value() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Rules().gems(5)
    assert str(raised.value) == "Splendor is played by 2 to 4 players, got 5"


def test_an_exact_type_validator_names_the_types_allowed_and_the_value() -> None:
    check = actions_module._exactly(Noble, None)
    attribute = _attribute(Take, "noble")
    take = Take(Tokens(1, 1, 1))
    check(take, attribute, None)
    check(take, attribute, NOBLES[0])
    for bad in ("N1", 1, CARDS[0]):
        with pytest.raises(InvalidArgumentError) as raised:
            check(take, attribute, bad)
        assert str(raised.value) == f"Take.noble must be Noble or None, got {bad!r}"


def test_an_exact_type_validator_refuses_subclasses() -> None:
    check = actions_module._exactly(int)
    attribute = _attribute(Take, "gems")
    check(Take(Tokens(1, 1, 1)), attribute, 1)
    with pytest.raises(InvalidArgumentError, match=r"^Take\.gems must be int, got True$"):
        check(Take(Tokens(1, 1, 1)), attribute, True)
    with pytest.raises(InvalidArgumentError, match=r"^Take\.gems must be Card, got 1$"):
        actions_module._exactly(Card)(Take(Tokens(1, 1, 1)), attribute, 1)


# ---------------------------------------------------------------------------
# The plans of the takes of different colours, by supply and room.


@pytest.mark.parametrize("room", range(4))
@pytest.mark.parametrize("some", range(32))
def test_the_plan_of_takes_lists_each_gained_set_once_with_its_fillers(
    some: int, room: int
) -> None:
    available = [c for c in range(5) if some & (1 << c)]
    k = min(3, len(available))
    net = min(k, room)
    plan = legal._plan(some, room)
    # Each set of gained colours from net to k of them, largest first, in
    # the order itertools.combinations gives.
    expected_gained = [
        gained
        for size in range(k, net - 1, -1)
        for gained in itertools.combinations(available, size)
    ]
    assert [gained for _, _, gained, _ in plan] == expected_gained
    for gems, back, gained, more in plan:
        # The take brings one gem of k available colours, never gold.
        assert all(n in (0, 1) for n in gems)
        assert sum(gems) == k
        assert {c for c in range(6) if gems[c]} <= set(available)
        # The fillers: the first available colours not gained, given back.
        fillers = [c for c in available if c not in gained][: k - len(gained)]
        assert back == tuple(1 if c in fillers else 0 for c in range(6))
        assert {c for c in range(6) if gems[c]} == set(gained) | set(fillers)
        # The tokens still to give back beyond the fillers.
        assert more == len(gained) - net >= 0
