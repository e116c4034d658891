"""Games on Ray: the same results as a local run, progress, and clean errors.

These tests start real Ray instances on this machine (listening on the
loopback interface) and stop them before they end; they are skipped when
Ray is not installed (``nox -s ray`` installs it and runs them).
"""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from splendor.arena.parallel import RayError, run_tasks
from splendor.arena.selfplay import generate_records
from splendor.arena.tournament import round_robin

ray = pytest.importorskip("ray")

BOTS = ["random", "greedy", "ismcts:iterations=6,seed=2"]

# A Ray head started in its own process, as `ray start --head` would on a
# cluster's head node: it prints its address and stops when its input closes.
HEAD = """
import sys, ray
ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1",
         configure_logging=False, log_to_driver=False)
print(ray.get_runtime_context().gcs_address, flush=True)
sys.stdin.read()
ray.shutdown()
"""


def double(n: int) -> int:
    return 2 * n


def _start_head() -> tuple[subprocess.Popen[str], str]:
    """Start the head process; its address is empty when Ray failed to start in time."""
    process = subprocess.Popen(
        [sys.executable, "-c", HEAD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


def _stop_head(process: subprocess.Popen[str]) -> None:
    assert process.stdin is not None
    process.stdin.close()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    """The address of a Ray head running in another process for these tests.

    Ray gives its processes 30 s to start; on a busy machine a second try helps.
    """
    process, address = _start_head()
    if not address:
        _stop_head(process)
        process, address = _start_head()
    try:
        assert address, "the Ray head did not start"
        yield address
    finally:
        _stop_head(process)


def test_a_tournament_on_a_local_ray_instance_matches_a_local_run() -> None:
    local = round_robin(BOTS, games=4, seed=3)
    seen: list[int] = []
    on_ray = round_robin(BOTS, games=4, seed=3, ray="local", progress=lambda d, t: seen.append(d))
    assert on_ray == local
    assert seen == list(range(1, 13))
    assert not ray.is_initialized()  # the instance started for the run is stopped


def test_a_tournament_on_a_cluster_matches_a_local_run(head: str) -> None:
    local = round_robin(BOTS, games=2, players=3, seed=1)
    assert round_robin(BOTS, games=2, players=3, seed=1, ray=head) == local
    assert not ray.is_initialized()


def test_self_play_on_a_cluster_writes_the_same_records(head: str, tmp_path: Path) -> None:
    here = tmp_path / "here.jsonl"
    there = tmp_path / "there.jsonl"
    generate_records(here, ["greedy", "random"], games=6, seed=4)
    assert generate_records(there, ["greedy", "random"], games=6, seed=4, ray=head) == 6
    assert sorted(here.read_text().splitlines()) == sorted(there.read_text().splitlines())


def test_tasks_go_to_a_ray_instance_already_running_and_leave_it_running(head: str) -> None:
    ray.init(address=head, configure_logging=False, log_to_driver=False)
    try:
        assert sorted(run_tasks(double, range(4), ray="local")) == [(i, 2 * i) for i in range(4)]
        assert ray.is_initialized()
    finally:
        ray.shutdown()


def test_an_unreachable_cluster_is_a_clean_error_at_once() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(RayError, match="cannot reach the Ray cluster"):
        round_robin(["greedy", "random"], games=2, ray=f"127.0.0.1:{port}")
    assert time.monotonic() - started < 30
    assert not ray.is_initialized()


def test_the_command_line_runs_on_a_cluster_with_the_same_results(
    head: str, tmp_path: Path
) -> None:
    from splendor.cli import main

    files = {name: tmp_path / f"{name}.json" for name in ("sim", "sim-ray", "tour", "tour-ray")}
    simulate = ["simulate", "-n", "6", "--bots", "greedy", "random", "--seed", "2", "-q"]
    assert main([*simulate, "--json", str(files["sim"])], stdout=io.StringIO()) == 0
    assert (
        main([*simulate, "--json", str(files["sim-ray"]), "--ray", head], stdout=io.StringIO()) == 0
    )
    assert files["sim"].read_text() == files["sim-ray"].read_text()
    tournament = ["tournament", "--bots", "random", "greedy", "-n", "4", "-q"]
    assert main([*tournament, "--json", str(files["tour"])], stdout=io.StringIO()) == 0
    assert (
        main([*tournament, "--json", str(files["tour-ray"]), "--ray", head], stdout=io.StringIO())
        == 0
    )
    assert files["tour"].read_text() == files["tour-ray"].read_text()
