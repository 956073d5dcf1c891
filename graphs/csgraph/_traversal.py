"""Traversals and connected components with SciPy's interface and SciPy's exact orders and labels.

``breadth_first_order`` / ``depth_first_order`` run sequential Numba kernels
(:mod:`graphs.csgraph._kernels`) over the very CSR arrays SciPy reads, in
SciPy's neighbour order (for ``directed=False`` the row, then the row of the
transpose), so node lists and predecessors equal SciPy's exactly.
``connected_components``: weak components reuse the library's union-find
(:mod:`graphs.traversal._cc_kernels`) and are numbered by their smallest vertex, as
SciPy's are; strong components run Pearce's variant of Tarjan's algorithm
with the installed SciPy's visiting order (successors in reverse CSR order up
to SciPy 1.17, in CSR order from 1.18; :func:`graphs.csgraph._kernels.strong_labels`),
because SciPy numbers them in the order its search completes them.  On
the GPU, weak components run on the device (:func:`graphs.connected_components`);
traversals and strong components run on a host copy and return CuPy arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import scipy.sparse as sp

from semiring.backend import to_device
from semiring.docstrings import fill, fill_template

from ..graph import Graph
from ..traversal import _cc_kernels as CC
from ..traversal.components import connected_components as _components
from . import _kernels as K
from ._input import (
    NULL,
    SCIPY_VERSION,
    check_sparse_shape,
    check_vertex_index,
    gpu_csr,
    is_gpu_input,
    resolve_device,
    scipy_csr,
    to_device_like,
    to_host,
)
from ._tools import reconstruct_path

__all__ = ["breadth_first_order", "depth_first_order", "breadth_first_tree", "depth_first_tree",
           "connected_components"]


def _csr_pair(csgraph: Any, directed: bool) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """SciPy's CSR (indptr, indices) of the graph and of its transpose (an empty one when directed)."""
    A = scipy_csr(to_host(csgraph), directed, dtype=None)
    n = A.shape[0]
    if directed:
        return n, A.indptr, A.indices, np.zeros(n + 1, dtype=A.indptr.dtype), A.indices[:0]
    T = A.T.tocsr()
    return n, A.indptr, A.indices, T.indptr, T.indices


def _order(kind: str, csgraph: Any, i_start: Any, directed: bool, return_predecessors: bool, device: str) -> Any:
    resolve_device(csgraph, device)
    gpu = is_gpu_input(csgraph)
    n, p1, i1, p2, i2 = _csr_pair(csgraph, directed)
    head = check_vertex_index(i_start, n, "i_start")
    node_list = np.empty(n, dtype=np.int32)  # only the first `length` entries are written and returned
    pred = np.full(n, NULL, dtype=np.int32)
    if kind == "bfs":
        length = K.breadth_first(head, p1, i1, p2, i2, node_list, pred, NULL)
    else:
        length = K.depth_first(head, p1, i1, p2, i2, node_list, pred)
    nodes = to_device_like(node_list[:length], gpu)
    if return_predecessors:
        return nodes, to_device_like(pred, gpu)
    return nodes


#: The docstring of the walks :func:`breadth_first_order`, :func:`depth_first_order`, :func:`breadth_first_tree`
#: and :func:`depth_first_tree`.
_WALK_DOC = """{summary} from ``i_start``; mirrors ``scipy.sparse.csgraph.{name}``.

    {notes}
    Parameters
    ----------
    csgraph : array_like, sparse matrix, CuPy array or cupyx sparse matrix (N, N)
    i_start : int
    directed : bool
    {predecessors}
    device : {"auto", "cpu", "gpu"}, keyword-only

    Returns
    -------
    {returns}

    Examples
    --------
    >>> from scipy.sparse import csr_array
    >>> from graphs import csgraph
    {example}
    """
_ORDER = dict(predecessors="return_predecessors : bool", returns="""node_array : int32 ndarray
predecessors : int32 ndarray (N,)
    With ``return_predecessors=True``.""",
              example=""">>> G = csr_array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
>>> csgraph.{name}(G, 0)
{result}""")
_TREE = dict(predecessors="", returns="csr_array (csr_matrix for matrix inputs)",
             example=""">>> X = csr_array([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]])
>>> csgraph.{name}(X, 0, directed=False).toarray().astype(int).tolist()
{result}""")
#: Each walk's kind (:data:`_ORDER`, :data:`_TREE`), summary, notes and example result, for :data:`_WALK_DOC`.
_WALKS = {
    "breadth_first_order": (_ORDER, "Breadth-first order", """\
Same parameters, defaults, results (the same node order and predecessors,
int32, ``-9999`` for none) as SciPy's function of the same name.  Added:
``device`` (CuPy inputs give CuPy results; the walk itself is sequential, on
the host), and an ``i_start`` outside the graph is a :class:`graphs.VertexError`
(a ``ValueError``; SciPy reads out of bounds).
""", "(array([0, 1, 2, 3], dtype=int32), array([-9999,     0,     0,     1], dtype=int32))"),
    "depth_first_order": (_ORDER, "Depth-first order", """\
Same parameters, defaults and results (the same order and predecessors) as
SciPy's function of the same name; added as in :func:`breadth_first_order`.
""", "(array([0, 1, 3, 2], dtype=int32), array([-9999,     0,     0,     1], dtype=int32))"),
    "breadth_first_tree": (_TREE, "The breadth-first tree", """\
SciPy's result (a sparse matrix of the tree's arcs with their weights);
added: ``device`` (CuPy inputs give a ``cupyx`` matrix).
""", "[[0, 8, 0, 3], [0, 0, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0]]"),
    "depth_first_tree": (_TREE, "The depth-first tree", """\
SciPy's result; added: ``device`` as in :func:`breadth_first_tree`.
""", "[[0, 8, 0, 0], [0, 0, 2, 0], [0, 0, 0, 6], [0, 0, 0, 0]]"),
}


