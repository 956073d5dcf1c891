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

import functools
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, overload

import semiring as sr
from semiring import Semiring
from semiring.docstrings import fill_doc

from .driver import SMALL_JOB_BYTES, choose_method, solve
from .methods import NAMES
from .partial_out import noting_partial_out
from .request import DOOR_DOCS, Request, make_request, unmasked

if TYPE_CHECKING:
    from collections.abc import Sequence

    from semiring.array_types import Array, Device, DTypeLike

#: The ``method=`` values (:data:`METHODS`), for type checkers.
ClosureMethod: TypeAlias = Literal["auto", "rkleene", "blocked-fw", "squaring", "fw", "multi-gpu"]

__all__ = [
    "METHODS",
    "shortest_paths",
    "prepare",
    "closure",
    "transitive_closure",
    "widest_paths",
    "minimax_paths",
    "choose_method",
    "unmasked",
    "SMALL_JOB_BYTES",
]

#: The names ``method=`` accepts (the table of :mod:`apsp.methods`, and ``"auto"``).
METHODS = NAMES


# -- the driver ------------------------------------------------------------------------
@overload
def shortest_paths(
    W: Any,
    method: ClosureMethod = "auto",
    *,
    semiring: Semiring | str = sr.min_plus,
    predecessors: Literal[False] = False,
    device: Device = "auto",
    memory_budget: int | None = None,
    block_size: int | None = None,
    progress: bool | None = None,
    out: Array | None = None,
    dtype: DTypeLike | None = None,
    memory_limit: int | None = None,
    client: Any = None,
    devices: Literal["all"] | Sequence[int] | None = None,
) -> Array: ...
@overload
def shortest_paths(
    W: Any,
    method: ClosureMethod = "auto",
    *,
    semiring: Semiring | str = sr.min_plus,
    predecessors: Literal[True],
    device: Device = "auto",
    memory_budget: int | None = None,
    block_size: int | None = None,
    progress: bool | None = None,
    out: Array | None = None,
    dtype: DTypeLike | None = None,
    memory_limit: int | None = None,
    client: Any = None,
    devices: Literal["all"] | Sequence[int] | None = None,
) -> tuple[Array, Array]: ...
@overload
def shortest_paths(
    W: Any,
    method: ClosureMethod = "auto",
    *,
    semiring: Semiring | str = sr.min_plus,
    predecessors: bool = False,
    device: Device = "auto",
    memory_budget: int | None = None,
    block_size: int | None = None,
    progress: bool | None = None,
    out: Array | None = None,
    dtype: DTypeLike | None = None,
    memory_limit: int | None = None,
    client: Any = None,
    devices: Literal["all"] | Sequence[int] | None = None,
) -> Array | tuple[Array, Array]: ...
def shortest_paths(
    W: Any,
    method: ClosureMethod = "auto",
    *,
    semiring: Semiring | str = sr.min_plus,
    predecessors: bool = False,
    device: Device = "auto",
    memory_budget: int | None = None,
    block_size: int | None = None,
    progress: bool | None = None,
    out: Array | None = None,
    dtype: DTypeLike | None = None,
    memory_limit: int | None = None,
    client: Any = None,
    devices: Literal["all"] | Sequence[int] | None = None,
) -> Array | tuple[Array, Array]:
    """All-pairs shortest paths: the closure ``W* = I (+) W (+) W^2 (+) ...`` of a dense matrix or a graph.

    Before anything is allocated, :func:`apsp.plan` estimates the memory and
    time of the run and picks its route (in-core, or streamed through the GPU);
    when the result does not fit, :class:`apsp.PlanError` is raised at once
    with the estimate and the alternatives.

    Parameters
    ----------
    W : array (n, n) or an object with ``__semiring_matrix__`` (graphs.Graph)
        A dense NumPy or CuPy array: ``W[i, j]`` is the weight of edge
        ``i -> j`` and the semiring ``zero`` (``inf`` for ``min_plus``) where
        there is none.  Negative weights are allowed; NaN is rejected.  The
        diagonal is taken as ``W[i, i] (+) one`` (a self loop only counts if
        it is better than staying put, and then it is a negative cycle).
        An object with the protocol of :mod:`apsp.matrix_input`
        (``__semiring_matrix__``, such as :class:`graphs.Graph`) has its dense
        matrix built directly in the result buffer.  Sparse matrices and
        NetworkX graphs are graphs, read by :mod:`graphs`: pass
        ``graphs.as_graph(A)``, or call :func:`graphs.all_pairs_shortest_paths`,
        which also weighs one search per source against the closure.  A
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
        :mod:`apsp.paths.predecessors` for the (deterministic) tie-breaking.  For
        ``min_plus`` on the CPU the predecessors are read off the finished
        distances (:mod:`apsp.paths.last_hop`): they cost a small fraction of the
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
        cycle is then reported by a vertex on it, without the cycle).  Written
        in place, it cannot be written atomically: when the call fails after
        its checks (a negative cycle, an error, ``KeyboardInterrupt``), ``out``
        holds a partly written result -- neither its former contents nor the
        answer -- and the exception carries a note saying so
        (:mod:`apsp.partial_out`).  For a file that is complete or absent,
        see :mod:`graphs.atomic_file`.
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
        and returns dask arrays that stay on the workers; NumPy / CuPy / graph
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
    (:mod:`apsp.paths.exact_integers`), so every method gives the same, exact answer.

    Speed without a choice to make: non-negative integer weights run on plain
    integer sums (the ``+inf`` of missing arcs lowered to a stand-in);
    on Hopper GPUs, graphs whose distances provably fit in 15 bits (hop counts
    of up to 32 767 vertices, small weights) run on two 16-bit lanes per
    instruction (:mod:`apsp.cuda.packed_closure`); ``min_plus`` predecessors
    are read off the finished distances on either device (:mod:`apsp.paths.last_hop`).
    Each route is exact and gives the same answer as the general one.

    Examples
    --------
    >>> import apsp
    >>> import numpy as np
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
    >>> import graphs, scipy.sparse as sp
    >>> apsp.shortest_paths(graphs.as_graph(sp.csr_array(np.array([[0, 3.0], [1.0, 0]]))))
    array([[0., 3.],
           [1., 0.]])
    """
    req = make_request(W, method, semiring=semiring, predecessors=predecessors, device=device,
                       memory_budget=memory_budget, block_size=block_size, progress=progress, out=out, dtype=dtype,
                       memory_limit=memory_limit, devices=devices, client=client)
    if req.client is not None:  # a Dask cluster: apsp.distributed
        from .distributed import distributed_closure

        run = functools.partial(distributed_closure, req)
    else:
        run = functools.partial(solve, req)
    if out is None:
        return run()
    with noting_partial_out(out):  # a failure past the checks leaves out= partly written: the exception says so
        return run()


