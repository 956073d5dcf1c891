"""Memory of the workers of a closure on a Dask cluster: what each one will hold, checked before the run.

A Dask worker with a memory limit spills its data to disk at 70 % of it,
*pauses* at 80 % (runs no task until its memory drops) and is restarted by
its nanny at 95 %.  The rows a worker holds for :mod:`apsp.distributed`
cannot be spilled or released until the run ends, so a worker whose limit
is too small for its share pauses for ever: the run would stall.  The driver
therefore compares, before it submits anything, what each worker will hold
(:func:`worker_needs`) with its limit and, on GPU workers, with the free
memory of its GPU (:func:`check_workers`), and raises
:class:`WorkerMemoryError` naming the setting to change; a worker that
pauses during a run anyway is reported the same way
(:func:`paused_error`).  Nothing here imports Dask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from semiring.errors import SemiringError

from .rows import RowLayout

__all__ = ["WorkerMemoryError", "Needs", "worker_needs", "check_workers", "paused_error", "SETTING", "gib"]

#: How the memory limit of a worker is set, named in every error.
SETTING = ("memory_limit= of the workers: LocalCluster(memory_limit=...), LocalCUDACluster(memory_limit=...), "
           "Nanny/Worker(memory_limit=...), or `dask worker --memory-limit`")


class WorkerMemoryError(SemiringError, MemoryError):
    """A worker cannot hold its share of a closure on a Dask cluster (its memory limit or its GPU is too small).

    Raised before the run, or during it when a worker pauses for memory.
    Also a :class:`MemoryError` and a :class:`ValueError` (through
    :class:`~semiring.errors.SemiringError`).
    """


def gib(x: float) -> str:
    """``x`` bytes in GiB, for messages.

    >>> gib(3 * 2**30), gib(2**20)
    ('3.00 GiB', '0.00098 GiB')
    """
    v = x / 2**30
    return f"{v:.2f} GiB" if v >= 0.01 else f"{v:.2g} GiB"


@dataclass(frozen=True)
class Needs:
    """Bytes one worker will hold at most during a run: in host memory and on its GPU."""

    host: int
    device: int
    what: str


def worker_needs(layout: RowLayout, g: int, itemsize: int, input_itemsize: int, predecessors: bool, device: str,
                 input_on_worker: str, gather: bool, panels_through_host: bool = True) -> Needs:
    """Bytes worker ``g`` holds at its peak: its rows, their predecessors, the panels, scratch and the input.

    Parameters
    ----------
    layout : RowLayout
    g : int
    itemsize, input_itemsize : int
        Bytes per entry of the working matrix and of the input.
    predecessors : bool
    device : {"cpu", "gpu"}
    input_on_worker : {"host", "gpu", "arcs"}
        Where the input's rows arrive on the worker: host arrays, GPU arrays
        (a dask array of CuPy chunks), or arcs of a graph (each row
        block made dense in turn).
    gather : bool
        The result is gathered to the client (GPU rows pass through host memory).
    panels_through_host : bool
        GPU panels travel through host memory (Dask's comm); ``False`` when
        they are copied GPU to GPU (:mod:`apsp.distributed.ipc`).

    Examples
    --------
    >>> need = worker_needs(RowLayout(4096, 512, 2), 0, 4, 4, False, "cpu", "host", True)
    >>> need.host // 2**20, need.device
    (92, 0)
    """
    n, b = layout.n, min(layout.block, layout.n)
    rows = layout.rows_of(g)
    pred = 4 if predecessors else 0
    matrix = rows * n * (itemsize + pred)
    panel = b * n * (itemsize + pred)
    scratch = rows * b * itemsize + (rows * n * 4 if predecessors else 0)  # the column copy; the witness index
    piece = (b if input_on_worker == "arcs" else rows) * n * input_itemsize
    panels = 3 * panel  # the panel of this round, the next one arriving, and this worker's own copy
    what = f"{rows} rows of {n}"
    if device == "cpu":
        return Needs(matrix + scratch + panels + piece, 0, what)
    transit = (layout.workers + 1) * panel if panels_through_host else 0  # panels staged by network transfers
    host = transit + (piece if input_on_worker != "gpu" else 0) + (rows * n * (itemsize + pred) if gather else 0)
    return Needs(host, matrix + scratch + panels + (piece if input_on_worker == "gpu" else 0), what)


def check_workers(infos: list[dict[str, Any]], needs: list[Needs]) -> None:
    """Raise :class:`WorkerMemoryError` if a worker is paused, or its share does not fit its limit or its GPU.

    ``infos[g]`` is what :func:`apsp.distributed.rows.survey` read on worker
    ``g``: a share fits a worker whose memory limit is set when what it holds
    now plus the share stays below the fraction at which it pauses (80 % by
    default); a GPU share fits when it is below the free memory of the GPU.

    Examples
    --------
    >>> info = {"address": "tcp://w", "memory_limit": 2**30, "spill": 0.7, "pause": 0.8, "process": 2**28,
    ...         "status": "running", "threads": 1}
    >>> check_workers([info], [Needs(2**28, 0, "16 rows of 16")])
    >>> check_workers([info], [Needs(2**30, 0, "16 rows of 16")])
    Traceback (most recent call last):
    ...
    apsp.distributed.memory.WorkerMemoryError: worker tcp://w needs 1.00 GiB of host memory for its share of the closure (16 rows of 16, the panels and scratch) on top of the 0.25 GiB it holds now, but its memory limit is 1.00 GiB and it pauses at 80% of it (0.80 GiB): raise memory_limit= of the workers: LocalCluster(memory_limit=...), LocalCUDACluster(memory_limit=...), Nanny/Worker(memory_limit=...), or `dask worker --memory-limit`, or add workers
    """
    for info, need in zip(infos, needs):
        addr = info["address"]
        if info["status"] == "paused":
            raise paused_error(info)
        limit = info["memory_limit"]
        if limit:
            frac = info["pause"] or 1.0
            cap = frac * limit
            if info["process"] + need.host > cap:
                raise WorkerMemoryError(
                    f"worker {addr} needs {gib(need.host)} of host memory for its share of the closure "
                    f"({need.what}, the panels and scratch) on top of the {gib(info['process'])} it holds now, "
                    f"but its memory limit is {gib(limit)} and it pauses at {frac:.0%} of it ({gib(cap)}): "
                    f"raise {SETTING}, or add workers")
        if need.device and "gpu_free" in info and need.device > info["gpu_free"]:
            raise WorkerMemoryError(
                f"worker {addr} needs {gib(need.device)} on its GPU (device {info['gpu']}) for its share of the "
                f"closure ({need.what}, the panels and scratch), but {gib(info['gpu_free'])} of its "
                f"{gib(info['gpu_total'])} are free: add GPU workers, use a smaller block_size, or free the GPU")


def paused_error(info: dict[str, Any], seconds: float | None = None) -> WorkerMemoryError:
    """The error for a worker that is paused (its process memory above its pause fraction of its limit).

    >>> print(paused_error({"address": "tcp://w", "memory_limit": 2**30, "process": 900 * 2**20, "pause": 0.8}, 6))
    worker tcp://w paused for memory for 6 s during the closure (process memory 0.88 GiB; memory limit 1.00 GiB, pauses at 80%): it runs no task until its memory drops, and its share of the matrix cannot be spilled: raise memory_limit= of the workers: LocalCluster(memory_limit=...), LocalCUDACluster(memory_limit=...), Nanny/Worker(memory_limit=...), or `dask worker --memory-limit`, or add workers
    """
    when = "before the closure" if seconds is None else f"for {seconds:.0f} s during the closure"
    limit = info.get("memory_limit") or 0
    frac = info.get("pause")
    state = (f"process memory {gib(info.get('process', 0))}; memory limit {gib(limit)}"
             + (f", pauses at {frac:.0%}" if frac else "")) if limit else "no memory limit"
    return WorkerMemoryError(
        f"worker {info['address']} paused for memory {when} ({state}): it runs no task until its memory drops, "
        f"and its share of the matrix cannot be spilled: raise {SETTING}, or add workers")
