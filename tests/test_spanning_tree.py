"""Minimum spanning forests on the CPU: against a Kruskal reference of the same strict order, SciPy and NetworkX.

The forest is the unique minimum spanning forest under the order (weight, arc id)
(see :mod:`graphs.trees.spanning_tree`), so it is compared edge for edge with a slow
Kruskal that sorts every arc (both arcs of an undirected edge: the twin has the
larger id and must never win) by that order.  SciPy's weight is compared on
inputs with positive weights (SciPy drops explicit zeros); zero, negative and
tied weights, self loops, parallel arcs and dtype extremes go against the
reference.  The GPU kernels' logic is checked here too, through a NumPy
emulation of their rounds (filter, pick, hook, shortcut).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components as scipy_components
from scipy.sparse.csgraph import minimum_spanning_tree as scipy_mst

import graphs
from graphs import Graph, SpanningForest, minimum_spanning_tree
from graphs import generators as gen
from graphs.trees.spanning_tree import forest_from_arcs
from semiring.errors import InvalidEntryError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


# -- references and checks -----------------------------------------------------------------
def kruskal_arcs(G: Graph) -> list[int]:
    """Arc ids of the minimum spanning forest under (weight, arc id): plain Kruskal over every arc."""
    src, dst, w = G.edges()
    src, dst = src.tolist(), dst.tolist()
    ww = [1] * len(src) if w is None else w.tolist()
    order = sorted(range(len(src)), key=lambda e: (ww[e], e))
    parent = list(range(G.n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    tree = []
    for e in order:
        a, b = find(src[e]), find(dst[e])
        if a != b:
            parent[max(a, b)] = min(a, b)
            tree.append(e)
    return sorted(tree)


def check_forest(G: Graph, F: SpanningForest) -> None:
    """Spanning, acyclic, edges of G with their weights, exactly n - components edges, weight = sum."""
    u, v, w = F.edges
    assert u.dtype == np.int32 and v.dtype == np.int32 and np.all(u < v)
    k, labels = graphs.connected_components(G, "weak")
    assert F.n_components == k and len(u) == G.n - k
    parent = np.arange(G.n)

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in zip(u.tolist(), v.tolist()):
        ra, rb = find(a), find(b)
        assert ra != rb, f"edge ({a}, {b}) closes a cycle"
        parent[max(ra, rb)] = min(ra, rb)
        assert labels[a] == labels[b]
    src, dst, gw = G.edges()
    have: dict = {}
    for a, b, x in zip(src.tolist(), dst.tolist(), [1] * len(src) if gw is None else gw.tolist()):
        have.setdefault((min(a, b), max(a, b)), []).append(x)
    for a, b, x in zip(u.tolist(), v.tolist(), w.tolist()):
        assert x in have[(a, b)]
    assert_total(F.weight, w)
    assert F.graph.n == G.n and not F.graph.directed and F.graph.num_edges == len(u)


OVERFLOW = object()  # reference_total's answer for a float total beyond float64's range


def reference_total(w):
    """The exact total of the weights ``w`` (Fractions), as the result type holds it.

    ``-inf`` (float) when a weight is ``-inf`` or, for integers, the ``iinfo.min``
    sentinel of ``-inf``; an exact ``int`` for integers; for floats the exact sum
    rounded once to float64 (``-0.0`` when every term is ``-0.0``), or
    :data:`OVERFLOW` when it is beyond float64's range.
    """
    w = np.asarray(w)
    if w.dtype.kind == "i":
        if (w == np.iinfo(w.dtype).min).any():
            return -math.inf
        return sum(int(x) for x in w.tolist())
    if np.isneginf(w).any():
        return -math.inf
    exact = sum((Fraction(float(x)) for x in w.tolist()), Fraction(0))
    try:
        total = float(exact)
    except OverflowError:
        return OVERFLOW
    return -0.0 if w.size and exact == 0 and np.signbit(w).all() else total


def assert_total(got, w) -> None:
    """``got`` is exactly :func:`reference_total` of ``w`` (type and sign of zero included)."""
    want = reference_total(w)
    assert want is not OVERFLOW
    assert type(got) is type(want) and got == want, (got, want)
    if isinstance(want, float) and want == 0:
        assert math.copysign(1, got) == math.copysign(1, want)


def expected_forest(G: Graph) -> SpanningForest:
    return forest_from_arcs(G, np.asarray(kruskal_arcs(G), dtype=np.int64))


def same_forest(F: SpanningForest, R: SpanningForest) -> None:
    for a, b in zip(F.edges, R.edges):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype
    assert F.weight == R.weight and type(F.weight) is type(R.weight)
    assert F.n_components == R.n_components


# -- random graphs ------------------------------------------------------------------------------
DTYPES = ["float32", "float64", "int32", "int64"]


def weight_values(dtype: str):
    """Small values (many ties, zeros and negatives) and the dtype's extremes.

    +inf (and the integer +inf sentinel ``iinfo.max``) is no arc weight: a Graph refuses it.
    """
    dt = np.dtype(dtype)
    if dt.kind == "f":
        big = float(np.finfo(dt).max)
        extremes = [big, -big, -np.inf, -0.0, 0.0, float(np.finfo(dt).tiny)]
    else:
        info = np.iinfo(dt)
        extremes = [int(info.min), int(info.max) - 1, int(info.min) + 1]
    return st.one_of(st.integers(-3, 3), st.sampled_from(extremes))


@st.composite
def random_graphs(draw, max_n: int = 14):
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 3 * n)) if n else 0
    src = draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m))
    directed = draw(st.booleans())
    dtype = draw(st.sampled_from(DTYPES + [None]))
    w = None
    if dtype is not None:
        w = np.array(draw(st.lists(weight_values(dtype), min_size=m, max_size=m)), dtype=dtype)
    return Graph.from_edges(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), w, n=n,
                            directed=directed)


@settings(max_examples=300, deadline=None)
@given(random_graphs())
def test_random_graphs_equal_reference(G):
    arcs = kruskal_arcs(G)
    if G.weights is not None and reference_total(G.weights[arcs]) is OVERFLOW:
        with pytest.raises(graphs.GraphError, match="beyond float64's range"):
            minimum_spanning_tree(G)
        return
    F = minimum_spanning_tree(G)
    check_forest(G, F)
    same_forest(F, expected_forest(G))


@settings(max_examples=150, deadline=None)
@given(random_graphs(max_n=30), st.sampled_from([0, 1, 2.5, -3]))
def test_all_equal_weights_equal_reference(G, c):
    """Every arc weighs the same: the one-pass Kruskal in CSR order, against the reference."""
    w = np.full(G.nnz, c, dtype=np.float64 if isinstance(c, float) else np.int64)
    H = Graph(G.indptr, G.indices, w, directed=G.directed)
    F = minimum_spanning_tree(H)
    check_forest(H, F)
    same_forest(F, expected_forest(H))


@settings(max_examples=150, deadline=None)
@given(random_graphs(max_n=40))
def test_gpu_rounds_emulated_equal_reference(G):
    """The GPU's rounds (graphs/cuda/spanning_tree.cu), emulated with NumPy, give the reference forest."""
    np.testing.assert_array_equal(emulate_gpu_rounds(G), np.asarray(kruskal_arcs(G), dtype=np.int64))


