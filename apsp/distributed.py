"""All-pairs shortest paths on a Dask cluster: blocked Floyd-Warshall as tasks on pinned tiles.

:func:`apsp.shortest_paths` comes here when it is given ``client=`` (a
:class:`distributed.Client`) or a :class:`dask.array.Array` (then the default
client).  The matrix is cut into ``b x b`` tiles, each owned by one worker of
a 2-D block-cyclic layout over a ``pr x pc`` grid of the ``p`` workers
(:func:`apsp.tile_schedule.owner`), and round ``K`` of blocked Floyd-Warshall
(Venkataraman, Sahni & Mukhopadhyaya 2003) is four kinds of tasks
(:mod:`apsp.tile_schedule`): close the diagonal tile, update the ``K``-th row
and column panels, then one semiring GEMM ``T[I, J] (+)= T[I, K] (x) T[K, J]``
per remaining tile, in the library's GEMM kernels (Numba on NumPy tiles of CPU
workers, CUDA on CuPy tiles of GPU workers, e.g. one worker per GPU from
``dask_cuda.LocalCUDACluster``).

Placement and traffic.  Every task runs on the owner of the tile it writes
(``workers=[owner]``), so a tile never moves between rounds; the tiles a task
reads from other workers (the diagonal tile, the panel tiles) are fetched by
Dask once per worker and round, whatever the number of tasks there that read
them.  Per round the diagonal tile goes to the owners of the panel tiles, row
panel tile ``T[K, J]`` to the ``pr`` owners of tile column ``J`` and column
panel tile ``T[I, K]`` to the ``pc`` owners of tile row ``I``: at most
``n b (pr + pc - 2)`` elements (plus ``(pr + pc) b^2`` for the diagonal), and
``n^2 (pr + pc - 2)`` over the ``n / b`` rounds, that is ``2 n^2 / sqrt(p)``
received per worker on a square grid: the 2-D cost of Solomonik, Buluc &
Demmel (IPDPS 2013) for blocked Floyd-Warshall, the schedule Sao et al.
(HPDC 2021) ran on Summit.  ``benchmarks/results/distributed-analysis.md``
derives it and what it means for GPU clusters.  No tile goes through the
client: NumPy input is scattered from it once (tile to owner), a dask array's
chunks are computed on their owners, and results are gathered once.

Input and output.  NumPy / CuPy / ``numpy.ma`` / ``scipy.sparse`` input (and
graphs, built densely on the client) gives a gathered array of the same kind,
like the single-process call; a :class:`dask.array.Array` gives
:class:`dask.array.Array` results whose tiles stay in the workers' memory
(already computed: the call waits for the closure and its negative-cycle
check).  To keep the result of a NumPy matrix on the cluster, pass
``dask.array.from_array(W, chunks=b)``.

Recovery.  Tasks are pinned strictly (``allow_other_workers=False``: with
loose pins Dask's work stealing would move tiles to idle workers), so a task
whose worker died could only wait; the driver watches the cluster while the
run is under way and, when one of its workers has left, cancels the run and
starts it again on the workers present, from the input (which the client, or
the dask array's lineage, still holds), up to :data:`ATTEMPTS` times, then
raises :class:`WorkerLostError`.  No step writes into its inputs and nothing
of a cancelled attempt is reused: a lost worker costs time, never a wrong
distance.

Progress: Dask's dashboard (``client.dashboard_link``) shows the tasks
(``apsp-close-diagonal``, ``apsp-row-panel``, ``apsp-column-panel``,
``apsp-interior``); ``progress=True`` also shows :func:`distributed.progress`.

Nothing else in the package imports Dask, and this module imports it only
inside its functions.
"""

from __future__ import annotations

import sys
import uuid
from typing import TYPE_CHECKING, Any

import numpy as np

import semiring as sr
from semiring.backend import is_cupy_array
from semiring.errors import DeviceError, DTypeError, ShapeError, UnsupportedOperationError
from semiring.validate import check_array, check_matrix

from .arguments import as_count
from .exact_integers import sums_may_leave_int32
from .matrix_input import matrix_source
from .negative_cycle import raise_for_cycle
from .tile_schedule import (
    Stopped,
    bad_diagonal,
    close_diagonal_tile,
    column_panel_tile,
    dense_tile,
    finished_tile,
    finite_extent,
    interior_tile,
    owner,
    prepare_tile,
    process_grid,
    row_panel_tile,
    tile_ranges,
)

