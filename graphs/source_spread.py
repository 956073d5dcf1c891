"""Many-source work spread over the devices of one process or the workers of a Dask cluster.

Betweenness, closeness, harmonic centrality, eccentricities and distance
matrices are sums or stacks of independent searches, one per source: they
spread over devices with no communication but the result.  A *job*
(:class:`SourceJob`) names what each chunk of sources computes (a
module-level function, so that Dask can send it) and how the parts combine:

* ``"sum"``: each part is a tuple of arrays of the same shapes (the
  dependencies of betweenness), added;
* ``"rows"``: each part is a tuple of row blocks, one row per source of the
  chunk (distance statistics, distance matrices), written at the chunk's
  rows as chunks complete (into host memory, or a ``.npy`` memory map).

**In one process** (:func:`spread_on_lanes`): one host thread per lane (a
GPU: :class:`GpuLane`; the host: :class:`HostLane`, which runs the same
schedule on the CPU and is how it is tested without GPUs).  Each lane puts
the job's payload (the graph) on its device once, then takes chunks from a
shared counter until none is left (sources differ in cost; a lane that drew
cheap ones takes the next chunk: no lane waits while work remains), and keeps
a running sum of its parts on its device.  The lanes' sums are added on the
host at the end (a few arrays of ``n`` entries: microseconds beside the
searches).

**On a Dask cluster** (:func:`spread_on_dask`): the payload is scattered to
every worker once (where every worker runs on this host, its large arrays go
through shared memory, one copy mapped by all: :mod:`graphs.shared_payload`);
one task per chunk, unpinned, so the scheduler balances
them and reruns those of a worker that is lost (a nanny restarts it, or the
others take its share); sums are reduced in a tree of tasks, rows gathered as
tasks complete.  CPU workers that have a process of their own run the
kernels on their Dask threads (:func:`apsp.distributed.fit_worker_threads`),
not each on every core of the host.  A cluster left without any worker for
:data:`WORKERLESS_SECONDS` raises :class:`apsp.distributed.WorkerLostError`
instead of waiting for ever.

Chunks: about :data:`CHUNKS_PER_LANE` per lane (or worker) so that the
counter balances uneven sources, and no more sources per chunk than keep a
part of ``"rows"`` within :data:`ROWS_BYTES`.

Sums are added in another order than on one device: equal to the one-device
result to floating-point reordering (integer counts exactly).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .shared_payload import host_shared, opened

__all__ = ["SourceJob", "HostLane", "GpuLane", "gpu_lanes", "lanes_for", "spread", "spread_on_lanes", "spread_on_dask",
           "check_spread",
           "place_first", "chunk_size", "CHUNKS_PER_LANE", "ROWS_BYTES", "TASK_SECONDS", "WORKERLESS_SECONDS"]

#: Chunks of sources per lane (or Dask worker): enough for the shared counter to even out sources of unequal cost.
CHUNKS_PER_LANE = 8
#: Largest part of a ``"rows"`` job, in bytes (a chunk has no more sources than fit).
ROWS_BYTES = 64 * 2**20
#: Seconds of estimated work per chunk on a CPU worker at most (GPU lanes take large batches: no cap): the last
#: chunks leave workers idle for about half a chunk, and a task costs Dask a few milliseconds.
TASK_SECONDS = 1.0
#: Seconds a Dask cluster may have no worker at all before the call gives up.
WORKERLESS_SECONDS = 30.0
#: Seconds between two looks at the cluster while tasks run.
WATCH_SECONDS = 0.5
#: Times the payload is sent to the workers before a run gives up (a worker leaving mid-copy closes its connection).
SCATTER_ATTEMPTS = 3


def _same(payload: Any, device: Any) -> Any:
    return payload


@dataclass(frozen=True)
class SourceJob:
    """What each chunk of sources computes, and how the parts combine.

    Attributes
    ----------
    task : callable
        ``task(payload, chunk) -> tuple of arrays``: the part of the sources
        ``chunk`` (an int32 array).  A module-level function (Dask pickles it).
    payload : object
        What every task reads (the prepared graph), placed on each lane once.
    kind : {"sum", "rows"}
        ``"sum"``: parts are added; ``"rows"``: part ``i`` holds one row per
        source of the chunk, written at those rows of the result.
    place : callable
        ``place(payload, device)`` -> the payload on ``device`` (``"cpu"`` or
        a GPU id); a module-level function.  Default: the payload as it is.
    row_bytes : int
        Bytes of one source's rows in a ``"rows"`` part (sizes the chunks).
    parts : tuple of (shape, dtype)
        Of a ``"rows"`` job: each part's row shape and dtype, for the dask
        arrays :func:`spread_on_dask` returns when given no ``out``.
    source_seconds : float
        The estimated time of one source on one CPU core (0: unknown): chunks
        for CPU workers are cut to about :data:`TASK_SECONDS` each.

    Examples
    --------
    >>> job = SourceJob(_squares, None, "sum")
    >>> spread_on_lanes(job, np.arange(5, dtype=np.int32), [HostLane(0), HostLane(1)])
    (array([30.]),)
    """

    task: Callable[[Any, np.ndarray], tuple[Any, ...]]
    payload: Any
    kind: Literal["sum", "rows"]
    place: Callable[[Any, Any], Any] = _same
    row_bytes: int = field(default=8)
    parts: tuple[tuple[tuple[int, ...], Any], ...] = ()
    source_seconds: float = 0.0


def _squares(payload: Any, chunk: np.ndarray) -> tuple[np.ndarray]:
    """A toy task (the examples): the sum of the squares of the chunk's sources."""
    return (np.array([float((chunk.astype(np.float64) ** 2).sum())]),)


