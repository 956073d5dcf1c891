"""Graph files: real data sets, write/read round trips, malformed files with line numbers."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import python_calls

import graphs
from graphs import Graph, GraphFormatError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def data_file(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return path


def test_read_rome99_dimacs():
    G = graphs.read(data_file("rome99.gr"))
    # float64 weights by default (integer metres, exact); int64 when asked for.
    assert (G.n, G.nnz, G.directed, G.dtype) == (3353, 4444, True, np.float64)
    Gi = graphs.read(data_file("rome99.gr"), dtype=np.int64)
    assert Gi.dtype == np.int64
    np.testing.assert_array_equal(Gi.weights.astype(np.float64), G.weights)
    # First arcs of the file: "a 1 2 ..." lines, 1-based.
    text = data_file("rome99.gr").read_text().splitlines()
    first = next(line for line in text if line.startswith("a ")).split()
    u, v, w = int(first[1]) - 1, int(first[2]) - 1, int(first[3])
    row = slice(G.indptr[u], G.indptr[u + 1])
    assert w in G.weights[row][G.indices[row] == v]


def test_read_snap_files_by_compiled_code():
    """email-Enron's 367,662 lines read with a number of Python calls that does not grow with the lines."""
    path = data_file("email-Enron.txt")
    graphs.read(path)  # warm the kernels
    G, calls = python_calls(graphs.read, path)
    assert (G.n, G.nnz, G.directed, G.weights) == (36692, 367660, True, None)  # the file's arc lines
    assert calls < 20_000, f"email-Enron: {calls} Python calls"
    F = graphs.read(data_file("facebook_combined.txt"))
    assert (F.n, F.num_edges, F.directed) == (4039, 88234, False)


@st.composite
def small_graphs(draw):
    n = draw(st.integers(0, 9))
    m = draw(st.integers(0, 20)) if n else 0
    src = np.asarray(draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m)), dtype=np.int64)
    dst = np.asarray(draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m)), dtype=np.int64)
    kind = draw(st.sampled_from(["none", "int", "float"]))
    w = None
    if kind == "int":
        w = np.asarray(draw(st.lists(st.integers(-50, 10**12), min_size=m, max_size=m)), dtype=np.int64)
    elif kind == "float":
        w = np.asarray(draw(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=m, max_size=m)))
    directed = draw(st.booleans())
    return Graph.from_edges(src, dst, w, n=n, directed=directed)


def same_graph(G: Graph, H: Graph) -> None:
    assert (H.n, H.nnz, H.directed) == (G.n, G.nnz, G.directed)
    np.testing.assert_array_equal(H.indptr, G.indptr)
    np.testing.assert_array_equal(H.indices, G.indices)
    if G.weights is None or G.nnz == 0:
        assert H.weights is None or G.nnz == 0
    else:
        assert H.weights.dtype == G.weights.dtype
        # Parallel arcs may come back in another order: compare the sorted weights per row.
        for i in range(G.n):
            a, b = G.indptr[i], G.indptr[i + 1]
            key_g = np.lexsort((G.weights[a:b], G.indices[a:b]))
            key_h = np.lexsort((H.weights[a:b], H.indices[a:b]))
            np.testing.assert_array_equal(H.weights[a:b][key_h], G.weights[a:b][key_g])


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(small_graphs(), st.sampled_from(["g.txt", "g.mtx", "g.mtx.gz", "g.txt.gz"]))
def test_round_trip(tmp_path, G, name):
    path = tmp_path / name
    graphs.write(G, path)
    # Weights read as float64 unless dtype= asks for the graph's own dtype.
    dtype = None if G.weights is None else G.weights.dtype
    same_graph(G, graphs.read(path, dtype=dtype))
    H = graphs.read(path)
    if G.weights is not None and G.nnz:
        assert H.weights.dtype == np.float64
        if G.weights.dtype.kind == "f" or np.abs(G.weights).max() <= 2**53:
            same_graph(Graph(G.indptr, G.indices, G.weights.astype(np.float64), directed=G.directed), H)


