"""Predecessor matrices and the paths they encode.

``P[i, j]`` is the vertex just before ``j`` on the chosen path from ``i`` to
``j``, or ``-1`` where there is none (``i == j``, or ``j`` unreachable from
``i``).  This is SciPy's convention (``scipy.sparse.csgraph`` writes ``-9999``
where this package writes ``-1``), so row ``i`` of ``P`` is a tree of paths
rooted at ``i`` and :func:`path` walks it backwards.  :func:`path` also reads
the 1-D predecessor array of a single source (one such row, as
:func:`graphs.sssp` returns it).

Which predecessor, among equally short routes.  Two rules, by case:

* **min_plus on the CPU** (``method`` other than ``"fw"``, numeric dtypes,
  the input's arcs at hand): the distances are closed alone, then each
  predecessor is read off them as a *last hop* (:mod:`apsp.paths.last_hop`):
  ``P[i, j]`` is ``i`` if the arc ``i -> j`` is itself a shortest path, else
  the *lightest* arc ``k -> j`` with ``D[i, k] + W[k, j] <= D[i, j]``
  (smallest ``k`` among arcs of equal weight); where floating-point rounding
  leaves no such arc, the ``k`` minimising ``D[i, k] + W[k, j]``.  Every row
  is checked to be a tree; if a route would loop (only possible on
  zero-weight cycles, or float sums that absorb an arc) the whole ``P`` is
  computed by the second rule instead.  The result does not depend on the
  method.
* **everywhere else** (``method="fw"``, the GPU, other semirings, custom
  ``min_plus``-like semirings, ``out=W``, and the fallback above): the *Pi
  update* of Buluc, Gilbert & Budak (Parallel Computing 36, 2010, Sec. 3.3):
  when a product ``C (+)= A (x) B`` strictly improves ``C[i, j]`` through the
  inner index ``k``, the path to ``j`` now ends like the path of ``B`` from
  ``k``, so ``P_C[i, j] = P_B[k, j]``.  The GEMM witness
  (:func:`semiring.dense.matmul_into` with ``W=``) supplies ``k``; it is the
  smallest ``k`` among equally good candidates and ``-1`` where the old value
  won or tied, which makes the result deterministic: **a predecessor changes
  only on a strict improvement, and among equally good improvements the
  smallest intermediate vertex index wins** (for ``"fw"``: exactly the
  textbook Floyd-Warshall with strict improvements, pivots in increasing order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np

from semiring.backend import array_module
from semiring.kernels import run_parallel

from ..arguments import as_vertex
from ..errors import PredecessorError

if TYPE_CHECKING:
    from semiring.array_types import Array

__all__ = ["initial_predecessors", "update_predecessors", "path", "NO_PREDECESSOR"]

NO_PREDECESSOR = -1
PRED_DTYPE = np.dtype(np.int32)


def initial_predecessors(D: Array, zero: Any) -> Array:
    """``P[i, j] = i`` where ``D[i, j]`` is an edge (not ``zero``, ``i != j``), else ``-1``.

    Examples
    --------
    >>> D = np.array([[0.0, 2.0], [np.inf, 0.0]])
    >>> initial_predecessors(D, np.inf)
    array([[-1,  0],
           [-1, -1]], dtype=int32)
    """
    xp = array_module(D)
    n = D.shape[0]
    rows = xp.arange(n, dtype=PRED_DTYPE)[:, None]
    P = xp.where(D != zero, rows, xp.asarray(NO_PREDECESSOR, dtype=PRED_DTYPE)).astype(PRED_DTYPE, copy=False)
    idx = xp.arange(n)
    P[idx, idx] = NO_PREDECESSOR
    return P


def update_predecessors(PC: Array, PB: Array, K: Array) -> None:
    """The Pi update: ``PC[i, j] = PB[K[i, j], j]`` wherever ``K[i, j] >= 0``.

    ``K`` is the witness of ``C (+)= A (x) B`` (``-1`` where ``C`` did not
    change), ``PB`` the predecessors of ``B`` (a snapshot if ``B`` was
    overwritten), ``PC`` those of ``C``.

    Examples
    --------
    >>> PC = np.array([[7, 7]], np.int32); PB = np.array([[1, 2], [3, 4]], np.int32)
    >>> update_predecessors(PC, PB, np.array([[1, -1]], np.int32)); PC
    array([[3, 7]], dtype=int32)
    """
    xp = array_module(K)
    if K.size == 0:
        return
    if xp is np:
        from ._pred_kernels import update

        run_parallel(update, PC, PB, K)
        return
    changed = K >= 0
    src = xp.take_along_axis(PB, xp.maximum(K, 0), axis=0)
    xp.copyto(PC, src, where=changed)


def path(pred: Array, s: SupportsIndex, t: SupportsIndex | None = None) -> list[int]:
    """The vertices of a route, read from predecessors: ``path(P, s, t)``, ``path(pred, s, t)`` or ``path(pred, t)``.

    One helper for both kinds of predecessors the library returns:

    * a predecessor *matrix* ``P`` (n, n) of :func:`apsp.shortest_paths`
      with ``predecessors=True``: ``P[s, v]`` is the vertex before ``v`` on
      the route from ``s``; call ``path(P, s, t)``;
    * a predecessor *array* ``pred`` (n,) of one source, as
      :func:`graphs.sssp` returns: ``pred[v]`` is the vertex before ``v`` on
      the route from the source; call ``path(pred, s, t)`` (the route is
      checked to start at ``s``) or ``path(pred, t)`` (from the tree's root).

    A negative entry means "no predecessor" (``-1`` here; SciPy writes
    ``-9999``); vertex ids are 0-based.

    Parameters
    ----------
    pred : array (n, n) or (n,) of integers
        NumPy or CuPy (a CuPy array is read back to the host).
    s : int
        The source; with a 1-D ``pred`` and no ``t``, the target (see below).
    t : int, optional
        The target.  Required with a matrix.

    Returns
    -------
    list of int
        ``[s, ..., t]``; ``[s]`` when ``s == t``; ``[]`` when ``t`` cannot be
        reached from ``s``.  ``path(pred, t)`` walks back from ``t`` to the
        root of the tree (a vertex without predecessor) and returns
        ``[root, ..., t]``; when ``t`` itself has no predecessor it returns
        ``[t]``, which is right for the source but also what an unreached
        ``t`` gives: pass ``s`` to tell them apart.

    Raises
    ------
    TypeError
        ``s`` or ``t`` is not an integer (``1.5`` is not truncated), ``pred``
        is not an integer array, or ``t`` is missing with a matrix.
    VertexError
        ``s`` or ``t`` is not in ``[0, n)`` (also an ``IndexError``).
    PredecessorError
        ``pred`` is not a predecessor array: not square or 1-D, an entry at
        or above ``n``, a route that loops, or (1-D ``pred``) ``s`` is neither
        the root of the tree nor on the route to ``t``.

    Examples
    --------
    >>> import apsp
    >>> W = np.array([[0.0, 1.0, 9.0], [np.inf, 0.0, 1.0], [np.inf, np.inf, 0.0]])
    >>> D, P = apsp.shortest_paths(W, predecessors=True)
    >>> path(P, 0, 2)
    [0, 1, 2]
    >>> path(P, 2, 0)
    []
    >>> pred = P[0]  # the tree of source 0: what graphs.sssp(G, 0) returns
    >>> path(pred, 2), path(pred, 0, 2), path(pred, 1, 2)
    ([0, 1, 2], [0, 1, 2], [1, 2])
    """
    P = _host_predecessors(pred)
    n = P.shape[0]
    if P.ndim == 2:
        if t is None:
            raise TypeError("path(P, s, t) needs both s and t with a predecessor matrix P (n x n)")
        s, t = as_vertex("s", s, n), as_vertex("t", t, n)
        name = f"P[{s}]"
        row = P[s]
    else:
        if t is None:
            s, t = None, as_vertex("t", s, n)  # type: ignore[assignment]  # path(pred, t): no source
        else:
            s, t = as_vertex("s", s, n), as_vertex("t", t, n)
        name = "pred"
        row = P
    if s is not None and s == t:
        return [s]
    if P.ndim == 2 and row[t] < 0:
        return []
    out = [t]
    v = t
    for _ in range(n):
        u = int(row[v])
        if u < 0:  # v is a root: the source of a tree, or not reached
            break
        if u >= n:
            raise PredecessorError(f"{name}[{v}] = {u} is not a vertex (n = {n}): {name} is not a predecessor array")
        out.append(u)
        v = u
        if v == s:
            break
    else:
        raise PredecessorError(f"{name} is not a predecessor array: the route to t = {t} loops")
    if s is not None and v != s:
        if P.ndim == 2:
            raise PredecessorError(f"{name} is not a predecessor row: the route to t = {t} ends at {v}, not at s = {s}")
        if int(row[s]) >= 0:
            raise PredecessorError(
                f"s = {s} is neither the root of pred's tree (its root is {v}) nor on the route to t = {t}"
            )
        return []  # s is a root (the source), and t was not reached from it
    out.reverse()
    return out


def _host_predecessors(pred: Any) -> np.ndarray:
    """``pred`` as a NumPy integer array of shape (n,) or (n, n), or an error naming it."""
    if hasattr(pred, "get") and not isinstance(pred, np.ndarray):
        pred = pred.get()
    if not isinstance(pred, np.ndarray):
        raise TypeError(f"pred must be a NumPy or CuPy array of vertex ids, got {type(pred).__name__}")
    if pred.dtype.kind not in "iu":
        raise TypeError(f"pred must hold integers (vertex ids), got dtype {pred.dtype}")
    if not (pred.ndim == 1 or (pred.ndim == 2 and pred.shape[0] == pred.shape[1])):
        raise PredecessorError(
            f"pred must be a predecessor array (n,) or matrix (n, n), got shape {tuple(pred.shape)}"
        )
    return pred
