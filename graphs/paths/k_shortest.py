"""The k shortest loopless paths between two vertices (Yen): :func:`k_shortest_paths` and its engine :class:`YenSearch`.

Yen, "Finding the K shortest loopless paths in a network", Management
Science 17 (1971): the next path is the shortest of the candidates, and a
candidate is a *root* (a prefix of an accepted path, ending at the *spur*
vertex) followed by the shortest *spur route* from there to the end that
enters no vertex of the root and leaves the spur along no arc that an
accepted path with the same root takes.  Each round runs the spur searches
of the last accepted path, then pops the shortest candidate.

The loop (:class:`YenSearch`) and the searches (:class:`AStarSpurs`, or
another searcher of its interface: the NetworkX backend runs NetworkX's own
bidirectional searches) are apart.  What the engine adds to the textbook
loop:

* one batch per round: the round's spur searches are one kernel call
  (:func:`graphs.paths._ksp_kernels.spur_searches`), spread over the CPU
  threads (:func:`run_batch`); per search it reads only its spur index (the
  banned vertices are the round's path up to it, one shared ``rank`` array)
  and a short list of banned next vertices; on the GPU the same round is
  one launch, a warp per search (:mod:`graphs.cuda.spur_search`);
* potentials: the paths grow from the target back on the reversed graph,
  and one search from the source on the whole graph (the many-source
  engine) gives the exact distance of every vertex to where the spur
  searches go; every spur search is A* with it (Dijkstra on the reduced
  weights ``w(u, v) + h[v] - h[u] >= 0``), so it settles little more than
  its detour, and stops there;
* Lawler's rule (Lawler, "A procedure for computing the K best solutions to
  discrete optimization problems", Management Science 18, 1972): a path
  accepted from a spur search at index ``d`` needs spur searches only from
  ``d`` on (those before would find again what is a candidate already);
* a bound: with ``k`` known, a search stops once its least key passes the
  length of the ``(k - accepted)``-th candidate, and longer candidates are
  dropped;
* renumbering: a deep graph (a road network) is searched in reverse
  Cuthill-McKee order (:func:`graphs.locality.renumbered`).

Ties (``ties="sequence"``, :func:`k_shortest_paths`): paths of equal length
come in lexicographic order of their vertex sequences (vertex ids from the
source), and the ``k`` returned are exactly the first ``k`` simple paths in
the order (length, vertex sequence) when every arc weighs more than zero.
This holds because every spur search returns, of its shortest routes, the
lexicographically first (on the reversed graph the kernel's tie rule picks
the route whose vertices read backwards, that is from the source, come
first), and candidates are ordered the same way (the argument of Yen's
correctness, with (length, sequence) for length).  With zero-weight arcs the
order is still the same from run to run (and on any number of threads), but
ties may not come lexicographically.  Float lengths are the sums along each
path from the target back; paths whose lengths differ only by rounding may
come in either order.

``ties="pushed"`` (the NetworkX backend): candidates of equal length come in
the order they were found (rounds in order, spur vertices from the source
on), as NetworkX's ``shortest_simple_paths`` orders them.
"""

from __future__ import annotations

import heapq
import operator
import queue
from collections.abc import Callable
from typing import Any

import numpy as np

from semiring.dtypes import neginf, posinf
from semiring.kernels import run_chunks

from .._arguments import check_vertex
from ..door import prepare
from ..errors import GraphError
from ..graph import Graph
from ..locality import renumbered
from ..traversal.engine import bfs_search
from . import _ksp_kernels as K
from .many_source import distance_rows, exact_on_gpu
from .single_pair import ShortestPath

__all__ = ["k_shortest_paths", "YenSearch", "AStarSpurs", "ScratchPool", "run_batch", "TIES"]

#: Tie rules of :class:`YenSearch`.
TIES = ("sequence", "pushed")


