"""Check the built sdist and wheel in a folder: the files a release must ship.

``python tools/check_dist.py dist`` exits non-zero, naming what is missing,
unless the folder holds exactly one wheel and one sdist of splendor-rules,
each with the licence, the typing marker, the card and noble data, the
value network's weights and the JSON schema, a wheel with the compiled
kernel tagged ``manylinux`` (the only Linux binary wheels PyPI takes), and
the wheel's metadata has the licence expression, the project's links and a
README that does not point into the repository.
"""

from __future__ import annotations

import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

WHEEL_FILES = (
    "splendor/py.typed",
    "splendor/data/cards.csv",
    "splendor/data/nobles.csv",
    "splendor/data/value-2p.net",
    "splendor/schema/splendor.schema.json",
    "splendor/server/static/index.html",
    "splendor/server/static/app.js",
    "splendor/server/static/style.css",
)
LINKS = ("Homepage", "Documentation", "Source", "Changelog")


def check(folder: Path) -> list[str]:
    """Every problem found with the distributions in ``folder``."""
    problems: list[str] = []
    wheels = sorted(folder.glob("splendor_rules-*.whl"))
    sdists = sorted(folder.glob("splendor_rules-*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        return [f"expected one wheel and one sdist in {folder}, found {wheels + sdists}"]
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
        compiled = any(name.endswith(".so") for name in names)
        if compiled and "manylinux" not in wheels[0].name:
            problems.append(f"{wheels[0].name} has a compiled kernel but no manylinux tag")
        for needed in WHEEL_FILES:
            if needed not in names:
                problems.append(f"the wheel lacks {needed}")
        if not any(name.endswith(".dist-info/licenses/LICENSE") for name in names):
            problems.append("the wheel lacks the LICENSE file")
        metadata_name = next(name for name in names if name.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(wheel.read(metadata_name).decode("utf-8"))
    if metadata["License-Expression"] != "MIT":
        problems.append(f"License-Expression is {metadata['License-Expression']!r}")
    urls = {value.split(",")[0].strip() for value in metadata.get_all("Project-URL") or []}
    problems += [f"no Project-URL {link}" for link in LINKS if link not in urls]
    description = metadata.get_payload()
    if not isinstance(description, str) or 'pip install "splendor-rules[' not in description:
        problems.append("the PyPI description does not show how to install from PyPI")
    elif "](docs/" in description:
        problems.append("the PyPI description links into the repository by a relative path")
    with tarfile.open(sdists[0]) as sdist:
        members = {name.split("/", 1)[-1] for name in sdist.getnames()}
    for needed in ("LICENSE", "README.md", "pyproject.toml", "src/splendor/__init__.py"):
        if needed not in members:
            problems.append(f"the sdist lacks {needed}")
    return problems


def main() -> int:
    """Command line: ``python tools/check_dist.py FOLDER``."""
    problems = check(Path(sys.argv[1] if len(sys.argv) > 1 else "dist"))
    for problem in problems:
        print(f"check_dist: {problem}")
    print("check_dist: ok" if not problems else f"check_dist: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
