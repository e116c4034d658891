"""Two builds timed in one run: the rounds of a benchmark script alternated between them.

Used by ``bench_fast.py`` and ``bench_vector.py`` for ``--against SRC``: ``SRC``
is the ``src`` folder of another checkout with its kernel built in place (say,
a copy of main's). Each round runs the script once with ``--json-round`` in a
fresh process of each build (``PYTHONPATH`` set to its ``src``), the order of
the two swapped from one round to the next. The script prints a JSON object
of measures (rates per CPU second, or times in microseconds for a key ending
in ``us``), and the medians of the rounds are printed side by side with their
ratio, this build's over the other's: above 1 is faster for a rate, slower
for a time. Alternating the builds round by round spreads the slow and fast
moments of a shared machine over both. Before the rounds, each build is
checked to import ``splendor`` from its own ``src`` (an installed copy
would otherwise be timed in its place).
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
    for name, path in builds.items():
        _check_imports(name, path)
    command = [sys.executable, os.path.abspath(script), "--json-round", *arguments]
    found: dict[str, list[dict[str, float]]] = {name: [] for name in builds}
    names = list(builds)
    for number in range(rounds):
        for name in names if number % 2 == 0 else names[::-1]:
            found[name].append(json.loads(_run(name, builds[name], command)))
    print(f"this build: {builds['this']}\nagainst: {builds['against']}")
    print(f"medians of {rounds} alternated rounds, per CPU second")
    print(f"{'measure':<34} {'against':>12} {'this':>12} {'ratio':>6}")
    for key in found["this"][0]:
        old = statistics.median(run[key] for run in found["against"])
        new = statistics.median(run[key] for run in found["this"])
        digits = ".3f" if key.endswith("us") else ",.0f"
        print(f"{key:<34} {old:>12{digits}} {new:>12{digits}} {new / old:>6.2f}")
    return 0


def _run(name: str, path: str, command: list[str]) -> str:
    """The standard output of ``command`` run with ``PYTHONPATH`` set to ``path``."""
    env = {**os.environ, "PYTHONPATH": path}
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"the round of {name} ({path}) failed")
    return out.stdout


def _check_imports(name: str, path: str) -> None:
    """Refuse a build whose ``splendor`` is not imported from ``path``."""
    where = _run(name, path, [sys.executable, "-c", "import splendor; print(splendor.__file__)"])
    if not os.path.abspath(where.strip()).startswith(os.path.join(path, "")):
        raise SystemExit(f"{name}: splendor is imported from {where.strip()}, not from {path}")
