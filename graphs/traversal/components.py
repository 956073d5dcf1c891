"""Connected components: weak (union-find) and strong (Tarjan).

Weak components ignore arc directions: a union-find with path halving over
every arc (Tarjan, "Efficiency of a good but not linear set union algorithm",
JACM 22, 1975).  Strong components: Tarjan's depth-first algorithm ("Depth-first
search and linear graph algorithms", SIAM J. Comput. 1, 1972), written
iteratively so that deep graphs (road networks, paths) do not overflow a stack.
Both are O(n + m) and serial.  On the GPU, weak components run as min-label
propagation with pointer jumping (Soman, Kishore & Narayanan, IPDPS 2010
workshops), strong components on the host.

Labels are numbered 0, 1, ... in the order of each component's smallest vertex,
so they are deterministic; the partition equals SciPy's
``scipy.sparse.csgraph.connected_components``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..door import prepare
from ..errors import GraphError
from . import _cc_kernels as K

if TYPE_CHECKING:
    from semiring.array_types import Array, Device

__all__ = ["connected_components", "component_labels"]


def connected_components(
    G: Any, connection: Literal["weak", "strong"] = "weak", *, device: Device = "auto"
) -> tuple[int, Array]:
    """Number of components and a component label per vertex.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
    connection : {"weak", "strong"}
        ``"weak"``: ignore arc directions.  ``"strong"``: mutual reachability.
        The same for an undirected graph.
    device : {"auto", "cpu", "gpu"}

    Returns
    -------
    n_components : int
    labels : int32 array (n,)
        Numbered by smallest vertex: vertex 0 is in component 0.

    Raises
    ------
    GraphError
        Unknown ``connection``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1, 2, 3], [1, 0, 3, 4], n=6)
    >>> connected_components(G)
    (3, array([0, 0, 1, 1, 1, 2], dtype=int32))
    >>> connected_components(G, "strong")
    (5, array([0, 0, 1, 2, 3, 4], dtype=int32))
    """
    if connection not in ("weak", "strong"):
        raise GraphError(f"connection must be 'weak' or 'strong', got {connection!r}")
    return component_labels(prepare(G, device).graph, connection)


def component_labels(G: Any, connection: str) -> tuple[int, Array]:
    """:func:`connected_components` of a graph that passed the door (``connection`` checked): the engine.

    >>> from graphs import Graph
    >>> component_labels(Graph.from_edges([0, 2], [1, 1]), "strong")
    (3, array([0, 1, 2], dtype=int32))
    """
    if not G.directed:
        connection = "weak"
    if G.device == "gpu":
        if connection == "weak":
            from ..cuda.components import weak_components_gpu

            return weak_components_gpu(G)
        import cupy as cp

        k, labels = _components_cpu(G.to("cpu"), "strong")
        return k, cp.asarray(labels)
    return _components_cpu(G, connection)


def _components_cpu(G: Any, connection: str) -> tuple[int, Array]:
    """The number of components and the labels (first seen first) of a host graph."""
    if G.n == 0:
        return 0, np.zeros(0, dtype=np.int32)
    raw = K.weak_labels(G.indptr, G.indices) if connection == "weak" else K.strong_labels(G.indptr, G.indices)
    k, labels = K.relabel_first_seen(raw)
    return int(k), labels
