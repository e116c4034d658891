"""The packages' facades: each package lists its public names in ``__all__``.

Every name a facade lists resolves, is documented (a docstring, or a ``#:``
comment or a string right after a constant's assignment, as the API pages
read them) and appears in ``dir()`` of the package, loaded or not.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Final

import pytest

#: The packages of the library, each with its facade.
PACKAGES: Final = (
    "splendor.core",
    "splendor.schema",
    "splendor.formats",
    "splendor.draw",
    "splendor.remote",
    "splendor.players",
    "splendor.fast",
    "splendor.arena",
    "splendor.rl",
    "splendor.server",
    "splendor.cli",
)


#: Facades written by a change made elsewhere: the players' facade, and
#: ``VectorEnv`` and ``random_codes`` in the kernel's.
@cache
def _documented_constants(module: str) -> frozenset[str]:
    """The names of a module assigned at its top level after a ``#:`` comment or before a string."""
    path = Path(inspect.getfile(sys.modules[module]))
    lines = path.read_text(encoding="utf-8").splitlines()
    body = ast.parse("\n".join(lines)).body
    found = set()
    for index, node in enumerate(body):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        names = {target.id for target in targets if isinstance(target, ast.Name)}
        above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
        after = body[index + 1] if index + 1 < len(body) else None
        string_after = (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        )
        if above.startswith("#:") or string_after:
            found |= names
    return frozenset(found)


def _is_documented(package: ModuleType, name: str) -> bool:
    value = getattr(package, name)
    if inspect.ismodule(value) or inspect.isclass(value) or inspect.isroutine(value):
        return bool(value.__dict__.get("__doc__") if inspect.isclass(value) else value.__doc__)
    homes = [
        module
        for module in sys.modules
        if module.startswith(f"{package.__name__}.") or module == package.__name__
    ]
    return any(
        name in _documented_constants(module)
        for module in homes
        if str(getattr(sys.modules[module], "__file__", None)).endswith(".py")
    )


@pytest.fixture(params=PACKAGES)
def package(request: pytest.FixtureRequest) -> ModuleType:
    name: str = request.param
    return importlib.import_module(name)


def test_a_package_lists_its_public_names(package: ModuleType) -> None:
    names = package.__dict__.get("__all__")
    assert isinstance(names, list | tuple), f"{package.__name__} has no __all__"
    assert names
    assert len(set(names)) == len(names)
    assert not [name for name in names if name.startswith("_")]


def test_every_name_of_a_facade_resolves_and_dir_lists_it(package: ModuleType) -> None:
    names = package.__dict__.get("__all__", ())
    assert names
    assert [name for name in names if not hasattr(package, name)] == []
    assert sorted(set(names) - set(dir(package))) == []


def test_every_name_of_a_facade_is_documented(package: ModuleType) -> None:
    names = package.__dict__.get("__all__", ())
    assert names
    assert [name for name in names if not _is_documented(package, name)] == []


@pytest.mark.parametrize("name", ["VectorEnv", "random_codes"])
def test_the_kernel_facade_lists_the_vector_environment(name: str) -> None:
    fast = importlib.import_module("splendor.fast")
    assert name in fast.__all__
    assert name in dir(fast)


def test_a_lazy_name_is_loaded_on_first_use_only() -> None:
    code = (
        "import sys, splendor.arena, splendor.formats\n"
        "assert 'splendor.arena.ratings' not in sys.modules\n"
        "assert 'splendor.formats.serialization' not in sys.modules\n"
        "assert splendor.arena.rate.__module__ == 'splendor.arena.ratings'\n"
        "assert splendor.formats.to_json.__module__ == 'splendor.formats.serialization'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_an_unknown_name_of_a_facade_is_an_attribute_error() -> None:
    core = importlib.import_module("splendor.core")
    with pytest.raises(AttributeError, match=r"'splendor\.core' has no attribute 'nope'"):
        _ = core.nope
