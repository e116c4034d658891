"""Doctest collection under ``src/``: leave out the modules whose extra is missing.

``splendor.rl`` (and the rows of ``splendor.fast.observations`` and
``splendor.fast.layout``, and ``splendor.fast.vector``) need the ``[rl]``
extra and ``splendor.rl.openspiel`` the ``[openspiel]`` extra; without them
their doctests cannot run (the ``rl`` nox session installs both and runs
them).
"""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if any(importlib.util.find_spec(name) is None for name in ("numpy", "gymnasium", "pettingzoo")):
    collect_ignore_glob.append("splendor/rl/*.py")
    collect_ignore_glob.append("splendor/fast/vector.py")
    collect_ignore_glob.append("splendor/fast/observations.py")
    collect_ignore_glob.append("splendor/fast/layout.py")
elif importlib.util.find_spec("pyspiel") is None:
    collect_ignore_glob.append("splendor/rl/openspiel.py")