# -- lanes ---------------------------------------------------------------------------------------------------------
class HostLane:
    """A lane on the host: the payload as it is, parts already on the host.

    It runs the lanes' schedule on the CPU (tests, and machines without GPUs);
    ``index`` only names it.

    >>> HostLane(1)
    HostLane(1)
    """

    device = "cpu"

    def __init__(self, index: int = 0) -> None:
        self.index = int(index)

    def active(self) -> AbstractContextManager[Any]:
        """The context in which this lane's work is issued (nothing to set on the host)."""
        return nullcontext()

    def to_host(self, x: Any) -> Any:
        return x

    def __repr__(self) -> str:
        return f"HostLane({self.index})"


class GpuLane:
    """A lane on one GPU: its work issued with that device current; parts copied to the host at the end.

    >>> GpuLane(3)
    GpuLane(3)
    """

    def __init__(self, index: int) -> None:
        self.index = self.device = int(index)

    def active(self) -> AbstractContextManager[Any]:
        import cupy

        device: AbstractContextManager[Any] = cupy.cuda.Device(self.index)  # current within the lane's work
        return device

    def to_host(self, x: Any) -> Any:
        import cupy

        with cupy.cuda.Device(self.index):
            return cupy.asnumpy(x)

    def __repr__(self) -> str:
        return f"GpuLane({self.index})"


def gpu_lanes(devices: Any) -> list[GpuLane]:
    """The lanes of ``devices``: ``"all"`` (every GPU CuPy sees) or a sequence of distinct device ids.

    Raises
    ------
    TypeError
        ``devices`` is neither ``"all"`` nor a sequence of ints.
    ValueError
        An id out of range or repeated, an empty list, or no GPU at all.

    Examples
    --------
    >>> gpu_lanes([])
    Traceback (most recent call last):
    ...
    ValueError: devices is empty; give "all" or at least one GPU id
    """
    if isinstance(devices, str):
        if devices != "all":
            raise ValueError(f'devices must be "all" or a sequence of GPU ids, got {devices!r}')
        ids: list[int] | None = None
    elif isinstance(devices, Sequence) and all(isinstance(d, (int, np.integer)) and not isinstance(d, bool)
                                               for d in devices):
        ids = [int(d) for d in devices]
        if not ids:
            raise ValueError('devices is empty; give "all" or at least one GPU id')
        if len(set(ids)) != len(ids):
            raise ValueError(f"devices repeats a GPU id: {ids}")
    else:
        raise TypeError(f'devices must be "all" or a sequence of GPU ids, got {type(devices).__name__}')
    try:
        import cupy

        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception:  # noqa: BLE001 - no CuPy, no driver, no device: all mean no GPU here
        count = 0
    if count == 0:
        raise ValueError("devices= asks for GPUs, but this machine has none that CuPy can use")
    if ids is None:
        ids = list(range(count))
    bad = [d for d in ids if not 0 <= d < count]
    if bad:
        raise ValueError(f"devices[{ids.index(bad[0])}] = {bad[0]} is not a GPU id here (this machine has {count})")
    return [GpuLane(d) for d in ids]


def lanes_for(devices: Any) -> list[Any]:
    """The lanes of a ``devices=`` argument: :func:`gpu_lanes`, or a list of :class:`HostLane` as it is (the
    schedule on the host: tests, and machines without GPUs).

    >>> lanes_for([HostLane(0), HostLane(1)])
    [HostLane(0), HostLane(1)]
    """
    if isinstance(devices, (list, tuple)) and devices and all(isinstance(d, HostLane) for d in devices):
        return list(devices)
    return gpu_lanes(devices)