def order_keys(w) -> np.ndarray:
    """The order-preserving uint64 keys of ``mst_key`` in spanning_tree.cu (-0.0 read as +0.0)."""
    if w.dtype.kind == "f":
        w = np.where(w == 0, np.zeros(1, w.dtype), w)
        bits = w.view(np.uint32 if w.dtype.itemsize == 4 else np.uint64).astype(np.uint64)
        sign = np.uint64(1 << (8 * w.dtype.itemsize - 1))
        mask = np.uint64((1 << (8 * w.dtype.itemsize)) - 1)
        return np.where(bits & sign, ~bits & mask, bits | sign)
    sign = np.uint64(1 << (8 * w.dtype.itemsize - 1))
    return w.view(np.uint32 if w.dtype.itemsize == 4 else np.uint64).astype(np.uint64) ^ sign


def emulate_gpu_rounds(G: Graph) -> np.ndarray:
    """NumPy model of minimum_spanning_tree_gpu: the same kernels, one vectorised step each."""
    src, dst, w = G.edges()
    keep = src != dst
    if not G.directed:
        keep &= src < dst
    eid = np.flatnonzero(keep).astype(np.int64)
    eu, ev = src[eid].astype(np.int64), dst[eid].astype(np.int64)
    key_of = order_keys(w) if w is not None else np.zeros(G.nnz, dtype=np.uint64)
    none = np.uint64(0xFFFFFFFFFFFFFFFF)
    n = G.n
    comp = np.arange(n)
    in_tree = np.zeros(G.nnz, dtype=bool)
    while eid.size:
        ru, rv = comp[eu], comp[ev]  # mst_filter
        live = ru != rv
        eu, ev, eid = ru[live], rv[live], eid[live]
        if not eid.size:
            break
        key = key_of[eid]
        bestw = np.full(n, none)
        np.minimum.at(bestw, eu, key)
        np.minimum.at(bestw, ev, key)
        bestid = np.full(n, none)  # mst_pick
        for ends in (eu, ev):
            sel = key == bestw[ends]
            np.minimum.at(bestid, ends[sel], eid[sel].astype(np.uint64))
        parent = comp.copy()  # mst_hook
        roots = np.flatnonzero((comp == np.arange(n)) & (bestid != none))
        e = bestid[roots].astype(np.int64)
        ra, rb = comp[src[e]], comp[dst[e]]
        s = np.where(ra == roots, rb, ra)
        in_tree[e] = True
        mutual_small = (bestid[s] == e.astype(np.uint64)) & (roots < s)
        parent[roots[~mutual_small]] = s[~mutual_small]
        for _ in range(n + 1):  # mst_shortcut
            nxt = parent[parent]
            if np.array_equal(nxt, parent):
                break
            parent = nxt
        else:
            raise AssertionError("the hook graph has a cycle")
        comp = parent
    return np.flatnonzero(in_tree).astype(np.int64)


