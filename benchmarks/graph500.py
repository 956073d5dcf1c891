"""Graph500 benchmark: BFS (kernel 2) and SSSP (kernel 3) on a Kronecker graph, every search validated.

CPU (default)::

    PYTHONPATH=. python3 benchmarks/graph500.py --scale 20 --roots 64 --kernels bfs,sssp --peers

GPU::

    PYTHONPATH=. python3 benchmarks/graph500.py --device gpu --scale 22

Follows the Graph500 specification (https://graph500.org/?page_id=12, v2.0,
"Search" and "Shortest Path") and its reference code (``graph500/graph500``:
``src/main.c``, ``src/validate.c``, ``octave/*.m``):

* Edge list: ``2**scale * edgefactor`` tuples of the Kronecker generator with
  A = 0.57, B = C = 0.19 (:func:`graphs.generators.rmat`, which permutes the
  vertex labels and keeps self-loops and repeated edges), read back from its
  CSR one tuple per undirected edge, put in random order, and (for SSSP)
  given weights uniform in [0, 1) (float32, as the reference code's).
* Kernel 1 (timed once, ``construction_time``): the undirected graph from the
  tuple list (:meth:`graphs.Graph.from_edges`); on the GPU it is built on the
  host and moved to the device once.
* Search keys: ``--roots`` (64) vertices sampled without replacement among
  those of degree >= 1 not counting self-loops (seeded).
* Kernel 2 / kernel 3: :func:`graphs.bfs` / :func:`graphs.sssp` from each key
  in two separate loops, after one untimed warm-up search (as the reference
  ``main.c``); the time of a search includes writing the Graph500 parent
  array (parent of the root = the root).  CPU: wall clock; GPU: CUDA events.
* Validation of every search (untimed): :func:`validate_bfs` and
  :func:`validate_sssp`, the rules of the specification's section 8 checked
  against every input tuple, vectorised.
* ``nedge`` of a search: the input tuples inside the root's component, each
  counted once (repeated tuples each time, a self-loop once): the
  specification's "self-loop tuples plus half the non-self-loop tuples" of the
  component as the reference code stores them (each non-loop tuple both ways),
  the Octave driver's ``sum(degree(reached)) / 2``.  The C reference's
  ``validate.c`` leaves self-loops out; ``nedge_no_loops`` records that count.
* Statistics as ``main.c``'s ``get_statistics``: quartiles of the times and of
  ``nedge``; TEPS quartiles from those of seconds per edge; harmonic mean
  TEPS ``1 / mean(time / nedge)`` and Norris' harmonic standard deviation.

``--peers`` (CPU): SciPy's ``breadth_first_order`` / ``dijkstra(indices=root)``
on the same graph as a CSR matrix (parallel edges combined by minimum) from the
same keys, timed in the same loop, order alternating from key to key, their
reached sets (and distances, to float32 rounding) checked against ours.

Results: ``benchmarks/results/graph500-cpu.{json,md}`` or
``graph500-gpu-<gpu>.{json,md}`` (and $OUT if set).  ``--quick``: scale 14,
8 keys, results under ``results/quick/``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import machine, markdown_table, set_quick, write_results  # noqa: E402

import graphs  # noqa: E402
from graphs import Graph  # noqa: E402
from graphs import generators as gen  # noqa: E402

#: Graph500's Kronecker initiator.
A, B, C = 0.57, 0.19, 0.19
STAT_NAMES = ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")


class ValidationError(ValueError):
    """A BFS or SSSP result breaks one of the Graph500 validation rules (the message names it)."""


@dataclass(frozen=True, eq=False)
class EdgeList:
    """Graph500 input tuples: undirected edges ``(src[e], dst[e])`` of ``n`` vertices, weights ``w`` or None.

    Self-loops and repeated tuples are kept, as the generator makes them.

    Examples
    --------
    >>> E = EdgeList(3, np.array([0, 1, 2]), np.array([1, 2, 2]), None)
    >>> E.m, E.num_self_loops, E.degree().tolist()
    (3, 1, [1, 2, 1])
    """

    n: int
    src: np.ndarray
    dst: np.ndarray
    w: np.ndarray | None

    def __post_init__(self) -> None:
        if self.src.shape != self.dst.shape or self.src.ndim != 1:
            raise ValueError(f"src and dst must be 1-D of one length, got {self.src.shape} and {self.dst.shape}")
        if self.w is not None and self.w.shape != self.src.shape:
            raise ValueError(f"w must have one weight per tuple ({self.src.shape}), got {self.w.shape}")

    @property
    def m(self) -> int:
        """Number of tuples."""
        return int(self.src.shape[0])

    @cached_property
    def _loops(self) -> np.ndarray:
        return self.src == self.dst

    @property
    def num_self_loops(self) -> int:
        """Number of self-loop tuples."""
        return int(self._loops.sum())

    @cached_property
    def loop_vertices(self) -> np.ndarray:
        """The vertex of each self-loop tuple."""
        return self.src[self._loops]

    @cached_property
    def proper(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The non-self-loop tuples ``(u int32, v int32, w float64 or None)``, what validation checks."""
        keep = ~self._loops
        w = None if self.w is None else self.w[keep].astype(np.float64)
        return self.src[keep].astype(np.int32), self.dst[keep].astype(np.int32), w

    def degree(self) -> np.ndarray:
        """Degree of each vertex not counting self-loops."""
        u, v, _ = self.proper
        return np.bincount(u, minlength=self.n) + np.bincount(v, minlength=self.n)


