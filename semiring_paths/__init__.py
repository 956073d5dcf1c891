"""semiring-paths under its own name: the three packages of the distribution.

The distribution ``semiring-paths`` installs three packages, one per layer:
:mod:`semiring` (the algebra and its kernels), :mod:`apsp` (closures of dense
matrices: all-pairs shortest paths and their kin) and :mod:`graphs` (the graph
container, files, graph algorithms, the ``scipy.sparse.csgraph`` drop-in and the
NetworkX backend). This package gives them under the distribution's name, for
code that prefers one namespace or whose own modules are called ``graphs``::

    from semiring_paths import apsp, graphs, semiring

The attributes are the very same module objects as ``import semiring`` (and so
on) gives; nothing is copied or wrapped, and submodules are reached through
them (``graphs.csgraph``, ``semiring.min_plus``).

>>> import numpy as np
>>> from semiring_paths import apsp, graphs, semiring
>>> semiring.min_plus.matmul(np.array([[0.0, 1.0], [np.inf, 0.0]]), np.array([[0.0, 1.0], [np.inf, 0.0]]))
array([[ 0.,  1.],
       [inf,  0.]])
>>> apsp.shortest_paths(np.array([[0.0, 4.0], [1.0, 0.0]]))
array([[0., 4.],
       [1., 0.]])
>>> G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
>>> float(graphs.sssp(G, 0)[0][2])
3.0
>>> import semiring_paths
>>> semiring_paths.graphs is __import__("graphs")
True
"""

from __future__ import annotations

import apsp
import graphs
import semiring
from semiring import __version__

__all__ = ["__version__", "apsp", "graphs", "semiring"]
