"""Checks of a maximum flow result against its definition, and SciPy / NetworkX references.

:func:`check_flow` asserts everything a :class:`graphs.FlowResult` promises: the flow
is antisymmetric, supported on vertex pairs joined by arcs, within every capacity,
conserved at every vertex but the terminals, of value ``flow_value``; the source
side is the residual reachability set of ``s``, holds ``s`` and not ``t``; the cut
arcs are exactly the arcs leaving it and their capacities sum to the flow value
(which proves the flow maximum).  ``tests/test_flow.py`` shows it failing on
planted errors.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

from graphs import Graph


def _host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


def arcs_of(G: Graph):
    """``(src, dst, cap)`` on the host; capacity 1 for an unweighted graph."""
    src, dst, w = G.to("cpu").edges()
    cap = np.ones(src.size, dtype=np.int64) if w is None else np.asarray(w)
    return np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), cap


def capacity_matrix(G: Graph, dtype=None):
    """Summed capacities per ordered vertex pair (self loops dropped), as a SciPy csr_array."""
    src, dst, cap = arcs_of(G)
    keep = src != dst
    dtype = dtype or (np.float64 if cap.dtype.kind == "f" else np.int64)
    C = sp.coo_array((cap[keep].astype(dtype), (src[keep], dst[keep])), shape=(G.n, G.n)).tocsr()
    C.sum_duplicates()
    return C


def check_flow(G: Graph, s: int, t: int, result, tol: float = 0.0) -> None:
    """Assert that ``result`` is a maximum ``s``-``t`` flow of ``G`` with a minimum cut (``tol``: float slack)."""
    n = G.n
    C = capacity_matrix(G).astype(np.float64 if tol else np.int64)
    F = result.flow
    F = sp.csr_array(F.get() if hasattr(F, "get") else F)
    if not tol:
        assert F.dtype.kind in "iu" or np.all(F.data == np.round(F.data)), "integer flow expected"
        F = F.astype(np.int64)
    assert F.shape == (n, n), f"flow has shape {F.shape}, expected {(n, n)}"
    # Antisymmetry.
    asym = abs(F + F.T)
    assert asym.nnz == 0 or asym.max() <= tol, "flow is not antisymmetric"
    # Support: only vertex pairs joined by an arc (either way).
    support = (C + C.T) != 0
    off = abs(F) > tol
    stray = off.astype(np.int8) - off.multiply(support).astype(np.int8)
    assert stray.nnz == 0 or stray.max() <= 0, "flow on a vertex pair joined by no arc"
    # Capacity: F[u, v] <= C[u, v] for every ordered pair.
    slack = (C - F).tocsr()
    assert slack.nnz == 0 or slack.data.min() >= -tol * max(1, n), "flow exceeds a capacity"
    # Conservation and value.
    out = np.asarray(F.sum(axis=1)).ravel()
    value = result.flow_value
    expect = np.zeros(n)
    expect[s], expect[t] = value, -value
    bad = np.flatnonzero(np.abs(out - expect) > tol * max(1, n))
    assert bad.size == 0, f"conservation fails at vertex {bad[:5].tolist()} (net out {out[bad[:5]].tolist()})"
    # The cut: the residual reachability set of s, and its arcs saturated with the flow's value.
    side = _host(result.source_side).astype(bool)
    assert side.shape == (n,) and side[s] and not side[t], "source side must hold s and not t"
    def reachable(above):
        R = (C - F).tocsr()
        R.data = (R.data > above).astype(np.int8)
        R.eliminate_zeros()
        reach = np.zeros(n, dtype=bool)
        reach[csg.breadth_first_order(R, s, directed=True, return_predecessors=False)] = True
        return reach

    # Exactly the residual reachability set for integers; for floats, between the sets
    # reached over residuals above tol and above 0.
    lo, hi = reachable(tol), reachable(0)
    assert np.all(side[lo]) and not np.any(side & ~hi), "source_side is not the set reachable from s in the residual graph"
    src, dst, cap = arcs_of(G)
    on = side[src] & ~side[dst] & (cap > 0)
    cu, cv = (_host(x) for x in result.cut_edges)
    assert sorted(zip(cu.tolist(), cv.tolist())) == sorted(zip(src[on].tolist(), dst[on].tolist())), "cut_edges"
    cut_cap = cap[on].astype(object if not tol else np.float64).sum() if on.any() else 0
    assert abs(cut_cap - value) <= tol * max(1, n), f"cut capacity {cut_cap} != flow value {value}"


def scipy_flow_value(G: Graph, s: int, t: int, method: str = "dinic") -> int:
    """SciPy's maximum flow value (int32 capacities: only for small ones)."""
    C = capacity_matrix(G, np.int32)
    C.setdiag(0)
    C.eliminate_zeros()
    return int(csg.maximum_flow(sp.csr_array(C), s, t, method=method).flow_value)


def networkx_flow_value(G: Graph, s: int, t: int):
    """NetworkX's maximum flow value (exact Python numbers; parallel arcs summed)."""
    src, dst, cap = arcs_of(G)
    D = nx.DiGraph()
    D.add_nodes_from(range(G.n))
    for u, v, c in zip(src.tolist(), dst.tolist(), cap.tolist()):
        if u == v:
            continue
        if D.has_edge(u, v):
            D[u][v]["capacity"] += c
        else:
            D.add_edge(u, v, capacity=c)
    return nx.maximum_flow_value(D, s, t)
