"""A pytest plugin for mutation testing (``-p tools.mutmut_plugin`` in ``[tool.mutmut]``).

Registers the ``mutants`` Hypothesis profile and makes it the default, before
``tests/conftest.py`` loads the profile named by ``HYPOTHESIS_PROFILE``: few
examples, derandomised (a mutant gets the same verdict on every run), no
example database (a verdict never depends on the mutants run before it) and
no shrinking (a failure is all a verdict needs; shrinking it can take longer
than the tests).

mutmut runs a mutant's tests with ``-x`` in no particular order; this plugin
runs the quick, pointed tests first (rule tests, then the perft vectors, then
the property tests), so that a mutant most tests catch is caught early.

A mutant that breaks the engine at import, or a test module that plays a game
when it is collected, makes collection fail; pytest would report that as an
interrupted run (exit status 2), which mutmut files under "check was
interrupted by user". Collection errors count as failed tests here instead
(exit status 1): the mutant is killed.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "mutants",
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
os.environ.setdefault("HYPOTHESIS_PROFILE", "mutants")

# Test files by how soon they run: the longest prefix a path starts with.
# tests/core/test_components.py comes first: mutmut links the code run at
# import (the cards and nobles read, the validators and plans made) to the
# first test that runs, and that file's first test compares the cards with
# the published ones. Then the tests of what the engine builds at import and
# of apply's words, the rule tests, the value tests, the smoke game, the
# perft vectors and the property tests.
_ORDER = (
    "tests/core/test_components.py",
    "tests/core/test_engine_contracts.py",
    "tests/core/test_validators.py",
    "tests/core/test_take_plan.py",
    "tests/core/test_illegal_actions.py",
    "tests/core/",
    "tests/core/test_engine_values.py",
    "tests/test_smoke.py",
    "tests/core/test_perft.py",
    "tests/property/test_termination.py",
    "tests/property/",
    "tests/core/test_validation.py",
    "tests/",
)


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    matches = [(len(prefix), i) for i, prefix in enumerate(_ORDER) if path.startswith(prefix)]
    return max(matches)[1] if matches else len(_ORDER)


def pytest_configure(config: pytest.Config) -> None:
    """Report collection errors as failures, not as an interrupted run."""
    config.option.continue_on_collection_errors = True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the quick tests first (a stable sort: the order within a file is kept)."""
    items.sort(key=_rank)
