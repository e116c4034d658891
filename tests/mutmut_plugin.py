"""A pytest plugin for mutation testing (``-p tests.mutmut_plugin`` in ``[tool.mutmut]``).

Registers the ``mutants`` Hypothesis profile and makes it the default, before
``tests/conftest.py`` loads the profile named by ``HYPOTHESIS_PROFILE``: few
examples, derandomised (a mutant gets the same verdict on every run) and no
example database (a verdict never depends on the mutants run before it).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "mutants",
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
os.environ.setdefault("HYPOTHESIS_PROFILE", "mutants")
