"""Seeded graph generators: Erdos-Renyi, R-MAT (Graph500), SSCA#2, 2-D grids, road-like, DAGs.

Every generator takes ``seed`` and gives the same graph for the same arguments
on the same device (the GPU streams differ from the CPU ones, so a seed gives
a different, equally random, graph on each device).  Weights are uniform
integers in ``weights = (low, high)`` (inclusive; 1..100 by default, like the
Graph500 and DIMACS seeds) stored as ``dtype`` (float64 by default);
``weights=None`` gives an unweighted graph.

References
----------
* P. Erdos & A. Renyi, "On random graphs I", Publ. Math. Debrecen 6 (1959).
* D. Chakrabarti, Y. Zhan & C. Faloutsos, "R-MAT: a recursive model for graph
  mining", SDM 2004; Graph500 specification 3.0, Sec. 3 (a = 0.57, b = c = 0.19,
  edge factor 16, vertex labels permuted).
* D. A. Bader & K. Madduri, "Design and implementation of the HPCS graph analysis
  benchmark on symmetric multiprocessors" (SSCA#2), HiPC 2005.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring.backend import gpu_available
from semiring.errors import DeviceError, DTypeError

from .csr_arrays import build_csr
from .errors import GraphError
from .graph import WEIGHT_DTYPES, Graph
from .validate import INDEX_LIMIT, check_size, check_weights

if TYPE_CHECKING:
    from semiring.array_types import Array, DTypeLike, Where

__all__ = ["erdos_renyi", "rmat", "kronecker", "ssca2", "grid_2d", "road_network", "random_dag"]

_CHUNK = 1 << 22


class _Rng:
    """One random API over NumPy's Generator (CPU) and CuPy's RandomState (GPU)."""

    def __init__(self, seed: int, device: str) -> None:
        if device not in ("cpu", "gpu"):
            raise DeviceError(f"device must be 'cpu' or 'gpu', got {device!r}")
        self.device = device
        if device == "gpu":

            if not gpu_available():
                raise DeviceError("device='gpu' was requested but no CUDA GPU is usable")
            import cupy as cp

            self.xp = cp
            self.r = cp.random.RandomState(seed)
        else:
            self.xp = np
            self.r = np.random.default_rng(seed)
        #: ``integers(low, high, size)``: uniform int64 integers in ``[low, high)``.
        self.integers = functools.partial(self.r.randint if device == "gpu" else self.r.integers, dtype=np.int64)

    def random(self, size: int) -> Array:
        if self.device == "gpu":
            return self.r.random_sample(size, dtype=np.float32)
        return self.r.random(size, dtype=np.float32)

    def permutation(self, n: int) -> Array:
        return self.r.permutation(n)


def _make_weights(rng: _Rng, m: int, weights: tuple[int, int] | None, dtype: DTypeLike) -> Array | None:
    if weights is None:
        return None
    dtype = np.dtype(dtype)
    if dtype not in WEIGHT_DTYPES:

        raise DTypeError(f"dtype={dtype} is not a weight dtype ({', '.join(map(str, WEIGHT_DTYPES))})")
    try:
        low, high = map(int, weights)
    except (TypeError, ValueError):
        raise GraphError(f"weights must be None or a pair (low, high) of integers, got {weights!r}") from None
    if low > high:
        raise GraphError(f"weights=(low, high) needs low <= high, got {weights!r}")
    w = rng.integers(low, high + 1, m).astype(dtype)
    if dtype.kind == "i" and (low <= np.iinfo(dtype).min or high >= np.iinfo(dtype).max):
        check_weights("weights", w, m)  # a range that reaches (or wraps onto) the dtype's sentinels
    return w


def _check_counts(lo: int = 0, /, **counts: Any) -> list[int]:
    """The generator's count arguments (``name=value``) as ints, each a whole number ``>= lo``."""
    out = []
    for name, v in counts.items():
        if int(v) != v or v < lo:
            raise GraphError(f"{name} must be an integer >= {lo}, got {v!r}")
        out.append(int(v))
    return out


