"""Fixtures of the :mod:`splendor.fast` tests: every implementation of its interface.

``impl`` runs a test on the compiled kernel (``splendor.fast._kernel``, skipped
when it is not built), on the pure fallback (``splendor.fast.reference``) and on
whatever :mod:`splendor.fast` chose. Set ``SPLENDOR_EXPECT_COMPILED=1`` (as
``nox -s tests`` does) to make a missing kernel an error rather than a skip.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from collections.abc import Callable
from types import ModuleType

import pytest

from tools.diff import GameMaker

IMPLEMENTATIONS = ("kernel", "pure", "fast")


def implementation(name: str) -> ModuleType:
    """The module of an implementation: ``splendor.fast._kernel``, ``fast_pure`` or ``fast``."""
    if name == "kernel":
        try:
            return importlib.import_module("splendor.fast._kernel")
        except ImportError:
            if os.environ.get("SPLENDOR_EXPECT_COMPILED", "") not in ("", "0"):
                raise
            pytest.skip("the compiled kernel is not built")
    return importlib.import_module("splendor.fast.reference" if name == "pure" else "splendor.fast")


def run_in_threads(works: list[Callable[[], None]]) -> None:
    """Run each of ``works`` in a thread of its own, switching threads as often
    as Python can (every 10 microseconds), until all of them return."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=work) for work in works]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)


@pytest.fixture(scope="session", params=IMPLEMENTATIONS)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    """The module of each implementation in turn (it has ``Game`` and ``random_playouts``)."""
    name: str = request.param
    return implementation(name)


@pytest.fixture(scope="session", params=("kernel", "pure"))
def from_state(request: pytest.FixtureRequest) -> GameMaker:
    """``Game.from_state`` of the kernel and of the pure fallback."""
    name: str = request.param
    maker: GameMaker = implementation(name).Game.from_state
    return maker


@pytest.fixture(scope="session", params=("kernel", "pure"))
def both(request: pytest.FixtureRequest) -> ModuleType:
    """The module of the kernel, then of the pure fallback (not ``fast`` again)."""
    name: str = request.param
    return implementation(name)
