"""Centralities and distance measures with NetworkX's signatures, answers and errors.

* :func:`betweenness_centrality`, :func:`edge_betweenness_centrality`:
  :func:`graphs.betweenness_centrality` / :func:`graphs.edge_betweenness_centrality`
  (Brandes over batches of sources); ``k`` sources drawn exactly as NetworkX
  draws them (``seed.sample(list(G), k)`` on the same random state), with its
  rescaling of sampled sources; a multigraph's edge values shared among the
  parallel edges of least weight as NetworkX shares them;
* :func:`closeness_centrality`, :func:`harmonic_centrality`:
  :func:`graphs.closeness_centrality` / :func:`graphs.harmonic_centrality`
  (``u=``, ``nbunch=``, ``sources=`` from single-source searches);
* :func:`eccentricity`, :func:`diameter`, :func:`radius`, :func:`center`,
  :func:`periphery`: :func:`graphs.eccentricity` (``v=`` from single-source
  searches), the reductions in NetworkX's own code (so ``e=`` is served too);
* :func:`barycenter`: per-source sums of distances (exact), the tree centroid
  order of NetworkX on unweighted trees.

Exactness.  Lengths are NetworkX's own numbers (see
:mod:`.shortest_paths`: int weights in int64 where no sum leaves it, float
weights along the same rounded sums), so eccentricities, the center and the
periphery are NetworkX's exactly; centralities agree to rounding (the engines
sum in another order).  Shortest-path counts need the same ties as NetworkX's
Dijkstra: zero weights (NetworkX then counts along its heap order) and float
weights so unequal that adding one to a path length may leave it unchanged go
back to NetworkX, as do negative, NaN and infinite weights, a weight function
returning ``None`` for Brandes (NetworkX adds it), or differing by direction on
an undirected graph, ``sp=`` and ``usebounds=`` (NetworkX's own
bookkeeping), and ``attr=`` (it writes into the caller's graph).
"""

from __future__ import annotations

import random
from typing import Any

import networkx as nx
import numpy as np

from ..centrality.distance_measures import NotConnectedError
from ..centrality.distance_measures import closeness_centrality as _closeness
from ..centrality.distance_measures import eccentricity as _eccentricity
from ..centrality.distance_measures import harmonic_centrality as _harmonic
from ..centrality.scores import betweenness_centrality as _betweenness
from ..centrality.scores import edge_betweenness_centrality as _edge_betweenness
from ..graph import Graph
from ..paths.sssp import multi_source_sssp
from ..traversal.search import bfs
from .attributes import exact_float_sums
from .graph import BackendGraph
from .shortest._engine import Plan, search, search_plan

__all__ = [
    "betweenness_centrality", "edge_betweenness_centrality", "closeness_centrality", "harmonic_centrality",
    "eccentricity", "diameter", "radius", "center", "periphery", "barycenter",
]

#: A positive weight below ``(n - 1) * max weight * ABSORB`` might vanish when added to a path length.
ABSORB = 2.0**-50
_BLOCK = 1 << 22  # sources x vertices per block of distance rows


# Engine graphs -------------------------------------------------------------------


def _reverse_arcs(G: BackendGraph) -> np.ndarray:
    """For each arc of an undirected backend graph, the index of the arc in the other direction."""
    n = len(G)
    codes = G.src.astype(np.int64) * n + G.dst
    order = np.argsort(codes, kind="stable")
    return order[np.searchsorted(codes[order], G.dst.astype(np.int64) * n + G.src)]


def _engine(G: BackendGraph, weight: Any, *, brandes: bool = False) -> tuple[Graph, Plan]:
    """The :class:`graphs.Graph` the engines read (NetworkX's directedness, its lengths) and the plan.

    Raises ``NotImplementedError`` where NetworkX's answer is not reproduced (module docstring).
    """
    plan = search_plan(G, weight, "dijkstra")
    if plan.through_inf:
        raise NotImplementedError("inf weights or sums beyond float64: NetworkX reaches nodes at length inf")
    w = plan.weights
    if brandes and plan.kind != "hops":
        if plan.keep is not None:
            raise NotImplementedError("a weight function returning None: NetworkX's Brandes adds None")
        if w.size and (w == 0).any():
            raise NotImplementedError("zero weights: NetworkX counts tied paths along its heap order")
        if plan.kind == "float" and w.size and float(w.min()) < float(w.max()) * max(len(G) - 1, 1) * ABSORB:
            raise NotImplementedError("float weights so unequal that a path length may absorb one: "
                                      "NetworkX's ties are its rounding's")
    key = ("engine", plan.key)
    H = G._graphs.get(key)
    if H is not None:
        return H, plan
    m, n = G.src.size, len(G)
    kept = np.ones(m, bool) if plan.keep is None else plan.keep
    full = None
    if w is not None:
        full = np.zeros(m, dtype=w.dtype)
        full[kept] = w
    src, dst = G.src, G.dst
    if not G.directed:
        if callable(weight) and m:
            rev = _reverse_arcs(G)
            if not (np.array_equal(kept, kept[rev]) and (full is None or np.array_equal(full, full[rev]))):
                raise NotImplementedError("a weight function that differs by direction on an undirected graph")
        kept = kept & (src <= dst)
    H = Graph.from_edges(src[kept], dst[kept], None if full is None else full[kept], n=n, directed=G.directed)
    G._graphs[key] = H
    return H, plan


