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
from semiring.errors import DeviceError, SemiringError, ShapeError, UnsupportedOperationError
from semiring.validate import check_array, check_matrix

from .arguments import as_count
from .base_case import CPU_BASE, GPU_BASE
from .blocked_fw import blocked_floyd_warshall
from .closure_state import Job
from .exact_integers import narrow, sums_may_leave_int32, widen
from .fw import floyd_warshall_inplace
from .negative_cycle import check_diagonal
from .progress import Progress
from .rkleene import rkleene
from .squaring import most_squarings, repeated_squaring
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

METHODS = ("auto", "rkleene", "blocked-fw", "squaring", "fw")

#: Default block of blocked Floyd-Warshall on the CPU and on the GPU.
CPU_FW_BLOCK = 256
GPU_FW_BLOCK = 1024


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


def prepare_input(W, S: Semiring, predecessors: bool, method: str, block_size=None, memory_budget=None):
    """The one input preparation of every entry point: checks, and a masked array's mask as no edge.

    Returns the matrix to work on (``W`` itself unless it was a masked array).
    Raises the errors listed in :func:`shortest_paths`.

    >>> from semiring import min_plus
    >>> prepare_input(np.zeros((2, 2)), min_plus, False, "auto", block_size=1.5)
    Traceback (most recent call last):
    ...
    TypeError: block_size must be an integer, got float 1.5
    """
    if block_size is not None:
        as_count("block_size", block_size)
    if memory_budget is not None:
        as_count("memory_budget", memory_budget)
    check_array("W", W)
    W = unmasked(W, S)
    _check_input(W, S, predecessors, method)
    return W


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
    if predecessors and not S.selective:
        raise UnsupportedOperationError(
            f"predecessors=True needs a selective add (min, max, or); {S.name} combines values"
        )
    if method not in METHODS:
        raise SemiringError(f"unknown method {method!r}; use one of: {', '.join(METHODS)}")


def _gpu_budget(memory_budget: int | None) -> int:
    if memory_budget is not None:
        return as_count("memory_budget", memory_budget)
    import cupy

    free, _ = cupy.cuda.runtime.memGetInfo()
    return int(0.85 * (free + cupy.get_default_memory_pool().free_bytes()))


