"""The name under which the compiled kernel imports :func:`~splendor.core.messages.short_repr`."""

from __future__ import annotations

from splendor.core.messages import short_repr

__all__ = ["short_repr"]
