"""Loopless paths shortest first, as NetworkX's ``shortest_simple_paths`` gives them, on the library's Yen loop.

NetworkX's generator runs Yen's algorithm one path at a time, with a
bidirectional search per spur vertex.  Here the loop is the library's
(:class:`graphs.paths.k_shortest.YenSearch`: Lawler's rule, a round's spur
searches in one batch over the CPU threads), and the spur searches are
NetworkX's own two bidirectional searches step for step
(:mod:`.._simple_path_kernels`, in NetworkX's adjacency order), so every
route, every length and the order of the candidates (length, then the order
NetworkX found them in: ``ties="pushed"``) are NetworkX's: the paths come in
NetworkX's order, ties included.  They are computed ahead of the caller in
batches: 1 path, then 2, 4, ... up to :data:`MAX_BATCH` at a time.

Weights follow NetworkX's Dijkstra (:func:`._engine.search_plan`: exact int64
or float64 sums, a weight function evaluated once per arc, arcs it returns
``None`` for hidden); what is not reproduced exactly (negative weights, NaN,
``inf``) goes back to NetworkX with ``NotImplementedError`` at the call.
What NetworkX raises lazily (a missing node, no path) is raised at the first
``next()`` here too.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from ...paths.k_shortest import ScratchPool, YenSearch, run_batch
from .. import _simple_path_kernels as K
from ..graph import BackendGraph
from ._engine import HOPS, Plan, arc_weights, search_plan

#: The NetworkX functions this module implements (:mod:`.interface` registers every name here).
__all__ = ["shortest_simple_paths"]

#: Most paths computed ahead of the caller in one batch.
MAX_BATCH = 32


class NetworkXSpurs:
    """NetworkX's spur searches for :class:`graphs.paths.k_shortest.YenSearch` (the searcher interface of
    :class:`graphs.paths.k_shortest.AStarSpurs`), on the backend graph's node ids.

    Candidate keys are NetworkX's: ``root_length + length`` with the root's
    weights summed from the source (Python's ``sum``) and the search's
    ``finaldist``; without a weight, node counts.
    """

    def __init__(self, G: BackendGraph, s: int, t: int, plan: Plan) -> None:
        self.n = len(G)
        self.start, self.end = s, t
        self.reachable = True  # the first search tells (NetworkX raises NetworkXNoPath there)
        self._hops = plan.kind == "hops"
        self.dtype = np.dtype(np.int64 if self._hops else plan.weights.dtype)
        self.hi = np.iinfo(np.int64).max if self.dtype.kind == "i" else np.inf
        self._directed = G.directed
        self._succ = arc_weights(G, plan, False)
        self._pred = arc_weights(G, plan, True)
        self._rank = np.full(self.n, -1, dtype=np.int32)
        self._m = G.src.size
        self._pool = ScratchPool(self._scratch)

    def _scratch(self) -> tuple:
        n, m = self.n, self.m_heap
        if self._hops:
            return tuple(np.full(n, -2, dtype=np.int64) for _ in range(2)) + tuple(
                np.empty(n, dtype=np.int64) for _ in range(4))
        return (np.zeros((2, n), dtype=np.int8), np.empty((2, n), dtype=self.dtype), np.zeros((2, n), dtype=np.int8),
                np.empty((2, n), dtype=self.dtype), np.full((2, n), -1, dtype=np.int64),
                np.empty((2, m), dtype=self.dtype), np.empty((2, m), dtype=np.int64), np.empty((2, m), dtype=np.int64),
                np.empty(n, dtype=np.int64))

    @property
    def m_heap(self) -> int:
        """Entries of each heap: every arc can push once, and the search's end."""
        return self._m + 2

    def run(self, path: np.ndarray, prefix: np.ndarray, spurs: np.ndarray, ban_ptr: np.ndarray,
            ban_next: np.ndarray, limit) -> list[tuple]:
        """The round's searches, as :meth:`graphs.paths.k_shortest.AStarSpurs.run` returns them."""
        rank = self._rank
        rank[path] = np.arange(path.shape[0], dtype=np.int32)
        sptr, sidx, sw, sok = self._succ
        pptr, pidx, pw, pok = self._pred
        nj = spurs.shape[0]
        try:
            if self._hops:
                parts = run_batch(lambda sc, j0, j1: (j0, K.bidirectional_bfs_spurs(
                    sptr, sidx, pptr, pidx, self._directed, rank, path, spurs, ban_ptr, ban_next, self.end, *sc,
                    j0, j1)), nj, nj * sidx.shape[0], self._pool)
            else:
                parts = run_batch(lambda sc, j0, j1: (j0, K.bidirectional_dijkstra_spurs(
                    sptr, sidx, sw, sok, pptr, pidx, pw, pok, self._directed, rank, path, spurs, ban_ptr, ban_next,
                    self.end, *sc, j0, j1)), nj, nj * sidx.shape[0] * 4, self._pool)
        finally:
            rank[path] = -1
        out = []
        for j0, res in parts:
            verts, offs = res[0], res[1 if self._hops else 2]
            for r in range(offs.shape[0] - 1):
                lo, hi = offs[r], offs[r + 1]
                if lo == hi:
                    continue
                j = j0 + r
                i = int(spurs[j])
                route = verts[lo:hi].astype(np.int32)
                if self._hops:  # NetworkX's len(root) + len(route); hop counts from the source
                    key = (i + 1) + (hi - lo)
                    dists = prefix[i] + np.arange(hi - lo, dtype=np.int64)
                    settled = int(res[2][r])
                else:  # sum(root's weights) + finaldist; the root sums of later rounds, from the source
                    arcw, keys, settled_all = res[1], res[3], res[4]
                    key = (prefix[i] + keys[r]).item()
                    steps = arcw[lo:hi].copy()
                    steps[0] = prefix[i]
                    dists = np.cumsum(steps)
                    settled = int(settled_all[r])
                out.append((j, route, dists, key, settled))
        return out

    def original(self, path: np.ndarray) -> np.ndarray:
        """``path`` as node ids (int64)."""
        return path.astype(np.int64)


def shortest_simple_paths(G: BackendGraph, source: Any, target: Any, weight: Any = None):
    """Generator of the simple ``source -> target`` paths, shortest first (NetworkX's ``shortest_simple_paths``).

    Examples
    --------
    >>> import networkx as nx
    >>> list(nx.shortest_simple_paths(nx.cycle_graph(7), 0, 3, backend="semiring_paths"))
    [[0, 1, 2, 3], [0, 6, 5, 4, 3]]
    """
    plan = HOPS if weight is None else search_plan(G, weight, "dijkstra")
    if plan.through_inf:
        raise NotImplementedError("inf weights or sums: NetworkX's lengths through them are its own")
    return _generate(G, source, target, plan)


def _generate(G: BackendGraph, source: Any, target: Any, plan: Plan):
    if source not in G:
        raise nx.NodeNotFound(f"source node {source} not in graph")
    if target not in G:
        raise nx.NodeNotFound(f"target node {target} not in graph")
    search = YenSearch(NetworkXSpurs(G, G.index[source], G.index[target], plan), ties="pushed")
    batch = 1
    got = search.take(batch)
    if not got:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    while True:
        for _, path, _ in got:
            yield G.labels(path)
        if len(got) < batch:
            return
        batch = min(2 * batch, MAX_BATCH)
        got = search.take(batch)
