"""Load and kill tests of ``splendor serve`` on 127.0.0.1, on SQLite and on PostgreSQL.

Each run starts real server processes (``python -m splendor.server``) on a
fresh database and, when there are several, a small TCP proxy (a process of
its own) that spreads the connections over them round robin, so that every
client uses one address as it would behind a load balancer. Then:

* ``--tables`` tables play at once: half of two people (two websocket
  clients), half of a person and a greedy bot of the server; each person
  sends a random legal move as soon as it is its turn, up to ``--moves``
  moves a table;
* ``--spectators`` websockets watch the tables (spread over them);
* hostile clients, in the same run: spectators that never read (slow
  readers), connections that send their headers a byte a second
  (slowloris), websockets that send messages as fast as they can (floods),
  and connections that send bytes that are not HTTP or not websocket frames
  (garbage).

It reports moves a second, the latency of a move (sent, to its new state on
the same socket) at the 50th and 99th percentiles, the servers' memory
(peak resident set) and what became of the hostile clients. Then it stops the
servers and reads the store: every move a client was told was played must
be stored at its version (none lost), and every stored move must be one
acknowledged, one a bot played, or one in flight when its server was killed
(none applied twice). With ``--kills``, a killer ends random server
processes with SIGKILL at random moments while the tables play and starts
them again; the clients reconnect and play on.

``python benchmarks/server_load.py`` (``nox -s load``) runs everything at
full size; ``--quick`` at small sizes; ``--only NAME`` one run (``--help``).
It exits 1 when a check fails. PostgreSQL runs need Debian's ``postgresql``
package and psycopg (``splendor-rules[postgresql]``); they start a server
of their own in a temporary directory (tests/server/postgres.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.server.postgres

from splendor.server.database import open_store  # noqa: E402
from tests.server.postgres import PostgresServer, binaries, new_database  # noqa: E402

HOST = "127.0.0.1"
#: Limits of the servers under test: caps above the run's own connections
#: (all from one address), short timeouts so that hostile clients are cut off
#: within the run.
SERVER_OPTIONS = [
    "--bot-delay", "0", "--max-connections", "5000", "--max-connections-per-client", "5000",
    "--tables-per-client", "100000", "--max-tables", "100000",
    "--header-timeout", "3", "--body-timeout", "3", "--hello-timeout", "5",
]  # fmt: skip


def free_port() -> int:
    """A free TCP port of 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def wait_listening(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    """Wait (up to 30 s) until something accepts connections on ``port``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"{what} did not start on port {port}")


class Servers:
    """Server processes on one database, behind one port (a proxy when there are several)."""

    def __init__(self, count: int, db: str, folder: Path) -> None:
        self.db = db
        self.folder = folder
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen[bytes]] = [self._start(p) for p in self.ports]
        self.peak_kb: dict[int, int] = {}
        self.proxy: subprocess.Popen[bytes] | None = None
        if count == 1:
            self.port = self.ports[0]
        else:
            self.port = free_port()
            to = ",".join(map(str, self.ports))
            command = [sys.executable, __file__, "proxy", str(self.port), to]
            self.proxy = subprocess.Popen(command)
            wait_listening(self.port, self.proxy, "the proxy")

    def _start(self, port: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "splendor.server", "--host", HOST, "--port", str(port)]
        command += ["--db", self.db, *SERVER_OPTIONS]
        with (self.folder / f"server-{port}.log").open("ab") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_listening(port, process, "a server")
        return process

    def sample_memory(self) -> None:
        """Note each live server's peak resident set (VmHWM)."""
        for process in self.processes:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        self.peak_kb[process.pid] = int(line.split()[1])

    def kill(self, number: int) -> None:
        """SIGKILL server ``number`` and start it again on its port."""
        self.sample_memory()
        self.processes[number].kill()
        self.processes[number].wait()
        self.processes[number] = self._start(self.ports[number])

    def cpu_seconds(self) -> float:
        total = 0.0
        for process in self.processes:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def stop(self) -> list[int | None]:
        self.sample_memory()
        for process in self.processes:
            process.send_signal(signal.SIGINT)
        codes: list[int | None] = []
        for process in self.processes:
            try:
                codes.append(process.wait(timeout=30))
            except subprocess.TimeoutExpired:
                process.kill()
                codes.append(process.wait())
        if self.proxy is not None:
            self.proxy.kill()
            self.proxy.wait()
        return codes


def create_table(base: str, with_bot: bool) -> dict[str, Any]:
    second = {"kind": "bot", "bot": "greedy"} if with_bot else {"kind": "person"}
    body = json.dumps({"seats": [{"kind": "person"}, second]}).encode()
    request = urllib.request.Request(
        f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    for attempt in range(20):
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                created: dict[str, Any] = json.loads(response.read())
                return created
        except OSError:
            if attempt == 19:
                raise
            time.sleep(0.5)  # a server being restarted by the killer
    raise AssertionError("unreachable")


class Table:
    """One table as its clients saw it: acknowledged moves, moves in flight, bot seats."""

    def __init__(self, created: dict[str, Any], with_bot: bool, moves: int) -> None:
        self.id: str = created["table"]
        self.secrets: list[str | None] = [seat.get("secret") for seat in created["seats"]]
        self.bot_seats = {1} if with_bot else set()
        self.moves = moves
        self.acknowledged: dict[int, str] = {}
        self.in_flight: dict[int, set[str]] = {}
        self.latencies: list[float] = []
        self.refused = 0
        self.reconnects = 0
        self.done = False


def canonical(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


async def play_seat(url: str, table: Table, seat: int, rng: random.Random) -> None:
    """Play ``seat`` of ``table`` until the game ends or reaches its moves; reconnect if cut."""
    secret = table.secrets[seat]
    while not table.done:
        try:
            async with connect(f"{url}/ws/{table.id}", max_size=2**22, open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "join", "secret": secret}))
                await _play_on(ws, table, seat, rng)
        except (OSError, WebSocketException, TimeoutError):
            table.reconnects += 1
            await asyncio.sleep(0.2)


async def _play_on(ws: ClientConnection, table: Table, seat: int, rng: random.Random) -> None:
    message = await _state(ws)
    while not table.done:
        if message["over"] or message["version"] >= table.moves:
            table.done = True
            return
        if message["view"]["current_player"] != seat or not message["legal"]:
            message = await _state(ws)
            continue
        action = rng.choice(message["legal"])
        version = message["version"]
        table.in_flight.setdefault(version, set()).add(canonical(action))
        sent = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "version": version, "action": action}))
        latest = None
        while True:  # until this move's new state, or its refusal (after the state it lost to)
            answer = await _state(ws, errors=True)
            if answer["type"] == "error":
                table.refused += 1
                break
            latest = answer
            last = answer["last"]
            mine = answer["version"] == version + 1 and last is not None and last["seat"] == seat
            if mine and canonical(last["action"]) == canonical(action):
                table.acknowledged[version] = canonical(action)
                table.latencies.append(time.perf_counter() - sent)
                break
        message = latest if latest is not None and latest["version"] > version else await _state(ws)


