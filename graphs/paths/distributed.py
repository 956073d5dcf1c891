"""Shortest paths from many sources on a Dask cluster: rows of the distance matrix of a sparse graph.

:func:`graphs.multi_source_sssp` comes here with ``client=``.  The graph (its
CSR arrays: ``O(n + m)``) is sent to every worker once
(``client.scatter(G, broadcast=True)``); the sources are cut into chunks of
rows, spread round-robin over the workers, and each chunk runs the
single-process :func:`graphs.multi_source_sssp` on its worker (Dijkstra per
source in parallel, or Johnson's reweighting when weights are negative; the
SpMM Bellman-Ford on GPU workers).  The result is one
:class:`dask.array.Array` per output, ``(k, n)``, chunked by rows (one chunk
per source chunk) and already computed: its blocks stay in the workers'
memory, so all-pairs distances of a graph whose ``n x n`` matrix fits no
single machine can be written out block by block (``D.to_zarr(...)``) or
reduced (``D.max(axis=1)``: eccentricities) without ever being gathered.

This module imports Dask only inside its function, and receives the
single-process function as an argument (it sits beside :mod:`graphs.sssp`,
which imports it; the package has no import cycles).

Bad input does not raise inside a task.  A chunk whose rows cannot be computed
(a negative cycle, or any other input error of the library: a
:class:`~semiring.errors.SemiringError` or :class:`~graphs.errors.GraphError`)
returns a :class:`Stopped` value carrying the error instead of its rows; the
driver reads each chunk's status (a few bytes) and raises the first chunk's
error itself.  An exception raised inside a Dask task is logged by its worker
with a traceback ("Compute Failed") before the caller sees it: bad input is the
caller's error to report, not the worker's.  Anything else (a bug, a lost
worker) still fails its task and is raised as Dask reports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from semiring.errors import SemiringError

from ..errors import GraphError

if TYPE_CHECKING:
    from ..graph import Graph

__all__ = ["distributed_multi_source_sssp", "Stopped", "ROW_BLOCK_BYTES"]

#: Target size of one row block of the result (distances and predecessors of a source chunk).
ROW_BLOCK_BYTES = 64 * 2**20


@dataclass(frozen=True)
class Stopped:
    """What a chunk's task returns in place of its rows when the input is bad: the error, for the caller to raise.

    Attributes
    ----------
    error : SemiringError or GraphError
        As the single-process call raises it (a
        :class:`~graphs.errors.NegativeCycleError` names a vertex on the
        cycle, the cycle and its weight); without its traceback, which would
        keep the task's frames (and their arrays) alive on the worker.

    Examples
    --------
    >>> from graphs import Graph, multi_source_sssp
    >>> G = Graph.from_edges([0, 1], [1, 0], [1.0, -2.0])
    >>> _rows(multi_source_sssp, G, np.array([0], np.int32), "dijkstra")
    Stopped(error=NegativeCycleError('negative cycle through vertex 0 (0 -> 1 -> 0, weight -1.0)'))
    """

    error: Exception


def _rows(kernel: Callable, G, sources: np.ndarray, method: str, predecessors: bool = True):
    """``kernel``'s ``(D, P)`` for a chunk of sources, or :class:`Stopped` with the input error it raised."""
    try:
        return kernel(G, sources, method, device=G.device, predecessors=predecessors)
    except (SemiringError, GraphError) as err:
        seen, e = set(), err
        while e is not None and id(e) not in seen:  # drop the chain's frames: the result stays on the worker
            seen.add(id(e))
            e.__traceback__ = None
            e = e.__cause__ or e.__context__
        return Stopped(err)


def _stop(pair) -> Stopped | None:
    """A chunk's status: its :class:`Stopped` value, or ``None`` when it holds rows."""
    return pair if isinstance(pair, Stopped) else None


def _part(pair, i: int):
    return pair[i]


