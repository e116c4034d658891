"""The one switch between the compiled kernel and the pure twin (``splendor.fast.game``).

Each case imports :mod:`splendor.fast` in a fresh interpreter whose import of
``splendor.fast._kernel`` is made to fail in one way, so that this process's
own kernel is untouched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from splendor import fast
from splendor.errors import KernelRefusedWarning
from splendor.fast import game

# Makes the kernel's import fail: ``absent`` as when it is not built,
# ``refused`` as its layout check does, ``missing`` as when a module it
# imports is missing, ``broken`` as when its start-up reads a name that is
# gone. Then imports splendor.fast and prints what it chose and the warnings
# it gave, as JSON.
SCRIPT = """
import importlib.abc, importlib.util, json, sys, warnings

KERNEL = "splendor.fast._kernel"
HOW = sys.argv[1]


class Refusing(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if HOW == "missing":
            raise ModuleNotFoundError("No module named 'attrs'", name="attrs")
        if HOW == "broken":
            raise AttributeError("module 'splendor.fast.heuristics' has no attribute 'BUY_GOLD'")
        raise ImportError(
            "the compiled kernel does not fit the library: ACTION_COUNT; rebuild it"
        )


class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == KERNEL:
            return importlib.util.spec_from_loader(name, Refusing())
        return None


if HOW == "absent":
    sys.modules[KERNEL] = None  # its import raises ModuleNotFoundError for KERNEL
elif HOW in ("refused", "missing", "broken"):
    sys.meta_path.insert(0, Finder())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import splendor.fast
    from splendor.fast import game
print(json.dumps({
    "compiled": splendor.fast.COMPILED,
    "reason": game.COMPILED_REASON,
    "game": splendor.fast.Game.__module__,
    "warnings": [[type(w.message).__name__, str(w.message)] for w in caught],
}))
"""


def _run(how: str, **flags: str) -> subprocess.CompletedProcess[str]:
    """Run SCRIPT in a fresh interpreter, with only the given SPLENDOR_ flags set."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("SPLENDOR_PURE", "SPLENDOR_EXPECT_COMPILED")
    }
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, how],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**env, **flags},
    )


def _chosen(how: str, **flags: str) -> dict[str, object]:
    done = _run(how, **flags)
    assert done.returncode == 0, done.stderr
    chosen: dict[str, object] = json.loads(done.stdout)
    return chosen


def test_an_absent_kernel_falls_back_silently() -> None:
    chosen = _chosen("absent")
    assert chosen["compiled"] is False
    assert chosen["game"] == "splendor.fast.game"
    assert chosen["warnings"] == []
    assert "not built" in str(chosen["reason"])


def test_a_refused_kernel_warns_with_its_reason_and_falls_back() -> None:
    chosen = _chosen("refused")
    assert chosen["compiled"] is False
    reason = str(chosen["reason"])
    assert "does not fit the library: ACTION_COUNT; rebuild it" in reason
    assert chosen["warnings"] == [["KernelRefusedWarning", reason]]


def test_a_kernel_whose_start_up_fails_warns_too() -> None:
    chosen = _chosen("broken")
    assert chosen["compiled"] is False
    reason = str(chosen["reason"])
    assert "AttributeError: module 'splendor.fast.heuristics' has no attribute 'BUY_GOLD'" in reason
    assert chosen["warnings"] == [["KernelRefusedWarning", reason]]


def test_a_kernel_missing_a_module_it_imports_warns_too() -> None:
    chosen = _chosen("missing")
    assert chosen["compiled"] is False
    reason = str(chosen["reason"])
    assert "No module named 'attrs'" in reason
    assert chosen["warnings"] == [["KernelRefusedWarning", reason]]


@pytest.mark.parametrize("how", ["absent", "refused", "kernel"])
def test_splendor_pure_forces_the_pure_twin_silently(how: str) -> None:
    # "kernel": the import is left alone, so the kernel is used if built.
    chosen = _chosen(how, SPLENDOR_PURE="1", SPLENDOR_EXPECT_COMPILED="1")
    assert chosen["compiled"] is False
    assert chosen["warnings"] == []
    assert "SPLENDOR_PURE" in str(chosen["reason"])


@pytest.mark.parametrize(
    ("how", "error"),
    [
        ("absent", "ModuleNotFoundError: import of splendor.fast._kernel halted"),
        ("refused", "ImportError: the compiled kernel does not fit the library"),
        ("missing", "ModuleNotFoundError: No module named 'attrs'"),
    ],
)
def test_splendor_expect_compiled_makes_any_fallback_an_error(how: str, error: str) -> None:
    done = _run(how, SPLENDOR_EXPECT_COMPILED="1")
    assert done.returncode == 1
    assert error in done.stderr
    assert "SPLENDOR_EXPECT_COMPILED is set" in done.stderr
    assert "KernelRefusedWarning" not in done.stderr


def test_this_process_says_which_implementation_and_why() -> None:
    assert game.COMPILED is fast.COMPILED
    if fast.COMPILED:
        assert game.COMPILED_REASON == "the compiled kernel is in use"
    else:
        assert "pure-Python twin" in game.COMPILED_REASON


def test_the_warning_is_a_runtime_warning_of_the_library() -> None:
    assert issubclass(KernelRefusedWarning, RuntimeWarning)
    assert KernelRefusedWarning.__module__ == "splendor.errors"