def kronecker_edges(scale: int, edge_factor: int = 16, seed: int = 0, weighted: bool = True) -> EdgeList:
    """The Graph500 tuple list: Kronecker (A, B, C = 0.57, 0.19, 0.19), labels permuted, tuples shuffled.

    ``weighted``: weights uniform in [0, 1) (float32), for kernel 3.

    Examples
    --------
    >>> E = kronecker_edges(6, seed=1)
    >>> E.n, E.m, E.w.dtype.name, bool((E.w >= 0).all() and (E.w < 1).all())
    (64, 1024, 'float32', True)
    """
    G = gen.rmat(scale, edge_factor, A, B, C, seed, directed=False, weights=None, permute=True)
    src, dst, _ = G.edges()
    once = src <= dst  # an undirected Graph stores each tuple both ways, a self-loop once
    src, dst = src[once], dst[once]
    if src.shape[0] != edge_factor << scale:
        raise AssertionError(f"expected {edge_factor << scale} tuples from the generator, read back {src.shape[0]}")
    rng = np.random.default_rng([seed, 500])
    order = rng.permutation(src.shape[0])
    flip = rng.random(src.shape[0]) < 0.5  # no orientation left from the CSR either
    s, d = src[order], dst[order]
    s, d = np.where(flip, d, s), np.where(flip, s, d)
    w = rng.random(s.shape[0], dtype=np.float32) if weighted else None
    return EdgeList(G.n, s, d, w)


def build_graph(E: EdgeList, weighted: bool) -> Graph:
    """Kernel 1: the undirected graph of the tuples (weights if ``weighted``), on the CPU.

    >>> build_graph(EdgeList(2, np.array([0]), np.array([1]), None), weighted=False).num_edges
    1
    """
    return Graph.from_edges(E.src, E.dst, E.w if weighted else None, n=E.n, directed=False)


def search_keys(E: EdgeList, k: int, seed: int = 2) -> np.ndarray:
    """``k`` distinct random vertices of degree >= 1 not counting self-loops (fewer if there are fewer).

    >>> search_keys(EdgeList(4, np.array([0, 3]), np.array([1, 3]), None), 5).tolist()
    [1, 0]
    """
    cand = np.flatnonzero(E.degree() > 0)
    rng = np.random.default_rng(seed)
    return rng.choice(cand, size=min(k, cand.shape[0]), replace=False)


