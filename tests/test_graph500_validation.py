"""The Graph500 validation of benchmarks/graph500.py: it accepts our BFS and SSSP results and rejects planted faults."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

ROOT = Path(__file__).resolve().parents[1]
# The benchmark module puts benchmarks/ on sys.path (for its script mode): put sys.path back after importing it, or
# benchmarks/distributed.py would shadow Dask's `distributed` in worker processes spawned later in this process.
_SAVED_PATH = list(sys.path)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import graphs  # noqa: E402
from benchmarks.graph500 import (  # noqa: E402
    EdgeList,
    ValidationError,
    bfs_kernel,
    build_graph,
    get_statistics,
    kernel_statistics,
    kronecker_edges,
    search_keys,
    sssp_kernel,
    tree_depth,
    validate_bfs,
    validate_sssp,
)

sys.path[:] = _SAVED_PATH

SCALE = 9


@pytest.fixture(scope="module")
def E() -> EdgeList:
    return kronecker_edges(SCALE, seed=3)


@pytest.fixture(scope="module")
def G(E):
    return build_graph(E, weighted=False)


@pytest.fixture(scope="module")
def Gw(E):
    return build_graph(E, weighted=True)


@pytest.fixture(scope="module")
def root(E) -> int:
    return int(search_keys(E, 1, seed=5)[0])


def _adjacent(E: EdgeList, a: int, b: int) -> bool:
    return bool((((E.src == a) & (E.dst == b)) | ((E.src == b) & (E.dst == a))).any())


def _leaves(parent: np.ndarray, root: int) -> np.ndarray:
    """Reached vertices other than the root that are nobody's parent."""
    reached = np.flatnonzero(parent >= 0)
    return np.setdiff1d(reached[reached != root], parent[parent >= 0])


def test_the_tuple_list_is_the_generators_graph(E, G):
    assert E.m == 16 << SCALE and E.n == 1 << SCALE
    assert E.num_self_loops > 0, "self-loops must be kept"
    key = np.minimum(E.src, E.dst).astype(np.int64) * E.n + np.maximum(E.src, E.dst)
    assert np.unique(key).shape[0] < E.m, "repeated tuples must be kept"
    R = graphs.generators.rmat(SCALE, 16, 0.57, 0.19, 0.19, 3, weights=None)
    assert np.array_equal(G.indptr, R.indptr) and np.array_equal(G.indices, R.indices)
    assert G.num_edges == E.m
    assert E.w.dtype == np.float32 and E.w.min() >= 0 and E.w.max() < 1


def test_search_keys_have_a_neighbour(E):
    keys = search_keys(E, 64, seed=1)
    assert keys.shape == (64,) and np.unique(keys).shape == (64,)
    assert (E.degree()[keys] > 0).all()
    lone = EdgeList(3, np.array([0, 2]), np.array([1, 2]), None)  # vertex 2 has only a self-loop
    assert sorted(search_keys(lone, 5).tolist()) == [0, 1]


def test_our_results_validate_and_nedge_is_the_component_tuples(E, G, Gw):
    A = sp.coo_matrix((np.ones(E.m), (E.src, E.dst)), shape=(E.n, E.n))
    _, label = connected_components(A, directed=False)
    for r in search_keys(E, 4, seed=7).tolist():
        inside = label[E.src] == label[r]
        want = (int(inside.sum()), int((inside & (E.src != E.dst)).sum()))
        parent, levels = bfs_kernel(G, r)
        assert validate_bfs(E, r, parent, levels) == want
        assert validate_bfs(E, r, parent) == want
        parent, dist = sssp_kernel(Gw, r)
        assert validate_sssp(E, r, parent, dist) == want
        nudged = dist.copy()  # one float32 rounding step is within the tolerance
        v = _leaves(parent, r)[0]
        nudged[v] = np.nextafter(nudged[v], np.float32(np.inf))
        assert validate_sssp(E, r, parent, nudged) == want


def test_tree_depth_and_cycles():
    assert tree_depth(np.array([1, 1, 0, 2, -1]), 1).tolist() == [1, 0, 2, 3, -1]
    with pytest.raises(ValidationError, match="cycle"):
        tree_depth(np.array([0, 2, 3, 1]), 0)
    with pytest.raises(ValidationError, match="cycle"):
        tree_depth(np.array([0, 1]), 0)  # a vertex that is its own parent
    with pytest.raises(ValidationError, match="not in the tree"):
        tree_depth(np.array([0, 2, -1]), 0)


# -- planted BFS faults ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bfs_result(G, root):
    parent, levels = bfs_kernel(G, root)
    return parent, levels


def test_bfs_parent_that_is_not_an_input_edge(E, root, bfs_result):
    parent, levels = (a.copy() for a in bfs_result)
    v = next(x for x in _leaves(parent, root) if levels[x] >= 2)
    w = next(x for x in np.flatnonzero(levels == levels[v] - 1) if not _adjacent(E, x, v))
    parent[v] = w  # same level as the true parent: only the edge rule is broken
    with pytest.raises(ValidationError, match=rf"parent\[{v}\] = {w}, but .* is not an input edge"):
        validate_bfs(E, root, parent, levels)


def test_bfs_level_jump_of_two(E, root, bfs_result):
    parent, levels = (a.copy() for a in bfs_result)
    leaves = _leaves(parent, root)
    v, x = next((v, x) for v in leaves for x in np.flatnonzero(levels == levels[v] + 1) if _adjacent(E, v, x))
    parent[v] = x  # an input edge, but v's tree level becomes 2 more than its old parent's neighbour
    with pytest.raises(ValidationError, match="joins vertices at levels"):
        validate_bfs(E, root, parent)
    parent, levels = (a.copy() for a in bfs_result)
    levels[leaves[0]] += 2  # the search's own levels jump by two along a tree edge
    with pytest.raises(ValidationError, match="tree edges from the root"):
        validate_bfs(E, root, parent, levels)


