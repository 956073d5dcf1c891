"""SciPy's input conventions for :mod:`graphs.csgraph`, the negative-cycle error, and the device choice.

This module reads a graph the way ``scipy.sparse.csgraph`` (SciPy 1.17,
``scipy/sparse/csgraph/_validation.py``) does, so that every function of the
drop-in sees the same arcs as SciPy's:

* a dense array: the entries of :func:`dense_null_mask` are no edge (``0`` and
  every float within ``1e-8`` of it, ``+-inf``, NaN), every other entry is an
  arc; that function is the one place the drop-in decides it, on the CPU and
  the GPU;
* a masked array: masked entries are no edge;
* a sparse matrix: every stored entry is an arc, explicit zeros included;
  ``A.tocsr()`` is what the algorithms read, so a COO matrix's duplicates are
  summed (SciPy's ``tocsr``) and a CSR matrix's duplicates stay parallel arcs
  (the shortest one counts, as in SciPy's Dijkstra);
* a pydata ``sparse`` array (``sparse.COO``, ``sparse.GCXS``): converted by its
  ``to_scipy_sparse()``, as SciPy does (:func:`from_pydata`), and the
  functions that return a graph return one of the input's class;
* ``directed=False``: an arc either way joins ``i`` and ``j``, the smaller
  weight counts.

CuPy arrays and ``cupyx.scipy.sparse`` matrices are read the same way on the
GPU.  ``device="auto"`` runs where the input lives; ``device="gpu"`` copies a
NumPy / SciPy input to the GPU and returns NumPy / SciPy results.
"""

from __future__ import annotations

import operator
import sys
from typing import Any, cast

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse import csgraph as _scipy_csgraph
from scipy.sparse.csgraph import csgraph_from_masked as _csgraph_from_masked

from semiring.array_types import Where
from semiring.backend import array_module
from semiring.errors import InvalidEntryError

from ..convert import is_cupy_sparse
from ..errors import GraphError, VertexError
from ..errors import NegativeCycleError as _GraphsNegativeCycleError

__all__ = ["as_index", "NegativeCycleError", "CsgraphNegativeCycleError", "NULL", "NULL_ATOL", "dense_null_mask", "from_pydata",
           "like_pydata", "is_pydata", "is_gpu_input", "resolve_device", "result_dtype", "scipy_csr", "source_indices",
           "check_vertex_index", "check_sparse_shape", "to_host", "to_device_like", "negative_cycle_error",
           "check_numbers", "check_predecessors"]

#: SciPy's mark of a missing predecessor.
NULL = -9999
DEVICES = ("auto", "cpu", "gpu")


#: The drop-in's ``NegativeCycleError`` is SciPy's class itself, so that ``except
#: graphs.csgraph.NegativeCycleError`` also catches the errors of SciPy's own functions.
NegativeCycleError = _scipy_csgraph.NegativeCycleError


class CsgraphNegativeCycleError(_scipy_csgraph.NegativeCycleError, _GraphsNegativeCycleError):  # type: ignore[misc]  # SciPy has no stubs: its class reads as Any
    """The negative cycles :mod:`graphs.csgraph` reports: SciPy's ``NegativeCycleError`` and :class:`graphs.NegativeCycleError`.

    Every function of the drop-in raises this class, so ``except
    scipy.sparse.csgraph.NegativeCycleError`` (which is
    ``graphs.csgraph.NegativeCycleError``) and ``except
    graphs.NegativeCycleError`` (a ``ValueError``) both catch its errors.
    ``vertex`` lies on the cycle and ``cycle`` lists it when it is known
    (``-1`` / ``[-1]`` when not).

    Examples
    --------
    >>> import scipy.sparse.csgraph, graphs
    >>> err = CsgraphNegativeCycleError("Negative cycle detected on node 0", vertex=0)
    >>> isinstance(err, scipy.sparse.csgraph.NegativeCycleError), isinstance(err, graphs.NegativeCycleError)
    (True, True)
    >>> str(err)
    'Negative cycle detected on node 0'
    """

    def __init__(self, message: str = "", vertex: int = -1, cycle: list[int] | None = None, weight: Any = None) -> None:
        _GraphsNegativeCycleError.__init__(self, vertex, cycle, weight, message=str(message))


#: SciPy's (major, minor): a few conventions changed between releases (strong components' numbering, 1.18).
SCIPY_VERSION = tuple(int(part) for part in scipy.__version__.split(".")[:2])


