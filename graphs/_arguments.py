"""Argument checks shared by the graph algorithms: vertex ids and labels, and the device to run on.

:func:`check_vertex` turns a vertex argument into an ``int`` in ``[0, n)``,
the one place where every graph algorithm (:mod:`graphs.traversal`,
:mod:`graphs.sssp`, :mod:`graphs.traversal.components`) checks its vertex arguments;
:func:`check_sources` reads a list of source vertices;
:func:`resolve_graph_device` moves a graph to the device an algorithm runs on.
Both sit here, below the algorithms that use them, so those import none of
each other for their argument handling.

Vertex arguments
    Vertex ids are **0-based**: ``0 .. n - 1``.  A file with 1-based ids
    (DIMACS ``.gr``, Matrix Market) is read with its id ``k`` as vertex
    ``k - 1``.  A vertex argument is a Python or NumPy integer (anything
    :func:`operator.index` accepts, e.g. ``np.int64(3)`` or a 0-d integer
    array); a float, even an integral one like ``1.0``, is a
    :class:`~graphs.errors.VertexTypeError` (a ``TypeError``), never truncated,
    and so is a bool.  When the graph carries :attr:`~graphs.Graph.node_labels`
    (from NetworkX) a vertex argument that is not an integer is looked up among
    the labels (``sssp(G, "v0")``), through a dictionary built once per graph;
    an integer is always a vertex id, even when the labels are integers too.
    An id outside ``[0, n)`` or an unknown label is a
    :class:`~graphs.errors.VertexError` naming the argument.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .errors import GraphError, VertexError, VertexTypeError
from .graph import Graph

__all__ = ["check_vertex", "check_vertex_array", "check_sources", "resolve_graph_device"]


def _numbering(G: Graph) -> str:
    """What the error messages say about the numbering of ``G``'s vertices."""
    base = G._cache.get("file_id_base")
    if base == 1:
        return " (ids are 0-based: the file's 1-based id k is vertex k - 1)"
    return " (ids are 0-based)"


def _label_index(G: Graph) -> dict:
    """``{label: id}`` of a labelled graph, built on first use and kept on the graph."""
    index = G._cache.get("label_index")
    if index is None:
        index = {}
        for i, label in enumerate(G.node_labels):
            try:
                index.setdefault(label, i)
            except TypeError:  # an unhashable label cannot be looked up
                pass
        G._cache["label_index"] = index
    return index


def check_vertex(G: Graph, v: Any, name: str) -> int:
    """``v`` as an int in ``[0, n)`` (a 0-based id, or a label of a labelled graph), or an error naming it.

    Parameters
    ----------
    G : Graph
    v : Any
        The vertex argument: a Python or NumPy integer (0-based id), or, when
        ``G`` carries ``node_labels``, one of its labels.
    name : str
        The argument's name, for the error message.

    Returns
    -------
    int

    Raises
    ------
    VertexTypeError
        ``v`` is not an integer (a float, a bool, a string on an unlabelled
        graph...); a ``TypeError`` and a :class:`VertexError`.
    VertexError
        ``v`` is not in ``[0, n)``, or is not a label of ``G``.

    Examples
    --------
    >>> G = Graph.from_edges([0], [1])
    >>> check_vertex(G, 1, "source")
    1
    >>> check_vertex(G, 2, "source")
    Traceback (most recent call last):
    ...
    graphs.errors.VertexError: source = 2 is not a vertex of a graph with n = 2 (ids are 0-based)
    >>> check_vertex(G, 1.0, "source")
    Traceback (most recent call last):
    ...
    graphs.errors.VertexTypeError: source must be a vertex id (an integer), got 1.0 (float)
    >>> H = Graph.from_edges([0], [1])
    >>> H.node_labels = ["a", "b"]
    >>> check_vertex(H, "b", "target")
    1
    """
    if hasattr(v, "__cuda_array_interface__") and getattr(v, "ndim", None) == 0:
        v = v.get()  # a CuPy 0-d array
    if not isinstance(v, (bool, np.bool_)):
        try:
            iv = operator.index(v)
        except TypeError:
            iv = None
        if iv is not None:
            if not 0 <= iv < G.n:
                raise VertexError(f"{name} = {iv} is not a vertex of a graph with n = {G.n}{_numbering(G)}")
            return iv
    kind = type(v).__name__
    if G.node_labels is not None:
        try:
            found = _label_index(G).get(v)
        except TypeError:
            raise VertexTypeError(f"{name} must be a vertex id (an integer) or a label of the graph, "
                                  f"got an unhashable {kind}") from None
        if found is not None:
            return found
        if not isinstance(v, (bool, float, complex, np.bool_, np.number)):
            raise VertexError(f"{name} = {v!r} is not a label of the graph (nor an integer vertex id)")
        raise VertexTypeError(f"{name} must be a vertex id (an integer) or a label of the graph, got {v!r} ({kind})")
    raise VertexTypeError(f"{name} must be a vertex id (an integer), got {v!r} ({kind})")


