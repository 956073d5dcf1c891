"""Shortest paths with SciPy's interface: ``shortest_path``, ``floyd_warshall``, ``dijkstra``, ``bellman_ford``, ``johnson``, ``yen``.

The engines are this library's: the dense closure :func:`apsp.shortest_paths`
(R-Kleene on min-plus GEMM kernels) for Floyd-Warshall, and the many-source
search engine (:mod:`graphs.paths.many_source`: one Dijkstra per source with
Johnson's reweighting when weights are negative, each search stopping at
``limit``; Bellman-Ford as sparse min-plus products) for the others.  Inputs
are read as SciPy reads them (:mod:`graphs.csgraph._input`) into a graph
checked once here; the engine is handed that graph and the checked sources,
and checks nothing again; Yen's k shortest paths
(:class:`graphs.paths.k_shortest.YenSearch`) for ``yen``.  Outputs have SciPy's shapes and dtypes (float64
distances, int32 predecessors with ``-9999`` for "none").

Graphs whose arcs all weigh the same (``unweighted=True``, or unweighted
SNAP graphs read as ones) are searched breadth-first (:func:`graphs.bfs`, one
search per source): their shortest paths are the fewest-hop paths, and the
distances ``c * hops`` are exact (see :func:`_equal_weight`).  Under a
``limit`` that keeps the searches local (a few percent of the vertices), the
engine's searches that stop there are cheaper (:func:`_equal_weight_rows`).

Special weights are read as SciPy's loops read them.  A stored ``+inf`` or
NaN is no arc for the searches (SciPy never relaxes along it), but one hop
with ``unweighted=True`` (SciPy counts every stored entry).  Floyd-Warshall
reads a sparse input with ``csgraph_to_dense`` (CSR, CSC, LIL only; NaN
ignored) and a matrix that still holds NaN (a masked array's) or ``-inf``
runs SciPy's own loop (:func:`graphs.csgraph._kernels.scipy_floyd_warshall`),
whose answer there depends on its loop order.

Where the answers can differ: predecessors are one shortest-path tree, which
is SciPy's whenever shortest paths are unique (random continuous weights); with
ties (integer weights) both are valid trees but may pick different parents.
Distances of graphs with negative weights are computed with Johnson's
reweighting as in SciPy, so they can differ from SciPy's in the last bits.
An arc of weight ``-inf`` is an error for ``dijkstra``, ``bellman_ford`` and
``johnson`` (SciPy returns rows of NaN or ``-inf`` that depend on its loop
order); SciPy's ``dijkstra`` on a graph with a negative cycle may not return
at all, this one's answers exactly.
"""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import csgraph_to_dense as _scipy_csgraph_to_dense

from apsp import prepared_matrix, solve
from apsp.errors import NegativeCycleError as _LibraryNegativeCycleError
from semiring.backend import array_module
from semiring.docstrings import fill_template
from semiring.errors import InvalidEntryError

from ..convert import is_cupy_sparse
from ..csr_arrays import row_ids
from ..graph import Graph
from ..paths.engine import johnson_potentials
from ..paths.k_shortest import AStarSpurs, YenSearch
from ..paths.many_source import distance_rows, search_rows
from ..paths.sssp import sssp
from ..traversal.search import bfs
from . import _kernels as K
from ._input import (
    NULL,
    CsgraphNegativeCycleError,
    cast_weights,
    check_numbers,
    check_sparse_shape,
    dense_null_mask,
    from_pydata,
    gpu_csr,
    is_gpu_input,
    negative_cycle_error,
    resolve_device,
    result_dtype,
    scipy_csr,
    source_indices,
    to_device_like,
    to_host,
)

if TYPE_CHECKING:
    from semiring.array_types import Where

__all__ = ["shortest_path", "floyd_warshall", "dijkstra", "bellman_ford", "johnson", "yen"]

NEGATIVE_WARNING = ("Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
                    "negative cycles. Consider johnson or bellman_ford.")
METHODS = ("auto", "FW", "D", "BF", "J")
#: Share of the vertices up to which searches that stop at ``limit`` beat full breadth-first searches on a graph of
#: equal weights (:func:`_equal_weight_rows`); email-Enron, 64 sources, 2 CPU threads: a limit of 2 hops (3% of the
#: vertices) 0.026 s against 0.047 s breadth-first, 3 hops (29%) 0.10 s against 0.059 s.
LOCAL_SHARE = 0.2
#: Sources whose searches stopping at ``limit`` measure how far it reaches (:func:`_equal_weight_rows`).
PROBE_SOURCES = 4

#: The options this library adds to SciPy's functions, in their docstrings' Parameters.
_ADDED = """dtype : {float64, float32}, keyword-only
    Added: the distances' dtype.
device : {"auto", "cpu", "gpu"}, keyword-only
    Added: where to run (see :func:`shortest_path`).
"""
#: The docstring of :func:`dijkstra`, :func:`bellman_ford` and :func:`johnson`.
_SEARCH_DOC = """{summary} from the ``indices`` rows; mirrors ``scipy.sparse.csgraph.{name}``.

    {notes}

    Parameters
    ----------
    csgraph, directed, indices, return_predecessors, unweighted{scipy_more}
        As SciPy.
    {added}

    Returns
    -------
    dist_matrix : ndarray
    {dist_shape}
    predecessors : int32 ndarray
        With ``return_predecessors=True``.
    {sources}

    Raises
    ------
    NegativeCycleError
    ValueError
        Not a square 2-D graph; {value_errors}indices out of range.
    InvalidEntryError
        An edge of weight ``-inf`` (a ``ValueError``).

    Examples
    --------
    >>> import numpy as np
    >>> from graphs import csgraph
    {example}
    """


# -- input -----------------------------------------------------------------------------------------------

