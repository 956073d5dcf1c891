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
from .errors import GraphError, GraphFormatError, NegativeCycleError, VertexError
from .graph import Graph, as_graph
from .io import read, write

__all__ = [
    "Graph",
    "as_graph",
    "read",
    "write",
    "generators",
    "GraphError",
    "GraphFormatError",
    "VertexError",
    "NegativeCycleError",
]
