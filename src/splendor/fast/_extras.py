"""Importing the optional packages of the extras (``[rl]``, ``[openspiel]``), or naming them."""

from __future__ import annotations

import importlib
from types import ModuleType

from splendor.errors import MissingExtraError


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` naming ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = module.split(".", maxsplit=1)[0]
        raise MissingExtraError(
            f"{feature} needs the package {package!r}, which is not installed: "
            f'pip install "splendor-rules[{extra}]"',
            extra=extra,
        ) from error
