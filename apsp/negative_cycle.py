"""Detecting and exhibiting cycles that make the closure diverge.

After any of the closure algorithms, ``D[v, v]`` is the best closed walk
through ``v`` found, ``(+)``-ed with ``one``.  Every algorithm of the package
keeps each entry at least as good as every *simple* path it stands for, so a
vertex on a negative cycle (min_plus; a positive one for max_plus, a product
above 1 for max_times) always ends with ``D[v, v] != one``: checking the
diagonal detects every such cycle, and no distance is returned unchecked.

A bad diagonal entry only says that ``v`` lies on a negative closed *walk*;
to name a vertex that lies on a negative *cycle*, :func:`find_cycle` runs the
Bellman-Ford relaxation from a virtual source joined to every candidate vertex
(Bellman 1958; Ford 1956) and watches the parent pointers: a cycle among them
is always a negative cycle (Cormen et al., Introduction to Algorithms, 3rd ed.,
Lemma 24.16), and it appears within as many rounds as there are candidates.
The search only runs on the error path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from semiring.backend import array_module, to_device

from .elementwise import elementwise_ops
from .errors import NegativeCycleError

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["raise_if_diverged", "find_cycle", "raise_for_cycle"]


def raise_if_diverged(S: "Semiring", D, W, offset: int = 0, whole: bool = True) -> None:
    """Raise :class:`NegativeCycleError` if a diagonal entry of the square block ``D`` is not ``one``.

    Parameters
    ----------
    S : Semiring
    D : array (b, b)
        A closed diagonal block (or the whole closure) of the working matrix.
    W : array (n, n), callable or None
        The original input, searched for the cycle when one is found (see
        :func:`raise_for_cycle`).
    offset : int
        Index of ``D[0, 0]`` in the whole matrix.
    whole : bool
        ``D`` is the finished closure: every vertex of a bad cycle then has a
        bad diagonal entry, so the search is limited to those vertices.
        Otherwise the search covers the strong component of the vertex found.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 1.0], [-2.0, 0.0]])
    >>> raise_if_diverged(min_plus, np.array([[-1.0, 1.0], [-2.0, -1.0]]), W)
    Traceback (most recent call last):
    ...
    apsp.errors.NegativeCycleError: negative cycle through vertex 0 (0 -> 1 -> 0, weight -1.0); the closure does not exist
    """
    xp = np if isinstance(D, np.ndarray) else array_module(D)
    bad = xp.diagonal(D) != S.in_dtype(D.dtype).one
    if not bool(bad.any()):
        return
    first = int(xp.argmax(bad)) + offset
    candidates = None
    if whole:
        candidates = to_device(xp.nonzero(bad)[0], "cpu") + offset
    raise_for_cycle(S, W, first, candidates)


def raise_for_cycle(S: "Semiring", W, hint: int, candidates=None):
    """Find a diverging cycle through the candidates and raise :class:`NegativeCycleError` for it.

    ``hint`` is a vertex on a diverging closed walk; it is named if no cycle is
    found (which the theory rules out, but the error must still be raised).
    ``W`` may also be a function returning the original matrix (rebuilt only
    on this error path), or ``None`` when it is gone (a closure computed in
    place): then ``hint`` is named without the cycle.
    """
    if callable(W):
        W = W()
    if W is None:
        raise NegativeCycleError(hint, None, None, _message(S, [hint], None))
    Wh = to_device(W, "cpu")
    found = find_cycle(S, Wh, candidates if candidates is not None else _component_of(S, Wh, hint))
    if found is None:
        raise NegativeCycleError(hint, None, None, _message(S, [hint], None))
    cycle, weight = found
    raise NegativeCycleError(cycle[0], cycle, weight, _message(S, cycle, weight))


def _message(S: "Semiring", cycle: list[int], weight) -> str:
    shown = " -> ".join(str(v) for v in cycle[:12]) + (" -> ..." if len(cycle) > 12 else "")
    w = "" if weight is None else f", weight {getattr(weight, 'item', lambda: weight)()!r}"
    return f"{S.improving_cycle} through vertex {cycle[0]} ({shown} -> {cycle[0]}{w}); the closure does not exist"


def _component_of(S: "Semiring", W: np.ndarray, v: int) -> np.ndarray:
    """The vertices of the strong component of ``v`` in the graph of ``W``'s non-zero entries."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    zero = S.zero_value(W.dtype)
    _, labels = connected_components(csr_matrix(W != zero), directed=True, connection="strong")
    return np.flatnonzero(labels == labels[v])


def _cycle_in(parent: np.ndarray) -> int:
    """A vertex on a cycle of the parent-pointer graph (``-1`` = root), or ``-1`` if it has none."""
    m = parent.shape[0]
    jump = parent.copy()
    steps = 1
    while steps < m:
        jump = np.where(jump >= 0, jump[np.maximum(jump, 0)], -1)
        steps *= 2
    on = np.flatnonzero(jump >= 0)
    return int(jump[on[0]]) if on.size else -1


def find_cycle(S: "Semiring", W: np.ndarray, candidates) -> tuple[list[int], object] | None:
    """A cycle of ``W`` (among ``candidates``) whose weight is better than ``one``, or ``None``.

    Parameters
    ----------
    S : Semiring
        Idempotent and selective.
    W : numpy.ndarray (n, n)
        The original matrix (zero off-edge).
    candidates : array of int
        Vertices that contain a whole such cycle.

    Returns
    -------
    (cycle, weight) or None
        ``cycle`` lists the vertices in order along the edges; ``weight`` is
        the product of its edge weights.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 2.0, np.inf], [np.inf, 0.0, -1.0], [-3.0, np.inf, 0.0]])
    >>> find_cycle(min_plus, W, np.arange(3))
    ([0, 1, 2], np.float64(-2.0))
    """
    cand = np.asarray(candidates, dtype=np.int64)
    m = cand.size
    if m == 0:
        return None
    add, mul = elementwise_ops(S, np, W.dtype)
    one = S.one_value(W.dtype)
    Wr = W[np.ix_(cand, cand)]
    dist = np.full(m, one, dtype=W.dtype)
    parent = np.full(m, -1, dtype=np.int64)
    for _ in range(m + 1):
        cand_w = mul(dist[:, None], Wr)
        best = S.add_ufunc.reduce(cand_w, axis=0)
        improved = (best != dist) & (add(best, dist) == best)
        if not improved.any():
            return None
        arg = np.argmax(cand_w == best[None, :], axis=0)
        dist = np.where(improved, best, dist)
        parent = np.where(improved, arg, parent)
        v = _cycle_in(parent)
        if v < 0:
            continue
        cyc = [v]
        u = int(parent[v])
        while u != v:
            cyc.append(u)
            u = int(parent[u])
        cyc.reverse()  # parent pointers run against the edges
        weight = one
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            weight = mul(np.asarray(weight, W.dtype), np.asarray(Wr[a, b], W.dtype))[()]
        if weight != one and add(np.asarray(weight), np.asarray(one))[()] == weight:
            k = int(np.argmin(cand[cyc]))
            cyc = cyc[k:] + cyc[:k]  # start at the smallest vertex id: deterministic
            return [int(cand[c]) for c in cyc], weight
    return None
