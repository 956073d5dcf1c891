"""Test helper: a worker process of a Dask cluster killed on purpose (the tests of runs that lose a worker)."""

from __future__ import annotations

import os
import time


def kill_worker(client, index: int = 1) -> float:
    """Kill the ``index``-th worker process of ``client``'s cluster (sorted by address) at once; returns the time
    (``time.perf_counter``) of the kill."""
    from apsp.distributed import cluster_workers

    victim = cluster_workers(client)[index]
    killed_at = time.perf_counter()
    try:
        client.run(os._exit, 1, workers=[victim])
    except Exception:  # noqa: BLE001 - the worker went away mid-call
        pass
    return killed_at


def tasks_finished(client, prefix: str) -> int:
    """How many tasks whose keys start with ``prefix`` (as Dask splits keys: a leading underscore dropped) the
    scheduler of ``client`` has ever finished (those in memory, released or forgotten)."""

    def count(dask_scheduler, prefix=prefix):
        p = dask_scheduler.task_prefixes.get(prefix)
        return 0 if p is None else sum(p.states.get(s, 0) for s in ("memory", "released", "forgotten"))

    return client.run_on_scheduler(count)


def run_then_kill(client, run, prefix: str, after: int, timeout: float = 30.0, wait: float = 120.0) -> tuple[int, float]:
    """Start ``run`` in a thread, kill a worker once ``after`` tasks of ``prefix`` have finished since (or the run
    ended, or ``timeout`` passed), and wait up to ``wait`` seconds for the run (else fail); returns the tasks finished before the kill and
    the time of the kill (``time.perf_counter``)."""
    import threading

    start = tasks_finished(client, prefix)
    th = threading.Thread(target=run)
    th.start()
    deadline = time.time() + timeout
    while tasks_finished(client, prefix) - start < after and time.time() < deadline and th.is_alive():
        time.sleep(0.01)
    done = tasks_finished(client, prefix) - start
    killed_at = kill_worker(client)
    th.join(wait)
    assert not th.is_alive(), f"no answer within {wait:.0f} s"
    return done, killed_at
