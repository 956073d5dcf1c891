"""Conversions and path helpers of :mod:`graphs.csgraph`: SciPy's, accepting CuPy inputs too.

``csgraph_from_dense``, ``csgraph_to_dense``, ``csgraph_from_masked``,
``csgraph_masked_from_dense`` and ``csgraph_to_masked`` are SciPy's own
functions (re-exported: they are conversions, SciPy's C code is what they
should be).  :func:`reconstruct_path` and :func:`construct_dist_matrix` call
SciPy's (bound when this module is imported, so a later replacement of SciPy's
names, as the conformance run of SciPy's tests makes, does not reach them), and
accept CuPy / ``cupyx`` inputs (computed on a host copy, returned on the GPU).
Their arrays' dtypes are checked first, at the drop-in's door
(:func:`~graphs.csgraph._input.check_numbers`,
:func:`~graphs.csgraph._input.check_predecessors`): a dtype SciPy refuses is
the ``TypeError`` SciPy raises, from the drop-in, naming the argument.
"""

from __future__ import annotations

from typing import Any

from scipy.sparse.csgraph import construct_dist_matrix as _scipy_construct_dist_matrix
from scipy.sparse.csgraph import (
    csgraph_from_dense,
    csgraph_from_masked,
    csgraph_masked_from_dense,
    csgraph_to_dense,
    csgraph_to_masked,
)
from scipy.sparse.csgraph import reconstruct_path as _scipy_reconstruct_path

from ._input import check_numbers, check_predecessors, is_gpu_input, to_host

__all__ = ["reconstruct_path", "construct_dist_matrix", "csgraph_from_dense", "csgraph_to_dense",
           "csgraph_from_masked", "csgraph_masked_from_dense", "csgraph_to_masked"]


def reconstruct_path(csgraph: Any, predecessors: Any, directed: bool = True) -> Any:
    """The tree of a predecessor list as a sparse graph; mirrors ``scipy.sparse.csgraph.reconstruct_path``.

    SciPy's function of the same name (same parameters, results and errors);
    added: CuPy / ``cupyx`` inputs, computed on a host copy and returned as a
    ``cupyx.scipy.sparse.csr_matrix``.

    Parameters
    ----------
    csgraph : array_like or sparse matrix (N, N)
    predecessors : int array (N,)
        ``-9999`` (or any negative value) where there is no predecessor.
    directed : bool

    Returns
    -------
    csr_array (csr_matrix for matrix inputs; cupyx csr_matrix for CuPy inputs)

    Examples
    --------
    >>> import numpy as np
    >>> from graphs import csgraph
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [0, 0, 0, 3], [0, 0, 0, 0]])
    >>> csgraph.reconstruct_path(G, np.array([-9999, 0, 0, 1]), directed=True).toarray()
    array([[0., 1., 2., 0.],
           [0., 0., 0., 1.],
           [0., 0., 0., 0.],
           [0., 0., 0., 0.]])
    """
    check_numbers(csgraph, "csgraph")
    check_predecessors(predecessors, exact_int32=False)
    gpu = is_gpu_input(csgraph) or is_gpu_input(predecessors)
    T = _scipy_reconstruct_path(to_host(csgraph), to_host(predecessors), directed)
    if gpu:
        import cupyx.scipy.sparse as csp

        return csp.csr_matrix(T)
    return T


def construct_dist_matrix(graph: Any, predecessors: Any, directed: bool = True, null_value: float = float("inf")) -> Any:
    """Distances along the paths of a predecessor matrix; mirrors ``scipy.sparse.csgraph.construct_dist_matrix``.

    SciPy's function of the same name (same parameters, results and errors);
    added: CuPy / ``cupyx`` inputs, computed on a host copy and returned as a
    CuPy array.

    Parameters
    ----------
    graph : array_like or sparse matrix (N, N)
    predecessors : int array (N, N)
    directed : bool
    null_value : float
        The distance where there is no path.

    Returns
    -------
    ndarray (N, N) of float64

    Examples
    --------
    >>> import numpy as np
    >>> from graphs import csgraph
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> D, P = csgraph.shortest_path(G, return_predecessors=True)
    >>> np.array_equal(csgraph.construct_dist_matrix(G, P), D)
    True
    """
    check_numbers(graph, "graph")
    check_predecessors(predecessors, exact_int32=True)
    gpu = is_gpu_input(graph) or is_gpu_input(predecessors)
    D = _scipy_construct_dist_matrix(to_host(graph), to_host(predecessors), directed, null_value)
    if gpu:
        import cupy as cp

        return cp.asarray(D)
    return D
