"""Test configuration: the Hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (what ``nox`` uses) keeps the whole suite within a
few minutes on 2 cores; ``dev`` is quicker; ``thorough`` (``nox -s thorough``,
outside the default run) tries far more random games.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=30, deadline=None)
# Random (not derandomised): each run tries new examples; a failure prints
# the blob that reproduces it.
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
