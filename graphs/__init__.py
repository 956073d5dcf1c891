"""graphs: graph container, I/O, generators and traversal algorithms over semirings.

>>> import graphs
>>> G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
>>> G.to_dense()
array([[ 0.,  1., inf],
       [inf,  0.,  2.],
       [inf, inf,  0.]])
"""

from __future__ import annotations

from . import generators
from .components import connected_components
from .errors import GraphError, GraphFormatError, NegativeCycleError, VertexError
from .graph import Graph, as_graph
from .io import read, write
from .sssp import multi_source_sssp, sssp
from .traversal import bfs, st_connectivity

__all__ = [
    "Graph",
    "as_graph",
    "read",
    "write",
    "generators",
    "bfs",
    "st_connectivity",
    "sssp",
    "multi_source_sssp",
    "connected_components",
    "GraphError",
    "GraphFormatError",
    "VertexError",
    "NegativeCycleError",
]
