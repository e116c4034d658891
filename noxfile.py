"""Sessions for nox: ``nox`` runs everything CI needs; ``nox -s bench`` times the engine."""

from __future__ import annotations

import nox

nox.needs_version = ">=2024.4"
nox.options.default_venv_backend = "venv"
nox.options.sessions = ["lint", "mypy", "tests", "docs", "ray"]
nox.options.error_on_missing_interpreters = False

PYPROJECT = nox.project.load_toml("pyproject.toml")


def group(name: str) -> tuple[str, ...]:
    """The requirements of a dependency group of pyproject.toml."""
    return nox.project.dependency_groups(PYPROJECT, name)


@nox.session
def tests(session: nox.Session) -> None:
    """Unit, property and doctests (Hypothesis profile: ``ci`` unless given)."""
    session.install("-e", ".[cli]", *group("test"))
    session.run("pytest", *session.posargs, env={"HYPOTHESIS_PROFILE": "ci"})


@nox.session
def mypy(session: nox.Session) -> None:
    """``mypy --strict`` over src/ and tests/."""
    session.install("-e", ".[cli]", *group("typecheck"))
    session.run("mypy", "--strict", "src", "tests", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """``ruff check`` and ``ruff format --check``."""
    session.install(*group("lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the docs with warnings as errors and nitpicky references; run their doctests."""
    session.install("-e", ".", *group("docs"))
    session.run(
        "sphinx-build", "-W", "-n", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )
    session.run("sphinx-build", "-W", "-n", "-b", "doctest", "docs", "docs/_build/doctest")


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Random playouts through the public API: steps/s, games/s, turns, branching."""
    session.install(".")
    session.run("python", "benchmarks/bench.py", *session.posargs)


@nox.session
def ray(session: nox.Session) -> None:
    """Tournaments and self-play on real local Ray instances (``[ray]`` extra)."""
    session.install("-e", ".[ray]", *group("test"))
    session.run("pytest", "tests/test_ray.py", *session.posargs)
