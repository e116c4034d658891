"""Compile the soak's checker, ``tools/_soak_kernel.pyx``, next to its source.

Run by ``nox -s soak`` (or ``python -m tools.build_soak_kernel``). The
checker is test infrastructure: it is built here, in place, and never goes
into the installed package. It needs Cython, a C compiler, and ``splendor``
installed with its compiled kernel (the checker calls the kernel's C
functions through ``splendor/fast/_kernel.pxd``).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "_soak_kernel.pyx"
INCLUDE = HERE.parent / "src"


def build() -> None:
    """Compile the checker in place; SystemExit with the reason when it cannot be."""
    # Imported by name: neither is a dependency of the type checks.
    try:
        cython_build = importlib.import_module("Cython.Build")
        setuptools = importlib.import_module("setuptools")
    except ImportError as error:
        raise SystemExit(
            f"cannot build the soak's checker: {error.name} is missing "
            "(pip install --group soak, or run nox -s soak)"
        ) from error
    import splendor.fast

    if not splendor.fast.COMPILED:
        raise SystemExit(
            "cannot build the soak's checker: splendor is installed without its compiled "
            "kernel (SPLENDOR_PURE set, or no C compiler when it was built)"
        )
    extension = setuptools.Extension(
        "tools._soak_kernel", [str(SOURCE.relative_to(Path.cwd()))], extra_compile_args=["-O2"]
    )
    modules = cython_build.cythonize(
        [extension], include_path=[str(INCLUDE)], language_level=3, quiet=True
    )
    distribution = setuptools.Distribution(
        {"ext_modules": modules, "script_name": "build_soak_kernel"}
    )
    command = distribution.get_command_obj("build_ext")
    command.inplace = True
    command.ensure_finalized()
    command.run()


if __name__ == "__main__":
    build()
    sys.exit(0)