FW_FORMATS = ("lil", "csc", "csr")


def _dense_cpu(inp: _Input, directed: bool, unweighted: bool, overwrite: bool, dt: np.dtype) -> tuple[np.ndarray, bool]:
    """SciPy's Floyd-Warshall matrix on the host, and whether it holds NaN or ``-inf``.

    SciPy's ``floyd_warshall`` reads a graph with ``validate_graph(...,
    csr_output=False)``: a sparse input (CSR, CSC or LIL only) by
    ``csgraph_to_dense(A, null_value=inf)`` (the least of parallel entries,
    NaN entries ignored), a masked array by its mask, a dense array by
    :func:`graphs.csgraph._input.dense_null_mask`; then
    :func:`graphs.csgraph._kernels.floyd_warshall_matrix`.  Not symmetrized.
    """
    X = to_host(inp.X) if inp.gpu else inp.X
    zero_is_null = True
    null = np.zeros((0, 0), dtype=np.bool_)
    if sp.issparse(X):
        check_sparse_shape(X.shape)
        if not directed and X.format == "csc":
            X = X.T  # as SciPy: the transpose is CSR
        if X.format not in FW_FORMATS:
            raise ValueError("csgraph must be lil, csr, or csc format")
        D = _scipy_csgraph_to_dense(X, null_value=np.inf)
        if dt != D.dtype:
            D = cast_weights(D, dt)
        zero_is_null = False  # a stored 0 is an edge of weight 0
    elif np.ma.isMaskedArray(X):
        _shape(X)
        D = np.ascontiguousarray(cast_weights(np.asarray(X.filled(0)), dt))
        null = np.ascontiguousarray(np.ma.getmaskarray(X))
    else:
        if inp.gpu:
            arr = X
            _shape(arr)
            null = dense_null_mask(arr)
        else:
            arr = inp.array if inp.array is not None else inp.dense()
            null = inp._null if inp._null is not None else dense_null_mask(arr)
        in_place = (overwrite and type(arr) is np.ndarray and arr.dtype == dt and arr.flags.c_contiguous
                    and arr.flags.writeable)
        D = arr if in_place else (np.array(arr, order="C") if arr.dtype == dt
                                  else np.ascontiguousarray(cast_weights(arr, dt)))
    special = bool(K.floyd_warshall_matrix(D, null, unweighted, zero_is_null)) if D.shape[0] else False
    return D, special


def _host_graph(A: Any, data: Any) -> Graph:
    """The directed graph of SciPy's CSR matrix ``A`` with weights ``data`` (``A.data`` by default).

    An arc of weight ``+inf`` or NaN is left out: SciPy's searches never relax
    along it (``d + w`` is not below any distance), so it is no arc for them.
    An arc of weight ``-inf`` is an :class:`InvalidEntryError` naming it.
    """
    data = A.data if data is None else data
    if data.size and data.dtype.kind == "f" and not bool(np.isfinite(data).all()):
        _refuse_minus_inf(A, data)
        keep = ~(np.isnan(data) | np.isposinf(data))
        rows = row_ids(A.indptr)
        return Graph.from_edges(rows[keep], A.indices[keep], data[keep], n=A.shape[0])
    return Graph(A.indptr, A.indices, data, directed=True)


def _refuse_minus_inf(A: Any, data: Any) -> None:
    """:class:`InvalidEntryError` for the first arc of weight ``-inf`` (SciPy's searches give NaN or ``-inf`` rows)."""
    xp = array_module(data)
    bad = xp.nonzero(xp.isneginf(data))[0]
    if bad.shape[0]:
        k = int(bad[0])
        i = int(xp.searchsorted(A.indptr, k, side="right")) - 1
        raise InvalidEntryError(f"csgraph[{i}, {int(A.indices[k])}] is -inf: shortest paths through an edge of "
                                "weight -inf are undefined (only floyd_warshall follows SciPy there)")


def _shape(arr: Any) -> None:
    if arr.ndim != 2:
        raise ValueError("graph should have two dimensions")
    if arr.shape[0] != arr.shape[1]:
        raise ValueError("graph should be a square array")


def _dense_gpu(X: Any, directed: bool, unweighted: bool, dt: np.dtype) -> Any:
    """The matrix of :func:`_dense_cpu` for a CuPy array or ``cupyx`` matrix, as a CuPy array (None: NaN / -inf).

    ``None`` when the matrix holds NaN or ``-inf``: :func:`floyd_warshall`
    then runs SciPy's own loop on a host copy.
    """
    import cupy as cp

    if is_cupy_sparse(X):
        A = gpu_csr(X, dt, sum_duplicates=False)  # csgraph_to_dense's reading: the least duplicate counts
        keep = ~(cp.isnan(A.data) | cp.isposinf(A.data))  # csgraph_to_dense's reading: NaN ignored, +inf no edge
        G = Graph.from_edges(*_coo(A, keep), n=A.shape[0], device="gpu")
        D = G.to_dense(dtype=dt)
        zero_is_null = False
    else:
        _shape(X)
        null = dense_null_mask(X)
        D = cp.ascontiguousarray(cast_weights(X, dt))
        D[null] = cp.inf
        zero_is_null = True
    if zero_is_null:
        D[D == 0] = cp.inf
    if unweighted:
        D[~cp.isinf(D)] = 1
    if bool((cp.isnan(D) | cp.isneginf(D)).any()):
        return None
    if D.shape[0]:
        cp.fill_diagonal(D, 0)
    if not directed:
        D = cp.minimum(D, D.T)
    return D


def _coo(A: Any, keep: Any) -> tuple[Any, Any, Any]:
    """Rows, columns and values of the entries ``keep`` of a ``cupyx`` CSR matrix."""
    rows = row_ids(A.indptr)
    return rows[keep], A.indices[keep], A.data[keep]


