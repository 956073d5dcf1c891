"""Maximum flow value and minimum cut value as NetworkX computes them, from :func:`graphs.maximum_flow`.

NetworkX's residual network (``networkx.algorithms.flow.build_residual_network``)
drops self loops and edges whose capacity is not ``> 0`` (zero, negative,
NaN), reads a missing capacity as infinite, and replaces infinity by ``3 *
(sum of the finite capacities)`` (or 1); an undirected edge carries its
capacity both ways.  Its preflow-push then raises
:class:`networkx.NetworkXUnbounded` when a path of infinite arcs joins the
terminals, returns the ``int`` 0 when no path of positive capacity does, and
otherwise the flow value in the capacities' arithmetic.

Here the same decisions are read off the arcs, and the value comes from the
library's push-relabel in exact int64 arithmetic: integer capacities as they
are, float capacities scaled by a power of two to integers (exact when every
sum NetworkX forms is exact in float64, :func:`.attributes.exact_float_sums`;
the value is then NetworkX's float to the bit).  Infinite arcs get a capacity
above every finite cut (the total finite capacity plus one): without a path of
infinite arcs a minimum cut is finite, so the value does not depend on it.
Integer capacities beyond int64, ints mixed with finite floats, other types
(NumPy scalars, ``Fraction``, ``None``), and float capacities whose sums round
raise ``NotImplementedError`` (NetworkX runs itself where it falls back).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ..errors import CapacityError
from ..flow import maximum_flow as _max_flow
from ..graph import Graph
from ..traversal.search import bfs
from .attributes import dyadic_exponent, exact_float_sums, numbers
from .graph import BackendGraph

__all__ = ["maximum_flow_value", "minimum_cut_value", "maximum_flow", "minimum_cut"]


def _reaches(G: BackendGraph, src: np.ndarray, dst: np.ndarray, s: int, t: int) -> bool:
    """Whether the arcs ``src -> dst`` join ``s`` to ``t``."""
    H = Graph.from_edges(src, dst, None, n=len(G), directed=True)
    return bool(bfs(H, s)[0][t] >= 0)


def _flow_value(G: BackendGraph, s: Any, t: Any, capacity: Any) -> int | float:
    return _solve(G, s, t, capacity)[0]


def _solve(G: BackendGraph, s: Any, t: Any, capacity: Any) -> tuple:
    """``(value, solution)``: ``solution`` None when no path of positive capacity, else
    ``(kept, F, k, kind, cap)``: the kept arcs, the net flow matrix and the kept arcs' capacities (int64,
    scaled by ``2**k`` for floats)."""
    if s not in G:
        raise nx.NetworkXError(f"node {str(s)} not in graph")
    if t not in G:
        raise nx.NetworkXError(f"node {str(t)} not in graph")
    if s == t:
        raise nx.NetworkXError("source and sink are the same node")
    if G.is_multigraph():
        raise nx.NetworkXError("MultiGraph and MultiDiGraph not supported (yet).")
    si, ti = G.index[s], G.index[t]
    m = G.src.size
    if capacity is None:  # NetworkX reads attr.get(None, inf): every edge infinite
        a = numbers(np.full(m, np.inf))
    else:
        arr = G.weights(capacity)
        a = numbers(arr, select=(G.src != G.dst) & _positive(arr))
    kept = (G.src != G.dst) & ~a.nan & ~a.neginf & (a.posinf | (a.values > 0))
    infinite = kept & a.posinf
    finite = kept & ~a.posinf
    if _reaches(G, G.src[infinite], G.dst[infinite], si, ti):
        raise nx.NetworkXUnbounded("Infinite capacity path, flow unbounded above.")
    if not _reaches(G, G.src[kept], G.dst[kept], si, ti):
        return 0, None  # NetworkX's int 0, whatever the capacities' type
    once = finite if G.is_directed() else finite & (G.src < G.dst)  # each edge once, as NetworkX sums them
    cap = a.values[kept]
    if a.kind == "float":
        vals = a.values[once]
        total = float(vals.sum())
        # NetworkX's sums: excesses up to the finite total plus 3 * total per infinite arc
        terms = int(once.sum()) + 3 * int(infinite.sum()) * max(int(once.sum()), 1) + 3
        if not exact_float_sums(vals, terms):
            raise NotImplementedError("float capacities whose sums round: NetworkX's value depends on its push order")
        k = dyadic_exponent(vals)
        cap = np.ldexp(cap, k).astype(np.int64)  # exact: integers below 2**53
        total = int(np.ldexp(total, k))
    else:
        total = sum(a.values[once].tolist())  # exact, as NetworkX's Python ints
        k = 0
    if total + 1 > np.iinfo(np.int64).max // 4:
        raise NotImplementedError("integer capacities whose sums may leave int64 (NetworkX's Python ints are exact)")
    cap = np.where(infinite[kept], total + 1, cap).astype(np.int64)
    H = Graph.from_edges(G.src[kept], G.dst[kept], cap, n=len(G), directed=True)
    try:
        res = _max_flow(H, si, ti)
    except CapacityError as exc:
        raise NotImplementedError(f"capacities beyond the library's range: {exc}") from exc
    value = int(res.flow_value)
    F = sp.csr_array(res.flow).astype(np.int64)  # net flow, antisymmetric: F[u, v] = -F[v, u]
    out = float(np.ldexp(float(value), -k)) if a.kind == "float" else value
    return out, (kept, F, k, a.kind, cap)


def _positive(arr: np.ndarray) -> np.ndarray:
    """Mask of the values ``> 0`` (Python's comparison; other types: False, judged by :func:`numbers`)."""
    if arr.dtype != object:
        with np.errstate(invalid="ignore"):
            return arr > 0
    out = []
    for v in arr.tolist():
        try:
            out.append(bool(v > 0))
        except Exception:  # noqa: BLE001 - NetworkX's comparison raises: let numbers() refuse the type
            out.append(True)
    return np.array(out, dtype=bool)


#: NetworkX's maximum-flow algorithms: each computes a maximum flow, so values and minimum cuts do not depend on it.
_FLOW_FUNCS = ("edmonds_karp", "shortest_augmenting_path", "preflow_push", "dinitz", "boykov_kolmogorov")
#: Their parameters that change neither the value nor the minimum cut (``cutoff`` may stop early; ``residual`` is written).
SAFE_FLOW_KWARGS = frozenset({"two_phase", "global_relabel_freq", "value_only"})


def known_flow_func(f: Any) -> bool:
    """Whether ``f`` is one of NetworkX's maximum-flow algorithms (``None``: the default)."""
    if f is None:
        return True
    from networkx.algorithms import flow as nxflow

    return any(f is getattr(nxflow, name, None) for name in _FLOW_FUNCS)


def _check(flow_func: Any, kwargs: dict) -> None:
    if not known_flow_func(flow_func):
        raise NotImplementedError("a flow_func other than NetworkX's maximum-flow algorithms")
    if set(kwargs) - SAFE_FLOW_KWARGS:
        raise NotImplementedError(f"flow_func parameters {sorted(set(kwargs) - SAFE_FLOW_KWARGS)}")
    if kwargs and flow_func is None:
        raise nx.NetworkXError("You have to explicitly set a flow_func if you need to pass parameters via kwargs.")


def maximum_flow_value(
    flowG: BackendGraph, _s: Any, _t: Any, capacity: Any = "capacity", flow_func: Any = None, **kwargs: Any
):
    """The value of a maximum ``_s``-``_t`` flow (NetworkX's ``maximum_flow_value``, any of its ``flow_func``).

    Every ``flow_func`` NetworkX ships computes a maximum flow, whose value
    this is; parameters that could stop one early (``cutoff``) or that write
    into a given ``residual`` go back to NetworkX.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"capacity": 3}), (1, 2, {"capacity": 2}), (0, 2, {"capacity": 1})])
    >>> nx.maximum_flow_value(G, 0, 2, backend="semiring_paths")
    3
    """
    _check(flow_func, kwargs)
    return _flow_value(flowG, _s, _t, capacity)


def minimum_cut_value(
    flowG: BackendGraph, _s: Any, _t: Any, capacity: Any = "capacity", flow_func: Any = None, **kwargs: Any
):
    """The capacity of a minimum ``_s``-``_t`` cut (NetworkX's ``minimum_cut_value``): the maximum flow value.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.minimum_cut_value(nx.Graph([(0, 1, {"capacity": 2.5})]), 0, 1, backend="semiring_paths")
    2.5
    """
    _check(flow_func, kwargs)
    return _flow_value(flowG, _s, _t, capacity)


def _net(G: BackendGraph, sol) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positive net flows ``(u, v, f)`` (the engine's flow matrix is antisymmetric)."""
    N = sol[1].tocoo()
    pos = N.data > 0
    return N.row[pos], N.col[pos], N.data[pos]


def maximum_flow(
    flowG: BackendGraph, _s: Any, _t: Any, capacity: Any = "capacity", flow_func: Any = None, **kwargs: Any
):
    """``(flow_value, flow_dict)``: a maximum flow (NetworkX's ``maximum_flow``, any of its ``flow_func``).

    ``flow_dict[u][v]`` for every edge (both directions of an undirected
    one), the net flow where positive and ``0`` elsewhere, in the capacities'
    type.  It is *a* maximum flow: which one NetworkX's algorithms return
    depends on their order of work, and the value and the cut do not.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"capacity": 3}), (1, 2, {"capacity": 2})])
    >>> nx.maximum_flow(G, 0, 2, backend="semiring_paths")
    (2, {0: {1: 2}, 1: {2: 2}, 2: {}})
    """
    _check(flow_func, kwargs)
    value, sol = _solve(flowG, _s, _t, capacity)
    nodes = flowG.nodes
    out = {u: {} for u in nodes}
    for i, j in zip(flowG.src.tolist(), flowG.dst.tolist()):
        out[nodes[i]][nodes[j]] = 0
    if sol is not None:
        u, v, f = _net(flowG, sol)
        k, kind = sol[2], sol[3]
        vals = np.ldexp(f.astype(np.float64), -k).tolist() if kind == "float" else f.tolist()
        for i, j, x in zip(u.tolist(), v.tolist(), vals):
            out[nodes[i]][nodes[j]] = x
    return value, out


def minimum_cut(
    flowG: BackendGraph, _s: Any, _t: Any, capacity: Any = "capacity", flow_func: Any = None, **kwargs: Any
):
    """``(cut_value, (source_side, sink_side))`` as NetworkX's ``minimum_cut`` returns it (any ``flow_func``).

    NetworkX's sink side is the set of nodes that can reach ``_t`` in the
    residual network; that set is the same for every maximum flow (it is the
    sink side of the minimum cut closest to ``_t``), so it does not depend on
    the algorithm.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"capacity": 3}), (1, 2, {"capacity": 2})])
    >>> nx.minimum_cut(G, 0, 2, backend="semiring_paths")
    (2, ({0, 1}, {2}))
    """
    _check(flow_func, kwargs)
    value, sol = _solve(flowG, _s, _t, capacity)
    n = len(flowG)
    ti = flowG.index[_t]
    if sol is None:  # no positive path: the residual network keeps every edge of positive capacity
        kept_src, kept_dst = _positive_arcs(flowG, capacity)
    else:
        kept, F, _, _, cap = sol
        ks, kd = flowG.src[kept].astype(np.int64), flowG.dst[kept].astype(np.int64)
        res = (sp.csr_array((cap, (ks, kd)), shape=(n, n)) - F).tocoo()  # residual capacity c(u, v) - f(u, v)
        live = res.data > 0
        kept_src, kept_dst = res.row[live], res.col[live]
    # nodes that reach t: BFS from t along reversed residual arcs
    H = Graph.from_edges(kept_dst.astype(np.int32), kept_src.astype(np.int32), None, n=n, directed=True)
    reach = bfs(H, ti)[0] >= 0
    sink = set(flowG.labels(np.flatnonzero(reach)))
    source = set(flowG.labels(np.flatnonzero(~reach)))
    return value, (source, sink)


def _positive_arcs(G: BackendGraph, capacity: Any) -> tuple[np.ndarray, np.ndarray]:
    """NetworkX's residual arcs when no flow moves: edges of positive (or missing: infinite) capacity, and undirected both ways."""
    if capacity is None:
        keep = G.src != G.dst
    else:
        arr = G.weights(capacity)
        keep = (G.src != G.dst) & _positive(arr)
    return G.src[keep], G.dst[keep]
