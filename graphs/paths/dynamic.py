"""Shortest-path trees from a few sources that absorb arc updates: :class:`DynamicSSSP`.

A road-network user who keeps the distances from a set of depots current
while roads close and reopen and travel times change does not rerun the
searches: after a batch of arc changes only the vertices whose distance can
change are visited (see :mod:`graphs.paths._dynamic_sssp_kernels`):

* an arc made *worse* (slower, closed) matters only if it is a tree arc; the
  subtree below it is forgotten and settled again from its unchanged
  surroundings;
* an arc made *better* (faster, reopened, new) matters only where it
  improves its head; the improvement spreads by a Dijkstra search that
  relaxes improvements only.

The work is proportional to what changes, not to the graph.  Weights are
non-negative (integers saturate, never wrap); parallel arcs are combined by
their minimum when the object is built, so an arc ``u -> v`` is one value.
A closed arc stays in the arrays with the weight ``inf`` (for integers the
dtype's maximum), so reopening it is a weight change; an arc that was never
in the graph is added by rebuilding the arrays (``O(m)``, then the same repair).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from apsp import path as tree_route
from semiring.dtypes import posinf
from semiring.validate import first_repeated_arc

from .._arguments import check_sources, check_vertex
from ..csr_arrays import build_csr
from ..door import Prepared, prepare, weight_facts
from ..errors import GraphError, VertexError
from ..graph import Graph
from ._dynamic_sssp_kernels import repair_trees
from .engine import hop_weights
from .many_source import search_many

__all__ = ["DynamicSSSP"]


def _threads() -> int:
    import numba

    return max(1, int(numba.get_num_threads()))


class DynamicSSSP:
    """Distances and shortest-path trees from ``sources``, kept current as arcs change (CPU).

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Non-negative weights (float or integer); an unweighted graph counts
        hops (float64).
    sources : int, label or sequence of them
        The roots of the trees (row ``r`` of :attr:`distances` is ``sources[r]``'s).

    Raises
    ------
    GraphError
        Negative weights (the repair rules need non-negative ones).
    VertexError, VertexTypeError
        A source that is not a vertex.

    Examples
    --------
    >>> import numpy as np
    >>> import graphs
    >>> G = graphs.Graph.from_edges([0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0])
    >>> T = graphs.DynamicSSSP(G, [0])
    >>> T.distances
    array([[0., 1., 2.]])
    >>> T.remove([1], [2])          # close 1 -> 2
    >>> T.distances, T.path(0, 2)
    (array([[0., 1., 5.]]), [0, 2])
    >>> T.update([1], [2], [1.5])   # reopen it, slower
    >>> T.distances
    array([[0. , 1. , 2.5]])
    """

    def __init__(self, G: Any, sources: Any) -> None:
        P = prepare(G, "cpu", facts=True)
        G = P.graph
        if P.facts is None:  # hop counts
            G = hop_weights(G)
        elif P.facts.negative_at >= 0:
            k = P.facts.negative_at
            raise GraphError(f"DynamicSSSP needs non-negative weights (a tree repair cannot absorb negative arcs); "
                             f"arc {k} weighs {G.weights[k]!r}")
        self._sources = check_sources(G, sources).astype(np.int64)
        G = G.simplify()
        self._G = G
        self._directed = G.directed
        self._inf = posinf(G.weights.dtype)
        self._set_arrays(np.asarray(G.indptr, dtype=np.int64), np.asarray(G.indices, dtype=np.int64),
                         np.array(G.weights, copy=True))
        self._marks, self._stamps = np.zeros((0, 0), dtype=np.int64), np.zeros(0, dtype=np.int64)
        simple = Prepared(G, "cpu", np, weight_facts(G))  # derived from the checked graph: no second door
        D, Pr = search_many(simple, self._sources.astype(np.int32), "dijkstra")
        self._dist, self._pred = np.ascontiguousarray(D), np.ascontiguousarray(Pr, dtype=np.int64)

    def _set_arrays(self, indptr: np.ndarray, indices: np.ndarray, w: np.ndarray) -> None:
        """The arcs (CSR, rows sorted) and their in-arc index (tails and arc positions, per head)."""
        self._indptr, self._indices, self._w = indptr, indices, w
        n = indptr.size - 1
        self._keys = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr)) * n + indices  # sorted: rows sorted
        order = np.argsort(indices, kind="stable")
        self._rarc = order.astype(np.int64)
        self._rindices = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))[order]
        self._rindptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(indices, minlength=n), out=self._rindptr[1:])

    # -- what it holds ------------------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of vertices."""
        return self._indptr.size - 1

    @property
    def sources(self) -> np.ndarray:
        """The sources, one per row."""
        return self._sources.copy()

    @property
    def distances(self) -> np.ndarray:
        """``(k, n)`` distances, read-only (the dtype's ``inf`` where unreachable)."""
        v = self._dist.view()
        v.flags.writeable = False
        return v

    @property
    def predecessors(self) -> np.ndarray:
        """``(k, n)`` int64 predecessors (``-1``: the source, or unreached), read-only."""
        v = self._pred.view()
        v.flags.writeable = False
        return v

    def weight(self, u: int, v: int) -> Any:
        """The current weight of the arc ``u -> v`` (``inf`` when closed or absent)."""
        e = self._arc_positions(np.array([u]), np.array([v]))[0]
        return self._w.dtype.type(self._inf) if e < 0 else self._w[e]

    def path(self, source: Any, target: Any) -> list[int]:
        """The vertices of the tree route from ``source`` (one of :attr:`sources`) to ``target``; ``[]`` if none.

        >>> import graphs
        >>> T = graphs.DynamicSSSP(graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 1.0]), 0)
        >>> T.path(0, 2)
        [0, 1, 2]
        """
        s = check_vertex(self._G, source, "source")
        t = check_vertex(self._G, target, "target")
        rows = np.flatnonzero(self._sources == s)
        if not rows.size:
            raise VertexError(f"source = {source!r} is not one of the sources {self._sources.tolist()}")
        return tree_route(self._pred[rows[0]], s, t)

    def to_graph(self) -> Graph:
        """The current graph (closed arcs left out)."""
        live = self._w < self._inf
        src = np.repeat(np.arange(self.n), np.diff(self._indptr))[live]
        return Graph.from_edges(src, self._indices[live], self._w[live], n=self.n, directed=self._directed)

    def __repr__(self) -> str:
        return f"DynamicSSSP(n={self.n}, sources={len(self._sources)}, dtype={self._w.dtype})"

    # -- updates ------------------------------------------------------------------------------------------------

    def update(self, src: Any, dst: Any, weights: Any) -> None:
        """Set the arcs ``src[k] -> dst[k]`` to ``weights[k]`` and repair the trees.

        An undirected graph changes both directions.  ``inf`` closes an
        arc; a finite weight on a closed arc reopens it; an arc the graph
        never had is added.  The batch is checked whole before anything
        changes.

        Raises
        ------
        VertexError, VertexTypeError
            An id that is not a vertex (names the argument and entry).
        GraphError
            A negative or NaN weight, a weight the dtype does not hold exactly, an arc twice in the batch.

        Examples
        --------
        >>> import graphs
        >>> T = graphs.DynamicSSSP(graphs.Graph.from_edges([0, 1], [1, 2], [2, 2]), 0)
        >>> T.update([0], [2], [3]); T.distances
        array([[0, 2, 3]])
        """
        us, vs = self._arcs(src, dst)
        self._apply(us, vs, self._weights(weights, us.size))

    def _apply(self, us: np.ndarray, vs: np.ndarray, ws: np.ndarray) -> None:
        """Write a checked batch into the arrays and repair the trees."""
        if not self._directed:
            us, vs, ws = np.concatenate([us, vs]), np.concatenate([vs, us]), np.concatenate([ws, ws])
            keep = np.unique(us * self.n + vs, return_index=True)[1]  # a self loop once
            us, vs, ws = us[keep], vs[keep], ws[keep]
        pos = self._arc_positions(us, vs)
        new = (pos < 0) & (ws < self._inf)
        if new.any():
            self._insert(us[new], vs[new])
            pos = self._arc_positions(us, vs)
        present = pos >= 0
        us, vs, ws, pos = us[present], vs[present], ws[present], pos[present]
        old = self._w[pos]
        worse, better = ws > old, ws < old
        self._w[pos] = ws
        if not (worse.any() or better.any()):
            return
        threads = min(_threads(), len(self._sources))
        if self._marks.shape[0] != threads:  # scratch marks, one row per thread, kept between updates
            self._marks = np.zeros((threads, self.n), dtype=np.int64)
            self._stamps = np.zeros(threads, dtype=np.int64)
        repair_trees(self._indptr, self._indices, self._w, self._rindptr, self._rindices, self._rarc,
                     self._dist, self._pred, self._sources, us[worse], vs[worse], us[better], vs[better],
                     pos[better], self._w.dtype.type(self._inf), self._marks, self._stamps)

    def remove(self, src: Any, dst: Any) -> None:
        """Close the arcs ``src[k] -> dst[k]`` (weight ``inf``) and repair the trees; see :meth:`update`.

        >>> import graphs
        >>> T = graphs.DynamicSSSP(graphs.Graph.from_edges([0], [1], [1.0]), 0)
        >>> T.remove([0], [1]); T.distances
        array([[ 0., inf]])
        """
        us, vs = self._arcs(src, dst)
        self._apply(us, vs, np.full(us.size, self._inf, dtype=self._w.dtype))

    def _arcs(self, src: Any, dst: Any) -> tuple[np.ndarray, np.ndarray]:
        """The checked tails and heads of a batch (each arc once)."""
        us = check_sources(self._G, src, "src").astype(np.int64)
        vs = check_sources(self._G, dst, "dst").astype(np.int64)
        if us.size != vs.size:
            raise GraphError(f"src and dst must have one entry per arc: {us.size} and {vs.size} entries")
        twice = first_repeated_arc(us, vs, self.n)
        if twice is not None:
            a, b = twice
            raise GraphError(f"the arc {int(us[a])} -> {int(vs[a])} is given twice in the batch (entries {a} and {b})")
        return us, vs

    def _weights(self, weights: Any, m: int) -> np.ndarray:
        """``m`` weights in the arrays' dtype: non-negative, no NaN, held exactly (``inf`` closes an arc)."""
        dtype = self._w.dtype
        raw = np.atleast_1d(np.asarray(weights))
        if raw.size == 1 and m != 1:
            raw = np.full(m, raw[0])
        if raw.shape != (m,):
            raise GraphError(f"weights must hold one value per arc ({m}), got shape {raw.shape}")
        if raw.size and raw.dtype.kind not in "biuf":
            raise TypeError(f"weights must be numbers, got dtype {raw.dtype}")
        with np.errstate(all="ignore"):
            if raw.dtype.kind == "f":
                bad = np.isnan(raw) | (raw < 0)
                if dtype.kind != "f":  # inf closes an integer arc too
                    raw = np.where(np.isposinf(raw), float(self._inf), raw)
            else:
                bad = raw < 0
            ws = raw.astype(dtype)
            lost = ws.astype(raw.dtype) != raw
            if dtype.kind != "f" and raw.dtype.kind == "f":
                lost &= ~np.isposinf(raw)
        bad |= lost & ~bad
        if bad.any():
            k = int(np.argmax(bad))
            why = "is negative or NaN" if (raw[k] != raw[k] or raw[k] < 0) else f"has no exact {dtype} value"
            raise GraphError(f"weights[{k}] = {raw[k].item()!r} {why}")
        return ws

    def _arc_positions(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """The index of each arc ``us[k] -> vs[k]`` in the arrays, ``-1`` where absent (one search of the sorted keys)."""
        want = us * self.n + vs
        if not self._keys.size:
            return np.full(want.size, -1, dtype=np.int64)
        i = np.minimum(np.searchsorted(self._keys, want), self._keys.size - 1)
        return np.where(self._keys[i] == want, i, -1).astype(np.int64)

    def _insert(self, us: np.ndarray, vs: np.ndarray) -> None:
        """Add the arcs ``us -> vs`` (weight ``inf`` for now: :meth:`update` then lowers them) to the arrays."""
        src = np.concatenate([np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self._indptr)), us])
        w = np.concatenate([self._w, np.full(us.size, self._inf, dtype=self._w.dtype)])
        indptr, indices, w = build_csr(self.n, src, np.concatenate([self._indices, vs]), w)
        self._set_arrays(np.asarray(indptr, dtype=np.int64), np.asarray(indices, dtype=np.int64), w)