# -- named cases -------------------------------------------------------------------------------
def test_empty_and_single_vertex():
    for n in (0, 1):
        F = minimum_spanning_tree(Graph.from_edges([], [], n=n))
        assert F.weight == 0.0 and F.n_components == n and F.edges[0].size == 0
        assert F.to_scipy().shape == (n, n)
    F = minimum_spanning_tree(Graph.from_edges([0], [0], [5], n=1))
    assert F.weight == 0 and F.n_components == 1 and F.edges[2].dtype == np.int64


def test_ties_broken_by_arc_id():
    n = 7
    a, b = np.triu_indices(n, 1)
    G = Graph.from_edges(b, a, np.full(a.size, 2, dtype=np.int64), directed=False)  # K7, all weights equal
    F = minimum_spanning_tree(G)
    np.testing.assert_array_equal(F.edges[0], np.zeros(n - 1, dtype=np.int32))  # a star at 0:
    np.testing.assert_array_equal(F.edges[1], np.arange(1, n, dtype=np.int32))  # the lowest arc ids


def test_directed_input_read_as_undirected():
    G = Graph.from_edges([0, 1, 2, 2], [1, 0, 1, 0], [5.0, 2.0, 4.0, 9.0])
    F = minimum_spanning_tree(G)
    np.testing.assert_array_equal(F.edges[0], [0, 1])
    np.testing.assert_array_equal(F.edges[1], [1, 2])
    assert F.weight == 6.0
    T = scipy_mst(sp.csr_matrix(G.to_scipy()))
    assert T.sum() == 6.0


def test_unweighted_edges_weigh_one():
    G = gen.grid_2d(5, 7)
    U = Graph(G.indptr, G.indices, None, directed=False)
    F = minimum_spanning_tree(U)
    assert F.weight == 34.0 and F.edges[2].dtype == np.float64 and F.n_components == 1
    same_forest(F, expected_forest(U))