def in_core_bytes(n: int, dtype, predecessors: bool, method: str) -> int:
    """Device bytes an in-core run needs: the matrix, its scratch copies, predecessors and witnesses.

    >>> in_core_bytes(1024, np.float32, False, "rkleene")
    5242880
    """
    s = np.dtype(dtype).itemsize
    nn = n * n
    if method == "squaring":
        return 2 * nn * s + (nn * (4 + 4 + 4) if predecessors else 0)
    if method == "fw":
        return 4 * nn * s + (nn * 5 + nn * 4 if predecessors else 0)
    if predecessors:  # the full-row blocked schedule: D, P, a witness for the other rows, a column panel
        return nn * s + nn * 4 + nn * 4 + n * 256 * (s + 4)
    return nn * s + nn * s // 4  # matrix + one quadrant of scratch


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
):
    """All-pairs shortest paths: the closure ``W* = I (+) W (+) W^2 (+) ...`` of a dense matrix.

    Parameters
    ----------
    W : array (n, n)
        NumPy or CuPy; ``W[i, j]`` is the weight of edge ``i -> j`` and the
        semiring ``zero`` (``inf`` for ``min_plus``) where there is none.
        Negative weights are allowed; NaN is rejected.  The diagonal is taken
        as ``W[i, i] (+) one`` (a self loop only counts if it is better than
        staying put, and then it is a negative cycle).  A
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
        :mod:`apsp.predecessors` for the (deterministic) tie-breaking.
    device : {"auto", "cpu", "gpu"}
        ``"auto"``: where ``W`` lives.  Results come back in ``W``'s kind.
    memory_budget : int, optional
        GPU bytes the run may use; default 85% of the free device memory.
        When the in-core run needs more, ``W`` stays in (pinned) host memory
        and is streamed through the device (:mod:`apsp.streaming`).  Ignored
        on the CPU.
    block_size : int, optional
        The leaf size of R-Kleene and the block size of blocked
        Floyd-Warshall (defaults depend on the device).  Integer arguments
        (``block_size``, ``memory_budget``) are Python or NumPy integers;
        anything else is a ``TypeError``, a value below 1 a ``SemiringError``.
    progress : bool, optional
        Show progress (tqdm: a bar on ``stderr``, a widget in Jupyter);
        ``None`` (default): only on a terminal or in a notebook, and only once
        the run has taken more than two seconds (:mod:`apsp.progress`).

    Returns
    -------
    D : array (n, n)
        The closure (the distances), same kind and dtype as ``W``.
    P : array (n, n) of int32
        Only with ``predecessors=True``.

    Raises
    ------
    NegativeCycleError
        A cycle makes the closure diverge; ``err.vertex`` lies on it and
        ``err.cycle`` lists it.
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
    """
    S = sr.get(semiring)
    W = prepare_input(W, S, predecessors, method, block_size, memory_budget)
    if sums_may_leave_int32(W, S):  # exact in int64, then clamped to the int32 sentinels
        out = shortest_paths(widen(W), method, semiring=S, predecessors=predecessors, device=device,
                             memory_budget=memory_budget, block_size=block_size, progress=progress)
        return (narrow(out[0]), out[1]) if predecessors else narrow(out)
    dev = resolve_device(device, W)
    n = W.shape[0]
    on_host_input = not is_cupy_array(W)

    if dev == "gpu":
        budget = _gpu_budget(memory_budget)
        probe = "rkleene" if method in ("auto", "blocked-fw") else method
        fits = in_core_bytes(n, W.dtype, predecessors, probe) <= budget
        chosen = choose_method(n, "gpu", fits) if method == "auto" else method
        if not fits:
            if chosen not in ("blocked-fw", "rkleene"):
                raise DeviceError(
                    f"method={method!r} needs {in_core_bytes(n, W.dtype, predecessors, chosen)} bytes of GPU "
                    f"memory, more than the budget of {budget}; use method='auto' or 'blocked-fw' (streamed)"
                )
            from .streaming import streamed_closure

            Wh = to_device(W, "cpu")
            result = streamed_closure(S, Wh, predecessors, memory_budget=budget, block_size=block_size,
                                      progress=progress)
            return _as_input_kind(result, on_host_input)
        xp = _cupy()
    else:
        chosen = choose_method(n, "cpu", True) if method == "auto" else method
        xp = np
    Wd = to_device(W, dev)  # a fresh copy when W lives on the other device: work in it
    D, P = working_matrix(S, Wd, xp, predecessors, copy=Wd is W)
    check_diagonal(S, D, W, whole=False)  # a self loop better than one
    if n:
        _run(S, D, P, W, chosen, dev, block_size, progress)
    result = (D, P) if predecessors else D
    return _as_input_kind(result, on_host_input)


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
    work = float(n) ** 3 * (max(1, most_squarings(n)) if method == "squaring" else 1)
    bar = Progress(work, f"apsp {method} n={n}", enabled=progress, sync=_sync_for(xp))
    job = Job(S, D, P, W, base_size=max(1, base), progress=bar)
    with bar:
        if method == "rkleene":
            rkleene(job)
        elif method == "blocked-fw":
            blk = as_count("block_size", block_size) if block_size is not None else (
                GPU_FW_BLOCK if dev == "gpu" else CPU_FW_BLOCK)
            blocked_floyd_warshall(job, blk, rkleene)
        elif method == "squaring":
            repeated_squaring(job)
        elif method == "fw":
            floyd_warshall_inplace(S, D, P, progress=bar)
        else:  # pragma: no cover - validated before
            raise SemiringError(f"unknown method {method!r}")
    check_diagonal(S, D, W, whole=True)


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

