"""NetworkX backend information for ``semiring_paths`` (the ``networkx.backend_info`` entry point).

NetworkX calls :func:`get_info` while it is being imported, so this module is
standalone: it imports nothing from the library (which would load NumPy
kernels and Numba); the backend itself lives in :mod:`graphs.nx_backend`.
"""

from __future__ import annotations

_DOCS = {
    "floyd_warshall_numpy": "R-Kleene closure over min-plus (apsp.shortest_paths); float64 as NetworkX.",
    "floyd_warshall": "R-Kleene closure; a negative cycle goes back to NetworkX (its answer is order-dependent).",
    "all_pairs_shortest_path_length": "One library BFS per source.",
    "all_pairs_dijkstra_path_length": "graphs.multi_source_sssp in blocks of sources; negative weights go back to NetworkX.",
    "single_source_shortest_path_length": "Direction-optimising BFS (graphs.bfs).",
    "single_source_dijkstra_path_length": "graphs.sssp (Dijkstra); negative weights go back to NetworkX.",
    "single_source_bellman_ford_path_length": "graphs.sssp (Bellman-Ford); negative cycles raise NetworkXUnbounded.",
    "shortest_path_length": "Every combination of source, target, weight and method.",
    "has_path": "BFS from the source.",
    "bfs_edges": "NetworkX's edge order from the library's BFS levels; sort_neighbors and reverse on a "
    "directed graph go back to NetworkX.",
    "connected_components": "graphs.connected_components (weak); NetworkX's order.",
    "strongly_connected_components": "graphs.connected_components (strong); the same sets, ordered by first node.",
    "minimum_spanning_tree": "Boruvka (graphs.minimum_spanning_tree) on Kruskal's edge ranks: Kruskal's tree.",
    "maximum_flow_value": "Push-relabel (graphs.maximum_flow) on NetworkX's residual network; flow_func goes back to NetworkX.",
    "minimum_cut_value": "The maximum flow value (graphs.maximum_flow).",
}

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
