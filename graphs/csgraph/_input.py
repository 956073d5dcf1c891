"""SciPy's input conventions for :mod:`graphs.csgraph`, the negative-cycle error, and the device choice.

This module reads a graph the way ``scipy.sparse.csgraph`` (SciPy 1.17,
``scipy/sparse/csgraph/_validation.py``) does, so that every function of the
drop-in sees the same arcs as SciPy's:

* a dense array: ``0``, ``+-inf`` and NaN are no edge, every other entry is an
  arc (:func:`scipy.sparse.csgraph.csgraph_from_dense`);
* a masked array: masked entries are no edge;
* a sparse matrix: every stored entry is an arc, explicit zeros included;
  ``A.tocsr()`` is what the algorithms read, so a COO matrix's duplicates are
  summed (SciPy's ``tocsr``) and a CSR matrix's duplicates stay parallel arcs
  (the shortest one counts, as in SciPy's Dijkstra);
* ``directed=False``: an arc either way joins ``i`` and ``j``, the smaller
  weight counts.

CuPy arrays and ``cupyx.scipy.sparse`` matrices are read the same way on the
GPU.  ``device="auto"`` runs where the input lives; ``device="gpu"`` copies a
NumPy / SciPy input to the GPU and returns NumPy / SciPy results.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse import csgraph as _scipy_csgraph

from ..convert import is_cupy_sparse
from ..errors import GraphError, VertexError
from ..errors import NegativeCycleError as _GraphsNegativeCycleError

__all__ = ["NegativeCycleError", "NULL", "is_gpu_input", "resolve_device", "result_dtype", "scipy_csr",
           "source_indices", "check_vertex_index", "check_sparse_shape", "to_host", "to_device_like", "negative_cycle_error"]

#: SciPy's mark of a missing predecessor.
NULL = -9999
DEVICES = ("auto", "cpu", "gpu")


class NegativeCycleError(_scipy_csgraph.NegativeCycleError, _GraphsNegativeCycleError):
    """A negative cycle: SciPy's ``scipy.sparse.csgraph.NegativeCycleError`` and :class:`graphs.NegativeCycleError`.

    ``except scipy.sparse.csgraph.NegativeCycleError`` and ``except
    graphs.NegativeCycleError`` (a ``ValueError``) both catch it.  ``vertex``
    lies on the cycle and ``cycle`` lists it when it is known (``-1`` / ``[-1]``
    when not).

    Examples
    --------
    >>> import scipy.sparse.csgraph, graphs
    >>> err = NegativeCycleError("Negative cycle detected on node 0", vertex=0)
    >>> isinstance(err, scipy.sparse.csgraph.NegativeCycleError), isinstance(err, graphs.NegativeCycleError)
    (True, True)
    >>> str(err)
    'Negative cycle detected on node 0'
    """

    def __init__(self, message: str = "", vertex: int = -1, cycle: list[int] | None = None, weight=None) -> None:
        _GraphsNegativeCycleError.__init__(self, vertex, cycle, weight, message=str(message))


#: SciPy's (major, minor): a few conventions changed between releases (strong components' numbering, 1.18).
SCIPY_VERSION = tuple(int(part) for part in scipy.__version__.split(".")[:2])


def negative_cycle_error(err: Exception, message: str) -> NegativeCycleError:
    """Our :class:`NegativeCycleError` carrying the vertex and cycle of the library's ``err``."""
    return NegativeCycleError(message, getattr(err, "vertex", -1), getattr(err, "cycle", None),
                              getattr(err, "weight", None))


def is_cupy_array(obj: Any) -> bool:
    """True for a dense CuPy array (anything with ``__cuda_array_interface__`` that is no sparse matrix)."""
    return hasattr(obj, "__cuda_array_interface__") and not is_cupy_sparse(obj)


def is_gpu_input(obj: Any) -> bool:
    """True for a CuPy array or a ``cupyx.scipy.sparse`` matrix."""
    return is_cupy_sparse(obj) or is_cupy_array(obj)


