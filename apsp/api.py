"""The public entry points: shortest paths, closures, widest and minimax paths.

Every function takes a dense matrix in its semiring's convention (the
semiring ``zero`` off-edge: ``inf`` for ``min_plus``), returns arrays of the
same kind (NumPy or CuPy) and dtype, and validates once: NaN, unsupported
dtypes, non-square input and non-idempotent semirings raise
:class:`~semiring.errors.SemiringError` subclasses; a negative cycle raises
:class:`~apsp.errors.NegativeCycleError`.  The diagonal is taken as
``W[i, i] (+) one`` (for ``min_plus``: ``min(W[i, i], 0)``, so a negative
self loop is a negative cycle); parallel edges are the caller's ``(+)`` (the
minimum) when building ``W``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import semiring as sr
from semiring import Semiring
from semiring.backend import array_module, is_cupy_array, resolve_device, to_device
from semiring.errors import DeviceError, DTypeError, SemiringError, ShapeError, UnsupportedOperationError
from semiring.int_range import sums_in_range
from semiring.validate import check_matrix

from .arguments import as_count
from .base_case import CPU_BASE, GPU_BASE
from .closure_state import Job
from .exact_integers import (
    lower_infinity,
    narrow,
    restore_infinity,
    stand_in_is_exact,
    stand_in_route,
    sums_may_leave_int32,
    widen,
)
from .last_hop import applies, last_hop_predecessors
from .matrix_input import matrix_source
from .methods import MULTI_GPU, NAMES, TABLE
from .multi_device import cuda_lanes, multi_device_closure
from .negative_cycle import raise_if_diverged
from .planner import dense_bytes, device_memory_available, in_core_bytes, plan
from .predecessors import PRED_DTYPE, initial_predecessors
from .progress import Progress
from .working_matrix import working_matrix

__all__ = [
    "METHODS",
    "shortest_paths",
    "closure",
    "transitive_closure",
    "widest_paths",
    "minimax_paths",
    "choose_method",
]

#: A CPU job whose in-core footprint is at most this many bytes runs without a plan (any machine has that much).
SMALL_JOB_BYTES = 64 * 2**20
#: The names ``method=`` accepts (the table of :mod:`apsp.methods`, and ``"auto"``).
METHODS = NAMES


# -- input ---------------------------------------------------------------------------
def unmasked(W, S: Semiring):
    """``W`` as a plain array: a :class:`numpy.ma.MaskedArray`'s masked entries become the semiring ``zero``.

    Masked means "no edge", as in SciPy's ``csgraph_from_masked`` (the data
    under the mask is ignored, even NaN).  Other arrays are returned as they are.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.ma.masked_array([[0.0, 2.0], [np.nan, 0.0]], mask=[[False, True], [True, False]])
    >>> unmasked(W, min_plus)
    array([[ 0., inf],
           [inf,  0.]])
    """
    if not isinstance(W, np.ma.MaskedArray):
        return W
    S.check_dtype("W", W.dtype)
    data = np.ma.getdata(W)
    mask = np.ma.getmaskarray(W)
    if not mask.any():
        return np.array(data)
    return np.where(mask, S.zero_value(data.dtype), data).astype(data.dtype, copy=False)


def check_integer_arguments(block_size=None, memory_budget=None, memory_limit=None) -> None:
    """The integer arguments of the closures are Python or NumPy integers >= 1 (else TypeError / SemiringError).

    >>> check_integer_arguments(block_size=1.5)
    Traceback (most recent call last):
    ...
    TypeError: block_size must be an integer, got float 1.5
    """
    for name, value in (("block_size", block_size), ("memory_budget", memory_budget), ("memory_limit", memory_limit)):
        if value is not None:
            as_count(name, value)


def _check_input(W, S: Semiring, predecessors: bool, method: str) -> None:
    check_matrix("W", W, S)
    if W.shape[0] != W.shape[1]:
        raise ShapeError(f"W must be square (an adjacency matrix), got shape {tuple(W.shape)}")
    if not S.idempotent:
        raise UnsupportedOperationError(
            f"the closure over {S.name} is not computed here: its add is not idempotent, so "
            "I (+) A (+) A^2 (+) ... need not converge (for plus_times with spectral radius < 1 "
            "it is inv(I - A): use numpy.linalg.solve)"
        )
    why = S.closure_obstacle()  # e.g. a mul without a two-sided identity: semiring.families.Capabilities
    if why is not None:
        raise UnsupportedOperationError(why)
    if predecessors and not S.selective:
        raise UnsupportedOperationError(
            f"predecessors=True needs a selective add (min, max, or); {S.name} combines values"
        )
    if method not in METHODS:
        raise SemiringError(f"unknown method {method!r}; use one of: {', '.join(METHODS)}")


def choose_method(n: int, device: str, fits: bool) -> str:
    """What ``method="auto"`` runs.

    R-Kleene everywhere it fits: it does exactly ``n^3`` multiply-adds, almost
    all of them in large GEMMs, and is the fastest here on both devices.  On
    the GPU, a matrix larger than the memory budget runs the streamed
    (out-of-core) blocked Floyd-Warshall of :mod:`apsp.streaming`.  (Repeated
    squaring only wins on dense graphs whose shortest paths have very few
    edges; the reference ``"fw"`` is never chosen.)

    >>> choose_method(4096, "cpu", True), choose_method(10**5, "gpu", False)
    ('rkleene', 'blocked-fw')
    """
    as_count("n", n, minimum=0)
    if device == "gpu" and not fits:
        return "blocked-fw"
    return "rkleene"


# -- the driver ------------------------------------------------------------------------
def shortest_paths(
    W,
    method: str = "auto",
    *,
    semiring: Semiring | str = sr.min_plus,
    predecessors: bool = False,
    device: str = "auto",
    memory_budget: int | None = None,
    block_size: int | None = None,
    progress: bool | None = None,
    out=None,
    dtype=None,
    memory_limit: int | None = None,
    client=None,
    devices=None,
):
    """All-pairs shortest paths: the closure ``W* = I (+) W (+) W^2 (+) ...`` of a dense matrix or a graph.

    Before anything is allocated, :func:`apsp.plan` estimates the memory and
    time of the run and picks its route (in-core, or streamed through the GPU);
    when the result does not fit, :class:`apsp.PlanError` is raised at once
    with the estimate and the alternatives.

    Parameters
    ----------
    W : array (n, n), sparse matrix, NetworkX graph or graphs.Graph
        A dense NumPy or CuPy array: ``W[i, j]`` is the weight of edge
        ``i -> j`` and the semiring ``zero`` (``inf`` for ``min_plus``) where
        there is none.  Negative weights are allowed; NaN is rejected.  The
        diagonal is taken as ``W[i, i] (+) one`` (a self loop only counts if
        it is better than staying put, and then it is a negative cycle).
        Graphs are accepted as the :mod:`graphs` functions accept them
        (:mod:`apsp.matrix_input`): ``scipy.sparse`` / ``cupyx.scipy.sparse``
        matrices (stored entries are arcs, explicit zeros included), NetworkX
        graphs (attribute ``"weight"``, default 1) and objects with
        ``__semiring_matrix__`` such as :class:`graphs.Graph`; their dense
        matrix is built directly in the result buffer.  A
        :class:`numpy.ma.MaskedArray`'s masked entries are no edge (as in
        SciPy's ``csgraph_from_masked``), whatever data lies under the mask.
    method : {"auto", "rkleene", "blocked-fw", "squaring", "fw"}
        ``"rkleene"``: recursive in-place R-Kleene (Buluc, Gilbert & Budak 2010);
        ``"blocked-fw"``: three-phase blocked Floyd-Warshall (Venkataraman et
        al. 2003; Katz & Kider 2008), also the out-of-core method;
        ``"squaring"``: repeated squaring with early exit; ``"fw"``: the
        reference vectorised Floyd-Warshall.  ``"auto"``: see :func:`choose_method`.
    semiring : Semiring or str
        Any idempotent semiring (``min_plus``, ``max_plus`` for DAGs or graphs
        without positive cycles, ``max_min``, ``min_max``, ``lor_land``,
        ``max_times``, custom ones).
    predecessors : bool
        Also return ``P`` (int32): ``P[i, j]`` is the vertex before ``j`` on
        the path from ``i``, ``-1`` if none; see :func:`apsp.path` and
        :mod:`apsp.predecessors` for the (deterministic) tie-breaking.  For
        ``min_plus`` on the CPU the predecessors are read off the finished
        distances (:mod:`apsp.last_hop`): they cost a small fraction of the
        distances on dense graphs.
    device : {"auto", "cpu", "gpu"}
        ``"auto"``: where ``W`` lives.  Results come back in ``W``'s kind.
    memory_budget : int, optional
        GPU bytes the run may use; default 85% of the free device memory.
        When the in-core run needs more, ``W`` stays in (pinned) host memory
        and is streamed through the device (:mod:`apsp.streaming`).  Ignored
        on the CPU.
    block_size : int, optional
        The leaf size of R-Kleene and the block size of blocked
        Floyd-Warshall (defaults depend on the device).
    progress : bool, optional
        Show progress (tqdm: a bar on ``stderr``, a widget in Jupyter);
        ``None`` (default): only on a terminal or in a notebook, and only once
        the run has taken more than two seconds (:mod:`apsp.progress`).
    out : numpy.ndarray (n, n), optional
        The result buffer (CPU): a C-contiguous array of the result's dtype,
        for instance a ``numpy.memmap``; the closure is computed in it, in
        place, and it is returned.  ``out=W`` closes ``W`` in place (a negative
        cycle is then reported by a vertex on it, without the cycle).
    dtype : dtype, optional
        The result's dtype.  Default: ``W``'s (for a graph: its weights',
        float64 when unweighted, bool for ``lor_land``).  A dtype different
        from a dense ``W``'s is an explicit cast.
    memory_limit : int, optional
        Host bytes the run may add; default 85% of the available memory
        (:func:`apsp.planner.host_memory_available`).
    devices : None, "all" or sequence of int
        The GPUs of this host to run on (GPU runs).  ``None`` (default): the
        current GPU; on a machine with several, the planner also considers
        spreading the matrix over all of them (route ``"multi-gpu"``) and
        takes it when it is the fastest route that fits (a large matrix, or
        one larger than one GPU but not than all of them).  ``"all"`` or a
        list of device ids: run on those GPUs, in this process
        (:mod:`apsp.multi_device`: row blocks owned by the GPUs, panels sent
        GPU to GPU over NVLink, one round of look-ahead), whatever the size.
        Input and output as on one GPU: NumPy in, NumPy out (the matrix never
        needs to fit one GPU); CuPy in, CuPy out on the current GPU.
        ``memory_budget`` is then per GPU; predecessors follow the Pi update.
    client : distributed.Client, optional
        Run on this Dask cluster (blocked Floyd-Warshall on ``block_size``
        tiles pinned to the workers; :mod:`apsp.distributed`).  A
        :class:`dask.array.Array` ``W`` runs on the default client without it
        and returns dask arrays that stay on the workers; NumPy / CuPy / sparse
        input returns a gathered array, as here.

    Returns
    -------
    D : array (n, n)
        The closure (the distances), same kind and dtype as ``W`` (``out``
        when given).
    P : array (n, n) of int32
        Only with ``predecessors=True``.

    Raises
    ------
    PlanError
        The result does not fit the memory (host or GPU) by any route.
    NegativeCycleError
        A cycle makes the closure diverge; ``err.vertex`` lies on it and
        ``err.cycle`` lists it.
    TypeError
        ``W`` (or ``out``) is of no accepted type.
    ShapeError, DTypeError, InvalidEntryError, UnsupportedOperationError, DeviceError
    TypeError
        An integer argument is not an integer.

    Notes
    -----
    Integers and infinities (the policy of :mod:`semiring.dtypes`): in
    integer dtypes ``iinfo.max`` is ``+inf`` and ``iinfo.min`` is ``-inf``;
    both stick (``-inf`` plus a weight is ``-inf``), ``+inf`` ("no path") wins
    where they meet in ``min_plus``, and nothing wraps: a distance beyond the
    range is the sentinel, as a float sum that overflows is ``+-inf``.  Such an
    ``-inf`` is an answer, not a negative cycle; a real negative cycle is still
    reported.  int32 ``min_plus`` / ``max_plus`` closures whose sums could
    reach the sentinels run in int64 and are clamped back
    (:mod:`apsp.exact_integers`), so every method gives the same, exact answer.

    Speed without a choice to make: non-negative integer weights run on plain
    integer sums (the ``+inf`` of missing arcs lowered to a stand-in);
    on Hopper GPUs, graphs whose distances provably fit in 15 bits (hop counts
    of up to 32 767 vertices, small weights) run on two 16-bit lanes per
    instruction (:mod:`apsp.cuda.packed_closure`); ``min_plus`` predecessors
    are read off the finished distances on either device (:mod:`apsp.last_hop`).
    Each route is exact and gives the same answer as the general one.

    Examples
    --------
    >>> import apsp
    >>> W = np.array([[0.0, 3.0, np.inf], [np.inf, 0.0, -1.0], [2.0, np.inf, 0.0]])
    >>> apsp.shortest_paths(W)
    array([[ 0.,  3.,  2.],
           [ 1.,  0., -1.],
           [ 2.,  5.,  0.]])
    >>> D, P = apsp.shortest_paths(W, predecessors=True)
    >>> apsp.path(P, 2, 1)
    [2, 0, 1]
    >>> lo, hi = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    >>> chain = np.array([[0, -2**30, hi], [hi, 0, -2**30], [hi, hi, 0]], np.int32)
    >>> apsp.shortest_paths(chain)[0, 2] == lo  # -2**31 is the edge of int32: -inf
    np.True_
    >>> import scipy.sparse as sp
    >>> apsp.shortest_paths(sp.csr_array(np.array([[0, 3.0], [1.0, 0]])))
    array([[0., 3.],
           [1., 0.]])
    """
    if client is not None or (type(W).__module__ or "").startswith("dask."):  # a Dask cluster: apsp.distributed
        from .distributed import distributed_shortest_paths

        return distributed_shortest_paths(W, method, semiring=semiring, predecessors=predecessors, device=device,
                                          block_size=block_size, progress=progress, out=out, dtype=dtype, client=client)
    S = sr.get(semiring)
    if block_size is not None or memory_budget is not None or memory_limit is not None:
        check_integer_arguments(block_size, memory_budget, memory_limit)
    W = unmasked(W, S)
    src = matrix_source("W", W, S, dtype)
    if src.dense is not None:
        _check_input(W, S, predecessors, method)
        if sums_may_leave_int32(W, S) and (dtype is None or np.dtype(dtype) == W.dtype):
            # exact in int64, then clamped to the int32 sentinels
            res = shortest_paths(widen(W), method, semiring=S, predecessors=predecessors, device=device,
                                 memory_budget=memory_budget, block_size=block_size, progress=progress,
                                 memory_limit=memory_limit)
            D = narrow(res[0] if predecessors else res)
            if out is not None:
                out[...] = D
                D = out
            return (D, res[1]) if predecessors else D
    else:
        _check_options(S, predecessors, method)
    if devices is not None and device == "auto":
        device = "gpu"  # GPUs named: a GPU run, whatever kind of array W is
    dev = resolve_device(device, W if src.dense is not None else _placeholder(src.device))
    n = src.n
    rdtype = np.dtype(dtype) if dtype is not None else np.dtype(src.dtype)
    if dtype is not None:
        S.check_dtype("dtype", rdtype)
    on_host_input = src.device == "cpu"
    if out is not None:
        _check_out(out, n, rdtype, dev)
    if dev == "gpu" and method in ("squaring", "fw"):  # not streamable: as before, a DeviceError
        budget = memory_budget if memory_budget is not None else int(0.85 * device_memory_available())
        need = in_core_bytes(n, rdtype, predecessors, method)
        if need > budget:
            raise DeviceError(
                f"method={method!r} needs {need} bytes of GPU memory, more than the budget of "
                f"{budget}; use method='auto' or 'blocked-fw' (streamed)"
            )
    gpu_ids = _gpu_ids(devices, dev)
    forced = devices is not None or method == MULTI_GPU  # several GPUs asked for: that route only
    if forced and method not in ("auto", MULTI_GPU):
        raise SemiringError(f"devices= runs method {MULTI_GPU!r}; got method={method!r}")
    if forced and dev != "gpu":
        raise DeviceError(f"method {MULTI_GPU!r} runs on GPUs: use it with GPU input or device='gpu'")
    if dev == "cpu" and memory_limit is None and dense_bytes(n, rdtype, predecessors, method) <= SMALL_JOB_BYTES:
        route = "dense"  # a small job: planning (reading every memory limit) would cost more than the closure
    else:
        pl = plan(n, rdtype, S.name, predecessors=predecessors, device=dev,
                     method=MULTI_GPU if forced else method, memory_limit=memory_limit,
                     device_memory_limit=memory_budget if dev == "gpu" else None,
                     result_allocated=out is not None and not isinstance(out, np.memmap),
                     nnz=src.nnz, weighted=src.weighted, exact_float32=src.float32_exact, lower_dtype=False,
                     routes=("multi-gpu",) if forced else ("dense", "streaming", "multi-gpu"), gpus=len(gpu_ids))
        route = pl.route
    if route == "multi-gpu":
        result = _multi_gpu(S, src, W, rdtype, gpu_ids, predecessors, block_size, progress, on_host_input)
        if out is not None:
            out[...] = result[0] if predecessors else result
            return (out, result[1]) if predecessors else out
        return result
    if dev == "gpu" and route == "streaming":
        from .streaming import streamed_closure

        Wh = to_device(src.fill(None) if src.dense is None else W, "cpu")
        if src.dense is None:
            check_matrix("W", Wh, S)
        result = streamed_closure(S, Wh, predecessors, memory_budget=pl.est_device_bytes,
                                  block_size=block_size, progress=progress)
        return _as_input_kind(result, on_host_input)
    chosen = choose_method(n, dev, True) if method == "auto" else method
    xp = _cupy() if dev == "gpu" else np
    D, original, copy = _result_buffer(src, W, out, rdtype, dev, xp)
    if src.dense is None or D.dtype != W.dtype:
        _check_in_blocks(D, S)
    D, P = working_matrix(S, D, xp, False, copy=copy)
    if predecessors:  # the initial predecessors only where the Pi update will run
        P = (xp.empty(D.shape, dtype=PRED_DTYPE) if _use_last_hops(S, D, original, chosen)
             else initial_predecessors(D, S.zero_value(D.dtype)))
    if n:
        _run(S, D, P, original, chosen, dev, block_size, progress)
    result = (D, P) if predecessors else D
    if out is not None:
        return result
    return _as_input_kind(result, on_host_input)


def _gpu_ids(devices, dev: str) -> list[int]:
    """The GPU ids ``devices`` names (``None``: all GPUs for the planner to consider, on a GPU run)."""
    if dev != "gpu":
        if devices is not None:
            raise DeviceError("devices= names GPUs: use it with GPU input or device='gpu'")
        return []
    count = _cupy().cuda.runtime.getDeviceCount()
    if devices is None or (isinstance(devices, str) and devices == "all"):
        return list(range(count))
    if isinstance(devices, str) or not hasattr(devices, "__iter__"):
        raise TypeError(f"devices must be None, 'all' or a sequence of GPU ids, got {type(devices).__name__}")
    ids = [as_count(f"devices[{i}]", d, minimum=0) for i, d in enumerate(devices)]
    if not ids:
        raise DeviceError("devices is empty: name at least one GPU")
    for i, d in enumerate(ids):
        if d >= count:
            raise DeviceError(f"devices[{i}] is GPU {d}, but this machine has {count} GPU(s) (ids 0..{count - 1})")
    if len(set(ids)) != len(ids):
        raise DeviceError(f"devices names a GPU twice: {ids}")
    return ids


def _multi_gpu(S: Semiring, src, W, dtype: np.dtype, gpu_ids: list[int], predecessors: bool,
               block_size: int | None, progress: bool | None, on_host_input: bool):
    """The closure over the GPUs ``gpu_ids`` (:mod:`apsp.multi_device`), returned in the input's kind."""
    if src.dense is None:  # a graph: its dense matrix on the host, checked in blocks
        X, original = src.fill(None), src.fill
        if X.dtype != dtype:
            X = X.astype(dtype)
        _check_in_blocks(X, S)
    else:
        X, original = (W if W.dtype == dtype else W.astype(dtype)), W
    n = X.shape[0]
    bar = Progress(TABLE[MULTI_GPU].work(n), f"apsp multi-gpu n={n} on {len(gpu_ids)} GPUs", enabled=progress)
    with bar:
        R = multi_device_closure(S, X, cuda_lanes(gpu_ids), predecessors=predecessors,
                                 block=None if block_size is None else as_count("block_size", block_size),
                                 original=original, progress=bar)
    xp = np if on_host_input else _cupy()
    D = R.gather(xp)
    return (D, R.gather(xp, which="P")) if predecessors else D


