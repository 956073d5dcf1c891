"""The compiled floyd_warshall_numpy recurrence gives NetworkX's bits."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphs.nx_backend.shortest._fw_kernels import ordered_floyd_warshall
from graphs.nx_backend.shortest.shortest_paths import floyd_warshall_numpy  # noqa: F401 - the backend function under test

B = "semiring_paths"


def numpy_recurrence(A: np.ndarray) -> np.ndarray:
    """NetworkX's loop, verbatim."""
    with np.errstate(invalid="ignore", over="ignore"):
        for i in range(A.shape[0]):
            A = np.minimum(A, A[i, :][np.newaxis, :] + A[:, i][:, np.newaxis])
    return A


def bits(A: np.ndarray) -> np.ndarray:
    return A.view(np.int64)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 70), block=st.integers(1, 80),
       negative=st.booleans(), density=st.floats(0.05, 1.0))
def test_kernel_is_numpys_loop_bit_for_bit(seed, n, block, negative, density):
    rng = np.random.default_rng(seed)
    A = rng.random((n, n)) * 10 - (3 if negative else 0)  # negative: negative cycles too
    A[rng.random((n, n)) > density] = np.inf
    np.fill_diagonal(A, 0.0)
    A[A == 0] = 0.0  # no -0.0
    np.testing.assert_array_equal(bits(ordered_floyd_warshall(A.copy(), block=block)), bits(numpy_recurrence(A)))


@pytest.mark.parametrize("n", [131, 200])
def test_floyd_warshall_numpy_of_a_barabasi_albert_graph_with_float_weights(n):
    rng = np.random.default_rng(n)
    G = nx.barabasi_albert_graph(n, 3, seed=n)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.random()) * 3.7  # sums that round
    ours = nx.floyd_warshall_numpy(G, backend=B)
    theirs = nx.floyd_warshall_numpy(G)
    np.testing.assert_array_equal(bits(ours), bits(theirs))


@pytest.mark.parametrize("case", ["nan", "negative zero", "overflow to -inf"])
def test_values_the_kernel_leaves_to_numpy(case):
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 0.1), (1, 2, 0.2), (2, 0, 0.3), (2, 3, 0.7)])
    if case == "nan":
        G[0][1]["weight"] = float("nan")
    elif case == "negative zero":
        G[1][2]["weight"] = -0.0
    else:
        G.add_weighted_edges_from([(3, 4, -1.7e308), (4, 5, -1.7e308), (5, 6, 1e308)])
    ours = nx.floyd_warshall_numpy(G, backend=B)
    theirs = nx.floyd_warshall_numpy(G)
    np.testing.assert_array_equal(bits(ours), bits(theirs))
