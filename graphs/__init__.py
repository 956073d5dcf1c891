"""graphs: graph container, I/O, generators and traversal algorithms over semirings.

* :class:`Graph` (CSR, optional weights, CPU or GPU) and :func:`as_graph`
  (from scipy / cupyx sparse, dense arrays, NetworkX);
* :func:`read` / :func:`write`: DIMACS ``.gr``, SNAP edge lists, Matrix Market, ``.gz``;
* :mod:`graphs.generators`: Erdos-Renyi, R-MAT / Kronecker, SSCA#2, grids,
  road-like networks, random DAGs (seeded; CPU and GPU);
* :func:`bfs` (direction-optimising), :func:`st_connectivity` (bidirectional),
  :func:`sssp` (Bellman-Ford, delta-stepping, Dijkstra, label-correcting),
  :func:`multi_source_sssp` (many sources / sparse APSP, Johnson reweighting),
  :func:`distance_matrix` (origins x destinations, each search stopping at its
  targets; CPU threads or batched GPU searches),
  :func:`shortest_path` (one route: bidirectional Dijkstra, A* with coordinates),
  :func:`k_shortest_paths` (the k shortest loopless routes: Yen, a round of
  spur searches per batch),
  :func:`connected_components` (weak and strong),
  :func:`minimum_spanning_tree` (Boruvka; a :class:`SpanningForest`),
  :func:`maximum_flow` (push-relabel; the flow, its value and a minimum cut);
* :func:`betweenness_centrality`, :func:`edge_betweenness_centrality` (Brandes,
  exact or sampled, bit-parallel batches of sources) and the distance statistics
  :func:`closeness_centrality`, :func:`harmonic_centrality`, :func:`eccentricity`,
  :func:`diameter`, :func:`radius`, :func:`center`, :func:`periphery`;
* :func:`all_pairs_shortest_paths`: all pairs by the route that fits (dense
  closure, or one search per source into an array or a memmap on disk).

The algorithms are sparse semiring products in disguise (see
:mod:`semiring.sparse`); on the GPU their kernels and drivers live in
:mod:`graphs.cuda` (``bfs.cu`` / :mod:`graphs.cuda.bfs`, ``sssp.cu`` /
:mod:`graphs.cuda.sssp`, ``components.cu`` / :mod:`graphs.cuda.components`, ``spanning_tree.cu`` /
:mod:`graphs.cuda.spanning_tree`, ``flow.cu`` / :mod:`graphs.cuda.flow`), and
share their warp-level helpers with the sparse semiring kernels through
``semiring/cuda/sparse_device.cuh``.

>>> import graphs
>>> G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
>>> G.to_dense()
array([[ 0.,  1., inf],
       [inf,  0.,  2.],
       [inf, inf,  0.]])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from semiring.lazy import lazy_attributes

if TYPE_CHECKING:
    from semiring import __version__  # one version for the whole distribution

    from . import generators
    from .centrality.distance_measures import (
        center,
        closeness_centrality,
        diameter,
        eccentricity,
        harmonic_centrality,
        periphery,
        radius,
    )
    from .centrality.scores import betweenness_centrality, edge_betweenness_centrality
    from .errors import CapacityError, GraphError, GraphFormatError, NegativeCycleError, VertexError, VertexTypeError
    from .flow import FlowResult, maximum_flow
    from .graph import Graph, as_graph
    from .io import read, write
    from .paths.all_pairs import all_pairs_shortest_paths, plan_all_pairs
    from .paths.distance_matrix import distance_matrix, plan_distance_matrix
    from .paths.dynamic import DynamicSSSP
    from .paths.k_shortest import k_shortest_paths
    from .paths.single_pair import ShortestPath, shortest_path
    from .paths.sssp import multi_source_sssp, sssp
    from .traversal.components import connected_components
    from .traversal.search import bfs, st_connectivity
    from .trees.spanning_tree import SpanningForest, minimum_spanning_tree

# Each public name and the module that defines it, imported on first use (semiring.lazy, PEP 562):
# `import graphs` loads neither Numba nor SciPy; `graphs.bfs` loads what a search needs.
__getattr__, __dir__ = lazy_attributes(__name__, {
    "__version__": "semiring",  # one version for the whole distribution
    "generators": ".generators",
    **dict.fromkeys(["center", "closeness_centrality", "diameter", "eccentricity", "harmonic_centrality",
                     "periphery", "radius"], ".centrality.distance_measures"),
    **dict.fromkeys(["betweenness_centrality", "edge_betweenness_centrality"], ".centrality.scores"),
    **dict.fromkeys(["CapacityError", "GraphError", "GraphFormatError", "NegativeCycleError", "VertexError",
                     "VertexTypeError"], ".errors"),
    **dict.fromkeys(["FlowResult", "maximum_flow"], ".flow"),
    **dict.fromkeys(["Graph", "as_graph"], ".graph"),
    **dict.fromkeys(["read", "write"], ".io"),
    **dict.fromkeys(["all_pairs_shortest_paths", "plan_all_pairs"], ".paths.all_pairs"),
    **dict.fromkeys(["distance_matrix", "plan_distance_matrix"], ".paths.distance_matrix"),
    "DynamicSSSP": ".paths.dynamic",
    "k_shortest_paths": ".paths.k_shortest",
    **dict.fromkeys(["ShortestPath", "shortest_path"], ".paths.single_pair"),
    **dict.fromkeys(["multi_source_sssp", "sssp"], ".paths.sssp"),
    "connected_components": ".traversal.components",
    **dict.fromkeys(["bfs", "st_connectivity"], ".traversal.search"),
    **dict.fromkeys(["SpanningForest", "minimum_spanning_tree"], ".trees.spanning_tree"),
})

__all__ = [
    "__version__",
    "Graph",
    "as_graph",
    "read",
    "write",
    "generators",
    "bfs",
    "st_connectivity",
    "sssp",
    "multi_source_sssp",
    "distance_matrix",
    "plan_distance_matrix",
    "DynamicSSSP",
    "shortest_path",
    "ShortestPath",
    "k_shortest_paths",
    "all_pairs_shortest_paths",
    "plan_all_pairs",
    "connected_components",
    "betweenness_centrality",
    "edge_betweenness_centrality",
    "closeness_centrality",
    "harmonic_centrality",
    "eccentricity",
    "diameter",
    "radius",
    "center",
    "periphery",
    "minimum_spanning_tree",
    "SpanningForest",
    "maximum_flow",
    "FlowResult",
    "GraphError",
    "GraphFormatError",
    "VertexError",
    "VertexTypeError",
    "CapacityError",
    "NegativeCycleError",
]
