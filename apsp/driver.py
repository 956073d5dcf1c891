"""apsp's engine: run a checked :class:`~apsp.request.Request` by the route and method it calls for.

:func:`solve` is the one place where a closure's route is decided (a small
CPU job runs at once; otherwise :func:`apsp.planner.plan` picks the dense,
streamed or multi-GPU route that fits) and where the method of the table
(:mod:`apsp.methods`) is run on the working matrix.  It trusts the request:
every input check happened at the door (:func:`apsp.request.make_request`), except
the dense matrix of a graph, which is checked here in row blocks as it is
built.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring import Semiring
from semiring.array_types import Where
from semiring.backend import array_module, is_cupy_array, to_device
from semiring.errors import DeviceError
from semiring.validate import check_matrix

from .arguments import as_count
from .methods import IN_CORE, MULTI_GPU, TABLE, auto_method
from .methods.base_case import CPU_BASE, GPU_BASE
from .methods.closure_state import Job
from .multi_device import cuda_lanes, multi_device_closure
from .negative_cycle import raise_if_diverged
from .paths.exact_integers import exact_closure, narrow, widen
from .paths.last_hop import applies, last_hop_predecessors
from .paths.predecessors import PRED_DTYPE, initial_predecessors
from .paths.working_matrix import working_matrix
from .planner import dense_bytes, device_memory_available, in_core_bytes, plan
from .progress import QUIET, Progress
from .request import Request
from .streaming import CupyDevice, run_streamed

if TYPE_CHECKING:
    from .matrix_input import MatrixSource

__all__ = ["solve", "choose_method", "SMALL_JOB_BYTES"]

#: A CPU job whose in-core footprint is at most this many bytes runs without a plan (any machine has that much).
SMALL_JOB_BYTES = 64 * 2**20
#: With ``progress=None``, a closure of at most this many vertices runs without a bar: it ends within milliseconds,
#: long before one would show (:data:`apsp.progress.DELAY`).
QUIET_N = 256


def solve(req: Request) -> Any:
    """The closure ``req`` asks for: ``D``, or ``(D, P)`` with predecessors, in the input's kind (``req.out`` when given).

    Examples
    --------
    >>> from apsp import prepare
    >>> solve(prepare(np.array([[0.0, 1.0], [2.0, 0.0]]), predecessors=True))
    (array([[0., 1.],
           [2., 0.]]), array([[-1,  0],
           [ 1, -1]], dtype=int32))
    """
    S, src, dev, method, rdtype = req.S, req.src, req.device, req.method, req.dtype
    several = req.several_gpus
    n = src.n
    if dev == "gpu" and method in ("squaring", "fw"):  # not streamable: as before, a DeviceError
        budget = req.memory_budget if req.memory_budget is not None else int(0.85 * device_memory_available())
        need = in_core_bytes(n, rdtype, req.predecessors, method)
        if need > budget:
            raise DeviceError(
                f"method={method!r} needs {need} bytes of GPU memory, more than the budget of "
                f"{budget}; use method='auto' or 'blocked-fw' (streamed)"
            )
    if (dev == "cpu" and req.memory_limit is None
            and dense_bytes(n, rdtype, req.predecessors, method) <= SMALL_JOB_BYTES):
        route = "dense"  # a small job: planning (reading every memory limit) would cost more than the closure
    else:
        pl = plan(n, rdtype, S.name, predecessors=req.predecessors, device=dev,
                  method=MULTI_GPU if several else method, memory_limit=req.memory_limit,
                  device_memory_limit=req.memory_budget if dev == "gpu" else None,
                  result_allocated=req.out is not None and not isinstance(req.out, np.memmap),
                  exact_float32=src.float32_exact, lower_dtype=False,
                  routes=(MULTI_GPU, "streaming") if several else ("dense", "streaming", MULTI_GPU),
                  gpus=len(req.gpu_ids))
        route = pl.route
    if req.widen and route != "dense":  # the dense route widens itself where it must (apsp.paths.exact_integers)
        return _widened(req)
    if route == MULTI_GPU:
        result = _multi_gpu(req)
        if req.out is not None:
            req.out[...] = result[0] if req.predecessors else result
            return (req.out, result[1]) if req.predecessors else req.out
        return result
    if dev == "gpu" and route == "streaming":
        Wh = to_device(src.fill(None) if src.dense is None else src.dense, "cpu")
        if src.dense is None:
            check_matrix("W", Wh, S)
        lanes = ([CupyDevice(g) for g in req.gpu_ids] if (several or method == "auto") and len(req.gpu_ids) > 1
                 else [CupyDevice()])  # several GPUs share the rounds where the run may use them
        result = run_streamed(S, Wh, lanes, req.predecessors, pl.est_device_bytes, req.block_size, req.progress)
        return _as_input_kind(result, req.on_host_input)
    chosen = IN_CORE if method == "auto" else method
    xp = np if dev == "cpu" else _cupy()
    D, original, copy = _result_buffer(src, src.dense, req.out, rdtype, dev, xp)
    if src.dense is None or D.dtype != src.dense.dtype:
        _check_in_blocks(D, S)
    D, P = working_matrix(S, D, xp, False, copy=copy)
    if req.predecessors:  # the initial predecessors only where the Pi update will run
        last_hops = _use_last_hops(S, D, original, chosen)
        if req.widen and not last_hops:  # the Pi update compares sums that may leave int32: int64 throughout
            return _widened(req)
        P = xp.empty(D.shape, dtype=PRED_DTYPE) if last_hops else initial_predecessors(D, S.in_dtype(D.dtype).zero)
    if n and not _run(S, D, P, original, chosen, dev, req.block_size, req.progress, widen=req.widen):
        return _widened(req)
    result = (D, P) if req.predecessors else D
    if req.out is not None or (src.device == "cpu" and dev == "cpu"):
        return result
    return _as_input_kind(result, req.on_host_input)


def _widened(req: Request) -> Any:
    """An int32 closure whose sums could leave the range: exact in int64, then clamped to the int32 sentinels."""
    W = req.src.dense
    wide = widen(W)
    inner = Request(req.S, req.src.__class__(req.n, wide.dtype, req.src.device, None, False, lambda out: wide,
                                             dense=wide),
                    np.dtype(np.int64), req.device, req.method, req.predecessors, None, req.gpu_ids,
                    req.several_gpus, req.block_size, req.memory_budget, req.memory_limit, req.progress)
    res = solve(inner)
    D = narrow(res[0] if req.predecessors else res)
    if req.out is not None:
        req.out[...] = D
        D = req.out
    return (D, res[1]) if req.predecessors else D


def choose_method(n: int, device: Where, fits: bool) -> str:
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
    return auto_method(device, fits)


def _multi_gpu(req: Request) -> Any:
    """The closure over the GPUs ``req.gpu_ids`` (:mod:`apsp.multi_device`), returned in the input's kind."""
    S, src, W, dtype, predecessors = req.S, req.src, req.src.dense, req.dtype, req.predecessors
    block_size, progress, gpu_ids = req.block_size, req.progress, list(req.gpu_ids)
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
                                 block=block_size,
                                 original=original, progress=bar)
    xp = np if req.on_host_input else _cupy()
    D = R.gather(xp)
    return (D, R.gather(xp, which="P")) if predecessors else D