def negative_cycle_error(err: Exception, message: str) -> CsgraphNegativeCycleError:
    """The drop-in's :class:`CsgraphNegativeCycleError` carrying the vertex and cycle of the library's ``err``."""
    return CsgraphNegativeCycleError(message, getattr(err, "vertex", -1), getattr(err, "cycle", None),
                                     getattr(err, "weight", None))


# -- what is an edge -------------------------------------------------------------------------------------------

#: The absolute tolerance of SciPy's null test for dense graphs (``numpy.ma.masked_values``' ``atol``).
NULL_ATOL = 1e-8
#: The fill values SciPy accepts for a pydata sparse array read as a graph: each stands for "no edge".
PYDATA_NULLS = (0, np.inf, np.nan)


def dense_null_mask(X: Any) -> Any:
    """The entries of a dense graph that are no edge, as SciPy decides them (NumPy or CuPy, same kind as ``X``).

    SciPy reads a dense graph through ``csgraph_masked_from_dense(X,
    null_value=0, nan_null=True, infinity_null=True)``, whose null test is
    ``numpy.ma.masked_values(X, 0)``: for floating dtypes
    ``numpy.isclose(X, 0)``, i.e. ``|x| <= 1e-8`` (:data:`NULL_ATOL`, compared
    in float64 or wider), for the other dtypes ``x == 0``; then ``+-inf`` and
    NaN.  Every function of :mod:`graphs.csgraph` that reads a dense array
    asks this function, on the CPU and the GPU.

    Parameters
    ----------
    X : ndarray or CuPy array (N, N)
        Of a numeric dtype (bool, integers, floats, complex).

    Returns
    -------
    bool array of ``X``'s shape and kind

    Raises
    ------
    TypeError
        ``X`` does not hold numbers (object, strings, dates): SciPy's
        exception type for them.

    Examples
    --------
    >>> import numpy as np
    >>> dense_null_mask(np.array([[0.0, 5e-9, 2e-8], [np.inf, np.nan, -1.0]]))
    array([[ True,  True, False],
           [ True,  True, False]])
    >>> dense_null_mask(np.array([[0, 1], [2, 0]]))
    array([[ True, False],
           [False,  True]])
    """
    check_numbers(X)
    xp = np if isinstance(X, np.ndarray) else array_module(X)
    if X.dtype.kind == "f":
        # isclose(x, 0) with numpy.ma.masked_values' tolerances: |x - 0| <= atol + rtol * |0|, compared in float64
        # or wider; as two comparisons, so that no float temporary of X's size is made
        atol = np.float64(NULL_ATOL)
        null = X <= atol
        null &= X >= -atol
    else:
        null = X == 0
    if X.dtype.kind in "fc":
        null |= ~xp.isfinite(X)  # +-inf and NaN (for complex: either part)
    return null


def check_numbers(X: Any, name: str = "csgraph") -> None:
    """A ``TypeError`` naming ``name`` when the dense array ``X`` does not hold numbers; other inputs pass.

    SciPy reads a dense graph with NumPy's masked-array and ``isinf`` tests,
    which raise a ``TypeError`` for an array of Python objects, strings,
    bytes, dates, time spans or records; it reads bool, integer, float and
    complex arrays (complex ones without their imaginary parts).  The drop-in
    raises the same kind of error, from here, before SciPy's or NumPy's code
    sees the array.  Sparse matrices (which hold numbers only) and array-likes
    that are not arrays (lists, read by NumPy as SciPy does) pass.

    Examples
    --------
    >>> check_numbers(np.array([["0", "1"], ["1", "0"]]))
    Traceback (most recent call last):
    ...
    TypeError: csgraph must hold numbers (bool, integers, floats or complex), got dtype <U1
    """
    dtype = getattr(X, "dtype", None)
    if dtype is None or (not isinstance(X, np.ndarray) and (sp.issparse(X) or is_cupy_sparse(X) or is_pydata(X))):
        return
    if np.dtype(dtype).kind not in "biufc":
        raise TypeError(f"{name} must hold numbers (bool, integers, floats or complex), got dtype {dtype}")