# -- validation ----------------------------------------------------------------------------
def _check_parent(parent: np.ndarray, n: int, root: int) -> np.ndarray:
    parent = np.asarray(parent)
    if parent.shape != (n,):
        raise ValidationError(f"parent must have shape ({n},), got {parent.shape}")
    if parent.dtype.kind not in "iu":
        raise TypeError(f"parent must be an integer array, got {parent.dtype}")
    parent = parent.astype(np.int64)
    bad = np.flatnonzero((parent < -1) | (parent >= n))
    if bad.size:
        raise ValidationError(f"parent[{bad[0]}] = {parent[bad[0]]} is neither -1 nor a vertex")
    if parent[root] != root:
        raise ValidationError(f"the root {root} must be its own parent, got parent[{root}] = {parent[root]}")
    return parent


def tree_depth(parent: np.ndarray, root: int) -> np.ndarray:
    """Hops from each vertex up its parent chain to ``root`` (-1 where ``parent`` is -1), by pointer jumping.

    Raises :class:`ValidationError` where a reached vertex's parent is unreached,
    or a parent chain never reaches the root (a cycle).

    >>> tree_depth(np.array([0, 0, 1, -1]), 0).tolist()
    [0, 1, 2, -1]
    """
    n = parent.shape[0]
    reached = parent >= 0
    orphan = np.flatnonzero(reached & ~reached[np.where(reached, parent, 0)])
    if orphan.size:
        v = orphan[0]
        raise ValidationError(f"vertex {v} has parent {parent[v]}, which is not in the tree (its parent is -1)")
    anc = np.where(reached, parent, np.arange(n))
    depth = (reached & (np.arange(n) != root)).astype(np.int64)
    for _ in range(n.bit_length() + 1):
        nxt = anc[anc]
        if np.array_equal(nxt, anc):
            break
        depth, anc = depth + depth[anc], nxt
    loop = np.flatnonzero(reached & (anc != root))
    if loop.size:
        raise ValidationError(f"the parent chain of vertex {loop[0]} never reaches the root {root}: "
                              "the parent array has a cycle")
    depth[~reached] = -1
    return depth