def chunk_size(k: int, lanes: int, row_bytes: int | None = None, source_seconds: float = 0.0) -> int:
    """Sources per chunk: about :data:`CHUNKS_PER_LANE` chunks per lane, a ``"rows"`` part within :data:`ROWS_BYTES`,
    and (``source_seconds`` > 0: CPU work) about :data:`TASK_SECONDS` of work, so that a lost worker loses little
    and progress moves.

    >>> chunk_size(1000, 2), chunk_size(10, 4), chunk_size(10**6, 2, row_bytes=8 * 10**6)
    (63, 1, 8)
    >>> chunk_size(10**6, 2, source_seconds=0.01)
    100
    """
    c = max(1, -(-k // (max(1, lanes) * CHUNKS_PER_LANE)))
    if row_bytes:
        c = min(c, max(1, ROWS_BYTES // max(1, row_bytes)))
    if source_seconds > 0:
        c = min(c, max(1, int(TASK_SECONDS / source_seconds)))
    return c


def _write_rows(out: Sequence[Any], a: int, part: tuple[Any, ...], to_host: Callable[[Any], Any]) -> None:
    for o, p in zip(out, part):
        o[a:a + p.shape[0]] = to_host(p)


def check_spread(devices: Any, client: Any) -> None:
    """The check of the ``devices`` / ``client`` pair at a door: not both; a ``client`` of the right type.

    >>> check_spread(None, None)
    >>> check_spread("all", object())
    Traceback (most recent call last):
    ...
    ValueError: give devices= (the GPUs of this process) or client= (a Dask cluster), not both
    """
    if devices is not None and client is not None:
        raise ValueError("give devices= (the GPUs of this process) or client= (a Dask cluster), not both")
    if client is not None:
        from distributed import Client

        if not isinstance(client, Client):
            raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}")


# -- one process ---------------------------------------------------------------------------------------------------
def spread_on_lanes(job: SourceJob, src: np.ndarray, lanes: Sequence[Any], out: Sequence[Any] | None = None,
                    bar: Any = None, chunk: int | None = None) -> tuple[Any, ...] | None:
    """Run ``job`` over the sources ``src`` on ``lanes`` (host threads, one per lane, a shared counter of chunks).

    Returns the summed parts (host arrays) of a ``"sum"`` job; a ``"rows"``
    job fills ``out`` (host arrays or memory maps, ``len(src)`` rows each)
    and returns ``None``.  ``bar``: a progress bar counting sources.  The
    first error of any lane is raised once every lane has stopped (the
    others stop taking chunks).

    >>> out = [np.zeros((4, 1))]
    >>> job = SourceJob(_rows_of, None, "rows")
    >>> spread_on_lanes(job, np.arange(4, dtype=np.int32), [HostLane(0), HostLane(1)], out, chunk=1)
    >>> out[0].ravel()
    array([0., 1., 4., 9.])
    """
    k = int(src.shape[0])
    cpu = all(lane.device == "cpu" for lane in lanes)
    c = chunk if chunk is not None else chunk_size(k, len(lanes), job.row_bytes if job.kind == "rows" else None,
                                                   job.source_seconds if cpu else 0.0)
    starts = itertools.count(0, c)
    lock = threading.Lock()
    sums: list[tuple[Any, ...] | None] = [None] * len(lanes)
    errors: list[BaseException] = []

    def run(i: int, lane: Any) -> None:
        try:
            with lane.active():
                payload = job.place(job.payload, lane.device)
                total = None
                while not errors:
                    with lock:
                        a = next(starts)
                    if a >= k:
                        break
                    part = job.task(payload, src[a:a + c])
                    if job.kind == "sum":
                        total = part if total is None else tuple(t + p for t, p in zip(total, part))
                    else:
                        assert out is not None  # a rows job is given its output
                        _write_rows(out, a, part, lane.to_host)
                    if bar is not None:
                        with lock:
                            bar.update(min(c, k - a))
                sums[i] = None if total is None else tuple(lane.to_host(t) for t in total)
        except BaseException as err:  # noqa: BLE001 - raised by the caller's thread below
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i, lane), daemon=True) for i, lane in enumerate(lanes[1:], 1)]
    for t in threads:
        t.start()
    run(0, lanes[0])
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    if job.kind == "rows":
        return None
    parts = [s for s in sums if s is not None]
    if not parts:
        return None
    return tuple(sum(p[j] for p in parts[1:]) + parts[0][j] if len(parts) > 1 else parts[0][j]
                 for j in range(len(parts[0])))