def _graph(n: int, src: Array, dst: Array, w: Array | None, directed: bool, coords: Array | None = None) -> Graph:
    """The generated arcs (valid by construction) as a Graph through the trusted constructor.

    Only the size is checked (:func:`graphs.validate.check_size`: the vertex
    limit and the memory the CSR needs); ``directed=False`` stores each edge
    both ways, as :meth:`Graph.from_edges` does.
    """
    check_size("n", n, src.shape[0] if directed else 2 * src.shape[0], 0 if w is None else 8)
    indptr, indices, w = build_csr(n, src, dst, w, both_ways=not directed)
    return Graph(indptr, indices, w, directed=directed, coords=coords, check=False)


def erdos_renyi(
    n: int,
    m: int,
    seed: int = 0,
    *,
    directed: bool = True,
    weights: tuple[int, int] | None = (1, 100),
    dtype: DTypeLike = np.float64,
    device: Where = "cpu",
) -> Graph:
    """Uniform random graph G(n, m): ``m`` distinct arcs (edges if undirected), no self loops.

    Parameters
    ----------
    n, m : int
        Vertices and arcs; ``m`` at most ``n (n - 1)`` (half that if undirected).
    seed : int
    directed : bool
    weights : (int, int) or None
        Inclusive range of the uniform integer weights; ``None`` for unweighted.
    dtype : dtype
        Weight dtype.
    device : {"cpu", "gpu"}

    Returns
    -------
    Graph

    Raises
    ------
    GraphError
        ``m`` exceeds the number of possible arcs.

    Examples
    --------
    >>> G = erdos_renyi(10, 20, seed=1)
    >>> G.n, G.nnz, int(G.weights.min()) >= 1
    (10, 20, True)
    """
    n, m = _check_counts(n=n, m=m)
    pairs = n * (n - 1) if directed else n * (n - 1) // 2
    if m > pairs:
        raise GraphError(f"G(n, m) with n = {n} has at most {pairs} {'arcs' if directed else 'edges'}, asked m = {m}")
    rng = _Rng(seed, device)
    xp = rng.xp
    if pairs <= 4 * m + (1 << 20):
        # Small or dense: choose codes without replacement and decode them.
        code = rng.permutation(pairs)[:m].astype(np.int64) if device == "gpu" else \
            rng.r.choice(pairs, size=m, replace=False).astype(np.int64)
        if directed:
            u = code // max(n - 1, 1)
            r = code % max(n - 1, 1)
            v = r + (r >= u)
        else:
            iu, iv = np.triu_indices(n, 1)
            iu, iv = xp.asarray(iu), xp.asarray(iv)
            u, v = iu[code], iv[code]
    else:
        # Sparse: sample pairs, drop loops and repeats, top up until m are distinct.
        have = xp.zeros(0, dtype=np.int64)
        while have.size < m:
            k = int((m - have.size) * 1.1) + 16
            u = rng.integers(0, n, k)
            v = rng.integers(0, n, k)
            ok = u != v
            u, v = u[ok], v[ok]
            if not directed:
                u, v = xp.minimum(u, v), xp.maximum(u, v)
            have = xp.unique(xp.concatenate((have, u * n + v)))
        pick = rng.permutation(have.size)[:m]
        code = have[pick]
        u, v = code // n, code % n
    w = _make_weights(rng, m, weights, dtype)
    return _graph(n, u, v, w, directed)