def check_predecessors(predecessors: Any, exact_int32: bool, name: str = "predecessors") -> None:
    """A ``TypeError`` for a predecessor array SciPy's ``construct_dist_matrix`` / ``reconstruct_path`` refuses.

    ``construct_dist_matrix`` (``exact_int32``) takes int32 predecessors only
    (SciPy: "Type of predecessors array should be np.int32"); ``reconstruct_path``
    reads any array it can compare with 0, so it refuses strings, bytes, dates
    and records (a ``TypeError`` from NumPy there) and casts the others, as
    SciPy does.  Either way the drop-in raises the ``TypeError`` itself,
    naming ``name``, before SciPy's code sees the array.

    Examples
    --------
    >>> check_predecessors(np.array(["0"]), exact_int32=False)
    Traceback (most recent call last):
    ...
    TypeError: predecessors must hold integers (-9999 for none), got dtype <U1
    """
    dtype = getattr(predecessors, "dtype", None)
    dtype = np.asarray(predecessors).dtype if dtype is None else np.dtype(dtype)
    if exact_int32 and dtype != np.int32:
        raise TypeError(f"Type of {name} array should be np.int32, got {dtype}")
    if not exact_int32 and dtype.kind in "USMV":
        raise TypeError(f"{name} must hold integers (-9999 for none), got dtype {dtype}")


def is_pydata(obj: Any) -> bool:
    """True for a pydata ``sparse`` array (the test of SciPy's ``is_pydata_spmatrix``; imports nothing)."""
    base = getattr(sys.modules.get("sparse"), "SparseArray", None)
    return base is not None and isinstance(obj, base)


def from_pydata(csgraph: Any, target_format: str | None = None, accept_fv: Any = PYDATA_NULLS) -> Any:
    """A pydata ``sparse`` array as the SciPy sparse matrix SciPy reads (other inputs as they are).

    SciPy's ``convert_pydata_sparse_to_scipy`` (1.17): ``to_scipy_sparse`` with
    the fill values that mean "no edge" (``accept_fv``; ``None``, as for
    ``maximum_flow``, accepts only 0), then ``target_format``, else CSC unless
    it is CSR or CSC already.

    Examples
    --------
    >>> import numpy as np, sparse
    >>> from_pydata(sparse.COO.from_numpy(np.eye(2))).format
    'csc'
    """
    base = getattr(sys.modules.get("sparse"), "SparseArray", None)  # is_pydata, without importing sparse
    if base is None or not isinstance(csgraph, base):
        return csgraph
    try:
        A = csgraph.to_scipy_sparse(accept_fv=None if accept_fv is None else list(accept_fv))
    except TypeError:  # pydata sparse before 0.15.4 has no accept_fv
        A = csgraph.to_scipy_sparse()
    if target_format is not None:
        return A.asformat(target_format)
    return A if A.format in ("csc", "csr") else A.tocsc()


def like_pydata(result: Any, original: Any, fill_value: bool = True) -> Any:
    """``result`` (a SciPy sparse matrix) as an array of ``original``'s pydata class when ``original`` is one.

    With ``fill_value``, the result keeps ``original``'s fill value, as SciPy's
    ``minimum_spanning_tree`` and ``reconstruct_path`` do (``maximum_flow``
    does not).
    """
    if not is_pydata(original):
        return result
    cls = type(original)
    if fill_value:
        try:
            return cls.from_scipy_sparse(result, fill_value=original.fill_value)
        except TypeError:  # pydata sparse before 0.15.4 has no fill_value
            pass
    return cls.from_scipy_sparse(result)


def is_cupy_array(obj: Any) -> bool:
    """True for a dense CuPy array (anything with ``__cuda_array_interface__`` that is no sparse matrix)."""
    return hasattr(obj, "__cuda_array_interface__") and not is_cupy_sparse(obj)


def is_gpu_input(obj: Any) -> bool:
    """True for a CuPy array or a ``cupyx.scipy.sparse`` matrix."""
    return is_cupy_sparse(obj) or is_cupy_array(obj)


def resolve_device(csgraph: Any, device: str) -> Where:
    """``"cpu"`` or ``"gpu"``: where a function runs for ``device`` ("auto" follows the input)."""
    if not isinstance(device, str) or device not in DEVICES:
        raise GraphError(f"device must be one of {', '.join(DEVICES)}, got {device!r}")
    if device == "auto":
        return "gpu" if is_gpu_input(csgraph) else "cpu"
    return cast(Where, device)  # checked above: "cpu" or "gpu"