if TYPE_CHECKING:
    from distributed import Client

    from semiring import Semiring

__all__ = ["distributed_shortest_paths", "cluster_workers", "is_dask_array", "WorkerLostError", "DEFAULT_TILE", "ATTEMPTS", "CYCLE_SEARCH_MAX"]

#: Default tile size ``b`` on CPU and GPU workers (``block_size=`` overrides it).
DEFAULT_TILE = {"cpu": 2048, "gpu": 8192}  # CPU: the best of 512 / 1024 / 2048 at n = 4096 on 2 workers
#: Attempts of a run when workers leave the cluster (each starts again from the input).
ATTEMPTS = 3
#: Seconds between two looks at the cluster's workers while a run is under way.
WATCH_S = 0.5
#: Largest ``n`` for which a negative cycle found in a dask-array input is traced
#: (the input is then computed on the client); above it, the error names a vertex.
CYCLE_SEARCH_MAX = 16384

_EXTRA = 'the Dask extra: pip install "semiring-paths[dask]" (dask-cuda for one worker per GPU)'


def is_dask_array(W: Any) -> bool:
    """True for a :class:`dask.array.Array` (without importing Dask).

    >>> is_dask_array(np.zeros(2))
    False
    """
    return (type(W).__module__ or "").startswith("dask.") and hasattr(W, "chunks") and hasattr(W, "dask")


def _distributed():
    try:
        import distributed
    except ImportError as err:  # pragma: no cover - the extra is installed in the tests
        raise ImportError(f"apsp.shortest_paths(..., client=) needs {_EXTRA}") from err
    return distributed


def _client(client):
    distributed = _distributed()
    if client is None:
        try:
            return distributed.default_client()
        except ValueError:
            raise UnsupportedOperationError(
                "W is a dask array but there is no Dask client: pass client= (a distributed.Client; "
                "creating one makes it the default), or W.compute() for a single-process run"
            ) from None
    if not isinstance(client, distributed.Client):
        raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}")
    return client


def _check_semiring(S: "Semiring", predecessors: bool, method: str) -> None:
    if method not in ("auto", "blocked-fw"):
        raise UnsupportedOperationError(
            f"on a Dask cluster the closure runs blocked Floyd-Warshall: use method='auto' or "
            f"'blocked-fw', got {method!r}"
        )
    why = S.closure_obstacle()  # not idempotent, not distributive, or no identity: semiring.families.Capabilities
    if why is not None:
        raise UnsupportedOperationError(why)
    if predecessors and not S.selective:
        raise UnsupportedOperationError(f"predecessors=True needs a selective add (min, max, or); {S.name} combines values")


class _Input:
    """What the driver needs of ``W``: size, dtype, device and how to make tile ``(I, J)`` on its owner."""

    def __init__(self, kind: str, n: int, dtype, device: str, data: Any, original: Any, src=None) -> None:
        self.kind, self.n, self.dtype, self.device = kind, n, np.dtype(dtype), device
        self.data, self.original, self.src = data, original, src


def _input(W, S: "Semiring", dtype) -> _Input:
    """Validate ``W`` on the client (a dask array: its shape and dtype here, its entries on the workers)."""
    if is_dask_array(W):
        if W.ndim != 2 or W.shape[0] != W.shape[1]:
            raise ShapeError(f"W must be square (an adjacency matrix), got shape {tuple(W.shape)}")
        S.check_dtype("W", W.dtype)
        meta = getattr(W, "_meta", None)
        dev = "gpu" if is_cupy_array(meta) else "cpu"
        return _Input("dask", int(W.shape[0]), W.dtype if dtype is None else dtype, dev, W, W)
    if isinstance(W, np.ma.MaskedArray):
        check_array("W", W)
        S.check_dtype("W", W.dtype)
        W = np.where(np.ma.getmaskarray(W), S.zero_value(W.dtype), np.ma.getdata(W)).astype(W.dtype, copy=False)
    if isinstance(W, np.ndarray) or is_cupy_array(W):
        check_array("W", W)
        check_matrix("W", W, S)
        if W.shape[0] != W.shape[1]:
            raise ShapeError(f"W must be square (an adjacency matrix), got shape {tuple(W.shape)}")
        dev = "gpu" if is_cupy_array(W) else "cpu"
        return _Input("dense", int(W.shape[0]), W.dtype if dtype is None else dtype, dev, W, W)
    src = matrix_source("W", W, S, dtype)
    if "scipy.sparse" in sys.modules and src.device == "cpu":
        import scipy.sparse as sp

        if sp.issparse(W):
            return _Input("sparse", src.n, src.dtype, "cpu", W.tocoo(), lambda: src.fill(None), src)
    D = src.fill(None)  # graphs and GPU sparse matrices: built on the client
    check_matrix("W", D, S)
    return _Input("dense", src.n, src.dtype, src.device, D, D)


