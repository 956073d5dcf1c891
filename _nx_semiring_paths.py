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