async def _state(ws: ClientConnection, *, errors: bool = False) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=120))
        if message["type"] == "state" or (errors and message["type"] == "error"):
            return message


async def spectate(url: str, table: Table, counts: list[int]) -> None:
    """Watch a table, counting messages, until it is done (reconnecting when cut)."""
    while not table.done:
        try:
            async with connect(f"{url}/ws/{table.id}", max_size=2**22, open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "watch"}))
                while not table.done:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.recv(), timeout=1)
                        counts[0] += 1
        except (OSError, WebSocketException, TimeoutError):
            await asyncio.sleep(0.5)


class Hostile:
    """What became of each kind of hostile client: started, and cut off by the server."""

    def __init__(self) -> None:
        self.started: dict[str, int] = {}
        self.cut: dict[str, int] = {}
        self.seconds: dict[str, list[float]] = {}

    def note(self, kind: str, cut: bool, since: float) -> None:
        if cut:
            self.cut[kind] = self.cut.get(kind, 0) + 1
            self.seconds.setdefault(kind, []).append(time.monotonic() - since)

    async def slow_reader(self, url: str, table: Table, stop: asyncio.Event) -> None:
        """Watch and never read: the server drops it once its queue is full."""
        self.started["slow reader"] = self.started.get("slow reader", 0) + 1
        since = time.monotonic()
        with contextlib.suppress(OSError, WebSocketException):
            async with connect(f"{url}/ws/{table.id}", max_queue=1, open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "watch"}))
                transport = ws.transport
                transport.pause_reading()  # never read another byte
                await _closed(transport, stop)
                self.note("slow reader", transport.is_closing(), since)

    async def slowloris(self, port: int, stop: asyncio.Event) -> None:
        """Send a request's headers a byte a second."""
        self.started["slowloris"] = self.started.get("slowloris", 0) + 1
        since = time.monotonic()
        with contextlib.suppress(OSError):
            reader, writer = await asyncio.open_connection(HOST, port)
            request = b"GET /api/components HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 500
            for byte in request:
                if stop.is_set():
                    break
                writer.write(bytes([byte]))
                try:
                    await writer.drain()
                    if await _eof_within(reader, 1.0):
                        self.note("slowloris", True, since)
                        break
                except OSError:
                    self.note("slowloris", True, since)
                    break
            writer.close()

    async def flood(self, url: str, table: Table, stop: asyncio.Event) -> None:
        """Watch, then send bad moves as fast as the socket takes them."""
        self.started["flood"] = self.started.get("flood", 0) + 1
        since = time.monotonic()
        cut = False
        with contextlib.suppress(OSError, WebSocketException):
            async with connect(f"{url}/ws/{table.id}", open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "watch"}))
                reader = asyncio.create_task(_drain(ws))
                while not stop.is_set():
                    await ws.send('{"type": "move", "version": 0, "action": {"type": "pass"}}')
                    await asyncio.sleep(0)
                reader.cancel()
        cut = not stop.is_set()
        self.note("flood", cut, since)

    async def garbage(self, port: int, stop: asyncio.Event, websocket: bool) -> None:
        """Bytes that are not HTTP, or a websocket upgrade followed by bytes that are no frame."""
        kind = "garbage frames" if websocket else "garbage bytes"
        self.started[kind] = self.started.get(kind, 0) + 1
        since = time.monotonic()
        with contextlib.suppress(OSError):
            reader, writer = await asyncio.open_connection(HOST, port)
            if websocket:
                writer.write(
                    b"GET /ws/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    b"Sec-WebSocket-Version: 13\r\n\r\n"
                )
                await writer.drain()
                await reader.readuntil(b"\r\n\r\n")
            rng = random.Random(port)
            while not stop.is_set():
                writer.write(bytes(rng.randrange(256) for _ in range(512)))
                try:
                    await writer.drain()
                    if await _eof_within(reader, 0.2):
                        self.note(kind, True, since)
                        break
                except OSError:
                    self.note(kind, True, since)
                    break
            writer.close()


