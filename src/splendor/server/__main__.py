"""``python -m splendor.server``: start the game server (the same as ``splendor serve``)."""

from __future__ import annotations

import sys

from splendor.server import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