@fill_doc(DOOR_DOCS)
def prepare(W: Any, method: ClosureMethod = "auto", **options: Any) -> Request:
    """Check the arguments of :func:`shortest_paths` once and return the :class:`~apsp.request.Request` they make.

    Takes the arguments of :func:`shortest_paths`, with its defaults, and
    passes them to :func:`apsp.request.make_request`;
    ``apsp.solve(prepare(W, ...))`` is ``shortest_paths(W, ...)`` on one process.
    {checks}

    Parameters
    ----------
    W, method, **options
        Those of :func:`shortest_paths`.

    {returns}

    Examples
    --------
    >>> import numpy as np
    >>> req = prepare(np.array([[0.0, 2.0], [np.inf, 0.0]]), predecessors=True)
    >>> req.n, req.dtype, req.device, req.predecessors
    (2, dtype('float64'), 'cpu', True)
    >>> prepare(np.zeros((2, 3)))
    Traceback (most recent call last):
    ...
    semiring.errors.ShapeError: W must be square (an adjacency matrix), got shape (2, 3)
    """
    return make_request(W, method, **{**shortest_paths.__kwdefaults__, **options})  # type: ignore[dict-item]  # the defaults: shortest_paths' (never None: it has keyword-only arguments)


# -- conveniences ----------------------------------------------------------------------
#: The docstring blocks the conveniences share (:func:`semiring.docstrings.fill_doc`).
_DOCS = {
    "method": """\
method : str
    As in :func:`shortest_paths`.""",
    "kwargs": """\
**kwargs
    Those of :func:`shortest_paths`.""",
    "raises": """\
Raises
------
InvalidEntryError, ShapeError, DTypeError""",
}