def test_bfs_cycle_in_the_parents(E, root, bfs_result):
    parent, levels = (a.copy() for a in bfs_result)
    v = next(x for x in _leaves(parent, root) if parent[x] != root)
    parent[parent[v]] = v  # p -> v -> p, along an input edge
    with pytest.raises(ValidationError, match="cycle"):
        validate_bfs(E, root, parent, levels)


def test_bfs_missing_reached_vertex(E, root, bfs_result):
    parent, levels = (a.copy() for a in bfs_result)
    v = _leaves(parent, root)[0]
    parent[v] = -1
    levels[v] = -1
    with pytest.raises(ValidationError, match="does not span the root's component"):
        validate_bfs(E, root, parent, levels)
    with pytest.raises(ValidationError, match="does not span"):
        validate_bfs(E, root, parent)


def test_bfs_malformed_parent_arrays(E, root, bfs_result):
    parent = bfs_result[0].copy()
    parent[root] = -1
    with pytest.raises(ValidationError, match="its own parent"):
        validate_bfs(E, root, parent)
    parent = bfs_result[0].copy()
    parent[_leaves(parent, root)[0]] = E.n
    with pytest.raises(ValidationError, match="neither -1 nor a vertex"):
        validate_bfs(E, root, parent)
    with pytest.raises(ValidationError, match="shape"):
        validate_bfs(E, root, bfs_result[0][:-1])
    with pytest.raises(TypeError, match="integer"):
        validate_bfs(E, root, bfs_result[0].astype(np.float64))


# -- planted SSSP faults -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def sssp_result(Gw, root):
    return sssp_kernel(Gw, root)


def test_sssp_distance_off_by_more_than_the_tolerance(E, root, sssp_result):
    parent, dist = sssp_result
    v = _leaves(parent, root)[0]
    low = dist.copy()
    low[v] -= np.float32(1e-3)
    with pytest.raises(ValidationError, match=f"distance .* of vertex {v} is not that of its parent"):
        validate_sssp(E, root, parent, low)
    high = dist.copy()
    high[v] += np.float32(1e-3)
    with pytest.raises(ValidationError):
        validate_sssp(E, root, parent, high)
    zero = dist.copy()
    zero[root] = np.float32(1e-3)
    with pytest.raises(ValidationError, match="distance 0"):
        validate_sssp(E, root, parent, zero)


def test_sssp_triangle_inequality_violated(E, root, sssp_result):
    """Shortest paths of the graph without one useful edge: a consistent tree, but not a shortest one."""
    parent, dist = sssp_result
    for v in _leaves(parent, root)[:50]:
        p = parent[v]
        keep = ~(((E.src == p) & (E.dst == v)) | ((E.src == v) & (E.dst == p)))
        H = EdgeList(E.n, E.src[keep], E.dst[keep], E.w[keep])
        p2, d2 = sssp_kernel(build_graph(H, weighted=True), root)
        if dist[v] + 1e-3 < d2[v] < np.inf:  # still reached, by a longer path
            break
    else:
        raise AssertionError("no leaf whose tree edge is needed")
    assert validate_sssp(H, root, p2, d2)  # right for the graph it ran on
    with pytest.raises(ValidationError, match=r"input edge \(.*\) breaks the triangle rule"):
        validate_sssp(E, root, p2, d2)


def test_sssp_parent_that_is_not_an_input_edge(E, root, sssp_result):
    parent, dist = (a.copy() for a in sssp_result)
    v = _leaves(parent, root)[0]
    w = next(x for x in np.flatnonzero(parent >= 0) if x != v and x != parent[v] and not _adjacent(E, x, v))
    parent[v] = w
    with pytest.raises(ValidationError, match="not an input edge"):
        validate_sssp(E, root, parent, dist)


def test_sssp_cycle_missing_vertex_and_unreached_distance(E, root, sssp_result):
    parent, dist = (a.copy() for a in sssp_result)
    v = next(x for x in _leaves(parent, root) if parent[x] != root)
    parent[parent[v]] = v
    with pytest.raises(ValidationError, match="cycle"):
        validate_sssp(E, root, parent, dist)
    parent, dist = (a.copy() for a in sssp_result)
    v = _leaves(parent, root)[0]
    parent[v] = -1
    with pytest.raises(ValidationError, match="-1 exactly where the distance is infinite"):
        validate_sssp(E, root, parent, dist)
    dist[v] = np.inf
    with pytest.raises(ValidationError, match="does not span"):
        validate_sssp(E, root, parent, dist)


# -- statistics ------------------------------------------------------------------------------
def test_statistics_are_main_c_s():
    x = np.arange(1.0, 65.0)  # 64 values: quartiles are the means of the 16th/17th and 48th/49th
    s = get_statistics(x[::-1])
    assert (s["min"], s["firstquartile"], s["median"], s["thirdquartile"], s["max"]) == (1, 16.5, 32.5, 48.5, 64)
    assert s["stddev"] == pytest.approx(np.std(x, ddof=1))
    times, nedge = [0.5, 0.25, 2.0, 1.0, 4.0], [10, 20, 30, 40, 50]
    k = kernel_statistics(times, nedge)
    teps = [m / t for m, t in zip(nedge, times)]
    assert k["harmonic_mean_TEPS"] == pytest.approx(statistics.harmonic_mean(teps))
    assert (k["min_TEPS"], k["max_TEPS"]) == pytest.approx((min(teps), max(teps)))
    assert k["median_TEPS"] == pytest.approx(statistics.median(teps))
    assert k["median_time"] == 1.0 and k["median_nedge"] == 30