def rmat(
    scale: int,
    edge_factor: int = 16,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    seed: int = 0,
    *,
    directed: bool = False,
    weights: tuple[int, int] | None = (1, 100),
    dtype: DTypeLike = np.float32,
    permute: bool = True,
    device: Where = "cpu",
) -> Graph:
    """R-MAT / Kronecker graph with ``2**scale`` vertices and ``edge_factor * 2**scale`` edges.

    Each edge picks one quadrant of the adjacency matrix per level with
    probabilities ``a, b, c, 1 - a - b - c`` (Graph500: 0.57, 0.19, 0.19, 0.05).
    As in Graph500 the vertex labels are permuted (``permute``), self loops and
    repeated edges are kept, and the graph is undirected by default.

    Parameters
    ----------
    scale, edge_factor : int
    a, b, c : float
    seed : int
    directed : bool
    weights : (int, int) or None
    dtype : dtype
        Weight dtype (float32 by default: R-MAT graphs are the large ones).
    permute : bool
    device : {"cpu", "gpu"}

    Returns
    -------
    Graph

    Examples
    --------
    >>> G = rmat(8, seed=2)
    >>> G.n, G.num_edges, G.directed
    (256, 4096, False)
    """
    scale, edge_factor = _check_counts(scale=scale, edge_factor=edge_factor)
    if not (a > 0 and b >= 0 and c >= 0 and a + b + c < 1):
        raise GraphError(f"R-MAT needs a > 0, b, c >= 0 and a + b + c < 1, got {a}, {b}, {c}")
    if scale > 30:
        raise GraphError(f"scale {scale} exceeds the int32 vertex limit (scale <= 30)")
    rng = _Rng(seed, device)
    xp = rng.xp
    n = 1 << scale
    m = edge_factor * n
    src = xp.empty(m, dtype=np.int32)
    dst = xp.empty(m, dtype=np.int32)
    ab, abc = np.float32(a + b), np.float32(a + b + c)
    fa = np.float32(a)
    for lo in range(0, m, _CHUNK):
        k = min(_CHUNK, m - lo)
        u = xp.zeros(k, dtype=np.int32)
        v = xp.zeros(k, dtype=np.int32)
        for _ in range(scale):
            r = rng.random(k)
            down = r >= ab
            right = ((r >= fa) & (r < ab)) | (r >= abc)
            u = (u << 1) | down.astype(np.int32)
            v = (v << 1) | right.astype(np.int32)
        src[lo:lo + k] = u
        dst[lo:lo + k] = v
    if permute:
        perm = rng.permutation(n).astype(np.int32)
        src, dst = perm[src], perm[dst]
    w = _make_weights(rng, m, weights, dtype)
    return _graph(n, src, dst, w, directed)


def kronecker(scale: int, edge_factor: int = 16, seed: int = 0, **kwargs: Any) -> Graph:
    """Graph500's Kronecker generator: :func:`rmat` with a = 0.57, b = c = 0.19.

    >>> kronecker(6, seed=0).n
    64
    """
    return rmat(scale, edge_factor, 0.57, 0.19, 0.19, seed, **kwargs)


def ssca2(
    scale: int,
    max_clique_size: int | None = None,
    seed: int = 0,
    *,
    p_inter: float = 0.5,
    weights: tuple[int, int] | None = (1, 100),
    dtype: DTypeLike = np.float64,
    device: Where = "cpu",
) -> Graph:
    """SSCA#2 graph: random-sized cliques joined by sparse inter-clique arcs (directed).

    ``2**scale`` vertices are cut into cliques of uniform random size in
    ``1..max_clique_size`` (default ``floor(2**(scale / 3))``, as in GTgraph);
    all arcs inside a clique are present.  Vertex ``u`` in clique ``k`` gets,
    for each distance ``d = 1, 2, 4, ...``, an arc to a random vertex of clique
    ``k + d`` (mod the clique count) with probability ``p_inter``.

    Examples
    --------
    >>> G = ssca2(6, seed=0)
    >>> G.n, G.directed
    (64, True)
    """
    scale, = _check_counts(scale=scale)
    n = 1 << scale
    C = max(1, int(2 ** (scale / 3))) if max_clique_size is None else _check_counts(1, max_clique_size=max_clique_size)[0]
    rng = _Rng(seed, "cpu")
    counts: list[int] = []
    total = 0
    while total < n:
        s = int(rng.integers(1, C + 1, 1)[0])
        s = min(s, n - total)
        counts.append(s)
        total += s
    sizes = np.asarray(counts, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)))
    clique = np.repeat(np.arange(sizes.size), sizes)
    # Intra-clique arcs: every ordered pair of distinct members.
    su, sv = [], []
    for s in np.unique(sizes):
        ks = np.flatnonzero(sizes == s)
        if s < 2:
            continue
        iu, iv = np.nonzero(~np.eye(s, dtype=bool))
        base = starts[ks][:, None]
        su.append((base + iu[None, :]).ravel())
        sv.append((base + iv[None, :]).ravel())
    nc = sizes.size
    d = 1
    while d < nc:
        take = rng.random(n) < p_inter
        u = np.flatnonzero(take)
        tgt = (clique[u] + d) % nc
        off = (rng.random(u.size) * sizes[tgt]).astype(np.int64)
        su.append(u)
        sv.append(starts[tgt] + np.minimum(off, sizes[tgt] - 1))
        d *= 2
    src = np.concatenate(su) if su else np.zeros(0, np.int64)
    dst = np.concatenate(sv) if sv else np.zeros(0, np.int64)
    w = _make_weights(rng, src.size, weights, dtype)
    G = _graph(n, src, dst, w, True)
    return G if device == "cpu" else G.to(device)


