"""The charts: rows of intervals and lines over steps, drawn from plain numbers and labels."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor.draw.charts import Interval, Mark, MarkStyle, Series, interval_chart, line_chart
from splendor.errors import InvalidArgumentError

SVG = "{http://www.w3.org/2000/svg}"

ROWS = (
    Interval("greedy", 1650.0, 1500.0, 1800.0),
    Interval("random", 1350.0, 1200.0, 1500.0),
)
STYLES = (MarkStyle("blunder", "#d62728", 6), MarkStyle("mistake", "#ff8c00", 5))


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def _lines() -> tuple[Series, ...]:
    return (
        Series("Ann", (0.5, 0.6, 0.7, 1.0), "#3366cc"),
        Series("Bo", (0.5, 0.4, 0.3, 0.0), "#2a9d55"),
    )


def test_an_interval_chart_draws_each_row_with_its_label_value_and_interval() -> None:
    root = ET.fromstring(interval_chart(ROWS, title="Ratings"))
    assert root.tag == f"{SVG}svg"
    assert root.findtext(f"{SVG}title") == "Ratings"
    dots = root.findall(f"{SVG}circle")
    assert len(dots) == len(ROWS)
    texts = _texts(root)
    assert {"greedy", "random", "1650", "1350", "Ratings"} <= set(texts)
    intervals = [line for line in root.findall(f"{SVG}line") if line.get("stroke") == "#36c"]
    for dot, line in zip(dots, intervals, strict=True):
        low, high = float(line.get("x1", "")), float(line.get("x2", ""))
        assert low < float(dot.get("cx", "")) < high
        assert line.get("y1") == line.get("y2") == dot.get("cy")
    # The rows go down the page in the order given.
    assert float(dots[0].get("cy", "")) < float(dots[1].get("cy", ""))


def test_the_scale_of_an_interval_chart_covers_every_interval_in_round_steps() -> None:
    root = ET.fromstring(interval_chart(ROWS, title="Ratings"))
    ticks = [
        float(t) for t in _texts(root) if t.lstrip("-").isdigit() and t not in ("1650", "1350")
    ]
    assert ticks[0] <= 1200.0
    assert ticks[-1] >= 1800.0
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    assert steps == {100.0}
    assert len(ticks) <= 8


def test_an_interval_chart_of_one_point_still_has_a_scale() -> None:
    root = ET.fromstring(interval_chart([Interval("a", 25.0, 25.0, 25.0)], title="t"))
    xs = {float(line.get("x1", "")) for line in root.findall(f"{SVG}line")}
    assert len(xs) >= 2


def test_a_line_chart_draws_each_series_as_a_line_over_every_step() -> None:
    series = _lines()
    root = ET.fromstring(line_chart(series, title="Chances", x_label="moves"))
    assert root.findtext(f"{SVG}title") == "Chances"
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("class") for line in lines] == ["series", "series"]
    assert [line.get("data-series") for line in lines] == ["0", "1"]
    assert [line.findtext(f"{SVG}title") for line in lines] == ["Ann", "Bo"]
    ann = [tuple(map(float, p.split(","))) for p in (lines[0].get("points") or "").split()]
    bo = [tuple(map(float, p.split(","))) for p in (lines[1].get("points") or "").split()]
    assert len(ann) == len(bo) == 4
    assert [x for x, _ in ann] == sorted(x for x, _ in ann)
    # Equal values meet; a higher value is higher on the page.
    assert ann[0] == bo[0]
    assert ann[-1][1] < bo[-1][1]
    texts = _texts(root)
    assert {"0%", "50%", "100%", "moves", "Ann", "Bo", "0", "3"} <= set(texts)


def test_the_marks_of_a_line_chart_sit_on_their_line_and_are_named() -> None:
    marks = [Mark(1, 2, "blunder", "3. Bo: a blunder"), Mark(0, 1, "mistake", "2. Ann")]
    root = ET.fromstring(
        line_chart(
            _lines(),
            title="t",
            x_label="moves",
            styles=STYLES,
            marks=marks,
            series_name="seat",
            step_name="move",
        )
    )
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("data-seat") for line in lines] == ["0", "1"]
    points = [[p.split(",") for p in (line.get("points") or "").split()] for line in lines]
    found = [c for c in root.iter(f"{SVG}circle") if c.get("data-move")]
    assert [(c.get("class"), c.get("data-move"), c.get("data-seat")) for c in found] == [
        ("blunder", "2", "1"),
        ("mistake", "1", "0"),
    ]
    for circle, mark in zip(found, marks, strict=True):
        assert [circle.get("cx"), circle.get("cy")] == points[mark.series][mark.step]
        assert circle.findtext(f"{SVG}title") == mark.tip
    assert found[0].get("r") == "6"
    # The legend: a line for each series, a dot for each style.
    assert {"blunder", "mistake"} <= set(_texts(root))
    assert len(list(root.iter(f"{SVG}circle"))) == len(marks) + len(STYLES)


@pytest.mark.parametrize(("steps", "step"), [(0, 1), (5, 1), (12, 1), (13, 2), (40, 5), (121, 20)])
def test_at_most_about_twelve_steps_are_labelled(steps: int, step: int) -> None:
    series = [Series("a", tuple(0.5 for _ in range(steps + 1)), "#000")]
    root = ET.fromstring(line_chart(series, title="t", x_label="x"))
    ticks = [t.get("x1") for t in root.findall(f"{SVG}line") if t.get("stroke") == "#555"]
    assert len(ticks) == steps // step + 1


def test_a_chart_refuses_data_it_cannot_draw() -> None:
    with pytest.raises(InvalidArgumentError, match="at least one row"):
        interval_chart([], title="t")
    with pytest.raises(InvalidArgumentError, match="at least one line"):
        line_chart([], title="t", x_label="x")
    with pytest.raises(InvalidArgumentError, match="as many each"):
        line_chart(
            [Series("a", (0.5,), "#000"), Series("b", (0.5, 1.0), "#000")], title="t", x_label="x"
        )
    with pytest.raises(InvalidArgumentError, match="as many each"):
        line_chart([Series("a", (), "#000")], title="t", x_label="x")
    for mark in (Mark(2, 0, "blunder", ""), Mark(0, 0, "nothing", ""), Mark(0, 4, "blunder", "")):
        with pytest.raises(InvalidArgumentError, match=r"of no line|past the ends"):
            line_chart(_lines(), title="t", x_label="x", styles=STYLES, marks=[mark])


# Any text but the characters XML cannot hold (the charts write U+FFFD for those).
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cn")) | st.sampled_from("&<>\"'"))


@given(TEXT, TEXT)
def test_any_label_or_title_is_written_as_it_is_in_a_well_formed_chart(
    label: str, title: str
) -> None:
    rows = ET.fromstring(interval_chart([Interval(label, 1.0, 0.0, 2.0)], title=title))
    assert rows.findtext(f"{SVG}title") == title
    assert label in _texts(rows)
    style = MarkStyle(label, "#000", 4)
    lines = ET.fromstring(
        line_chart(
            [Series(label, (0.0, 1.0), "#000")],
            title=title,
            x_label="x",
            styles=[style],
            marks=[Mark(0, 1, label, title)],
            series_name="s",
        )
    )
    assert lines.findtext(f"{SVG}title") == title
    (line,) = lines.findall(f"{SVG}polyline")
    assert line.findtext(f"{SVG}title") == label
    mark = next(c for c in lines.iter(f"{SVG}circle") if c.get("data-step"))
    assert (mark.get("class"), mark.findtext(f"{SVG}title")) == (label, title)


def test_a_character_xml_cannot_hold_is_written_as_the_replacement_character() -> None:
    root = ET.fromstring(interval_chart([Interval("a\x00b", 1.0, 0.0, 2.0)], title="\x1b"))
    assert root.findtext(f"{SVG}title") == "\ufffd"
    assert "a\ufffdb" in _texts(root)