def _rows_of(payload: Any, chunk: np.ndarray) -> tuple[np.ndarray]:
    """A toy task (the examples): each source's square, one row per source."""
    return (chunk.astype(np.float64)[:, None] ** 2,)


# -- Dask -----------------------------------------------------------------------------------------------------------
def _run_task(task: Callable[..., tuple[Any, ...]], place: Callable[[Any, Any], Any], payload: Any,
              chunk: np.ndarray, device: Any) -> tuple[Any, ...]:
    """A chunk's part on a worker (its payload opened and placed on ``device``; parts returned as host arrays)."""
    part = task(place(opened(payload), device), chunk)
    return tuple(p.get() if hasattr(p, "__cuda_array_interface__") else p for p in part)


def _part(pair: tuple[Any, ...], i: int) -> Any:
    return pair[i]


def _dask_rows(client: Any, job: SourceJob, futures: list[Any], starts: list[int], k: int) -> tuple[Any, ...]:
    """The parts of finished ``"rows"`` chunks as dask arrays, one block per chunk, left on the workers."""
    import dask.array as da
    from dask.delayed import delayed

    arrays = []
    for i, (shape, dtype) in enumerate(job.parts):
        ends = starts[1:] + [k]
        blocks = [da.from_delayed(delayed(client.submit(_part, f, i, pure=False)), (b - a, *shape),
                                  dtype=dtype, meta=np.empty((0,) * (1 + len(shape)), dtype=dtype))
                  for a, b, f in zip(starts, ends, futures)]
        arrays.append(da.concatenate(blocks, axis=0) if blocks else da.zeros((0, *shape), dtype=dtype))
    return tuple(arrays)