def _wide_int32(inp: _Input, S: "Semiring", client, tiles) -> bool:
    """Whether an int32 closure must run in int64 (:mod:`apsp.exact_integers`), decided on the client."""
    if inp.dtype != np.int32 or not S.capabilities.mul_is_plus or inp.n < 2:
        return False
    if inp.kind == "dense" and inp.data.dtype == np.int32:
        return sums_may_leave_int32(inp.data, S)
    big = max(client.gather([client.submit(finite_extent, t, pure=False, workers=w)
                             for t, w in tiles]), default=0)
    return 2 * (inp.n - 1) * big >= np.iinfo(np.int32).max


def distributed_shortest_paths(
    W,
    method: str = "auto",
    *,
    semiring: "Semiring | str" = sr.min_plus,
    predecessors: bool = False,
    device: str = "auto",
    block_size: int | None = None,
    progress: bool | None = None,
    out=None,
    dtype=None,
    client=None,
    gather: bool | None = None,
    **ignored: Any,
):
    """The closure of ``W`` (and its predecessors) on a Dask cluster: what ``apsp.shortest_paths(W, client=...)`` runs.

    Parameters
    ----------
    W : array (n, n), dask.array.Array, sparse matrix or graph
        As :func:`apsp.shortest_paths` accepts it, or a :class:`dask.array.Array`
        (NumPy or CuPy chunks; rechunked to ``b x b`` tiles when its chunks differ).
    method : {"auto", "blocked-fw"}
        The schedule is blocked Floyd-Warshall.
    semiring, predecessors, dtype
        As in :func:`apsp.shortest_paths`.
    device : {"auto", "cpu", "gpu"}
        Where the workers compute: ``"gpu"`` puts the tiles in CuPy arrays on
        the workers (one GPU each: ``dask_cuda.LocalCUDACluster``);
        ``"auto"``: where ``W`` lives.
    block_size : int, optional
        The tile size ``b`` (default :data:`DEFAULT_TILE`).
    progress : bool, optional
        ``True``: :func:`distributed.progress` over the run (the dashboard
        shows it in any case).
    out : numpy.ndarray (n, n), optional
        Gather the distances into it.
    client : distributed.Client, optional
        Default: the default client (``distributed.default_client()``).
    gather : bool, optional
        ``True``: NumPy/CuPy results on the client; ``False``: dask arrays
        whose tiles stay on the workers.  Default: ``False`` exactly when
        ``W`` is a dask array.
    **ignored
        ``memory_budget`` and ``memory_limit`` of the single-process call
        (per-worker memory is Dask's to manage).

    Returns
    -------
    D : array (n, n) or dask.array.Array
    P : array (n, n) of int32 or dask.array.Array, with ``predecessors=True``

    Raises
    ------
    NegativeCycleError
        As single-process (the cycle is traced on the client, from the input).
    InvalidEntryError
        An entry of a dask array (or sparse matrix) the semiring rejects, found
        on the worker that prepares its tile, named with the tile.

    Both are found by the tile tasks, which return a status rather than raise
    (:class:`apsp.tile_schedule.Stopped`): the workers log no failed task.
    UnsupportedOperationError
        Another ``method``, a non-idempotent semiring, a dask array without
        a client.
    TypeError
        ``client`` is not a ``distributed.Client``.

    Examples
    --------
    >>> import apsp
    >>> W = np.array([[0.0, 3.0, np.inf], [np.inf, 0.0, -1.0], [2.0, np.inf, 0.0]])
    >>> distributed_shortest_paths(W)  # doctest: +SKIP
    array([[ 0.,  3.,  2.],
           [ 1.,  0., -1.],
           [ 2.,  5.,  0.]])
    """
    S = sr.get(semiring)
    _check_semiring(S, predecessors, method)
    if block_size is not None:
        as_count("block_size", block_size)
    if dtype is not None:
        S.check_dtype("dtype", np.dtype(dtype))
    client = _client(client)
    inp = _input(W, S, dtype)
    dev = inp.device if device == "auto" else device
    if dev not in ("cpu", "gpu"):
        raise DeviceError(f"device must be 'auto', 'cpu' or 'gpu', got {device!r}")
    gather = inp.kind != "dask" if gather is None else bool(gather)
    if out is not None:
        _check_out(out, inp.n, inp.dtype, gather)
    n = inp.n
    b = as_count("block_size", block_size) if block_size is not None else DEFAULT_TILE[dev]
    b = max(1, min(b, n))
    ranges = tile_ranges(n, b)
    for attempt in range(ATTEMPTS):
        workers = _workers(client)
        try:
            parts, flags, ranges, wide = _submit(client, S, inp, ranges, workers, dev, predecessors, gather)
            if progress:
                _show_progress(flags + [f for p in parts for f in p.values()])
            _wait(client, flags + [f for p in parts for f in p.values()], workers)
            break
        except _WorkersLost as lost:
            if attempt == ATTEMPTS - 1:
                raise WorkerLostError(
                    f"the Dask cluster lost workers during each of {ATTEMPTS} attempts (last: {lost}); "
                    "no result was returned"
                ) from None
    bad = client.gather(flags)
    _raise_if_stopped(S, inp, bad)
    bad_all = np.concatenate(bad) if bad else np.zeros(0, np.int64)
    if bad_all.size:
        raise_for_cycle(S, _cycle_source(inp), int(bad_all[0]), bad_all)
    if not gather:
        arrays = [_dask_array(p, ranges, inp.dtype if part == 0 else np.dtype(np.int32), dev)
                  for part, p in enumerate(parts)]
        return tuple(arrays) if predecessors else arrays[0]
    results = []
    for part, p in enumerate(parts):
        dt = inp.dtype if part == 0 else np.int32
        xp = _cupy() if _on_gpu_client(inp) else np
        R = out if (part == 0 and out is not None) else xp.empty((n, n), dtype=dt)
        keys = list(p)
        for (i, j), tile in zip(keys, client.gather([p[key] for key in keys])):
            R[ranges[i][0] : ranges[i][1], ranges[j][0] : ranges[j][1]] = tile
        results.append(R)
    return tuple(results) if predecessors else results[0]


