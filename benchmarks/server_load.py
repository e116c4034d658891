"""A bounded load test of ``splendor serve`` on 127.0.0.1: many tables at once over websockets.

Starts the server in a child process (``python -m splendor.server``) on a
free port of 127.0.0.1 with a fresh SQLite file, opens ``--tables`` tables of
two person seats, and connects one websocket per seat plus one spectator per
table. Each seat is played by a client-side random player that sends one of
the legal actions of every ``state`` message it gets. Every table plays until
its game is over or it has played ``--moves`` moves.

It reports moves per second over the whole run and the latency of a move
(from sending it to receiving the new state on the same socket) at the
50th, 90th and 99th percentiles. Then it stops the server (SIGINT, as Ctrl-C
would) and checks that nothing was lost: every game in the database replays
to exactly the moves the clients made and to the view its spectator saw
last. It exits 1 when a check fails.

Run with ``nox -s load`` or ``python benchmarks/server_load.py --help``. It
sends traffic to 127.0.0.1 only and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
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
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from splendor import GameRecord, from_json, to_json, view
from splendor.server.store import Store

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, db: Path, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "splendor.server", "--host", HOST, "--port", str(port)]
    command += ["--db", str(db), "--bot-delay", "0"]
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return server
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start; see {log}")


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used (user and system), where /proc tells it."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return None
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def create_table(base: str) -> dict[str, Any]:
    body = json.dumps({"seats": [{"kind": "person"}, {"kind": "person"}]}).encode()
    request = urllib.request.Request(
        f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        created: dict[str, Any] = json.loads(response.read())
        return created


class TableRun:
    """One table's clients: two seats playing at random, and a spectator."""

    def __init__(self, url: str, created: dict[str, Any], moves: int, seed: int) -> None:
        self.url = f"{url}/ws/{created['table']}"
        self.table = created["table"]
        self.secrets = [seat["secret"] for seat in created["seats"]]
        self.moves = moves
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.played = 0
        self.refused = 0
        self.last_watched: dict[str, Any] | None = None
        self.done = asyncio.Event()

    async def seat(self, number: int) -> None:
        async with connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "join", "secret": self.secrets[number]}))
            while not self.done.is_set():
                message = await self._next_state(ws)
                if message is None:
                    return
                if message["over"] or message["version"] >= self.moves:
                    self.done.set()
                    return
                if not message["legal"]:
                    continue
                action = self.rng.choice(message["legal"])
                version = message["version"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "version": version, "action": action}))
                answer = await self._next_state(ws, error_ok=True)
                if answer is None:
                    return
                if answer.get("type") == "error":
                    self.refused += 1
                    continue
                self.latencies.append(time.perf_counter() - sent)
                self.played += 1
                if answer["over"] or answer["version"] >= self.moves:
                    self.done.set()
                    return

    async def _next_state(
        self, ws: ClientConnection, *, error_ok: bool = False
    ) -> dict[str, Any] | None:
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=60)
            except TimeoutError:
                return None
            message: dict[str, Any] = json.loads(raw)
            if message["type"] == "state" or (error_ok and message["type"] == "error"):
                return message

    async def watch(self) -> None:
        """Follow the game as a spectator until the seats are done and the last move is seen."""
        async with connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "watch"}))
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                seen = self.last_watched
                if self.done.is_set() and seen is not None and seen["version"] >= self.played:
                    return
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                if message["type"] == "state":
                    self.last_watched = message

    async def run(self) -> None:
        watcher = asyncio.create_task(self.watch())
        await asyncio.gather(self.seat(0), self.seat(1))
        try:
            await asyncio.wait_for(watcher, timeout=30)
        except TimeoutError:
            watcher.cancel()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def load(base: str, tables: int, moves: int) -> tuple[list[TableRun], float]:
    loop = asyncio.get_running_loop()
    created = [await loop.run_in_executor(None, create_table, base) for _ in range(tables)]
    url = base.replace("http://", "ws://")
    runs = [TableRun(url, table, moves, seed) for seed, table in enumerate(created)]
    started = time.perf_counter()
    await asyncio.gather(*(run.run() for run in runs))
    return runs, time.perf_counter() - started


def check(db: Path, runs: list[TableRun]) -> list[str]:
    """Every stored game replays to the moves the clients made and the view last watched."""
    problems: list[str] = []
    store = Store(db)
    try:
        for run in runs:
            stored = store.get(run.table)
            if stored is None:
                problems.append(f"{run.table}: not in the database")
                continue
            record = from_json(stored.record, GameRecord)
            final = record.final_state()
            if len(record.actions) != run.played:
                problems.append(
                    f"{run.table}: {len(record.actions)} moves stored, {run.played} played"
                )
            if stored.finished != final.is_over:
                problems.append(f"{run.table}: finished flag {stored.finished} is wrong")
            seen = run.last_watched
            if seen is None or seen["version"] != len(record.actions):
                problems.append(f"{run.table}: the spectator did not see the last move")
            elif seen["view"] != json.loads(to_json(view(final, None))):
                problems.append(f"{run.table}: the replayed game differs from what was seen")
    finally:
        store.close()
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A bounded load test of splendor serve.")
    parser.add_argument("--tables", type=int, default=50, help="tables at once (50)")
    parser.add_argument("--moves", type=int, default=100, help="most moves per table (100)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.db"
        log = Path(folder) / "server.log"
        port = free_port()
        server = start_server(port, db, log)
        try:
            cpu_before = cpu_seconds(server.pid)
            clients_before = time.process_time()
            runs, elapsed = asyncio.run(load(f"http://{HOST}:{port}", args.tables, args.moves))
            cpu_after = cpu_seconds(server.pid)
            clients_cpu = time.process_time() - clients_before
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        latencies = [x for run in runs for x in run.latencies]
        moves = sum(run.played for run in runs)
        finished = sum(1 for run in runs if run.last_watched and run.last_watched["over"])
        print(f"{args.tables} tables, {moves} moves in {elapsed:.1f} s ({finished} games finished)")
        print(f"moves/s: {moves / elapsed:.0f}")
        if cpu_before is not None and cpu_after is not None and moves:
            used = cpu_after - cpu_before
            print(
                f"server CPU: {used:.1f} s, {1000 * used / moves:.1f} ms a move "
                f"(at most {moves / used:.0f} moves/s on one core); "
                f"the clients' CPU: {clients_cpu:.1f} s"
            )
        if latencies:
            print(
                "move latency ms: "
                f"p50 {1000 * percentile(latencies, 0.50):.1f}, "
                f"p90 {1000 * percentile(latencies, 0.90):.1f}, "
                f"p99 {1000 * percentile(latencies, 0.99):.1f}, "
                f"max {1000 * max(latencies):.1f}"
            )
        refused = sum(run.refused for run in runs)
        print(f"refused moves: {refused}; server exit code: {server.returncode}")
        problems = check(db, runs)
        for problem in problems:
            print("LOST:", problem)
        if not problems and refused == 0 and moves:
            print(f"nothing lost: all {len(runs)} games replay to what their spectators saw")
            return 0
        if os.environ.get("CI"):
            print(log.read_text()[-4000:])
        return 1


if __name__ == "__main__":
    sys.exit(main())
