"""Single- and multi-source shortest paths over the min-plus semiring: the public functions.

:func:`sssp` and :func:`multi_source_sssp` check their arguments once (the
graph at :func:`graphs.door.prepare`, the vertices by
:func:`graphs._arguments.check_vertex`, ``method`` against the engine's tables)
and hand the prepared graph to the shortest-path engine,
:mod:`graphs.paths.engine`, which describes the methods (Bellman-Ford,
delta-stepping, Dijkstra, label-correcting; Johnson's reweighting and SpMM for
many sources) and holds their helpers (:func:`default_delta`,
:func:`light_heavy_rows`, :func:`johnson_potentials`, ...), importable from
here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._arguments import check_sources, check_vertex
from ..door import WeightFacts, check_weights, prepare, weight_facts
from ..errors import GraphError
from .engine import (
    GPU_DELTA_WIDTH,
    LABEL_CORRECTING_BUDGET,
    LOW_DIAMETER_DEGREE,
    SEARCHES,
    bounded_delta,
    bucket_width,
    default_delta,
    johnson_potentials,
    light_heavy_rows,
    search,
)

if TYPE_CHECKING:
    from semiring.array_types import Array, Device

__all__ = ["sssp", "multi_source_sssp", "SSSP_METHODS", "MULTI_METHODS", "check_weights", "weight_facts",  # noqa: F822
           "WeightFacts", "default_delta", "bounded_delta", "bucket_width", "light_heavy_rows", "johnson_potentials",
           "GPU_DELTA_WIDTH", "LABEL_CORRECTING_BUDGET", "LOW_DIAMETER_DEGREE"]  # MULTI_METHODS: see __getattr__

SSSP_METHODS = tuple(SEARCHES)


def __getattr__(name: str) -> tuple[str, ...]:
    """``MULTI_METHODS``, read from the many-source engine when first asked for (it loads Numba kernels)."""
    if name == "MULTI_METHODS":
        from .many_source import MULTI_SEARCHES

        return tuple(MULTI_SEARCHES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sssp(
    G: Any, source: Any, method: Literal["auto", "bellman-ford", "delta-stepping", "dijkstra", "label-correcting"] = "auto",
    *, delta: float | None = None, device: Device = "auto",
) -> tuple[Array, Array]:
    """Shortest-path distances and predecessors from ``source``.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        An unweighted graph counts hops (float64 distances).
    source : int or label
        A 0-based vertex id (a Python or NumPy integer; a DIMACS file's id
        ``k`` is vertex ``k - 1``), or a label when ``G`` carries
        ``node_labels`` (see :mod:`graphs._arguments`).
    method : {"auto", "bellman-ford", "delta-stepping", "dijkstra", "label-correcting"}
        ``"auto"``: Bellman-Ford if some weight is negative; else, on the GPU,
        delta-stepping; on the CPU, label-correcting for integer weights
        when the average degree of the non-isolated vertices is at least 8
        (low diameter) and the graph has fewer than ``2**22`` arcs, else
        delta-stepping (its heavy arcs listed on all threads).
    delta : float, optional
        Bucket width of delta-stepping (default :func:`default_delta`); one
        below ``wmax / 2**16`` is raised to that (:func:`bounded_delta`), so
        the buckets stay few whatever ``delta`` and the weights are.
    device : {"auto", "cpu", "gpu"}
        On the GPU, delta-stepping (near-far) runs on the device; the other
        methods run on a host copy of the graph and return CuPy arrays.

    Returns
    -------
    dist : array (n,)
        The weights' dtype; ``inf`` (the integer sentinel ``iinfo.max`` for
        integer weights) where unreachable.  Integer sums saturate at the
        sentinels instead of wrapping, and the sentinels stick: a distance
        that would reach ``iinfo.max`` is +inf (unreachable) and nothing is
        relaxed from it; one that reaches ``iinfo.min`` (or a float sum that
        overflows to ``-inf``) is ``-inf``, and so is every distance reached
        through it (``-inf + w = -inf``), as in :mod:`semiring.dtypes`.
    pred : int32 array (n,)
        A shortest-path tree: ``pred[v]`` is the vertex before ``v``; -1 for
        the source and unreachable vertices.

    Raises
    ------
    VertexError
        ``source`` is not a vertex (an id outside ``[0, n)``, an unknown label).
    VertexTypeError
        ``source`` is not an integer (or a label); also a ``TypeError``.
    NegativeCycleError
        A negative cycle is reachable from ``source`` (its ``vertex`` lies on
        it).  Distances saturated at ``-inf`` are not one unless a cycle of
        negative weight really exists (checked in exact arithmetic).
    InvalidEntryError
        Negative weights with Dijkstra or delta-stepping; a ``-inf`` weight
        (for integers the ``iinfo.min`` sentinel).
    GraphError
        Unknown ``method``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 1], [4.0, 1.0, 1.0, -2.0])
    >>> dist, pred = sssp(G, 0)
    >>> dist
    array([ 0., -1.,  1.,  0.])
    >>> pred
    array([-1,  2,  0,  1], dtype=int32)
    >>> sssp(Graph.from_edges([0, 1], [1, 0], [1.0, -2.0]), 0)
    Traceback (most recent call last):
    ...
    apsp.errors.NegativeCycleError: negative cycle through vertex 0 (0 -> 1 -> 0, weight -1.0)
    """
    P = prepare(G, device, facts=True)
    s = check_vertex(P.graph, source, "source")
    if method not in SEARCHES:
        raise GraphError(f"method must be one of {', '.join(SEARCHES)}, got {method!r}")
    if delta is not None and not delta > 0:
        raise GraphError(f"delta must be positive, got {delta!r}")
    return search(P, s, method, delta)


def multi_source_sssp(G: Any, sources: Any = None, method: Literal["auto", "dijkstra", "spmm"] = "auto", *,
                      device: Device = "auto", client: Any = None,
                      predecessors: bool = True) -> tuple[Array, Array | None]:
    """Shortest paths from many sources at once (all vertices by default: sparse APSP).

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Weights follow the saturation policy of :func:`sssp`.
    sources : int, label, or sequence of them, optional
        0-based vertex ids (or labels of a labelled graph); default: every
        vertex (``k = n``).
    method : {"auto", "dijkstra", "spmm"}
        ``"auto"`` and ``"dijkstra"``: the many-source engine
        (:mod:`graphs.paths.many_source`, as :func:`graphs.distance_matrix`):
        one Dijkstra per source on every CPU core, or thousands of sources
        per batch on the GPU; Johnson's reweighting when weights are negative.
        ``"spmm"``: Bellman-Ford on the ``n x k`` block ``X``, one min-plus
        sparse-times-dense product ``A^T (x) X`` per round until nothing
        changes (at most ``n`` rounds, else a negative cycle); the GPU route
        for negative weights.
    device : {"auto", "cpu", "gpu"}
    client : distributed.Client, optional
        Run on this Dask cluster (:mod:`graphs.paths.distributed`): the graph
        is sent to every worker once, the sources are split among them, and
        ``D`` and ``P`` come back as :class:`dask.array.Array` (row blocks per
        source chunk, left on the workers): rows of a matrix too large for
        one machine.
    predecessors : bool, keyword-only
        ``False`` skips the predecessor trees (``P`` is then ``None``): the
        SpMM method recovers them in a second pass over the tight arcs, which
        costs more than the distances on large graphs.

    Returns
    -------
    D : array (k, n)
        ``D[r, v]``: distance from ``sources[r]`` to ``v`` (weights' dtype;
        float64 hop counts for an unweighted graph).
    P : int32 array (k, n), or None
        Predecessors, one shortest-path tree per row (``None`` when
        ``predecessors=False``).

    Raises
    ------
    NegativeCycleError, VertexError, GraphError
    VertexTypeError
        A source is not an integer (or a label); also a ``TypeError``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, -1.0, 3.0])
    >>> D, P = multi_source_sssp(G)
    >>> D
    array([[ 0.,  1.,  0.],
           [ 2.,  0., -1.],
           [ 3.,  4.,  0.]])
    >>> np.array_equal(multi_source_sssp(G, [2], method="spmm")[0], D[2:])
    True
    >>> multi_source_sssp(G, [0], predecessors=False)
    (array([[0., 1., 0.]]), None)
    """
    if not isinstance(predecessors, (bool, np.bool_)):
        raise TypeError(f"predecessors must be a bool, got {type(predecessors).__name__}")
    P = prepare(G, device, facts=True)
    from .many_source import MULTI_SEARCHES, search_many

    if method not in MULTI_SEARCHES:
        raise GraphError(f"method must be one of {', '.join(MULTI_SEARCHES)}, got {method!r}")
    src = check_sources(P.graph, sources)
    return search_many(P, src, method, bool(predecessors), client, multi_source_sssp)