def _raise_if_stopped(S: "Semiring", inp: _Input, checks: list) -> None:
    """Raise the error a :class:`~apsp.tile_schedule.Stopped` diagonal check carries: an input error first, else the cycle.

    The tile steps return these instead of raising on the workers (a task that
    raises is logged there with a traceback, "Compute Failed"); the cycle
    through the vertex found is traced here, from the input.
    """
    stops = [c for c in checks if isinstance(c, Stopped)]
    for stop in stops:
        if stop.error is not None:
            raise stop.error
    if stops:
        raise_for_cycle(S, _cycle_source(inp), stops[0].vertex, None)


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


def _workers(client) -> list[str]:
    workers = cluster_workers(client)
    if not workers:
        raise DeviceError("the Dask cluster has no workers")
    return workers


def _on_gpu_client(inp: _Input) -> bool:
    return inp.kind == "dense" and is_cupy_array(inp.data)


def _wait(client, futures: list, workers: list[str]) -> None:
    """Wait for ``futures``; if one of ``workers`` leaves the cluster, cancel them and raise :class:`_WorkersLost`.

    Tasks are pinned to their workers (strictly: work stealing would move
    tiles), so a task whose worker is gone would wait for ever: the run is
    started again on the workers present instead (from the input, which the
    client or the dask array's lineage still holds).
    """
    distributed = _distributed()
    while True:
        try:
            distributed.wait(futures, timeout=WATCH_S)
            return
        except (TimeoutError, distributed.TimeoutError):
            gone = set(workers) - set(cluster_workers(client))
            if gone:
                client.cancel(futures)
                raise _WorkersLost(", ".join(sorted(gone)) + " left") from None


def _show_progress(futures: list) -> None:
    """:func:`distributed.progress`: a widget in Jupyter, else a text bar from a background thread."""
    import threading

    distributed = _distributed()
    if "ipykernel" in sys.modules:
        distributed.progress(futures, notebook=True)
        return
    threading.Thread(target=distributed.progress, args=(futures,), kwargs={"notebook": False}, daemon=True).start()


