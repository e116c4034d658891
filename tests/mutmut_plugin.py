"""A pytest plugin for mutation testing (``-p tests.mutmut_plugin`` in ``[tool.mutmut]``).

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

# Test files by how soon they run: the first prefix a path starts with.
_ORDER = (
    "tests/test_mutants_",
    "tests/test_rules_",
    "tests/test_engine_values.py",
    "tests/test_smoke.py",
    "tests/test_perft.py",
    "tests/property/test_termination.py",
    "tests/property/",
    "tests/",
)


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return next((i for i, prefix in enumerate(_ORDER) if path.startswith(prefix)), len(_ORDER))


def pytest_configure(config: pytest.Config) -> None:
    """Report collection errors as failures, not as an interrupted run."""
    config.option.continue_on_collection_errors = True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the quick tests first (a stable sort: the order within a file is kept)."""
    items.sort(key=_rank)
