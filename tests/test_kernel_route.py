"""The NumPy twins of the Numba kernels give exactly the kernels' results (graphs.kernel_route).

A small input goes to a twin so that the process loads no Numba; every twin is
checked here against its compiled kernel, byte for byte and tie for tie: the
file-reading passes on random bytes, CSR building and transposing on random
arcs (parallel arcs, self loops, unsorted rows), BFS levels, parents and trace
in each direction, delta-stepping distances and predecessors with many equal
weights, and the command line's output on a real road network.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs
from graphs import kernel_route
from graphs.cli import main

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
ROME = DATA / "rome99.gr"


@pytest.fixture
def route(monkeypatch):
    """``route("numpy")`` / ``route("numba")``: send every input that way for the rest of the test."""
    return lambda name: monkeypatch.setattr(kernel_route, "FORCE", name)


def _same(a, b):
    """Equal arrays of equal dtype (None equals None), or equal other values."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), (a, b)
    elif isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    else:
        assert a == b, (a, b)


# -- the dispatch -----------------------------------------------------------------------------------------


def test_small_inputs_go_the_numpy_way_until_the_budget_is_spent(monkeypatch):
    monkeypatch.setattr(kernel_route, "NUMPY_BUDGET", 10**18)
    assert kernel_route.numpy_route(kernel_route.SMALL_INPUT)
    assert not kernel_route.numpy_route(kernel_route.SMALL_INPUT + 1)
    monkeypatch.setattr(kernel_route, "NUMPY_BUDGET", 0)  # spent: the compiled kernels from now on
    assert not kernel_route.numpy_route(1)
    monkeypatch.setattr(kernel_route, "FORCE", "numpy")
    assert kernel_route.numpy_route(10**9)
    monkeypatch.setattr(kernel_route, "FORCE", "numba")
    assert not kernel_route.numpy_route(0)


# -- graph files --------------------------------------------------------------------------------------------

_BYTES = st.lists(st.sampled_from([b" ", b"\t", b"\n", b"\r\n", b"\r", b"0", b"7", b"12", b"-", b"+", b".", b"e",
                                   b"E", b"inf", b"Infinity", b"nan", b"NaN", b"i", b"x", b"a", b"c", b"#", b"%",
                                   b"\x00", b"\x85", b"1.5e-3"]), max_size=60).map(b"".join)


def _kernels():
    from graphs.io import _kernels, _kernels_numpy

    return _kernels, _kernels_numpy


@settings(max_examples=150)
@given(data=_BYTES, comments=st.sets(st.sampled_from(b"c#%ax\r"), max_size=3), keep=st.integers(0, 3),
       skip_first=st.booleans(), ncols=st.integers(1, 4))
def test_the_byte_passes_agree_with_the_kernels(data, comments, keep, skip_first, ncols):
    K, N = _kernels()
    buf = np.frombuffer(data, dtype=np.uint8)
    comment = np.zeros(256, dtype=np.bool_)
    comment[list(comments)] = True
    lines = K.scan_lines(buf, K.as_words(buf), comment, keep)
    _same(N.scan_lines(buf, N.as_words(buf), comment, keep), lines)
    _, lead, end = lines
    gathered = K.gather_fields(buf, lead, end, skip_first, ncols)
    _same(N.gather_fields(buf, lead, end, skip_first, ncols), gathered)
    text = gathered[0]
    for integer in (True, False):
        assert N.first_bad_literal(text, integer) == K.first_bad_literal(text, integer)
        assert N.first_bad_literal(buf, integer) == K.first_bad_literal(buf, integer)
    at = np.concatenate((gathered[2][gathered[2] >= 0], [0, buf.shape[0]])).astype(np.int64)
    _same(N.integer_literals(buf, at), K.integer_literals(buf, at))


@pytest.mark.parametrize("token, integer", [
    (b"12", True), (b"-3", True), (b"+", True), (b"1.", True), (b"1.", False), (b".5", False), (b".", False),
    (b"1e", False), (b"1e+", False), (b"1e+7", False), (b"5.e3", False), (b"-inf", False), (b"INFINITY", False),
    (b"infinit", False), (b"nan", False), (b"nanx", False), (b"+.5E-2", False), (b"1.2.3", False), (b"--1", False),
])
def test_each_literal_is_judged_as_the_automaton_judges_it(token, integer):
    K, N = _kernels()
    for text in (token, b"1 " + token + b"\n2", b"\t" + token + b"\r\n"):
        buf = np.frombuffer(text, dtype=np.uint8)
        assert N.first_bad_literal(buf, integer) == K.first_bad_literal(buf, integer)


_FILES = {
    "g.gr": b"c comment\np sp 5 7\na 1 2 3\na 2 3 1\n\na 1 3 4\na 3 1 2\r\na 5 4 7\na 4 5 7\na 1 2 3\n",
    "g.txt": b"# Nodes: 6 Edges: 5\n# Undirected\n0\t1\n1 2\n2 3\n\n4\t5\n0 1\n",
    "w.txt": b"# weighted\n0 1 1.5\n1 2 -2\n2 0 3e2\n3 3 0\n",
    "g.mtx": b"%%MatrixMarket matrix coordinate real symmetric\n% c\n4 4 3\n2 1 1.0\n3 2 2.5\n4 4 1\n",
    "bad.gr": b"p sp 3 2\na 1 2 3\na 2 x 1\n",
    "bad.txt": b"0 1\n1 2 3 4\n",
}