def _cupyx_csr(A: Any) -> Any:
    import cupyx.scipy.sparse as csp

    return csp.csr_matrix(A)


def _sparse_graph(csgraph: Any, directed: bool, unweighted: bool, dt: np.dtype, dev: str) -> tuple[Graph, bool]:
    """The graph SciPy's searches read, on ``dev``; and whether some weight is negative."""
    if dev == "gpu":
        X = csgraph if is_gpu_input(csgraph) else _cupyx_csr(scipy_csr(csgraph, directed, dt))
        A = gpu_csr(X, dt)
        import cupy as cp

        data = A.data
        negative = bool((data < 0).any())
        if unweighted:
            data = cp.ones_like(data)
        elif bool(cp.isneginf(data).any()):
            _refuse_minus_inf(A, data)
        keep = ~(cp.isnan(data) | cp.isposinf(data))  # no arc for SciPy's searches, as in _host_graph
        if not bool(keep.all()):
            src, dst, w = _coo(A, keep)
            G = Graph.from_edges(src, dst, data[keep], n=A.shape[0], device="gpu")
        else:
            G = Graph(A.indptr, A.indices, data, directed=True)
    else:
        A = scipy_csr(to_host(csgraph), directed, dt)
        data = A.data
        negative = bool((data < 0).any()) if data.size else False
        if unweighted:
            data = np.ones_like(data)
        G = _host_graph(A, data)
    if not directed:
        G = G._symmetrized()
    return G, negative


def _as_kind(x: Any, gpu: bool) -> Any:
    return to_device_like(x, gpu)


# -- public functions -----------------------------------------------------------------------------------

def shortest_path(csgraph: Any, method: str = "auto", directed: bool = True, return_predecessors: bool = False,
                  unweighted: bool = False, overwrite: bool = False, indices: Any = None, *, dtype: Any = None,
                  device: str = "auto") -> Any:
    """Shortest-path lengths on a positive or negatively weighted graph; mirrors ``scipy.sparse.csgraph.shortest_path``.

    Same parameters, defaults, conventions, results and errors as SciPy's
    function of the same name (SciPy 1.17); the work runs on this library's
    engines (the dense closure of :func:`apsp.shortest_paths` for ``"FW"``,
    :func:`graphs.multi_source_sssp` for the others).

    Parameters
    ----------
    csgraph : array_like, sparse matrix or array, CuPy array or ``cupyx.scipy.sparse`` matrix (N, N)
        Dense: ``0`` (and floats within ``1e-8`` of it), ``inf`` and NaN
        are no edge.  Sparse: every stored entry is an edge, explicit zeros
        included.  pydata ``sparse`` arrays are read as SciPy reads them.
    method : {"auto", "FW", "D", "BF", "J"}
        As SciPy: ``"auto"`` picks Floyd-Warshall for dense graphs (at least
        ``N**2 / 4`` edges, no ``indices``), else Johnson when a weight is
        negative, else Dijkstra.
    directed, return_predecessors, unweighted, overwrite, indices
        As SciPy.  ``overwrite=True`` with a C-contiguous float64 (or
        ``dtype``) NumPy array computes Floyd-Warshall in that array.
    dtype : {float64, float32}, keyword-only
        Added: the dtype of the distances (float32 halves the memory).
    device : {"auto", "cpu", "gpu"}, keyword-only
        Added: ``"auto"`` runs on the GPU for CuPy / ``cupyx`` inputs (CuPy
        results) and on the CPU otherwise; ``"gpu"`` runs a NumPy / SciPy
        input on the GPU and returns NumPy results.

    Returns
    -------
    dist_matrix : ndarray (N, N), or (len(indices), N), or (N,) for a scalar index
    predecessors : int32 ndarray, same shape
        Only with ``return_predecessors=True``; ``-9999`` where none.

    Raises
    ------
    NegativeCycleError
        A negative cycle (SciPy's class, also :class:`graphs.NegativeCycleError`).
    ValueError
        Not a square 2-D graph, unknown method, ``indices`` with ``"FW"``,
        indices out of range.

    Examples
    --------
    >>> import numpy as np
    >>> from graphs import csgraph
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> csgraph.shortest_path(G, directed=False, indices=0, return_predecessors=True)
    (array([0., 1., 2., 2.]), array([-9999,     0,     0,     1], dtype=int32))
    """
    inp = _Input(csgraph)
    if method == "auto":
        method = _auto_method(inp, indices)
    elif method not in METHODS:
        _auto_method(inp, None)  # SciPy checks the graph first: its shape errors come before this one
        raise ValueError(f"unrecognized method '{method}'")
    csgraph = inp.X
    if method == "FW":
        if indices is not None:
            raise ValueError("Cannot specify indices with method == 'FW'.")
        return _floyd_warshall(inp, directed, bool(return_predecessors), unweighted, overwrite, dtype, device)
    if method == "D":
        return dijkstra(csgraph, directed, return_predecessors=return_predecessors, unweighted=unweighted,
                        indices=indices, dtype=dtype, device=device)
    if method == "BF":
        return bellman_ford(csgraph, directed, return_predecessors=return_predecessors, unweighted=unweighted,
                            indices=indices, dtype=dtype, device=device)
    if method == "J":
        return johnson(csgraph, directed, return_predecessors=return_predecessors, unweighted=unweighted,
                       indices=indices, dtype=dtype, device=device)
    raise ValueError(f"unrecognized method '{method}'")


