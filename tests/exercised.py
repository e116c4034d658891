"""Checking that property tests went down every path they count.

Property tests count what they checked (a document loaded, a document
refused...) in a :class:`collections.Counter`; :func:`check_paths` fails
when a test that ran never went down one of the paths it is meant to
exercise, so a strategy that stops producing a case is noticed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import settings

#: The fewest examples a test must run for its paths to be checked: with
#: fewer (the quick ``dev`` profile runs 30), a rare path may be missed by chance.
MIN_EXAMPLES = 100


def check_paths(
    request: pytest.FixtureRequest, counts: Counter[str], paths: Mapping[str, Sequence[str]]
) -> None:
    """Assert that every path of each test of the module that ran was counted.

    Args:
        request: the request of a module-scoped fixture, after its ``yield``.
        counts: what the tests counted.
        paths: for each test function's name, the counts it must have raised.

    Nothing is checked when a test of the session failed (a failure says
    more), nor under a Hypothesis profile of fewer than :data:`MIN_EXAMPLES`
    examples; a test that was not selected is not expected to count.
    """
    if request.session.testsfailed or settings().max_examples < MIN_EXAMPLES:
        return
    ran = {
        getattr(item, "originalname", item.name)
        for item in request.session.items
        if getattr(item, "module", None) is request.module
    }
    missing = [
        f"{test}: {path}"
        for test, wanted in paths.items()
        if test in ran
        for path in wanted
        if counts[path] == 0
    ]
    assert not missing, f"paths never exercised: {missing}"
