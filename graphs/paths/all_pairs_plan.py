"""The plan of a graph's all-pairs distances: the matrix routes of :mod:`apsp.planner`, or one search per source.

A graph offers one route a matrix does not: ``"sparse"``, a search from every
source over batches of sources, each batch's rows written into the result (an
array, or a ``numpy.memmap`` on disk, written row by row); ``O(n (n + m))``
work instead of ``n^3``.  :func:`plan_all_pairs` weighs it against the matrix
routes (:func:`apsp.planner.candidates`) with the same budget and the same
choice (:func:`apsp.planner.choose`), and when nothing fits raises the
planner's refusal (:func:`apsp.planner.refusal`) with the graph's own
alternatives.

Constant rates, measured on SNAP's email-Enron (36,692 vertices, 367,662
arcs) on 2 AMD EPYC cores: :func:`graphs.multi_source_sssp` scanned 75 M
arcs/s, a direction-optimising BFS per source took 0.59 ms (690 M arcs/s
equivalent).  The constants are about a third of that; a caller may pass a
rate measured on the graph itself (``sparse_rate``, as ``semiring-paths
apsp`` does), since a search's speed depends on the graph.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

import numpy as np

from apsp.planner import (
    ROUTES,
    Plan,
    budgets,
    candidate_dtypes,
    candidates,
    check_path_arcs,
    choose,
    cpu_cores,
    format_bytes,
    format_seconds,
    refusal,
)
from semiring.errors import DTypeError, SemiringError

from ..door import prepare
from ..graph import Graph

if TYPE_CHECKING:
    from apsp.planner import Budgets
    from semiring.array_types import DTypeLike

__all__ = ["plan_all_pairs", "plan_graph", "sparse_batch", "sparse_bytes", "sparse_seconds", "SPARSE_RATE", "BFS_RATE"]

#: Arcs (plus vertices) per second per CPU core of many-source Dijkstra (measured: 37 M/s).
SPARSE_RATE = 25e6
#: The same for direction-optimising BFS per source (measured: 690 M/s, as it skips arcs).
BFS_RATE = 250e6
#: Bytes of a batch's buffers on the sparse route (bounded so they stay small).
SPARSE_BATCH_BYTES = 256 * 2**20
#: The routes in the order that breaks ties of time: the matrix routes, the searches before several GPUs.
ORDER = ROUTES[:2] + ("sparse",) + ROUTES[2:]


def sparse_batch(n: int, dtype: DTypeLike) -> int:
    """Sources per batch of the sparse Dijkstra route: buffers (distances, predecessors) of at most
    256 MiB and a 32nd of the rows (at least 16): an eighth of a float32 result at most.

    >>> sparse_batch(36692, np.float32), sparse_batch(1000, np.float64)
    (457, 31)
    """
    per_row = max(n, 1) * (8 + 4 + np.dtype(dtype).itemsize)
    return int(max(1, min(max(n, 1), SPARSE_BATCH_BYTES // per_row, max(16, n // 32))))


def sparse_bytes(n: int, nnz: int, dtype: DTypeLike, result_in_memory: bool = True, weighted: bool = True) -> int:
    """Peak host bytes of the sparse route: the result (unless on disk), one batch of rows, the graph.

    A batch is :func:`sparse_batch` rows of distances and predecessors for
    Dijkstra, a few per-core vectors for BFS.

    >>> sparse_bytes(1000, 5000, np.float32) // 1000
    4632
    """
    if weighted:
        batch = sparse_batch(n, dtype) * n * (8 + 4 + np.dtype(dtype).itemsize)
    else:
        batch = cpu_cores() * n * 32
    graph = (n + 1) * 8 + nnz * 12
    result = n * n * np.dtype(dtype).itemsize if result_in_memory else 0
    return result + batch + 2 * graph


def sparse_seconds(n: int, nnz: int, weighted: bool = True, k: int | None = None,
                   rate: float | None = None) -> float:
    """Estimated seconds of ``k`` (default ``n``) single-source searches over ``n`` vertices and ``nnz`` arcs.

    ``k (n + nnz)`` at ``rate`` (per second, all cores together: a rate
    measured on the graph itself, as ``semiring-paths apsp`` does), else
    Dijkstra at :data:`SPARSE_RATE`, breadth-first search (unweighted) at
    :data:`BFS_RATE`, per core; sources run in parallel.

    >>> sparse_seconds(1000, 9000, weighted=False) < sparse_seconds(1000, 9000, weighted=True)
    True
    """
    k = n if k is None else k
    work = float(k) * (n + nnz)
    if rate is not None:
        return work / float(rate)
    return work / ((SPARSE_RATE if weighted else BFS_RATE) * cpu_cores())


def plan_all_pairs(
    G: Any,
    *,
    dtype: DTypeLike | None = None,
    out: Any = None,
    device: str = "cpu",
    memory_limit: int | None = None,
    method: str = "auto",
    on_disk: bool = False,
    sparse_rate: float | None = None,
    path_arcs: int | None = None,
) -> Plan:
    """The :class:`apsp.Plan` :func:`graphs.all_pairs_shortest_paths` would follow for ``G``.

    The candidates are the matrix routes of :func:`apsp.planner.candidates`
    and, with ``method="auto"``, one search per source (route ``"sparse"``:
    Dijkstra, or breadth-first search for an unweighted graph); the fastest
    that fits is chosen.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
    dtype : dtype, optional
        The result's dtype; default: the planner's choice (float32 where it is
        exact, else float64).
    out : numpy.ndarray or numpy.memmap, optional
        The result buffer that will be passed (its dtype then fixes ``dtype``;
        a ``dtype`` given too must be the same).
    device : {"cpu", "gpu"}
    memory_limit : int, optional
        Host bytes the run may add (default: 85% of what is available).
    method : str
        ``"auto"`` or a dense method of :func:`apsp.shortest_paths` (which
        forces the dense route).
    on_disk : bool
        The result will be a ``numpy.memmap`` (when ``out`` is not given yet).
    sparse_rate : float, optional
        Arcs (plus vertices) per second the searches scan on this graph, all
        cores together, when measured (default :data:`SPARSE_RATE` or
        :data:`BFS_RATE` per core).
    path_arcs : int, optional
        Arcs of the longest shortest path, known or estimated (sharpens
        repeated squaring's estimate).

    Returns
    -------
    apsp.Plan

    Raises
    ------
    apsp.PlanError
        Nothing fits; the message gives the estimates and the alternatives.
    ValueError
        ``sparse_rate`` or ``path_arcs`` out of range.
    DTypeError
        ``dtype`` (or ``out``'s) is not one of min_plus (float32, float64,
        int32, int64), or differs from ``out``'s.

    Examples
    --------
    >>> H = Graph.from_edges(np.arange(999), np.arange(1, 1000), n=1000)
    >>> plan_all_pairs(H, memory_limit=2**23).route
    'sparse'
    >>> plan_all_pairs(H, memory_limit=2**21, method="rkleene")
    Traceback (most recent call last):
    ...
    apsp.planner.PlanError: the all-pairs result over min_plus (1,000 x 1,000 float32 = 3.8 MiB) does not fit: ...
    ...
    """
    return plan_graph(prepare(G).graph, dtype=dtype, out=out, device=device, memory_limit=memory_limit,
                      method=method, on_disk=on_disk, sparse_rate=sparse_rate, path_arcs=path_arcs)


def plan_graph(G: Graph, *, dtype: DTypeLike | None = None, out: Any = None, device: str = "cpu", memory_limit: int | None = None,
               method: str = "auto", on_disk: bool = False, sparse_rate: float | None = None,
               path_arcs: int | None = None) -> Plan:
    """:func:`plan_all_pairs` of a graph that passed the door (:func:`graphs.door.prepare`): its arguments
    checked, the plan chosen.

    >>> plan_graph(Graph.from_edges([0], [1])).route
    'dense'
    """
    if sparse_rate is not None and (isinstance(sparse_rate, bool) or not isinstance(sparse_rate, numbers.Real)
                                    or not sparse_rate > 0):
        raise SemiringError(f"sparse_rate must be a positive number of arcs per second, got {sparse_rate!r}")
    check_path_arcs(path_arcs)
    if device not in ("cpu", "gpu"):
        raise SemiringError(f"device must be 'cpu' or 'gpu' here, got {device!r}")
    info = G.__semiring_matrix_info__()
    name = "dtype"
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray or numpy.memmap, got {type(out).__name__}")
        if dtype is not None and np.dtype(dtype) != out.dtype:
            raise DTypeError(f"dtype={np.dtype(dtype)} differs from the dtype of out, {out.dtype}; give one of them")
        dtype, name = out.dtype, "out"
    n = G.n
    weighted = G.weights is not None
    on_disk = on_disk or isinstance(out, np.memmap)
    allocated = out is not None and not isinstance(out, np.memmap)
    budget = budgets(memory_limit, None, device)
    dtypes = candidate_dtypes(dtype, info["float32_exact"], name=name)
    cands = candidates(n, dtypes, budget, device=device, method=method, result_allocated=allocated,
                       path_arcs=path_arcs)
    if method == "auto":
        cands += _search_candidates(G, dtypes, budget, on_disk, allocated, sparse_rate)
    best = choose(cands, None if dtype is None else dtypes[0], ORDER)
    if best is not None:
        return best
    dt = np.dtype(min((p for p, _ in cands), key=lambda p: p.est_host_bytes).dtype)
    unmappable = budget.mappable is not None and n * n * dt.itemsize > budget.mappable
    note = (f"; a result mapped from disk needs address space, and {format_bytes(budget.mappable)} of it is left "  # type: ignore[arg-type]  # only reached when a mapped result was planned: mappable is set
            "(ulimit -v)" if unmappable and on_disk and method == "auto" else "")
    rows = ("only the rows you need: graphs.multi_source_sssp(G, sources) "
            f"({format_bytes(n * (dt.itemsize + 4))} per source row)")
    disk = ("a disk-backed result: graphs.all_pairs_shortest_paths(G, out=numpy.lib.format.open_memmap("
            f"'D.npy', mode='w+', dtype='{dt.name}', shape=({n}, {n}))), written row by row"
            f" (~{format_seconds(sparse_seconds(n, G.nnz, weighted, rate=sparse_rate))})"
            + (f"; not under this ulimit -v: mapping it takes {format_bytes(n * n * dt.itemsize)} of address space"
               if unmappable else ""))
    raise refusal(n, "min_plus", cands, budget, device, info["float32_exact"], note, (rows, disk))


def _search_candidates(G: Graph, dtypes: Any, budget: Budgets, on_disk: bool, allocated: bool,
                       sparse_rate: float | None) -> list[tuple[Plan, bool]]:
    """The sparse route in each dtype, with whether it fits the budget (and, on disk, the address space)."""
    n, nnz, weighted = G.n, G.nnz, G.weights is not None
    out = []
    method = "dijkstra" if weighted else "bfs"
    where = "rows written to disk" if on_disk else "rows written into the result"
    for dt in dtypes:
        sb = sparse_bytes(n, nnz, dt, not (on_disk or allocated), weighted)
        ok = sb <= budget.host and not (on_disk and budget.mappable is not None
                                        and sb + n * n * dt.itemsize > budget.mappable)
        out.append((Plan("sparse", method, "cpu", dt, n, sb, 0, sparse_seconds(n, nnz, weighted, rate=sparse_rate),
                         reason=f"sparse graph ({nnz:,} arcs): one search per source, {where}"), ok))
    return out