def grid_2d(
    rows: int,
    cols: int | None = None,
    seed: int = 0,
    *,
    weights: tuple[int, int] | None = (1, 100),
    dtype: DTypeLike = np.float64,
    device: Where = "cpu",
) -> Graph:
    """Undirected ``rows x cols`` 4-neighbour grid; vertex ``(i, j)`` is ``i * cols + j``.

    Coordinates are ``(j, i)``.  The diameter is ``rows + cols - 2``.

    Examples
    --------
    >>> G = grid_2d(2, 3, weights=None)
    >>> G.n, G.num_edges, G.coords[4].tolist()
    (6, 7, [1.0, 1.0])
    """
    rows, cols = _check_counts(rows=rows, cols=rows if cols is None else cols)
    n = rows * cols
    if n > INDEX_LIMIT:
        raise GraphError(f"rows * cols = {n} vertices exceeds the limit of {INDEX_LIMIT} (2**31 - 1) vertices: "
                         "a graph stores its column indices as int32")
    rng = _Rng(seed, device)
    xp = rng.xp
    right = rows * max(cols - 1, 0)  # edges (i, j) - (i, j + 1) are 0 .. right - 1, then (i, j) - (i + 1, j)
    w = _make_weights(rng, right + max(rows - 1, 0) * cols, weights, dtype)
    # The CSR, rows sorted by head: up, left, right, down (the arcs of edge e both weigh w[e]).
    i = xp.arange(rows, dtype=np.int64)[:, None, None]
    j = xp.arange(cols, dtype=np.int64)[None, :, None]
    v = i * cols + j
    k = xp.arange(4)[None, None, :]  # 0 up, 1 left, 2 right, 3 down
    ok = ((k == 0) & (i > 0)) | ((k == 1) & (j > 0)) | ((k == 2) & (j < cols - 1)) | ((k == 3) & (i < rows - 1))
    step = xp.asarray(np.array([-cols, -1, 1, cols]))[None, None, :]
    down = right + v - cols * (k == 0)  # the edge below vertex v - cols (up) or below v (down)
    across = i * (cols - 1) + j - (k == 1)  # the edge right of v - 1 (left) or of v (right)
    edge = xp.where((k == 0) | (k == 3), down, across)
    indices = (v + step)[ok]
    indptr = xp.zeros(n + 1, dtype=np.int64)
    xp.cumsum(ok.sum(axis=2).ravel(), out=indptr[1:])
    jj, ii = xp.meshgrid(xp.arange(cols, dtype=np.float64), xp.arange(rows, dtype=np.float64))
    coords = xp.stack((jj.ravel(), ii.ravel()), axis=1)
    return Graph(indptr, indices, None if w is None else w[edge[ok]], directed=False, coords=coords, check=False)


