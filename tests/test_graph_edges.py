"""The Graph container at the edges: vertex counts and ids near 2**31, memory estimates,
infinite weights, exact conversions of weights to other dtypes, duplicates of SciPy matrices."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphs.validate as validate
from graphs import Graph, GraphError
from semiring.errors import InvalidEntryError

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LIMIT = 2**31 - 1


@SETTINGS
@given(st.integers(LIMIT + 1, 2**64))
def test_vertex_count_beyond_int32_is_refused_before_allocating(n):
    with pytest.raises(GraphError, match=r"exceeds the limit of 2147483647 \(2\*\*31 - 1\)"):
        Graph.from_edges([0, 1], [1, 2], n=n)
    if n < 2**63:
        with pytest.raises(GraphError, match="exceeds the limit"):
            Graph.from_edges(np.array([0, n - 1], dtype=np.int64), np.array([1, 0], dtype=np.int64))


@pytest.mark.parametrize("n", [3.0, 3.5, "3", np.float64(3), True, 3 + 0j])
def test_vertex_count_must_be_an_integer(n):
    with pytest.raises(TypeError, match="n must be an integer"):
        Graph.from_edges([0, 1], [1, 2], n=n)


def test_vertex_count_integer_kinds():
    for n in (3, np.int32(3), np.uint64(3), np.int64(3)):
        assert Graph.from_edges([0, 1], [1, 2], n=n).n == 3
    with pytest.raises(GraphError, match=">= 0"):
        Graph.from_edges([], [], n=-1)


@SETTINGS
@given(st.integers(2**27, LIMIT), st.integers(0, 2**20))
def test_memory_estimate_names_the_size(n, m):
    need = validate.csr_bytes(n, m)
    with pytest.raises(GraphError, match=f"n = {n} vertices and {m} arcs need {need} bytes"):
        validate.check_size("n", n, m, memory=need - 1)
    assert validate.check_size("n", n, m, memory=need) == n


def test_memory_estimate_in_from_edges(monkeypatch):
    monkeypatch.setattr(validate, "available_memory", lambda: 2**20)
    with pytest.raises(GraphError, match="GiB of memory is available"):
        Graph.from_edges([0], [1], n=2**26)
    assert Graph.from_edges([0], [1], n=1000).n == 1000  # small graphs are not checked
    assert validate.available_memory() == 2**20


def test_available_memory_is_read():
    m = validate.available_memory()
    assert m is None or m > 2**20


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_an_infinite_arc_is_refused(dtype):
    top = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    w = np.array([1, top], dtype=dtype)
    with pytest.raises(InvalidEntryError, match=r"weights\[1\] is .*no arc"):
        Graph.from_edges([0, 1], [1, 2], w)
    with pytest.raises(InvalidEntryError, match=r"A.data\[1\]"):
        Graph.from_scipy(sp.csr_array((w, np.array([1, 0]), np.array([0, 1, 2])), shape=(2, 2)))
    # A dense matrix's +inf is its "no edge": dropped, not refused.
    if np.dtype(dtype).kind == "f":
        assert Graph.from_dense(np.array([[0, 1], [top, 0]], dtype=dtype)).nnz == 1


def _exact_cast(x, src, dst):
    """The exact value of ``x`` (of dtype ``src``) in ``dst``, the infinity it stands for, or None."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src.kind == "f":
        inf = x == np.inf or x == -np.inf
        sign = 1 if x > 0 else -1
    else:
        inf = x in (np.iinfo(src).max, np.iinfo(src).min)
        sign = 1 if x == np.iinfo(src).max else -1
    if inf:
        if dst.kind == "f":
            return sign * np.inf
        return np.iinfo(dst).max if sign > 0 else np.iinfo(dst).min
    if dst.kind == "i":
        if src.kind == "f" and float(x) != int(x):
            return None
        v = int(x)
        info = np.iinfo(dst)
        return v if info.min < v < info.max else None
    if src.kind == "i":
        v = int(x)
        return float(v) if int(dst.type(v)) == v and abs(v) < 2**63 else None
    y = dst.type(x)
    return float(y) if np.isfinite(y) else None


DTYPES = [np.float32, np.float64, np.int32, np.int64]


@st.composite
def weights_and_target(draw):
    src = np.dtype(draw(st.sampled_from(DTYPES)))
    dst = np.dtype(draw(st.sampled_from(DTYPES)))
    if src.kind == "f":
        fi = np.finfo(src)
        x = draw(st.one_of(
            st.sampled_from([np.inf, -np.inf, 2.0**31 - 1, 2.0**31, -(2.0**31), 2.0**63, -(2.0**63), 2.0**63 - 1024,
                             2.7, -0.5, 1e300, float(fi.max), 2.0**53 + 2]),
            st.floats(-float(fi.max), float(fi.max), allow_nan=False, allow_infinity=False, width=fi.bits),
            st.integers(-(2**64), 2**64).map(float),
        ))
        with np.errstate(over="ignore"):
            x = src.type(x)
    else:
        info = np.iinfo(src)
        x = src.type(draw(st.one_of(
            st.sampled_from([info.max, info.min, info.max - 1, info.min + 1, 2**24 + 1, 2**53 + 1, 2**31 - 1]).filter(
                lambda v: info.min <= v <= info.max),
            st.integers(info.min, info.max),
        )))
    return src, dst, x


