"""Float maximum flows are exact: against NetworkX run on ``Fraction`` capacities (exact rational arithmetic).

Every finite float64 is an integer times a power of two, so the maximum flow of float
capacities is an exact rational number; :func:`graphs.maximum_flow` computes it without
rounding and rounds it once.  So ``flow_value`` must equal ``float(exact)``, whatever
magnitudes the capacities span (``1e-3`` beside ``1e15``, subnormals, ``1e300``), and the
minimum cut must carry exactly that value.
"""

from __future__ import annotations

import dataclasses
import math
import random
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs
from graphs import CapacityError, Graph
from graphs import _flow_kernels as K
from graphs._flow_network import capacities, fixed_point, to_float

TINY = [5e-324, 1.5e-323, 1e-310, 2.2250738585072014e-308, 2.2250738585072009e-308]
SPREAD = [0.0, 1e-3, 3.0, 5.0, 0.1, 1e13, 1e15, 2.0**60 + 2.0**8, 1e300]


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Compile the kernels (one int64 per value, and limbs) once."""
    graphs.maximum_flow(Graph.from_edges([0, 1], [1, 2], [1.0, 2.0]), 0, 2)
    graphs.maximum_flow(Graph.from_edges([0, 1], [1, 2], [1e15, 1e-3]), 0, 2)


def exact_flow_value(G: Graph, s: int, t: int) -> Fraction:
    """The maximum flow value in exact rational arithmetic (NetworkX's preflow-push on Fractions)."""
    src, dst, w = G.edges()
    D = nx.DiGraph()
    D.add_nodes_from(range(G.n))
    for u, v, c in zip(src.tolist(), dst.tolist(), np.asarray(w, dtype=np.float64).tolist()):
        if u == v:
            continue
        c = Fraction(c)
        if D.has_edge(u, v):
            D[u][v]["capacity"] += c
        else:
            D.add_edge(u, v, capacity=c)
        if not G.directed and not D.has_edge(v, u):
            D.add_edge(v, u, capacity=Fraction(0))
    return nx.maximum_flow_value(D, s, t)


def check_exact(G: Graph, s: int, t: int, r, exact: Fraction) -> None:
    """``r`` carries the exact value (rounded once), a cut of exactly that capacity, a flow within capacity."""
    assert type(r.flow_value) is float
    assert r.flow_value == float(exact), (r.flow_value, float(exact))
    src, dst, w = G.edges()
    cap = [Fraction(c) for c in np.asarray(w, dtype=np.float64).tolist()]
    side = np.asarray(r.source_side, dtype=bool)
    assert side[s] and not side[t]
    on = [k for k in range(src.size) if side[src[k]] and not side[dst[k]] and cap[k] > 0]
    cu, cv = (np.asarray(x).tolist() for x in r.cut_edges)
    assert sorted(zip(cu, cv)) == sorted((int(src[k]), int(dst[k])) for k in on)
    assert sum((cap[k] for k in on), Fraction(0)) == exact, "the cut's capacity is not the maximum flow value"
    # The flow: antisymmetric, within the capacities, conserved up to one rounding per entry.
    C: dict = {}
    for u, v, c in zip(src.tolist(), dst.tolist(), cap):
        if u != v:
            C[u, v] = C.get((u, v), Fraction(0)) + c
    F = sp.coo_array(r.flow)
    assert F.dtype == np.float64 and F.shape == (G.n, G.n)
    flow = {(u, v): Fraction(x) for u, v, x in zip(F.row.tolist(), F.col.tolist(), F.data.tolist())}
    net = [Fraction(0)] * G.n
    mass = [Fraction(0)] * G.n
    for (u, v), x in flow.items():
        assert flow.get((v, u), Fraction(0)) == -x, "flow is not antisymmetric"
        # Rounding is monotone: the rounded flow is at most the rounded (summed) capacity.
        assert x <= Fraction(float(C.get((u, v), Fraction(0)))), f"flow {x} on {u} -> {v} above its capacity"
        net[u] += x
        mass[u] += abs(x)
    expect = [Fraction(0)] * G.n
    expect[s], expect[t] = exact, -exact
    for u in range(G.n):
        assert abs(net[u] - expect[u]) <= mass[u] * Fraction(1, 2**52), f"conservation fails at vertex {u}"


# --- concrete cases -----------------------------------------------------------------------------


@pytest.mark.parametrize("src, dst, w, s, t, value", [
    ([0, 1, 0], [1, 2, 2], [1e13, 5.0, 3.0], 0, 2, 8.0),  # 5 beside 1e13 was read as zero
    ([0, 1, 0], [1, 2, 2], [1e15, 1e15, 1e-3], 0, 2, 1e15 + 1e-3),
    ([0, 1, 0], [1, 2, 2], [1e15, 1e-3, 1e-3], 0, 2, 2e-3),
    ([0, 1, 1, 2], [1, 2, 3, 3], [1e15, 1e15, 1e-3, 1e-3], 0, 3, 2e-3),
    ([0, 1], [1, 2], [5e-324, 5e-324], 0, 2, 5e-324),
    ([0, 0, 1, 2], [1, 2, 3, 3], [1e300, 5e-324, 1e300, 5e-324], 0, 3, 1e300),
    ([0, 0, 1, 2], [1, 2, 3, 3], [1e-300, 5e-324, 1e300, 1e300], 0, 3, 1e-300),
])
def test_small_capacities_beside_large_ones(src, dst, w, s, t, value):
    G = Graph.from_edges(src, dst, np.asarray(w, dtype=np.float64))
    r = graphs.maximum_flow(G, s, t)
    assert r.flow_value == value
    check_exact(G, s, t, r, exact_flow_value(G, s, t))


def test_float32_capacities_are_exact():
    w = np.asarray([3e7, 0.125, 1e-3, 7.0], dtype=np.float32)
    G = Graph.from_edges([0, 1, 0, 2], [1, 3, 2, 3], w)
    r = graphs.maximum_flow(G, 0, 3)
    assert r.flow_value == float(Fraction(float(w[1])) + Fraction(float(w[2])))
    check_exact(G, 0, 3, r, exact_flow_value(G, 0, 3))


def test_a_flow_value_beyond_float64_is_refused():
    big = np.finfo(np.float64).max
    G = Graph.from_edges([0, 0], [1, 1], [big, big])
    with pytest.raises(CapacityError, match="above the largest float64"):
        graphs.maximum_flow(G, 0, 1)
    # The same capacities meeting a smaller cut: no sum past float64 is reported.
    G = Graph.from_edges([0, 0, 1], [1, 1, 2], [big, big, 1.5])
    assert graphs.maximum_flow(G, 0, 2).flow_value == 1.5


def test_integer_valued_floats_match_scipy():
    """Integer-valued float capacities: the same value as SciPy's integer maximum flow."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        n, m = int(rng.integers(2, 30)), int(rng.integers(0, 120))
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        w = rng.integers(0, 1000, m)
        G = Graph.from_edges(src, dst, w.astype(np.float64), n=n)
        C = sp.coo_array((w[src != dst].astype(np.int32), (src[src != dst], dst[src != dst])), shape=(n, n)).tocsr()
        C.sum_duplicates()
        ref = csg.maximum_flow(C, 0, n - 1).flow_value if n > 1 else 0
        r = graphs.maximum_flow(G, 0, n - 1)
        assert r.flow_value == float(ref)


# --- properties ---------------------------------------------------------------------------------

capacity = st.one_of(
    st.sampled_from(SPREAD + TINY),
    st.floats(1e-3, 1e15),
    st.floats(0.0, 1e-300),
    st.integers(0, 9).map(float),
)


@st.composite
def float_flow_problems(draw):
    """Small graphs (parallel arcs, self loops, zero capacities) whose capacities span 600 decades."""
    n = draw(st.integers(2, 8))
    m = draw(st.integers(0, 24))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = np.asarray(draw(st.lists(capacity, min_size=m, max_size=m)), dtype=np.float64)
    G = Graph.from_edges(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), w, n=n,
                         directed=draw(st.booleans()))
    s = draw(st.integers(0, n - 1))
    t = draw(st.integers(0, n - 2))
    return G, s, t if t < s else t + 1


@settings(max_examples=300, deadline=None)
@given(float_flow_problems())
def test_float_flows_are_exact(problem):
    G, s, t = problem
    r = graphs.maximum_flow(G, s, t)
    check_exact(G, s, t, r, exact_flow_value(G, s, t))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(capacity, st.floats(0, 1.7e308)), min_size=0, max_size=30))
def test_fixed_point_is_exact(values):
    cap = np.asarray(values, dtype=np.float64)
    icap, emin = fixed_point(np, cap)
    assert icap.dtype == np.int64 and -1074 <= emin
    if icap.ndim == 1:
        ints = icap.tolist()
    else:
        assert icap.shape[1] >= 2 and icap.min() >= 0 and icap.max() < 2**K.LIMB_BITS
        ints = [sum(int(x) << (K.LIMB_BITS * (icap.shape[1] - 1 - j)) for j, x in enumerate(row)) for row in icap]
    assert [Fraction(x) * Fraction(2) ** emin for x in ints] == [Fraction(c) for c in cap.tolist()]
    # Room for every sum: the total capacity fits one int64 (62 bits) or the limbs.
    width = K.LIMB_BITS * (1 if icap.ndim == 1 else icap.shape[1])
    assert sum(ints) < 2**width


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(-1074, 200), st.randoms(use_true_random=False))
def test_limb_flows_round_once(L, emin, rnd):
    """(cap0 - res) * 2**emin from rows of limbs, against Python's correctly rounded integer division."""
    def limbs(x):
        return [(x >> (K.LIMB_BITS * (L - 1 - j))) & ((1 << K.LIMB_BITS) - 1) for j in range(L)]

    a = [rnd.getrandbits(rnd.randint(0, K.LIMB_BITS * L)) for _ in range(16)]
    b = [rnd.getrandbits(rnd.randint(0, K.LIMB_BITS * L)) if rnd.random() < 0.8 else x for x in a]
    got = K.limb_flows(np.asarray([limbs(x) for x in a], dtype=np.int64).reshape(16, L),
                       np.asarray([limbs(x) for x in b], dtype=np.int64).reshape(16, L), emin)
    for x, y, g in zip(a, b, got.tolist()):
        d = x - y
        try:
            want = d / (1 << -emin) if emin < 0 else float(d << emin)
        except OverflowError:
            want = math.copysign(math.inf, d)
        assert g == want, (x, y, emin, g, want)


def test_to_float_rounds_once():
    rng = random.Random(7)
    for _ in range(2000):
        v, e = rng.getrandbits(rng.randint(1, 2200)), rng.randint(-1200, 100)
        try:
            want = float(Fraction(v) * Fraction(2) ** e)
        except OverflowError:
            with pytest.raises(CapacityError):
                to_float(v, e)
            continue
        assert to_float(v, e) == want


def test_capacities_are_still_validated():
    G = Graph(np.array([0, 1, 2, 2]), np.array([1, 2]), np.array([1.0, -0.5]), check=False)
    with pytest.raises(CapacityError, match=r"arc 1 \(1 -> 2\) is -0.5"):
        graphs.maximum_flow(G, 0, 2)
    assert capacities(Graph.from_edges([0], [1], [-0.0])).tolist() == [0.0]
    assert graphs.maximum_flow(Graph.from_edges([0], [1], [-0.0]), 0, 1).flow_value == 0.0


# --- the GPU: the same exact values ------------------------------------------------------------


def _gpu():
    cp = pytest.importorskip("cupy")
    from semiring.backend import gpu_available

    if not gpu_available():
        pytest.skip("no usable CUDA GPU")
    return cp


def _on_host(r):
    return dataclasses.replace(r, flow=sp.csr_array(r.flow.get()), source_side=r.source_side.get(),
                               cut_edges=tuple(x.get() for x in r.cut_edges))


@pytest.mark.gpu
@pytest.mark.parametrize("scale", [1.0, 2.0**-40, 2.0**-1060])
def test_gpu_float_flows_are_exact_in_one_int64(scale):
    """Capacities that fit one int64 when scaled run on the GPU's integer kernels: the CPU's exact answer."""
    cp = _gpu()
    rng = np.random.default_rng(12)
    n, m = 500, 4000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 2**20, m) * 0.125 * scale  # multiples of scale / 8: about 40 bits
    G = Graph.from_edges(src, dst, w, n=n)
    for s, t in [(0, n - 1), (3, 7)]:
        c = graphs.maximum_flow(G, s, t)
        r = graphs.maximum_flow(G.to("gpu"), s, t)
        assert type(r.flow_value) is float and r.flow_value == c.flow_value
        # The flows may differ (a maximum flow is not unique); the residual reachability set is the same.
        assert cp.asnumpy(r.source_side).tolist() == c.source_side.tolist()
        check_exact(G, s, t, _on_host(r), exact_flow_value(G, s, t))


@pytest.mark.gpu
def test_gpu_wide_float_flows_are_solved_exactly():
    """Capacities needing several limbs: the CPU kernels' answer, on the device, with a warning that says so."""
    cp = _gpu()
    G = Graph.from_edges([0, 1, 0, 1, 1, 2], [1, 2, 2, 3, 2, 3], [1e15, 1e15, 1e-3, 5e-324, 0.1, 1e13])
    c = graphs.maximum_flow(G, 0, 3)
    with pytest.warns(RuntimeWarning, match="limbs"):
        r = graphs.maximum_flow(G.to("gpu"), 0, 3)
    assert r.flow_value == c.flow_value == float(exact_flow_value(G, 0, 3))
    assert isinstance(r.source_side, cp.ndarray) and isinstance(r.cut_edges[0], cp.ndarray)
    np.testing.assert_array_equal(r.flow.get().toarray(), c.flow.toarray())
    check_exact(G, 0, 3, _on_host(r), exact_flow_value(G, 0, 3))