def _add_parts(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(x + y for x, y in zip(a, b))


def _wait_some(client: Any, pending: list[Any]) -> tuple[list[Any], list[Any]]:
    """``(done, not_done)`` once one of ``pending`` is done; :class:`apsp.distributed.WorkerLostError` when the
    cluster has had no worker for :data:`WORKERLESS_SECONDS`, or cancelled the tasks (its workers left)."""
    import distributed
    from distributed.client import FuturesCancelledError

    from apsp.distributed import WorkerLostError, cluster_workers

    alone_since = None
    while True:
        try:
            done, not_done = distributed.wait(pending, timeout=WATCH_SECONDS, return_when="FIRST_COMPLETED")
            return list(done), list(not_done)
        except FuturesCancelledError as err:  # the scheduler forgot them (every worker left): nothing will come
            client.cancel(pending)
            raise WorkerLostError(f"the Dask cluster lost the tasks of sources with its workers ({err}); "
                                  "no result was returned") from None
        except (TimeoutError, distributed.TimeoutError):
            if cluster_workers(client):
                alone_since = None
                continue
            now = time.monotonic()
            alone_since = now if alone_since is None else alone_since
            if now - alone_since >= WORKERLESS_SECONDS:
                client.cancel(pending)
                raise WorkerLostError(f"the Dask cluster has had no worker for {WORKERLESS_SECONDS:.0f} s; "
                                      f"{len(pending)} tasks of sources were left undone") from None


def _scatter(client: Any, payload: Any) -> Any:
    """``payload`` sent to every worker (a copy each: one lost with its worker leaves the others), again if a
    worker leaves while the copies go out (a closed connection), up to :data:`SCATTER_ATTEMPTS` times."""
    from apsp.distributed import WorkerLostError

    for _ in range(SCATTER_ATTEMPTS):
        try:
            # A fresh key per call (hash=False): a content-hashed key could be one an earlier call still releases.
            return client.scatter(payload, broadcast=True, hash=False)
        except OSError as err:  # distributed's CommClosedError: a worker went away mid-copy
            last = err
            time.sleep(WATCH_SECONDS)
    raise WorkerLostError(f"the graph could not be sent to the Dask workers: they kept leaving ({last})")


def spread_on_dask(job: SourceJob, src: np.ndarray, client: Any, device: Any = "cpu",
                   out: Sequence[Any] | None = None, bar: Any = None,
                   chunk: int | None = None) -> tuple[Any, ...] | None:
    """Run ``job`` over the sources ``src`` on the workers of ``client``, the payload placed on ``device`` there.

    Returns what :func:`spread_on_lanes` returns, except for a ``"rows"``
    job given no ``out``: then one :class:`dask.array.Array` per part
    (``job.parts``), chunked by the chunks of sources, its blocks left on
    the workers.  A task that fails (not a lost worker: Dask reruns those)
    is raised as Dask reports it.

    >>> from distributed import Client, LocalCluster
    >>> with LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster, Client(cluster) as c:
    ...     spread_on_dask(SourceJob(_squares, None, "sum"), np.arange(5, dtype=np.int32), c)
    (array([30.]),)
    """
    from apsp.distributed import WorkerLostError, cluster_workers, fit_worker_threads

    workers = cluster_workers(client)
    if not workers:
        raise WorkerLostError("the Dask cluster has no workers")
    if device == "cpu":  # a worker process of its own runs its kernels on its Dask threads, not every core
        fit_worker_threads(client, workers)
    k = int(src.shape[0])
    c = chunk if chunk is not None else chunk_size(k, len(workers), job.row_bytes if job.kind == "rows" else None,
                                                   job.source_seconds if device == "cpu" else 0.0)
    with host_shared(job.payload, client, workers) as sendable:  # one copy for the workers of this host
        return _run_on_dask(client, job, src, _scatter(client, sendable), c, device, out, bar)


def _run_on_dask(client: Any, job: SourceJob, src: np.ndarray, payload: Any, c: int, device: Any,
                 out: Sequence[Any] | None, bar: Any) -> tuple[Any, ...] | None:
    """:func:`spread_on_dask` once the payload is on the workers (``payload``: its future), chunks of ``c``."""
    k = int(src.shape[0])
    starts = list(range(0, k, c))
    futures = [client.submit(_run_task, job.task, job.place, payload, src[a:a + c], device, pure=False)
               for a in starts]
    start_of = {f.key: a for f, a in zip(futures, starts)}
    pending: list[Any] = list(futures)
    ready: list[Any] = []
    try:
        while pending or len(ready) > 1:
            if len(ready) > 1:  # a tree of sums: two parts added where they are
                pending.append(client.submit(_add_parts, ready.pop(), ready.pop(), pure=False))
                continue
            done, pending = _wait_some(client, pending)
            for f in done:
                if f.status == "error":
                    f.result()  # raises as Dask reports it
                a = start_of.get(f.key)
                if job.kind == "rows" and out is not None:
                    assert a is not None  # only chunks are waited for in a rows job
                    _write_rows(out, a, f.result(), lambda x: x)
                    f.release()
                elif job.kind == "sum":
                    ready.append(f)
                if a is not None and bar is not None:
                    bar.update(min(c, k - a))
        if job.kind == "rows":
            return None if out is not None else _dask_rows(client, job, futures, starts, k)
        return tuple(ready[0].result()) if ready else None
    except BaseException:
        client.cancel([f for f in pending + ready if f.status == "pending"])  # what is still under way
        raise


def spread(job: SourceJob, src: np.ndarray, devices: Any, client: Any, on_gpu: bool, out: Sequence[Any] | None = None,
           bar: Any = None) -> tuple[Any, ...] | None:
    """Run ``job`` on the workers of ``client`` (GPU workers where ``on_gpu``: the caller's graph is on a GPU),
    else on the lanes of ``devices``: the one place that chooses.  Returns what :func:`spread_on_dask` or
    :func:`spread_on_lanes` returns.

    >>> spread(SourceJob(_squares, None, "sum"), np.arange(3, dtype=np.int32), [HostLane(0)], None, False)
    (array([5.]),)
    """
    if client is not None:
        return spread_on_dask(job, src, client, "gpu" if on_gpu else "cpu", out, bar)
    return spread_on_lanes(job, src, lanes_for(devices), out, bar)


def place_first(payload: tuple[Any, ...], device: Any) -> tuple[Any, ...]:
    """A payload ``(graph, *extras)`` with its graph on ``device`` (``"cpu"``, or a GPU: ``"gpu"`` or its id, then
    current); ``graph`` is a :class:`graphs.Graph` or anything with ``G.to`` / ``_replace(G=...)`` (a prepared
    graph).

    >>> from graphs import Graph
    >>> place_first((Graph.from_edges([0], [1]), 7), "cpu")[1]
    7
    """
    first = payload[0]
    if hasattr(first, "_replace"):  # a prepared graph holding the graph as G
        placed = first._replace(G=first.G.to("cpu") if device == "cpu" else first.G.to("gpu"))
    else:
        placed = first.to("cpu") if device == "cpu" else first.to("gpu")
    return (placed, *payload[1:])