def _rows(H: Graph, plan: Plan, sources: list[int]):
    """Generator of ``(source, distances, reached)`` over the engine graph ``H`` (a block of sources at a time)."""
    if plan.kind == "hops":
        for s in sources:
            d = bfs(H, s)[0]
            yield s, d, d >= 0
        return
    n = H.n
    step = max(1, _BLOCK // max(n, 1))
    hi = np.inf if H.weights.dtype.kind == "f" else np.iinfo(H.weights.dtype).max
    for start in range(0, len(sources), step):
        block = sources[start:start + step]
        D = multi_source_sssp(H, block, method="dijkstra", predecessors=False)[0]
        for r, s in enumerate(block):
            yield s, D[r], D[r] != hi


def _nbunch(G: BackendGraph, nbunch: Any) -> list[int]:
    """Vertex ids of ``G.nbunch_iter(nbunch)`` (NetworkX's order, non-nodes skipped)."""
    if nbunch is None:
        return list(range(len(G)))
    index = G.index
    if nbunch in G:
        return [index[nbunch]]
    return [index[v] for v in nbunch if v in G]


# Betweenness -----------------------------------------------------------------------


def _rng(seed: Any) -> Any:
    return seed if isinstance(seed, random.Random) else nx.utils.create_py_random_state(seed)


def _sample(G: BackendGraph, k: int, seed: Any) -> np.ndarray:
    """NetworkX's draw ``seed.sample(list(G.nodes()), k)`` as vertex ids (the same state consumed)."""
    index = G.index
    return np.array([index[v] for v in _rng(seed).sample(list(G.nodes), k)], dtype=np.int32)


def betweenness_centrality(G: BackendGraph, k: Any = None, normalized: bool = True, weight: Any = None,
                           endpoints: bool = False, seed: Any = None) -> dict:
    """Shortest-path betweenness of every node (NetworkX's ``betweenness_centrality``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.betweenness_centrality(nx.path_graph(3), backend="semiring_paths")
    {0: 0.0, 1: 1.0, 2: 0.0}
    >>> nx.betweenness_centrality(nx.path_graph(3), k=2, normalized=False, endpoints=True, seed=42,
    ...                           backend="semiring_paths")
    {0: 2.25, 1: 3.0, 2: 2.25}
    """
    H, plan = _engine(G, weight, brandes=True)
    n = len(G)
    if k == n:
        k = None
    sources = None if k is None else _sample(G, k, seed)
    if n == 0:
        return {}
    vals = _betweenness(H, sources=sources, weighted=plan.kind != "hops", normalized=bool(normalized),
                        endpoints=bool(endpoints), device="cpu", progress=False)
    return dict(zip(G.nodes, vals.tolist()))


def _edge_keys(G: BackendGraph, weight: Any) -> list:
    """Per arc of ``G.edges()`` the keys of the parallel edges sharing its value (NetworkX's ``_add_edge_keys``)."""
    if G.edge_data is None:
        raise NotImplementedError("the keys of a multigraph's edges need the edge data")
    nodes = G.nodes
    out = []
    for a, (i, j) in enumerate(zip(G.src.tolist(), G.dst.tolist())):
        d = G.edge_data[a]
        u, v = nodes[i], nodes[j]
        if weight is None:
            keys = list(d)
        elif callable(weight):
            wt = weight(u, v, d)
            keys = [key for key in d if weight(u, v, {key: d[key]}) == wt]
        else:
            wt = min(attr.get(weight, 1) for attr in d.values())
            keys = [key for key in d if d[key].get(weight, 1) == wt]
        out.append(keys)
    return out


def edge_betweenness_centrality(G: BackendGraph, k: Any = None, normalized: bool = True, weight: Any = None,
                                seed: Any = None) -> dict:
    """Shortest-path betweenness of every edge (NetworkX's ``edge_betweenness_centrality``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.edge_betweenness_centrality(nx.path_graph(3), normalized=False, backend="semiring_paths")
    {(0, 1): 2.0, (1, 2): 2.0}
    """
    H, plan = _engine(G, weight, brandes=True)
    keys = _edge_keys(G, weight) if G.multigraph else None
    n = len(G)
    sources = None if k is None else _sample(G, k, seed)
    if sources is not None and sources.size == n:
        sources = None  # all of them: the same scaling (NetworkX drew them all)
    if n == 0:
        return {}
    eb = _edge_betweenness(H, sources=sources, weighted=plan.kind != "hops", normalized=bool(normalized),
                           device="cpu", progress=False)
    value = dict(zip(zip(eb.src.tolist(), eb.dst.tolist()), eb.value.tolist()))
    nodes = G.nodes
    out: dict = {}
    for a, (i, j) in enumerate(zip(G.src.tolist(), G.dst.tolist())):
        if not G.directed and j < i:
            continue  # G.edges() lists an undirected edge from its earlier node
        b = value.get((i, j), 0.0)
        if keys is None:
            out[(nodes[i], nodes[j])] = b
        else:
            share = b / len(keys[a])
            for key in G.edge_data[a]:
                out[(nodes[i], nodes[j], key)] = share if key in keys[a] else 0.0
    return out


# Closeness, harmonic ---------------------------------------------------------------


def closeness_centrality(G: BackendGraph, u: Any = None, distance: Any = None, wf_improved: bool = True):
    """Closeness centrality (NetworkX's ``closeness_centrality``: distances into each node).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.closeness_centrality(nx.path_graph(3), backend="semiring_paths")
    {0: 0.6666666666666666, 1: 1.0, 2: 0.6666666666666666}
    >>> nx.closeness_centrality(nx.DiGraph([(0, 1), (1, 2)]), u=2, backend="semiring_paths")
    0.6666666666666666
    """
    if G.directed and distance is not None and G.exact_edge_data is False:
        raise NotImplementedError("edge data of a dict subclass: NetworkX reads copies of them (G.reverse())")
    H, plan = _engine(G, distance)
    n = len(G)
    if u is None:
        if n == 0:
            return {}
        vals = _closeness(H, wf_improved=bool(wf_improved), weighted=plan.kind != "hops", device="cpu",
                          progress=False)
        return dict(zip(G.nodes, vals.tolist()))
    if u not in G:
        raise nx.NodeNotFound(f"Source {u} is not in G" if distance is None else f"Node {u} not found in graph")
    d, reached, _ = search(G, G.index[u], plan, "bfs" if plan.kind == "hops" else "dijkstra",
                            reverse=G.directed)
    r = int(reached.sum())
    total = sum(d[reached].tolist())
    c = 0.0
    if total > 0.0 and n > 1:
        c = (r - 1.0) / total
        if wf_improved:
            c *= (r - 1.0) / (n - 1)
    return c


def _node_set(G: BackendGraph, nbunch: Any) -> set:
    """``set(G.nbunch_iter(nbunch))`` built as NetworkX builds it (the same iteration order)."""
    nodes = G.nodes
    return {nodes[i] for i in _nbunch(G, nbunch)}


def harmonic_centrality(G: BackendGraph, nbunch: Any = None, distance: Any = None, sources: Any = None) -> dict:
    """Harmonic centrality: ``sum 1/d(v, u)`` over sources ``v`` (NetworkX's ``harmonic_centrality``).

    Nodes no source reaches at a positive distance get NetworkX's ``int`` 0.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.harmonic_centrality(nx.path_graph(3), backend="semiring_paths")
    {0: 1.5, 1: 2.0, 2: 1.5}
    """
    H, plan = _engine(G, distance)
    targets = _node_set(G, nbunch)
    index = G.index
    if sources is None:
        vals = _harmonic(H, weighted=plan.kind != "hops", device="cpu", progress=False).tolist() if len(G) else []
    else:
        src_ids = [index[v] for v in _node_set(G, sources)]
        acc = np.zeros(len(G), dtype=np.float64)
        for _, d, reached in _rows(H, plan, src_ids):
            pos = reached & (d > 0)
            acc[pos] += 1.0 / d[pos].astype(np.float64)
        vals = acc.tolist()
    return {v: (vals[index[v]] or 0) for v in targets}


# Eccentricity and its reductions ---------------------------------------------------


def _python_max(vals: list) -> Any:
    """``max`` of NetworkX's lengths, whose first entry (the source) is the ``int`` 0."""
    m = max(vals)
    return 0 if m == 0 else m


def eccentricity(G: BackendGraph, v: Any = None, sp: Any = None, weight: Any = None):
    """Eccentricity of the nodes ``v`` (all by default; NetworkX's ``eccentricity``).

    Raises :class:`networkx.NetworkXError` when some node of ``v`` does not
    reach every node (the graph is not (strongly) connected).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.eccentricity(nx.path_graph(4), backend="semiring_paths")
    {0: 3, 1: 2, 2: 2, 3: 3}
    >>> nx.eccentricity(nx.path_graph(4), v=1, backend="semiring_paths")
    2
    """
    if sp is not None:
        raise NotImplementedError("given lengths (sp) are NetworkX's to read")
    H, plan = _engine(G, weight)
    n = len(G)
    msg = ("Found infinite path length because the digraph is not strongly connected" if G.directed else
           "Found infinite path length because the graph is not connected")
    nodes = G.nodes
    if v is None:
        if n == 0:
            return {}
        try:
            ecc = _eccentricity(H, weighted=plan.kind != "hops", device="cpu", progress=False)
        except NotConnectedError:
            raise nx.NetworkXError(msg) from None
        return {nodes[i]: (0 if e == 0 else e) for i, e in enumerate(ecc.tolist())}
    ids = _nbunch(G, v)
    e = {}
    for s, d, reached in _rows(H, plan, list(dict.fromkeys(ids))):
        if int(reached.sum()) != n:
            raise nx.NetworkXError(msg)
        e[s] = _python_max(d[reached].tolist())
    out = {nodes[i]: e[i] for i in ids}
    if v in G:
        return out[v]
    return out


def _e(G: BackendGraph, e: Any, weight: Any) -> dict:
    return eccentricity(G, weight=weight) if e is None else e


def diameter(G: BackendGraph, e: Any = None, usebounds: bool = False, weight: Any = None):
    """The largest eccentricity (NetworkX's ``diameter``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.diameter(nx.path_graph(4), backend="semiring_paths")
    3
    """
    return max(_e(G, e, weight).values())


def radius(G: BackendGraph, e: Any = None, usebounds: bool = False, weight: Any = None):
    """The least eccentricity (NetworkX's ``radius``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.radius(nx.path_graph(4), backend="semiring_paths")
    2
    """
    return min(_e(G, e, weight).values())


def center(G: BackendGraph, e: Any = None, usebounds: bool = False, weight: Any = None) -> list:
    """The nodes of least eccentricity, in node order (NetworkX's ``center``; on a tree its tree center).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.center(nx.path_graph(4), backend="semiring_paths")
    [1, 2]
    """
    if e is None and weight is None and not G.directed and len(G) == 0:
        raise nx.NetworkXPointlessConcept("G has no nodes.")  # NetworkX's tree test runs first
    e = _e(G, e, weight)
    r = min(e.values())
    return [v for v in e if e[v] == r]


def periphery(G: BackendGraph, e: Any = None, usebounds: bool = False, weight: Any = None) -> list:
    """The nodes of largest eccentricity, in node order (NetworkX's ``periphery``).

    Examples
    --------
    >>> import networkx as nx
    >>> nx.periphery(nx.path_graph(4), backend="semiring_paths")
    [0, 3]
    """
    e = _e(G, e, weight)
    d = max(e.values())
    return [v for v in e if e[v] == d]


def barycenter(G: BackendGraph, weight: Any = None, attr: Any = None, sp: Any = None) -> list:
    """The nodes of least total distance to all others (NetworkX's ``barycenter``).

    Totals are exact (int lengths, or float lengths whose every sum is exact),
    so ties are NetworkX's; an unweighted tree gives NetworkX's centroid order.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.barycenter(nx.cycle_graph(5).to_directed(), backend="semiring_paths")
    [0, 1, 2, 3, 4]
    """
    if attr is not None or sp is not None:
        raise NotImplementedError("attr writes into the caller's graph; sp is NetworkX's to read")
    n = len(G)
    if n == 0:
        raise NotImplementedError("the null graph: NetworkX's answer depends on the weight")
    H, plan = _engine(G, weight)
    if plan.kind == "float" and not exact_float_sums(plan.weights, n * n):
        raise NotImplementedError("float lengths whose sums round: NetworkX's order of additions decides ties")
    tree = weight is None and not G.directed
    if tree and G.multigraph:
        raise NotImplementedError("NetworkX's tree test on a multigraph counts parallel edges")
    totals = []
    for _, d, reached in _rows(H, plan, list(range(n))):
        if int(reached.sum()) < n:
            raise NotImplementedError("a disconnected graph: NetworkX's message names the graph")
        totals.append(sum(d.tolist()) if plan.kind != "float" else float(d.sum()))
    smallest = min(totals)
    best = [i for i, t in enumerate(totals) if t == smallest]
    if tree and G.number_of_edges() == n - 1 and len(best) == 2:
        # NetworkX's tree centroid: the centroid met first walking from the first node, then the other one
        d0 = bfs(H, 0)[0]
        best.sort(key=lambda i: int(d0[i]))
    return [G.nodes[i] for i in best]
