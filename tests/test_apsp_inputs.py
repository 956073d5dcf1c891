"""apsp takes matrices and the __semiring_matrix__ protocol; graphs read by graphs.as_graph give the dense result; out=."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

import apsp
import graphs
import semiring as sr


def random_sparse(n: int, seed: int, density: float = 0.1):
    rng = np.random.default_rng(seed)
    A = sp.random_array((n, n), density=density, rng=rng, format="coo")
    A.data = np.round(A.data * 10)  # integer weights, some explicit zeros
    return A.tocsr()


def dense_of(A) -> np.ndarray:
    W = np.full(A.shape, np.inf)
    C = A.tocoo()
    np.minimum.at(W, (C.row, C.col), C.data)
    return W


@pytest.mark.parametrize("seed", [0, 1])
def test_every_graph_kind_read_by_graphs_gives_the_dense_result(seed):
    A = random_sparse(40, seed)
    expected = apsp.shortest_paths(dense_of(A))
    np.testing.assert_allclose(expected, shortest_path(A, method="D"))  # explicit zeros are arcs in both
    H = nx.DiGraph()
    H.add_nodes_from(range(40))
    C = A.tocoo()
    H.add_weighted_edges_from(zip(C.row.tolist(), C.col.tolist(), C.data.tolist()))
    inputs = {"csr_array": A, "csr_matrix": sp.csr_matrix(A), "coo": A.tocoo(), "networkx": H}
    for name, X in inputs.items():
        got = apsp.shortest_paths(graphs.as_graph(X))  # a graphs.Graph reaches apsp through __semiring_matrix__
        assert got.dtype == np.float64, name
        np.testing.assert_array_equal(got, expected, err_msg=name)
        np.testing.assert_array_equal(graphs.all_pairs_shortest_paths(X, dtype=np.float64), expected, err_msg=name)


@pytest.mark.parametrize("kind", ["csr_array", "csr_matrix", "coo", "networkx"])
def test_a_graph_given_to_apsp_is_a_type_error_naming_the_reader(kind):
    A = random_sparse(5, 0)
    X = {"csr_array": A, "csr_matrix": sp.csr_matrix(A), "coo": A.tocoo(), "networkx": nx.DiGraph(A)}[kind]
    with pytest.raises(TypeError, match=r"W must be a dense numpy/cupy array .*; got \w+ \(a sparse matrix or a "
                                        r"NetworkX graph is a graph: read it with graphs\.as_graph"):
        apsp.shortest_paths(X)


def test_networkx_default_weight_and_undirected_and_multigraph():
    H = nx.MultiGraph()
    H.add_edge("a", "b")  # weight 1 by default
    H.add_edge("b", "c", weight=5.0)
    H.add_edge("b", "c", weight=2.0)  # parallel: the minimum counts
    D = apsp.shortest_paths(graphs.as_graph(H))
    np.testing.assert_array_equal(D, [[0, 1, 3], [1, 0, 2], [3, 2, 0]])


def test_duplicates_in_a_coo_matrix_are_combined_by_the_semiring_add():
    A = sp.coo_array((np.array([5.0, 2.0]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
    np.testing.assert_array_equal(apsp.shortest_paths(graphs.as_graph(A)), [[0, 2], [np.inf, 0]])
    R = apsp.transitive_closure(graphs.as_graph(sp.csr_array(np.array([[0, 1], [0, 0]], dtype=bool))))
    np.testing.assert_array_equal(R, [[True, True], [False, True]])


def test_other_closures_take_graphs_too():
    A = sp.csr_array(np.array([[0, 3.0, 1.0], [0, 0, 2.0], [0, 0, 0]]))
    assert apsp.widest_paths(graphs.Graph.from_scipy(A).to_dense(sr.max_min))[0, 2] == 2.0
    assert apsp.minimax_paths(graphs.as_graph(A))[0, 2] == 1.0


def test_dtype_of_a_graph_input():
    G = graphs.Graph.from_edges([0, 1], [1, 2], [1, 2])
    D = apsp.shortest_paths(G, dtype=np.float32)
    assert D.dtype == np.float32
    np.testing.assert_array_equal(D, [[0, 1, 3], [np.inf, 0, 2], [np.inf, np.inf, 0]])
    assert apsp.shortest_paths(G).dtype == np.int64  # the weights' own dtype


@pytest.mark.parametrize("bad", [[[0.0, 1.0], [1.0, 0.0]], "W", 3.0, {"a": 1}])
def test_wrong_type_is_a_type_error_listing_what_is_accepted(bad):
    with pytest.raises(TypeError, match=r"W must be a dense numpy/cupy array .*__semiring_matrix__.*; got"):
        apsp.shortest_paths(bad)


def test_out_in_memory_and_memmap(tmp_path):
    A = random_sparse(50, 3)
    expected = apsp.shortest_paths(dense_of(A))
    out = np.empty((50, 50))
    assert apsp.shortest_paths(graphs.as_graph(A), out=out) is out
    np.testing.assert_array_equal(out, expected)
    mm = np.lib.format.open_memmap(tmp_path / "D.npy", mode="w+", dtype=np.float64, shape=(50, 50))
    assert apsp.shortest_paths(dense_of(A), out=mm) is mm
    mm.flush()
    np.testing.assert_array_equal(np.load(tmp_path / "D.npy"), expected)


def test_out_is_w_closes_in_place_and_still_names_a_cycle_vertex():
    W = dense_of(random_sparse(30, 4))
    expected = apsp.shortest_paths(W)
    assert apsp.shortest_paths(W, out=W) is W
    np.testing.assert_array_equal(W, expected)
    C = np.array([[0.0, 1.0], [-2.0, 0.0]])
    with pytest.raises(apsp.NegativeCycleError) as err:
        apsp.shortest_paths(C, out=C)
    assert err.value.vertex in (0, 1)


def test_negative_cycle_of_a_graph_input_lists_the_cycle():
    G = graphs.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, -3.0, 1.0])
    with pytest.raises(apsp.NegativeCycleError) as err:
        apsp.shortest_paths(G)
    assert sorted(err.value.cycle) == [0, 1, 2]


def test_bad_out():
    W = np.zeros((3, 3))
    with pytest.raises(TypeError, match="out"):
        apsp.shortest_paths(W, out=[[0.0] * 3] * 3)
    with pytest.raises(ValueError, match="shape"):
        apsp.shortest_paths(W, out=np.empty((2, 2)))
    with pytest.raises(ValueError, match="dtype"):
        apsp.shortest_paths(W, out=np.empty((3, 3), np.float32))


@pytest.mark.gpu
def test_cupy_sparse_and_cupy_graph_inputs_match_the_cpu():
    cp = pytest.importorskip("cupy")
    from semiring.backend import gpu_available

    if not gpu_available():  # pragma: no cover - depends on the machine
        pytest.skip("no usable CUDA GPU")
    import cupyx.scipy.sparse as csp

    A = random_sparse(60, 5)
    expected = apsp.shortest_paths(dense_of(A))
    got = apsp.shortest_paths(graphs.as_graph(csp.csr_matrix(A)))
    assert isinstance(got, cp.ndarray)
    np.testing.assert_array_equal(cp.asnumpy(got), expected)
    G = graphs.Graph.from_scipy(A).to("gpu")
    np.testing.assert_array_equal(cp.asnumpy(apsp.shortest_paths(G)), expected)
    np.testing.assert_array_equal(apsp.shortest_paths(graphs.as_graph(A), device="gpu"), expected)  # host in, out


@pytest.mark.gpu
@pytest.mark.parametrize("semiring,dtype", [("min_plus", np.float64), ("max_plus", np.float64),
                                            ("min_plus", np.int64), ("max_min", np.float32)])
def test_gpu_dense_matrix_of_parallel_arcs_is_bit_exact(semiring, dtype):
    """Parallel arcs meet in the semiring's add on the GPU exactly as on the CPU (float64 values that float32
    cannot hold, int64 values above 2**53), repeated positions included."""
    cp = pytest.importorskip("cupy")
    from semiring.backend import gpu_available

    if not gpu_available():  # pragma: no cover - depends on the machine
        pytest.skip("no usable CUDA GPU")
    rng = np.random.default_rng(int.from_bytes(__import__("os").urandom(4), "little"))
    n, m = 97, 4000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if np.dtype(dtype).kind == "i":
        w = rng.integers(2**53, 2**60, m).astype(dtype) | 1
    else:
        w = (rng.random(m) * 10 + 1 / 3).astype(dtype)
    G = graphs.Graph.from_edges(src, dst, w, n=n)
    want = G.to_dense(semiring)
    got = G.to("gpu").to_dense(semiring)
    assert isinstance(got, cp.ndarray)
    np.testing.assert_array_equal(cp.asnumpy(got), want)