def result_dtype(dtype: Any) -> np.dtype:
    """The floating dtype of distances: float64 (SciPy's, the default) or float32."""
    if dtype is None:
        return np.dtype(np.float64)
    try:
        dt = np.dtype(dtype)
    except TypeError as err:
        raise TypeError(f"dtype must be float32 or float64, got {dtype!r}") from err
    if dt not in (np.float32, np.float64):
        raise TypeError(f"dtype must be float32 or float64, got {dt}")
    return dt


def _check_dense_shape(shape: tuple[int, ...]) -> None:
    if len(shape) != 2:
        raise ValueError("graph should have two dimensions")
    if shape[0] != shape[1]:
        raise ValueError("graph should be a square array")


def check_sparse_shape(shape: tuple[int, ...]) -> None:
    if len(shape) != 2:
        raise ValueError("compressed-sparse graph must be 2-D")
    if shape[0] != shape[1]:
        raise ValueError("compressed-sparse graph must be shape (N, N)")


def scipy_csr(csgraph: Any, directed: bool = True, dtype: Any = np.float64) -> Any:
    """The CSR matrix SciPy's algorithms read (``validate_graph(..., dense_output=False)``), on the CPU.

    A sparse input of another format is converted by ``tocsr()`` (a CSR input
    is not copied unless the dtype changes); the zeros a BSR matrix stores in
    its blocks are dropped, as SciPy's ``validate_graph`` does since 1.18; a CSC input read as undirected is
    transposed first, as SciPy does, which decides the neighbour order of the
    traversals.  SciPy converts every input to float64 with ``astype``, which
    sorts the rows and sums duplicate entries of a non-float64 matrix; so does
    this function (also with ``dtype=None``, which otherwise keeps the dtype),
    and only then casts the data to ``dtype``, keeping the rows as they are.
    Returns a ``scipy.sparse`` CSR matrix or array.
    """
    csgraph = from_pydata(csgraph)
    if sp.issparse(csgraph):
        check_sparse_shape(csgraph.shape)
        if not directed and csgraph.format == "csc":
            csgraph = csgraph.T
        A = csgraph.tocsr()
        if csgraph.format == "bsr":  # a block's stored zeros are padding, not arcs (SciPy >= 1.18 drops them too)
            A = A.copy() if A is csgraph else A
            A.eliminate_zeros()
        if A.dtype != np.float64 and not A.has_canonical_format:
            A = A.astype(np.float64)  # SciPy's reading: rows sorted, duplicates summed
        if dtype is None or A.dtype == dtype:
            return A
        return type(A)((cast_weights(A.data, dtype), A.indices, A.indptr), shape=A.shape)
    if np.ma.isMaskedArray(csgraph):
        _check_dense_shape(csgraph.shape)
        A = _csgraph_from_masked(csgraph)
    else:
        arr = np.asarray(csgraph)
        _check_dense_shape(arr.shape)
        A = _csgraph_from_masked(np.ma.masked_array(arr, mask=dense_null_mask(arr)))
        if isinstance(csgraph, np.matrix):
            A = sp.csr_matrix(A)  # as SciPy's csgraph_from_dense
    if dtype is None or A.dtype == dtype:
        return A
    return type(A)((cast_weights(A.data, dtype), A.indices, A.indptr), shape=A.shape)


def cast_weights(x: Any, dtype: Any) -> Any:
    """``x`` (NumPy or CuPy) as ``dtype``; :class:`InvalidEntryError` for a finite weight that ``dtype`` cannot hold.

    Used for ``dtype=float32``: a float64 weight beyond float32's range would
    become ``+-inf`` (no edge, or a weight no path can use), so it is an error
    naming the first such entry.

    Examples
    --------
    >>> cast_weights(np.array([1.5, np.inf]), np.float32)
    array([1.5, inf], dtype=float32)
    >>> cast_weights(np.array([1.0, 1e300]), np.float32)
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidEntryError: csgraph weight 1e+300 does not fit float32 (largest 3.4028234663852886e+38)
    """
    xp = array_module(x)
    with np.errstate(over="ignore"):  # reported below, naming the weight
        y = x.astype(dtype)
    dt = np.dtype(dtype)
    if dt.kind == "f" and x.dtype.kind in "fc" and x.dtype.itemsize > dt.itemsize and y.size:
        lost = xp.isinf(y) & ~xp.isinf(x)
        if bool(lost.any()):
            bad = x[lost].reshape(-1)[0]
            value = bad.item() if hasattr(bad, "item") else bad
            raise InvalidEntryError(f"csgraph weight {value!r} does not fit {dt} (largest {float(np.finfo(dt).max)!r})")
    return y