class _Input:
    """A ``csgraph`` argument read once, at the door: the object (pydata ``sparse`` converted), its kind, where it lives.

    A dense NumPy array (the common case) has its shape checked here, once,
    and is :attr:`array`; other inputs are read into :attr:`array` the first
    time :meth:`dense` is asked.  ``_null`` is SciPy's no-edge mask of a dense
    array (:func:`dense_null_mask`) once the method choice has made it, kept
    for the reader of the matrix.
    """

    __slots__ = ("X", "array", "sparse", "gpu", "masked", "_null")
    X: Any  # the input as given (pydata sparse read as SciPy's): any array or sparse matrix
    array: Any  # the dense input, once read
    _null: Any  # its null mask, once read

    def __init__(self, X: Any) -> None:
        self._null = None
        if type(X) is np.ndarray:  # a dense host array: no other kind to look for
            _shape(X)
            self.X = self.array = X
            self.sparse = self.gpu = self.masked = False
            return
        self.X = X = from_pydata(X)
        self.array = None
        gpu_sparse = is_cupy_sparse(X)
        self.sparse = gpu_sparse or sp.issparse(X)
        self.gpu = gpu_sparse or (not self.sparse and hasattr(X, "__cuda_array_interface__"))
        self.masked = np.ma.isMaskedArray(X)

    def dense(self) -> Any:
        """The dense input as an array of its own module (NumPy for array-likes), its shape checked."""
        if self.array is None:
            X = self.X if self.gpu or isinstance(self.X, np.ndarray) else np.asarray(self.X)
            _shape(X)
            self.array = X
        return self.array



def _auto_method(inp: _Input, indices: Any) -> str:
    """SciPy's choice for ``method="auto"``: the number of edges against ``N**2 / 4`` and their signs.

    SciPy's own count, which is not quite its reading of the graph: a sparse
    input's stored entries, a masked array's unmasked ones, and a dense
    array's finite nonzero entries (no tolerance around 0 here).
    """
    csgraph = inp.X
    if inp.sparse:
        check_sparse_shape(csgraph.shape)
        nk = csgraph.nnz
        edges = csgraph.data if csgraph.format in ("csr", "csc", "coo") else csgraph.tocoo().data
    elif inp.masked:
        _shape(csgraph)
        nk = csgraph.count()
        edges = csgraph.compressed()
    else:
        X = inp.array if inp.array is not None else inp.dense()
        if inp._null is None:  # SciPy reads the graph first: its TypeError for a non-numeric dtype
            inp._null = dense_null_mask(X)  # kept for the reader of the matrix
        edges = X[(np if isinstance(X, np.ndarray) else array_module(X)).isfinite(X)]
        edges = edges[edges != 0]
        nk = edges.size
    n = csgraph.shape[0]
    if indices is not None or nk < n * n / 4:
        return "J" if bool((edges < 0).any()) else "D"
    return "FW"


@fill_template(added=_ADDED)
def floyd_warshall(csgraph: Any, directed: bool = True, return_predecessors: bool = False, unweighted: bool = False,
                   overwrite: bool = False, *, dtype: Any = None, device: str = "auto") -> Any:
    """All-pairs shortest paths by a dense closure; mirrors ``scipy.sparse.csgraph.floyd_warshall``.

    Same parameters, defaults, results and errors as SciPy's function of the
    same name; computed by :func:`apsp.shortest_paths` (recursive R-Kleene on
    blocked min-plus kernels, O(N^3) like Floyd-Warshall).  Self loops are
    ignored (the diagonal is 0), as in SciPy.

    Parameters
    ----------
    csgraph, directed, return_predecessors, unweighted, overwrite
        As SciPy.  ``overwrite=True`` on a C-contiguous NumPy array of the
        result dtype computes in that array (no copy).
    {added}

    Returns
    -------
    dist_matrix : ndarray (N, N)
    predecessors : int32 ndarray (N, N)
        Only with ``return_predecessors=True``.

    Raises
    ------
    NegativeCycleError
        ``"Negative cycle in nodes [...]"`` (the nodes of one such cycle).
    ValueError
        Not a square 2-D graph; a sparse input other than CSR, CSC or LIL
        (SciPy's ``csgraph_to_dense`` reads only those).
    TypeError
        A dense input that does not hold numbers.

    Examples
    --------
    >>> import numpy as np
    >>> from graphs import csgraph
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> csgraph.floyd_warshall(G, directed=False)
    array([[0., 1., 2., 2.],
           [1., 0., 3., 1.],
           [2., 3., 0., 3.],
           [2., 1., 3., 0.]])
    """
    return _floyd_warshall(_Input(csgraph), directed, bool(return_predecessors), unweighted, overwrite, dtype, device)


def _floyd_warshall(inp: _Input, directed: bool, return_predecessors: bool, unweighted: bool, overwrite: bool,
                    dtype: Any, device: str) -> Any:
    """:func:`floyd_warshall` of a read input: SciPy's dense matrix, then the closure of :mod:`apsp`."""
    dt = np.dtype(np.float64) if dtype is None else result_dtype(dtype)
    gpu_in = inp.gpu
    dev = ("gpu" if gpu_in else "cpu") if device == "auto" else resolve_device(inp.X, device)
    D = _dense_gpu(inp.X, directed, unweighted, dt) if dev == "gpu" and gpu_in else None
    if D is None:
        D, special = _dense_cpu(inp, directed, unweighted, overwrite and not gpu_in, dt)
        if special:  # NaN or -inf: SciPy's answer is its loop's
            return _scipy_loop(D, directed, return_predecessors, gpu_in)
        if not directed and D.shape[0]:
            K.symmetrize_min(D)
        if dev == "gpu":
            D = to_device_like(D, True)
    n = D.shape[0]
    if n == 0:
        P = D.astype(np.int32)
        res = (D, P) if return_predecessors else D
    else:
        try:  # the matrix is built and checked here (inf off-edge, 0 on the diagonal, no NaN or -inf)
            res = solve(prepared_matrix(D, predecessors=return_predecessors, device=dev,
                                        out=D if dev == "cpu" else None))
        except _LibraryNegativeCycleError as err:
            nodes = np.array(sorted(set(err.cycle)))
            raise negative_cycle_error(err, f"Negative cycle in nodes {nodes}") from err
    if return_predecessors:
        D, P = res
        if dev == "cpu":
            K.null_predecessors(P, NULL)
        else:
            P[P < 0] = NULL
        return (_as_kind(D, gpu_in), _as_kind(P, gpu_in)) if gpu_in or dev == "gpu" else (D, P)
    return _as_kind(res, gpu_in) if gpu_in or dev == "gpu" else res


