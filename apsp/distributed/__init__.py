"""All-pairs shortest paths on a Dask cluster: blocked Floyd-Warshall over row blocks resident on the workers.

:func:`apsp.shortest_paths` comes here when it is given ``client=`` (a
:class:`distributed.Client`) or a :class:`dask.array.Array` (then the default
client).  The schedule is the one :mod:`apsp.multi_device` runs over the
GPUs of one host, with Dask workers as its lanes (worker side:
:mod:`apsp.distributed.rows`):

* row block ``k`` (``b`` rows) belongs to worker ``k % p`` (block-cyclic, so
  every worker has its share of every round); each worker keeps its row
  blocks in one buffer in its own memory, made once from its part of the
  input and updated in place, never in Dask's data store: the matrix never
  moves, only panels do;
* round ``k``: the owner of block ``k`` closes the diagonal block and forms
  the ``b x n`` row panel ``R_k`` (one task), which goes worker to worker:
  between GPU worker processes of one host as a CUDA IPC handle, the
  receiver copying the panel GPU to GPU (:mod:`apsp.distributed.ipc`;
  chosen per run after a probe, logged at INFO); otherwise as Dask sends
  any result (TCP, or UCX when the cluster was started with
  ``protocol="ucx"`` and ``distributed-ucxx`` is installed); each
  worker then updates its other rows, ``D_i (+)= D_ik (x) R_k`` (one task,
  one GEMM per contiguous range of rows, in the library's kernels: Numba on
  CPU workers, CUDA on GPU workers);
* look-ahead: the owner of block ``k + 1`` first updates only those rows
  with ``R_k``, closes panel ``k + 1`` and hands it to Dask, and only then
  updates the rest of its rows; each panel is received by a task of its own
  that depends on nothing else, so Dask fetches ``R_{k+1}`` while the
  workers still run round ``k``.  The critical path is the chain of panels;
  what remains per round is each worker's ``(n/p) x b x n`` GEMM.

Each worker's tasks are chained (each depends on the one before it on that
worker) and pinned to it (``allow_other_workers=False``), which fixes the
order of every entry's updates: results equal the single-process blocked
schedule's (:func:`apsp.methods.blocked_fw.blocked_floyd_warshall`).  The graph has
about ``(2 p + 1) n / b`` tasks, whatever ``n``.

Traffic.  Per round every worker but the owner receives the panel, ``b n``
entries (with predecessors also their ``b n`` int32): ``n^2 (1 - 1/p)``
entries per worker over the run.  NumPy/CuPy input, and the arcs of a
graph (``__semiring_arcs__``), are scattered from the client once, row block
to owner; a dask array's row blocks are computed
on their owners; a gathered result crosses to the client once.
``benchmarks/results/distributed-analysis.md`` compares this with the 2-D
layouts of Solomonik, Buluc & Demmel (IPDPS 2013) and Sao et al. (HPDC 2021).

Memory.  Before a run the driver reads each worker's memory limit (and, on
GPU workers, the free memory of its GPU) and raises
:class:`~apsp.distributed.memory.WorkerMemoryError`, naming the setting, when
its share does not fit (:mod:`apsp.distributed.memory`); a worker that
pauses for memory during a run (its share cannot be spilled) is the same
error within :data:`PAUSE_S` seconds, instead of a stalled run.

Starting workers.  CPU: ``distributed.LocalCluster(n_workers=p,
threads_per_worker=t, memory_limit=...)``; give each worker process the
kernel threads it may use, ``env={"SEMIRING_PATHS_THREADS": str(t)}`` (by
default every process uses every core).  GPU: one worker per GPU,
``dask_cuda.LocalCUDACluster(memory_limit=...)`` (each worker's tasks run on
its own GPU); without dask-cuda, a ``distributed.SpecCluster`` of one
``Nanny`` per GPU with ``env={"CUDA_VISIBLE_DEVICES": str(i)}``
(``docs/distributed.md``).

Input and output.  NumPy / CuPy / ``numpy.ma`` input and objects with
``__semiring_matrix__`` (a :class:`graphs.Graph`: its arcs go to the owners
of their rows) give a gathered array of the same kind,
like the single-process call; a :class:`dask.array.Array` gives
:class:`dask.array.Array` results (chunks: the row blocks) that stay in the
workers' memory.  To keep the result of a NumPy matrix on the cluster, pass
``dask.array.from_array(W, chunks=(b, n))``.

Recovery.  The driver watches the cluster while the run is under way; when
one of its workers has left, it cancels the run and starts it again on the
workers present, from the input, up to :data:`ATTEMPTS` times, then raises
:class:`WorkerLostError`.  Nothing of a cancelled attempt is reused.

Progress: Dask's dashboard shows the tasks (``apsp-panel``,
``apsp-receive``, ``apsp-update``); ``progress=True`` also shows
:func:`distributed.progress`.  Nothing else in the package imports Dask, and
this module imports it only inside its functions.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any

import numpy as np

import semiring as sr
from semiring.array_types import Device
from semiring.backend import is_cupy_array
from semiring.errors import DeviceError, UnsupportedOperationError
from semiring.validate import check_matrix

from ..matrix_input import dask_distributed, is_dask_array
from ..multi_device import default_block
from ..negative_cycle import raise_for_cycle
from ..paths.exact_integers import sums_may_leave_int32
from ..request import Request, dask_client, make_request
from ..task_values import Stopped, finite_extent
from .ipc import close_imports, probe_export, probe_import
from .memory import WorkerMemoryError, check_workers, paused_error, worker_needs
from .rows import (
    RowLayout,
    RunSpec,
    bad_diagonal_rows,
    build,
    drop_run,
    panel,
    receive,
    result_rows,
    update,
)

if TYPE_CHECKING:
    from distributed import Client

    from semiring import Semiring
    from semiring.array_types import DTypeLike

    from ..matrix_input import MatrixSource

__all__ = ["distributed_shortest_paths", "distributed_closure", "default_block_size", "cluster_workers", "is_dask_array", "WorkerLostError",
           "fit_worker_threads",
           "WorkerMemoryError", "ATTEMPTS", "PAUSE_S", "CYCLE_SEARCH_MAX"]

_log = logging.getLogger(__name__)

#: Attempts of a run when workers leave the cluster (each starts again from the input).
ATTEMPTS = 3
#: Seconds between two looks at the cluster's workers while a run is under way.
WATCH_S = 0.5
#: Seconds a worker of the run may stay paused for memory before the run fails with WorkerMemoryError.
PAUSE_S = 10.0
#: Largest ``n`` for which a negative cycle found in a dask-array input is traced
#: (the input is then computed on the client); above it, the error names a vertex.
CYCLE_SEARCH_MAX = 16384
#: Largest block on CPU workers (rows per round).
CPU_BLOCK_MAX = 1024


def default_block_size(n: int, workers: int, device: str) -> int:
    """Rows per block (and per round) when ``block_size`` is not given.

    GPU workers: :func:`apsp.multi_device.default_block` (4096, halved until
    every worker owns at least two blocks: the look-ahead needs
    ``n / b >= 2 p``).  CPU workers: at most :data:`CPU_BLOCK_MAX`, halved
    until every worker owns at least four blocks (at ``n = 4096`` on 2
    workers: 512).

    >>> default_block_size(65536, 4, "gpu"), default_block_size(4096, 2, "cpu"), default_block_size(100, 3, "cpu")
    (4096, 512, 8)
    """
    if device == "gpu":
        return default_block(n, workers)
    b = CPU_BLOCK_MAX
    while b > 8 and -(-n // b) < 4 * workers:
        b //= 2
    return max(1, min(b, n))


def _distributed() -> Any:
    return dask_distributed()


class _Input:
    """What the driver needs of ``W``: size, dtype, device and how to make tile ``(I, J)`` on its owner."""

    def __init__(self, kind: str, n: int, dtype: DTypeLike, device: str, data: Any, original: Any,
                 src: MatrixSource | None = None) -> None:
        self.kind, self.n, self.dtype, self.device = kind, n, np.dtype(dtype), device
        self.data, self.original, self.src = data, original, src


def _input(req: Request) -> _Input:
    """The checked input of ``req`` as the driver sends it: a dask array, a dense array, or a graph's arcs.

    The dense matrix of a graph that has no arcs to send (or lives on the GPU)
    is built on the client and checked here, as :func:`apsp.driver.solve`
    checks a graph's matrix as it is built.
    """
    src, W, S = req.src, req.given, req.S
    if src.dense is not None:  # checked at the door
        return _Input("dense", src.n, req.dtype, src.device, src.dense, src.dense)
    if is_dask_array(W):  # its shape and dtype checked at the door, its entries on the workers
        return _Input("dask", src.n, req.dtype, src.device, W, W)
    if src.device == "cpu" and hasattr(W, "__semiring_arcs__"):  # a graph's arcs: dense rows built on their owners
        return _Input("sparse", src.n, src.dtype, "cpu", W.__semiring_arcs__(S, src.dtype), lambda: src.fill(None), src)
    D = src.fill(None)  # other protocol objects and graphs on the GPU: built on the client
    check_matrix("W", D, S)
    return _Input("dense", src.n, src.dtype, src.device, D, D)


def distributed_shortest_paths(
    W: Any,
    method: str = "auto",
    *,
    semiring: "Semiring | str" = sr.min_plus,
    predecessors: bool = False,
    device: Device = "auto",
    block_size: int | None = None,
    progress: bool | None = None,
    out: Any = None,
    dtype: DTypeLike | None = None,
    client: Client | None = None,
    gather: bool | None = None,
    **ignored: Any,
) -> Any:
    """The closure of ``W`` (and its predecessors) on a Dask cluster: what ``apsp.shortest_paths(W, client=...)`` runs.

    Parameters
    ----------
    W : array (n, n), dask.array.Array, or an object with ``__semiring_matrix__`` (graphs.Graph)
        As :func:`apsp.shortest_paths` accepts it, or a :class:`dask.array.Array`
        (NumPy or CuPy chunks; rechunked to row blocks when its chunks differ).
    method : {"auto", "blocked-fw"}
        The schedule is blocked Floyd-Warshall.
    semiring, predecessors, dtype
        As in :func:`apsp.shortest_paths`.
    device : {"auto", "cpu", "gpu"}
        Where the workers compute: ``"gpu"`` keeps the rows in CuPy arrays on
        the workers' GPUs (one GPU per worker: ``dask_cuda.LocalCUDACluster``);
        ``"auto"``: where ``W`` lives.
    block_size : int, optional
        Rows per block ``b`` (default :func:`default_block_size`).
    progress : bool, optional
        ``True``: :func:`distributed.progress` over the run (the dashboard
        shows it in any case).
    out : numpy.ndarray (n, n), optional
        Gather the distances into it.
    client : distributed.Client, optional
        Default: the default client (``distributed.default_client()``).
    gather : bool, optional
        ``True``: NumPy/CuPy results on the client; ``False``: dask arrays
        whose row blocks stay on the workers.  Default: ``False`` exactly when
        ``W`` is a dask array.
    **ignored
        ``memory_budget`` and ``memory_limit`` of the single-process call
        (each worker's memory limit is the cluster's setting, checked here).

    Returns
    -------
    D : array (n, n) or dask.array.Array
    P : array (n, n) of int32 or dask.array.Array, with ``predecessors=True``

    Raises
    ------
    NegativeCycleError
        As single-process (the cycle is traced on the client, from the input).
    InvalidEntryError
        An entry of a dask array (or a graph's arc) the semiring rejects, found
        on the worker that holds its rows, named with the row block.

    Both are found by the tasks, which return a status rather than raise
    (:class:`apsp.task_values.Stopped`): the workers log no failed task.
    WorkerMemoryError
        A worker's memory limit (or GPU) cannot hold its share, found before
        the run; or a worker paused for memory during it.
    WorkerLostError
        Workers left during every attempt.
    UnsupportedOperationError
        Another ``method``, a non-idempotent semiring, a dask array without
        a client.
    TypeError
        ``client`` is not a ``distributed.Client``.

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> W = np.array([[0.0, 3.0, np.inf], [np.inf, 0.0, -1.0], [2.0, np.inf, 0.0]])
    >>> with LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster, Client(cluster) as c:
    ...     distributed_shortest_paths(W, client=c, block_size=1)
    array([[ 0.,  3.,  2.],
           [ 1.,  0., -1.],
           [ 2.,  5.,  0.]])
    """
    if gather is False and out is not None:
        raise UnsupportedOperationError("out= gathers the result: it cannot be used with a dask-array result")
    req = make_request(W, method, semiring=semiring, predecessors=predecessors, device=device, block_size=block_size,
                       progress=progress, out=out, dtype=dtype, client=dask_client(client),
                       memory_budget=None, memory_limit=None, devices=None)  # the single process's limits
    return distributed_closure(req, gather)


def distributed_closure(req: Request, gather: bool | None = None) -> Any:
    """The closure a checked Dask :class:`~apsp.request.Request` asks for (``req.client`` set): the route below the door.

    What :func:`apsp.shortest_paths` runs for ``client=`` or a dask array,
    after :func:`apsp.request.make_request` checked every argument; see
    :func:`distributed_shortest_paths` for what it returns and raises.

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> from apsp import prepare
    >>> W = np.array([[0.0, 1.0], [np.inf, 0.0]])
    >>> with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, Client(cluster) as c:
    ...     distributed_closure(prepare(W, client=c, block_size=1))
    array([[ 0.,  1.],
           [inf,  0.]])
    """
    S, client, predecessors, out, dev = req.S, req.client, req.predecessors, req.out, req.device
    inp = _input(req)
    gather = inp.kind != "dask" if gather is None else bool(gather)
    n = inp.n
    home = None if not gather else ("gpu" if _on_gpu_client(inp) else "cpu")
    if n == 0:
        return _empty(inp, predecessors, gather, home, out)
    run = None
    for attempt in range(ATTEMPTS):
        try:
            workers = _workers(client)
            b = req.block_size if req.block_size is not None else default_block_size(n, len(workers), dev)
            b = max(1, min(b, n))
            workers = workers[: -(-n // b)]  # a worker without a row block has nothing to do
            run = _Run(client, S, inp, workers, RowLayout(n, b, len(workers)), dev, predecessors, home)
            run.submit()
            if req.progress:
                _show_progress(run.futures())
            _wait(client, run.futures(), workers)
            bad = client.gather(run.checks)
            break
        except _WorkersLost as lost:
            if run is not None:
                run.forget()
            if attempt == ATTEMPTS - 1:
                raise WorkerLostError(
                    f"the Dask cluster lost workers during each of {ATTEMPTS} attempts (last: {lost}); "
                    "no result was returned"
                ) from None
        except BaseException:
            if run is not None:
                run.forget()
            raise
    assert run is not None  # each attempt either made a run and broke out, or raised
    results = run.results
    try:
        _raise_if_stopped(S, inp, bad)
        bad_all = np.concatenate(bad) if bad else np.zeros(0, np.int64)
        if bad_all.size:
            raise_for_cycle(S, _cycle_source(inp), int(bad_all[0]), bad_all)
        if not gather:
            arrays = [_dask_array(results[part], run.layout, inp.dtype if part == 0 else np.dtype(np.int32), dev)
                      for part in range(len(results))]
            return tuple(arrays) if predecessors else arrays[0]
        gathered = []
        for part, futures in enumerate(results):
            dt = inp.dtype if part == 0 else np.int32
            xp = _cupy() if home == "gpu" else np
            R = out if (part == 0 and out is not None) else xp.empty((n, n), dtype=dt)
            for k, block in enumerate(client.gather(futures)):
                a, c = run.layout.span(k)
                R[a:c] = block
            gathered.append(R)
        return tuple(gathered) if predecessors else gathered[0]
    finally:
        run.forget()  # the results hold views of the rows they need; the registry lets go of the rest


def _empty(inp: _Input, predecessors: bool, gather: bool, home: str | None, out: Any) -> Any:
    """The closure of a 0 x 0 matrix, in the kind of result asked for."""
    parts = [np.empty((0, 0), inp.dtype), np.empty((0, 0), np.int32)][: 2 if predecessors else 1]
    if out is not None:
        parts[0] = out
    if not gather:
        import dask.array as da

        parts = [da.zeros((0, 0), dtype=p.dtype) for p in parts]
    elif home == "gpu":
        parts = [_cupy().asarray(p) for p in parts]
    return tuple(parts) if predecessors else parts[0]


class _Run:
    """One attempt: the layout, the run's token, its input on the workers, its futures."""

    def __init__(self, client: Client, S: "Semiring", inp: _Input, workers: list[str], layout: RowLayout, dev: str,
                 predecessors: bool, home: str | None) -> None:
        self.client, self.S, self.inp, self.workers, self.layout = client, S, inp, workers, layout
        self.dev, self.predecessors, self.home = dev, predecessors, home
        self.token: str | None = uuid.uuid4().hex[:12]
        self.infos = _survey(client, workers, dev)
        self.share = _panel_sharing(client, workers, self.infos, dev, self.token)
        self.wide = False
        self.checks: list[Any] = []
        self.results: list[list[Any]] = []
        self._all: list[Any] = []
        self._check_memory()

    def _pin(self, g: int, **kw: Any) -> dict[str, Any]:
        return {"workers": [self.workers[g]], "allow_other_workers": False, "pure": False, **kw}

    def _check_memory(self) -> None:
        inp, lay = self.inp, self.layout
        wide = inp.dtype == np.int32 and self.S.capabilities.mul_is_plus  # the largest it could be
        item = 8 if wide else inp.dtype.itemsize
        if inp.kind == "sparse":
            where, in_item = "arcs", inp.dtype.itemsize
        elif inp.kind == "dask":
            where, in_item = ("gpu" if self.dev == "gpu" and inp.device == "gpu" else "host"), inp.data.dtype.itemsize
        else:
            where, in_item = ("gpu" if is_cupy_array(inp.data) else "host"), inp.data.dtype.itemsize
        needs = [worker_needs(lay, g, item, in_item, self.predecessors, self.dev, where, self.home is not None,
                              panels_through_host=self.share != "ipc") for g in range(len(self.workers))]
        check_workers(self.infos, needs)

    def _own_threads(self, g: int) -> int | None:
        """Worker ``g``'s Dask threads when it has a process of its own (its CPU kernels then use as many)."""
        return _threads_of_own_process(self.infos[g], self.infos)

    def futures(self) -> list[Any]:
        return self._all + self.checks + [f for part in self.results for f in part]

    def submit(self) -> None:
        client, S, inp, lay = self.client, self.S, self.inp, self.layout
        p, K = len(self.workers), lay.count
        pieces, kind = self._pieces()
        self.wide = _wide_int32(inp, S, client, pieces, kind)
        dtype = np.dtype(np.int64) if self.wide else inp.dtype
        assert self.token is not None  # submitted once, right after it is made (forget() comes after)
        spec = RunSpec(self.token, lay, S, dtype, self.predecessors, self.dev, self.share)
        check = inp.kind != "dense" or inp.data.dtype != inp.dtype  # dense input was validated on the client
        t = self.token
        chain: list[Any] = [client.submit(build, spec, g, pieces[g], check, self.wide, kind, self._own_threads(g),
                               key=f"apsp-build-{t}-{g}", **self._pin(g, priority=10)) for g in range(p)]
        del pieces
        built = list(chain)  # a worker receives panels once its rows (and streams) exist
        o = lay.owner(0)
        R = chain[o] = client.submit(panel, spec, o, 0, None, chain[o], key=f"apsp-panel-{t}-0",
                                     **self._pin(o, priority=5))
        self._all = list(chain)
        for k in range(K):
            o = lay.owner(k)
            held = [R if g == o else client.submit(receive, spec, g, R, built[g], key=f"apsp-receive-{t}-{k}-{g}",
                                                   **self._pin(g, priority=20)) for g in range(p)]
            if k + 1 < K:
                o1 = lay.owner(k + 1)
                R = chain[o1] = client.submit(panel, spec, o1, k + 1, held[o1], chain[o1],
                                              key=f"apsp-panel-{t}-{k + 1}", **self._pin(o1, priority=5))
            for g in range(p):
                chain[g] = client.submit(update, spec, g, k, held[g], chain[g], key=f"apsp-update-{t}-{k}-{g}",
                                         **self._pin(g, priority=0))
        self._all = chain  # the last task of every worker: the rest is released as soon as it is used
        self.checks = [client.submit(bad_diagonal_rows, spec, g, chain[g], key=f"apsp-check-{t}-{g}",
                                     **self._pin(g)) for g in range(p)]
        parts = ((0, "distances"), (1, "predecessors"))[: 2 if self.predecessors else 1]
        self.results = [[client.submit(result_rows, spec, lay.owner(k), k, part, self.wide, self.home,
                                       self.checks[lay.owner(k)], key=f"apsp-{name}-{t}-{k}", **self._pin(lay.owner(k)))
                         for k in range(K)] for part, name in parts]

    def _pieces(self) -> tuple[list[Any], str]:
        """Per worker, the futures of its row blocks of the input (in block order), and their kind."""
        client, inp, lay = self.client, self.inp, self.layout
        p, K, n = len(self.workers), lay.count, lay.n
        if inp.kind == "dask":
            X = inp.data
            want = (tuple(b - a for a, b in map(lay.span, range(K))), (n,))
            if X.chunks != want:
                X = X.rechunk(want)
            # one row block per submission: its graph is culled to the tasks it needs, and they run on its owner
            futs = {k: client.compute(X[slice(*lay.span(k))], workers=[self.workers[lay.owner(k)]],
                                      allow_other_workers=False) for k in range(K)}
            return [[futs[k] for k in lay.blocks_of(g)] for g in range(p)], "dense"
        if inp.kind == "dense":
            items = [[inp.data[slice(*lay.span(k))] for k in lay.blocks_of(g)] for g in range(p)]
            kind = "dense"
        else:  # a graph's arcs: those of each row block go to its owner, its dense rows are built there
            row, col, val = inp.data
            order = np.argsort(row, kind="stable")
            weighted = val is not None
            rows, cols = row[order], col[order]
            vals = val[order] if weighted else np.ones(len(order), np.bool_)
            cuts = np.searchsorted(rows, [a for a, _ in map(lay.span, range(K))] + [n])
            items = [[(rows[cuts[k]:cuts[k + 1]] - lay.span(k)[0], cols[cuts[k]:cuts[k + 1]], vals[cuts[k]:cuts[k + 1]],
                       weighted) for k in lay.blocks_of(g)] for g in range(p)]
            kind = "arcs"
        out = []
        for g in range(p):
            out.append(client.scatter(items[g], workers=[self.workers[g]], hash=False) if items[g] else [])
        return out, kind

    def forget(self) -> None:
        """Drop the run's rows on every worker (best effort: a worker that left has nothing to drop)."""
        if self.token is None:
            return
        token, self.token = self.token, None
        try:
            self.client.cancel([f for f in self.futures() if f.status == "pending"])
            if self.share == "ipc":  # unmapped everywhere before any exporter frees its slot
                self.client.run(close_imports, token)
            self.client.run(drop_run, token)
        except Exception:  # noqa: BLE001 - cleaning up after another error, or on a cluster that lost workers
            pass


def _panel_sharing(client: Client, workers: list[str], infos: list[dict[str, Any]], dev: str, token: str) -> str:
    """How panels travel between the run's workers: ``"ipc"`` (CUDA IPC handles) or ``"copy"`` (Dask's comm).

    ``"ipc"`` when the workers are GPU workers of one host in more than one
    process, the environment does not say ``SEMIRING_PATHS_DASK_IPC=0``, and a
    probe panel exported by the first worker opens and reads back on every
    worker of another process (:mod:`apsp.distributed.ipc`).  Logged at INFO
    on ``apsp.distributed``.
    """
    procs = {(i["host"], i["pid"]) for i in infos}
    if dev != "gpu" or len(procs) < 2 or len({i["host"] for i in infos}) > 1:
        return "copy"
    if os.environ.get("SEMIRING_PATHS_DASK_IPC", "").strip() == "0":
        _log.info("panels between GPU worker processes: through Dask's comm (SEMIRING_PATHS_DASK_IPC=0)")
        return "copy"
    pin = {"allow_other_workers": False, "pure": False}
    src = client.submit(probe_export, token, key=f"apsp-probe-{token}", workers=[workers[0]], **pin)
    first = (infos[0]["host"], infos[0]["pid"])
    others = [w for w, i in zip(workers, infos) if (i["host"], i["pid"]) != first]
    answers = client.gather([client.submit(probe_import, src, key=f"apsp-probe-{token}-{g}", workers=[w], **pin)
                             for g, w in enumerate(others)])
    src.release()
    failed = [f"{w}: {a}" for w, a in zip(others, answers) if a]
    if failed:
        _log.info("panels between GPU worker processes: through Dask's comm (CUDA IPC unavailable: %s)",
                  "; ".join(failed))
        client.run(close_imports, token)
        return "copy"
    _log.info("panels between GPU worker processes: CUDA IPC, GPU to GPU (%d processes on %s)",
              len(procs), infos[0]["host"])
    return "ipc"


def _survey(client: Client, workers: list[str], dev: str) -> list[dict[str, Any]]:
    """:func:`apsp.distributed.rows.survey` of every worker (memory limits, status; on GPU workers their GPU)."""
    distributed = _distributed()
    try:
        host = client.run(_host_survey, workers=workers)
    except (OSError, distributed.comm.CommClosedError) as err:
        raise _WorkersLost(str(err)) from None
    missing = [w for w in workers if w not in host]
    if missing:
        raise _WorkersLost(", ".join(missing) + " left")
    infos = [host[w] for w in workers]
    paused = [i for i in infos if i["status"] == "paused"]
    if paused:
        raise paused_error(paused[0])
    if dev == "gpu":
        from .rows import survey

        gpu = client.gather([client.submit(survey, "gpu", workers=[w], allow_other_workers=False, pure=False)
                             for w in workers])
        for i, info in zip(infos, gpu):
            i.update({key: info[key] for key in ("gpu", "gpu_free", "gpu_total")})
    return infos


def _threads_of_own_process(info: dict[str, Any], infos: list[dict[str, Any]]) -> int | None:
    """The Dask threads of the worker of ``info`` when no other worker of ``infos`` and not the client share its
    process, else ``None``."""
    alone = sum(1 for i in infos if (i["host"], i["pid"]) == (info["host"], info["pid"])) == 1
    client_here = (info["host"], info["pid"]) == (socket.gethostname(), os.getpid())
    return info["threads"] if alone and not client_here else None


def fit_worker_threads(client: Client, workers: list[str]) -> dict[str, int]:
    """Let each worker of ``workers`` that has a process of its own run its CPU kernels on its Dask threads.

    By default the CPU kernels of a process use every core of its host, so
    ``p`` single-threaded worker processes on one host would run ``p`` times
    as many kernel threads as it has cores.  A worker's own
    ``SEMIRING_PATHS_THREADS`` or ``NUMBA_NUM_THREADS`` wins
    (:func:`apsp.distributed.rows.fit_kernel_threads`); workers that share a
    process with others or with the client are left as they are, and so are
    workers that leave meanwhile.  Returns the kernel threads now in force
    on each worker fitted.

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, Client(cluster) as c:
    ...     fit_worker_threads(c, cluster_workers(c))  # a worker in the client's process: left as it is
    {}
    """
    from .rows import fit_kernel_threads

    try:
        infos = _survey(client, workers, "cpu")
    except (_WorkersLost, WorkerMemoryError):
        return {}
    by_threads: dict[int, list[str]] = {}
    for w, info in zip(workers, infos):
        t = _threads_of_own_process(info, infos)
        if t is not None:
            by_threads.setdefault(t, []).append(w)
    fitted: dict[str, int] = {}
    for t, ws in by_threads.items():
        try:
            fitted.update(client.run(fit_kernel_threads, t, workers=ws))
        except (OSError, _distributed().comm.CommClosedError):
            continue  # a worker left: Dask reruns its tasks elsewhere
    return fitted


def _host_survey(dask_worker: Any) -> dict[str, Any]:
    """The memory settings and state of a worker (run in its event loop: it answers while paused)."""
    mm = dask_worker.memory_manager
    return {
        "address": dask_worker.address,
        "memory_limit": int(mm.memory_limit or 0),
        "spill": mm.memory_spill_fraction or None,
        "pause": mm.memory_pause_fraction or None,
        "process": int(dask_worker.monitor.get_process_memory()),
        "status": getattr(dask_worker.status, "name", str(dask_worker.status)),
        "threads": int(dask_worker.state.nthreads),
        "pid": os.getpid(),
        "host": socket.gethostname(),
    }


def _wide_int32(inp: _Input, S: "Semiring", client: Client, pieces: list[Any], kind: str) -> bool:
    """Whether an int32 closure must run in int64 (:mod:`apsp.paths.exact_integers`), decided on the client."""
    if inp.dtype != np.int32 or not S.capabilities.mul_is_plus or inp.n < 2:
        return False
    if inp.kind == "dense" and inp.data.dtype == np.int32:
        return sums_may_leave_int32(inp.data, S)
    if kind == "arcs":
        vals = inp.data[2]
        big = 1 if vals is None else finite_extent(vals)
    else:
        big = max(client.gather([client.submit(finite_extent, f, pure=False) for g in pieces for f in g]), default=0)
    return 2 * (inp.n - 1) * big >= np.iinfo(np.int32).max


def _raise_if_stopped(S: "Semiring", inp: _Input, checks: list[Any]) -> None:
    """Raise the error a :class:`~apsp.task_values.Stopped` diagonal check carries: an input error first, else the cycle.

    The tile steps return these instead of raising on the workers (a task that
    raises is logged there with a traceback, "Compute Failed"); the cycle
    through the vertex found is traced here, from the input.
    """
    stops = [c for c in checks if isinstance(c, Stopped)]
    for stop in stops:
        if stop.error is not None:
            raise stop.error
    if stops:
        vertex = stops[0].vertex
        assert vertex is not None  # no error: a diagonal went bad (only a dropped run's tasks stop bare)
        raise_for_cycle(S, _cycle_source(inp), vertex, None)


class WorkerLostError(RuntimeError):
    """Workers of the Dask cluster left during every attempt of a distributed closure."""


class _WorkersLost(Exception):
    pass


def cluster_workers(client: Client) -> list[str]:
    """The addresses of the workers the scheduler of ``client`` has now, sorted.

    Asks the scheduler on every call (:meth:`distributed.Client.nthreads`).
    ``client.scheduler_info()["workers"]`` is not used: it returns an
    attribute that the client's periodic refresh also writes, without the
    per-worker part, so it is empty about once in 40,000 calls.

    Parameters
    ----------
    client : distributed.Client
        A connected synchronous client.

    Returns
    -------
    list of str
        Worker addresses; empty when the cluster has none.

    Examples
    --------
    >>> from distributed import Client, LocalCluster
    >>> with LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster, Client(cluster) as c:
    ...     len(cluster_workers(c))
    2
    """
    return sorted(client.nthreads())


def _workers(client: Client) -> list[str]:
    workers = cluster_workers(client)
    if not workers:
        raise DeviceError("the Dask cluster has no workers")
    return workers


def _on_gpu_client(inp: _Input) -> bool:
    return inp.kind == "dense" and is_cupy_array(inp.data)


def _wait(client: Client, futures: list[Any], workers: list[str]) -> None:
    """Wait for ``futures``, watching the workers of the run every :data:`WATCH_S` seconds.

    A worker that left: the futures are cancelled and :class:`_WorkersLost`
    raised (the run starts again on the workers present: tasks are pinned,
    and a task whose worker is gone would wait for ever).  A worker paused
    for memory for :data:`PAUSE_S` seconds: cancelled, and
    :class:`~apsp.distributed.memory.WorkerMemoryError` (its rows cannot be
    spilled, so it would not resume).
    """
    distributed = _distributed()
    from distributed.client import FuturesCancelledError

    paused_since: dict[str, float] = {}
    while True:
        try:
            distributed.wait(futures, timeout=WATCH_S)
            return
        except (TimeoutError, distributed.TimeoutError, FuturesCancelledError) as err:
            states = client.run_on_scheduler(_worker_states)
            gone = set(workers) - set(states)
            if gone:
                client.cancel(futures)
                raise _WorkersLost(", ".join(sorted(gone)) + " left") from None
            if isinstance(err, FuturesCancelledError):  # data lost with a worker that has already come back
                client.cancel(futures)
                raise _WorkersLost(f"tasks of the run were cancelled ({err})") from None
            now = time.monotonic()
            for w in workers:
                if states[w]["status"] != "paused":
                    paused_since.pop(w, None)
                    continue
                since = paused_since.setdefault(w, now)
                if now - since >= PAUSE_S:
                    client.cancel(futures)
                    raise paused_error(states[w], now - since) from None


def _worker_states(dask_scheduler: Any) -> dict[str, Any]:
    """Status and memory of every worker, as the scheduler sees them (run on the scheduler)."""
    out = {}
    for addr, ws in dask_scheduler.workers.items():
        out[addr] = {"address": addr, "status": getattr(ws.status, "name", str(ws.status)),
                     "memory_limit": int(ws.memory_limit or 0), "process": int(ws.memory.process), "pause": None}
    return out


def _show_progress(futures: list[Any]) -> None:
    """:func:`distributed.progress`: a widget in Jupyter, else a text bar from a background thread."""

    distributed = _distributed()
    if "ipykernel" in sys.modules:
        distributed.progress(futures, notebook=True)
        return
    threading.Thread(target=distributed.progress, args=(futures,), kwargs={"notebook": False}, daemon=True).start()


def _cycle_source(inp: _Input) -> Any:
    """What :func:`~apsp.negative_cycle.raise_for_cycle` searches: the input, a function building it, or ``None``."""
    if inp.kind == "dask":
        if inp.n > CYCLE_SEARCH_MAX:
            return None
        X = inp.data

        def compute() -> Any:
            H = X.compute()
            return H.get() if is_cupy_array(H) else H

        return compute
    return inp.original


def _dask_array(futures: list[Any], layout: RowLayout, dtype: DTypeLike, dev: str) -> Any:
    """A :class:`dask.array.Array` over the row blocks' futures (chunks: the row blocks; they stay where they are)."""
    import dask.array as da
    from dask.delayed import delayed

    meta = _cupy().empty((0, 0), dtype) if dev == "gpu" else np.empty((0, 0), dtype)
    n = layout.n
    blocks = [da.from_delayed(delayed(f), (b - a, n), dtype=dtype, meta=meta)
              for f, (a, b) in zip(futures, map(layout.span, range(layout.count)))]
    return da.concatenate(blocks, axis=0)


def _cupy() -> Any:
    import cupy

    return cupy
