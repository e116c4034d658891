"""A throwaway PostgreSQL server for the tests and the load test: Debian's ``postgresql``.

:class:`PostgresServer` runs ``initdb`` into a fresh directory of /tmp and
starts ``postgres`` on a unix socket in it (no TCP port, nothing reachable
from outside), with fsync on as in production. PostgreSQL refuses to run
as root: under root the directory is given to the ``postgres`` user that
Debian's package creates (or ``nobody`` when there is none) and both
programs run as that user (``subprocess.Popen(user=...)``, no ``su``).
:meth:`PostgresServer.stop` stops it (SIGINT: PostgreSQL's fast shutdown,
then SIGKILL if it lingers) and deletes the directory; it is also
registered with :mod:`atexit`, so no server outlives the process that
started it.

Set ``SPLENDOR_TEST_POSTGRES`` to a server's URL (``postgresql://user@host/postgres``,
a user who may create databases) to use that one instead; each test gets a
database of its own either way.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Final

#: A server to use instead of starting one.
URL_VARIABLE: Final = "SPLENDOR_TEST_POSTGRES"


def binaries() -> Path | None:
    """The folder of Debian's PostgreSQL programs (the newest version), or ``None``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    return Path(found[-1]).parent if found else None


def _version(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


class PostgresServer:
    """A PostgreSQL server of its own in a temporary directory, on a unix socket.

    Args:
        bin_dir: the folder of ``initdb`` and ``postgres``.
        port: the number in the socket's name (no TCP port is opened).
        max_connections: PostgreSQL's ``max_connections``.
    """

    def __init__(self, bin_dir: Path, *, port: int = 5432, max_connections: int = 200) -> None:
        """Make the directory and the cluster (``initdb``); :meth:`start` starts it."""
        self.port = port
        self.folder = Path(tempfile.mkdtemp(prefix="splendor-pg-"))
        self.data = self.folder / "data"
        self._bin = bin_dir
        self._process: subprocess.Popen[bytes] | None = None
        self._user: str | None = None
        self._max_connections = max_connections
        if os.geteuid() == 0:
            self._user = "postgres" if _exists("postgres") else "nobody"
            entry = pwd.getpwnam(self._user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        atexit.register(self.stop)
        self._run(
            [
                *(str(bin_dir / "initdb"), "-D", str(self.data), "-U", "splendor"),
                *("--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-instructions"),
            ]
        )

    def _popen(self, command: list[str], log: Path) -> subprocess.Popen[bytes]:
        with log.open("ab") as out:
            return subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                user=self._user,
                group=None if self._user is None else pwd.getpwnam(self._user).pw_gid,
                extra_groups=None if self._user is None else [],
                cwd=self.folder,
                start_new_session=True,  # a Ctrl-C of the tests is not also the server's
            )

    def _run(self, command: list[str]) -> None:
        log = self.folder / "initdb.log"
        process = self._popen(command, log)
        if process.wait(timeout=120) != 0:
            raise RuntimeError(f"{command[0]} failed: {log.read_text()[-2000:]}")

    def start(self) -> None:
        """Start the server and wait until it accepts connections (up to 60 s)."""
        command = [str(self._bin / "postgres"), "-D", str(self.data), "-k", str(self.folder)]
        command += ["-p", str(self.port), "-c", "listen_addresses="]
        command += ["-c", f"max_connections={self._max_connections}"]
        self._process = self._popen(command, self.folder / "server.log")
        socket_file = self.folder / f".s.PGSQL.{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"postgres stopped: {self.log()[-2000:]}")
            if socket_file.exists() and self._ready():
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("postgres did not start within 60 s")

    def _ready(self) -> bool:
        ready = self._bin / "pg_isready"
        if not ready.exists():
            return True
        probe = [str(ready), "-q", "-h", str(self.folder), "-p", str(self.port)]
        return subprocess.run(probe, check=False).returncode == 0

    def log(self) -> str:
        """What the server wrote to its log."""
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server (over its socket)."""
        return f"postgresql://splendor@/{database}?host={self.folder}&port={self.port}"

    def stop(self) -> None:
        """Stop the server (fast shutdown, then SIGKILL) and delete its directory."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True


def new_database(admin_url: str) -> str:
    """Create an empty database on the server of ``admin_url``; its URL."""
    import psycopg
    from psycopg import sql

    name = f"splendor_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return _with_database(admin_url, name)


def drop_database(admin_url: str, url: str) -> None:
    """Drop the database of ``url`` (made by :func:`new_database`), closing its connections."""
    import psycopg
    from psycopg import sql

    name = url.split("/", 3)[3].split("?", 1)[0]
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def _with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead of its own."""
    head, _, tail = url.partition("://")
    where, _, rest = tail.partition("/")
    query = rest.partition("?")[2]
    return f"{head}://{where}/{name}" + (f"?{query}" if query else "")