def _scipy_loop(D: np.ndarray, directed: bool, return_predecessors: bool, gpu_in: bool) -> Any:
    """SciPy's own Floyd-Warshall loop on ``D`` (:func:`_kernels.scipy_floyd_warshall`) and its negative-cycle test."""
    n = D.shape[0]
    P = np.empty((n, n) if return_predecessors else (0, 0), dtype=np.int32)
    K.scipy_floyd_warshall(D, P, directed, NULL)
    negative = np.nonzero(np.diagonal(D) < 0)[0]
    if negative.shape[0]:
        raise CsgraphNegativeCycleError(f"Negative cycle in nodes {negative}", int(negative[0]))
    if return_predecessors:
        return _as_kind(D, gpu_in), _as_kind(P, gpu_in)
    return _as_kind(D, gpu_in)


def _run_sources(G: Graph, src: np.ndarray, method: str, predecessors: bool = True, limit: float | None = None,
                 out: np.ndarray | None = None) -> tuple[Any, Any]:
    """The engine's rows from ``src`` on the graph read at the door, with SciPy's error class and ``-9999`` predecessors.

    ``method`` ``"spmm"``: Bellman-Ford on all sources at once
    (:func:`graphs.paths.many_source.search_rows`); else
    :func:`graphs.paths.many_source.distance_rows`, whose searches stop at
    ``limit`` (distances above it ``inf``, predecessors ``-9999``).  ``G``
    holds no ``-inf`` weight (:func:`_sparse_graph` refused it) and ``src``
    was checked by :func:`source_indices`.  ``P`` is ``None`` when not asked
    for; ``out``: the host array to fill with ``D`` (not for ``"spmm"``).
    """
    try:
        if method == "spmm":
            D, P = search_rows(G, src, "spmm", predecessors)
        else:
            D, P = distance_rows(G, src, None, limit=limit, predecessors=predecessors, out=out)
    except _LibraryNegativeCycleError as err:
        raise negative_cycle_error(err, f"Negative cycle detected on node {err.vertex}") from err
    if P is None:
        return D, P
    if G.device == "cpu":
        K.null_predecessors(P, NULL)
    else:
        P[P < 0] = NULL
    return D, P


def _searches(csgraph: Any, directed: bool, indices: Any, return_predecessors: bool, unweighted: bool, dtype: Any,
              device: str, method: str, warn_negative: bool = False,
              limit: float = np.inf) -> tuple[Any, Any, tuple[int, ...], bool]:
    """Rows ``(D, P, shape, gpu_in)`` of SciPy's searches: the door (graph and ``indices`` read once), then the engine.

    A finite ``limit`` goes into the searches (:func:`_run_sources`), which
    stop there; graphs of equal weights are searched breadth-first unless the
    limit keeps the searches local (:func:`_equal_weight_rows`).  A NaN
    ``limit`` reaches only the sources, as SciPy's ``next <= limit`` test
    answers it.
    """
    dt = result_dtype(dtype)
    dev = resolve_device(csgraph, device)
    gpu_in = is_gpu_input(csgraph)
    G, negative = _sparse_graph(csgraph, directed, unweighted, dt, dev)
    if warn_negative and negative:
        warnings.warn(NEGATIVE_WARNING, UserWarning, stacklevel=3)
    src, shape = source_indices(indices, G.n)
    lim = _limit_in(limit, dt)
    c = _equal_weight(G, dt) if dev == "cpu" else None
    if lim is not None and lim != lim:  # a NaN limit: SciPy relaxes no arc, only the sources are reached
        D, P = _sources_only(src, G.n, dt, bool(return_predecessors))
    elif c is not None:
        D, P = _equal_weight_rows(G, src, c, dt, lim, bool(return_predecessors))
    else:
        D, P = _run_sources(G, src, method, bool(return_predecessors), lim)
    return D, P, shape, gpu_in


