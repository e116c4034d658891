"""Doctest collection under ``src/``: a module whose extra is missing is skipped, with why.

``splendor.rl`` (and the rows of ``splendor.fast.observations`` and
``splendor.fast.layout``, ``splendor.fast.vector``, and the networks' inputs
in ``splendor.fast.network``) need the ``[rl]`` extra,
``splendor.rl.openspiel`` the ``[openspiel]`` extra, and the server's
application and transport the ``[server]`` extra; without them their
doctests cannot run (the nox sessions ``tests`` and ``rl`` install them).
Such a module is reported as skipped, naming the extra and the missing
packages, instead of failing the collection of a plain ``pytest``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Generator, Iterable
from fnmatch import fnmatch
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent

_RL = ("numpy", "gymnasium", "pettingzoo")
_SERVER = ("starlette", "uvicorn", "websockets")

# (modules, by a glob of their path under src/; the extra; the packages it installs)
_EXTRAS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("splendor/rl/*.py", "rl", _RL),
    ("splendor/fast/vector.py", "rl", _RL),
    ("splendor/fast/observations.py", "rl", _RL),
    ("splendor/fast/layout.py", "rl", _RL),
    ("splendor/fast/network.py", "rl", ("numpy",)),
    ("splendor/rl/openspiel.py", "openspiel", ("pyspiel",)),
    ("splendor/server/app.py", "server", _SERVER),
    ("splendor/server/transport.py", "server", _SERVER),
)


def _missing(packages: Iterable[str]) -> list[str]:
    """The packages of ``packages`` that are not installed."""
    return [name for name in packages if importlib.util.find_spec(name) is None]


def missing_extra(path: Path) -> str | None:
    """Why the doctests of the module at ``path`` cannot run here, or None when they can."""
    try:
        relative = path.resolve().relative_to(_HERE).as_posix()
    except ValueError:
        return None
    for pattern, extra, packages in _EXTRAS:
        absent = _missing(packages) if fnmatch(relative, pattern) else []
        if absent:
            return f"{relative} needs the [{extra}] extra: {', '.join(absent)} not installed"
    return None


class MissingExtra(pytest.File):
    """A module whose doctests need an extra that is not installed: collected as a skip."""

    reason = ""

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        """Skip the module, with the reason."""
        pytest.skip(self.reason, allow_module_level=True)


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    """The collectors of ``file_path``; one skip instead when its extra is missing."""
    collectors = yield
    reason = missing_extra(file_path) if collectors else None
    if reason is None:
        return collectors
    skipped = MissingExtra.from_parent(parent, path=file_path)
    skipped.reason = reason
    return [skipped]