_F = TypeVar("_F", bound=Callable[..., Any])


def _walk_doc(f: _F) -> _F:
    """Give the walk ``f`` its docstring: :data:`_WALK_DOC` filled from its entry in :data:`_WALKS`."""
    kind, summary, notes, result = _WALKS[f.__name__]
    example = fill(kind["example"], name=f.__name__, result=result)
    return fill_template(_WALK_DOC, predecessors=kind["predecessors"], returns=kind["returns"], example=example,
                  summary=summary, name=f.__name__, notes=notes + "\n")(f)


@_walk_doc
def breadth_first_order(csgraph: Any, i_start: int, directed: bool = True, return_predecessors: bool = True, *,
                        device: str = "auto") -> Any:
    return _order("bfs", csgraph, i_start, directed, return_predecessors, device)


@_walk_doc
def depth_first_order(csgraph: Any, i_start: int, directed: bool = True, return_predecessors: bool = True, *,
                      device: str = "auto") -> Any:
    return _order("dfs", csgraph, i_start, directed, return_predecessors, device)


@_walk_doc
def breadth_first_tree(csgraph: Any, i_start: int, directed: bool = True, *, device: str = "auto") -> Any:
    _, pred = breadth_first_order(csgraph, i_start, directed, True, device=device)
    return reconstruct_path(csgraph, pred, directed)


@_walk_doc
def depth_first_tree(csgraph: Any, i_start: int, directed: bool = True, *, device: str = "auto") -> Any:
    _, pred = depth_first_order(csgraph, i_start, directed, True, device=device)
    return reconstruct_path(csgraph, pred, directed)


def connected_components(csgraph: Any, directed: bool = True, connection: str = "weak", return_labels: bool = True, *,
                         device: str = "auto") -> Any:
    """Connected components; mirrors ``scipy.sparse.csgraph.connected_components``.

    Same parameters, defaults and results as SciPy's function of the same name,
    with SciPy's numbering of the labels (int32): weak components (and all
    components of an undirected graph) in the order of their smallest vertex,
    strong components in the order the installed SciPy's search completes them
    (its visiting order changed in SciPy 1.18; both are followed).  Added:
    ``device``; on the GPU weak components run on the device.

    Parameters
    ----------
    csgraph : array_like, sparse matrix, CuPy array or cupyx sparse matrix (N, N)
    directed : bool
    connection : {"weak", "strong"}
        Case-insensitive, as in SciPy.
    return_labels : bool
    device : {"auto", "cpu", "gpu"}, keyword-only

    Returns
    -------
    n_components : int
    labels : int32 ndarray (N,)
        With ``return_labels=True``.

    Raises
    ------
    ValueError
        Unknown ``connection``; not a square 2-D graph.

    Examples
    --------
    >>> from scipy.sparse import csr_array
    >>> from graphs import csgraph
    >>> G = csr_array([[0, 1, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]])
    >>> csgraph.connected_components(G, directed=False)
    (2, array([0, 0, 0, 1, 1], dtype=int32))
    >>> csgraph.connected_components(G, connection="strong")
    (5, array([2, 1, 0, 4, 3], dtype=int32))
    """
    if not isinstance(connection, str) or connection.lower() not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    if connection.lower() == "weak":
        directed = False
    dev = resolve_device(csgraph, device)
    gpu = is_gpu_input(csgraph)
    if dev == "gpu" and not directed:
        A = gpu_csr(csgraph if gpu else _to_cupyx(scipy_csr(csgraph, True)), np.float64)  # cupyx: floats only
        G = Graph(A.indptr, A.indices, None, directed=True)
        k, labels = _components(G, "weak")
        labels = labels.astype(np.int32, copy=False)
        if not gpu:
            labels = to_device(labels, "cpu")
        return (int(k), labels) if return_labels else int(k)
    host = to_host(csgraph)
    A = _strong_csr(host) if directed else scipy_csr(host, True, dtype=None)
    n = A.shape[0]
    if n == 0:
        k, labels = 0, np.zeros(0, dtype=np.int32)
    elif directed:
        labels = np.empty(n, dtype=np.int32)
        k = K.strong_labels(A.indptr, A.indices, labels, SCIPY_VERSION >= (1, 18))
    else:
        k, labels = CC.relabel_first_seen(CC.weak_labels(A.indptr, A.indices))
    labels = to_device_like(labels.astype(np.int32, copy=False), gpu)
    return (int(k), labels) if return_labels else int(k)


def _strong_csr(host: Any) -> Any:
    """The CSR the installed SciPy's strong components read.

    Up to SciPy 1.17 the float64 reading of :func:`scipy_csr` (rows of a
    non-float64 matrix sorted, duplicates summed); from 1.18 SciPy keeps the
    input's dtype, so a sparse input's rows stay in their stored order.
    """
    if SCIPY_VERSION >= (1, 18) and sp.issparse(host):
        check_sparse_shape(host.shape)
        return host.tocsr()
    return scipy_csr(host, True, dtype=None)


def _to_cupyx(A: Any) -> Any:
    import cupyx.scipy.sparse as csp

    return csp.csr_matrix(A)