def _sources_only(src: np.ndarray, n: int, dt: np.dtype, predecessors: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Rows in which each source alone is reached (distance 0), as SciPy's search answers a NaN ``limit``."""
    D = np.full((src.shape[0], n), np.inf, dtype=dt)
    D[np.arange(src.shape[0]), src] = 0
    return D, (np.full(D.shape, NULL, dtype=np.int32) if predecessors else None)


def _limit_in(limit: float, dt: np.dtype) -> float | None:
    """``limit`` as the engine takes it: ``None`` for none (``inf``), else its value in the distances' dtype (or NaN).

    SciPy compares its float64 distances with ``limit``; distances held in
    float32 are compared with ``limit`` rounded to float32, as NumPy compares
    a float32 array with a Python float.
    """
    if limit == np.inf:
        return None
    with np.errstate(over="ignore"):
        value = float(dt.type(limit))
    return None if value == np.inf else value


def _equal_weight(G: Graph, dt: np.dtype) -> float | None:
    """The common weight ``c`` of a graph whose arcs all weigh the same ``c > 0``, if its multiples are exact.

    Then shortest paths are fewest-hop paths and ``dist = c * hops`` equals the
    sum of ``hops`` copies of ``c`` that a search adds up: ``c`` is an integer
    or a power of two and ``c * n`` stays below ``2**53`` (float64) or ``2**24``
    (float32).  Else ``None``.
    """
    w = G.weights
    if w is None or w.shape[0] == 0:
        return 1.0
    lo, hi = float(w.min()), float(w.max())
    if lo != hi or not lo > 0 or not np.isfinite(lo):
        return None
    if not (lo.is_integer() or np.frexp(lo)[0] == 0.5):
        return None
    if lo * max(G.n, 1) >= (2.0**53 if dt == np.float64 else 2.0**24):
        return None
    return lo


def _bfs_rows(G: Graph, src: np.ndarray, c: float, dt: np.dtype, D: np.ndarray | None = None,
              P: np.ndarray | None = None, limit: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Distances ``c * hops`` and breadth-first parents (``-9999`` for none) from each source, by :func:`graphs.bfs`.

    Into ``D`` and ``P`` when given; distances above ``limit`` are then cut
    (``inf``, ``-9999``).
    """
    if D is None:
        D = np.empty((src.shape[0], G.n), dtype=dt)
    if P is None:
        P = np.empty((src.shape[0], G.n), dtype=np.int32)
    for r, s in enumerate(src.tolist()):
        levels, parents = bfs(G, s)
        np.multiply(levels, c, out=D[r], casting="unsafe")
        D[r][levels < 0] = np.inf
        P[r] = parents
        if limit is not None:
            far = D[r] > limit
            D[r][far] = np.inf
            P[r][far] = -1
    if P.size:
        K.null_predecessors(P, NULL)
    return D, P


def _equal_weight_rows(
    G: Graph, src: np.ndarray, c: float, dt: np.dtype, limit: float | None, predecessors: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """Rows of a graph whose arcs all weigh ``c``: breadth-first, or the engine's searches where ``limit`` keeps them local.

    Without a limit, :func:`_bfs_rows`.  With one, the searches of the first
    source, then of the next ones up to :data:`PROBE_SOURCES`, stop at
    ``limit`` (:func:`_run_sources`) and tell how far the limit reaches:
    while they reach at most :data:`LOCAL_SHARE` of the vertices on average,
    the other sources are searched the same way; beyond it, full
    breadth-first searches cut at the limit cost less (a queue step per vertex
    against a heap step), and serve the remaining sources.
    """
    if limit is None:
        return _bfs_rows(G, src, c, dt)
    k, n = src.shape[0], G.n
    D = np.empty((k, n), dtype=dt)
    P = np.empty((k, n), dtype=np.int32) if predecessors else None
    done = reached = 0
    for step in (1, PROBE_SOURCES - 1, k):  # probes of 1 and 3 sources, then the rest
        r1 = min(k, done + step)
        if r1 > done and reached > LOCAL_SHARE * n * done:  # the limit reaches far: breadth-first is cheaper
            _bfs_rows(G, src[done:], c, dt, D[done:], np.empty((k - done, n), np.int32) if P is None else P[done:],
                      limit)
            break
        if r1 > done:
            _, Pr = _run_sources(G, src[done:r1], "dijkstra", predecessors, limit, out=D[done:r1])
            if P is not None:
                P[done:r1] = Pr
            reached += int(np.count_nonzero(D[done:r1] != np.inf))
        done = r1
    return D, P


def _finish(D: Any, P: Any, shape: tuple[int, ...], gpu_in: bool, return_predecessors: bool) -> Any:
    D = _as_kind(D.reshape(shape), gpu_in)
    if return_predecessors:
        return D, _as_kind(P.reshape(shape), gpu_in)
    return D


@fill_template(_SEARCH_DOC, added=_ADDED, summary="Dijkstra's algorithm", name="dijkstra", scipy_more=", limit, min_only",
        notes="""\
Same parameters, defaults, results and errors as SciPy's function of the
same name, computed by the many-source search engine
(:mod:`graphs.paths.many_source`: one Dijkstra per source, sources in
parallel; on the GPU, thousands of sources per batch).  ``limit`` goes into
the searches, which stop there: distances above it are ``inf`` (predecessor
``-9999``), as in SciPy's search, and a small limit makes the call cheap.
``min_only=True`` is one search from a virtual source joined to all
``indices`` by 0-arcs and returns, with predecessors, SciPy's ``(dist,
predecessors, sources)``.  Negative weights
give SciPy's warning; the answer is then exact (Johnson's reweighting), and a
negative cycle raises :class:`NegativeCycleError` (SciPy's search does not
stop on one).
""",
        dist_shape="    ``(len(indices), N)``, ``(N,)`` for a scalar index or ``min_only``.",
        sources="""sources : int32 ndarray (N,)
    With ``return_predecessors=True`` and ``min_only=True``: the source
    each vertex is closest to (``-9999`` if none reaches it).""",
        value_errors="``limit < 0``; ",
        example="""\
>>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
>>> csgraph.dijkstra(G, indices=[0, 2])
array([[0., 1., 2., 2.],
       [2., 3., 0., 3.]])