def _confirmed(n: int, root: int, parent: np.ndarray, u: np.ndarray, v: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Vertices ``x`` with an input tuple ``(parent[x], x)`` among those where ``ok`` holds (the root too)."""
    seen = np.zeros(n, dtype=bool)
    seen[root] = True
    seen[v[ok & (parent[v] == u)]] = True
    seen[u[ok & (parent[u] == v)]] = True
    return seen


def _component_nedge(E: EdgeList, reached: np.ndarray, both: np.ndarray) -> tuple[int, int]:
    no_loops = int(both.sum())
    return no_loops + int(reached[E.loop_vertices].sum()), no_loops


def _spanning(E: EdgeList, reached: np.ndarray) -> np.ndarray:
    u, v, _ = E.proper
    ru, rv = reached[u], reached[v]
    split = np.flatnonzero(ru != rv)
    if split.size:
        e = split[0]
        raise ValidationError(f"input edge ({u[e]}, {v[e]}) joins a vertex in the tree and one outside it: "
                              "the tree does not span the root's component")
    return ru


def validate_bfs(E: EdgeList, root: int, parent: np.ndarray, levels: np.ndarray | None = None) -> tuple[int, int]:
    """Check a BFS parent array (kernel 2) against every input tuple; return ``(nedge, nedge_no_loops)``.

    The rules of the Graph500 specification: the root is its own parent, the
    parent array is a tree (every reached vertex's chain reaches the root, no
    cycles), each tree edge ``(parent[v], v)`` is an input edge, the levels
    (depths in the tree) of an input edge's ends differ by at most one, and an
    input edge has both ends in the tree or neither (so the tree spans the
    root's component).  Tree levels differ by exactly one along tree edges by
    construction; ``levels`` (the search's own, -1 where unreached) must equal
    them.

    Parameters
    ----------
    E : EdgeList
    root : int
    parent : int array (n,)
        Graph500 form: ``parent[root] == root``, -1 outside the tree.
    levels : int array (n,), optional

    Returns
    -------
    nedge : int
        Input tuples within the root's component (a self-loop counted once).
    nedge_no_loops : int
        The same without self-loops (the C reference's count).

    Raises
    ------
    ValidationError
        The first rule broken, with a vertex or edge that breaks it.
    TypeError
        ``parent`` is not an integer array.

    Examples
    --------
    >>> E = EdgeList(4, np.array([0, 1, 0, 2]), np.array([1, 2, 2, 2]), None)
    >>> validate_bfs(E, 0, np.array([0, 0, 0, -1]))
    (4, 3)
    >>> try:
    ...     validate_bfs(E, 0, np.array([0, 0, 1, -1]))
    ... except ValidationError as e:
    ...     print(e)
    input edge (0, 2) joins vertices at levels 0 and 2
    """
    parent = _check_parent(parent, E.n, root)
    depth = tree_depth(parent, root)
    if levels is not None:
        levels = np.asarray(levels)
        if levels.shape != (E.n,):
            raise ValidationError(f"levels must have shape ({E.n},), got {levels.shape}")
        off = np.flatnonzero(levels != depth)
        if off.size:
            v = off[0]
            raise ValidationError(f"levels[{v}] = {levels[v]}, but vertex {v} is {depth[v]} tree edges from the root "
                                  "(levels must grow by exactly one along tree edges)")
    reached = depth >= 0
    both = _spanning(E, reached)
    u, v, _ = E.proper
    du, dv = depth[u], depth[v]
    jump = np.flatnonzero(both & (np.abs(du - dv) > 1))
    if jump.size:
        e = jump[0]
        raise ValidationError(f"input edge ({u[e]}, {v[e]}) joins vertices at levels {du[e]} and {dv[e]}")
    seen = _confirmed(E.n, root, parent, u, v, both)
    lost = np.flatnonzero(reached & ~seen)
    if lost.size:
        x = lost[0]
        raise ValidationError(f"parent[{x}] = {parent[x]}, but ({parent[x]}, {x}) is not an input edge")
    return _component_nedge(E, reached, both)


def validate_sssp(E: EdgeList, root: int, parent: np.ndarray, dist: np.ndarray,
                  rtol: float | None = None) -> tuple[int, int]:
    """Check an SSSP result (kernel 3) against every weighted input tuple; return ``(nedge, nedge_no_loops)``.

    The rules of the Graph500 specification (as ``validate.c`` applies them):
    the root is its own parent at distance 0; a vertex is outside the tree
    (parent -1) exactly where its distance is infinite; reached distances are
    finite and >= 0; the parent array is a tree; each tree edge is an input
    edge ``(parent[v], v, w)`` with ``dist[v] = dist[parent[v]] + w``; every
    input edge ``(a, b, w)`` has ``|dist[a] - dist[b]| <= w`` (the triangle
    rule both ways) and both ends in the tree or neither.  Equalities and
    inequalities hold to ``rtol * (max(dist[a], dist[b]) + w)``; ``rtol``
    defaults to ``64 * eps`` of ``dist``'s dtype.

    Parameters
    ----------
    E : EdgeList
        With weights.
    root : int
    parent : int array (n,)
        Graph500 form: ``parent[root] == root``, -1 outside the tree.
    dist : float array (n,)
    rtol : float, optional

    Returns
    -------
    nedge, nedge_no_loops : int
        As :func:`validate_bfs`.

    Raises
    ------
    ValidationError
        The first rule broken, with a vertex or edge that breaks it.
    TypeError
        ``parent`` is not an integer array or ``dist`` not a float array.

    Examples
    --------
    >>> E = EdgeList(3, np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([0.5, 0.25, 1.0], np.float32))
    >>> validate_sssp(E, 0, np.array([0, 0, 1]), np.array([0.0, 0.5, 0.75]))
    (3, 3)
    >>> try:
    ...     validate_sssp(E, 0, np.array([0, 0, 0]), np.array([0.0, 0.5, 1.0]))
    ... except ValidationError as e:
    ...     print(e)
    input edge (1, 2, w=0.25) breaks the triangle rule: distances 0.5 and 1
    """
    if E.w is None:
        raise ValueError("validate_sssp needs an EdgeList with weights")
    parent = _check_parent(parent, E.n, root)
    dist = np.asarray(dist)
    if dist.shape != (E.n,):
        raise ValidationError(f"dist must have shape ({E.n},), got {dist.shape}")
    if dist.dtype.kind != "f":
        raise TypeError(f"dist must be a float array, got {dist.dtype}")
    rtol = 64 * float(np.finfo(dist.dtype).eps) if rtol is None else float(rtol)
    d = dist.astype(np.float64)
    if d[root] != 0:
        raise ValidationError(f"the root {root} must be at distance 0, got {d[root]}")
    reached = parent >= 0
    odd = np.flatnonzero(reached != np.isfinite(d))
    if odd.size:
        x = odd[0]
        raise ValidationError(f"vertex {x} has parent {parent[x]} but distance {d[x]} "
                              "(-1 exactly where the distance is infinite)")
    neg = np.flatnonzero(reached & (d < 0))
    if neg.size:
        raise ValidationError(f"vertex {neg[0]} has a negative distance {d[neg[0]]}")
    tree_depth(parent, root)  # a tree: no cycles, chains end at the root
    both = _spanning(E, reached)
    u, v, w = E.proper
    du, dv = np.where(both, d[u], 0.0), np.where(both, d[v], 0.0)
    tol = rtol * (np.maximum(du, dv) + w)
    gap = np.abs(du - dv) - w
    bad = np.flatnonzero(both & (gap > tol))
    if bad.size:
        e = bad[0]
        raise ValidationError(f"input edge ({u[e]}, {v[e]}, w={w[e]:.9g}) breaks the triangle rule: "
                              f"distances {du[e]:.9g} and {dv[e]:.9g}")
    seen = _confirmed(E.n, root, parent, u, v, both)
    lost = np.flatnonzero(reached & ~seen)
    if lost.size:
        x = lost[0]
        raise ValidationError(f"parent[{x}] = {parent[x]}, but ({parent[x]}, {x}) is not an input edge")
    tight = both & (np.abs(gap) <= tol)  # |d[a] - d[b]| == w: a tree edge may join them
    seen = _confirmed(E.n, root, parent, u, v, tight)
    lost = np.flatnonzero(reached & ~seen)
    if lost.size:
        x = lost[0]
        p = parent[x]
        raise ValidationError(f"distance {d[x]:.9g} of vertex {x} is not that of its parent {p} ({d[p]:.9g}) "
                              f"plus the weight of an input edge ({p}, {x})")
    return _component_nedge(E, reached, both)


# -- statistics ----------------------------------------------------------------------------
def get_statistics(x: list[float] | np.ndarray) -> dict[str, float]:
    """``main.c``'s ``get_statistics``: min, quartiles (mean of the two middle order statistics), max,
    mean and the sample standard deviation.

    >>> get_statistics([4.0, 1.0, 3.0, 2.0])["firstquartile"], get_statistics([1.0, 2.0, 3.0])["median"]
    (1.5, 2.0)
    """
    xx = np.sort(np.asarray(x, dtype=np.float64))
    n = xx.shape[0]
    if n < 2:
        raise ValueError(f"statistics need at least two values, got {n}")
    return {
        "min": float(xx[0]),
        "firstquartile": float((xx[(n - 1) // 4] + xx[n // 4]) * 0.5),
        "median": float((xx[(n - 1) // 2] + xx[n // 2]) * 0.5),
        "thirdquartile": float((xx[n - 1 - (n - 1) // 4] + xx[n - 1 - n // 4]) * 0.5),
        "max": float(xx[n - 1]),
        "mean": float(xx.mean()),
        "stddev": float(xx.std(ddof=1)),
    }


def kernel_statistics(times: list[float], nedges: list[int]) -> dict[str, float]:
    """The Graph500 output fields of one kernel (without its ``bfs_`` / ``sssp_`` prefix).

    TEPS quartiles come from those of seconds per edge (inverted: the first
    quartile of TEPS is the third of seconds per edge), the harmonic mean TEPS
    is ``1 / mean(time / nedge)`` and its standard deviation Norris' (1940).

    >>> s = kernel_statistics([1.0, 2.0, 4.0], [8, 8, 8])
    >>> s["harmonic_mean_TEPS"], s["max_TEPS"], s["median_nedge"]
    (3.4285714285714284, 8.0, 8.0)
    """
    out = {f"{k}_time": v for k, v in get_statistics(times).items()}
    out.update({f"{k}_nedge": v for k, v in get_statistics(nedges).items()})
    spe = get_statistics(np.asarray(times) / np.asarray(nedges, dtype=np.float64))
    out.update({"min_TEPS": 1 / spe["max"], "firstquartile_TEPS": 1 / spe["thirdquartile"],
                "median_TEPS": 1 / spe["median"], "thirdquartile_TEPS": 1 / spe["firstquartile"],
                "max_TEPS": 1 / spe["min"], "harmonic_mean_TEPS": 1 / spe["mean"],
                "harmonic_stddev_TEPS": spe["stddev"] / (spe["mean"] ** 2 * math.sqrt(len(times) - 1))})
    return out


# -- the kernels -----------------------------------------------------------------------------
def progress(msg: str) -> None:
    """One status line on a terminal; nothing when stderr is not a terminal."""
    if sys.stderr.isatty():
        print(f"\r\033[K{msg}", end="", file=sys.stderr, flush=True)


def bfs_kernel(G: Graph, root: int):
    """Kernel 2: ``(parent, levels)`` with ``parent[root] = root`` (arrays of ``G``'s device)."""
    levels, parent = graphs.bfs(G, root)
    parent[root] = root
    return parent, levels


def sssp_kernel(G: Graph, root: int, method: str = "auto"):
    """Kernel 3: ``(parent, dist)`` with ``parent[root] = root`` (arrays of ``G``'s device); ``method`` of
    :func:`graphs.sssp`."""
    dist, parent = graphs.sssp(G, root, method)
    parent[root] = root
    return parent, dist


def cpu_timer(fn: Callable[[], object]) -> tuple[float, object]:
    """Wall seconds of one call and its result."""
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def gpu_timer(fn: Callable[[], object]) -> tuple[float, object]:
    """Seconds of one call by CUDA events on the current stream (the device idle before), and its result."""
    import cupy as cp

    cp.cuda.Device().synchronize()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    out = fn()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop) / 1e3, out


def to_host(a) -> np.ndarray:
    """A NumPy copy of a NumPy or CuPy array."""
    return a.get() if hasattr(a, "get") else np.asarray(a)


def scipy_peer(kind: str, G: Graph) -> Callable[[int], tuple]:
    """SciPy's search from a root on ``G`` as a CSR matrix (built here, untimed).

    The matrix is symmetric (an undirected graph stores each edge both ways),
    so SciPy runs with ``directed=True``: the same result as ``directed=False``
    without the transpose SciPy would build inside every call.
    """
    import scipy.sparse.csgraph as csg

    A = G.to_scipy().astype(np.float64)  # parallel edges combined by minimum; float64, int32 indices
    if kind == "bfs":
        return lambda root: csg.breadth_first_order(A, root, directed=True, return_predecessors=True)
    return lambda root: csg.dijkstra(A, directed=True, indices=root, return_predecessors=True)


def check_peer(kind: str, out: tuple, parent: np.ndarray, value: np.ndarray) -> None:
    """SciPy's result ``out`` reaches the vertices our tree does (SSSP: same distances to float32 rounding)."""
    if kind == "bfs":
        order = out[0]
        if order.shape[0] != int((parent >= 0).sum()) or not (parent[order] >= 0).all():
            raise AssertionError("SciPy's breadth_first_order reached other vertices than our BFS")
    elif not np.allclose(out[0], value.astype(np.float64), rtol=1e-5, atol=1e-6):
        raise AssertionError("SciPy's dijkstra distances differ from our SSSP's beyond float32 rounding")


def run_kernel(kind: str, G: Graph, E: EdgeList, roots: np.ndarray, timer, peers: bool,
               sssp_method: str = "auto") -> dict:
    """Time kernel ``kind`` from each root (one untimed warm-up first), validate each result; peers alternated."""
    kernel = bfs_kernel if kind == "bfs" else partial(sssp_kernel, method=sssp_method)
    kernel(G, int(roots[0]))  # warm-up, as the reference main.c
    peer = scipy_peer(kind, G) if peers else None
    if peer:
        peer(int(roots[0]))
    times, nedges, loops_out, peer_times, validate_times = [], [], [], [], []
    for i, r in enumerate(roots.tolist()):
        progress(f"{kind} {i + 1}/{len(roots)}")
        if peer and i % 2:
            peer_times.append(cpu_timer(lambda r=r: peer(r)))
        t, (parent, value) = timer(lambda r=r: kernel(G, r))
        if peer and not i % 2:
            peer_times.append(cpu_timer(lambda r=r: peer(r)))
        times.append(t)
        parent, value = to_host(parent), to_host(value)
        tv = time.perf_counter()
        if kind == "bfs":
            nedge, no_loops = validate_bfs(E, r, parent, value)
        else:
            nedge, no_loops = validate_sssp(E, r, parent, value)
        validate_times.append(time.perf_counter() - tv)
        if peer:
            check_peer(kind, peer_times[-1][1], parent, value)
        nedges.append(nedge)
        loops_out.append(no_loops)
    progress("")
    out = {"roots": roots.tolist(), "times": times, "nedge": nedges, "nedge_no_loops": loops_out,
           "validated": len(roots), "validate_median_s": statistics.median(validate_times),
           "stats": kernel_statistics(times, nedges)}
    if peer:
        ts = [t for t, _ in peer_times]
        out["scipy_times"] = ts
        out["scipy_median_s"] = statistics.median(ts)
        out["ours_median_s"] = statistics.median(times)
        out["scipy_over_ours"] = out["scipy_median_s"] / out["ours_median_s"]
    return out


def report(args, info: dict, runs: dict) -> str:
    """Markdown: the Graph500 output lines of each kernel, then a table (with SciPy where run)."""
    lines = [f"SCALE: {args.scale}", f"edgefactor: {args.edge_factor}", f"NBFS: {info['nroots']}",
             f"construction_time: {info['construction_time']:.6g}"]
    for kind, r in runs.items():
        lines += [f"{kind}_{k}: {v:.6g}" for k, v in r["stats"].items()]
    rows = []
    for kind, r in runs.items():
        s = r["stats"]
        rows.append([kind.upper(), f"{s['harmonic_mean_TEPS'] / 1e6:.1f}",
                     " / ".join(f"{s[f'{q}_TEPS'] / 1e6:.1f}" for q in STAT_NAMES[:5]),
                     f"{s['median_time'] * 1e3:.2f}",
                     f"{r['scipy_median_s'] * 1e3:.2f}" if "scipy_median_s" in r else "-",
                     f"{r['scipy_over_ours']:.2f}x" if "scipy_over_ours" in r else "-",
                     f"{r['validated']}/{len(r['roots'])}"])
    header = ["kernel", "harmonic mean MTEPS", "min / Q1 / median / Q3 / max MTEPS", "median ms / root",
              "SciPy median ms / root", "SciPy / ours", "validated"]
    m = info["machine"]
    where = info.get("gpu") or f"{m['cpu']}, {m['cores']} cores, {m['simd']}"
    return (f"# Graph500 on the {args.device.upper()} ({where})\n\n"
            f"Kronecker scale {args.scale}, edge factor {args.edge_factor} ({info['tuples']} tuples, "
            f"{info['self_loops']} self-loops), {info['nroots']} search keys, SSSP method "
            f"`{info['sssp_method']}`; every search validated "
            "against every input tuple (Graph500 specification, section 8).  "
            "TEPS = input tuples in the root's component / time.\n\n"
            + markdown_table(header, rows) + "\n```\n" + "\n".join(lines) + "\n```\n")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    p.add_argument("--scale", type=int, default=None, help="Kronecker scale (20 on the CPU, 22 on the GPU)")
    p.add_argument("--edge-factor", type=int, default=16)
    p.add_argument("--roots", type=int, default=64, help="search keys (64)")
    p.add_argument("--kernels", default="bfs,sssp", help="comma-separated: bfs, sssp")
    p.add_argument("--sssp-method", default="auto",
                   choices=("auto", "delta-stepping", "dijkstra", "label-correcting", "bellman-ford"),
                   help="method of graphs.sssp for kernel 3 (default auto)")
    p.add_argument("--peers", action="store_true", help="CPU: SciPy's BFS and Dijkstra from the same keys")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="scale 14, 8 keys, results under results/quick/")
    args = p.parse_args(argv)
    kernels = [k.strip() for k in args.kernels.split(",") if k.strip()]
    if not kernels or set(kernels) - {"bfs", "sssp"}:
        p.error(f"--kernels takes bfs and/or sssp, got {args.kernels!r}")
    if args.peers and args.device == "gpu":
        p.error("--peers runs SciPy on the CPU: use it with --device cpu")
    if args.roots < 2:
        p.error(f"--roots must be at least 2 (quartiles), got {args.roots}")
    if args.quick:
        args.scale = args.scale or 14
        args.roots = min(args.roots, 8)
    args.scale = args.scale or (22 if args.device == "gpu" else 20)
    set_quick(args.quick)

    progress(f"generating scale {args.scale}")
    t_gen, E = cpu_timer(lambda: kronecker_edges(args.scale, args.edge_factor, args.seed, weighted="sssp" in kernels))
    roots = search_keys(E, args.roots, seed=args.seed + 2)
    info = {"machine": machine(), "device": args.device, "scale": args.scale, "edgefactor": args.edge_factor,
            "sssp_method": args.sssp_method, "tuples": E.m,
            "self_loops": E.num_self_loops, "nroots": int(roots.shape[0]), "generation_s": t_gen}
    timer = cpu_timer
    if args.device == "gpu":
        import cupy as cp

        info["gpu"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        timer = gpu_timer
    runs: dict[str, dict] = {}
    construction = 0.0
    for kind in kernels:
        progress(f"kernel 1 for {kind}")
        t_build, G = cpu_timer(lambda kind=kind: build_graph(E, weighted=kind == "sssp"))
        construction += t_build
        if args.device == "gpu":
            G = G.to("gpu")  # moved once; not part of the timed searches
        runs[kind] = run_kernel(kind, G, E, roots, timer, args.peers, args.sssp_method)
        del G
    info["construction_time"] = construction
    md = report(args, info, runs)
    print(md)
    stem = "graph500-cpu" if args.device == "cpu" else "graph500-gpu-" + info["gpu"].lower().replace(" ", "-")
    write_results(stem, {**info, "command": "python3 benchmarks/graph500.py " + " ".join(argv or sys.argv[1:]),
                         "kernels": runs}, md)


if __name__ == "__main__":
    main()
