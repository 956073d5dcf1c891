"""What the closures accept as a graph, and how each kind becomes the dense matrix.

:func:`matrix_source` turns the ``W`` argument of :func:`apsp.shortest_paths`
into a :class:`MatrixSource`: its size, natural dtype, device and arc count
(what the planner needs before anything is allocated) and a ``fill`` that
writes the dense matrix into a buffer the caller allocated (so the dense
route holds one ``n x n`` buffer, not a dense input plus a working copy).

Accepted (the same inputs as the :mod:`graphs` functions):

* dense NumPy / CuPy arrays (``numpy.ma`` arrays included): the matrix itself,
  in the semiring's convention (its ``zero`` off-edge);
* ``scipy.sparse`` arrays and matrices, ``cupyx.scipy.sparse`` matrices: every
  stored entry is an arc, explicit zeros included; missing entries are the
  semiring ``zero``; duplicates are combined with the semiring ``add``;
* NetworkX graphs: arcs with attribute ``"weight"`` (default 1), both ways
  for undirected graphs, parallel arcs combined with ``add``; vertices in
  ``G.nodes`` order;
* any object with the protocol method ``__semiring_matrix__(semiring, dtype=None,
  device=None, out=None)`` returning the dense matrix (written into ``out``
  when given), and optionally ``__semiring_matrix_info__(semiring)`` returning
  a dict with ``n``, ``dtype``, ``device``, ``nnz`` and ``float32_exact``
  (:class:`graphs.Graph` implements both; ``apsp`` does not import ``graphs``).

Anything else is a ``TypeError`` naming the argument and listing these.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring.backend import is_cupy_array
from semiring.dense import scatter_add
from semiring.errors import DTypeError, ShapeError

from .planner import float32_exact

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["MatrixSource", "matrix_source", "ACCEPTED", "InputTypeError"]


class InputTypeError(DTypeError, TypeError):
    """An argument of no accepted type: a ``TypeError`` (and, as before, a ``DTypeError``)."""

ACCEPTED = ("a dense numpy/cupy array (numpy.ma included), a scipy.sparse or cupyx.scipy.sparse matrix, "
            "a NetworkX graph, or an object with __semiring_matrix__ (graphs.Graph)")


@dataclass(frozen=True)
class MatrixSource:
    """A graph-like input seen as a dense matrix that is not built yet.

    Attributes
    ----------
    n : int
    dtype : numpy.dtype
        What the dense matrix holds by default.
    device : {"cpu", "gpu"}
        Where the input lives.
    nnz : int or None
        Arcs (``None`` for a dense array).
    float32_exact : bool
        float32 holds every path value exactly (see :func:`apsp.planner.float32_exact`).
    fill : callable
        ``fill(out)`` writes the dense matrix (semiring zero off-edge) into
        ``out`` and returns it; ``fill(None)`` returns a new one.
    dense : array or None
        The input itself when it is a dense array.
    weighted : bool
        The arcs carry weights (``False``: unit arcs).
    """

    n: int
    dtype: np.dtype
    device: str
    nnz: int | None
    float32_exact: bool
    fill: Callable[[Any], Any]
    dense: Any = None
    weighted: bool = True


def matrix_source(name: str, W: Any, S: "Semiring", dtype=None) -> MatrixSource:
    """The :class:`MatrixSource` of an input, or a ``TypeError`` naming ``name`` for an unsupported type.

    Parameters
    ----------
    name : str
        The argument's name, for messages.
    W : any accepted input (see the module docstring).
    S : Semiring
    dtype : dtype, optional
        The dense matrix's dtype for graph inputs (default: their weights').

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from semiring import min_plus
    >>> src = matrix_source("W", sp.csr_array(np.array([[0.0, 2.0], [0.0, 0.0]])), min_plus)
    >>> src.n, src.nnz, src.fill(None)
    (2, 1, array([[inf,  2.],
           [inf, inf]]))
    >>> matrix_source("W", [[0.0]], min_plus)
    Traceback (most recent call last):
    ...
    apsp.matrix_input.InputTypeError: W must be a dense numpy/cupy array (numpy.ma included), a scipy.sparse or cupyx.scipy.sparse matrix, a NetworkX graph, or an object with __semiring_matrix__ (graphs.Graph); got list
    """
    if isinstance(W, np.ndarray) or is_cupy_array(W):
        dev = "gpu" if is_cupy_array(W) else "cpu"
        return MatrixSource(int(W.shape[0]) if W.ndim == 2 else 0, W.dtype, dev, None, False,
                            lambda out: W if out is None else _copy_into(out, W), dense=W)
    if hasattr(W, "__semiring_matrix__"):
        return _protocol_source(W, S, dtype)
    if _is_sparse(W):
        return _sparse_source(name, W, S, dtype)
    if (type(W).__module__ or "").startswith("networkx"):
        return _networkx_source(W, S, dtype)
    raise InputTypeError(f"{name} must be {ACCEPTED}; got {type(W).__name__}")


def _copy_into(out, W):
    out[...] = W
    return out


# -- the protocol ----------------------------------------------------------------------
def _protocol_source(obj: Any, S: "Semiring", dtype) -> MatrixSource:
    info = obj.__semiring_matrix_info__(S) if hasattr(obj, "__semiring_matrix_info__") else None
    if info is None:  # no metadata: build the matrix now, plan with it
        D = obj.__semiring_matrix__(S, dtype=dtype)
        dev = "gpu" if is_cupy_array(D) else "cpu"
        return MatrixSource(int(D.shape[0]), D.dtype, dev, None, False,
                            lambda out: D if out is None else _copy_into(out, D))
    dt = np.dtype(dtype) if dtype is not None else np.dtype(info["dtype"])

    def fill(out):
        return obj.__semiring_matrix__(S, dtype=dt, device=None, out=out)

    return MatrixSource(int(info["n"]), dt, info.get("device", "cpu"), info.get("nnz"),
                        bool(info.get("float32_exact", False)), fill, weighted=bool(info.get("weighted", True)))


# -- sparse matrices -------------------------------------------------------------------
def _is_sparse(obj: Any) -> bool:
    if "scipy.sparse" in sys.modules:
        import scipy.sparse as sp

        if sp.issparse(obj):
            return True
    if "cupyx.scipy.sparse" in sys.modules:
        import cupyx.scipy.sparse as csp

        return bool(csp.issparse(obj))
    return False


def _default_dtype(S: "Semiring", data_dtype) -> np.dtype:
    if S.dtypes == (np.dtype(np.bool_),):
        return np.dtype(np.bool_)
    if np.dtype(data_dtype) == np.bool_:
        return np.dtype(np.float64)
    return np.dtype(data_dtype)


def _sparse_source(name: str, A: Any, S: "Semiring", dtype) -> MatrixSource:
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ShapeError(f"{name} must be square (an adjacency matrix), got shape {tuple(A.shape)}")
    C = A.tocoo()
    gpu = is_cupy_array(C.data)
    n = int(A.shape[0])
    dt = np.dtype(dtype) if dtype is not None else _default_dtype(S, C.data.dtype)
    weights = None if C.data.dtype == np.bool_ else C.data

    def fill(out):
        xp = _xp(gpu)
        D = xp.empty((n, n), dtype=dt) if out is None else out
        D[...] = S.zero_value(dt)
        if C.nnz:
            vals = xp.ones(C.nnz, dtype=dt) if weights is None or dt == np.bool_ else weights.astype(dt, copy=False)
            scatter_add(S, D, C.row, C.col, vals)
        return D

    return MatrixSource(n, dt, "gpu" if gpu else "cpu", int(C.nnz), float32_exact(S.name, n, weights), fill,
                        weighted=weights is not None)


def _networkx_source(G: Any, S: "Semiring", dtype) -> MatrixSource:
    nodes = list(G.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    n = len(nodes)
    rows, cols, w = [], [], []
    for u, v, x in G.edges(data="weight", default=1):
        rows.append(index[u])
        cols.append(index[v])
        w.append(x)
        if not G.is_directed() and u != v:
            rows.append(index[v])
            cols.append(index[u])
            w.append(x)
    r = np.asarray(rows, dtype=np.int64)
    c = np.asarray(cols, dtype=np.int64)
    wa = np.asarray(w) if w else np.zeros(0)
    if wa.dtype == object:
        raise TypeError("the 'weight' attributes of the NetworkX graph must be numbers")
    dt = np.dtype(dtype) if dtype is not None else _default_dtype(S, wa.dtype if wa.dtype.kind == "f" else np.float64)

    def fill(out):
        D = np.empty((n, n), dtype=dt) if out is None else out
        D[...] = S.zero_value(dt)
        if r.size:
            scatter_add(S, D, r, c, np.ones(r.size, dt) if dt == np.bool_ else wa.astype(dt))
        return D

    return MatrixSource(n, dt, "cpu", int(r.size), float32_exact(S.name, n, wa), fill)


def _xp(gpu: bool):
    if gpu:
        import cupy

        return cupy
    return np