async def _closed(transport: asyncio.BaseTransport, stop: asyncio.Event) -> None:
    while not transport.is_closing() and not stop.is_set():
        await asyncio.sleep(0.5)


async def _eof_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    try:
        data = await asyncio.wait_for(reader.read(65536), timeout=seconds)
    except TimeoutError:
        return False
    while data:  # an answer (400, 408, 503): the end follows
        try:
            data = await asyncio.wait_for(reader.read(65536), timeout=seconds)
        except TimeoutError:
            return False
    return True


async def _drain(ws: ClientConnection) -> None:
    with contextlib.suppress(WebSocketException):
        async for _ in ws:
            pass


async def killer(servers: Servers, kills: int, stop: asyncio.Event, done: list[int]) -> None:
    """SIGKILL random servers at random moments (restarting each), ``kills`` times."""
    rng = random.Random(99)
    while done[0] < kills and not stop.is_set():
        await asyncio.sleep(rng.uniform(0.05, 0.6))
        await asyncio.to_thread(servers.kill, rng.randrange(len(servers.ports)))
        done[0] += 1


async def load(
    servers: Servers, args: argparse.Namespace, kills: int
) -> tuple[list[Table], float, Hostile, int, int]:
    base = f"http://{HOST}:{servers.port}"
    url = base.replace("http://", "ws://")
    loop = asyncio.get_running_loop()
    kinds = [index % 2 == 1 for index in range(args.tables)]
    created = await asyncio.gather(
        *(loop.run_in_executor(None, create_table, base, with_bot) for with_bot in kinds)
    )
    tables = [Table(c, b, args.moves) for c, b in zip(created, kinds, strict=True)]
    stop = asyncio.Event()
    hostile = Hostile()
    counts = [0]
    watchers = [
        asyncio.create_task(spectate(url, tables[n % len(tables)], counts))
        for n in range(args.spectators)
    ]
    bad: list[asyncio.Task[None]] = []
    for n in range(args.hostile):
        table = tables[n % len(tables)]
        kind = n % 4
        if kind == 0:
            job = hostile.slow_reader(url, table, stop)
        elif kind == 1:
            job = hostile.slowloris(servers.port, stop)
        elif kind == 2:
            job = hostile.flood(url, table, stop)
        else:
            job = hostile.garbage(servers.port, stop, websocket=n // 4 % 2 == 0)
        bad.append(asyncio.create_task(job))
    kills_done = [0]
    kill_task = asyncio.create_task(killer(servers, kills, stop, kills_done)) if kills else None
    started = time.perf_counter()
    rng = random.Random(1)
    seats = [
        play_seat(url, table, seat, random.Random(rng.random()))
        for table in tables
        for seat in range(2)
        if seat not in table.bot_seats
    ]
    sampler = asyncio.create_task(_sample(servers, stop))
    await asyncio.gather(*seats)
    if kill_task is not None:
        # The kills go on until their number: the tables play again meanwhile.
        while kills_done[0] < kills:
            more = [Table(create_table(base, False), False, args.moves) for _ in range(4)]
            await asyncio.gather(
                *(play_seat(url, t, s, random.Random(s)) for t in more for s in range(2))
            )
            tables += more
        await kill_task
    elapsed = time.perf_counter() - started
    stop.set()
    for task in [*watchers, *bad, sampler]:
        task.cancel()
    await asyncio.gather(*watchers, *bad, sampler, return_exceptions=True)
    return tables, elapsed, hostile, counts[0], kills_done[0]


async def _sample(servers: Servers, stop: asyncio.Event) -> None:
    while not stop.is_set():
        servers.sample_memory()
        await asyncio.sleep(1)


def check(db: str, tables: list[Table]) -> tuple[int, int, int, int, list[str]]:
    """Acknowledged moves stored and lost; stored moves not acknowledged, a bot's or in flight."""
    stored_count = lost = unexplained = in_flight_kept = 0
    problems: list[str] = []
    store = open_store(db)
    try:
        for table in tables:
            found = store.get(table.id)
            actions = [] if found is None else [canonical(json.loads(a)) for a in found.actions]
            for version, action in table.acknowledged.items():
                if version < len(actions) and actions[version] == action:
                    stored_count += 1
                else:
                    lost += 1
                    problems.append(f"{table.id}: acknowledged move {version} lost")
            for version, action in enumerate(actions):
                if table.acknowledged.get(version) == action:
                    continue
                if (
                    action in table.in_flight.get(version, set())
                    and table.acknowledged.get(version) is None
                ):
                    in_flight_kept += 1  # sent, its answer cut off by a kill: stored once
                    continue
                if table.bot_seats and version % 2 in table.bot_seats:
                    continue
                unexplained += 1
                problems.append(f"{table.id}: stored move {version} was never acknowledged")
    finally:
        store.close()
    return stored_count, lost, unexplained, in_flight_kept, problems


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh database: an SQLite file, or a database on a PostgreSQL server of its own."""
    if kind == "sqlite":
        yield str(folder / "load.db")
        return
    if kind == "sqlite-normal":
        yield f"sqlite:///{folder}/load.db?synchronous=normal"
        return
    bin_dir = binaries()
    if bin_dir is None:
        raise SystemExit("PostgreSQL is not installed: apt-get install postgresql")
    server = PostgresServer(bin_dir, max_connections=300)
    try:
        server.start()
        yield new_database(server.url())
    finally:
        server.stop()


def run(name: str, kind: str, processes: int, args: argparse.Namespace, kills: int) -> bool:
    """One run; prints its figures; whether every check held."""
    with tempfile.TemporaryDirectory() as tmp, database(kind, Path(tmp)) as db:
        folder = Path(tmp)
        servers = Servers(processes, db, folder)
        try:
            cpu_before = servers.cpu_seconds()
            clients_before = time.process_time()
            tables, elapsed, hostile, watched, kills_done = asyncio.run(load(servers, args, kills))
            cpu = servers.cpu_seconds() - cpu_before
            clients_cpu = time.process_time() - clients_before
        finally:
            codes = servers.stop()
        stored, lost, unexplained, in_flight, problems = check(db, tables)
    moves = sum(len(t.acknowledged) for t in tables)
    latencies = [x for t in tables for x in t.latencies]
    refused = sum(t.refused for t in tables)
    reconnects = sum(t.reconnects for t in tables)
    peak = max(servers.peak_kb.values(), default=0) / 1024
    print(f"\n== {name}: {processes} process(es) on {kind}, {len(tables)} tables ==")
    print(
        f"acknowledged moves: {moves} in {elapsed:.1f} s = {moves / elapsed:.0f} moves/s; "
        f"latency p50 {1000 * percentile(latencies, 0.5):.1f} ms, "
        f"p99 {1000 * percentile(latencies, 0.99):.1f} ms"
    )
    if not kills:
        print(
            f"server CPU {cpu:.1f} s, the clients' {clients_cpu:.1f} s; "
            f"peak memory (largest process) {peak:.0f} MiB"
        )
    print(
        f"spectators: {args.spectators}, {watched} messages received; refused moves: {refused}; "
        f"the people's reconnections: {reconnects}"
    )
    for kind_name in sorted(hostile.started):
        cut = hostile.cut.get(kind_name, 0)
        seconds = hostile.seconds.get(kind_name, [])
        after = f" after {percentile(seconds, 0.5):.1f} s (median)" if seconds else ""
        print(
            f"hostile {kind_name}: {hostile.started[kind_name]}, "
            f"cut off by the server: {cut}{after}"
        )
    if kills:
        print(f"kill -9: {kills_done} kills")
    print(
        f"store: {stored} acknowledged moves stored, {lost} lost, "
        f"{unexplained} stored without acknowledgement (applied twice or never asked), "
        f"{in_flight} in flight at a kill and kept once; exit codes {codes}"
    )
    for problem in problems[:20]:
        print("PROBLEM:", problem)
    return not problems and moves > 0


def proxy(port: int, targets: list[int]) -> None:
    """A TCP proxy on ``port`` that hands each connection to the next of ``targets``."""
    turn = [0]

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        with contextlib.suppress(OSError):
            writer.close()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for _ in range(len(targets)):
            target = targets[turn[0] % len(targets)]
            turn[0] += 1
            try:
                up_reader, up_writer = await asyncio.open_connection(HOST, target)
            except OSError:
                continue  # that server is down (killed): the next one
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
            return
        writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(handle, HOST, port, backlog=4096)
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


def main(argv: list[str] | None = None) -> int:
    """Run the runs ``argv`` asks for (or the proxy); 0 when every check held, else 1."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)  # each line as it comes, into a log too
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["proxy"]:
        proxy(int(argv[1]), [int(p) for p in argv[2].split(",")])
        return 0
    parser = argparse.ArgumentParser(description="Load and kill tests of splendor serve.")
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--tables", type=int, help="tables at once (200; quick 20)")
    parser.add_argument("--spectators", type=int, help="spectators (1000; quick 50)")
    parser.add_argument("--hostile", type=int, help="hostile clients (40; quick 8)")
    parser.add_argument("--moves", type=int, default=60, help="most moves a table (60)")
    parser.add_argument("--processes", type=int, default=3, help="processes of the shared runs")
    parser.add_argument("--kills", type=int, help="kill -9 of the kill runs (100; quick 10)")
    parser.add_argument(
        "--only",
        choices=[
            *("one-sqlite", "one-sqlite-normal", "one-postgresql"),
            *("shared-sqlite", "shared-postgresql", "kill"),
        ],
        action="append",
        help="only these runs (all but one-sqlite-normal by default)",
    )
    args = parser.parse_args(argv)
    quick = args.quick
    args.tables = args.tables or (20 if quick else 200)
    args.spectators = args.spectators if args.spectators is not None else (50 if quick else 1000)
    args.hostile = args.hostile if args.hostile is not None else (8 if quick else 40)
    kills = args.kills if args.kills is not None else (10 if quick else 100)
    runs = args.only or [
        "one-sqlite",
        "one-postgresql",
        "shared-sqlite",
        "shared-postgresql",
        "kill",
    ]
    ok = True
    for name in runs:
        if name.startswith("one-"):
            ok &= run(name, name.removeprefix("one-"), 1, args, 0)
        elif name.startswith("shared-"):
            ok &= run(name, name.removeprefix("shared-"), args.processes, args, 0)
        else:
            kill_args = argparse.Namespace(**vars(args))
            kill_args.tables = max(4, args.tables // 10)
            kill_args.spectators = kill_args.hostile = 0
            for kind in ("sqlite", "postgresql"):
                ok &= run(f"kill-{kind}", kind, args.processes, kill_args, kills)
    print("\nall checks held" if ok else "\nA CHECK FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
