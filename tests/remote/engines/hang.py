"""An engine that hangs at start-up: it never answers ``hello``. It starts a child that hangs too.

Both pids are written to the file ``ENGINE_PIDFILE`` names.
"""

import os
import subprocess
import sys
import time

from tests.remote.engines._base import write_pid


def main() -> None:
    write_pid()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(os.environ["ENGINE_PIDFILE"], "a", encoding="utf-8") as file:
        file.write(f"{child.pid}\n")
    time.sleep(600)


if __name__ == "__main__":
    main()
