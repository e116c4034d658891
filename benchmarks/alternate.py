"""Two builds timed in one run: the rounds of a benchmark script alternated between them.

Used by ``bench_fast.py`` and ``bench_vector.py`` for ``--against SRC``: ``SRC``
is the ``src`` folder of another checkout with its kernel built in place (say,
a copy of main's). Each round runs the script once with ``--json-round`` in a
fresh process of each build (``PYTHONPATH`` set to its ``src``), this build
first, then the other; the script prints a JSON object of rates (per CPU
second), and the medians of the rounds are printed side by side with their
ratio. Alternating the two builds round by round spreads the slow and fast
moments of a shared machine over both.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

import splendor


def compare(script: str, arguments: list[str], against: str, rounds: int) -> int:
    """Run ``script --json-round *arguments`` ``rounds`` times for this build
    and for the one at ``against``, alternately; print the medians. Returns 0."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(splendor.__file__)))
    builds = {"this": here, "against": os.path.abspath(against)}
    command = [sys.executable, os.path.abspath(script), "--json-round", *arguments]
    found: dict[str, list[dict[str, float]]] = {name: [] for name in builds}
    for _ in range(rounds):
        for name, path in builds.items():
            env = {**os.environ, "PYTHONPATH": path}
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            found[name].append(json.loads(out.stdout))
    print(f"this build: {builds['this']}\nagainst: {builds['against']}")
    print(f"medians of {rounds} alternated rounds, per CPU second")
    print(f"{'measure':<34} {'against':>12} {'this':>12} {'ratio':>6}")
    for key in found["this"][0]:
        old = statistics.median(run[key] for run in found["against"])
        new = statistics.median(run[key] for run in found["this"])
        digits = ".3f" if key.endswith("us") else ",.0f"
        print(f"{key:<34} {old:>12{digits}} {new:>12{digits}} {new / old:>6.2f}")
    return 0
