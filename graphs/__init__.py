"""graphs: graph container, I/O, generators and traversal algorithms over semirings.

* :class:`Graph` (CSR, optional weights, CPU or GPU) and :func:`as_graph`
  (from scipy / cupyx sparse, dense arrays, NetworkX);
* :func:`read` / :func:`write`: DIMACS ``.gr``, SNAP edge lists, Matrix Market, ``.gz``;
* :mod:`graphs.generators`: Erdos-Renyi, R-MAT / Kronecker, SSCA#2, grids,
  road-like networks, random DAGs (seeded; CPU and GPU);
* :func:`bfs` (direction-optimising), :func:`st_connectivity` (bidirectional),
  :func:`sssp` (Bellman-Ford, delta-stepping, Dijkstra, label-correcting),
  :func:`multi_source_sssp` (many sources / sparse APSP, Johnson reweighting),
  :func:`connected_components` (weak and strong);
* :func:`maximum_flow` (push-relabel; the flow, its value and a minimum cut).

The algorithms are sparse semiring products in disguise (see
:mod:`semiring.sparse`); on the GPU their kernels and drivers live in
:mod:`graphs.cuda` (``bfs.cu`` / :mod:`graphs.cuda.bfs`, ``sssp.cu`` /
:mod:`graphs.cuda.sssp`, ``components.cu`` / :mod:`graphs.cuda.components`,
``flow.cu`` / :mod:`graphs.cuda.flow`), and
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

from . import generators
from .components import connected_components
from .errors import CapacityError, GraphError, GraphFormatError, NegativeCycleError, VertexError
from .flow import FlowResult, maximum_flow
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
    "maximum_flow",
    "FlowResult",
    "GraphError",
    "GraphFormatError",
    "VertexError",
    "CapacityError",
    "NegativeCycleError",
]
