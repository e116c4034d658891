"""Importing the optional packages of the ``[rl]`` and ``[openspiel]`` extras."""

from __future__ import annotations

from splendor.fast._extras import require

__all__ = ["require"]