def distributed_multi_source_sssp(G: "Graph", sources: np.ndarray, method: str, client, kernel: Callable,
                                  chunk: int | None = None, predecessors: bool = True):
    """Rows ``sources`` of the distance (and predecessor) matrix of ``G``, computed on the workers of ``client``.

    Parameters
    ----------
    G : Graph
        Validated, with weights (what :func:`graphs.multi_source_sssp` prepared).
    sources : numpy.ndarray of int32
        Validated source ids.
    method : {"dijkstra", "spmm"}
    client : distributed.Client
    kernel : callable
        :func:`graphs.multi_source_sssp` itself, run on each chunk of sources.
    chunk : int, optional
        Sources per task; default: about :data:`ROW_BLOCK_BYTES` of output
        per task, and at least one task per worker.
    predecessors : bool
        ``False``: the workers skip the predecessor trees, and ``P`` is ``None``.

    Returns
    -------
    D : dask.array.Array (k, n)
    P : dask.array.Array (k, n) of int32, or None

    Raises
    ------
    NegativeCycleError
        Met by a worker, raised here (the first chunk's, in source order; the
        call waits for every chunk).  Like every input error found on a
        worker, it comes back as a :class:`Stopped` status, not as a failed
        task: the workers log nothing.

    Examples
    --------
    >>> from graphs import Graph, multi_source_sssp
    >>> from distributed import Client
    >>> client = Client(processes=False, n_workers=1, dashboard_address=None)  # doctest: +SKIP
    >>> D, P = multi_source_sssp(Graph.from_edges([0, 1], [1, 2], [1.0, 2.0]), client=client)  # doctest: +SKIP
    >>> D.compute()  # doctest: +SKIP
    array([[ 0.,  1.,  3.],
           [inf,  0.,  2.],
           [inf, inf,  0.]])
    """
    import dask
    import dask.array as da
    from distributed import Client, wait

    if not isinstance(client, Client):
        raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}")
    from apsp.distributed import cluster_workers

    workers = cluster_workers(client)
    if not workers:
        raise ValueError("the Dask cluster has no workers")
    k, n = int(sources.shape[0]), int(G.n)
    dtype = np.dtype(G.weights.dtype)
    if chunk is None:
        per_row = max(1, n * (dtype.itemsize + (4 if predecessors else 0)))
        chunk = max(1, min(-(-k // len(workers)), ROW_BLOCK_BYTES // per_row))
    chunk = int(chunk)
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    # A fresh key per call (hash=False): a content-hashed key is shared with an earlier call on the same graph,
    # whose release can still be under way on the scheduler, and the new tasks would then lose their input.
    Gf = client.scatter(G, broadcast=True, hash=False)
    cuts = list(range(0, k, chunk))
    pairs = [client.submit(_rows, kernel, Gf, sources[a : a + chunk], method, predecessors, pure=False,
                           workers=[workers[c % len(workers)]], allow_other_workers=True)
             for c, a in enumerate(cuts)]
    stops = [client.submit(_stop, f, pure=False) for f in pairs]  # run where f's rows are; return a few bytes
    wait(stops)
    for f in pairs:
        if f.status == "error":
            f.result()  # a failure that is no input error (a bug, lost workers): raised as Dask reports it
    for stop in client.gather(stops):
        if stop is not None:
            raise stop.error
    if G.device == "gpu":
        import cupy

        metas = (cupy.empty((0, 0), dtype), cupy.empty((0, 0), np.int32))
    else:
        metas = (np.empty((0, 0), dtype), np.empty((0, 0), np.int32))
    out = []
    for i, dt in ((0, dtype), (1, np.dtype(np.int32)))[: 2 if predecessors else 1]:
        blocks = [da.from_delayed(dask.delayed(client.submit(_part, f, i, workers=[workers[c % len(workers)]],
                                                             allow_other_workers=True)),
                                  (min(chunk, k - a), n), dtype=dt, meta=metas[i])
                  for c, (a, f) in enumerate(zip(cuts, pairs))]
        out.append(da.concatenate(blocks, axis=0) if blocks else da.zeros((0, n), dtype=dt))
    return out[0], (out[1] if predecessors else None)
