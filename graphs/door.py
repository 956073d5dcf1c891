"""The door of the graph algorithms: a graph argument turned into a prepared graph, checked once.

Every public algorithm of :mod:`graphs` (:func:`graphs.sssp`,
:func:`graphs.bfs`, :func:`graphs.connected_components`, the centralities...)
passes its graph argument through :func:`prepare`, once, at its top; what it
calls below takes the :class:`Prepared` graph (or its ``graph``) and checks
nothing again (the trusted constructor ``Graph(..., check=False)`` builds
what it derives).  This follows SciPy's ``csgraph._validation``: one
validation at every public entry, trusted below.

:func:`prepare` accepts what :func:`graphs.as_graph` accepts (a
:class:`~graphs.Graph`, a SciPy or CuPy sparse matrix, a dense array, a
NetworkX graph), checks the ``device`` argument and moves the graph there, and
records the facts the algorithms decide by:

``graph``, ``device``, ``xp``
    The :class:`~graphs.Graph` on the device the call runs on, ``"cpu"`` or
    ``"gpu"``, and its array module (``numpy`` or ``cupy``): decided here,
    once, and passed down.
``facts``
    With ``facts=True``, the :class:`WeightFacts` of a weighted graph (its
    dtype's infinities, the first ``-inf`` and the first negative weight, the
    least, mean and largest weight, the average degree), read in one pass over
    the weights and kept on the graph (a graph is immutable), so a second call
    on the same graph reads none of them again; ``None`` for an unweighted graph.

The vertex arguments are checked by :func:`graphs._arguments.check_vertex`
(and :func:`~graphs._arguments.check_sources` for lists of them), the weights
against a search method by :func:`check_weights`; method names are looked up in
each family's table of methods (``"auto"`` one more entry), in the public
function itself.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from semiring.errors import InvalidEntryError

from .errors import GraphError
from .graph import Graph, as_graph

__all__ = ["Prepared", "WeightFacts", "prepare", "weight_facts", "check_weights", "DEVICES", "NONNEGATIVE_METHODS"]

#: What a ``device`` argument may say; ``"auto"`` runs where the graph lives.
DEVICES = ("auto", "cpu", "gpu")
#: Search methods that need non-negative weights.
NONNEGATIVE_METHODS = ("delta-stepping", "dijkstra", "label-correcting")


class WeightFacts:
    """What the searches need to know of a graph's weights, read in one pass and kept on the graph.

    Attributes
    ----------
    lo, hi : scalar
        The weights' ``-inf`` and ``+inf`` (the sentinels for integers).
    neginf_at : int
        The first arc of weight ``-inf`` (``-1``: none).
    negative_at : int
        The first arc of negative weight (``-1``: none).
    least, mean : float
        The least and the mean positive weight (``0.0`` without one).
    avg_degree : float
        Arcs per non-isolated vertex.
    wmax : float
        The largest weight.
    """

    __slots__ = ("lo", "hi", "neginf_at", "negative_at", "least", "mean", "avg_degree", "wmax")
    lo: Any
    hi: Any
    neginf_at: int
    negative_at: int
    least: float
    mean: float
    avg_degree: float
    wmax: float


class Prepared(NamedTuple):
    """A graph that passed :func:`prepare`: the graph on its run device and the facts read from it."""

    graph: Graph  #: the graph, on the device the call runs on
    device: str  #: ``"cpu"`` or ``"gpu"``
    xp: Any  #: ``numpy`` or ``cupy``
    facts: WeightFacts | None  #: the weights' facts (``prepare(..., facts=True)`` of a weighted graph), else None

    @property
    def weighted(self) -> bool:
        """Whether the graph has weights."""
        return self.graph.weights is not None


def prepare(G: Any, device: str = "auto", *, facts: bool = False, name: str = "G") -> Prepared:
    """The door: ``G`` as a :class:`Prepared` graph on ``device``, its weight facts read once if asked.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        A SciPy/CuPy sparse matrix, a dense array or a NetworkX graph is
        converted (and checked) once here; a :class:`~graphs.Graph` is trusted.
    device : {"auto", "cpu", "gpu"}
        Where the call runs: ``"auto"`` where ``G`` lives, else a copy there.
    facts : bool
        Read the :class:`WeightFacts` of a weighted graph (kept on the graph).
    name : str
        How the error messages call the argument.

    Returns
    -------
    Prepared

    Raises
    ------
    GraphError
        ``G`` is no graph; unknown ``device``.
    DTypeError
        A matrix of a dtype no graph holds.

    Examples
    --------
    >>> P = prepare(np.array([[0.0, -2.0], [np.inf, 0.0]]), facts=True)
    >>> P.graph.nnz, P.device, P.facts.negative_at, P.facts.wmax
    (1, 'cpu', 0, -2.0)
    >>> prepare(P.graph, "tpu")
    Traceback (most recent call last):
    ...
    graphs.errors.GraphError: device must be 'auto', 'cpu' or 'gpu', got 'tpu'
    """
    if not isinstance(G, Graph):
        G = as_graph(G, name=name)
    if device != "auto":
        if device not in DEVICES:
            raise GraphError(f"device must be 'auto', 'cpu' or 'gpu', got {device!r}")
        G = G.to(device)
    xp = np if G.device == "cpu" else G.xp
    f = None
    if facts and G.weights is not None:
        f = G._cache.get("weight_facts")
        if f is None:  # one pass over the weights, kept on the graph
            f = WeightFacts()
            w = G.weights
            dt = w.dtype
            if dt.kind == "f":
                f.lo, f.hi = dt.type(-np.inf), dt.type(np.inf)
            else:
                info = np.iinfo(dt)
                f.lo, f.hi = dt.type(info.min), dt.type(info.max)
            f.neginf_at = f.negative_at = -1
            f.least = f.mean = f.avg_degree = f.wmax = 0.0
            if G.nnz:
                neg = w < 0
                if bool(neg.any()):
                    f.negative_at = int(xp.argmax(neg))
                    bad = w == f.lo
                    if bool(bad.any()):
                        f.neginf_at = int(xp.argmax(bad))
                pos = w[w > 0]
                if pos.size:
                    f.least, f.mean = float(pos.min()), float(pos.mean())
                f.avg_degree = float(G.nnz / max(1, int((xp.diff(G.indptr) > 0).sum())))
                f.wmax = float(w.max())
            G._cache["weight_facts"] = f
            G._cache["negative"] = f.negative_at >= 0
    return Prepared(G, G.device, xp, f)


def weight_facts(G: Graph) -> WeightFacts:
    """The :class:`WeightFacts` of a weighted graph (read by :func:`prepare` once per graph, then kept).

    >>> from graphs import Graph
    >>> f = weight_facts(Graph.from_edges([0, 1], [1, 2], [2.0, -6.0]))
    >>> f.negative_at, f.least, f.wmax
    (1, 2.0, 2.0)
    """
    f = G._cache.get("weight_facts")
    return f if f is not None else prepare(G, facts=True).facts


def check_weights(G: Graph, method: str) -> None:
    """An :class:`InvalidEntryError` for a ``-inf`` weight, or a negative one where ``method`` needs none.

    Reads the weight facts (:func:`weight_facts`, kept on the graph).

    >>> from graphs import Graph
    >>> check_weights(Graph.from_edges([0, 1], [1, 2], [2.0, -6.0]), "dijkstra")
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidEntryError: method='dijkstra' needs non-negative weights; arc 1 -> 2 weighs -6.0 (use method='bellman-ford')
    """
    f = weight_facts(G)
    w = G.weights
    if f.neginf_at >= 0:
        k = f.neginf_at
        what = "-inf" if w.dtype.kind == "f" else f"{w[k].item()}, the {w.dtype} sentinel of -inf"
        raise InvalidEntryError(f"weights[{k}] is {what}; min_plus cannot combine it")
    if method in NONNEGATIVE_METHODS and f.negative_at >= 0:
        k = f.negative_at
        src, dst, _ = G.edges()
        raise InvalidEntryError(
            f"method={method!r} needs non-negative weights; arc {int(src[k])} -> {int(dst[k])} "
            f"weighs {w[k].item()!r} (use method='bellman-ford')"
        )
