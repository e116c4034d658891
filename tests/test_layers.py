"""The package's layers: which module may import which, at every depth of its code.

Every module of ``src/splendor`` belongs to one layer (:data:`RANKS`, the
picture on the architecture page). A module may import its own package and
the layers below it, never a layer above nor a package of its own rank; the
imports inside functions count as much as the ones at the top, and so do the
names taken from the ``splendor`` package (each is the module that defines
it). The only way up is a documented hook (:data:`HOOKS`). No two modules
import each other, around a circle of any length, and each package imports
only the standard library and its own allow-list of third-party packages.
The Cython sources of the kernel are read too (their ``import`` and
``cimport`` lines).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

import pytest

import splendor

SRC: Final = Path(splendor.__file__).parent

#: The layers, bottom up: the rank of each package (a module's rank is its
#: package's). Equal ranks are neighbours that may not import each other.
RANKS: Final[dict[str, int]] = {
    "splendor.errors": 0,
    "splendor.core": 1,
    "splendor": 2,  # the package itself: the engine's names, and the others on first use
    "splendor.schema": 3,
    "splendor.formats": 4,
    "splendor.draw": 5,
    "splendor.remote": 5,
    "splendor.fast": 6,
    "splendor.players": 7,
    "splendor.testing": 7,
    "splendor.arena": 8,
    "splendor.rl": 8,
    "splendor.server": 9,
    "splendor.cli": 10,
    "splendor.__main__": 11,
}

#: Imports upwards, each a documented hook: (module, module it imports).
HOOKS: Final = frozenset(
    {
        # GameState._repr_svg_ and PlayerView._repr_svg_: the picture Jupyter
        # shows, drawn on demand.
        ("splendor.core.state", "splendor.draw.svg"),
        ("splendor.core.views", "splendor.draw.svg"),
    }
)

#: The third-party packages each package may import (the standard library is free).
THIRD_PARTY: Final[dict[str, frozenset[str]]] = {
    "splendor": frozenset({"attrs"}),
    "splendor.errors": frozenset(),
    "splendor.core": frozenset({"attrs"}),
    "splendor.formats": frozenset({"attrs", "cattrs"}),
    "splendor.schema": frozenset(),
    "splendor.draw": frozenset({"attrs"}),
    "splendor.remote": frozenset({"attrs"}),
    "splendor.players": frozenset({"attrs"}),
    "splendor.testing": frozenset({"attrs"}),
    "splendor.fast": frozenset({"attrs", "numpy"}),
    "splendor.arena": frozenset({"attrs", "openskill", "ray"}),
    "splendor.rl": frozenset(
        {"attrs", "numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel"}
    ),
    "splendor.server": frozenset({"attrs", "psycopg", "starlette", "uvicorn", "websockets"}),
    "splendor.cli": frozenset({"attrs", "rich"}),
    "splendor.__main__": frozenset(),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


PYTHON: Final = {_module_name(path): path for path in sorted(SRC.rglob("*.py"))}
CYTHON: Final = {
    _module_name(path): path
    for pattern in ("*.pyx", "*.pxi")
    for path in sorted(SRC.rglob(pattern))
}
MODULES: Final = {**PYTHON, **CYTHON}


def package_of(module: str) -> str:
    """The layer package of a module: the longest prefix in :data:`RANKS`."""
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        prefix = ".".join(parts[:size])
        if prefix in RANKS:
            return prefix
    raise KeyError(f"{module} is in no layer: add its package to RANKS")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(base: str, name: str) -> str:
    """What ``from base import name`` loads: a module, or the module defining a lazy name."""
    if f"{base}.{name}" in MODULES:
        return f"{base}.{name}"
    if base == "splendor" and name in splendor._LAZY:
        return splendor._LAZY[name]
    return base


def python_imports(module: str) -> Iterator[str]:
    """Every module ``module`` imports at run time, at any depth (``TYPE_CHECKING`` aside)."""
    path = PYTHON[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                yield from (alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in child.names:
                    yield _resolve(base, alias.name)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    yield from visit(ast.Module(body=[other], type_ignores=[]))
            else:
                yield from visit(child)

    yield from visit(tree)


_CYTHON_IMPORT: Final = re.compile(
    r"^\s*(?:from\s+([\w.]+)\s+c?import\s+([\w, ]+)|c?import\s+([\w.]+))", re.MULTILINE
)


def cython_imports(module: str) -> Iterator[str]:
    """The ``import``, ``from ... import`` and ``cimport`` lines of a Cython source."""
    for match in _CYTHON_IMPORT.finditer(CYTHON[module].read_text(encoding="utf-8")):
        base, names, plain = match.groups()
        if plain:
            yield plain
        else:
            for name in names.split(","):
                yield _resolve(base, name.strip().split(" ")[0])


def imports(module: str) -> set[str]:
    """Every module that ``module`` imports."""
    found = python_imports(module) if module in PYTHON else cython_imports(module)
    return set(found)


def graph() -> dict[str, set[str]]:
    """Each module's imports of the package's own modules, documented hooks left out."""
    return {
        module: {
            name
            for name in imports(module)
            if name.split(".")[0] == "splendor" and (module, name) not in HOOKS
        }
        for module in MODULES
    }


def find_circle(edges: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports, as the list of its modules with the first one again, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def upward_imports(module: str) -> list[str]:
    """The imports of ``module`` that reach a higher layer or a neighbour of equal rank."""
    own = package_of(module)
    bad = []
    for name in imports(module):
        if name.split(".")[0] != "splendor" or (module, name) in HOOKS:
            continue
        other = package_of(name)
        if other != own and RANKS[other] >= RANKS[own]:
            bad.append(name)
    return sorted(bad)


# The walker itself, on made-up code.


def test_the_walker_finds_a_circle_and_none_where_there_is_none() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) is None


def test_the_walker_sees_imports_inside_functions_lazy_names_and_cython() -> None:
    edges = graph()
    assert "splendor.core.state" in edges["splendor.core.play"]
    assert "splendor.core._count_tuples" in edges["splendor.core.legal"]
    # Inside a function: the hook, left out of the graph but seen by the walker.
    assert "splendor.draw.svg" in imports("splendor.core.state")
    assert "splendor.draw.svg" not in edges["splendor.core.state"]
    # A lazy name of the package is the module that defines it.
    assert _resolve("splendor", "GreedyBot") == "splendor.players.bots"
    assert "splendor.formats.serialization" not in edges["splendor"]
    kernel = [name for name in CYTHON if name.startswith("splendor.fast.")]
    assert kernel, "the kernel's Cython sources were not found"
    assert any(imports(name) for name in kernel)


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        assert package_of(module) in RANKS


def test_an_upward_import_is_seen() -> None:
    # players is above core: core importing it would be refused.
    assert RANKS[package_of("splendor.players.bots")] > RANKS[package_of("splendor.core.legal")]
    assert RANKS[package_of("splendor.formats.notation")] < RANKS[package_of("splendor.cli")]


# The package.


_INCLUDE: Final = re.compile(r'^include "(\w+)\.pxi"', re.MULTILINE)


def test_no_import_circles_at_any_depth() -> None:
    # The kernel's .pxi files are compiled into the .pyx that includes them:
    # their imports are its imports.
    edges = graph()
    for module in CYTHON:
        package = module.rpartition(".")[0]
        for name in _INCLUDE.findall(CYTHON[module].read_text(encoding="utf-8")):
            edges[module] |= edges[f"{package}.{name}"]
    assert "splendor.fast.heuristics" in edges["splendor.fast._kernel"]
    # The only imports left out are the two hooks of the pictures.
    assert {
        ("splendor.core.state", "splendor.draw.svg"),
        ("splendor.core.views", "splendor.draw.svg"),
    } == HOOKS
    assert find_circle(edges) is None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_own_package_and_lower_layers(module: str) -> None:
    assert upward_imports(module) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_packages_third_party_allow_list(module: str) -> None:
    allowed = THIRD_PARTY[package_of(module)]
    outside = sorted(
        name
        for name in imports(module)
        if name.split(".")[0] not in {"splendor", *sys.stdlib_module_names, *allowed}
        and not name.startswith("cython")
        and not name.startswith("libc")
        and not name.startswith("cpython")
    )
    assert outside == []


def private_names_imported(module: str) -> Iterator[str]:
    """``package.module._name`` for each private name ``module`` takes from another module.

    A module whose own name starts with an underscore is a home for helpers
    shared within its package: importing it, or its public names, is fine.
    """
    if module not in PYTHON:
        return
    for node in ast.walk(ast.parse(PYTHON[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] != "splendor" or node.module == module:
                continue
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and f"{node.module}.{name}" not in MODULES:
                    yield f"{node.module}.{name}"


def test_the_walker_sees_a_private_name_taken_from_another_module() -> None:
    assert "splendor._LAZY" not in MODULES
    assert _resolve("splendor.core", "_count_tuples") == "splendor.core._count_tuples"


@pytest.mark.parametrize("module", sorted(PYTHON))
def test_no_private_name_is_imported_from_another_module(module: str) -> None:
    assert list(private_names_imported(module)) == []


ARCHITECTURE: Final = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
_ROW: Final = re.compile(r"^\| (\d+) \| `([\w.]+)` \| [^|]+ \| ([^|]+) \|$", re.MULTILINE)


def test_the_architecture_page_shows_these_layers_and_allow_lists() -> None:
    rows = _ROW.findall(ARCHITECTURE.read_text(encoding="utf-8"))
    ranks = {package: int(rank) for rank, package, _ in rows}
    assert ranks == RANKS
    allowed = {package: frozenset(re.findall(r"`(\w+)`", third)) for _, package, third in rows}
    # open_spiel is the import name pyspiel's package also answers to.
    assert allowed == {package: names - {"open_spiel"} for package, names in THIRD_PARTY.items()}


# No private channels between packages.


def _is_private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


_CYTHON_FROM: Final = re.compile(
    r"^\s*from\s+([\w.]+)\s+c?import\s+(\([^)]*\)|[^\n#]+)|^\s*c?import\s+([\w.]+)(?:\s+as\s+(\w+))?",
    re.MULTILINE,
)


def _cython_taken(source: str) -> Iterator[tuple[str, str, str]]:
    for match in _CYTHON_FROM.finditer(source):
        base, names, plain, plain_alias = match.groups()
        if plain:
            yield plain, "", plain_alias or plain
            continue
        for item in names.strip("()").split(","):
            words = item.split()
            if words:
                yield base, words[0], words[-1]


def _python_taken(module: str) -> Iterator[tuple[str, str, str]]:
    path = PYTHON[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, "", alias.asname or alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            yield from ((base, alias.name, alias.asname or alias.name) for alias in node.names)


def _with_attributes(
    source: str, found: Iterable[tuple[str, str, str]]
) -> Iterator[tuple[str, str]]:
    """Each ``(module, name)`` of ``found``, and each attribute ``source`` reads from a module."""
    for base, name, bound in found:
        yield base, name
        whole = f"{base}.{name}" if name else base
        if whole in MODULES:
            attribute = re.compile(rf"(?<![\w.]){re.escape(bound)}\.(\w+)")
            yield from ((whole, read) for read in attribute.findall(source))


def _taken(module: str) -> Iterator[tuple[str, str]]:
    """Each ``(module, name)`` that ``module`` imports, at any depth ("" for a whole module).

    The attributes read from a module it imports count as names taken from
    it (``from splendor.players import bots as _bots`` and then
    ``_bots._BUY_POINTS``).
    """
    source = MODULES[module].read_text(encoding="utf-8")
    found = _cython_taken(source) if module in CYTHON else _python_taken(module)
    return _with_attributes(source, found)


def private_reads_of(module: str, taken: Iterable[tuple[str, str]]) -> list[str]:
    """The private modules and names of other packages among what ``module`` takes.

    A module of a package reads its own package's private modules freely; a
    private module (a dotted part that starts with an underscore) or a
    private name of another package is a channel its facade does not show.
    """
    own = package_of(module)
    found = set()
    for base, name in taken:
        if base.split(".")[0] != "splendor":
            continue
        target = f"{base}.{name}" if name and f"{base}.{name}" in MODULES else base
        if package_of(target) == own:
            continue
        if any(_is_private(part) for part in target.split(".")[1:]):
            found.add(target)
        if name and target == base and _is_private(name):
            found.add(f"{base}.{name}")
    return sorted(found)


def private_reads(module: str) -> list[str]:
    """The private modules and names of other packages that ``module`` imports."""
    return private_reads_of(module, _taken(module))


def test_the_walker_sees_a_private_module_and_a_private_name_of_another_package() -> None:
    assert not _is_private("__init__")
    assert not _is_private("__version__")
    module = "splendor.formats.notation"
    assert private_reads_of(module, [("splendor.core._count_tuples", "")]) == [
        "splendor.core._count_tuples"
    ]
    assert private_reads_of(module, [("splendor.core", "_count_tuples")]) == [
        "splendor.core._count_tuples"
    ]
    assert private_reads_of(module, [("splendor.core.gems", "_SECRET")]) == [
        "splendor.core.gems._SECRET"
    ]
    # Its own package's private modules, dunder names and public names are fine.
    assert private_reads_of(module, [("splendor.formats._notation_parser", "Reader")]) == []
    assert private_reads_of(module, [("splendor", "__version__"), ("splendor.core", "gems")]) == []
    # An attribute read from an imported module is a name taken from it.
    source = "from splendor.players import bots as _bots\ncdef double W = _bots._WEIGHT\n"
    taken = set(_with_attributes(source, _cython_taken(source)))
    assert taken == {("splendor.players", "bots"), ("splendor.players.bots", "_WEIGHT")}
    assert private_reads_of("splendor.fast._kernel", taken) == ["splendor.players.bots._WEIGHT"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_reads_a_private_module_or_name_of_another_package(module: str) -> None:
    assert private_reads(module) == []