def test_to_scipy_layout():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 60, 200), rng.integers(0, 60, 200)
    G = Graph.from_edges(a, b, rng.permutation(200).astype(np.float64) + 1, n=60, directed=False).simplify()
    F = minimum_spanning_tree(G)
    T = F.to_scipy()
    R = scipy_mst(sp.csr_matrix(G.to_scipy()))
    assert isinstance(T, sp.csr_matrix) and T.dtype == np.float64 and T.shape == (60, 60)
    assert T.has_sorted_indices and sp.triu(T, k=1).nnz == T.nnz
    np.testing.assert_array_equal(T.toarray(), R.toarray())  # distinct weights, symmetric: SciPy's layout
    np.testing.assert_array_equal(T.indptr, R.indptr)
    np.testing.assert_array_equal(T.indices, R.indices)
    Z = minimum_spanning_tree(Graph.from_edges([0, 1], [1, 2], [0.0, -1.0], directed=False)).to_scipy()
    assert Z.nnz == 2 and Z[0, 1] == 0.0  # explicit zero kept


def test_nan_weight_names_the_arc():
    G = Graph(np.array([0, 1, 2, 2]), np.array([1, 2]), np.array([1.0, np.nan]), check=False)
    with pytest.raises(InvalidEntryError, match=r"weights\[1\] is NaN"):
        minimum_spanning_tree(G)
    with pytest.raises(graphs.GraphError, match="device"):
        minimum_spanning_tree(Graph.from_edges([0], [1]), device="tpu")


def test_int64_extremes_exact():
    big = np.iinfo(np.int64).max - 1  # the largest finite int64 weight (iinfo.max is +inf)
    G = Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], np.array([big, big, big - 5, big], dtype=np.int64))
    F = minimum_spanning_tree(G)
    assert F.weight == 3 * big - 5  # exact, beyond int64
    low = np.iinfo(np.int64).min + 1  # the most negative finite int64 weight (iinfo.min is -inf)
    F = minimum_spanning_tree(Graph.from_edges([0, 1, 2], [1, 2, 3], np.array([low, low, low])))
    assert F.weight == 3 * low and type(F.weight) is int


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_integer_minus_inf_sentinel_makes_the_total_minus_inf(dtype):
    """``iinfo.min`` is the dtype's -inf: the forest holds it (the lightest edge), the total is -inf, not min + 3."""
    info = np.iinfo(dtype)
    G = Graph.from_edges([0, 1, 0], [1, 2, 2], np.array([info.min, 3, 5], dtype=dtype))
    F = minimum_spanning_tree(G)
    assert F.weight == -math.inf
    assert F.edges[2].tolist() == [info.min, 3]
    T = F.to_scipy()  # the weights' dtype, exact: the sentinel stays the sentinel
    assert T.dtype == np.dtype(dtype) and T[0, 1] == info.min and T[1, 2] == 3
    # The float graph with -inf: the same forest and total, as SciPy's on the sparse matrix.
    H = Graph.from_edges([0, 1, 0], [1, 2, 2], np.array([-np.inf, 3.0, 5.0]))
    FH = minimum_spanning_tree(H)
    assert FH.weight == -math.inf and FH.edges[2].tolist() == [-np.inf, 3.0]
    R = scipy_mst(sp.csr_matrix(H.to_scipy()))
    np.testing.assert_array_equal(R.toarray(), FH.to_scipy().toarray())
    assert R.sum() == FH.weight


def test_minus_inf_edges_match_networkx():
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(4)
    n, m = 40, 160
    a, b = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.permutation(m).astype(np.float64) - 80.0
    w[rng.choice(m, 6, replace=False)] = -np.inf
    G = Graph.from_edges(a, b, w, n=n, directed=False).simplify()
    F = minimum_spanning_tree(G)
    check_forest(G, F)
    H = nx.Graph()
    H.add_nodes_from(range(n))
    src, dst, gw = G.edges()
    for x, y, c in zip(src.tolist(), dst.tolist(), gw.tolist()):
        H.add_edge(x, y, weight=c)
    T = nx.minimum_spanning_tree(H)
    assert sorted((min(x, y), max(x, y)) for x, y in T.edges()) == sorted(zip(F.edges[0].tolist(), F.edges[1].tolist()))
    assert F.weight == T.size(weight="weight") == -math.inf