@pytest.mark.parametrize("name", sorted(_FILES))
def test_a_file_reads_the_same_on_both_routes(tmp_path, route, name):
    path = tmp_path / name
    path.write_bytes(_FILES[name])
    out = []
    for way in ("numpy", "numba"):
        route(way)
        try:
            G = graphs.read(path)
            out.append((G.n, G.directed, G.indptr, G.indices, G.weights))
        except graphs.GraphFormatError as err:
            out.append(str(err))
    assert isinstance(out[0], str) == name.startswith("bad")
    if isinstance(out[0], str):
        assert out[0] == out[1]
    else:
        _same(out[0][:2], out[1][:2])
        for a, b in zip(out[0][2:], out[1][2:]):
            assert (a is None and b is None) or (a.dtype == b.dtype and np.array_equal(a, b))


# -- CSR ------------------------------------------------------------------------------------------------------


def _random_arcs(rng, n, m, dtype):
    src = rng.integers(0, max(n, 1), m)
    dst = rng.integers(0, max(n, 1), m)
    if rng.random() < 0.3:
        src = np.sort(src)  # already grouped by row: the kernels' shortcut
    w = rng.integers(0, 4, m).astype(dtype)
    return src.astype(rng.choice([np.int32, np.int64])), dst.astype(np.int64), w


@pytest.mark.parametrize("seed", range(8))
def test_csr_building_transposing_and_row_ids_agree(route, seed):
    from graphs.csr_arrays import build_csr, row_ids, transpose_csr

    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 40))
    m = 0 if n == 0 else int(rng.integers(0, 120))
    src, dst, w = _random_arcs(rng, n, m, rng.choice([np.float64, np.int32]))
    out = []
    for way in ("numpy", "numba"):
        route(way)
        built = [build_csr(n, src, dst, ww, both_ways=bw) for ww in (w, None) for bw in (False, True)]
        indptr, indices, weights = built[0]
        out.append((built, transpose_csr(n, n, indptr, indices, weights),
                    transpose_csr(n, n, indptr, indices, None), row_ids(indptr)))
    for a, b in zip(out[0], out[1]):
        if isinstance(a, list):
            for x, y in zip(a, b):
                for u, v in zip(x, y):
                    assert (u is None and v is None) or (u.dtype == v.dtype and np.array_equal(u, v))
        elif isinstance(a, tuple):
            for u, v in zip(a, b):
                assert (u is None and v is None) or (u.dtype == v.dtype and np.array_equal(u, v))
        else:
            _same(a, b)


# -- searches ---------------------------------------------------------------------------------------------


def _random_graph(rng, weights):
    n = int(rng.integers(1, 60))
    m = int(rng.integers(0, 4 * n))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if weights is None:
        return graphs.Graph.from_edges(src, dst, n=n, directed=bool(rng.random() < 0.8))
    w = rng.integers(0, 5, m).astype(weights)  # few distinct values: many ties, zero weights
    return graphs.Graph.from_edges(src, dst, w, n=n, directed=bool(rng.random() < 0.8))


def _both(route, G, f):
    """``f(G)`` on each route, on fresh copies of ``G`` (no cached transpose or light/heavy rows between them)."""
    out = []
    for way in ("numpy", "numba"):
        route(way)
        H = graphs.Graph(G.indptr, G.indices, G.weights, directed=G.directed, check=False)
        out.append(f(H))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_bfs_levels_parents_and_trace_agree(route, seed):
    rng = np.random.default_rng(seed)
    G = _random_graph(rng, None)
    for direction in ("auto", "push", "pull"):
        for alpha, beta in ((None, None), (0.5, 2.0), (50.0, 100.0)):
            s = int(rng.integers(0, G.n))
            kw = {"direction": direction, "alpha": alpha, "beta": beta, "return_trace": True}
            a, b = _both(route, G, lambda H, s=s, kw=kw: graphs.bfs(H, s, **kw))
            _same(a[:2], b[:2])
            assert a[2] == b[2]


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int32])
@pytest.mark.parametrize("seed", range(6))
def test_delta_stepping_distances_and_predecessors_agree(route, seed, dtype):
    rng = np.random.default_rng(seed)
    G = _random_graph(rng, dtype)
    for delta in (None, 0.5, 1.0, 3.0, 1e9):
        s = int(rng.integers(0, G.n))
        a, b = _both(route, G, lambda H, s=s, delta=delta: graphs.sssp(H, s, method="delta-stepping", delta=delta))
        _same(a, b)
    a, b = _both(route, G, lambda H: graphs.sssp(H, 0))  # "auto": delta-stepping on a sparse graph
    _same(a, b)


def test_integer_sums_saturate_alike(route):
    big = np.iinfo(np.int32).max // 2 + 10
    G = graphs.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], np.array([big, big, 1, 3], dtype=np.int32))
    a, b = _both(route, G, lambda H: graphs.sssp(H, 0, method="delta-stepping"))
    _same(a, b)
    assert a[0][2] == np.iinfo(np.int32).max  # saturated: unreachable, and nothing is relaxed from it


@pytest.mark.skipif(not ROME.exists(), reason="../shared/data is absent")
@pytest.mark.parametrize("command", ["bfs", "sssp"])
def test_the_command_line_prints_the_same_on_both_routes(route, capsys, command):
    out = []
    for way in ("numpy", "numba"):
        route(way)
        assert main([command, str(ROME), "--all", "--json", "--source", "0"]) == 0
        r = json.loads(capsys.readouterr().out)
        for timing in ("time_s", "read_s"):
            r.pop(timing)
        out.append(r)
    assert out[0] == out[1]
    assert out[0]["reached"] > 1000
