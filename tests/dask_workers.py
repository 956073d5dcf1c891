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
