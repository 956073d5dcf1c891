"""Breadth-first search (direction-optimising) and s-t connectivity (bidirectional BFS).

A BFS level is one masked Boolean sparse product: the next frontier is
``f (x) A`` restricted to the complement of the visited set.  It can be
computed by *push* (scan the out-arcs of the frontier: SpMSpV) or by *pull*
(each unvisited vertex scans its in-arcs until it finds a frontier member:
masked SpMV); push is cheap for small frontiers, pull for large ones.  The
direction-optimising BFS of Beamer, Asanovic & Patterson ("Direction-optimizing
breadth-first search", SC 2012), in the GraphBLAS formulation of GraphBLAST
(Yang, Buluc & Owens, ACM TOMS 2022, Sec. 5), switches to pull when the
frontier's out-arcs exceed ``1/alpha`` of the arcs still unexplored and back
to push when the frontier holds fewer than ``n / beta`` vertices.

On the GPU (:mod:`graphs.cuda.bfs`) each level also picks its working
set as in Li & Becchi ("Deploying graph algorithms on GPUs: an adaptive
solution", IPDPS 2013): a queue or a bitmap for the frontier, and a thread,
a warp or many warps per frontier vertex by degree.  Since a GPU pull level
sweeps all ``n`` vertices, the GPU goes over to pull only while the frontier
has at least ``n / beta`` out-arcs, so the last small levels stay pushes
even when few arcs are left unexplored.

:func:`st_connectivity` is a bidirectional BFS (Harish & Narayanan, "Accelerating
large graph algorithms on the GPU using CUDA", HiPC 2007, Sec. 4.3 for the GPU
form): the two searches meet in about the square root of the work of one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from .._arguments import check_vertex
from ..door import prepare
from ..errors import GraphError
from .engine import DIRECTIONS, bfs_search, st_search

if TYPE_CHECKING:
    from semiring.array_types import Array, Device

__all__ = ["bfs", "st_connectivity", "DIRECTIONS"]


@overload
def bfs(
    G: Any,
    source: Any,
    *,
    direction: Literal["auto", "push", "pull"] = "auto",
    return_trace: Literal[False] = False,
    alpha: float | None = None,
    beta: float | None = None,
    device: Device = "auto",
) -> tuple[Array, Array]: ...
@overload
def bfs(
    G: Any,
    source: Any,
    *,
    direction: Literal["auto", "push", "pull"] = "auto",
    return_trace: Literal[True],
    alpha: float | None = None,
    beta: float | None = None,
    device: Device = "auto",
) -> tuple[Array, Array, list[Any]]: ...
@overload
def bfs(
    G: Any,
    source: Any,
    *,
    direction: Literal["auto", "push", "pull"] = "auto",
    return_trace: bool = False,
    alpha: float | None = None,
    beta: float | None = None,
    device: Device = "auto",
) -> tuple[Array, Array] | tuple[Array, Array, list[Any]]: ...
def bfs(
    G: Any,
    source: Any,
    *,
    direction: Literal["auto", "push", "pull"] = "auto",
    return_trace: bool = False,
    alpha: float | None = None,
    beta: float | None = None,
    device: Device = "auto",
) -> tuple[Array, Array] | tuple[Array, Array, list[Any]]:
    """Breadth-first search from ``source``: hop levels and a BFS tree.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Arcs are followed in their direction; weights are ignored.
    source : int
    direction : {"auto", "push", "pull"}
        ``"auto"`` switches between push and pull per level (Beamer's
        heuristic with ``alpha`` and ``beta``); the others force one form.
    return_trace : bool
        Also return one dict per level: ``level``, ``direction`` (``"push"`` or
        ``"pull"``), ``frontier`` (vertices), ``edges`` (arcs of the frontier
        for push, arcs scanned for pull); on the GPU also ``frontier_format``
        (``"queue"`` or ``"bitmap"``) and ``granularity`` (threads, warps or
        chunks of arcs per vertex).
    alpha, beta : float, optional
        Direction-switch thresholds.  Default: 8 and 24 on the GPU, whose pull
        is Beamer's parallel bitmap scan (Beamer et al. use 14 and 24; 8 and 24
        measured best among 4..30 and 6..24 on R-MAT scale 22); 3 and 18
        on the CPU, whose serial pull walks a shrinking list of unvisited
        vertices and pays off later (best on R-MAT, email-Enron and ego-Facebook).
    device : {"auto", "cpu", "gpu"}
        ``"auto"`` runs where ``G`` lives; results are arrays of that device.

    Returns
    -------
    levels : int32 array (n,)
        Hops from ``source``; -1 where unreachable.
    parents : int32 array (n,)
        A BFS tree: ``parents[v]`` is a vertex one level up with an arc to
        ``v``; -1 for ``source`` and unreachable vertices.
    trace : list of dict
        Only with ``return_trace=True``.

    Raises
    ------
    VertexError
        ``source`` is not a vertex.
    GraphError
        Unknown ``direction`` or ``device``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3])
    >>> levels, parents = bfs(G, 0)
    >>> levels
    array([0, 1, 1, 2], dtype=int32)
    >>> parents
    array([-1,  0,  0,  1], dtype=int32)
    >>> [t["direction"] for t in bfs(G, 0, direction="pull", return_trace=True)[2]]
    ['pull', 'pull', 'pull']
    """
    G = prepare(G, device).graph
    s = check_vertex(G, source, "source")
    if direction not in DIRECTIONS:
        raise GraphError(f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    return bfs_search(G, s, direction, alpha, beta, bool(return_trace))


def st_connectivity(G: Any, s: Any, t: Any, *, device: Device = "auto") -> tuple[int, Array]:
    """Hop distance and one shortest path from ``s`` to ``t`` by bidirectional BFS.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
    s, t : int
    device : {"auto", "cpu", "gpu"}

    Returns
    -------
    distance : int
        Arcs on a shortest ``s -> t`` path; -1 if ``t`` is unreachable.
    path : int32 array
        ``[s, ..., t]`` (``distance + 1`` vertices); empty if unreachable.

    Raises
    ------
    VertexError

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 4])
    >>> st_connectivity(G, 0, 3)
    (3, array([0, 1, 2, 3], dtype=int32))
    >>> st_connectivity(G, 3, 0)
    (-1, array([], dtype=int32))
    """
    G = prepare(G, device).graph
    return st_search(G, check_vertex(G, s, "s"), check_vertex(G, t, "t"))