def _check_k(k: Any, name: str = "k") -> int:
    """``k`` as an int of at least 1: a :class:`TypeError` for a non-integer, a :class:`GraphError` below 1.

    >>> _check_k(3)
    3
    >>> _check_k(0)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphError: k must be at least 1, got 0
    """
    if isinstance(k, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {k!r} (bool)")
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {k!r} ({type(k).__name__})") from None
    if k < 1:
        raise GraphError(f"{name} must be at least 1, got {k}")
    return k


def _unweighted_view(G: Graph) -> Graph:
    """The host graph ``G`` without its weights (hop counts), built once and kept on ``G``.

    >>> G = Graph.from_edges([0], [1], [5.0])
    >>> _unweighted_view(G).weights is None, _unweighted_view(G) is _unweighted_view(G)
    (True, True)
    """
    if G.weights is None:
        return G
    if "unweighted_view" not in G._cache:
        G._cache["unweighted_view"] = Graph(G.indptr, G.indices, None, directed=G.directed, coords=G.coords,
                                            node_labels=G.node_labels, check=False)
    return G._cache["unweighted_view"]


class ScratchPool:
    """Scratch arrays for the threads of a batch: one set per thread at a time, made on demand and kept.

    >>> pool = ScratchPool(lambda: [0])
    >>> a = pool.get(); pool.put(a); pool.get() is a
    True
    """

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self._free: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def get(self) -> Any:
        """A free set (a new one when none is free)."""
        try:
            return self._free.get_nowait()
        except queue.Empty:
            return self._make()

    def put(self, scratch: Any) -> None:
        """Give a set back."""
        self._free.put(scratch)


def run_batch(kernel: Callable[[Any, int, int], Any], m: int, work: int, pool: ScratchPool) -> list[Any]:
    """``kernel(scratch, j0, j1)`` over the searches ``[0, m)`` on the CPU threads; the results in order of ``j0``.

    >>> run_batch(lambda scratch, a, b: (a, b), 3, 0, ScratchPool(lambda: None))
    [(0, 3)]
    """
    results: dict[int, Any] = {}

    def chunk(j0: int, j1: int) -> None:
        scratch = pool.get()
        try:
            results[j0] = kernel(scratch, j0, j1)
        finally:
            pool.put(scratch)

    run_chunks(chunk, m, work=work)
    return [results[j0] for j0 in sorted(results)]


class AStarSpurs:
    """The library's spur searches: A* on the reversed (and renumbered) graph, a round per kernel call.

    The searcher :class:`YenSearch` drives.  A searcher has ``n``, ``start``
    and ``end`` (its ids of the two ends of the paths it grows), ``dtype``
    and ``hi`` (the lengths' dtype and infinity), ``reachable``, and two
    methods: :meth:`run`, a round's searches, and :meth:`original`, a path in
    the graph's ids from the source to the target.

    The paths grow from the target back on the reversed graph, each search
    towards the source with the exact distances from the source as its
    heuristic (one search on the whole graph, the many-source engine's
    :func:`graphs.paths.many_source.distance_rows`).  Among equally short
    routes a search returns the one whose vertices, read from the source,
    come first (the kernel's tie rule on the reversed graph).

    Parameters
    ----------
    G : Graph
        On the host, with non-negative weights (checked by the caller) or
        none (hop counts, float64).
    s, t : int
        Checked vertex ids: the source and the target.
    device : {"cpu", "gpu"}
        Where the rounds run: the CPU threads, or one launch per round on the
        GPU (:class:`graphs.cuda.spur_search.SpurBatch`, the same searches and
        routes; a search whose route it cannot read back, a tie over
        zero-weight arcs, runs again here).  Integer weights whose longest
        possible path reaches ``2**53`` (float64 would round the GPU's sums)
        are searched here in any case.
    """

    def __init__(self, G: Graph, s: int, t: int, device: str = "cpu") -> None:
        weighted = G.weights is not None
        H = G.transpose()  # the graph the searches walk: from t back to s
        dtype = np.dtype(G.weights.dtype if weighted else np.float64)
        self.dtype = dtype
        self._lo, self.hi = neginf(dtype), posinf(dtype)
        if weighted:  # h[v]: distance from v to s in H, i.e. from s to v in G
            h = distance_rows(G, np.array([s], dtype=np.int32))[0][0]
        else:
            levels = bfs_search(G, s, direction="push")[0]
            h = np.where(levels >= 0, levels.astype(np.float64), np.inf)
        R = renumbered(H)
        if R is None:
            self._indptr, self._indices = H.indptr, H.indices
            w = H.weights
            self._order = np.arange(G.n, dtype=np.int32)
            inv = None
        else:
            self._indptr, self._indices, w = R.indptr, R.indices, R.weights
            self._order, inv = R.order, R.inv
            h = h[R.order]
        self._w = np.ones(H.nnz, dtype=np.float64) if w is None else w
        self._h = np.ascontiguousarray(h, dtype=dtype)
        self.n = G.n
        self.start = int(t if inv is None else inv[t])
        self.end = int(s if inv is None else inv[s])
        self.reachable = bool(self._h[self.start] != self.hi)
        self._rank = np.full(G.n, -1, dtype=np.int32)
        self._pool = ScratchPool(self._scratch)
        self._work = max(64, G.nnz // 16)  # arcs a search scans, on average (updated as they run)
        self._device = None
        # The rounds run on the device (graphs.cuda.spur_search, the CPU kernel as a fallback) where its float64 sums
        # are exact for these weights (integer paths below 2**53), else here.
        if device == "gpu" and exact_on_gpu(G):
            from ..cuda.spur_search import SpurBatch

            self._device = SpurBatch(self._indptr, self._indices, self._w, self._h, self._order, self.end, dtype,
                                     self.hi, cache=H._cache)

    def _scratch(self) -> tuple[np.ndarray, ...]:
        n = self.n
        return (np.full(n, self.hi, dtype=self.dtype), np.full(n, -1, dtype=np.int32), np.full(n, -1, dtype=np.int32),
                np.empty(n, dtype=self.dtype), np.empty(n, dtype=self.dtype), np.empty(n, dtype=np.int32),
                np.empty(n, dtype=np.int32))

    def run(self, path: np.ndarray, prefix: np.ndarray, spurs: np.ndarray, ban_ptr: np.ndarray,
            ban_next: np.ndarray, limit: Any) -> list[tuple[Any, ...]]:
        """The spur searches of a round: from ``path[spurs[j]]`` at distance ``prefix[spurs[j]]``, never into
        ``path[:spurs[j] + 1]`` nor along an arc to ``ban_next[ban_ptr[j]:ban_ptr[j + 1]]`` from the spur.

        Returns ``(j, route, dists, length, settled)`` for each search that
        found a route (``route`` from the spur to :attr:`end`, ``dists`` the
        distance of each of its vertices from the path's start, ``length``
        the route's length as a Python number: the candidate's key).
        """
        if self._device is None:
            return self._run_cpu(path, prefix, spurs, ban_ptr, ban_next, limit)
        found, failed = self._device.run(path, prefix, spurs, ban_ptr, ban_next, limit)
        if failed:  # routes the device could not read back (ties over zero-weight arcs): these searches again here
            redo = np.asarray(failed, dtype=np.int64)
            counts = ban_ptr[redo + 1] - ban_ptr[redo]
            sub_ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
            sub_next = (np.concatenate([ban_next[ban_ptr[j]:ban_ptr[j + 1]] for j in failed]).astype(np.int32)
                        if sub_ptr[-1] else np.zeros(0, dtype=np.int32))
            again = self._run_cpu(path, prefix, spurs[redo], sub_ptr, sub_next, limit)
            found += [(int(redo[r]), *rest) for r, *rest in again]
            found.sort(key=lambda item: item[0])
        return found

    def _run_cpu(self, path: np.ndarray, prefix: np.ndarray, spurs: np.ndarray, ban_ptr: np.ndarray,
                 ban_next: np.ndarray, limit: Any) -> list[tuple[Any, ...]]:
        nj = spurs.shape[0]
        rank = self._rank
        rank[path] = np.arange(path.shape[0], dtype=np.int32)
        try:
            parts = run_batch(lambda sc, j0, j1: (j0, K.spur_searches(  # type: ignore[call-arg]  # a Numba jitclass method: its stub is not the Python signature
                self._indptr, self._indices, self._w, self._h, self._order, rank, path, prefix, spurs, ban_ptr,
                ban_next, self.end, limit, self._lo, self.hi, *sc, j0, j1)), nj, nj * self._work * 16, self._pool)
        finally:
            rank[path] = -1
        out = []
        scanned = 0
        for j0, (verts, dists, offs, settled) in parts:
            scanned += int(settled.sum())
            for r in range(offs.shape[0] - 1):
                lo, hi = offs[r], offs[r + 1]
                if lo < hi:
                    out.append((j0 + r, verts[lo:hi], dists[lo:hi], dists[hi - 1].item(), int(settled[r])))
        if nj:
            degree = max(1.0, self._indices.shape[0] / max(1, self.n))
            self._work = max(64, int(scanned / nj * degree))
        return out

    def original(self, path: np.ndarray) -> np.ndarray:
        """``path`` (the searcher's ids, from the target) as the graph's ids from the source to the target (int64)."""
        return self._order[path[::-1]].astype(np.int64)


class YenSearch:
    """Yen's loop over a spur searcher: the k shortest loopless paths, computed round by round as asked for.

    Parameters
    ----------
    spurs : AStarSpurs or another searcher of the same interface
        Runs each round's spur searches (see :class:`AStarSpurs`).
    ties : {"sequence", "pushed"}
        How candidates of equal length are ordered: by their vertex sequence
        from the source (with :class:`AStarSpurs`: the first ``k`` paths in
        (length, sequence) order), or in the order they were found
        (NetworkX's order, with its searches:
        :class:`graphs.nx_backend.shortest.simple_paths.NetworkXSpurs`).
    k : int, optional
        How many paths will be asked for at most: candidates that cannot be
        among them are dropped and the searches stop earlier.  ``None``: as
        many as there are (a generator's use).

    Examples
    --------
    >>> G = Graph.from_edges([0, 0, 1, 2, 1], [1, 2, 3, 3, 2], [1.0, 2.0, 2.0, 1.0, 0.5])
    >>> Y = YenSearch(AStarSpurs(G, 0, 3))
    >>> [(float(d), p.tolist()) for d, p, _ in Y.take(5)]
    [(2.5, [0, 1, 2, 3]), (3.0, [0, 1, 3]), (3.0, [0, 2, 3])]
    """

    def __init__(self, spurs: Any, *, ties: str = "sequence", k: int | None = None) -> None:
        if ties not in TIES:
            raise GraphError(f"ties must be one of {TIES}, got {ties!r}")
        self._spurs = spurs
        self._by_sequence = ties == "sequence"
        self._k = k
        self._dtype = np.dtype(spurs.dtype)
        self._accepted = 0
        self._pending: tuple[Any, ...] | None = None  # the last accepted path, whose round has not run yet
        # The accepted paths as a trie: children[node] maps a next vertex to its node (node 0: the start).
        self._children: list[dict[int, int]] = [{}]
        self._branching: set[int] = set()  # the nodes with more than one child
        self._cands: dict[int, tuple[Any, ...]] = {}  # id -> (path, prefix sums, deviation index, settled, trie nodes)
        self._heap: list[tuple[Any, ...]] = []  # (length, tie key, id)
        self._seen: set[Any] = set()
        self._count = 0
        self._cut = None  # with k known: the length no candidate past it can be returned (None: not known yet)
        self._started = not spurs.reachable  # the target cannot be reached: nothing to find

    def take(self, m: int) -> list[tuple[Any, np.ndarray, int]]:
        """The next ``m`` paths (fewer when there are no more): ``(length, vertices s..t, settled)`` each.

        ``length`` is a NumPy scalar of the weights' dtype (float64 for hop
        counts), the vertices an int64 array of ids, ``settled`` the vertices
        settled by the search that found the path.
        """
        out = []
        for _ in range(m):
            got = self._next()
            if got is None:
                break
            out.append(got)
        return out

    def _next(self) -> tuple[Any, np.ndarray, int] | None:
        if not self._started:
            self._started = True
            path = np.array([self._spurs.start], dtype=np.int32)
            self._round(path, np.zeros(1, dtype=self._dtype), np.zeros(1, dtype=np.int32),
                        np.zeros(2, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int64))
        elif self._pending is not None:
            path, prefix, dev, nodes = self._pending
            self._pending = None
            m = path.shape[0] - 1
            if dev < m:  # Lawler: the searches before the deviation would find candidates again
                self._round(path, prefix, np.arange(dev, m, dtype=np.int32), *self._bans(path, nodes, dev), nodes)
        if not self._heap:
            return None
        _, _, cid = heapq.heappop(self._heap)
        path, prefix, dev, settled, root_nodes = self._cands.pop(cid)
        self._accepted += 1
        nodes = root_nodes[:dev + 1].tolist()  # the root is in the trie already: insert the rest
        node = nodes[-1]
        children = self._children
        for v in path[dev + 1:].tolist():
            kids = children[node]
            nxt = kids.get(v)
            if nxt is None:
                nxt = kids[v] = len(children)
                children.append({})
                if len(kids) == 2:
                    self._branching.add(node)
            node = nxt
            nodes.append(node)
        nodes = np.array(nodes, dtype=np.int64)
        self._pending = (path, prefix, dev, nodes)
        return self._dtype.type(prefix[-1]), self._spurs.original(path), settled

    def _bans(self, path: np.ndarray, nodes: np.ndarray, dev: int) -> tuple[np.ndarray, np.ndarray]:
        """``(ban_ptr, ban_next)`` of the spur indices ``dev .. m - 1``: the next vertices of the accepted paths
        through each root (the trie's children; one, the path's own next vertex, but where paths branch)."""
        m = path.shape[0] - 1
        counts = np.ones(m - dev, dtype=np.int64)
        extra: dict[int, list[Any]] = {}
        if self._branching:
            for i in np.flatnonzero(np.isin(nodes[dev:m], np.fromiter(self._branching, dtype=np.int64))).tolist():
                kids = list(self._children[int(nodes[dev + i])])
                extra[i] = kids
                counts[i] = len(kids)
        ban_ptr = np.zeros(m - dev + 1, dtype=np.int64)
        np.cumsum(counts, out=ban_ptr[1:])
        if not extra:
            return ban_ptr, np.ascontiguousarray(path[dev + 1:m + 1], dtype=np.int32)
        ban_next = np.empty(int(ban_ptr[-1]), dtype=np.int32)
        ban_next[ban_ptr[:-1]] = path[dev + 1:m + 1]
        for i, kids in extra.items():
            ban_next[ban_ptr[i]:ban_ptr[i + 1]] = kids
        return ban_ptr, ban_next

    def _round(self, path: np.ndarray, prefix: np.ndarray, spurs: np.ndarray, ban_ptr: np.ndarray,
               ban_next: np.ndarray, nodes: np.ndarray) -> None:
        """Run the spur searches ``spurs`` (indices into ``path``, whose prefixes are the trie ``nodes``) with their
        banned next vertices; push what they find."""
        limit = self._spurs.hi if self._cut is None else self._dtype.type(self._cut)
        for j, route, dists, length, settled in self._spurs.run(path, prefix, spurs, ban_ptr, ban_next, limit):
            i = int(spurs[j])
            full = np.concatenate((path[:i], route))
            self._push(full, np.concatenate((prefix[:i], dists)), i, length, settled, nodes)
        self._prune()

    def _push(self, full: np.ndarray, prefix: np.ndarray, dev: int, length: Any, settled: int, nodes: np.ndarray) -> None:
        if self._by_sequence:  # the ids from the source, big-endian: bytes compare as the sequences do
            key = tie = self._spurs.original(full).astype(">u4").tobytes()
        else:
            key = full.tobytes()
            tie = self._count
        if key in self._seen:
            return
        self._seen.add(key)
        cid = self._count
        self._count += 1
        self._cands[cid] = (full, prefix, dev, settled, nodes)  # nodes[:dev + 1]: the trie nodes of its root
        heapq.heappush(self._heap, (length, tie, cid))

    def _prune(self) -> None:
        """With ``k`` known, drop the candidates longer than the ``(k - accepted)``-th (they cannot be returned)
        and keep that length as the searches' bound."""
        if self._k is None:
            return
        need = self._k - self._accepted
        if need <= 0 or len(self._heap) < need:
            return
        lengths = [e[0] for e in self._heap]
        cut = heapq.nsmallest(need, lengths)[-1]
        self._cut = cut
        if len(self._heap) > 2 * need:
            keep = [e for e in self._heap if e[0] <= cut]
            for e in self._heap:
                if e[0] > cut:
                    del self._cands[e[2]]
            heapq.heapify(keep)
            self._heap = keep


def _host(G: Graph) -> Graph:
    """``G`` on the CPU, else its host copy (built once and kept on ``G``)."""
    if G.device == "cpu":
        return G
    if "host_copy" not in G._cache:
        G._cache["host_copy"] = G.to("cpu")
    return G._cache["host_copy"]


def k_shortest_paths(G: Any, source: Any, target: Any, k: int, *, weighted: bool = True,
                     device: str = "auto") -> list[ShortestPath]:
    """The ``k`` shortest loopless paths from ``source`` to ``target``, shortest first (Yen's algorithm).

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Directed or undirected; parallel arcs count as one (the lightest),
        self loops are never on a loopless path.
    source, target : int or label
        0-based vertex ids, or labels of a labelled graph (paths are then
        returned as labels, as :func:`graphs.shortest_path` does).
    k : int
        How many paths, at least 1.
    weighted : bool
        ``False``: count hops, whatever the weights.  An unweighted graph
        counts hops in any case.
    device : {"auto", "cpu", "gpu"}
        Where each round's spur searches run: ``"auto"`` where the graph
        lives.  On the GPU a round is one launch (a warp per search,
        :mod:`graphs.cuda.spur_search`); the candidates, their heap and the
        potentials stay on the host, and the results are host values either
        way, equal to the CPU's.  Integer weights whose longest possible path
        reaches ``2**53`` are searched on the CPU whatever ``device`` says
        (the GPU sums in float64).

    Returns
    -------
    list of ShortestPath
        At most ``k`` (fewer when fewer simple paths exist; empty when
        ``target`` cannot be reached), shortest first; each ``.distance`` in
        the weights' dtype (float64 hop counts), ``.path`` the vertices
        ``[source, ..., target]``, ``.method`` ``"yen"``, ``.settled`` the
        vertices settled by the search that found it.  ``source == target``
        gives the one path ``[source]`` of length 0.

    Ties
        Paths of equal length come in lexicographic order of their vertex ids:
        the result is exactly the first ``k`` simple paths in the order
        (length, vertex sequence) when every arc weighs more than zero.  With
        zero-weight arcs the result is still deterministic, but ties may not
        come lexicographically (see :mod:`graphs.paths.k_shortest`).
        Integer lengths are exact; a path whose length would reach the
        dtype's maximum (the library's infinity) is not found.

    Raises
    ------
    TypeError
        ``k`` or ``weighted`` of the wrong type.
    GraphError
        ``k < 1``; a negative weight (Yen's searches need non-negative
        weights: the message names the arc).
    VertexError
        ``source`` or ``target`` is not a vertex (or label).

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 0, 1, 2, 1], [1, 2, 3, 3, 2], [1.0, 2.0, 2.0, 1.0, 0.5])
    >>> for p in k_shortest_paths(G, 0, 3, 3):
    ...     print(p.distance, p.path)
    2.5 [0, 1, 2, 3]
    3.0 [0, 1, 3]
    3.0 [0, 2, 3]
    >>> [p.path for p in k_shortest_paths(G, 0, 3, 2, weighted=False)]
    [[0, 1, 3], [0, 2, 3]]
    """
    k = _check_k(k)
    if not isinstance(weighted, (bool, np.bool_)):
        raise TypeError(f"weighted must be a bool, got {weighted!r} ({type(weighted).__name__})")
    P = prepare(G, device, facts=True)
    G = P.graph
    s = check_vertex(G, source, "source")
    t = check_vertex(G, target, "target")
    H = _host(G)
    if not weighted or H.weights is None:
        H = _unweighted_view(H)
    elif P.facts.negative_at >= 0:  # type: ignore[union-attr]  # weighted graph: facts were read
        e = P.facts.negative_at  # type: ignore[union-attr]  # weighted graph: facts were read
        tails, heads, w = H.edges()
        raise GraphError(f"weights must be non-negative for k shortest paths (Yen): weights[{e}] = {w[e].item()!r} "  # type: ignore[index]  # weighted graph: w is not None
                         f"on the arc {int(tails[e])} -> {int(heads[e])}")
    labels = G.node_labels
    found = YenSearch(AStarSpurs(H, s, t, device=P.device), k=k).take(k)
    out = []
    for length, path, settled in found:
        route = path.tolist() if labels is None else [labels[v] for v in path.tolist()]
        out.append(ShortestPath(length, route, "yen", settled))
    return out