def resolve_device(csgraph: Any, device: str) -> str:
    """``"cpu"`` or ``"gpu"``: where a function runs for ``device`` ("auto" follows the input)."""
    if not isinstance(device, str) or device not in DEVICES:
        raise GraphError(f"device must be one of {', '.join(DEVICES)}, got {device!r}")
    if device == "auto":
        return "gpu" if is_gpu_input(csgraph) else "cpu"
    return device


def result_dtype(dtype) -> np.dtype:
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


def _check_dense_shape(shape: tuple) -> None:
    if len(shape) != 2:
        raise ValueError("graph should have two dimensions")
    if shape[0] != shape[1]:
        raise ValueError("graph should be a square array")


def check_sparse_shape(shape: tuple) -> None:
    if len(shape) != 2:
        raise ValueError("compressed-sparse graph must be 2-D")
    if shape[0] != shape[1]:
        raise ValueError("compressed-sparse graph must be shape (N, N)")


def scipy_csr(csgraph: Any, directed: bool = True, dtype=np.float64):
    """The CSR matrix SciPy's algorithms read (``validate_graph(..., dense_output=False)``), on the CPU.

    A sparse input of another format is converted by ``tocsr()`` (a CSR input
    is not copied unless the dtype changes); a CSC input read as undirected is
    transposed first, as SciPy does, which decides the neighbour order of the
    traversals.  SciPy converts every input to float64 with ``astype``, which
    sorts the rows and sums duplicate entries of a non-float64 matrix; so does
    this function (also with ``dtype=None``, which otherwise keeps the dtype),
    and only then casts the data to ``dtype``, keeping the rows as they are.
    Returns a ``scipy.sparse`` CSR matrix or array.
    """
    if sp.issparse(csgraph):
        check_sparse_shape(csgraph.shape)
        if not directed and csgraph.format == "csc":
            csgraph = csgraph.T
        A = csgraph.tocsr()
        if A.dtype != np.float64 and not A.has_canonical_format:
            A = A.astype(np.float64)  # SciPy's reading: rows sorted, duplicates summed
        if dtype is None or A.dtype == dtype:
            return A
        return type(A)((A.data.astype(dtype), A.indices, A.indptr), shape=A.shape)
    if np.ma.isMaskedArray(csgraph):
        _check_dense_shape(csgraph.shape)
        A = _scipy_csgraph.csgraph_from_masked(csgraph)
    else:
        arr = np.asarray(csgraph)
        _check_dense_shape(arr.shape)
        A = _scipy_csgraph.csgraph_from_dense(arr)
    return A if dtype is None else A.astype(dtype, copy=False)


def gpu_csr(csgraph: Any, dtype=np.float64):
    """A ``cupyx.scipy.sparse`` CSR matrix of a CuPy dense array (SciPy's null entries dropped) or sparse matrix."""
    import cupy as cp
    import cupyx.scipy.sparse as csp

    if is_cupy_sparse(csgraph):
        check_sparse_shape(csgraph.shape)
        A = csgraph.tocsr()
        return A if dtype is None else A.astype(dtype)
    _check_dense_shape(csgraph.shape)
    W = cp.asarray(csgraph, dtype=np.float64 if dtype is None else dtype)
    keep = cp.isfinite(W) & (W != 0)
    rows, cols = cp.nonzero(keep)
    return csp.csr_matrix((W[rows, cols], (rows, cols)), shape=W.shape)


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


def _index(v: Any, name: str) -> int:
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {v!r}")
    try:
        return operator.index(v)
    except TypeError as err:
        raise TypeError(f"{name} must be an integer, got {v!r}") from err


def check_vertex_index(v: Any, n: int, name: str) -> int:
    """A vertex id in ``[0, n)`` (a Python or NumPy integer), else ``TypeError`` / :class:`VertexError`."""
    i = _index(v, name)
    if not 0 <= i < n:
        raise VertexError(f"{name} = {i} is not a vertex of a graph with {n} vertices")
    return i


def source_indices(indices: Any, n: int) -> tuple[np.ndarray, tuple]:
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
