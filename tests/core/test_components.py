"""The components: the 90 development cards and the 10 nobles the package ships.

:data:`splendor.CARDS` and :data:`splendor.NOBLES` must be the published
cards and nobles of the base game, in the order of their ids. The published
lists are kept beside this file (``published/cards.csv`` and
``published/nobles.csv``: the reference data the package's own files were
checked against, cross-checked card by card across independent
implementations of the game; their order is by tier, bonus colour, points
and cost, which is the order of the ids).

The package reads its data files when :mod:`splendor.core.components` is
imported: from the files beside the module, without importing
:mod:`importlib.resources` (which costs more to import than the engine),
and through it when the package is not on the file system (a zip archive).
A file changed by mistake is refused at import with the reason.

For mutation testing, code run at import is linked to the first test that
runs (docs/testing.md, "Mutation testing"); ``tools/mutmut_plugin.py``
runs this file first, so that test is the comparison with the published
cards.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

import splendor
from splendor import CARDS, CARDS_BY_ID, GEMS, NOBLES, NOBLES_BY_ID, InvalidArgumentError
from splendor.core import components

PUBLISHED: Final = Path(__file__).with_name("published")
COLOURS: Final = tuple(gem.value for gem in GEMS[:5])
PACKAGE: Final = Path(splendor.__file__).parent


def _published(name: str) -> list[dict[str, str]]:
    with (PUBLISHED / name).open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def _card_row(tier: int, bonus: str, points: int, cost: tuple[int, ...]) -> dict[str, str]:
    counts = dict(zip(COLOURS, map(str, cost[:5]), strict=True))
    return {"tier": str(tier), "bonus": bonus, "points": str(points), **counts}


def _noble_row(points: int, requirement: tuple[int, ...]) -> dict[str, str]:
    return {"points": str(points), **dict(zip(COLOURS, map(str, requirement[:5]), strict=True))}


# ---------------------------------------------------------------------------
# The data: the published cards and nobles.


def test_the_cards_are_the_published_90_cards_in_the_order_of_their_ids() -> None:
    assert [_card_row(c.tier, c.bonus.value, c.points, c.cost.counts) for c in CARDS] == (
        _published("cards.csv")
    )
    assert [card.id for card in CARDS] == list(range(1, 91))


def test_the_nobles_are_the_published_10_nobles_in_the_order_of_their_ids() -> None:
    assert [_noble_row(n.points, n.requirement.counts) for n in NOBLES] == (
        _published("nobles.csv")
    )
    assert [noble.id for noble in NOBLES] == list(range(1, 11))


def test_the_cards_and_nobles_by_id_are_the_same_objects() -> None:
    assert all(CARDS_BY_ID[card.id] is card for card in CARDS)
    assert all(NOBLES_BY_ID[noble.id] is noble for noble in NOBLES)
    assert len(CARDS_BY_ID) == 90
    assert len(NOBLES_BY_ID) == 10


def test_the_first_card_is_read_with_its_tier_bonus_points_and_cost() -> None:
    first = CARDS_BY_ID[1]
    assert (first.tier, first.bonus.value, first.points) == (1, "white", 0)
    assert first.cost.counts == (0, 0, 0, 2, 1, 0)


# ---------------------------------------------------------------------------
# Where the data is read from (a fresh interpreter each time).


def _fresh(code: str, path: str | None = None) -> Any:
    """Run ``code`` in a fresh interpreter (with ``path`` first on ``sys.path``);
    it prints one JSON value, returned."""
    prelude = f"import sys; sys.path.insert(0, {path!r})\n" if path else ""
    env = {**os.environ, "PYTHONPATH": ""} if path else None
    done = subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=PACKAGE.parent,
        env=env,
    )
    return json.loads(done.stdout)


_CARDS_AS_ROWS = """
import json, sys
import splendor
from splendor import CARDS, NOBLES
print(json.dumps({
    "file": splendor.__file__,
    "cards": [[c.tier, c.bonus.value, c.points, list(c.cost.counts)] for c in CARDS],
    "nobles": [[n.points, list(n.requirement.counts)] for n in NOBLES],
    "resources": "importlib.resources" in sys.modules,
}))
"""


def test_the_data_on_disk_is_read_without_importing_importlib_resources() -> None:
    loaded = _fresh(_CARDS_AS_ROWS)
    assert loaded["resources"] is False
    assert len(loaded["cards"]) == 90
    assert len(loaded["nobles"]) == 10


def test_a_package_in_a_zip_archive_reads_the_same_cards_and_nobles(tmp_path: Path) -> None:
    archive = tmp_path / "splendor.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(PACKAGE.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".csv", ".json", ".typed"):
                zipped.write(path, Path("splendor") / path.relative_to(PACKAGE))
    loaded = _fresh(_CARDS_AS_ROWS, str(archive))
    assert loaded["file"].startswith(str(archive))
    assert [_card_row(t, b, p, tuple(cost)) for t, b, p, cost in loaded["cards"]] == (
        _published("cards.csv")
    )
    assert [_noble_row(row[0], tuple(row[1])) for row in loaded["nobles"]] == (
        _published("nobles.csv")
    )


# ---------------------------------------------------------------------------
# The loaders, called again: what only the private entry points can show.
#
# The files are read once, at import, and nothing public reads them again.
# Two tests call the private loaders the import calls
# (components._load_cards, components._load_nobles): one with the reader's
# ways to the files closed off in turn (the read from disk must not need
# importlib.resources; the read through it must give the same data), one
# with the private reader (components._read_rows) replaced by one that
# returns the package's rows with one change, which must be refused. Code
# run at import is linked by mutation testing to the first test only, so
# these are also the tests that see a fault in the loaders
# (docs/testing.md, "Mutation testing").


def _refuse_importlib_resources(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.resources

    def refuse(*args: object) -> None:
        raise AssertionError("importlib.resources used for data on disk")

    monkeypatch.setattr(importlib.resources, "files", refuse)


def _not_on_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    # As for a package in a zip archive: the file beside the module is not there.
    monkeypatch.setattr(os.path, "dirname", lambda path: "/nonexistent")


@pytest.mark.parametrize(
    "close_off",
    [_refuse_importlib_resources, _not_on_disk],
    ids=["on disk, without importlib.resources", "not on disk, through importlib.resources"],
)
def test_the_loaders_read_the_published_cards_and_nobles(
    monkeypatch: pytest.MonkeyPatch, close_off: Callable[[pytest.MonkeyPatch], None]
) -> None:
    close_off(monkeypatch)
    cards = components._load_cards()
    nobles = components._load_nobles()
    monkeypatch.undo()
    assert [_card_row(c.tier, c.bonus.value, c.points, c.cost.counts) for c in cards] == (
        _published("cards.csv")
    )
    assert [c.id for c in cards] == list(range(1, 91))
    assert [_noble_row(n.points, n.requirement.counts) for n in nobles] == (
        _published("nobles.csv")
    )
    assert [n.id for n in nobles] == list(range(1, 11))


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
