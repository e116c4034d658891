"""Doctest collection under ``src/``: leave out the modules whose extra is missing.

``splendor.rl`` needs the ``[rl]`` extra and ``splendor.rl.openspiel`` the
``[openspiel]`` extra; without them their doctests cannot import (the ``rl``
nox session installs both and runs them).
"""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if any(importlib.util.find_spec(name) is None for name in ("numpy", "gymnasium", "pettingzoo")):
    collect_ignore_glob.append("splendor/rl/*.py")
    collect_ignore_glob.append("splendor/fast/vector.py")
elif importlib.util.find_spec("pyspiel") is None:
    collect_ignore_glob.append("splendor/rl/openspiel.py")
