"""``minimum_spanning_tree`` with SciPy's interface and output layout, on the library's Boruvka kernels."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from ..graph import Graph
from ..trees import _mst_kernels as K
from ..trees.spanning_tree import forest_arcs_all_ties, forest_arcs_cpu
from ._input import from_pydata, gpu_csr, is_gpu_input, like_pydata, resolve_device, scipy_csr, to_host
from ._kernels import row_starts

__all__ = ["minimum_spanning_tree", "kruskal_ranks"]


def minimum_spanning_tree(csgraph: Any, overwrite: bool = False, *, device: str = "auto") -> Any:
    """Minimum spanning tree (forest) of an undirected graph; mirrors ``scipy.sparse.csgraph.minimum_spanning_tree``.

    Same parameters, defaults and result as SciPy's function of the same name:
    an ``(N, N)`` float64 CSR matrix holding each tree edge once, at the input
    entry that was chosen (``csr_matrix`` for ``np.matrix`` / ``spmatrix``
    inputs, ``csr_array`` otherwise); edges of weight 0 are dropped from the
    output, as SciPy's ``eliminate_zeros`` drops them.

    The tree is computed by :func:`graphs.minimum_spanning_tree`'s Boruvka
    kernels over the stored entries in SciPy's CSR order, each entry its own
    candidate edge, under the strict order ``(weight, CSR position)``.  SciPy's
    Kruskal sorts the entries stably by weight, i.e. by the same order, and the
    minimum spanning forest under a strict order is unique; so the chosen
    entries are SciPy's exactly, ties included.  Entries of weight ``+inf``
    or NaN are edges too, as in SciPy: they come last in its sort (NaN after
    ``+inf``), so the kernels then run on each entry's rank in that stable sort.  When every entry weighs the
    same (a boolean or unweighted matrix), that order is the CSR order itself
    and one union-find pass over the entries finds the forest (no sort, no
    float64 copy of the input).  The result holds only the tree's entries,
    built directly in the input's row order.

    A pydata ``sparse`` input gives an array of its class and fill value, as in
    SciPy.  Added: ``device`` (``cupyx`` / CuPy inputs run on the GPU and give a
    ``cupyx.scipy.sparse.csr_matrix``).  ``overwrite`` is accepted for
    compatibility; the input is never modified.

    Parameters
    ----------
    csgraph : array_like, sparse matrix, pydata sparse array, CuPy array or cupyx sparse matrix (N, N)
        Dense: 0 (and floats within 1e-8 of it), inf and NaN are no edge.
        Directed entries count as undirected edges.
    overwrite : bool
    device : {"auto", "cpu", "gpu"}, keyword-only

    Returns
    -------
    csr_array or csr_matrix (N, N), or the input's pydata class

    Raises
    ------
    ValueError
        Not a square 2-D graph.
    TypeError
        A dense input that does not hold numbers.

    Examples
    --------
    >>> from scipy.sparse import csr_array
    >>> from graphs import csgraph
    >>> X = csr_array([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]])
    >>> csgraph.minimum_spanning_tree(X).toarray().astype(int)
    array([[0, 0, 0, 3],
           [0, 0, 2, 5],
           [0, 0, 0, 0],
           [0, 0, 0, 0]])
    """
    original = csgraph
    csgraph = from_pydata(csgraph)
    dev = resolve_device(csgraph, device)
    gpu_in = is_gpu_input(csgraph)
    matrix = isinstance(original, (np.matrix, sp.spmatrix))  # SciPy's test, on the input as given
    if dev == "gpu":
        import cupy as cp
        import cupyx.scipy.sparse as csp

        from ..cuda.spanning_tree import minimum_spanning_tree_gpu

        A = gpu_csr(csgraph if gpu_in else csp.csr_matrix(scipy_csr(csgraph, True)), np.float64)
        w = A.data
        if not bool(cp.isfinite(w).all()) and bool((cp.isnan(w) | cp.isposinf(w)).any()):
            w = cp.asarray(kruskal_ranks(w.get()))
        G = Graph(A.indptr, A.indices, w, directed=True)
        arcs = minimum_spanning_tree_gpu(G)
        data = cp.zeros_like(A.data)
        data[arcs] = A.data[arcs]
        T = csp.csr_matrix((data, A.indices.copy(), A.indptr.copy()), shape=A.shape)
        T.eliminate_zeros()
        if gpu_in:
            return T
        return T.get() if matrix else like_pydata(sp.csr_array(T.get()), original)
    X = to_host(csgraph)
    A = scipy_csr(X, True, dtype=None)  # SciPy's CSR, not converted yet
    raw = A.data
    if raw.dtype.kind in "biuf" and K.all_equal(raw):
        # Every entry weighs the same (a boolean or unweighted matrix): Kruskal in CSR order, no float copy.
        arcs = forest_arcs_all_ties(A.indptr, A.indices, False)
        data = raw[arcs].astype(np.float64)
    else:
        A = A.astype(np.float64, copy=False)
        w = A.data
        if not bool(np.isfinite(w).all()) and bool((np.isnan(w) | np.isposinf(w)).any()):
            w = kruskal_ranks(w)
        G = Graph(A.indptr, A.indices, w, directed=True)
        arcs = forest_arcs_cpu(G)
        data = A.data[arcs]
    keep = data != 0  # SciPy's eliminate_zeros
    if not keep.all():
        arcs, data = arcs[keep], data[keep]
    # Only the tree's entries, in the input's CSR order: row r holds the arcs in [indptr[r], indptr[r + 1]).
    indptr = np.empty_like(A.indptr)
    row_starts(arcs, A.indptr, indptr)
    T = (sp.csr_matrix if matrix and not gpu_in else sp.csr_array)((data, A.indices[arcs], indptr), shape=A.shape)
    if gpu_in:
        import cupyx.scipy.sparse as csp

        return csp.csr_matrix(T)
    return like_pydata(T, original)


def kruskal_ranks(w: np.ndarray) -> np.ndarray:
    """Each entry's position (int64) in SciPy's Kruskal order: ``np.argsort(w, kind="stable")``, NaN last.

    Distinct integer weights in the same order as SciPy's sort, for weights
    that the forest kernels do not take (``+inf``, NaN).

    Examples
    --------
    >>> kruskal_ranks(np.array([2.0, np.nan, np.inf, -1.0, 2.0]))
    array([1, 4, 3, 0, 2])
    """
    order = np.argsort(w, kind="stable")
    ranks = np.empty(w.shape[0], dtype=np.int64)
    ranks[order] = np.arange(w.shape[0], dtype=np.int64)
    return ranks
