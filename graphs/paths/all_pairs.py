"""All-pairs shortest paths of a graph by the route that fits: dense closure or one search per source.

:func:`all_pairs_shortest_paths` asks the planner (:func:`plan_all_pairs`) for a
route, given the graph's size, arc count and weights, the memory available
and whether the result goes to disk:

* ``"dense"``: the in-core closure of :func:`apsp.shortest_paths`, the graph's
  dense matrix built directly in the result buffer;
* ``"sparse"``: one search per source over batches of sources, each batch's
  rows written into the result -- breadth-first search (direction-optimising,
  Beamer, Asanovic & Patterson, SC 2012) for an unweighted graph, Dijkstra
  (:func:`graphs.multi_source_sssp`, Johnson's reweighting for negative
  weights) otherwise.  ``O(n (n + m))`` work instead of ``n^3``, and the
  result may be a ``numpy.memmap`` on disk, written row by row.

When nothing fits, :class:`apsp.PlanError` is raised before anything is
allocated.  Long runs show a tqdm progress bar on a terminal.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

import apsp
from apsp.partial_out import noting_partial_out
from apsp.planner import Plan, cpu_cores

from ..door import check_weights, prepare
from ..graph import Graph
from ..traversal import _bfs_kernels as BK
from .all_pairs_plan import plan_all_pairs, plan_graph, sparse_batch
from .engine import hop_weights
from .many_source import search_rows

if TYPE_CHECKING:
    from semiring.array_types import Array, DTypeLike, Where

__all__ = ["all_pairs_shortest_paths", "plan_all_pairs"]

#: Seconds of estimated work above which a progress bar is shown (on a terminal).
PROGRESS_AFTER = 2.0


def all_pairs_shortest_paths(
    G: Any,
    *,
    dtype: DTypeLike | None = None,
    out: Any = None,
    device: Where = "cpu",
    memory_limit: int | None = None,
    method: str = "auto",
    plan: Plan | None = None,
    progress: bool | None = None,
) -> Array:
    """Distances between all pairs of vertices, by the route that fits (see the module docstring).

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Unweighted graphs give hop counts.
    dtype : dtype, optional
        The result's dtype; default: float32 where it is exact (integer
        weights whose path sums stay below ``2**24``, or unweighted), else
        float64 (the planner's choice).
    out : numpy.ndarray or numpy.memmap (n, n), optional
        Where the result is written.  A ``numpy.memmap`` (for instance
        ``numpy.lib.format.open_memmap("D.npy", mode="w+", dtype=..., shape=(n, n))``)
        keeps a result larger than memory on disk: the sparse route writes it
        row by row.  Written in place, it cannot be written atomically: when
        the call fails after its checks (a negative cycle, an error,
        ``KeyboardInterrupt``), ``out`` holds a partly written result and the
        exception carries a note saying so (:mod:`apsp.partial_out`).  For a
        file that appears complete or not at all, use
        :func:`graphs.atomic_file.atomic_memmap` (as ``semiring-paths apsp
        --out`` does).
    device : {"cpu", "gpu"}
    memory_limit : int, optional
        Host bytes the run may add (default: 85% of what is available).
    method : str
        ``"auto"`` or a dense method of :func:`apsp.shortest_paths` (which
        forces the dense route).
    plan : apsp.Plan, optional
        A plan from :func:`plan_all_pairs` (not computed again).
    progress : bool, optional
        Show a progress bar; default: on a terminal, for work estimated over
        two seconds.

    Returns
    -------
    D : array (n, n)
        ``D[i, j]``: the distance from ``i`` to ``j``, ``inf`` when ``j`` is
        unreachable (``out`` when given).

    Raises
    ------
    apsp.PlanError
        Nothing fits; the message gives the estimate and the alternatives.
    NegativeCycleError, GraphError

    Examples
    --------
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 0], n=4)
    >>> all_pairs_shortest_paths(G, memory_limit=2**12)
    array([[ 0.,  1.,  2., inf],
           [ 2.,  0.,  1., inf],
           [ 1.,  2.,  0., inf],
           [inf, inf, inf,  0.]], dtype=float32)
    """
    G = prepare(G, facts=True).graph  # (the weight facts: the sparse route's check of -inf weights)
    if out is not None and not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray or numpy.memmap, got {type(out).__name__}")
    pl = plan if plan is not None else plan_graph(
        G, dtype=dtype, out=out, device=device, memory_limit=memory_limit, method=method)
    if pl.route != "sparse":
        return apsp.shortest_paths(G, method=method, dtype=pl.dtype, out=out, device=pl.device,  # type: ignore[call-overload]  # method and device: strings the plan checked
                                   memory_limit=memory_limit, progress=progress)  # (which notes a partial out=)
    n = G.n
    G = G.to("cpu")
    if out is not None and (out.shape != (n, n) or out.dtype != pl.dtype):
        raise apsp.PlanError(f"out must be an ({n}, {n}) array of {pl.dtype}, got {out.shape} {out.dtype}")
    D = np.empty((n, n), dtype=pl.dtype) if out is None else out
    show = progress if progress is not None else pl.est_seconds > PROGRESS_AFTER
    with noting_partial_out(out), _bar(n, show, f"apsp {pl.method} n={n}") as bar:
        if pl.method == "bfs":
            _bfs_rows(G, D, bar)
        else:
            _dijkstra_rows(G, D, sparse_batch(n, pl.dtype), bar)
    if isinstance(D, np.memmap):
        D.flush()
    return D


def _bar(total: int, show: bool | None, desc: str) -> Any:
    from apsp.progress import tqdm  # type: ignore[attr-defined]  # apsp.progress imports tqdm for its users; the text bar, or the Jupyter widget where ipywidgets is present

    return tqdm(total=total, desc=desc, unit="rows", disable=not show, mininterval=0.5, leave=False)


def _dijkstra_rows(G: Graph, out: np.ndarray, batch: int, bar: Any) -> None:
    """Rows of ``out`` from the shortest-path engine's Dijkstra (:func:`graphs.multi_source_sssp`'s) over batches
    of sources."""
    n = G.n
    if G.weights is None:
        G = hop_weights(G)
    else:
        check_weights(G, "bellman-ford")  # a -inf weight: once, before the first batch
    for r0 in range(0, n, batch):
        r1 = min(n, r0 + batch)
        D, _ = search_rows(G, np.arange(r0, r1, dtype=np.int32), "dijkstra", predecessors=False)
        unreached = D == (np.inf if D.dtype.kind == "f" else np.iinfo(D.dtype).max)
        out[r0:r1] = D
        if unreached.any():  # the sentinel of out's dtype: inf, or the integer maximum (saturating)
            out[r0:r1][unreached] = np.inf if out.dtype.kind == "f" else np.iinfo(out.dtype).max
        bar.update(r1 - r0)


def _bfs_rows(G: Graph, out: np.ndarray, bar: Any) -> None:
    """Rows of ``out`` as hop counts, one direction-optimising BFS per source, sources on all cores."""
    n = G.n
    T = G.transpose()
    workers = cpu_cores()
    inf = np.inf if out.dtype.kind == "f" else np.iinfo(out.dtype).max

    def run(part: int) -> None:
        level = np.empty(n, dtype=np.int32)
        parent = np.empty(n, dtype=np.int32)
        t_mode = np.empty(n, dtype=np.int8)
        t_nf = np.empty(n, dtype=np.int64)
        t_edges = np.empty(n, dtype=np.int64)
        done = 0
        last = time.perf_counter()
        for s in range(part, n, workers):
            level.fill(-1)
            parent.fill(-1)
            BK.bfs_levels(G.indptr, G.indices, T.indptr, T.indices, s, BK.AUTO, 3.0, 18.0,
                          level, parent, t_mode, t_nf, t_edges)
            row = out[s]
            row[...] = level
            row[level < 0] = inf
            done += 1
            now = time.perf_counter()
            if now - last > 0.2:
                bar.update(done)
                done, last = 0, now
        bar.update(done)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for f in [pool.submit(run, p) for p in range(workers)]:
            f.result()
