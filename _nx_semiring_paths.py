"""NetworkX backend information for ``semiring_paths`` (the ``networkx.backend_info`` entry point).

Every function computes NetworkX's answer exactly (values and their ``int`` /
``float`` types) or leaves the call to NetworkX: integers beyond int64 or path
sums that may leave it, ints mixed with finite floats where NetworkX's results
then mix types, and values that are not Python numbers are NetworkX's to compute.

NetworkX calls :func:`get_info` while it is being imported, so this module is
standalone: it imports nothing from the library (which would load NumPy
kernels and Numba); the backend itself lives in :mod:`graphs.nx_backend`.
"""

from __future__ import annotations

_DOCS = {
    "floyd_warshall_numpy": "R-Kleene closure over min-plus (apsp.shortest_paths) where every path sum is exact; "
    "else NetworkX's own recurrence (rounding float sums, NaN, -inf, negative cycles): float64, NetworkX's bits.",
    "floyd_warshall": "R-Kleene closure, or NetworkX's recurrence with its int/float types; negative cycles, NaN, "
    "-inf and bool weights go back to NetworkX.",
    "all_pairs_shortest_path_length": "One library BFS per source.",
    "all_pairs_dijkstra_path_length": "graphs.multi_source_sssp in blocks of sources; negative or NaN weights go back "
    "to NetworkX (checked before the generator is returned).",
    "single_source_shortest_path_length": "Direction-optimising BFS (graphs.bfs).",
    "single_source_dijkstra_path_length": "graphs.sssp (Dijkstra); inf weights as NetworkX's; negative or NaN weights "
    "go back to NetworkX.",
    "single_source_bellman_ford_path_length": "graphs.sssp (Bellman-Ford); negative cycles raise NetworkXUnbounded; "
    "-inf and negative float weights whose sums round go back to NetworkX.",
    "shortest_path_length": "Every combination of source, target, weight and method.",
    "has_path": "BFS from the source.",
    "bfs_edges": "NetworkX's edge order from the library's BFS levels; sort_neighbors and reverse on a "
    "directed graph go back to NetworkX.",
    "connected_components": "graphs.connected_components (weak); NetworkX's order.",
    "strongly_connected_components": "graphs.connected_components (strong); the same sets, ordered by first node.",
    "minimum_spanning_tree": "Boruvka (graphs.minimum_spanning_tree) on Kruskal's edge ranks (Python's order of "
    "the values, integers of any size): Kruskal's tree.",
    "maximum_flow_value": "Push-relabel (graphs.maximum_flow) in exact int64 on NetworkX's residual network; "
    "float capacities whose sums round, and flow_func, go back to NetworkX.",
    "minimum_cut_value": "The maximum flow value (graphs.maximum_flow).",
}