def test_float_totals_are_exact():
    """The total is the exact sum rounded once: no cancellation, no order dependence, no overflow in between."""
    big = float(np.finfo(np.float64).max)
    cases = [
        ([1e16, 1.0, -1e16], 1.0),  # float64 left to right gives 0.0
        ([big, big / 2, -big], big / 2),  # an intermediate sum beyond float64
        ([5e-324, 5e-324, 1.0], 1.0),
        ([5e-324, 5e-324, -5e-324], 5e-324),
        ([-0.0, -0.0], -0.0),
        ([0.1, 0.2, 0.3], 0.6),  # fl(0.1 + 0.2 + 0.3) = 0.6000000000000001
    ]
    for w, want in cases:
        G = Graph.from_edges(np.arange(len(w)), np.arange(1, len(w) + 1), np.array(w))
        F = minimum_spanning_tree(G)
        assert F.weight == want and type(F.weight) is float, (w, F.weight)
        assert math.copysign(1, F.weight) == math.copysign(1, want)
    for w in ([big, big], [-big, -big / 2]):  # the exact total has no float64 value
        G = Graph.from_edges(np.arange(len(w)), np.arange(1, len(w) + 1), np.array(w))
        with pytest.raises(graphs.GraphError, match="beyond float64's range"):
            minimum_spanning_tree(G)
    F = minimum_spanning_tree(Graph.from_edges([0, 1], [1, 2], np.array([3e38, 3e38], dtype=np.float32)))
    assert F.weight == float(Fraction(float(np.float32(3e38))) * 2)  # float32 weights, summed beyond float32


def test_extreme_weights_at_the_door():
    """+inf (the integer sentinel iinfo.max) and NaN are no weights: refused, naming the entry."""
    for w in (np.array([1.0, np.inf]), np.array([1.0, np.nan]), np.array([1, np.iinfo(np.int64).max]),
              np.array([1, np.iinfo(np.int32).max], dtype=np.int32)):
        with pytest.raises(InvalidEntryError, match=r"weights\[1\]"):
            Graph.from_edges([0, 1], [1, 2], w)
        G = Graph(np.array([0, 1, 2, 2]), np.array([1, 2]), w, check=False)
        with pytest.raises(InvalidEntryError, match=r"weights\[1\]"):
            minimum_spanning_tree(G)


def test_to_scipy_keeps_integer_weights_exactly():
    """An int64 weight float64 would round stays exact: the matrix holds the weights' dtype."""
    big = 2**53 + 1
    F = minimum_spanning_tree(Graph.from_edges([0, 1], [1, 2], np.array([big, -(2**62) - 1])))
    assert F.weight == big - 2**62 - 1
    T = F.to_scipy()
    assert isinstance(T, sp.csr_matrix) and T.dtype == np.int64 and T.has_sorted_indices
    assert T[0, 1] == big and T[1, 2] == -(2**62) - 1 and int(T.sum()) == F.weight


