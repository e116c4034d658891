"""Charts as SVG documents, drawn from plain numbers and labels.

Two charts, each a function of plain data:

- :func:`interval_chart`: one row per label, a value and its interval on
  one scale (ratings with their 95% intervals);
- :func:`line_chart`: lines of fractions from 0 to 1 over numbered steps,
  on an axis in percent, with marks on the lines and a legend (each seat's
  chance of winning, move by move, and the moves judged).

Both are built of the same few pieces: the document with its title, its
elements with their attributes (numbers written to a tenth), and ticks at
steps of 1, 2 or 5 times a power of ten. Every text and attribute value
goes through the one XML escape, so a label may hold any text.

>>> chart = interval_chart([Interval("greedy", 1600.0, 1500.0, 1700.0)], title="Ratings")
>>> chart.startswith("<svg"), ">greedy</text>" in chart
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from splendor.errors import InvalidArgumentError
from splendor.formats.xml import escape

__all__ = ["Interval", "Mark", "MarkStyle", "Series", "interval_chart", "line_chart"]

_XMLNS = "http://www.w3.org/2000/svg"


@attrs.frozen
class Interval:
    """One row of an :func:`interval_chart`: a value with the interval around it.

    Attributes:
        label: the row's name, written left of the scale.
        value: the value, drawn as a dot and written above it.
        low: the lower end of the interval.
        high: the upper end of the interval.
    """

    label: str
    value: float
    low: float
    high: float


@attrs.frozen
class Series:
    """One line of a :func:`line_chart`.

    Attributes:
        label: the line's name, in the legend and as its tooltip.
        values: its value at each step from 0, each a fraction from 0 to 1.
        colour: its colour, as SVG writes colours (``"#3366cc"``).
    """

    label: str
    values: tuple[float, ...]
    colour: str


@attrs.frozen
class MarkStyle:
    """A kind of :class:`Mark`: how its marks are drawn, and its name in the legend.

    Attributes:
        name: the kind's name, in the legend and as the class of its marks.
        colour: the fill of its marks.
        radius: the radius of its marks.
    """

    name: str
    colour: str
    radius: float


@attrs.frozen
class Mark:
    """A dot on a line of a :func:`line_chart`, with a tooltip.

    Attributes:
        series: the index of the line it is on.
        step: the step it marks; it is drawn where the line is at that step.
        style: the name of its :class:`MarkStyle`.
        tip: its tooltip.
    """

    series: int
    step: int
    style: str
    tip: str


def _value(value: str | float) -> str:
    """An attribute value: text escaped, an int as it is, a float to a tenth."""
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:.1f}"


def _tag(
    name: str, text: str | None = None, /, *, tip: str | None = None, **attributes: str | float
) -> str:
    """One element: ``text`` its escaped content, ``tip`` a ``<title>`` inside it (a tooltip).

    An attribute's keyword is its name with ``-`` written ``_`` (``text_anchor``)
    and a trailing ``_`` dropped (``class_``).
    """
    written = "".join(
        f' {key.rstrip("_").replace("_", "-")}="{_value(value)}"'
        for key, value in attributes.items()
    )
    if tip is not None:
        return f"<{name}{written}>{_tag('title', tip)}</{name}>"
    if text is not None:
        return f"<{name}{written}>{escape(text)}</{name}>"
    return f"<{name}{written}/>"


def _document(
    width: int, height: int, *, font_size: int, title: str, title_x: float, body: list[str]
) -> str:
    """The SVG document: a white page of ``width`` by ``height``, ``title`` above ``body``."""
    head = _tag(
        "svg",
        xmlns=_XMLNS,
        width=width,
        height=height,
        viewBox=f"0 0 {width} {height}",
        font_family="sans-serif",
        font_size=font_size,
    )
    parts = [
        head.removesuffix("/>") + ">",
        _tag("title", title),
        _tag("rect", width=width, height=height, fill="white"),
        _tag(
            "text",
            title,
            x=title_x,
            y=22,
            text_anchor="middle",
            font_weight="bold",
            font_size=13,
        ),
        *body,
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _step(span: float, most: int) -> float:
    """The step between ticks over ``span`` (above 0): 1, 2 or 5 times a power of
    ten, the least that makes at most ``most`` steps."""
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 5, 10):
        if raw <= multiple * power:
            return float(multiple * power)
    return float(10 * power)


def interval_chart(rows: Sequence[Interval], *, title: str) -> str:
    """A chart of values with their intervals, one row each in the order given, as SVG.

    The scale runs over every interval, with about six labelled ticks; the
    values and the ticks are written to the unit.

    Args:
        rows: the rows, at least one.
        title: the chart's title, written above it.

    Raises:
        InvalidArgumentError: for no row.
    """
    if not rows:
        raise InvalidArgumentError("an interval chart needs at least one row")
    label_width = 8 * max(len(row.label) for row in rows) + 20
    plot_width = 420
    line = 28
    top = 40
    height = top + line * len(rows) + 40
    width = label_width + plot_width + 30
    low = min(row.low for row in rows)
    high = max(row.high for row in rows)
    step = _step(max(high - low, 1.0), 6)
    start = math.floor(low / step) * step
    stop = math.ceil(high / step) * step
    if stop == start:
        stop = start + step

    def x(value: float) -> float:
        return label_width + plot_width * (value - start) / (stop - start)

    body = []
    axis = top + line * len(rows) + 6
    tick = start
    while tick <= stop + step / 2:
        body.append(_tag("line", x1=x(tick), y1=top - 6, x2=x(tick), y2=axis, stroke="#ddd"))
        body.append(
            _tag("text", f"{tick:.0f}", x=x(tick), y=axis + 16, text_anchor="middle", fill="#555")
        )
        tick += step
    for k, row in enumerate(rows):
        y = top + line * k + line / 2
        body.append(_tag("text", row.label, x=label_width - 10, y=y + 4, text_anchor="end"))
        body.append(
            _tag(
                "line",
                x1=x(row.low),
                y1=y,
                x2=x(row.high),
                y2=y,
                stroke="#36c",
                stroke_width=2,
            )
        )
        body.append(_tag("circle", cx=x(row.value), cy=y, r=5, fill="#36c"))
        body.append(
            _tag(
                "text",
                f"{row.value:.0f}",
                x=x(row.value),
                y=y - 8,
                text_anchor="middle",
                font_size=11,
                fill="#333",
            )
        )
    return _document(width, height, font_size=13, title=title, title_x=width / 2, body=body)


def _check_lines(
    series: Sequence[Series], styles: Sequence[MarkStyle], marks: Sequence[Mark]
) -> None:
    """Refuse lines of no value or of different lengths, and marks off the lines."""
    if not series:
        raise InvalidArgumentError("a line chart needs at least one line")
    lengths = {len(line.values) for line in series}
    if len(lengths) != 1 or 0 in lengths:
        raise InvalidArgumentError(
            f"the lines of a chart have one value or more each, as many each, got {sorted(lengths)}"
        )
    (length,) = lengths
    names = {style.name for style in styles}
    for mark in marks:
        if mark.style not in names or not 0 <= mark.series < len(series):
            raise InvalidArgumentError(f"{mark!r} is of no line or no style of the chart")
        if not 0 <= mark.step < length:
            raise InvalidArgumentError(f"{mark!r} is past the ends of the lines")


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    x_label: str,
    styles: Sequence[MarkStyle] = (),
    marks: Sequence[Mark] = (),
    series_name: str = "series",
    step_name: str = "step",
) -> str:
    """A chart of lines over steps, on an axis from 0% to 100%, as SVG.

    The steps run from 0 on the left to the last value on the right, with
    at most about twelve labelled; the value axis has a line at every
    quarter, the middle one darker. The legend, right of the chart, shows
    each line and then each style of mark.

    Scripts and tests find the elements by their names: each line is a
    ``polyline`` of class ``series_name`` with ``data-{series_name}`` its
    index, each mark a ``circle`` of its style's name with ``data-{step_name}``
    its step and ``data-{series_name}`` its line; both carry their tooltip
    as a ``title``.

    Args:
        series: the lines, at least one, all with as many values.
        title: the chart's title, above it.
        x_label: what the steps are, written under their axis.
        styles: the kinds of mark, in the legend's order.
        marks: the marks, each on a line at one of its steps, of one of ``styles``.
        series_name: the name the lines are tagged with.
        step_name: the name the marks' steps are tagged with.

    Raises:
        InvalidArgumentError: for no line, lines of no value or of different
            lengths, or a mark of no line, no style, or past the lines' ends.
    """
    _check_lines(series, styles, marks)
    steps = len(series[0].values) - 1
    left, top, plot_width, plot_height = 56, 44, 560, 240
    legend_labels = [line.label for line in series] + [style.name for style in styles]
    legend = 16 + 8 * max(len(label) for label in legend_labels) + 30
    width = left + plot_width + 20 + legend
    height = top + plot_height + 50
    bottom = top + plot_height

    def x(step: int) -> float:
        return left + plot_width * step / max(steps, 1)

    def y(value: float) -> float:
        return top + plot_height * (1.0 - value)

    body = []
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        stroke = "#999" if tick == 0.5 else "#ddd"
        body.append(
            _tag("line", x1=left, y1=y(tick), x2=left + plot_width, y2=y(tick), stroke=stroke)
        )
        body.append(
            _tag(
                "text",
                f"{100 * tick:.0f}%",
                x=left - 6,
                y=y(tick) + 4,
                text_anchor="end",
                fill="#555",
            )
        )
    every = max(1, int(_step(max(steps, 1), 12)))
    for tick in range(0, steps + 1, every):
        body.append(_tag("line", x1=x(tick), y1=bottom, x2=x(tick), y2=bottom + 4, stroke="#555"))
        body.append(
            _tag("text", str(tick), x=x(tick), y=bottom + 17, text_anchor="middle", fill="#555")
        )
    body.append(
        _tag(
            "text",
            x_label,
            x=left + plot_width / 2,
            y=bottom + 36,
            text_anchor="middle",
            fill="#333",
        )
    )
    for k, line in enumerate(series):
        body.append(
            _tag(
                "polyline",
                tip=line.label,
                class_=series_name,
                **{f"data_{series_name}": k},
                fill="none",
                stroke=line.colour,
                stroke_width=2,
                points=" ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in enumerate(line.values)),
            )
        )
    drawn = {style.name: style for style in styles}
    for mark in marks:
        style = drawn[mark.style]
        body.append(
            _tag(
                "circle",
                tip=mark.tip,
                class_=style.name,
                **{f"data_{step_name}": mark.step, f"data_{series_name}": mark.series},
                cx=x(mark.step),
                cy=y(series[mark.series].values[mark.step]),
                r=style.radius,
                fill=style.colour,
                stroke="black",
                stroke_width=0.8,
            )
        )
    lx = left + plot_width + 20
    ly = top + 6
    for line in series:
        body.append(
            _tag("line", x1=lx, y1=ly, x2=lx + 18, y2=ly, stroke=line.colour, stroke_width=2)
        )
        body.append(_tag("text", line.label, x=lx + 24, y=ly + 4))
        ly += 20
    ly += 8
    for style in styles:
        body.append(
            _tag(
                "circle",
                cx=lx + 9,
                cy=ly,
                r=style.radius,
                fill=style.colour,
                stroke="black",
                stroke_width=0.8,
            )
        )
        body.append(_tag("text", style.name, x=lx + 24, y=ly + 4))
        ly += 20
    title_x = left + plot_width / 2
    return _document(width, height, font_size=12, title=title, title_x=title_x, body=body)