def closure(A: Any, semiring: Semiring | str = sr.min_plus, **kwargs: Any) -> Any:
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
    >>> import numpy as np
    >>> from semiring import max_min
    >>> C = np.array([[np.inf, 5.0, 2.0], [-np.inf, np.inf, 4.0], [-np.inf, -np.inf, np.inf]])
    >>> apsp.closure(C, semiring=max_min)
    array([[ inf,   5.,   4.],
           [-inf,  inf,   4.],
           [-inf, -inf,  inf]])
    """
    return shortest_paths(A, semiring=semiring, **kwargs)


@fill_doc(_DOCS)
def transitive_closure(A: Any, method: ClosureMethod = "auto", **kwargs: Any) -> Any:
    """Reachability: ``R[i, j]`` is True when ``j`` can be reached from ``i`` (``R[i, i]`` always).

    The closure over ``lor_land``; its products run in the bit-packed Boolean
    GEMM (64 values of ``k`` per word operation).

    Parameters
    ----------
    A : array (n, n) of bool
        Adjacency matrix (NumPy or CuPy); other dtypes raise ``DTypeError``.
    {method}
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
    >>> import numpy as np
    >>> A = np.array([[False, True, False], [False, False, True], [False, False, False]])
    >>> apsp.transitive_closure(A).astype(int)
    array([[1, 1, 1],
           [0, 1, 1],
           [0, 0, 1]])
    """
    return shortest_paths(A, method, semiring=sr.lor_land, **kwargs)


@fill_doc(_DOCS)
def widest_paths(C: Any, method: ClosureMethod = "auto", **kwargs: Any) -> Any:
    """Widest (bottleneck) paths: the largest, over paths, of the smallest capacity along the path.

    The closure over ``max_min`` (Pollack, "The maximum capacity through a
    network", Oper. Res. 8, 1960).

    Parameters
    ----------
    C : array (n, n)
        ``C[i, j]`` is the capacity of edge ``i -> j``, ``-inf`` (the
        integer minimum for integer dtypes) where there is none.
    {method}
    {kwargs}

    Returns
    -------
    array (n, n): the widest-path capacities, ``+inf`` on the diagonal
    (staying put has no bottleneck); or (widths, P) with ``predecessors=True``.

    {raises}

    Examples
    --------
    >>> import apsp
    >>> import numpy as np
    >>> C = np.array([[-np.inf, 3.0, 1.0], [-np.inf, -np.inf, 2.0], [-np.inf, -np.inf, -np.inf]])
    >>> apsp.widest_paths(C)[0, 2]
    np.float64(2.0)
    """
    return shortest_paths(C, method, semiring=sr.max_min, **kwargs)


@fill_doc(_DOCS)
def minimax_paths(C: Any, method: ClosureMethod = "auto", **kwargs: Any) -> Any:
    """Minimax paths: the smallest, over paths, of the largest edge weight along the path.

    The closure over ``min_max`` (the bottleneck shortest path problem).

    Parameters
    ----------
    C : array (n, n)
        ``C[i, j]`` is the weight of edge ``i -> j``, ``+inf`` where there is none.
    {method}
    {kwargs}

    Returns
    -------
    array (n, n): the minimax values, ``-inf`` on the diagonal; or (values, P)
    with ``predecessors=True``.

    {raises}

    Examples
    --------
    >>> import apsp
    >>> import numpy as np
    >>> C = np.array([[np.inf, 3.0, 9.0], [np.inf, np.inf, 2.0], [np.inf, np.inf, np.inf]])
    >>> apsp.minimax_paths(C)[0, 2]
    np.float64(3.0)
    """
    return shortest_paths(C, method, semiring=sr.min_max, **kwargs)