@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("seed", range(4))
def test_to_scipy_integer_weights_match_scipy(dtype, seed):
    """Integer forests against SciPy's (float64) tree: the same entries, in the weights' own dtype.

    Distinct positive weights (SciPy drops zeros; no ties), symmetric input, all
    exactly representable in float64 so that SciPy's float64 answer is comparable.
    """
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 50)), int(rng.integers(1, 200))
    a, b = rng.integers(0, n, m), rng.integers(0, n, m)
    top = np.iinfo(dtype).max // 2 if dtype == "int32" else 2**52
    w = rng.choice(np.arange(1, m * 4 + 1, dtype=np.int64), m, replace=False) * (top // (m * 4))
    G = Graph.from_edges(a, b, w.astype(dtype), n=n, directed=False).simplify()
    T = minimum_spanning_tree(G).to_scipy()
    R = scipy_mst(sp.csr_matrix(G.to_scipy()))
    assert T.dtype == np.dtype(dtype) and R.dtype == np.float64
    np.testing.assert_array_equal(T.indptr, R.indptr)
    np.testing.assert_array_equal(T.indices, R.indices)
    np.testing.assert_array_equal(T.data.astype(np.float64), R.data)


def test_checker_catches_a_wrong_forest():
    """check_forest fails on a forest with a cycle, and same_forest on a heavier one."""
    G = Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 3], [1.0, 2.0, 3.0, 1.0], directed=False)
    good = minimum_spanning_tree(G)
    src, dst, _ = G.edges()
    arcs = [int(np.flatnonzero((src == a) & (dst == b))[0]) for a, b in ((0, 1), (1, 2), (0, 2))]
    with pytest.raises(AssertionError, match="cycle"):
        check_forest(G, forest_from_arcs(G, np.array(arcs, dtype=np.int64)))
    heavier = forest_from_arcs(G, np.array(sorted([arcs[0], arcs[2], int(np.flatnonzero(src == 2)[-1])])))
    check_forest(G, heavier)  # a spanning tree, but not the minimum one
    with pytest.raises(AssertionError):
        same_forest(heavier, good)


# -- generated and real graphs ------------------------------------------------------------------
def scipy_weight(G: Graph) -> float:
    A = sp.csr_matrix(G.to_scipy())
    assert A.data.min() > 0  # SciPy ignores explicit zeros: compare on positive weights only
    return float(scipy_mst(A).sum())


@pytest.mark.parametrize("make", [
    lambda: gen.rmat(10, 8, seed=4),
    lambda: gen.rmat(13, 16, seed=5, dtype=np.float64),  # more than 65536 edges: split over threads
    lambda: gen.rmat(11, 8, seed=6, directed=True, dtype=np.int32),
    lambda: gen.grid_2d(37, 53, seed=7),
    lambda: gen.erdos_renyi(3001, 9000, seed=8, directed=False, weights=(1, 4), dtype=np.int64),
    lambda: gen.road_network(2000, seed=9),
], ids=["rmat10", "rmat13", "rmat11-directed", "grid", "er-ties", "road"])
def test_generated_graphs(make):
    G = make()
    F = minimum_spanning_tree(G)
    check_forest(G, F)
    same_forest(F, expected_forest(G))
    assert F.weight == pytest.approx(scipy_weight(G), rel=1e-9)
    k, _ = scipy_components(G.to_scipy(), directed=False)
    assert F.n_components == k


def test_against_networkx():
    nx = pytest.importorskip("networkx")
    G = gen.erdos_renyi(400, 1500, seed=11, directed=False, weights=(-50, 50), dtype=np.int64)
    F = minimum_spanning_tree(G)
    H = nx.Graph()
    H.add_nodes_from(range(G.n))
    src, dst, w = G.edges()
    for a, b, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if not H.has_edge(a, b) or H[a][b]["weight"] > x:
            H.add_edge(a, b, weight=x)
    T = nx.minimum_spanning_tree(H)
    assert F.weight == sum(d["weight"] for _, _, d in T.edges(data=True))


@pytest.mark.parametrize("name", ["rome99.gr", "facebook_combined.txt", "email-Enron.txt"])
def test_real_graphs_seeded_weights(name):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} not present")
    G0 = graphs.read(path)
    rng = np.random.default_rng(12)
    # one weight per arc: every arc is its own candidate edge (directed), as SciPy reads the matrix
    G = Graph(G0.indptr, G0.indices, rng.integers(1, 1000, G0.nnz).astype(np.float64), directed=True)
    F = minimum_spanning_tree(G)
    check_forest(G, F)
    assert F.weight == pytest.approx(scipy_weight(G), rel=1e-12)
    same_forest(F, expected_forest(G))
