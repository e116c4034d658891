"""Bad arguments to :func:`~splendor.render_svg` from a careless or hostile caller.

Each call either gives a picture or raises a :class:`splendor.SplendorError`
subclass with a clear message; names that XML forbids still give a
well-formed picture. The fixed defects' comments say what went wrong before
the fix.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from splendor import (
    render_svg,
    view,
)
from tests.hostile import (
    STATE,
    Call,
    raises_library_error,
)

# ---------------------------------------------------------------------------
# Wrong arguments that are handled: pinned.


HANDLED: dict[str, Call] = {
    "render_svg None": lambda: render_svg(None),
    "render_svg seat bool": lambda: render_svg(STATE, seat=True),
    "render_svg seat 2": lambda: render_svg(STATE, seat=2),
    "render_svg names str": lambda: render_svg(STATE, names="ab"),
    "render_svg names short": lambda: render_svg(STATE, names=["a"]),
    "render_svg view other seat": lambda: render_svg(view(STATE, 0), seat=1),
}


@pytest.mark.parametrize("call", list(HANDLED.values()), ids=list(HANDLED))
def test_a_wrong_argument_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


# ---------------------------------------------------------------------------
# Fixed defects: wrong arguments that once let a foreign exception escape.


DEFECTS: dict[str, Call] = {
    # svg.py render_svg: len(names) on a non-sequence.
    "render_svg names int": lambda: render_svg(STATE, names=5),  # type: ignore[arg-type]  # wrong type on purpose
    "render_svg names iterator": lambda: render_svg(STATE, names=iter(["a", "b"])),  # type: ignore[arg-type]  # wrong type on purpose
}


@pytest.mark.parametrize("call", list(DEFECTS.values()), ids=list(DEFECTS))
def test_a_wrong_argument_that_once_escaped_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


def test_svg_names_with_control_characters_stay_well_formed() -> None:
    picture = render_svg(STATE, names=["\x00Ann\x1b", "Bo\x08"])
    ET.fromstring(picture)  # raises ParseError on characters XML 1.0 forbids
