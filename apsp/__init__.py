"""apsp: all-pairs shortest paths and closures of dense matrices over semirings.

The closure ``A* = I (+) A (+) A^2 (+) ...`` of an ``n x n`` matrix over an
idempotent semiring answers every all-pairs path problem at once: shortest
paths (``min_plus``), reachability (``lor_land``), widest paths
(``max_min``), minimax paths (``min_max``), most reliable paths
(``max_times``).  The algorithms (R-Kleene, blocked Floyd-Warshall, repeated
squaring, the reference Floyd-Warshall) do their ``O(n^3)`` work in the GEMM
kernels of :mod:`semiring`, on the CPU or, for CuPy arrays, on the GPU; a
matrix larger than the GPU's memory budget is streamed from host memory.

Importing the package registers :func:`closure` as the algorithm behind
:meth:`semiring.Semiring.closure` and ``SemiringArray.star()``
(:mod:`semiring.closure_hook`; an installed package is also found through its
``semiring_paths.closure`` entry point without being imported first).

>>> import numpy as np, apsp
>>> W = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 2.0], [-1.0, np.inf, 0.0]])
>>> D, P = apsp.shortest_paths(W, predecessors=True)
>>> D
array([[ 0.,  1.,  3.],
       [ 1.,  0.,  2.],
       [-1.,  0.,  0.]])
>>> apsp.path(P, 1, 0)
[1, 2, 0]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from semiring.closure_hook import register_closure
from semiring.lazy import lazy_attributes

if TYPE_CHECKING:
    from semiring import __version__  # one version for the whole distribution

    from .api import (
        METHODS,
        choose_method,
        closure,
        minimax_paths,
        prepare,
        shortest_paths,
        transitive_closure,
        widest_paths,
    )
    from .driver import solve
    from .dynamic_closure import Closure
    from .errors import NegativeCycleError
    from .paths.predecessors import path
    from .planner import Plan, PlanError, plan
    from .request import Request, prepared_matrix

# Each public name and the module that defines it, imported on first use (semiring.lazy, PEP 562).
__getattr__, __dir__ = lazy_attributes(__name__, {
    "__version__": "semiring",  # one version for the whole distribution
    **dict.fromkeys(["METHODS", "choose_method", "closure", "minimax_paths", "prepare", "shortest_paths",
                     "transitive_closure", "widest_paths"], ".api"),
    "solve": ".driver",
    "Closure": ".dynamic_closure",
    "NegativeCycleError": ".errors",
    "path": ".paths.predecessors",
    **dict.fromkeys(["Plan", "PlanError", "plan"], ".planner"),
    **dict.fromkeys(["Request", "prepared_matrix"], ".request"),
})

# By name: apsp.api (and NumPy, Numba) are imported when a closure is first asked for.
register_closure("apsp.api:closure")

__all__ = [
    "__version__",
    "METHODS",
    "Closure",
    "NegativeCycleError",
    "Plan",
    "PlanError",
    "Request",
    "choose_method",
    "closure",
    "minimax_paths",
    "path",
    "plan",
    "prepare",
    "prepared_matrix",
    "shortest_paths",
    "solve",
    "transitive_closure",
    "widest_paths",
]
