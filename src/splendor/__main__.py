"""``python -m splendor``: the ``splendor`` command line (see :mod:`splendor.cli`).

With no command it plays and prints a complete seeded game between built-in
bots; ``python -m splendor --help`` lists the commands.
"""

from __future__ import annotations

import sys

from splendor.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
