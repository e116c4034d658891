"""Running many games at once: in this process, on local processes, or on Ray.

:func:`run_tasks` calls one function on many tasks and yields each result as
soon as it is ready, with the index of its task. The tournaments of
:mod:`splendor.arena.tournament` and the self-play records of
:mod:`splendor.arena.selfplay` are built on it. Every task carries its own seed,
so the results are the same however the tasks are run: in order, on
``workers`` processes, or as Ray tasks on a cluster; only the order in
which they finish differs.

Ray is optional: install it with ``pip install 'splendor-rules[ray]'``. Pass
``ray="local"`` to start a Ray instance on this machine for the run, or
``ray="HOST:PORT"`` to connect to a running cluster (``ray start --head`` on
its head node prints the address). When Ray is already initialised in this
process, the tasks go to that instance and it is left running.

>>> from splendor.arena.parallel import run_tasks
>>> sorted(run_tasks(abs, [-2, 3, -5]))
[(0, 2), (1, 3), (2, 5)]
"""

from __future__ import annotations

import concurrent.futures
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import Final, TypeVar

from splendor.core.messages import short_repr
from splendor.errors import InvalidArgumentError, MissingExtraError, SplendorError
from splendor.extras import require

__all__ = ["LOCAL", "RayError", "run_tasks"]

#: The value of ``ray`` that starts a Ray instance on this machine.
LOCAL: Final = "local"

_T = TypeVar("_T")
_R = TypeVar("_R")


class RayError(SplendorError, RuntimeError):
    """Ray is not installed, or the Ray cluster cannot be reached.

    The message says which, and how to fix it.
    """


def run_tasks(
    function: Callable[[_T], _R],
    tasks: Iterable[_T],
    *,
    workers: int = 1,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[tuple[int, _R]]:
    """Call ``function`` on each task and yield ``(index, result)`` as each finishes.

    Args:
        function: a function of one task. For ``workers > 1`` and for Ray it
            must be picklable (defined at the top level of a module) and so
            must the tasks and results.
        tasks: the tasks; their indexes are their positions.
        workers: local processes to run on; 1 runs every task in this
            process, in order. Ignored with ``ray``: Ray spreads the tasks
            over the cluster's CPUs.
        ray: ``None`` not to use Ray, :data:`LOCAL` (``"local"``) for a Ray
            instance started on this machine for the run, or the address of
            a running cluster (``"HOST:PORT"``, or ``"auto"``).
        progress: called with ``(finished, total)`` after each task.

    Yields:
        ``(index, result)`` pairs, in the order the tasks finish.

    Raises:
        InvalidArgumentError: for ``workers`` that is not a positive int or
            ``ray`` that is not a str.
        RayError: when ``ray`` is given and Ray is not installed or the
            cluster cannot be reached.

    An error raised by ``function`` propagates (from Ray, as Ray's wrapper of
    it, which is also an instance of the original error's class).
    """
    if type(workers) is not int or workers < 1:
        raise InvalidArgumentError(f"workers must be a positive int, got {short_repr(workers)}")
    if ray is not None and (not isinstance(ray, str) or not ray):
        raise InvalidArgumentError(
            f"ray must be None, 'local' or an address, got {short_repr(ray)}"
        )
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(f"progress must be callable, got {short_repr(progress)}")
    listed = list(tasks)
    if ray is not None:
        module = _import_ray()
        started = _connect(module, ray)
        return _run_ray(module, function, listed, started, progress)
    if workers == 1 or len(listed) <= 1:
        return _run_here(function, listed, progress)
    return _run_processes(function, listed, workers, progress)


def _run_here(
    function: Callable[[_T], _R],
    tasks: Sequence[_T],
    progress: Callable[[int, int], None] | None,
) -> Iterator[tuple[int, _R]]:
    total = len(tasks)
    for index, task in enumerate(tasks):
        result = function(task)
        if progress is not None:
            progress(index + 1, total)
        yield index, result


def _run_processes(
    function: Callable[[_T], _R],
    tasks: Sequence[_T],
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> Iterator[tuple[int, _R]]:
    total = len(tasks)
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(workers, total)) as pool:
        futures = {pool.submit(function, task): index for index, task in enumerate(tasks)}
        try:
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                result = future.result()
                if progress is not None:
                    progress(done, total)
                yield futures[future], result
        finally:
            for future in futures:
                future.cancel()


def _import_ray() -> ModuleType:
    try:
        return require("ray", "ray", "running on Ray")
    except MissingExtraError as error:
        raise RayError(str(error)) from error


def _connect(module: ModuleType, address: str) -> bool:
    """Initialise Ray for ``address``; whether this call started it (and must stop it)."""
    if module.is_initialized():
        return False
    options: dict[str, object] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "configure_logging": False,
    }
    if address == LOCAL:
        # A local instance listens on the loopback interface only.
        options["_node_ip_address"] = "127.0.0.1"
    else:
        _check_reachable(address)
        options["address"] = address
    # A local instance that fails to start in time (Ray waits 30 s for its
    # processes, which a busy machine can exceed) is given a second chance.
    attempts = 2 if address == LOCAL else 1
    for attempt in range(1, attempts + 1):
        try:
            module.init(**options)
        except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError...
            module.shutdown()
            if attempt < attempts:
                continue
            where = (
                "a local Ray instance"
                if address == LOCAL
                else f"the Ray cluster at {short_repr(address)}"
            )
            raise RayError(
                f"cannot start or reach {where}: {type(error).__name__}: {error}"
            ) from error
        break
    return True


def _check_reachable(address: str, timeout: float = 10.0) -> None:
    """Raise :class:`RayError` unless ``HOST:PORT`` accepts a connection.

    Ray itself retries an unreachable cluster for minutes; this answers at
    once. Addresses that are not ``HOST:PORT`` (``"auto"``, ``ray://...``)
    are left to Ray.
    """
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or "/" in host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise RayError(
            f"cannot reach the Ray cluster at {short_repr(address)}: {error}; start one there "
            "with ray start --head, or give the address it printed"
        ) from error


def _run_ray(
    module: ModuleType,
    function: Callable[[_T], _R],
    tasks: Sequence[_T],
    started: bool,
    progress: Callable[[int, int], None] | None,
) -> Iterator[tuple[int, _R]]:
    try:
        remote = module.remote(function)
        refs = {remote.remote(task): index for index, task in enumerate(tasks)}
        pending = list(refs)
        total = len(pending)
        done = 0
        while pending:
            ready, pending = module.wait(pending, num_returns=1)
            for ref in ready:
                result: _R = module.get(ref)
                done += 1
                if progress is not None:
                    progress(done, total)
                yield refs[ref], result
    finally:
        if started:
            module.shutdown()