# The functions added with the NetworkX-order kernels (graphs/nx_backend/_order_kernels.py).
_ORDER = "NetworkX's visiting order reproduced on the library's distances/levels"
_DOCS.update({
    **{name: "Breadth-first order kernel (NetworkX's discovery order)." for name in (
        "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers", "single_source_shortest_path",
        "single_target_shortest_path", "single_target_shortest_path_length", "all_pairs_shortest_path",
        "predecessor")},
    **{name: "graphs.bfs (reachable sets)." for name in ("descendants", "ancestors", "descendants_at_distance")},
    **{name: "Depth-first event kernel (NetworkX's dfs_labeled_edges order)." for name in (
        "dfs_edges", "dfs_tree", "dfs_predecessors", "dfs_successors", "dfs_preorder_nodes",
        "dfs_postorder_nodes", "dfs_labeled_edges")},
    **{name: "graphs.connected_components." for name in (
        "number_connected_components", "is_connected", "node_connected_component",
        "number_strongly_connected_components", "is_strongly_connected", "weakly_connected_components",
        "number_weakly_connected_components", "is_weakly_connected", "condensation")},
    **{name: "graphs.sssp distances, NetworkX's Dijkstra pop order and parents (" + _ORDER + ")." for name in (
        "dijkstra_path", "dijkstra_path_length", "single_source_dijkstra", "single_source_dijkstra_path",
        "multi_source_dijkstra", "multi_source_dijkstra_path", "multi_source_dijkstra_path_length",
        "all_pairs_dijkstra", "all_pairs_dijkstra_path", "dijkstra_predecessor_and_distance", "astar_path",
        "astar_path_length", "johnson")},
    **{name: "graphs.sssp (Bellman-Ford); paths where they are the only shortest ones, else NetworkX." for name in (
        "bellman_ford_path", "bellman_ford_path_length", "single_source_bellman_ford",
        "single_source_bellman_ford_path", "all_pairs_bellman_ford_path", "all_pairs_bellman_ford_path_length",
        "bellman_ford_predecessor_and_distance", "goldberg_radzik", "negative_edge_cycle", "find_negative_cycle",
        "bidirectional_dijkstra")},
    "bidirectional_shortest_path": "NetworkX's alternating breadth-first search as one Numba pass.",
    "shortest_path": "Every combination of source, target, weight and method.",
    "average_shortest_path_length": "graphs.multi_source_sssp / graphs.bfs, exact sums.",
    **{name: "Kruskal's order on graphs.minimum_spanning_tree (edge ranks)." for name in (
        "maximum_spanning_tree", "minimum_spanning_edges", "maximum_spanning_edges")},
    **{name: "Push-relabel (graphs.maximum_flow); any of NetworkX's flow_func." for name in (
        "maximum_flow", "minimum_cut")},
    **{name: "Kahn's generations and a max-plus relaxation kernel." for name in (
        "dag_longest_path", "dag_longest_path_length", "is_directed_acyclic_graph")},
    **{name: "Boolean closure (apsp.transitive_closure, lor_land products)." for name in (
        "transitive_closure", "transitive_closure_dag", "transitive_reduction")},
    **{name: "Brandes over batches of sources (graphs.betweenness_centrality / edge_betweenness_centrality); "
       "k sources drawn as NetworkX draws them; zero weights and float weights whose sums may absorb one go back "
       "to NetworkX." for name in ("betweenness_centrality", "edge_betweenness_centrality")},
    **{name: "Bit-parallel BFS or multi-source Dijkstra reductions (graphs.closeness_centrality / "
       "harmonic_centrality); u, nbunch and sources by single-source searches." for name in (
        "closeness_centrality", "harmonic_centrality")},
    **{name: "graphs.eccentricity (bit-parallel BFS or multi-source Dijkstra), reduced as NetworkX reduces it; "
       "usebounds and sp go back to NetworkX." for name in ("eccentricity", "diameter", "radius", "center",
                                                           "periphery")},
    **{name: "NetworkX's walk over the backend's predecessor lists (NetworkX's order)." for name in (
        "all_shortest_paths", "single_source_all_shortest_paths", "all_pairs_all_shortest_paths")},
    **{name: "Arc counts against graphs.connected_components." for name in (
        "isolates", "number_of_isolates", "is_isolate", "is_tree", "is_forest", "is_branching", "is_arborescence")},
    **{name: "Strong components (graphs.connected_components), their condensation's arcs and Kahn's generations."
       for name in ("has_cycle", "is_semiconnected", "attracting_components", "number_attracting_components",
                    "is_attracting_component")},
    "is_aperiodic": "graphs.bfs levels; the gcd of level differences over all arcs.",
    "is_negatively_weighted": "The converted weight column.",
    "number_of_spanning_trees": "Kirchhoff's theorem, the determinant in exact integer arithmetic (Bareiss).",
    "barycenter": "Exact per-source sums of distances (NetworkX's ties); attr and sp go back to NetworkX.",
    "shortest_simple_paths": "The library's Yen loop (a round's spur searches in one batch on the CPU threads, "
    "Lawler's rule) with NetworkX's own bidirectional searches as Numba kernels: NetworkX's paths in NetworkX's "
    "order, computed ahead in batches; negative, NaN and inf weights go back to NetworkX.",
})

URL = "https://github.com/semiring-paths/semiring-paths"


def get_info() -> dict:
    """The dict NetworkX reads for the ``semiring_paths`` backend.

    Examples
    --------
    >>> info = get_info()
    >>> info["backend_name"], "floyd_warshall_numpy" in info["functions"]
    ('semiring_paths', True)
    """
    return {
        "backend_name": "semiring_paths",
        "project": "semiring-paths",
        "package": "semiring-paths",
        "url": URL,
        "short_summary": "Path problems as semiring linear algebra (Numba CPU kernels, CUDA through CuPy).",
        "functions": {
            name: {"additional_docs": doc, "url": f"{URL}/blob/main/graphs/nx_backend/"} for name, doc in _DOCS.items()
        },
    }
