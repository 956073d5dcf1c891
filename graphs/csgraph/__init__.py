"""A drop-in for ``scipy.sparse.csgraph`` on this library's engines, on the CPU and the GPU.

Change ``from scipy.sparse import csgraph`` to ``from graphs import csgraph``:
every public name of SciPy's module (SciPy 1.17) is here, with SciPy's
signatures, defaults, input conventions (dense zeros, entries within ``1e-8``
of zero, infinities and NaN are no edge; sparse explicit zeros are edges;
``-9999`` marks a missing predecessor), output shapes and dtypes, and
exception types.  pydata ``sparse`` arrays are read as SciPy reads them, and
the functions that return a graph return the input's pydata class.

* Path problems run on this library: ``shortest_path`` / ``floyd_warshall``
  (dense closure, :func:`apsp.shortest_paths`), ``dijkstra`` / ``johnson`` /
  ``bellman_ford`` (:func:`graphs.multi_source_sssp`), ``yen`` (the k shortest
  paths engine of :func:`graphs.k_shortest_paths`), ``breadth_first_order``
  / ``depth_first_order`` (SciPy's exact orders, Numba), ``connected_components``
  (SciPy's label numbering), ``minimum_spanning_tree`` (the same tree as SciPy,
  ties included), ``maximum_flow`` (exact int64 capacities).
* Added, keyword-only: ``dtype=`` (float32 distances halve the memory) on the
  shortest-path functions, ``device=`` ("auto" | "cpu" | "gpu") on all of them.
  CuPy arrays and ``cupyx.scipy.sparse`` matrices run on the GPU and give CuPy
  results.
* ``NegativeCycleError`` is SciPy's class itself, so ``except
  csgraph.NegativeCycleError`` also catches SciPy's own functions' errors;
  the negative cycles this module reports (``yen``'s included) are a subclass
  of it that is also :class:`graphs.NegativeCycleError` (a ``ValueError``).
* The other names (``laplacian``, matchings, ``reverse_cuthill_mckee``,
  ``structural_rank``, the conversions ``csgraph_from_dense`` ...) are
  SciPy's own, re-exported.

This subpackage is not imported by ``import graphs`` (it would import SciPy's
csgraph eagerly); ``from graphs import csgraph`` or ``import graphs.csgraph``
loads it.

>>> import numpy as np
>>> from graphs import csgraph
>>> csgraph.shortest_path(np.array([[0, 1, 0], [0, 0, 2], [0, 0, 0]]))
array([[ 0.,  1.,  3.],
       [inf,  0.,  2.],
       [inf, inf,  0.]])
"""

from __future__ import annotations

from scipy.sparse.csgraph import (
    laplacian,
    maximum_bipartite_matching,
    min_weight_full_bipartite_matching,
    reverse_cuthill_mckee,
    structural_rank,
    test,  # noqa: F401  (SciPy's test runner of its csgraph: every public name of SciPy's module is here)
)

from ._flow import MaximumFlowResult, maximum_flow
from ._input import NegativeCycleError
from ._shortest_path import bellman_ford, dijkstra, floyd_warshall, johnson, shortest_path, yen
from ._spanning_tree import minimum_spanning_tree
from ._tools import (
    construct_dist_matrix,
    csgraph_from_dense,
    csgraph_from_masked,
    csgraph_masked_from_dense,
    csgraph_to_dense,
    csgraph_to_masked,
    reconstruct_path,
)
from ._traversal import (
    breadth_first_order,
    breadth_first_tree,
    connected_components,
    depth_first_order,
    depth_first_tree,
)

__all__ = [
    "connected_components",
    "laplacian",
    "shortest_path",
    "floyd_warshall",
    "dijkstra",
    "bellman_ford",
    "johnson",
    "yen",
    "breadth_first_order",
    "depth_first_order",
    "breadth_first_tree",
    "depth_first_tree",
    "minimum_spanning_tree",
    "reverse_cuthill_mckee",
    "maximum_flow",
    "maximum_bipartite_matching",
    "min_weight_full_bipartite_matching",
    "structural_rank",
    "construct_dist_matrix",
    "reconstruct_path",
    "csgraph_masked_from_dense",
    "csgraph_from_dense",
    "csgraph_from_masked",
    "csgraph_to_dense",
    "csgraph_to_masked",
    "NegativeCycleError",
    "MaximumFlowResult",
]
