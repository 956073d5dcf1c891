"""NetworkX's path dicts from search trees: the pieces the path families share.

* :func:`tree_paths`, :func:`chain_paths`, :func:`pred_lists`: dicts of paths
  and of predecessor lists from a tree (or tight arcs) in a given node order,
  built as NetworkX builds them;
* :func:`unique_chain`, :func:`check_unique`, :func:`walk_unique`: the tight
  in-arcs of exact distances, for the families whose choice among equally
  short paths follows a queue (Bellman-Ford, bidirectional Dijkstra): their
  paths are returned where they are the only shortest ones;
* :func:`check_cutoff`: the cutoffs the breadth-first and Dijkstra families compare as NetworkX does;
* :data:`TARGET_DOC`: the docstring of the families' functions from ``source`` to ``target``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..graph import BackendGraph, paused_gc
from ._engine import Plan, arc_weights

__all__ = ["tree_paths", "chain_paths", "pred_lists", "check_cutoff", "unique_chain", "check_unique", "walk_unique", "TARGET_DOC"]

#: The docstring of a family's path or length from ``source`` to ``target`` (``dijkstra_path``, ...), to
#: :func:`semiring.docstrings.fill`.
TARGET_DOC = """The {what} from ``source`` to ``target`` (NetworkX's ``{name}``){when}.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.{name}(nx.{graph}, 0, 2, backend="semiring_paths")
    {result}
    """


def tree_paths(G: BackendGraph, order: np.ndarray, parent: np.ndarray, reverse: bool = False,
               keys: np.ndarray | None = None) -> dict:
    """Dict node -> path, in ``order`` (parents before children; ``parent`` -1 at the roots), or in the order of
    ``keys`` (the same vertices) where given.

    A path is the parent's path and the node (``reverse``: the node and the
    parent's path), a new list each, as NetworkX builds them.
    """
    k = order.shape[0]
    vs = order.tolist()
    labels = G.labels(vs)
    at = np.full(parent.shape[0], -1, dtype=np.int64)  # each vertex's place in ``order``
    at[order] = np.arange(k)
    up = parent[order]
    places = np.where(up >= 0, at[np.maximum(up, 0)], -1).tolist()  # the parent's place (only the reached)
    paths = chain_paths(labels, places, reverse)
    if keys is None:
        return paths
    wanted = G.labels(keys.tolist())
    return dict(zip(wanted, map(paths.__getitem__, wanted)))


def chain_paths(labels: list, places: list, reverse: bool = False) -> dict:
    """Dict label -> path of a search tree listed parents first: ``places[i]`` is the position of the parent of
    ``labels[i]`` in the list (-1 at the root).  A path is the parent's path and the node (``reverse``: the node
    and the parent's path), a new list each, as NetworkX builds them.

    >>> chain_paths(["a", "b", "c"], [-1, 0, 1])
    {'a': ['a'], 'b': ['a', 'b'], 'c': ['a', 'b', 'c']}
    """
    per: list = [None] * len(labels)
    with paused_gc(len(labels)):
        if reverse:
            for i, (x, p) in enumerate(zip(labels, places)):
                per[i] = [x] if p < 0 else [x] + per[p]
        else:
            for i, (x, p) in enumerate(zip(labels, places)):
                per[i] = [x] if p < 0 else per[p] + [x]
        return dict(zip(labels, per))


def pred_lists(G: BackendGraph, order: np.ndarray, heads: np.ndarray, tails: np.ndarray) -> dict:
    """Dict node -> list of predecessors, keys in ``order``; arc ``k`` puts ``tails[k]`` in ``heads[k]``'s list.

    Each list keeps the arcs' order.  Built by slicing one list of labels
    grouped by head (no append per arc).
    """
    n = len(G)
    heads = np.asarray(heads, np.int64)
    by_head = np.argsort(heads, kind="stable")
    flat = G.labels(np.asarray(tails)[by_head])
    ends = np.cumsum(np.bincount(heads, minlength=n))
    vs = order.tolist()
    stop = ends[order].tolist()
    start = (ends - np.bincount(heads, minlength=n))[order].tolist()
    with paused_gc():
        return dict(zip(G.labels(vs), [flat[a:b] for a, b in zip(start, stop)]))


def check_cutoff(cutoff: Any) -> None:
    """``NotImplementedError`` for a cutoff other than a Python ``int``, ``float`` or ``bool`` (NetworkX compares it).

    Examples
    --------
    >>> check_cutoff(2.5)
    >>> check_cutoff("2")
    Traceback (most recent call last):
    ...
    NotImplementedError: a cutoff of type str
    """
    if cutoff is not None and type(cutoff) not in (int, float, bool):
        raise NotImplementedError(f"a cutoff of type {type(cutoff).__name__}")


def unique_chain(G: BackendGraph, d: np.ndarray, reached: np.ndarray, plan: Plan, s: int, reverse: bool = False):
    """Per node its only tight in-arc's tail (-1: the source), or ``NotImplementedError`` where there are several.

    ``d`` are exact path lengths; a node with two tight in-arcs has several
    shortest paths, among which NetworkX's choice follows its queue.
    """
    indptr, indices, w, ok = arc_weights(G, plan, reverse)
    n = len(G)
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    good = ok & reached[src] & reached[indices]
    arcs = np.flatnonzero(good)
    arcs = arcs[d[src[arcs]] + w[arcs] == d[indices[arcs]]]
    heads = indices[arcs]
    counts = np.bincount(heads, minlength=n)
    return arcs, src, heads, counts


def check_unique(counts: np.ndarray, reached: np.ndarray, s: int, nodes: np.ndarray | None = None) -> None:
    sel = reached.copy() if nodes is None else np.zeros_like(reached)
    if nodes is not None:
        sel[nodes] = True
    expected = np.where(sel, 1, 0)
    expected[s] = 0
    if (counts[sel] != expected[sel]).any():
        raise NotImplementedError("several shortest paths: NetworkX's choice follows its queue order")


def walk_unique(G: BackendGraph, d: np.ndarray, reached: np.ndarray, plan: Plan, s: int, t: int) -> list:
    """The node path ``s`` -> ``t`` along the only tight in-arcs (``NotImplementedError`` where there are several)."""
    arcs, src, heads, counts = unique_chain(G, d, reached, plan, s)
    tail = np.full(len(G), -1, np.int64)
    tail[heads] = src[arcs]
    chain = [t]
    while chain[-1] != s:
        v = chain[-1]
        if counts[v] != 1 or len(chain) > len(G):
            raise NotImplementedError("several shortest paths: NetworkX's choice follows its queue order")
        chain.append(int(tail[v]))
    if counts[s] != 0:
        raise NotImplementedError("a zero-length cycle through the source")
    nodes = G.nodes
    return [nodes[i] for i in reversed(chain)]
