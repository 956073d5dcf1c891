"""Dask clusters of one host for :mod:`apsp.distributed`: worker processes, or worker threads sharing one process.

Worker *processes* (``distributed.LocalCluster``, ``dask_cuda.LocalCUDACluster``,
:func:`gpu_process_cluster`): GPU workers of one host hand panels to each
other as CUDA IPC handles and copy them GPU to GPU
(:mod:`apsp.distributed.ipc`); otherwise panels go over the cluster's
protocol: TCP by default, which stages every GPU panel in host memory on both
sides, or UCX (``protocol="ucx"``, with ``distributed-ucxx`` installed: the
``ucx`` extra), GPU to GPU.  Worker *threads* of one process
(:func:`threaded_cluster`) exchange them by reference over Dask's in-process
transport, and a GPU worker copies a panel from the GPU that made it peer to
peer (NVLink where the GPUs have it).  Both keep each worker on one
GPU: dask-cuda through ``CUDA_VISIBLE_DEVICES`` per process, the threaded
cluster by making the GPU current in each worker's task thread.

Every cluster here takes ``memory_limit`` explicitly: a nanny's default
(the host's memory divided among the workers, as the nanny reads it) can be
far from what the machine has.

This module imports Dask inside its functions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from distributed import SpecCluster

__all__ = ["threaded_cluster", "gpu_process_cluster"]


def _use_device(device: int) -> None:
    import cupy

    cupy.cuda.Device(device).use()


def threaded_cluster(n_workers: int | None = None, *, devices: Sequence[int] | None = None,
                     memory_limit: int | str | None, threads_per_worker: int = 1,
                     **scheduler_options: Any) -> SpecCluster:
    """A cluster of worker threads in this process (Dask's ``inproc`` transport: data moves by reference).

    Parameters
    ----------
    n_workers : int, optional
        Number of workers (default: one per device of ``devices``).
    devices : sequence of int, optional
        GPU ids: worker ``i``'s task threads run on GPU ``devices[i]``
        (its CuPy arrays, its kernels).  ``None``: CPU workers.
    memory_limit : int, str or None
        Each worker's memory limit (``"8GiB"``, bytes, ``0`` for none); a
        required argument.  Threads share their process's memory, which
        every worker compares with its own limit.
    threads_per_worker : int
    **scheduler_options
        Passed to :class:`distributed.Scheduler` (``dashboard_address``, ...).

    Returns
    -------
    distributed.SpecCluster
        Use it with ``distributed.Client(cluster)``; close both when done.

    Examples
    --------
    >>> import numpy as np, apsp
    >>> from distributed import Client
    >>> with threaded_cluster(2, memory_limit="16GiB") as cluster, Client(cluster) as client:  # the process counts
    ...     apsp.shortest_paths(np.array([[0.0, 1.0], [5.0, 0.0]]), client=client, block_size=1)
    array([[0., 1.],
           [5., 0.]])
    """

    from distributed import Scheduler, SpecCluster, Worker

    if n_workers is None:
        if devices is None:
            raise TypeError("threaded_cluster needs n_workers or devices")
        n_workers = len(devices)
    if devices is not None and len(devices) < n_workers:
        raise ValueError(f"devices names {len(devices)} GPUs for {n_workers} workers")
    workers = {}
    for i in range(int(n_workers)):
        init = None if devices is None else partial(_use_device, int(devices[i]))
        pool = ThreadPoolExecutor(threads_per_worker, initializer=init, thread_name_prefix=f"apsp-worker-{i}")
        workers[f"worker-{i}"] = {"cls": Worker, "options": {"nthreads": threads_per_worker, "executor": pool,
                                                              "memory_limit": memory_limit}}
    options = {"dashboard_address": None, "protocol": "inproc", **scheduler_options}
    return SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": options})


def gpu_process_cluster(devices: Sequence[int], *, memory_limit: int | str, protocol: str = "tcp",
                        **scheduler_options: Any) -> SpecCluster:
    """One worker process per GPU, without dask-cuda: a ``SpecCluster`` of nannies, each with its ``CUDA_VISIBLE_DEVICES``.

    What ``dask_cuda.LocalCUDACluster(CUDA_VISIBLE_DEVICES=devices,
    memory_limit=...)`` starts, for machines without dask-cuda: worker ``i``
    sees GPU ``devices[i]`` first (as its device 0) and the others after it
    (so that peer copies stay possible).  ``protocol="ucx"`` needs
    ``distributed-ucxx``.
    """
    from distributed import Nanny, Scheduler, SpecCluster

    devs = [int(d) for d in devices]
    workers = {}
    for i, d in enumerate(devs):
        order = ",".join(str(x) for x in devs[i:] + devs[:i])
        workers[f"gpu-{d}"] = {"cls": Nanny, "options": {"nthreads": 1, "memory_limit": memory_limit,
                                                          "protocol": protocol,
                                                          "env": {"CUDA_VISIBLE_DEVICES": order}}}
    options = {"dashboard_address": None, "protocol": protocol, **scheduler_options}
    return SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": options})