def _submit(client, S: "Semiring", inp: _Input, ranges, workers: list[str], dev: str, predecessors: bool,
            gather: bool):
    """Submit the whole schedule; returns the result tiles' futures (per part), the diagonal checks, ranges, wide."""
    grid = process_grid(len(workers))
    K = len(ranges)
    token = uuid.uuid4().hex[:12]

    def where(i: int, j: int) -> dict:
        return {"workers": [workers[owner(i, j, grid)]], "allow_other_workers": False, "pure": False}

    raw = _raw_tiles(inp, S, client, ranges, where, token)
    wide = _wide_int32(inp, S, client, [(raw[i, j], where(i, j)["workers"]) for i in range(K) for j in range(K)])
    check = inp.kind != "dense" or inp.data.dtype != inp.dtype  # dense input was validated here, before a cast
    T = {}
    for i, (r0, _) in enumerate(ranges):
        for j, (c0, _) in enumerate(ranges):
            T[i, j] = client.submit(prepare_tile, S, raw[i, j], r0, c0, predecessors, inp.dtype, dev, wide, check,
                                    key=f"apsp-prepare-{token}-{i}-{j}", priority=8, **where(i, j))
    del raw
    for k in range(K):
        T = _round(client, S, T, k, ranges, where, token, predecessors)
    flags = [client.submit(bad_diagonal, S, T[k, k], ranges[k][0], key=f"apsp-check-{token}-{k}", **where(k, k))
             for k in range(K)]
    home = None if not gather else ("gpu" if _on_gpu_client(inp) else "cpu")
    parts = [{(i, j): client.submit(finished_tile, T[i, j], part, wide, home, key=f"apsp-{name}-{token}-{i}-{j}",
                                    **where(i, j)) for i in range(K) for j in range(K)}
             for part, name in ((0, "distances"), (1, "predecessors"))[: 2 if predecessors else 1]]
    return parts, flags, ranges, wide


def _round(client, S: "Semiring", T: dict, k: int, ranges, where, token: str, predecessors: bool) -> dict:
    """Submit round ``k``: the diagonal, the two panels, the rest.  Returns the tiles after the round.

    Priorities: earlier rounds first; within a round the diagonal, then the
    panels, then the tiles of row and column ``k + 1`` (the next round's
    panels: look-ahead), then the others.
    """
    K = len(ranges)
    base = -4 * k  # round k + 1's diagonal and panels outrank round k's interior: look-ahead
    off = ranges[k][0]
    new = dict(T)
    diag_before = T[k, k]
    new[k, k] = diag = client.submit(close_diagonal_tile, S, diag_before, off,
                                     key=f"apsp-close-diagonal-{token}-{k}", priority=base + 6, **where(k, k))
    for j in range(K):
        if j != k:
            before = diag_before if predecessors else None  # only the panel's Floyd-Warshall reads it
            new[k, j] = client.submit(row_panel_tile, S, diag, before, T[k, j], priority=base + 5,
                                      key=f"apsp-row-panel-{token}-{k}-{j}", **where(k, j))
    column = {}
    for i in range(K):
        if i != k:
            new[i, k] = client.submit(column_panel_tile, S, T[i, k], diag, priority=base + 5,
                                      key=f"apsp-column-panel-{token}-{k}-{i}", **where(i, k))
            # the interior reads the old column tile's distances only (a separate key: P does not travel)
            column[i] = client.submit(_distances, T[i, k], priority=base + 5,
                                      key=f"apsp-column-distances-{token}-{k}-{i}", **where(i, k)) \
                if predecessors else T[i, k]
    for i in range(K):
        for j in range(K):
            if i != k and j != k:
                ahead = 4 if (i == k + 1 or j == k + 1) else 0
                A = column[i]
                new[i, j] = client.submit(interior_tile if predecessors else _interior_pair, S, T[i, j], A, new[k, j],
                                          priority=base + ahead, key=f"apsp-interior-{token}-{k}-{i}-{j}",
                                          **where(i, j))
    return new


def _distances(tile):
    """``D`` of a tile (a :class:`~apsp.tile_schedule.Stopped` tile as it is)."""
    return tile if isinstance(tile, Stopped) else tile[0]


def _interior_pair(S: "Semiring", tile, column_tile, row_after):
    """:func:`~apsp.tile_schedule.interior_tile` with the whole old column tile (distances only: ``P`` is ``None``)."""
    return interior_tile(S, tile, _distances(column_tile), row_after)


