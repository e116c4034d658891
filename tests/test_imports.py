"""The package's layers: what ``import splendor`` loads, and which module imports which.

The engine (the modules in :data:`ENGINE`) needs nothing but the standard
library and attrs, and imports nothing above it; every other module builds
on it and is loaded on first use. The walker reads the sources with
:mod:`ast`, so it covers whatever modules the package has.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

import splendor

SRC: Final = Path(splendor.__file__).parent
#: The engine: the rules of the game and nothing else.
ENGINE: Final = frozenset(
    f"splendor.{name}"
    for name in (
        "_counts",
        "_make",
        "_shapes",
        "_table_view",
        "_text",
        "actions",
        "components",
        "deal",
        "errors",
        "gems",
        "legal",
        "play",
        "rules",
        "state",
        "validation",
    )
)
#: Imports an engine module may make of outer modules, inside a function, with the reason.
ALLOWED_LAZY: Final = {
    # GameState._repr_svg_ draws the state for Jupyter, on demand.
    ("splendor.state", "splendor.svg"),
}
THIRD_PARTY_FOR_ENGINE: Final = frozenset({"attrs"})
HEAVY: Final = ("cattrs", "rich", "numpy")


def _run(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; it prints one JSON value, returned."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=SRC.parent,
    )
    value: dict[str, object] = json.loads(done.stdout)
    return value


_LOADED = """
import json, sys
import splendor
{body}
print(json.dumps({{
    "heavy": sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r}),
    "splendor": sorted(m for m in sys.modules if m.startswith("splendor.")),
}}))
"""


def test_the_engine_loads_no_json_no_terminal_and_no_numpy() -> None:
    body = """
state = splendor.new_game(2, seed=1)
while not state.is_over:
    actions = splendor.legal_actions(state)
    assert splendor.is_legal(state, actions[-1])
    state = splendor.apply(state, actions[-1])
"""
    loaded = _run(_LOADED.format(body=body, heavy=HEAVY))
    assert loaded["heavy"] == []
    modules = loaded["splendor"]
    assert isinstance(modules, list)
    assert set(modules) <= ENGINE, sorted(set(modules) - ENGINE)


def test_json_is_loaded_on_first_use() -> None:
    body = "splendor.to_json(splendor.new_game(2, seed=1))"
    loaded = _run(_LOADED.format(body=body, heavy=HEAVY))
    heavy = loaded["heavy"]
    assert isinstance(heavy, list)
    assert "cattrs" in heavy
    assert "rich" not in heavy
    assert "splendor.serialization" in str(loaded["splendor"])


def test_dir_lists_every_public_name_and_nothing_else() -> None:
    names = dir(splendor)
    assert names == sorted([*splendor.__all__, "__version__"])
    assert "render_svg" in names
    assert "is_legal" in names
    for leaked in ("annotations", "TYPE_CHECKING", "importlib"):
        assert leaked not in names


@pytest.mark.parametrize("name", splendor.__all__)
def test_every_public_name_resolves(name: str) -> None:
    value = getattr(splendor, name)
    assert value is not None
    # A lazy name resolves to the object its own module defines.
    module = getattr(value, "__module__", None)
    if isinstance(module, str) and module.startswith("splendor."):
        assert getattr(sys.modules[module], name, value) is value


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = splendor.nope


# The walker.


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: Final = {_module_name(path): path for path in sorted(SRC.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, *, top_level_only: bool) -> Iterator[str]:
    """The modules ``module`` imports (absolute names), skipping ``if TYPE_CHECKING:``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                yield from (alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - child.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in child.names:
                    # ``from package import module`` imports the module.
                    if f"{base}.{alias.name}" in MODULES:
                        yield f"{base}.{alias.name}"
                    else:
                        yield base
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    yield from visit(ast.Module(body=[other], type_ignores=[]))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                if not top_level_only:
                    yield from visit(child)
            else:
                yield from visit(child)

    yield from visit(tree)


def _graph() -> dict[str, set[str]]:
    """Each module's module-level imports of the package's own modules."""
    return {
        module: {name for name in _imports(module, top_level_only=True) if name in MODULES}
        for module in MODULES
    }


def _find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_walker_finds_a_circle() -> None:
    assert _find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_circle({"a": {"b"}, "b": set()}) is None


def test_the_walker_sees_the_package() -> None:
    assert set(MODULES) >= ENGINE
    graph = _graph()
    assert "splendor.state" in graph["splendor.play"]
    assert "splendor._counts" in graph["splendor.legal"]  # from splendor import _counts
    # The package's lazy names are not module-level imports.
    assert "splendor.serialization" not in graph["splendor"]


def test_no_import_circles_at_module_level() -> None:
    assert _find_circle(_graph()) is None


@pytest.mark.parametrize("module", sorted(ENGINE))
def test_an_engine_module_imports_only_the_engine_the_standard_library_and_attrs(
    module: str,
) -> None:
    for name in _imports(module, top_level_only=False):
        top = name.split(".")[0]
        if top == "splendor":
            if (module, name) in ALLOWED_LAZY:
                continue
            assert name in ENGINE, f"{module} imports {name}, outside the engine"
        else:
            assert top in sys.stdlib_module_names or top in THIRD_PARTY_FOR_ENGINE, (
                f"{module} imports {name}, a third-party package"
            )


#: Every module name, the compiled ones (a ``.pyx`` source or a ``.pyi`` stub) too.
ALL_MODULES: Final = set(MODULES) | {
    _module_name(path) for suffix in ("*.pyx", "*.pyi") for path in SRC.rglob(suffix)
}
#: Private names still imported across modules, each to be given a home.
PRIVATE_IMPORTS_LEFT: Final[set[tuple[str, str]]] = set()


def _private_imports(module: str) -> Iterator[str]:
    """``package.module._name`` for each private name ``module`` imports from another."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            source = node.module
            if not source.startswith("splendor"):
                continue
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and f"{source}.{name}" not in ALL_MODULES:
                    yield f"{source}.{name}"


def test_no_private_name_is_imported_from_another_module() -> None:
    found = {
        (module, name)
        for module in MODULES
        for name in _private_imports(module)
        if not name.startswith(f"{module}.")
    }
    assert found <= PRIVATE_IMPORTS_LEFT, sorted(found - PRIVATE_IMPORTS_LEFT)