def _check_in_blocks(D, S: Semiring) -> None:
    """Validate the built matrix in row blocks, so the check's boolean temporaries stay small.

    A bad entry is named as ``W[r0:r1][i, j]`` (row ``r0 + i``, column ``j``).
    """
    n = D.shape[0]
    step = max(64, -(-n // 16))
    if n <= step:
        check_matrix("W", D, S)
        return
    for r0 in range(0, n, step):
        r1 = min(n, r0 + step)
        check_matrix(f"W[{r0}:{r1}]", D[r0:r1], S)


def _check_options(S: Semiring, predecessors: bool, method: str) -> None:
    """The checks of :func:`_check_input` that do not look at the matrix."""
    _check_input(np.zeros((0, 0), dtype=S.dtypes[0]), S, predecessors, method)


def _placeholder(device: str):
    """An empty array on ``device``, for :func:`resolve_device`'s ``"auto"``."""
    return np.empty(0) if device == "cpu" else _cupy().empty(0)


def _check_out(out, n: int, dtype: np.dtype, dev: str) -> None:
    """``out`` must be a C-contiguous NumPy array (n, n) of the result's dtype (CPU runs only)."""
    if out is None:
        return
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray or numpy.memmap, got {type(out).__name__}")
    if dev != "cpu":
        raise DeviceError("out= is a host array: use it with device='cpu'")
    if out.shape != (n, n):
        raise ShapeError(f"out must have shape {(n, n)}, got {tuple(out.shape)}")
    if out.dtype != dtype:
        raise DTypeError(f"out must have dtype {dtype}, got {out.dtype}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ShapeError("out must be C-contiguous and writeable")


def _result_buffer(src, W, out, dtype: np.dtype, dev: str, xp):
    """The buffer the closure runs in, filled with the matrix, and what a cycle search reads.

    Returns ``(D, original, copy)``.  One ``n x n`` buffer: ``out`` when given,
    else a fresh one: a graph is written into it directly; a dense ``W`` is
    copied by :func:`~apsp.working_matrix.working_matrix` (``copy=True``),
    unless a transfer or a cast already made a fresh array.  ``original`` is
    what :func:`~apsp.negative_cycle.raise_for_cycle` searches: ``W`` itself,
    a function that rebuilds it (graphs), or ``None`` when ``W`` is
    overwritten (``out=W``).
    """
    n = src.n
    if src.dense is not None:
        if out is not None:
            if out is W:
                return out, None, False
            out[...] = to_device(W, dev) if src.device != dev else W
            return out, W, False
        if src.device != dev or W.dtype != dtype:
            Wd = to_device(W, dev)  # a fresh copy when W lives on the other device: work in it
            fresh = Wd is not W
            if Wd.dtype != dtype:
                Wd, fresh = Wd.astype(dtype), True
            return Wd, W, not fresh
        return W, W, True
    D = out if out is not None else xp.empty((n, n), dtype=dtype)
    if src.device != dev:
        D[...] = to_device(src.fill(None), dev)
    else:
        src.fill(D)

    def rebuild():
        return src.fill(None)

    return D, rebuild, False


def _cupy():
    import cupy

    return cupy


def _as_input_kind(result, on_host: bool):
    if isinstance(result, tuple):
        return tuple(_as_input_kind(r, on_host) for r in result)
    return to_device(result, "cpu" if on_host else "gpu")


def _sync_for(xp):
    if xp is np:
        return None
    return lambda: xp.cuda.get_current_stream().synchronize()


def _run(S: Semiring, D, P, W, method: str, dev: str, block_size: int | None, progress: bool | None) -> None:
    """Run ``method`` on the prepared buffers and check the diagonal of the result."""
    xp = array_module(D)
    n = D.shape[0]
    base = GPU_BASE if dev == "gpu" else CPU_BASE
    if method == "rkleene" and block_size is not None:
        base = as_count("block_size", block_size)
    if dev == "gpu":
        base = min(base, GPU_BASE)
    work = TABLE[method].work(n)
    bar = Progress(work, f"apsp {method} n={n}", enabled=progress, sync=_sync_for(xp))
    if P is not None and _use_last_hops(S, D, W, method):
        # distances at full speed, then the predecessors read off them (apsp.last_hop)
        with bar:
            _distances(S, D, W, method, dev, block_size, base, bar)
        raise_if_diverged(S, D, W, whole=True)
        arcs = W() if callable(W) else W
        if _last_hops(S, D, arcs, P) is not None:
            return
        # a route loops that rule 4 cannot mend (float rounding): start again with the Pi update
        arcs = to_device(arcs, dev)
        D0, P0 = working_matrix(S, arcs if arcs.dtype == D.dtype else arcs.astype(D.dtype), xp, True)
        D[...], P[...] = D0, P0
        del D0, P0, arcs
        bar = Progress(work, f"apsp {method} n={n}", enabled=progress, sync=_sync_for(xp))
    with bar:
        if P is None:
            _distances(S, D, W, method, dev, block_size, base, bar)
        else:
            _closure(S, D, P, W, method, dev, block_size, base, bar)
    raise_if_diverged(S, D, W, whole=True)


def _distances(S: Semiring, D, W, method: str, dev: str, block_size: int | None, base: int, bar: Progress) -> None:
    """Close ``D`` without predecessors; non-negative integer weights run with ``+inf`` lowered to a
    stand-in, on plain sums (:mod:`apsp.exact_integers`).

    When no static bound proves that every distance stays below the stand-in,
    the result is checked afterwards (:func:`~apsp.exact_integers.stand_in_is_exact`,
    one Boolean product); a graph whose true distances reach it (rare) is
    closed again from ``W`` on the saturating kernels, which are exact for
    weights of one sign.  Without ``W`` (closed in place) only the proved
    route is taken.
    """
    route = stand_in_route(D, S)
    if route is None or not (route[1] or W is not None):
        _closure(S, D, None, W, method, dev, block_size, base, bar)
        return
    stand_in, proved = route
    lower_infinity(D, stand_in)
    try:
        with sums_in_range():  # every entry stays in [0, stand_in]: all sums are plain-exact
            _closure(S, D, None, W, method, dev, block_size, base, bar)
        exact = proved or stand_in_is_exact(D, to_device(W() if callable(W) else W, dev), stand_in)
    finally:
        restore_infinity(D, stand_in)
    if not exact:  # a distance reached the stand-in: again, saturating
        arcs = to_device(W() if callable(W) else W, dev)
        D[...] = working_matrix(S, arcs if arcs.dtype == D.dtype else arcs.astype(D.dtype), array_module(D), False)[0]
        _closure(S, D, None, W, method, dev, block_size, base, bar)


def _use_last_hops(S: Semiring, D, W, method: str) -> bool:
    """Whether the predecessors are read off the distances (:mod:`apsp.last_hop`) rather than carried."""
    if method == "fw" or W is None or not D.flags.c_contiguous:
        return False
    if is_cupy_array(D):
        from .cuda.last_hop import gpu_applies

        return gpu_applies(S, D)
    return applies(S, D)


def _last_hops(S: Semiring, D, W, P):
    """The last-hop predecessors of the closure ``D`` into ``P`` on ``D``'s device, or ``None`` (Pi update)."""
    if is_cupy_array(D):
        from .cuda.last_hop import last_hop_predecessors_gpu

        return last_hop_predecessors_gpu(S, D, W, out=P)
    return last_hop_predecessors(S, D, W, out=P)


def _packed(S: Semiring, D, bar: Progress) -> bool:
    """Close ``D`` on packed 16-bit lanes when that is exact (:mod:`apsp.cuda.packed_closure`); whether it did."""
    from .cuda.packed_closure import packed_applies, packed_closure

    if not packed_applies(S, D):
        return False
    packed_closure(D, progress=bar, checked=True)
    return True


def _closure(S: Semiring, D, P, W, method: str, dev: str, block_size: int | None, base: int, bar: Progress) -> None:
    """Close ``D`` (and ``P``, by the Pi update) in place with ``method``."""
    if method == "rkleene" and P is None and dev == "gpu" and _packed(S, D, bar):
        return
    job = Job(S, D, P, W, base_size=max(1, base), progress=bar)
    TABLE[method].run(job, block_size if method == "blocked-fw" else None)


# -- conveniences ----------------------------------------------------------------------
def closure(A, semiring: Semiring | str = sr.min_plus, **kwargs: Any):
    """The closure ``A* = I (+) A (+) A^2 (+) ...`` over an idempotent semiring.

    What :meth:`semiring.Semiring.closure` and ``SemiringArray.star()`` call
    (Aho, Hopcroft & Ullman 1974, Sec. 5.6, for closed semirings).

    Parameters
    ----------
    A : array (n, n)
        NumPy or CuPy, the semiring ``zero`` where there is no edge.
    semiring : Semiring or str
        Idempotent (``min_plus``, ``max_plus``, ``max_min``, ``min_max``,
        ``lor_land``, ``max_times`` or a custom one).
    **kwargs
        Those of :func:`shortest_paths` (``method``, ``predecessors``,
        ``device``, ``memory_budget``, ``block_size``, ``progress``).

    Returns
    -------
    array (n, n), or (closure, predecessors) with ``predecessors=True``.

    Raises
    ------
    UnsupportedOperationError
        ``semiring`` is not idempotent (``plus_times``).
    NegativeCycleError
        The closure diverges.

    Examples
    --------
    >>> import apsp
    >>> from semiring import max_min
    >>> C = np.array([[np.inf, 5.0, 2.0], [-np.inf, np.inf, 4.0], [-np.inf, -np.inf, np.inf]])
    >>> apsp.closure(C, semiring=max_min)
    array([[ inf,   5.,   4.],
           [-inf,  inf,   4.],
           [-inf, -inf,  inf]])
    """
    return shortest_paths(A, semiring=semiring, **kwargs)


def transitive_closure(A, method: str = "auto", **kwargs: Any):
    """Reachability: ``R[i, j]`` is True when ``j`` can be reached from ``i`` (``R[i, i]`` always).

    The closure over ``lor_land``; its products run in the bit-packed Boolean
    GEMM (64 values of ``k`` per word operation).

    Parameters
    ----------
    A : array (n, n) of bool
        Adjacency matrix (NumPy or CuPy); other dtypes raise ``DTypeError``.
    method : str
        As in :func:`shortest_paths`.
    **kwargs
        Those of :func:`shortest_paths` (``predecessors=True`` gives a path to
        every reachable vertex).

    Returns
    -------
    R : array (n, n) of bool, or (R, P) with ``predecessors=True``.

    Raises
    ------
    DTypeError, ShapeError

    Examples
    --------
    >>> import apsp
    >>> A = np.array([[False, True, False], [False, False, True], [False, False, False]])
    >>> apsp.transitive_closure(A).astype(int)
    array([[1, 1, 1],
           [0, 1, 1],
           [0, 0, 1]])
    """
    return shortest_paths(A, method, semiring=sr.lor_land, **kwargs)


def widest_paths(C, method: str = "auto", **kwargs: Any):
    """Widest (bottleneck) paths: the largest, over paths, of the smallest capacity along the path.

    The closure over ``max_min`` (Pollack, "The maximum capacity through a
    network", Oper. Res. 8, 1960).

    Parameters
    ----------
    C : array (n, n)
        ``C[i, j]`` is the capacity of edge ``i -> j``, ``-inf`` (the
        integer minimum for integer dtypes) where there is none.
    method : str
        As in :func:`shortest_paths`.
    **kwargs
        Those of :func:`shortest_paths`.

    Returns
    -------
    array (n, n): the widest-path capacities, ``+inf`` on the diagonal
    (staying put has no bottleneck); or (widths, P) with ``predecessors=True``.

    Raises
    ------
    InvalidEntryError, ShapeError, DTypeError

    Examples
    --------
    >>> import apsp
    >>> C = np.array([[-np.inf, 3.0, 1.0], [-np.inf, -np.inf, 2.0], [-np.inf, -np.inf, -np.inf]])
    >>> apsp.widest_paths(C)[0, 2]
    np.float64(2.0)
    """
    return shortest_paths(C, method, semiring=sr.max_min, **kwargs)


def minimax_paths(C, method: str = "auto", **kwargs: Any):
    """Minimax paths: the smallest, over paths, of the largest edge weight along the path.

    The closure over ``min_max`` (the bottleneck shortest path problem).

    Parameters
    ----------
    C : array (n, n)
        ``C[i, j]`` is the weight of edge ``i -> j``, ``+inf`` where there is none.
    method : str
        As in :func:`shortest_paths`.
    **kwargs
        Those of :func:`shortest_paths`.

    Returns
    -------
    array (n, n): the minimax values, ``-inf`` on the diagonal; or (values, P)
    with ``predecessors=True``.

    Raises
    ------
    InvalidEntryError, ShapeError, DTypeError

    Examples
    --------
    >>> import apsp
    >>> C = np.array([[np.inf, 3.0, 9.0], [np.inf, np.inf, 2.0], [np.inf, np.inf, np.inf]])
    >>> apsp.minimax_paths(C)[0, 2]
    np.float64(3.0)
    """
    return shortest_paths(C, method, semiring=sr.min_max, **kwargs)

