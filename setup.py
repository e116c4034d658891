"""Build of the compiled kernel ``splendor.fast._kernel`` (everything else is in pyproject.toml).

The kernel is a Cython extension marked optional: when it cannot be built (no
C compiler, or Cython missing outside an isolated build) the package installs
without it and ``splendor.fast`` falls back to pure Python. Set
``SPLENDOR_PURE=1`` in the environment of the build to skip the extension on
purpose.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup

FAST = Path("src/splendor/fast")


def _extensions() -> list[Extension]:
    if os.environ.get("SPLENDOR_PURE", "") not in ("", "0"):
        print("SPLENDOR_PURE is set: building splendor without its compiled kernel")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("Cython is not installed: building splendor without its compiled kernel")
        return []
    # One extension, one compilation unit: _kernel.pyx includes the .pxi files
    # (one per Python module it mirrors), so its small functions inline.
    kernel = Extension(
        "splendor.fast._kernel",
        ["src/splendor/fast/_kernel.pyx"],
        depends=sorted(str(path) for path in FAST.glob("*.px[di]")),
        optional=True,
        # No contraction of a * b + c into one fused multiply-add: the kernel's
        # GreedyBot must round its weights exactly as Python does.
        extra_compile_args=[] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"],
    )
    extensions: list[Extension] = cythonize([kernel], language_level=3, quiet=True)
    for extension in extensions:
        # cythonize makes new Extension objects; keep the build optional.
        extension.optional = True
    return extensions


setup(ext_modules=_extensions())