@SETTINGS
@given(weights_and_target())
def test_to_dense_converts_exactly_or_raises(case):
    src, dst, x = case
    want = _exact_cast(x, src, dst)
    w = np.array([x], dtype=src)
    if (src.kind == "f" and x == np.inf) or (src.kind == "i" and x == np.iinfo(src).max):
        return  # an arc of +inf is no arc (refused by the container)
    G = Graph.from_edges([0], [1], w)
    if want is None:
        with pytest.raises(InvalidEntryError, match=r"weights\[0\] = "):
            G.to_dense(dtype=dst)
        return
    D = G.to_dense(dtype=dst)
    assert D.dtype == dst
    got = D[0, 1].item()
    assert got == want, (x, src, dst, got, want)
    zero = np.inf if dst.kind == "f" else np.iinfo(dst).max
    assert D[1, 0] == zero and D[0, 0] == 0


def test_to_dense_reproducers():
    G = Graph.from_edges([0], [1], [-np.inf])
    assert G.to_dense(dtype=np.int64)[0, 1] == np.iinfo(np.int64).min
    assert G.to_dense(dtype=np.int32)[0, 1] == np.iinfo(np.int32).min
    with pytest.raises(InvalidEntryError, match="does not fit int32"):
        Graph.from_edges([0], [1], [3e9]).to_dense(dtype=np.int32)
    with pytest.raises(InvalidEntryError, match="not an integer"):
        Graph.from_edges([0], [1], [2.5]).to_dense(dtype=np.int64)
    with pytest.raises(InvalidEntryError, match="overflows float32"):
        Graph.from_edges([0], [1], [1e300]).to_dense(dtype=np.float32)
    with pytest.raises(InvalidEntryError, match="no exact float64"):
        Graph.from_edges([0], [1], np.array([2**53 + 1])).to_dense(dtype=np.float64)
    Imin = Graph.from_edges([0], [1], np.array([np.iinfo(np.int64).min + 0]))
    assert Imin.to_dense(dtype=np.float64)[0, 1] == -np.inf


# -- duplicates of a SciPy matrix -------------------------------------------------------


@SETTINGS
@given(st.integers(1, 6), st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(-50, 50)),
                                   max_size=20), st.sampled_from(["coo", "csr", "csc"]))
def test_from_scipy_duplicates(n, entries, fmt):
    entries = [(i % n, j % n, x) for i, j, x in entries]
    rows = np.array([e[0] for e in entries], dtype=np.int64)
    cols = np.array([e[1] for e in entries], dtype=np.int64)
    vals = np.array([e[2] for e in entries], dtype=np.float64)
    A = sp.coo_array((vals, (rows, cols)), shape=(n, n))
    if fmt == "csr":
        A = sp.csr_array((vals, (rows, cols)), shape=(n, n))  # sums on construction, as SciPy does
    elif fmt == "csc":
        A = A.tocsc()
    G = Graph.from_scipy(A)
    src, dst, w = G.edges()
    got = sorted(zip(src.tolist(), dst.tolist(), w.tolist()))
    if fmt == "coo":
        assert got == sorted(zip(rows.tolist(), cols.tolist(), vals.tolist()))  # parallel arcs kept
        # min_plus: the shortest of the parallel arcs counts.
        D = G.to_dense(diagonal=False)
        for i, j, x in entries:
            assert D[i, j] <= x
    S = Graph.from_scipy(A, duplicates="sum")
    C = A.tocsr()
    C.sum_duplicates()
    s2, d2, w2 = S.edges()
    assert sorted(zip(s2.tolist(), d2.tolist(), w2.tolist())) == sorted(
        zip(*[a.tolist() for a in (C.tocoo().row, C.tocoo().col, C.tocoo().data)]))


def test_from_scipy_duplicates_reproducer_and_overflow():
    A = sp.coo_array((np.array([3.0, 5.0]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
    assert Graph.from_scipy(A).weights.tolist() == [3.0, 5.0]
    assert Graph.from_scipy(A).to_dense()[0, 1] == 3.0
    assert Graph.from_scipy(A, duplicates="sum").weights.tolist() == [8.0]
    with pytest.raises(GraphError, match="duplicates"):
        Graph.from_scipy(A, duplicates="min")
    for dtype in (np.int32, np.int64):
        big = np.iinfo(dtype).max // 2 + 1
        B = sp.coo_array((np.array([big, big], dtype), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
        with pytest.raises(InvalidEntryError, match=r"duplicates of A\[0, 1\] sum beyond"):
            Graph.from_scipy(B, duplicates="sum")
        ok = sp.coo_array((np.array([big, -big], dtype), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
        assert Graph.from_scipy(ok, duplicates="sum").weights.tolist() == [0]
    F = sp.coo_array((np.array([1e308, 1e308]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
    with pytest.raises(InvalidEntryError, match="not a finite"):
        Graph.from_scipy(F, duplicates="sum")
