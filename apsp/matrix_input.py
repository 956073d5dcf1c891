"""What the closures accept as a graph, and how each kind becomes the dense matrix.

:func:`matrix_source` turns the ``W`` argument of :func:`apsp.shortest_paths`
into a :class:`MatrixSource`: its size, natural dtype, device and arc count
(what the planner needs before anything is allocated) and a ``fill`` that
writes the dense matrix into a buffer the caller allocated (so the dense
route holds one ``n x n`` buffer, not a dense input plus a working copy).

Accepted:

* dense NumPy / CuPy arrays (``numpy.ma`` arrays included): the matrix itself,
  in the semiring's convention (its ``zero`` off-edge);
* any object with the protocol method ``__semiring_matrix__(semiring, dtype=None,
  device=None, out=None)`` returning the dense matrix (written into ``out``
  when given), and optionally ``__semiring_matrix_info__(semiring)`` returning
  a dict with ``n``, ``dtype``, ``device``, ``nnz`` and ``float32_exact``.

Graphs -- ``scipy.sparse`` / ``cupyx.scipy.sparse`` matrices, NetworkX graphs
-- are read by the :mod:`graphs` package, whose :class:`graphs.Graph`
implements the protocol (``apsp.shortest_paths(graphs.as_graph(A))``), and
whose :func:`graphs.all_pairs_shortest_paths` also weighs one search per
source against the closure.  ``apsp`` does not import ``graphs``.

Anything else is a ``TypeError`` naming the argument and listing these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring.array_types import Where
from semiring.backend import is_cupy_array
from semiring.errors import DTypeError

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["MatrixSource", "matrix_source", "ACCEPTED", "InputTypeError", "is_dask_array", "dask_distributed"]


class InputTypeError(DTypeError, TypeError):
    """An argument of no accepted type: a ``TypeError`` (and, as before, a ``DTypeError``)."""

#: What a run on a Dask cluster needs installed.
DASK_EXTRA = 'the Dask extra: pip install "semiring-paths[dask]" (dask-cuda for one worker per GPU)'
ACCEPTED = "a dense numpy/cupy array (numpy.ma included) or an object with __semiring_matrix__ (graphs.Graph)"
#: What a graph given where a matrix is expected is told.
GRAPH_HINT = ("a sparse matrix or a NetworkX graph is a graph: read it with graphs.as_graph (a graphs.Graph has "
              "__semiring_matrix__), or call graphs.all_pairs_shortest_paths")


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
    device: Where
    nnz: int | None
    float32_exact: bool
    fill: Callable[[Any], Any]
    dense: Any = None
    weighted: bool = True


def matrix_source(name: str, W: Any, S: "Semiring", dtype: Any = None) -> MatrixSource:
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
    >>> from semiring import min_plus
    >>> src = matrix_source("W", np.array([[0.0, 2.0], [np.inf, 0.0]]), min_plus)
    >>> src.n, src.nnz, src.device
    (2, None, 'cpu')
    >>> matrix_source("W", [[0.0]], min_plus)
    Traceback (most recent call last):
    ...
    apsp.matrix_input.InputTypeError: W must be a dense numpy/cupy array (numpy.ma included) or an object with __semiring_matrix__ (graphs.Graph); got list
    >>> import scipy.sparse as sp
    >>> matrix_source("W", sp.eye_array(2, format="csr"), min_plus)
    Traceback (most recent call last):
    ...
    apsp.matrix_input.InputTypeError: W must be ... got csr_array (a sparse matrix or a NetworkX graph is a graph: read it with graphs.as_graph (a graphs.Graph has __semiring_matrix__), or call graphs.all_pairs_shortest_paths)
    """
    if isinstance(W, np.ndarray) or is_cupy_array(W):
        dev: Where = "gpu" if is_cupy_array(W) else "cpu"
        return MatrixSource(int(W.shape[0]) if W.ndim == 2 else 0, W.dtype, dev, None, False,
                            lambda out: W if out is None else _copy_into(out, W), dense=W)
    if hasattr(W, "__semiring_matrix__"):
        return _protocol_source(W, S, dtype)
    graph = _is_graph(W)
    raise InputTypeError(f"{name} must be {ACCEPTED}; got {type(W).__name__}" + (f" ({GRAPH_HINT})" if graph else ""))


def is_dask_array(W: Any) -> bool:
    """True for a :class:`dask.array.Array` (without importing Dask): the input of a run on a Dask cluster.

    >>> is_dask_array(np.zeros(2))
    False
    """
    return (type(W).__module__ or "").startswith("dask.") and hasattr(W, "chunks") and hasattr(W, "dask")


def dask_distributed() -> Any:
    """The ``distributed`` package (Dask's clusters), or an ``ImportError`` naming the extra to install.

    >>> dask_distributed().__name__
    'distributed'
    """
    try:
        import distributed
    except ImportError as err:  # pragma: no cover - the extra is installed in the tests
        raise ImportError(f"apsp.shortest_paths(..., client=) needs {DASK_EXTRA}") from err
    return distributed


def _is_graph(obj: Any) -> bool:
    """A sparse matrix (SciPy, CuPy, pydata) or a NetworkX graph: what :mod:`graphs` reads."""
    module = type(obj).__module__ or ""
    return module.startswith(("scipy.sparse", "cupyx.scipy.sparse", "networkx", "sparse"))


def _copy_into(out: Any, W: Any) -> Any:
    out[...] = W
    return out


# -- the protocol ----------------------------------------------------------------------
def _protocol_source(obj: Any, S: "Semiring", dtype: Any) -> MatrixSource:
    info = obj.__semiring_matrix_info__(S) if hasattr(obj, "__semiring_matrix_info__") else None
    if info is None:  # no metadata: build the matrix now, plan with it
        D = obj.__semiring_matrix__(S, dtype=dtype)
        dev: Where = "gpu" if is_cupy_array(D) else "cpu"
        return MatrixSource(int(D.shape[0]), D.dtype, dev, None, False,
                            lambda out: D if out is None else _copy_into(out, D))
    dt = np.dtype(dtype) if dtype is not None else np.dtype(info["dtype"])

    def fill(out: Any) -> Any:
        return obj.__semiring_matrix__(S, dtype=dt, device=None, out=out)

    return MatrixSource(int(info["n"]), dt, info.get("device", "cpu"), info.get("nnz"),
                        bool(info.get("float32_exact", False)), fill, weighted=bool(info.get("weighted", True)))
