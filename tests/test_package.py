"""The package: what ``import splendor`` and a whole game load, and its public names.

``import splendor`` loads the engine (:mod:`splendor.core`) alone; every other
public name is loaded on first use. Which module may import which is the
subject of ``tests/test_layers.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

import splendor

SRC: Final = Path(splendor.__file__).parent
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
    engine = {"splendor.errors", "splendor.core"}
    outside = {name for name in modules if ".".join(name.split(".")[:2]) not in engine}
    assert "splendor.core.play" in modules
    assert not outside, sorted(outside)


def test_json_is_loaded_on_first_use() -> None:
    body = "splendor.to_json(splendor.new_game(2, seed=1))"
    loaded = _run(_LOADED.format(body=body, heavy=HEAVY))
    heavy = loaded["heavy"]
    assert isinstance(heavy, list)
    assert "cattrs" in heavy
    assert "rich" not in heavy
    assert "splendor.formats.serialization" in str(loaded["splendor"])


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
