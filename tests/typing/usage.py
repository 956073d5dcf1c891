"""A user's code, type-checked in strict mode (``python3 -m mypy``: see ``[tool.mypy]`` in pyproject.toml).

Each function calls the public API as a user would and states, with
:func:`typing.assert_type`, the types a type checker infers for the results;
tests/test_typing.py also runs them, so the calls stay valid at run time.
Not a test module: pytest collects nothing from it.
"""

from __future__ import annotations

from typing import Any, assert_type

import numpy as np
from numpy.typing import NDArray

import apsp
import graphs
import semiring as sr
from graphs import csgraph
from semiring import Semiring, SemiringArray

Array = NDArray[Any] | Any  # semiring.array_types.Array: a NumPy array, or a CuPy one (Any)


def semiring_products() -> None:
    A = np.array([[0.0, 2.0, np.inf], [np.inf, 0.0, 3.0], [1.0, np.inf, 0.0]])
    assert_type(sr.min_plus, Semiring)
    C = sr.min_plus.matmul(A, A)
    assert_type(C, Array)
    C2, K = sr.min_plus.matmul(A, A, witness=True)
    assert_type(K, Array)
    assert_type(sr.get("max_plus"), Semiring)
    assert_type(sr.einsum("ij,jk->ik", A, A), Array)
    assert_type(sr.max_min.add(A, A), Array)
    assert_type(sr.min_plus.power(A, 3), Array)
    X = sr.min_plus.array(A)
    assert_type(X, SemiringArray)
    assert_type(X @ X, SemiringArray)
    assert_type(X.shape, tuple[int, ...])
    assert np.array_equal(C, C2)


def closures() -> None:
    W = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0], [-1.0, np.inf, 0.0]])
    D = apsp.shortest_paths(W)
    assert_type(D, Array)
    D2, P = apsp.shortest_paths(W, "rkleene", predecessors=True, device="cpu")
    assert_type(P, Array)
    assert_type(apsp.path(P, 1, 0), list[int])
    assert_type(apsp.prepare(W, "fw"), apsp.Request)
    C = apsp.Closure(W, predecessors=True)
    assert_type(C.distances, Array)
    assert_type(C.path(1, 0), list[int])
    assert np.array_equal(D, D2)
    assert np.array_equal(C.distances, D)


def graph_algorithms() -> None:
    G = graphs.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
    assert_type(G, graphs.Graph)
    dist, pred = graphs.sssp(G, 0, "dijkstra")
    assert_type(dist, Array)
    D, P = graphs.multi_source_sssp(G, [0, 1])
    assert_type(P, Array | None)
    levels, parents = graphs.bfs(G, 0, direction="push")
    assert_type(levels, Array)
    assert_type(graphs.bfs(G, 0, return_trace=True)[2], list[Any])
    assert_type(graphs.st_connectivity(G, 0, 2), tuple[int, Array])
    assert_type(graphs.connected_components(G, "strong"), tuple[int, Array])
    assert_type(graphs.shortest_path(G, 0, 2), graphs.ShortestPath)
    assert_type(graphs.k_shortest_paths(G, 0, 2, 2), list[graphs.ShortestPath])
    assert_type(graphs.betweenness_centrality(G), Array)
    assert_type(graphs.closeness_centrality(G), Array)
    assert_type(graphs.diameter(G), float)
    assert_type(graphs.minimum_spanning_tree(G), graphs.SpanningForest)
    assert_type(graphs.maximum_flow(G, 0, 2), graphs.FlowResult)
    assert_type(G.edges(), tuple[Array, Array, Array | None])
    M = graphs.distance_matrix(G, [0, 1], [2])
    assert_type(M, Array)
    M2, MP = graphs.distance_matrix(G, [0, 1], [2], predecessors=True)
    assert_type(MP, Array)
    assert_type(graphs.all_pairs_shortest_paths(G), Array)
    assert_type(csgraph.dijkstra(np.array([[0.0, 1.0], [0.0, 0.0]]), indices=0), Any)
    assert dist.shape == (3,)
    assert np.array_equal(M, M2)