def road_network(
    n: int = 3000,
    seed: int = 0,
    *,
    extent: float = 10_000.0,
    keep: float = 0.3,
    dtype: DTypeLike = np.float64,
    device: Where = "cpu",
) -> Graph:
    """Road-like graph: random junctions in a square, planar streets, lengths as weights.

    ``n`` points uniform in ``[0, extent]^2`` (metres); streets are the edges of
    the Euclidean minimum spanning tree of their Delaunay triangulation (so the
    graph is connected) plus a random ``keep`` fraction of the other Delaunay
    edges, giving the sparse (average degree about 3), planar, large-diameter
    structure of road networks.  Every street is an arc in both directions
    (stored as a directed graph, like DIMACS road files) weighing its length
    rounded up to whole metres.  ``coords`` holds the points.

    Parameters
    ----------
    n : int
        Junctions (at least 1).
    seed : int
    extent : float
        Side of the square, in metres.
    keep : float
        Fraction of non-tree Delaunay edges kept.
    dtype : dtype
        Weight dtype (integer-valued in any case).
    device : {"cpu", "gpu"}
        Built on the CPU, then moved.

    Returns
    -------
    Graph
        Directed, symmetric, connected, with ``coords``.

    Examples
    --------
    >>> G = road_network(200, seed=3)
    >>> from scipy.sparse.csgraph import connected_components
    >>> G.n, connected_components(G.to_scipy())[0], 2.0 < G.nnz / G.n < 5.0
    (200, 1, True)
    """
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import minimum_spanning_tree
    from scipy.spatial import Delaunay

    n, = _check_counts(1, n=n)
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 2)) * extent
    if n < 4:
        iu, iv = np.triu_indices(n, 1)
        eu, ev = iu, iv
    else:
        tri = Delaunay(pts)
        s = tri.simplices
        e = np.concatenate((s[:, [0, 1]], s[:, [1, 2]], s[:, [0, 2]]))
        e = np.unique(np.sort(e, axis=1), axis=0)
        eu, ev = e[:, 0], e[:, 1]
    length = np.maximum(1.0, np.ceil(np.hypot(*(pts[eu] - pts[ev]).T)))
    if eu.size:
        mst = minimum_spanning_tree(coo_array((length, (eu, ev)), shape=(n, n))).tocoo()
        in_tree = np.zeros(eu.size, dtype=bool)
        code = eu.astype(np.int64) * n + ev
        tree_code = np.minimum(mst.row, mst.col).astype(np.int64) * n + np.maximum(mst.row, mst.col)
        in_tree[np.isin(code, tree_code)] = True
        chosen = in_tree | (rng.random(eu.size) < keep)
        eu, ev, length = eu[chosen], ev[chosen], length[chosen]
    w = length.astype(np.dtype(dtype))
    src = np.concatenate((eu, ev))
    dst = np.concatenate((ev, eu))
    w = check_weights("weights", np.concatenate((w, w)), src.shape[0])  # lengths in ``dtype``: any dtype, any extent
    G = _graph(n, src, dst, w, True, pts)
    return G if device == "cpu" else G.to(device)


def random_dag(
    n: int,
    m: int,
    seed: int = 0,
    *,
    weights: tuple[int, int] | None = (1, 100),
    dtype: DTypeLike = np.float64,
    device: Where = "cpu",
) -> Graph:
    """Random directed acyclic graph: G(n, m) edges oriented along a random vertex order.

    Examples
    --------
    >>> from scipy.sparse.csgraph import connected_components
    >>> G = random_dag(30, 60, seed=4)
    >>> connected_components(G.to_scipy(), connection="strong")[0]
    30
    """
    U = erdos_renyi(n, m, seed, directed=False, weights=None)
    src, dst, _ = U.edges()
    keep = src < dst
    src, dst = src[keep], dst[keep]
    rng = _Rng(seed + 1, "cpu")
    order = rng.permutation(n)
    w = _make_weights(rng, src.size, weights, dtype)
    G = _graph(n, order[src], order[dst], w, True)
    return G if device == "cpu" else G.to(device)