def _raw_tiles(inp: _Input, S: "Semiring", client, ranges, where, token: str) -> dict:
    """Futures of the input's tiles, each on its owner: scattered (arrays), built there (sparse) or computed there (dask)."""
    K = len(ranges)
    raw: dict = {}
    if inp.kind == "dask":
        X = inp.data
        b = ranges[0][1] - ranges[0][0]
        if X.chunks != ((b,) * (K - 1) + (inp.n - b * (K - 1),),) * 2:
            X = X.rechunk((b, b))
        blocks = X.to_delayed()
        for i in range(K):
            for j in range(K):
                w = where(i, j)
                raw[i, j] = client.compute(blocks[i, j], workers=w["workers"], allow_other_workers=False)
        return raw
    by_owner: dict = {}
    if inp.kind == "dense":
        for i, (r0, r1) in enumerate(ranges):
            for j, (c0, c1) in enumerate(ranges):
                by_owner.setdefault(where(i, j)["workers"][0], []).append(((i, j), inp.data[r0:r1, c0:c1]))
    else:  # scipy.sparse: the arcs of each tile go to its owner, the dense tile is built there
        C = inp.data
        b = ranges[0][1] - ranges[0][0]
        ti, tj = C.row // b, C.col // b
        order = np.lexsort((tj, ti))
        tid = (ti * K + tj)[order]
        cuts = np.searchsorted(tid, np.arange(K * K + 1))
        rows, cols = C.row[order], C.col[order]
        vals = C.data[order]
        weighted = C.data.dtype != np.bool_
        for i, (r0, _) in enumerate(ranges):
            for j, (c0, _) in enumerate(ranges):
                s = slice(cuts[i * K + j], cuts[i * K + j + 1])
                arcs = (rows[s] - r0, cols[s] - c0, vals[s])
                by_owner.setdefault(where(i, j)["workers"][0], []).append(((i, j), arcs))
        scattered = {}
        for w, items in by_owner.items():
            futs = client.scatter([a for _, a in items], workers=[w], hash=False)
            scattered.update({ij: f for (ij, _), f in zip(items, futs)})
        for (i, j), f in scattered.items():
            shape = (ranges[i][1] - ranges[i][0], ranges[j][1] - ranges[j][0])
            raw[i, j] = client.submit(_sparse_tile, S, shape, f, inp.dtype, weighted,
                                      key=f"apsp-arcs-{token}-{i}-{j}", **where(i, j))
        return raw
    for w, items in by_owner.items():
        futs = client.scatter([a for _, a in items], workers=[w], hash=False)
        raw.update({ij: f for (ij, _), f in zip(items, futs)})
    return raw


def _sparse_tile(S: "Semiring", shape, arcs, dtype, weighted: bool):
    rows, cols, vals = arcs
    return dense_tile(S, shape, rows, cols, vals, dtype, weighted)


def _cycle_source(inp: _Input):
    """What :func:`~apsp.negative_cycle.raise_for_cycle` searches: the input, a function building it, or ``None``."""
    if inp.kind == "dask":
        if inp.n > CYCLE_SEARCH_MAX:
            return None
        X = inp.data

        def compute():
            H = X.compute()
            return H.get() if is_cupy_array(H) else H

        return compute
    return inp.original


def _dask_array(futures: dict, ranges, dtype, dev: str):
    """A :class:`dask.array.Array` over the tile futures (tiles stay where they are)."""
    import dask
    import dask.array as da

    K = len(ranges)
    meta = _cupy().empty((0, 0), dtype) if dev == "gpu" else np.empty((0, 0), dtype)
    rows = []
    for i in range(K):
        rows.append([da.from_delayed(dask.delayed(futures[i, j]), (ranges[i][1] - ranges[i][0],
                                                                  ranges[j][1] - ranges[j][0]), dtype=dtype, meta=meta)
                     for j in range(K)])
    return da.block(rows) if K else da.zeros((0, 0), dtype=dtype)


def _check_out(out, n: int, dtype, gather: bool) -> None:
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
    if not gather:
        raise UnsupportedOperationError("out= gathers the result: it cannot be used with a dask-array result")
    if out.shape != (n, n):
        raise ShapeError(f"out must have shape {(n, n)}, got {tuple(out.shape)}")
    if out.dtype != dtype:
        raise DTypeError(f"out must have dtype {dtype}, got {out.dtype}")


def _cupy():
    import cupy

    return cupy
