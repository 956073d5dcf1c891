"""``maximum_flow`` with SciPy's interface, on the library's push-relabel (:func:`graphs.maximum_flow`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph._flow import MaximumFlowResult as _ScipyMaximumFlowResult

from ..convert import is_cupy_sparse
from ..errors import CapacityError
from ..flow import maximum_flow as _maximum_flow
from ..graph import Graph
from ._input import as_index, from_pydata, is_pydata, like_pydata, resolve_device

__all__ = ["maximum_flow", "MaximumFlowResult"]

METHODS = ("dinic", "edmonds_karp")


class MaximumFlowResult(_ScipyMaximumFlowResult):  # type: ignore[misc]  # SciPy has no stubs: its class reads as Any
    """SciPy's ``MaximumFlowResult`` (a subclass), with the minimum cut added.

    Attributes
    ----------
    flow_value : int
    flow : csr_array or csr_matrix (cupyx csr_matrix on the GPU; the input's class for pydata sparse)
        The antisymmetric net flow, in SciPy's layout.
    source_side : bool ndarray (N,)
        Added: the source side of a minimum cut.
    cut_edges : tuple of int32 arrays
        Added: ``(u, v)`` of the cut's arcs.
    """

    def __init__(self, flow_value: Any, flow: Any, source_side: Any = None, cut_edges: Any = None) -> None:
        super().__init__(flow_value, flow)
        self.source_side = source_side
        self.cut_edges = cut_edges


def maximum_flow(csgraph: Any, source: int, sink: int, *, method: str = "dinic", device: str = "auto") -> MaximumFlowResult:
    """Maximum flow between two vertices; mirrors ``scipy.sparse.csgraph.maximum_flow``.

    Same parameters, defaults, checks (and error messages) and result as
    SciPy's function of the same name; the flow is computed by
    :func:`graphs.maximum_flow` (push-relabel) whatever ``method`` names
    (``"dinic"`` and ``"edmonds_karp"`` are accepted and give the same flow
    value; a maximum flow is not unique, so ``flow`` may differ from SciPy's
    entry by entry while being a valid maximum flow in SciPy's layout).

    Better than SciPy: capacities are exact in their integer dtype.  SciPy casts
    them to int32, silently wrapping capacities above ``2**31 - 1``; here they
    are computed in int64.  The flow matrix is int32, as SciPy's, when every
    capacity fits int32 (then SciPy's answer is exact too), else int64.

    Added: ``device`` (a ``cupyx.scipy.sparse`` CSR input runs on the GPU and
    gives a ``cupyx`` flow matrix; ``cupyx`` matrices hold no integers, so there
    capacities are floats of integral values and the flow matrix is float64),
    and the minimum cut in the result
    (``source_side``, ``cut_edges``).

    A pydata ``sparse`` array (fill value 0) is read as its CSR matrix and
    gives a flow of its class, as in SciPy.

    Parameters
    ----------
    csgraph : csr_array or csr_matrix (N, N) of integers, pydata sparse array, or cupyx csr_matrix
    source, sink : int
    method : {"dinic", "edmonds_karp"}, keyword-only
    device : {"auto", "cpu", "gpu"}, keyword-only

    Returns
    -------
    MaximumFlowResult
        ``flow_value`` and ``flow`` as SciPy's (a subclass of SciPy's class).

    Raises
    ------
    TypeError
        Not a CSR matrix; ``source`` / ``sink`` not integers.
    ValueError
        Non-integer capacities, ``source == sink``, non-square graph, vertex out
        of range, unknown method; :class:`graphs.CapacityError` for negative
        capacities or sums beyond int64.

    Examples
    --------
    >>> from scipy.sparse import csr_array
    >>> from graphs import csgraph
    >>> G = csr_array([[0, 5, 3], [0, 0, 4], [0, 0, 0]])
    >>> r = csgraph.maximum_flow(G, 0, 2)
    >>> int(r.flow_value)
    7
    >>> r.flow.toarray()
    array([[ 0,  4,  3],
           [-4,  0,  4],
           [-3, -4,  0]], dtype=int32)
    >>> big = csr_array(([2**40], ([0], [1])), shape=(2, 2))
    >>> r = csgraph.maximum_flow(big, 0, 1)
    >>> int(r.flow_value) == 2**40, r.flow.dtype
    (True, dtype('int64'))
    """
    original = csgraph
    csgraph = from_pydata(csgraph, target_format="csr", accept_fv=None)  # SciPy's reading: fill value 0 only
    gpu_in = is_cupy_sparse(csgraph)
    if not ((sp.issparse(csgraph) or gpu_in) and csgraph.format == "csr"):
        raise TypeError("graph must be in CSR format")
    if not np.issubdtype(csgraph.dtype, np.integer):
        # cupyx.scipy.sparse holds no integers: there, float capacities of integral values are integers
        integral = gpu_in and csgraph.dtype.kind == "f" and bool((csgraph.data == csgraph.data.round()).all())
        if not integral:
            raise ValueError(f"graph capacities must be integers (csgraph has dtype {csgraph.dtype})")
    s = as_index(source, "source")
    t = as_index(sink, "sink")
    if s == t:
        raise ValueError("source and sink vertices must differ")
    if csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("graph must be specified as a square matrix.")
    n = csgraph.shape[0]
    if s < 0 or s >= n:
        raise ValueError(f"source value ({s}) must be between 0 and {n - 1}")
    if t < 0 or t >= n:
        raise ValueError(f"sink value ({t}) must be between 0 and {n - 1}")
    if method not in METHODS:
        raise ValueError(f"{method} method is not supported yet.")
    dev = resolve_device(csgraph, device)
    data = csgraph.data
    if data.dtype == np.uint64 and data.size and int(data.max()) > np.iinfo(np.int64).max:
        raise CapacityError("a capacity exceeds the int64 range")
    i32 = np.iinfo(np.int32)
    wide = bool(data.size) and (int(data.max()) > i32.max or int(data.min()) < i32.min)
    weights = data.astype(np.int64)
    G = Graph(csgraph.indptr, csgraph.indices, weights, directed=True)
    if dev == "gpu" and not gpu_in:
        G = G.to("gpu")
    elif dev == "cpu" and gpu_in:
        G = G.to("cpu")
    r = _maximum_flow(G, s, t, device=dev)
    flow = r.flow
    if gpu_in:
        if dev == "cpu":  # a cupyx matrix holds no integers: float64, exact below 2**53
            import cupyx.scipy.sparse as csp

            flow = csp.csr_matrix(flow.astype(np.float64))
    else:
        if is_cupy_sparse(flow):
            flow = flow.get()
        flow = flow.astype(np.int64 if wide else np.int32)
        if is_pydata(original):
            flow = like_pydata(sp.csr_array(flow), original, fill_value=False)  # as SciPy: the class, fill value 0
        else:
            flow = sp.csr_matrix(flow) if isinstance(csgraph, sp.spmatrix) else sp.csr_array(flow)
    value = r.flow_value
    return MaximumFlowResult(np.int64(value) if isinstance(value, int) else value, flow, r.source_side,
                             r.cut_edges)