def _check_in_blocks(D: Any, S: Semiring) -> None:
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


def _result_buffer(
    src: MatrixSource, W: Any, out: Any, dtype: np.dtype, dev: Where, xp: Any
) -> tuple[Any, Any, bool]:
    """The buffer the closure runs in, filled with the matrix, and what a cycle search reads.

    Returns ``(D, original, copy)``.  One ``n x n`` buffer: ``out`` when given,
    else a fresh one: a graph is written into it directly; a dense ``W`` is
    copied by :func:`~apsp.paths.working_matrix.working_matrix` (``copy=True``),
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

    def rebuild() -> Any:
        return src.fill(None)

    return D, rebuild, False


def _cupy() -> Any:
    import cupy

    return cupy


def _as_input_kind(result: Any, on_host: bool) -> Any:
    if isinstance(result, tuple):
        return tuple(_as_input_kind(r, on_host) for r in result)
    return to_device(result, "cpu" if on_host else "gpu")


def _sync_for(xp: Any) -> Callable[[], None] | None:
    if xp is np:
        return None
    return lambda: xp.cuda.get_current_stream().synchronize()


def _run(S: Semiring, D: Any, P: Any, W: Any, method: str, dev: Where, block_size: int | None, progress: bool | None,
         widen: bool = False) -> bool:
    """Run ``method`` on the prepared buffers and check the diagonal of the result.

    Returns ``False`` (nothing finished) only where ``widen`` says the caller
    can close in int64 instead and the predecessors would be read off int32
    distances that the closure took through int64 (so may have clamped): the
    last hops must see the exact sums.
    """
    xp = np if isinstance(D, np.ndarray) else array_module(D)
    n = D.shape[0]
    base = GPU_BASE if dev == "gpu" else CPU_BASE
    if method == "rkleene" and block_size is not None:  # checked at the door (apsp.request.make_request)
        base = block_size
    if dev == "gpu":
        base = min(base, GPU_BASE)
    if progress is None and n <= QUIET_N:  # done long before a bar would show (apsp.progress.DELAY)
        bar, shown = QUIET, nullcontext()
    else:
        bar = shown = Progress(TABLE[method].work(n), f"apsp {method} n={n}", enabled=progress,
                               sync=None if xp is np else _sync_for(xp))
    if P is not None and _use_last_hops(S, D, W, method):
        # distances at full speed, then the predecessors read off them (apsp.paths.last_hop)
        with shown:
            route = _distances(S, D, W, method, dev, block_size, base, bar)
        if widen and "int64" in route:  # distances may be clamped: the last hops need them exact
            return False
        raise_if_diverged(S, D, W, whole=True)
        arcs = W() if callable(W) else W
        if _last_hops(S, D, arcs, P) is not None:
            return True
        # a route loops that rule 4 cannot mend (float rounding): start again with the Pi update
        arcs = to_device(arcs, dev)
        D0, P0 = working_matrix(S, arcs if arcs.dtype == D.dtype else arcs.astype(D.dtype), xp, True)
        D[...], P[...] = D0, P0
        del D0, P0, arcs
        if bar is not QUIET:
            bar = shown = Progress(TABLE[method].work(n), f"apsp {method} n={n}", enabled=progress,
                                   sync=_sync_for(xp))
    with shown:
        if P is None and D.dtype.kind in "iu":  # integer weights may run on plain sums (_distances)
            _distances(S, D, W, method, dev, block_size, base, bar)
        else:
            _closure(S, D, P, W, method, dev, block_size, base, bar)
    raise_if_diverged(S, D, W, whole=True)
    return True


def _distances(S: Semiring, D: Any, W: Any, method: str, dev: Where,
               block_size: int | None, base: int, bar: Progress) -> str:
    """Close ``D`` without predecessors; the route taken (``"float"`` for floats).

    Integer weights go by the exact route :mod:`apsp.paths.exact_integers` picks.

    Non-negative weights run on plain integer sums with ``+inf`` lowered to a
    checked stand-in, signed ones after Johnson's reweighting; where no fast
    route is exact the saturating kernels (or int64) run.  Every route gives
    the same bits (:func:`apsp.paths.exact_integers.exact_closure`).
    """
    if D.dtype.kind not in "iu":  # floats are closed as they are
        _closure(S, D, None, W, method, dev, block_size, base, bar)
        return "float"
    return exact_closure(S, D, W, lambda X: _closure(S, X, None, W, method, dev, block_size, base, bar))


def _use_last_hops(S: Semiring, D: Any, W: Any, method: str) -> bool:
    """Whether the predecessors are read off the distances (:mod:`apsp.paths.last_hop`) rather than carried."""
    if method == "fw" or W is None or not D.flags.c_contiguous:
        return False
    if is_cupy_array(D):
        from .cuda.last_hop import gpu_applies

        return gpu_applies(S, D)
    return applies(S, D)


def _last_hops(S: Semiring, D: Any, W: Any, P: Any) -> Any:
    """The last-hop predecessors of the closure ``D`` into ``P`` on ``D``'s device, or ``None`` (Pi update)."""
    if is_cupy_array(D):
        from .cuda.last_hop import last_hop_predecessors_gpu

        return last_hop_predecessors_gpu(S, D, W, out=P)
    return last_hop_predecessors(S, D, W, out=P)


def _packed(S: Semiring, D: Any, bar: Progress) -> bool:
    """Close ``D`` on packed 16-bit lanes when that is exact (:mod:`apsp.cuda.packed_closure`); whether it did."""
    from .cuda.packed_closure import packed_applies, packed_closure

    if not packed_applies(S, D):
        return False
    packed_closure(D, progress=bar, checked=True)
    return True


def _closure(S: Semiring, D: Any, P: Any, W: Any, method: str, dev: Where,
             block_size: int | None, base: int, bar: Progress) -> None:
    """Close ``D`` (and ``P``, by the Pi update) in place with ``method``."""
    if method == "rkleene" and P is None and dev == "gpu" and _packed(S, D, bar):
        return
    job = Job(S, D, P, W, base_size=max(1, base), progress=bar)
    run = TABLE[method].run
    assert run is not None  # every method but multi-gpu (its own driver, _multi_gpu) has one
    run(job, block_size if method == "blocked-fw" else None)


