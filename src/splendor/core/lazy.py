"""Names of a package loaded on first use (PEP 562): :func:`lazy_names`.

A package's ``__init__`` lists its public names in ``__all__`` and takes
its module ``__getattr__`` and ``__dir__`` from :func:`lazy_names`; each
name's module is imported the first time the name is used, so importing the
package, or any module of it, loads nothing more.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence

__all__ = ["lazy_names"]


def lazy_names(
    package: str, homes: Mapping[str, Sequence[str]]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of a package whose names load on first use.

    Args:
        package: the package's ``__name__``.
        homes: each module of the package and the public names it defines.

    Returns:
        ``__getattr__``, which imports a name's module on first use and keeps
        the name in the package (an unknown name raises
        :class:`AttributeError`), and ``__dir__``, which lists every name,
        loaded or not.

    >>> getattr_, dir_ = lazy_names("splendor.core", {"splendor.core.wording": ["plural"]})
    >>> getattr_("plural")(2, "card"), dir_()
    ('2 cards', ['plural'])
    """
    module_of = {name: module for module, names in homes.items() for name in names}

    def load(name: str) -> object:
        """Import the module behind a public name on first use."""
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value: object = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def names() -> list[str]:
        """Every public name, loaded or not."""
        return sorted(module_of)

    return load, names