def gpu_csr(csgraph: Any, dtype: Any = np.float64, sum_duplicates: bool = True) -> Any:
    """A ``cupyx.scipy.sparse`` CSR matrix of a CuPy dense array (SciPy's null entries dropped) or sparse matrix.

    A sparse matrix is read as :func:`scipy_csr` reads its host copy: one of
    another dtype than float64 that is not canonical has its rows sorted and
    its duplicates summed (SciPy's ``astype(float64)``); a float64 one keeps
    its duplicates as parallel arcs.  ``sum_duplicates=False`` keeps them in
    any dtype (Floyd-Warshall's reading, ``csgraph_to_dense``: the least
    counts).
    """
    import cupy as cp
    import cupyx.scipy.sparse as csp

    if is_cupy_sparse(csgraph):
        check_sparse_shape(csgraph.shape)
        A = csgraph.tocsr()
        if sum_duplicates and A.dtype != np.float64 and not A.has_canonical_format:
            A = A.astype(np.float64)  # a new matrix: the caller's is left as it is
            A.sum_duplicates()  # SciPy's reading: rows sorted, duplicates summed (in float64)
        if dtype is None or A.dtype == dtype:
            return A
        return csp.csr_matrix((cast_weights(A.data, dtype), A.indices, A.indptr), shape=A.shape)
    _check_dense_shape(csgraph.shape)
    rows, cols = cp.nonzero(~dense_null_mask(csgraph))
    W = cast_weights(csgraph[rows, cols], np.float64 if dtype is None else dtype)
    return csp.csr_matrix((W, (rows, cols)), shape=csgraph.shape)


def to_host(csgraph: Any) -> Any:
    """A NumPy / SciPy copy of a CuPy array or ``cupyx`` sparse matrix (other inputs as they are)."""
    if is_cupy_sparse(csgraph):
        return csgraph.get()
    if is_cupy_array(csgraph):
        return csgraph.get()
    return csgraph


def to_device_like(x: Any, gpu: bool) -> Any:
    """``x`` on the GPU when ``gpu`` (CuPy), on the host otherwise (NumPy)."""
    if gpu:
        import cupy as cp

        return cp.asarray(x)
    if hasattr(x, "__cuda_array_interface__"):
        return x.get()
    return x


def as_index(v: Any, name: str) -> int:
    """``v`` as an ``int`` (a Python or NumPy integer, not a bool), else ``TypeError`` naming ``name``."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {v!r}")
    try:
        return operator.index(v)
    except TypeError as err:
        raise TypeError(f"{name} must be an integer, got {v!r}") from err


def check_vertex_index(v: Any, n: int, name: str) -> int:
    """A vertex id in ``[0, n)`` (a Python or NumPy integer), else ``TypeError`` / :class:`VertexError`."""
    i = as_index(v, name)
    if not 0 <= i < n:
        raise VertexError(f"{name} = {i} is not a vertex of a graph with {n} vertices")
    return i


def source_indices(indices: Any, n: int) -> tuple[np.ndarray, tuple[int, ...]]:
    """SciPy's ``indices``: ``(sources as int32, shape of the result)``.

    ``None`` is every vertex; a scalar gives a 1-D result, an array ``a`` a
    result of shape ``a.shape + (n,)``; negative entries count from the end
    (``-1`` is ``n - 1``), as in SciPy.  Entries must be integers (SciPy
    truncates floats; here they are a ``TypeError``).
    """
    if indices is None:
        return np.arange(n, dtype=np.int32), (n, n)
    if hasattr(indices, "__cuda_array_interface__"):
        indices = indices.get()
    arr = np.asarray(indices)
    if arr.dtype.kind not in "iu" and not (arr.size == 0 and arr.dtype.kind == "f"):
        raise TypeError(f"indices must be integers, got dtype {arr.dtype}")
    shape = arr.shape + (n,)
    flat = arr.astype(np.int64).reshape(-1)
    flat = np.where(flat < 0, flat + n, flat)
    if flat.size and (flat.min() < 0 or flat.max() >= n):
        raise ValueError("indices out of range 0...N")
    return flat.astype(np.int32), shape