@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(small_graphs())
def test_round_trip_dimacs(tmp_path, G):
    if G.weights is not None and G.weights.dtype.kind == "f":
        G = Graph(G.indptr, G.indices, np.round(G.weights).astype(np.int64), directed=G.directed)
    path = tmp_path / "g.gr.gz"
    graphs.write(G, path)
    H = graphs.read(path, dtype=np.int64)
    W = G if G.weights is not None else Graph(G.indptr, G.indices, np.ones(G.nnz, np.int64))
    if not G.directed:
        W = Graph(W.indptr, W.indices, W.weights, directed=True)
    same_graph(W, H)


def test_gzip_detected_by_content(tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(gzip.compress(b"0 1\n1 2\n"))
    assert graphs.read(path).nnz == 2


def test_write_rejects_fractional_dimacs_weights(tmp_path):
    G = Graph.from_edges([0], [1], [0.5])
    with pytest.raises(GraphFormatError, match="DIMACS weights are integers"):
        graphs.write(G, tmp_path / "g.gr")


BAD = [
    ("x.gr", "c hi\np sp 3 2\na 1 2 7\na 2 3\n", 4, "expected 3 fields, got 2"),
    ("x.gr", "c hi\na 1 2 7\np sp 3 1\n", 2, "no 'p sp N M' line|an arc before"),
    ("x.gr", "p sp 3 2\na 1 2 7\n", 1, "announces 2 arcs, the file has 1"),
    ("x.gr", "p sp 3 1\na 1 4 7\n", 2, "DIMACS vertex ids must be in 1..3"),
    ("x.gr", "p sp 3 1\nq 1 2 7\n", 2, "starts with 'c', 'p' or 'a'"),
    ("x.gr", "p sp 3 1\na 1 2 seven\n", 2, "'seven' is not"),
    ("x.gr", "p sp three 1\na 1 2 7\n", 1, "expected 'p sp N M'"),
    ("x.txt", "# c\n0 1\n1 2 3\n", 3, "expected 2 fields, got 3"),
    ("x.txt", "# c\n0 1\n1 -2\n", 3, "SNAP vertex ids must be >= 0"),
    ("x.txt", "# c\n0 1\n1 2.5\n", 3, "'2.5' is not an integer"),
    ("x.txt", "# c\n0 1 1\n1.5 2 2.5\n", 3, "vertex ids must be integers"),
    ("x.txt", "0 1 2 3\n", 1, "expected 'u v' or 'u v w'"),
    ("x.txt", "0 1 2\n1 0 x\n", 2, "'x' is not a number"),
    ("x.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1.0\n", 2, "announces 2 entries"),
    ("x.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n", 3, "index ids must be in 1..2"),
    ("x.mtx", "%%MatrixMarket matrix array real general\n2 2\n", 1, "coordinate"),
    ("x.mtx", "hello\n", 1, "starts with '%%MatrixMarket'"),
    ("x.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 0\n", 2, "square"),
    ("x.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 0\n", 1, "complex"),
]


@pytest.mark.parametrize("name,text,line,what", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_malformed_files_name_the_line(tmp_path, name, text, line, what):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(GraphFormatError, match=what) as info:
        graphs.read(path)
    assert info.value.line == line
    assert f"line {line}" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_extension_and_format(tmp_path):
    path = tmp_path / "g.xyz"
    path.write_text("0 1\n")
    with pytest.raises(GraphFormatError, match="pass format="):
        graphs.read(path)
    assert graphs.read(path, format="snap").nnz == 1
    with pytest.raises(GraphFormatError, match="unknown format"):
        graphs.read(path, format="gml")


def test_read_options(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("# Undirected graph\n0 1 2\n1 2 3\n")
    G = graphs.read(path)
    assert not G.directed and G.nnz == 4
    assert graphs.read(path, directed=True).nnz == 2
    assert graphs.read(path, dtype=np.float32).dtype == np.float32
    path.write_text("# Nodes: 10 Edges: 1\n0 1\n")
    assert graphs.read(path).n == 10
    gr = tmp_path / "g.gr"
    gr.write_text("p sp 2 1\na 1 2 4\n")
    U = graphs.read(gr, directed=False)
    assert not U.directed and U.nnz == 2