def check_vertex_array(G: Graph | None, arr: np.ndarray, name: str) -> bool:
    """Whether the array ``arr`` of vertex arguments holds ids (True) or labels to look up (False); else an error.

    An array of vertex ids has an integer dtype (its values are checked by the
    caller, all at once).  An array of another dtype can only hold labels,
    which a graph with :attr:`~graphs.Graph.node_labels` has (each entry is
    then looked up by :func:`check_vertex`); on a graph without labels it is a
    :class:`~graphs.errors.VertexTypeError` naming ``name`` and the dtype, never
    a conversion (an array of floats, complex numbers, Python objects,
    strings or dates is no array of vertex ids).

    Examples
    --------
    >>> G = Graph.from_edges([0], [1])
    >>> check_vertex_array(G, np.array([1, 0]), "sources")
    True
    >>> check_vertex_array(G, np.array([1, 0], dtype=object), "sources")
    Traceback (most recent call last):
    ...
    graphs.errors.VertexTypeError: sources must hold integer vertex ids (an integer array), got dtype object
    """
    if arr.dtype.kind in "iu":
        return True
    if G is not None and G.node_labels is not None:
        return False
    raise VertexTypeError(f"{name} must hold integer vertex ids (an integer array), got dtype {arr.dtype}")


def check_sources(G: Graph, sources, name: str = "sources") -> np.ndarray:
    """The source vertices as int32 ids: ``None`` (all), one vertex, or a 1-D sequence or array of them.

    Each entry is checked by :func:`check_vertex` (integers, or labels of a
    labelled graph); an integer array is checked at once.

    >>> G = Graph.from_edges([0], [1])
    >>> check_sources(G, [1, 0]), check_sources(G, None)
    (array([1, 0], dtype=int32), array([0, 1], dtype=int32))
    >>> check_sources(G, [[0]])
    Traceback (most recent call last):
    ...
    graphs.errors.GraphError: sources must be a vertex or a 1-D list of vertices; sources[0] is [0]
    """
    if sources is None:
        return np.arange(G.n, dtype=np.int32)
    if hasattr(sources, "__cuda_array_interface__"):
        sources = sources.get()
    if isinstance(sources, np.ndarray):
        if sources.ndim == 0:
            return np.array([check_vertex(G, sources[()], name)], dtype=np.int32)
        if sources.ndim != 1:
            raise GraphError(f"{name} must be a vertex or a 1-D list of vertices, got shape {sources.shape}")
        if check_vertex_array(G, sources, name):
            bad = (sources < 0) | (sources >= G.n)
            if bool(bad.any()):
                k = int(np.argmax(bad))
                check_vertex(G, sources[k], f"{name}[{k}]")
            return sources.astype(np.int32)
        items = sources.tolist()
    elif isinstance(sources, (list, tuple, range)):
        items = list(sources)
    else:
        return np.array([check_vertex(G, sources, name)], dtype=np.int32)
    out = np.empty(len(items), dtype=np.int32)
    for k, v in enumerate(items):
        if isinstance(v, (list, tuple, np.ndarray)):
            raise GraphError(f"{name} must be a vertex or a 1-D list of vertices; {name}[{k}] is {v!r}")
        out[k] = check_vertex(G, v, f"{name}[{k}]")
    return out


def resolve_graph_device(G: Graph, device: str) -> Graph:
    """The graph on the device an algorithm runs on (``"auto"``: where it lives).

    Parameters
    ----------
    G : Graph
    device : {"auto", "cpu", "gpu"}

    Returns
    -------
    Graph
        ``G`` itself for ``"auto"`` or its own device, else a copy on ``device``.

    Raises
    ------
    GraphError
        Unknown ``device``.

    Examples
    --------
    >>> G = Graph.from_edges([0], [1])
    >>> resolve_graph_device(G, "auto") is G, resolve_graph_device(G, "cpu").device
    (True, 'cpu')
    """
    if device == "auto":
        return G
    if device not in ("cpu", "gpu"):
        raise GraphError(f"device must be 'auto', 'cpu' or 'gpu', got {device!r}")
    return G.to(device)