>>> csgraph.dijkstra(G, indices=[1, 2], min_only=True, return_predecessors=True)
(array([2., 0., 0., 1.]), array([    2, -9999, -9999,     1], dtype=int32), array([2, 1, 2, 1], dtype=int32))""")
def dijkstra(csgraph: Any, directed: bool = True, indices: Any = None, return_predecessors: bool = False,
             unweighted: bool = False, limit: float = np.inf, min_only: bool = False, *, dtype: Any = None,
             device: str = "auto") -> Any:
    limit = float(limit)
    if limit < 0:
        raise ValueError("limit must be >= 0")
    if min_only:
        return _dijkstra_min_only(csgraph, directed, indices, return_predecessors, unweighted, limit, dtype, device)
    D, P, shape, gpu_in = _searches(csgraph, directed, indices, return_predecessors, unweighted, dtype, device,
                                    "dijkstra", warn_negative=True, limit=limit)
    return _finish(D, P, shape, gpu_in, return_predecessors)


def _dijkstra_min_only(csgraph: Any, directed: bool, indices: Any, return_predecessors: bool, unweighted: bool,
                       limit: float, dtype: Any, device: str) -> Any:
    """SciPy's ``min_only``: one search from a virtual source ``n`` joined to the ``indices`` by 0-arcs.

    With a limit, on the CPU and non-negative weights, the engine's search
    (:func:`graphs.paths.many_source.distance_rows`), which stops there;
    else :func:`graphs.sssp` (Bellman-Ford for negative weights), cut at the
    limit afterwards.  Each vertex's source is the root of its tree.
    """
    dt = result_dtype(dtype)
    dev = resolve_device(csgraph, device)
    gpu_in = is_gpu_input(csgraph)
    G, negative = _sparse_graph(csgraph, directed, unweighted, dt, dev)
    if negative:
        warnings.warn(NEGATIVE_WARNING, UserWarning, stacklevel=3)
    n = G.n
    src, _ = source_indices(indices, n)
    xp = G.xp
    src = xp.unique(xp.asarray(src)).astype(np.int32)
    u, v, w = G.edges()
    if w is None:
        w = xp.ones(G.nnz, dtype=dt)
    k = src.shape[0]
    S = Graph.from_edges(xp.concatenate((u, xp.full(k, n, dtype=np.int32))), xp.concatenate((v, src)),
                         xp.concatenate((w, xp.zeros(k, dtype=w.dtype))), n=n + 1,
                         device=cast("Where", G.device))  # a Graph's device is "cpu" or "gpu"
    lim = _limit_in(limit, dt)
    negative = negative and not unweighted
    if lim is not None and lim != lim:  # a NaN limit: SciPy relaxes no arc, only the sources are reached
        dist = xp.full(n, np.inf, dtype=dt)
        dist[src] = 0
        pred = xp.full(n, -1, dtype=np.int32)
    elif lim is not None and G.device == "cpu" and not negative:  # the engine's search, stopping at the limit
        D, Pr = distance_rows(S, np.array([n], dtype=np.int32), None, limit=lim, predecessors=True)
        dist, pred = D[0, :n], Pr[0, :n]
        pred[pred == n] = -1
    else:  # no limit: one single-source search (3.5% faster than the engine's single row on a road network)
        method: Literal["bellman-ford", "dijkstra", "auto"] = (
            "bellman-ford" if negative else ("dijkstra" if G.device == "cpu" else "auto"))
        try:
            dist, pred = sssp(S, n, method=method)
        except _LibraryNegativeCycleError as err:
            raise negative_cycle_error(err, f"Negative cycle detected on node {err.vertex}") from err
        dist = dist[:n].copy()
        pred = pred[:n].copy()
        pred[pred == n] = -1
        if lim is not None:
            far = dist > lim
            dist[far] = np.inf
            pred[far] = -1
    reached = xp.isfinite(dist)
    root = xp.where(pred < 0, xp.arange(n, dtype=np.int32), pred)
    while True:  # pointer jumping to the root of each vertex's tree: its source
        nxt = root[root]
        if bool((nxt == root).all()):
            break
        root = nxt
    sources = xp.where(reached, root, NULL).astype(np.int32)
    pred[pred < 0] = NULL
    if return_predecessors:
        return _as_kind(dist, gpu_in), _as_kind(pred, gpu_in), _as_kind(sources, gpu_in)
    return _as_kind(dist, gpu_in)


@fill_template(_SEARCH_DOC, added=_ADDED, summary="Bellman-Ford", name="bellman_ford", scipy_more="", dist_shape="",
        sources="", value_errors="",
        notes="""\
Same parameters, defaults, results and errors as SciPy's function of the
same name, computed by :func:`graphs.multi_source_sssp` with
``method="spmm"``: Bellman-Ford on all sources at once, one min-plus
sparse-times-dense product per round (no reweighting, so distances are
exact sums of arc weights).  A negative cycle reachable from a source
raises :class:`NegativeCycleError`.
""",
        example="""\
>>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [-1, 0, 0, 3], [0, 0, 0, 0]])
>>> csgraph.bellman_ford(G, indices=2)
array([-1.,  0.,  0.,  1.])""")
def bellman_ford(csgraph: Any, directed: bool = True, indices: Any = None, return_predecessors: bool = False,
                 unweighted: bool = False, *, dtype: Any = None, device: str = "auto") -> Any:
    D, P, shape, gpu_in = _searches(csgraph, directed, indices, return_predecessors, unweighted, dtype, device,
                                    "spmm")
    return _finish(D, P, shape, gpu_in, return_predecessors)


@fill_template(_SEARCH_DOC, added=_ADDED, summary="Johnson's algorithm", name="johnson", scipy_more="", dist_shape="",
        sources="", value_errors="",
        notes="""\
Same parameters, defaults, results and errors as SciPy's function of the
same name, computed by :func:`graphs.multi_source_sssp` (Bellman-Ford
potentials, then one Dijkstra per source on the reweighted arcs, sources in
parallel).  Any negative cycle of the graph raises
:class:`NegativeCycleError`, as in SciPy.
""",
        example="""\
