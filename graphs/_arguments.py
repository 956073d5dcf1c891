"""Argument checks shared by the graph algorithms: vertex ids and the device to run on.

:func:`check_vertex` turns a vertex argument into an ``int`` in ``[0, n)`` or
raises :class:`~graphs.errors.VertexError` naming the argument;
:func:`resolve_graph_device` moves a graph to the device an algorithm runs on.
Both sit here, below the algorithms (:mod:`graphs.traversal`, :mod:`graphs.sssp`,
:mod:`graphs.components`) that use them, so those import none of each other for
their argument handling.
"""

from __future__ import annotations

from typing import Any

from .errors import GraphError, VertexError
from .graph import Graph

__all__ = ["check_vertex", "resolve_graph_device"]


def check_vertex(G: Graph, v: Any, name: str) -> int:
    """``v`` as an int in ``[0, n)``, or :class:`VertexError` naming it.

    Parameters
    ----------
    G : Graph
    v : Any
        The vertex argument (a Python or NumPy integer).
    name : str
        The argument's name, for the error message.

    Returns
    -------
    int

    Raises
    ------
    VertexError
        ``v`` is not an integer, or not in ``[0, n)``.

    Examples
    --------
    >>> G = Graph.from_edges([0], [1])
    >>> check_vertex(G, 1, "source")
    1
    >>> check_vertex(G, 2, "source")
    Traceback (most recent call last):
    ...
    graphs.errors.VertexError: source = 2 is not a vertex of a graph with n = 2
    """
    try:
        iv = int(v)
    except (TypeError, ValueError):
        raise VertexError(f"{name} must be a vertex id (an integer), got {v!r}") from None
    if iv != v or not 0 <= iv < G.n:
        raise VertexError(f"{name} = {v!r} is not a vertex of a graph with n = {G.n}")
    return iv


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
