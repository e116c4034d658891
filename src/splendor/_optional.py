"""Importing a package of an optional extra: :func:`require`.

The one place that turns a missing optional package into
:class:`~splendor.errors.MissingExtraError`, for the RL environments, the
kernel's ``VectorEnv``, the server and the parallel runs. No name here is
part of the public API.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from splendor.errors import MissingExtraError

__all__ = ["require"]


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` naming ``extra``.

    Args:
        module: the module to import, like ``"numpy"`` or ``"ray"``.
        extra: the extra of ``splendor-rules`` that installs it, like ``"rl"``.
        feature: what needs it, the start of the message (``"the server"``).

    Returns:
        The module.

    Raises:
        MissingExtraError: when the module cannot be imported; the message
            names the package and the command that installs the extra.

    >>> require("json", "rl", "this example").__name__
    'json'
    >>> require("no_such_package_here", "server", "the server")
    Traceback (most recent call last):
    ...
    splendor.errors.MissingExtraError: the server needs the package 'no_such_package_here', \
which is not installed: pip install "splendor-rules[server]"
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = module.split(".", maxsplit=1)[0]
        raise MissingExtraError(
            f"{feature} needs the package {package!r}, which is not installed: "
            f'pip install "splendor-rules[{extra}]"',
            extra=extra,
        ) from error