>>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [-1, 0, 0, 3], [0, 0, 0, 0]])
>>> csgraph.johnson(G, indices=[2], return_predecessors=True)
(array([[-1.,  0.,  0.,  1.]]), array([[    2,     0, -9999,     1]], dtype=int32))""")
def johnson(csgraph: Any, directed: bool = True, indices: Any = None, return_predecessors: bool = False,
            unweighted: bool = False, *, dtype: Any = None, device: str = "auto") -> Any:
    D, P, shape, gpu_in = _searches(csgraph, directed, indices, return_predecessors, unweighted, dtype, device,
                                    "dijkstra")
    return _finish(D, P, shape, gpu_in, return_predecessors)


def yen(csgraph: Any, source: int, sink: int, K: int, *, directed: bool = True, return_predecessors: bool = False,
        unweighted: bool = False) -> Any:
    """The ``K`` shortest loopless paths from ``source`` to ``sink`` (Yen); mirrors ``scipy.sparse.csgraph.yen``.

    Same parameters, defaults, results and errors as SciPy's function of the
    same name (SciPy 1.17), computed by this library's engine
    (:class:`graphs.paths.k_shortest.YenSearch`: each round's spur searches
    in one batch on the CPU threads, A* towards the sink, Lawler's rule).
    Negative weights are handled as SciPy handles them: Johnson's potentials
    (a negative cycle raises :class:`NegativeCycleError` naming a vertex on
    it), Yen on the reweighted arcs, lengths restored by ``h[sink] -
    h[source]``.

    Where the answers can differ: paths of equal length come in lexicographic
    order of their vertices (SciPy's order among them is its own), so the
    predecessor rows of tied paths may come in another order.  ``source`` and
    ``sink`` must be integers (SciPy truncates floats); ``K`` as large as
    asked costs nothing (SciPy allocates ``K`` rows first).  Two departures
    where SciPy's answer is an accident: ``source == sink`` on a graph of no
    edge gives ``[0.]`` (SciPy raises "Invalid shape in axis 0"), and an edge
    of weight ``-inf`` is an :class:`InvalidEntryError` (SciPy returns no
    path).  pydata sparse arrays are read as SciPy's other functions read them
    (SciPy's ``yen`` rejects their int64 indices).

    Parameters
    ----------
    csgraph : array_like, sparse matrix or array, or pydata sparse array (N, N)
        Dense: ``0``, ``inf`` and NaN are no edge; sparse: every stored entry
        is an edge (parallel entries: the lightest).
    source, sink : int
    K : int
        The number of paths to find (``0``: none).
    directed, return_predecessors, unweighted : bool
        As SciPy.

    Returns
    -------
    dist_array : ndarray (M,)
        The ``M <= K`` path lengths found, shortest first.
    predecessors : int32 ndarray (M, N)
        With ``return_predecessors=True``: one row per path, ``-9999`` off it.

    Raises
    ------
    NegativeCycleError
        A negative cycle (SciPy's class, also :class:`graphs.NegativeCycleError`).
    ValueError
        Not a square 2-D graph; ``source`` or ``sink`` outside ``[0, N)``;
        ``K < 0``.
    TypeError
        ``source``, ``sink`` or ``K`` not an integer; a dense input that does
        not hold numbers.

    Examples
    --------
    >>> import numpy as np
    >>> from graphs import csgraph
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> csgraph.yen(G, 0, 3, 2)
    array([2., 5.])
    >>> csgraph.yen(G, 0, 3, 2, directed=False, return_predecessors=True)[1]
    array([[-9999,     0, -9999,     1],
           [-9999, -9999,     0,     2]], dtype=int32)
    >>> import graphs
    >>> try:
    ...     csgraph.yen(np.array([[0, 1.0], [-2.0, 0]]), 0, 1, 1)
    ... except graphs.NegativeCycleError as err:
    ...     print(err)
    Negative cycle detected on node 0
    """
    check_numbers(csgraph)  # SciPy's TypeError for a dense array of no numbers, raised here
    G, negative = _sparse_graph(csgraph, directed, unweighted, np.dtype(np.float64), "cpu")
    n = G.n
    s, t = _yen_vertex(source, "source"), _yen_vertex(sink, "sink")
    if not (0 <= s < n and 0 <= t < n):
        raise ValueError(f"For csgraph with shape (N, N), must have 0 <= source < N and 0 <= sink < N. "
                         f"Got N={n}, source={source!r}, sink={sink!r}.")
    K = _yen_count(K)
    shift = 0.0
    if negative and not unweighted:
        try:
            h = johnson_potentials(G)
        except _LibraryNegativeCycleError as err:
            raise negative_cycle_error(err, f"Negative cycle detected on node {err.vertex}") from err
        rows = row_ids(G.indptr)
        w = G.weights + h[rows] - h[G.indices]
        np.maximum(w, 0.0, out=w)  # rounding may leave -1e-16 on tight arcs
        G = Graph(G.indptr, G.indices, w, directed=G.directed, check=False)
        shift = float(h[t] - h[s])
    found = YenSearch(AStarSpurs(G, s, t), k=K).take(K) if K else []
    dist = np.array([float(d) + shift for d, _, _ in found], dtype=np.float64)
    if not return_predecessors:
        return dist
    pred = np.full((len(found), n), NULL, dtype=np.int32)
    for r, (_, path, _) in enumerate(found):
        pred[r, path[1:]] = path[:-1]
    return dist, pred


def _yen_vertex(v: Any, name: str) -> int:
    """``source`` / ``sink`` of :func:`yen` as an int: integers only (SciPy truncates floats)."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {v!r}")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {v!r} ({type(v).__name__})") from None


def _yen_count(K: Any) -> int:
    """``K`` of :func:`yen`: an integer, at least 0 (SciPy's ``np.full(K, ...)`` accepts no other)."""
    if isinstance(K, (bool, np.bool_)):
        raise TypeError(f"K must be an integer, got {K!r}")
    try:
        K = operator.index(K)
    except TypeError:
        raise TypeError(f"K must be an integer, got {K!r} ({type(K).__name__})") from None
    if K < 0:
        raise ValueError(f"K must be at least 0 (negative dimensions are not allowed), got {K}")
    return K
