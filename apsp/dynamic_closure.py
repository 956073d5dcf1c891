"""Closures that absorb arc updates: :class:`Closure`.

A :class:`Closure` holds an arc matrix ``W``, its closure ``D = W*`` and,
when asked, the predecessors ``P``, on the CPU or the GPU, and keeps them
current as arcs change, without starting over.

**Better arcs** (insertions, decreases for ``min_plus``): a new best path
uses the changed arcs, joined by old best paths between their endpoints
``S``.  With ``M = D[S, S] (+) A`` (``A``: the new arcs among ``S``) and its
closure ``M*``,

    ``D' = D (+) D[:, S] (x) M* (x) D[S, :]``

two thin semiring products and a ``|S| x |S|`` closure (the endpoint-block
form of the rank-k update; Ausiello, Italiano, Marchetti-Spaccamela & Nanni,
"Incremental algorithms for minimal length paths", J. Algorithms 12, 1991,
for one arc).  Without predecessors, an arc that does not beat the path it
would replace (``w (+) D[u, v] == D[u, v]``) changes nothing and is dropped,
and where the arcs left are fewer than the endpoints (new arcs between
distinct places: ``|S|`` is twice their number) the same update is written
over the arcs, ``D' = D (+) D[:, U] (x) Z (x) D[V, :]`` with tails ``U``,
heads ``V`` and ``Z[s, t] = w_s (x) M*[v_s, u_t] (x) w_t`` (``w_s`` on the
diagonal: the best chains of new arcs entering by one and leaving by
another), which halves the inner dimension of the products.  Only a row
that now reaches an exit better, and a column that an entry now reaches
better, can change: the second product runs on that block alone, in place
on the CPU (:mod:`apsp._closure_block_template`), and on the GPU, without
predecessors and for a few endpoints, in three fused launches
(:mod:`apsp.cuda.closure_update`).  A cycle that the batch makes improve without bound is found in
``M*`` before anything is written: the closure is left as it was and
:class:`~apsp.errors.NegativeCycleError` names the cycle.

**Worse arcs** (increases, removals): a pair ``(i, j)`` can change only if
an old arc ``u -> v`` lay on a best path from ``i`` to ``j``; then the
prefix ``i ~> u -> v`` is a best path to ``v``, so only the rows ``i`` with
``D[i, u] (x) W[u, v] == D[i, v]`` (the arc *tight* for ``i``) can change
(for ``min_plus`` floats the test allows for the rounding of a path sum, so
it may pick a few rows too many, never one too few).  Those rows ``Q`` are
computed again from the unchanged rest ``C``:

    ``D'[Q, :] = (W'[Q, Q])* (x) (I (+) W'[Q, C] (x) D[C, :])``

(a path from ``Q`` stays in ``Q``, then leaves it for good at a vertex whose
row is still right).  Without predecessors only the columns for which an
old arc was tight too (``W[u, v] (x) D[v, j] == D[u, j]``) are computed: a
pair changes only if the arc lay on its best path, so the block is ``Q``
times those columns.  When the columns are fewer than the rows the same is
done on the transpose; when either is large (more than a third of the
vertices) the whole closure is recomputed, which is then cheaper; so it is
when a batch of better arcs has more endpoints than a third of the vertices.

**Predecessors** (``min_plus``) follow the products' witnesses: in the first formula the
route to ``j`` ends like the old route from the endpoint ``b`` the product
picked (``P[b, j]``), or, where ``j`` is itself an endpoint, with the last
step of the route in ``M*`` (a new arc ``c -> j``, or the old route from
``c``); in the second, like the old route from the vertex ``k`` where the
path left ``Q``, or like the route inside ``Q``.  Every route weighs its
distance; among equally good routes the one kept is the one the product's
witness names (smallest index).  Ties on cycles of zero weight could close a
loop of predecessors: each update checks that every row is still a tree, and
computes the predecessors anew in the rare case one is not.

Supported semirings: those whose ``add`` is ``min`` or ``max`` over an
exact order and whose closure the package computes: ``min_plus`` (integers
saturate, never wrap), ``max_min`` (widest paths), ``min_max`` (minimax
paths) and ``lor_land`` (reachability).  Others raise
``NotImplementedError`` naming the semiring.

Examples
--------
>>> import numpy as np
>>> from apsp import Closure
>>> inf = np.inf
>>> W = np.array([[0.0, 4.0, inf], [inf, 0.0, 1.0], [inf, inf, 0.0]])
>>> C = Closure(W, predecessors=True)
>>> float(C.distances[0, 2])
5.0
>>> C.update([0], [2], [2.0])         # a shorter arc 0 -> 2
>>> float(C.distances[0, 2]), C.path(0, 2)
(2.0, [0, 2])
>>> C.remove([0], [2])                # and gone again
>>> float(C.distances[0, 2]), C.path(0, 2)
(5.0, [0, 1, 2])
"""

from __future__ import annotations

import copy as _copy
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

import semiring as sr
from semiring import Semiring
from semiring.backend import array_module, to_device
from semiring.dense import WITNESS_DTYPE, elementwise_into, matmul_into
from semiring.errors import DTypeError, InvalidEntryError
from semiring.kernels import cpu_kernels, cpu_scalar_ops, run_rows, sentinels
from semiring.validate import check_entries, first_repeated_arc

from .api import shortest_paths
from .errors import NegativeCycleError, VertexError
from .negative_cycle import raise_for_cycle
from .paths.predecessors import path as _route

if TYPE_CHECKING:
    from semiring.array_types import Array, Device

__all__ = ["Closure", "DYNAMIC_SEMIRINGS", "absorbs_updates"]

def absorbs_updates(S: Semiring) -> bool:
    """Whether a closure over ``S`` can absorb updates here.

    It needs a selective ``add`` (min, max, or), a closure the package
    computes, and a ``mul`` that is selective too (exact) or ``min_plus``'s
    plus (its rounding allowed for).

    >>> import semiring as sr
    >>> absorbs_updates(sr.max_min), absorbs_updates(sr.max_times)
    (True, False)
    """
    caps = S.capabilities
    return caps.selective and caps.closable and (caps.mul_selective or caps.has_last_hop)


#: The built-in semirings whose closures absorb updates (derived from their capabilities).
DYNAMIC_SEMIRINGS = tuple(name for name, S in sr.BUILTIN.items() if absorbs_updates(S) and name == S.name)

#: Recompute everything when more than this share of the rows (or columns) must be redone.
RECOMPUTE_SHARE = 1 / 3
#: Blocks of at most this many vertices have their closures computed on the host when the closure lives on the GPU.
HOST_CLOSURE_MAX = 64
#: The CPU block update reaches the columns that can improve one by one where they are fewer than a
#: ``1 / SCATTERED_COLUMNS`` share of all, else it runs over whole rows (a contiguous, vectorised loop).
SCATTERED_COLUMNS = 8
#: Blocks of at most this many vertices (without predecessors) are closed on the host by an elementwise Floyd-Warshall.
TINY_CLOSURE = 4



def _combine(S: Semiring, which: Literal["add", "mul"], A: Array, B: Array) -> Array:
    """``A (+) B`` (``which="add"``) or ``A (x) B`` of the closure's own arrays, broadcast: their entries were
    checked at the door (a checked ``S.add`` / ``S.mul`` would scan them again, a read-back on the GPU)."""
    out = array_module(A).empty(np.broadcast_shapes(A.shape, B.shape), dtype=A.dtype)
    return elementwise_into(S, which, A, B, out)


def _semiring(semiring: Semiring | str) -> Semiring:
    S = sr.get(semiring) if isinstance(semiring, str) else semiring
    if not isinstance(S, Semiring):
        raise TypeError(f"semiring must be a Semiring or its name, got {type(semiring).__name__}")
    if not absorbs_updates(S):
        raise NotImplementedError(
            f"Closure updates need one of the semirings {', '.join(DYNAMIC_SEMIRINGS)}; got {S.name}"
        )
    return S


def _vertices(name: str, value: Any, n: int) -> np.ndarray:
    """``value`` as a 1-D int64 array of vertex ids in ``[0, n)`` (on the host)."""
    arr = np.asarray(to_device(value, "cpu") if not isinstance(value, (list, tuple, int)) else value)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of vertex ids, got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    bad = np.flatnonzero((arr < 0) | (arr >= n))
    if bad.size:
        k = int(bad[0])
        raise VertexError(f"{name}[{k}] = {int(arr[k])} is not a vertex of a graph with n = {n} (ids are 0 .. {n - 1})")
    return arr


def _weights(value: Any, dtype: np.dtype, size: int, S: Semiring) -> np.ndarray:
    """``value`` as ``size`` weights of ``dtype`` (on the host), each held exactly; bad entries named."""
    arr = np.asarray(to_device(value, "cpu") if not isinstance(value, (list, tuple, int, float)) else value)
    if arr.ndim == 0:
        arr = np.full(size, arr)
    if arr.shape != (size,):
        raise ValueError(f"weights must hold one value per arc ({size}), got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "biuf":
        raise TypeError(f"weights must be numbers, got dtype {arr.dtype}")
    if arr.dtype != dtype:
        with np.errstate(all="ignore"):
            cast = arr.astype(dtype)
            back = cast.astype(arr.dtype)
        lost = ~((back == arr) | (np.isnan(back) & np.isnan(arr)) if arr.dtype.kind == "f" else back == arr)
        if dtype.kind in "iu" and arr.dtype.kind == "f":
            lost |= ~np.isfinite(arr)
        if lost.any():
            k = int(np.argmax(lost))
            raise DTypeError(f"weights[{k}] = {arr[k].item()!r} has no exact value in the closure's dtype {dtype}")
        arr = cast
    check_entries("weights", arr, S)
    return arr


class Closure:
    """A closure ``W*`` (and predecessors) kept current as the arcs of ``W`` change.

    Parameters
    ----------
    W : array (n, n)
        NumPy or CuPy; the semiring ``zero`` (``inf`` for ``min_plus``)
        where there is no arc.  Checked as :func:`apsp.shortest_paths` checks
        it (NaN and forbidden values rejected; a negative cycle raises).
        The object keeps its own copy.
    predecessors : bool
        Keep the predecessors too (:attr:`predecessors`, :meth:`path`).
    device : {"auto", "cpu", "gpu"}
        Where the matrices live; ``"auto"``: where ``W`` does.
    semiring : Semiring or str
        One of :data:`DYNAMIC_SEMIRINGS`.

    Raises
    ------
    NotImplementedError
        A semiring whose closure cannot absorb updates here.
    NegativeCycleError
        ``W`` has a cycle that improves without bound.

    Examples
    --------
    >>> import numpy as np
    >>> inf = np.inf
    >>> C = Closure(np.array([[0.0, 1.0, inf], [inf, 0.0, 1.0], [1.0, inf, 0.0]]))
    >>> C.update([1], [2], [5.0]); C.distances
    array([[0., 1., 6.],
           [6., 0., 5.],
           [1., 2., 0.]])
    >>> C.add_vertices(1); C.update([3], [0], [0.5]); C.distances[3]
    array([0.5, 1.5, 6.5, 0. ])
    >>> C.remove_vertices([1]); C.distances
    array([[0. , inf, inf],
           [1. , 0. , inf],
           [0.5, inf, 0. ]])
    """

    def __init__(
        self,
        W: Any,
        *,
        predecessors: bool = False,
        device: Device = "auto",
        semiring: Semiring | str = "min_plus",
    ) -> None:
        if not isinstance(predecessors, bool):
            raise TypeError(f"predecessors must be a bool, got {type(predecessors).__name__}")
        self._S = _semiring(semiring)
        if predecessors and not self._S.capabilities.has_last_hop:
            raise NotImplementedError(
                f"Closure keeps predecessors for min_plus only: the best routes of {self._S.name} need not "
                "extend one another, so the update rules do not keep a tree"
            )
        if isinstance(W, np.ma.MaskedArray):  # masked entries are no arc, as apsp.shortest_paths reads them
            W = W.filled(self._S.zero_value(W.dtype))
        if not (isinstance(W, np.ndarray) or array_module(W) is not np):
            raise TypeError(
                f"W must be a NumPy or CuPy array (n, n), got {type(W).__name__}; for a graph, pass its dense "
                "matrix (graphs.Graph.to_dense())"
            )
        if device == "gpu" and array_module(W) is np:  # the closure lives where device says
            W = to_device(W, "gpu")
        elif device == "cpu" and array_module(W) is not np:
            W = to_device(W, "cpu")
        P: Array | None
        if predecessors:
            D, P = shortest_paths(W, semiring=self._S, predecessors=True, device=device)
        else:
            D, P = shortest_paths(W, semiring=self._S, device=device), None
        self._xp = array_module(D)
        self._W = self._xp.array(to_device(W, "cpu" if self._xp is np else "gpu"), dtype=D.dtype, copy=True)
        self._D, self._P = D, P

    # -- what it holds ------------------------------------------------------------------------------------------

    @property
    def semiring(self) -> Semiring:
        """The semiring of the closure."""
        return self._S

    @property
    def n(self) -> int:
        """The number of vertices."""
        return int(self._D.shape[0])

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the arcs and distances."""
        return self._D.dtype

    @property
    def distances(self) -> Array:
        """The closure ``D`` (n, n); a read-only view on the CPU."""
        return self._view(self._D)

    @property
    def predecessors(self) -> Array:
        """``P`` (n, n, int32): ``P[i, j]`` the vertex before ``j`` on the route from ``i``, ``-1`` if none."""
        if self._P is None:
            raise ValueError("this Closure keeps no predecessors: build it with predecessors=True")
        return self._view(self._P)

    @property
    def arcs(self) -> Array:
        """The arc matrix ``W`` (n, n) as updated; a read-only view on the CPU."""
        return self._view(self._W)

    def _view(self, X: Array) -> Array:
        if self._xp is np:
            X = X.view()
            X.flags.writeable = False
        return X

    def path(self, i: int, j: int) -> list[int]:
        """The vertices of the route kept from ``i`` to ``j`` (``[]`` when there is none); see :func:`apsp.path`.

        >>> import numpy as np
        >>> C = Closure(np.array([[0.0, 1.0], [np.inf, 0.0]]), predecessors=True)
        >>> C.path(0, 1), C.path(1, 0)
        ([0, 1], [])
        """
        return _route(self.predecessors, i, j)

    def copy(self) -> "Closure":
        """An independent copy (its own arrays)."""
        new = _copy.copy(self)
        new._W, new._D = self._W.copy(), self._D.copy()
        new._P = None if self._P is None else self._P.copy()
        return new

    def __repr__(self) -> str:
        where = "gpu" if self._xp is not np else "cpu"
        pred = ", predecessors" if self._P is not None else ""
        return f"Closure(n={self.n}, semiring={self._S.name}, dtype={self.dtype}, {where}{pred})"

    # -- updates ------------------------------------------------------------------------------------------------

    def update(self, src: Any, dst: Any, weights: Any) -> None:
        """Set the arcs ``src[k] -> dst[k]`` to ``weights[k]`` (a batch; ``zero`` removes an arc).

        Insertions and decreases (better values), increases and removals
        (worse values) may be mixed; arcs whose value does not change are
        skipped.  The batch is applied whole or not at all.

        Parameters
        ----------
        src, dst : sequences of int
            The arcs' tails and heads (one arc at most once per batch).
        weights : sequence of numbers, or one number for all
            Held exactly by the closure's dtype (an int closure takes no
            ``2.5``, a float32 one no ``0.1`` given as float64 unless it is exact).

        Raises
        ------
        VertexError
            A vertex id out of range (names the argument and entry).
        TypeError
            Ids that are not integers, weights that are not numbers.
        DTypeError
            A weight the closure's dtype does not hold exactly.
        InvalidEntryError
            NaN or another value the semiring forbids; an arc twice in the batch.
        NegativeCycleError
            The batch makes a cycle improve without bound (the closure is unchanged).

        Examples
        --------
        >>> import numpy as np
        >>> C = Closure(np.array([[0, 3], [1, 0]], dtype=np.int32))
        >>> C.update([0, 1], [1, 0], [2, 5]); C.distances
        array([[0, 2],
               [5, 0]], dtype=int32)
        >>> C.update([1], [0], [-3])
        Traceback (most recent call last):
        ...
        apsp.errors.NegativeCycleError: negative cycle through vertex 0 (0 -> 1 -> 0, weight -1); the closure does not exist
        >>> C.distances  # unchanged
        array([[0, 2],
               [5, 0]], dtype=int32)
        """
        us, vs = self._arcs(src, dst)
        self._apply(us, vs, _weights(weights, self.dtype, us.size, self._S))

    def _arcs(self, src: Any, dst: Any) -> tuple[np.ndarray, np.ndarray]:
        """The checked tails and heads of a batch (each arc once)."""
        n = self.n
        us, vs = _vertices("src", src, n), _vertices("dst", dst, n)
        if us.size != vs.size:
            raise ValueError(f"src and dst must have one entry per arc: {us.size} and {vs.size} entries")
        twice = first_repeated_arc(us, vs, n)
        if twice is not None:
            a, b = twice
            raise InvalidEntryError(f"the arc {int(us[a])} -> {int(vs[a])} is given twice in the batch (entries {a} and {b})")
        return us, vs

    def remove(self, src: Any, dst: Any) -> None:
        """Remove the arcs ``src[k] -> dst[k]`` (set them to the semiring ``zero``); see :meth:`update`.

        >>> import numpy as np
        >>> C = Closure(np.array([[0.0, 1.0], [1.0, 0.0]]))
        >>> C.remove([0], [1]); C.distances
        array([[ 0., inf],
               [ 1.,  0.]])
        """
        us, vs = self._arcs(src, dst)
        self._apply(us, vs, np.full(us.size, self._S.zero_value(self.dtype), dtype=self.dtype))

    def add_vertices(self, k: int) -> None:
        """Add ``k`` vertices without arcs (ids ``n .. n + k - 1``).

        >>> import numpy as np
        >>> C = Closure(np.zeros((1, 1))); C.add_vertices(2); C.n
        3
        """
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise TypeError(f"k must be an integer, got {type(k).__name__}")
        if k < 0:
            raise ValueError(f"k must be >= 0, got {k}")
        xp, n, m = self._xp, self.n, self.n + int(k)
        zero, one = self._S.zero_value(self.dtype), self._S.one_value(self.dtype)
        W = xp.full((m, m), zero, dtype=self.dtype)
        D = xp.full((m, m), zero, dtype=self.dtype)
        W[:n, :n], D[:n, :n] = self._W, self._D
        idx = xp.arange(n, m)
        D[idx, idx] = one
        if self._P is not None:
            P = xp.full((m, m), -1, dtype=self._P.dtype)
            P[:n, :n] = self._P
            self._P = P
        self._W, self._D = W, D

    def remove_vertices(self, ids: Any) -> None:
        """Remove the vertices ``ids`` and their arcs; the others are renumbered in order.

        Only the rows whose best paths went through a removed vertex are
        computed again.

        >>> import numpy as np
        >>> inf = np.inf
        >>> C = Closure(np.array([[0.0, 1.0, inf], [inf, 0.0, 1.0], [inf, inf, 0.0]]))
        >>> C.remove_vertices([1]); C.distances
        array([[ 0., inf],
               [inf,  0.]])
        """
        n = self.n
        gone = np.unique(_vertices("ids", ids, n))
        if not gone.size:
            return
        xp, S = self._xp, self._S
        keep = np.setdiff1d(np.arange(n), gone)
        rows = np.zeros(n, dtype=bool)
        for x in gone.tolist():
            through = _combine(S, "mul", self._D[:, x][:, None], self._D[x, :][None, :])
            tight = self._tight(through, self._D)
            tight[x, :] = False
            tight[:, x] = False
            xp.fill_diagonal(tight, False)
            rows |= to_device(tight.any(axis=1), "cpu")
        kd = xp.asarray(keep)
        W = self._W[kd][:, kd]
        D = self._D[kd][:, kd]
        P = None
        if self._P is not None:
            renumber = np.full(n + 1, -1, dtype=np.int64)  # index n stands for -1
            renumber[keep] = np.arange(keep.size)
            old = self._P[kd][:, kd]
            P = xp.asarray(renumber)[xp.where(old < 0, n, old)].astype(self._P.dtype)
        redo = np.flatnonzero(rows[keep])
        self._touched = np.zeros(keep.size, dtype=bool)
        D, P = self._settle_rows(W, D, P, redo)
        if P is not None and not self._is_forest(P, np.flatnonzero(self._touched)):  # ties on zero-weight cycles
            D, P = shortest_paths(W, semiring=S, predecessors=True)
        self._W, self._D, self._P = W, D, P

    # -- the engine ---------------------------------------------------------------------------------------------

    def _apply(self, us: np.ndarray, vs: np.ndarray, ws: np.ndarray) -> None:
        """Apply a checked batch: worse arcs first (rows recomputed), then better ones (endpoint block)."""
        xp, S = self._xp, self._S
        if not us.size:
            return
        ud, vd = xp.asarray(us), xp.asarray(vs)
        old = to_device(self._W[ud, vd], "cpu")  # the stored values, read once; compared on the host
        better = (_combine(S, "add", ws, old) == ws) & (ws != old)
        worse = (_combine(S, "add", ws, old) == old) & (ws != old)
        if not better.any() and not worse.any():
            return
        W, D, P = self._W, self._D, self._P  # W is changed in place and restored if the batch is refused
        self._touched = np.zeros(self.n, dtype=bool)  # rows whose predecessors the rules wrote
        if worse.any() and better.any():  # the first step must not touch what the second may refuse
            D = D.copy()
            P = None if P is None else P.copy()
        if worse.any():  # first the worse arcs alone: D becomes the closure of W with them
            w_all = np.flatnonzero(worse)
            W[xp.asarray(us[w_all]), xp.asarray(vs[w_all])] = xp.asarray(ws[w_all])
            loops = us == vs  # a self loop is never better than staying put: never on a best path
            w_idx = np.flatnonzero(worse & ~loops)
            if w_idx.size:
                D, P = self._worsen(W, D, P, us[w_idx], vs[w_idx], old[w_idx])
        if better.any():  # then the better ones, by the endpoint block
            b_idx = np.flatnonzero(better)
            if b_idx.size == us.size:  # every arc better: the ids are on the device already
                W[ud, vd] = xp.asarray(ws)
            else:
                W[xp.asarray(us[b_idx]), xp.asarray(vs[b_idx])] = xp.asarray(ws[b_idx])
            try:
                self._improve(W, D, P, us[b_idx], vs[b_idx], ws[b_idx])
            except BaseException:
                W[ud, vd] = xp.asarray(old)
                raise
        if P is not None and not self._is_forest(P, np.flatnonzero(self._touched)):  # ties on zero-weight cycles
            D, P = shortest_paths(W, semiring=S, predecessors=True)
        self._W, self._D, self._P = W, D, P

    def _leave(self, Wq: Array, cd: Array, D: Array, witness: bool) -> tuple[Array, Array | None]:
        """``Wq[:, C] (x) D[C, :]``: the best way from each row of ``Wq`` to leave for a vertex of ``C``, then its row.

        Sparse rows (few arcs, as in road networks) go through the sparse
        product (``nnz x n`` work instead of ``|Q| x |C| x n``); with a
        witness, or where ``Wq`` is dense, the dense product.
        """
        xp, S = self._xp, self._S
        zero = S.zero_value(Wq.dtype)
        Wc = Wq[:, cd]
        arcs = Wc != zero
        nnz = int(arcs.sum())
        if nnz * 16 > Wc.size:
            return self._product(Wc, D[cd, :], witness)
        if witness or xp is not np:
            return self._leave_by_arcs(Wc, arcs, cd, D, witness)
        from scipy.sparse import csr_matrix

        from semiring.sparse import mxm

        r, k = np.nonzero(arcs)
        used = np.unique(k)  # only the rows of D that an arc reaches
        A = csr_matrix((Wc[r, k], (r, np.searchsorted(used, k))), shape=(Wc.shape[0], used.size))
        return mxm(S, A, np.ascontiguousarray(D[cd[used], :]), check=False), None

    def _leave_by_arcs(
        self, Wc: Array, arcs: Array, cd: Array, D: Array, witness: bool
    ) -> tuple[Array, Array | None]:
        """:meth:`_leave` for sparse rows, arc by arc: the ``t``-th arc of every row at once, ``t`` up to the
        largest row's arc count (``nnz x n`` work), with the witness (the first arc, in column order, of the best
        value, as the product's)."""
        xp, S = self._xp, self._S
        r, k = xp.nonzero(arcs)  # row-major: each row's arcs in column order
        q = Wc.shape[0]
        B = xp.full((q, D.shape[1]), S.zero_value(D.dtype), dtype=D.dtype)
        K = xp.full(B.shape, -1, dtype=WITNESS_DTYPE) if witness else None
        if not r.size:
            return B, K
        start = xp.searchsorted(r, xp.arange(q))
        rank = xp.arange(r.size) - start[r]
        for t in range(int(rank.max()) + 1):
            at = xp.nonzero(rank == t)[0]
            rt, kt = r[at], k[at]
            cand = _combine(S, "mul", Wc[rt, kt][:, None], D[cd[kt], :])
            cur = B[rt]
            better = _combine(S, "add", cand, cur) != cur
            B[rt] = xp.where(better, cand, cur)
            if K is not None:
                K[rt] = xp.where(better, kt[:, None].astype(WITNESS_DTYPE), K[rt])
        return B, K

    def _small_closure(self, M: Array, witness: bool) -> Any:
        """The closure of a small block (and its predecessors): on the host when it lives on the GPU and has at
        most :data:`HOST_CLOSURE_MAX` vertices (a few kernel launches and copies cost more than the work)."""
        xp, S = self._xp, self._S
        if xp is not np and not witness and M.shape[0] > HOST_CLOSURE_MAX and not isinstance(M, np.ndarray):
            from .cuda.fw_kernels import TILE

            if M.shape[0] <= TILE:
                return self._closed_tile_gpu(M)
        if xp is np or M.shape[0] > HOST_CLOSURE_MAX:
            return shortest_paths(M, semiring=S, predecessors=witness)
        Mh = to_device(M, "cpu")
        if not witness and Mh.shape[0] <= TINY_CLOSURE:
            # Floyd-Warshall in a few elementwise steps; an improving cycle goes to the full closure, which names it
            C = Mh
            for t in range(Mh.shape[0]):
                C = _combine(S, "add", C, _combine(S, "mul", C[:, t:t + 1], C[t:t + 1, :]))
            one = S.one_value(Mh.dtype)
            diag = np.diagonal(C)
            if not bool((_combine(S, "add", diag, np.full_like(diag, one)) != one).any()):
                np.fill_diagonal(C, _combine(S, "add", diag, np.full_like(diag, one)))
                return xp.asarray(C)
        out = shortest_paths(Mh, semiring=S, predecessors=witness)
        return tuple(xp.asarray(x) for x in out) if witness else xp.asarray(out)

    def _closed_tile_gpu(self, M: Array) -> Array:
        """The closure of a GPU block of at most one tile of vertices in one launch
        (:func:`apsp.cuda.fw_kernels.close_block_gpu`: Floyd-Warshall in shared memory); an improving cycle goes
        to the full closure, which names it."""
        from .cuda.fw_kernels import close_block_gpu

        xp, S = self._xp, self._S
        C = xp.array(M, dtype=M.dtype, order="C", copy=True)
        close_block_gpu(S, C)
        one = xp.full(C.shape[0], S.one_value(C.dtype), dtype=C.dtype)
        diag = _combine(S, "add", xp.diagonal(C), one)
        if bool((diag != one).any()):
            return shortest_paths(M, semiring=S)  # raises NegativeCycleError
        xp.fill_diagonal(C, diag)
        return C

    def _arc_chains(self, Mstar: Array, pu: np.ndarray, pv: np.ndarray, ws: np.ndarray) -> Array:
        """``Z[s, t] = w[s] (x) M*[v[s], u[t]] (x) w[t]`` (``w[s]`` itself on the diagonal): the best chains that
        enter by the arc ``u[s] -> v[s]`` and leave by ``u[t] -> v[t]`` (``pu``, ``pv``: their places in ``M*``),
        so that ``D' = D (+) D[:, u] (x) Z (x) D[v, :]``, inner dimension the number of arcs."""
        S = self._S
        bp = array_module(Mstar)
        w = bp.asarray(ws)
        Z = _combine(S, "mul", _combine(S, "mul", w[:, None], Mstar[bp.asarray(pv)[:, None], bp.asarray(pu)[None, :]]),
                     w[None, :])
        d = bp.arange(w.size)
        Z[d, d] = _combine(S, "add", Z[d, d], w)
        return Z

    def _block_kernels(self) -> Any:
        """The CPU block-update kernel module for this closure's semiring and dtype, else ``None``."""
        if cpu_scalar_ops(self._S, self.dtype) is None:
            return None
        return cpu_kernels(self._S, self.dtype, template="apsp._closure_block_template")

    def _block_update(self, mod: Any, D: np.ndarray, R: np.ndarray, C: np.ndarray, X: np.ndarray,
                      E: np.ndarray) -> None:
        """``D[R, C] (+)= X[R] (x) E[:, C]`` in place on the CPU by the kernels ``mod``, the rows over the threads."""
        lo, hi = sentinels(D.dtype)
        R, C = R.astype(np.int64), C.astype(np.int64)
        X, E = np.ascontiguousarray(X), np.ascontiguousarray(E)
        if C.size * SCATTERED_COLUMNS > D.shape[1]:  # many columns: whole rows, at vector speed
            run_rows(lambda r0, r1: mod.rows_update(D, R, X, E, lo, hi, r0, r1), R.size,
                     R.size * D.shape[1] * X.shape[1], align=1)
        else:
            run_rows(lambda r0, r1: mod.block_update(D, R, C, X, E, lo, hi, r0, r1), R.size,
                     R.size * C.size * X.shape[1], align=1)

    def _product(self, A: Array, B: Array, witness: bool) -> tuple[Array, Array | None]:
        """``A (x) B`` (and its witness) of checked operands, through the unchecked product."""
        xp = self._xp
        A, B = xp.ascontiguousarray(A), xp.ascontiguousarray(B)
        C = xp.empty((A.shape[0], B.shape[1]), dtype=A.dtype)
        K = xp.empty(C.shape, dtype=WITNESS_DTYPE) if witness else None
        matmul_into(self._S, A, B, C, K)
        return C, K

    def _is_forest(self, P: Array, rows: np.ndarray) -> bool:
        """Whether the rows ``rows`` of ``P`` are trees (each route reaches its root in fewer than ``n`` steps)."""
        xp = self._xp
        n = P.shape[0]
        if not rows.size:
            return True
        J = P[xp.asarray(rows)].astype(xp.int64)
        r = xp.arange(rows.size)[:, None]
        steps = 1
        while steps < n:  # pointer doubling: J holds the 2**k-th ancestor
            J = xp.where(J >= 0, J[r, xp.maximum(J, 0)], -1)
            steps *= 2
        return not bool((J >= 0).any())

    def _tight(self, through: Array, D: Array) -> Array:
        """Where ``through`` (a path's value) is as good as ``D`` (and not ``zero``); rounding allowed for floats."""
        xp, S = self._xp, self._S
        zero = S.zero_value(D.dtype)
        if S.capabilities.mul_is_plus and D.dtype.kind == "f":  # min_plus floats: sums round
            n = max(self.n, 2)
            slack = 4 * n * np.finfo(D.dtype).eps * (xp.abs(through) + xp.abs(D))
            with np.errstate(invalid="ignore"):
                return (through <= D + slack) & (through != zero)
        return (_combine(S, "add", through, D) == through) & (through != zero)

    def _worsen(
        self, W: Array, D: Array, P: Array | None, us: np.ndarray, vs: np.ndarray, w_old: np.ndarray
    ) -> tuple[Array, Array | None]:
        """Recompute the rows (or columns) that may have used the worsened arcs ``us -> vs`` (old values ``w_old``)."""
        xp, S = self._xp, self._S
        ud, vd, wd = xp.asarray(us), xp.asarray(vs), xp.asarray(w_old)
        rows = to_device(self._tight(_combine(S, "mul", D[:, ud], wd[None, :]), D[:, vd]).any(axis=1), "cpu")
        Q = np.flatnonzero(rows)
        if P is None and Q.size:
            cols = to_device(self._tight(_combine(S, "mul", wd[:, None], D[vd, :]), D[ud, :]).any(axis=0), "cpu")
            Qc = np.flatnonzero(cols)
            # a pair can change only if the arc was tight for its row and for its column: the block Q x Qc
            if Qc.size < Q.size:
                Dt, _ = self._settle_rows(W.T, D.T, None, Qc, Q)
                return Dt.T, None
            return self._settle_rows(W, D, None, Q, Qc)
        return self._settle_rows(W, D, P, Q)

    def _settle_rows(
        self, W: Array, D: Array, P: Array | None, Q: np.ndarray, cols: np.ndarray | None = None
    ) -> tuple[Array, Array | None]:
        """``D`` and ``P`` with the rows ``Q`` computed again from ``W`` and the other rows (right as they are); only
        the columns ``cols`` (sorted) where given (without predecessors: the others cannot change)."""
        xp, S = self._xp, self._S
        n = W.shape[0]
        if not Q.size:
            return D, P
        if Q.size > RECOMPUTE_SHARE * n:  # predecessors computed anew: trees by construction
            if P is not None:
                return shortest_paths(W, semiring=S, predecessors=True)
            return shortest_paths(W, semiring=S), None
        if P is not None:
            self._touched[Q] = True
        one = S.one_value(D.dtype)
        witness = P is not None
        if cols is not None and cols.size == 0:
            return D, P
        if not witness and cols is not None and xp is not np:  # sparse rows on the GPU: relaxation, no dense A*
            from .cuda.closure_settle import row_arcs_gpu, settle_applies, settle_rows_gpu

            arcs = row_arcs_gpu(W, Q, S.zero_value(D.dtype))
            if settle_applies(S, D, arcs):
                if settle_rows_gpu(S, D, arcs, cols, one):
                    return D, P
                return shortest_paths(W, semiring=S), None  # pragma: no cover - no improving cycle after worsening
        C = np.setdiff1d(np.arange(n), Q)
        qd, cd = xp.asarray(Q), xp.asarray(C)
        kd = None if cols is None else xp.asarray(cols)
        # |Q| x n (or x |cols|): leave Q by one arc, then an old row
        B, KB = self._leave(W[qd], cd, D if kd is None else D[:, kd], witness)
        r = xp.arange(Q.size)
        # staying put: a path back to itself is no better than one (no improving cycle)
        if cols is None:
            B[r, qd] = one
        else:
            pos = np.minimum(np.searchsorted(cols, Q), cols.size - 1)
            inside = np.flatnonzero(cols[pos] == Q)
            B[xp.asarray(inside), xp.asarray(pos[inside])] = one
        inner = self._small_closure(W[qd][:, qd], witness)
        Astar, PA = inner if witness else (inner, None)
        Dq, KA = self._product(Astar, B, witness)
        if kd is None:
            D[qd, :] = Dq
        else:
            D[qd[:, None], kd[None, :]] = Dq  # (Q x cols: the block that can change)
        if witness:
            # witness is P is not None: the inner closure's predecessors and both witnesses were computed
            assert P is not None and PA is not None and KA is not None and KB is not None
            Pq = xp.full(Dq.shape, -1, dtype=P.dtype)
            ii, jj = xp.nonzero(KA >= 0)
            q = KA[ii, jj]
            kb = KB[q, jj]
            home = jj == qd[q]  # the route ends inside Q at j itself: its last step is the inner route's
            inner_pred = PA[ii, q]
            k = cd[xp.maximum(kb, 0)]
            via = xp.where(k == jj, qd[q], P[k, jj])
            pred = xp.where(home, xp.where(inner_pred >= 0, qd[xp.maximum(inner_pred, 0)], -1), via)
            Pq[ii, jj] = pred.astype(P.dtype)
            P[qd, :] = Pq
        return D, P

    def _improve(
        self, W: Array, D: Array, P: Array | None, us: np.ndarray, vs: np.ndarray, ws: np.ndarray
    ) -> None:
        """``D (+)= D[:, S] (x) M* (x) D[S, :]`` for the better arcs ``us -> vs`` (in place, after checking ``M*``)."""
        xp, S = self._xp, self._S
        ends = np.unique(np.concatenate([us, vs]))
        pos = np.searchsorted(ends, np.concatenate([us, vs]))
        k = ends.size
        if k > RECOMPUTE_SHARE * D.shape[0]:  # the thin products would cost more than the whole closure
            out = shortest_paths(W, semiring=S, predecessors=P is not None)  # raises for an improving cycle
            D[...] = out[0] if P is not None else out
            if P is not None:
                P[...] = out[1]
            return
        ed = xp.asarray(ends)
        zero = S.zero_value(D.dtype)
        witness = P is not None
        # a few endpoints of a GPU closure without predecessors: their block read once, M built on the host
        host_block = xp is not np and not witness and k <= HOST_CLOSURE_MAX
        bp = np if host_block else xp
        A = bp.full((k, k), zero, dtype=D.dtype)
        A[bp.asarray(pos[: us.size]), bp.asarray(pos[us.size:])] = bp.asarray(ws)
        DS = to_device(D[ed[:, None], ed[None, :]], "cpu") if host_block else D[ed][:, ed]
        M = _combine(S, "add", DS, A)
        try:
            inner = self._small_closure(M, witness)
        except NegativeCycleError as exc:
            raise_for_cycle(S, W, int(ends[exc.vertex]))
            raise  # pragma: no cover - raise_for_cycle always raises
        Mstar, PM = inner if witness else (inner, None)
        if not witness and xp is not np:
            from .cuda.closure_update import fused_update_applies, improve_block_gpu

            if fused_update_applies(S, D, k):  # the endpoint block, in three launches
                improve_block_gpu(S, D, ends, Mstar)
                return
        a_ids, b_ids, Z = ends, ends, Mstar  # D' = D (+) D[:, a] (x) Z (x) D[b, :]
        if not witness:
            pu, pv = pos[: us.size], pos[us.size:]
            old_best = DS[bp.asarray(pu), bp.asarray(pv)]
            useful = to_device(_combine(S, "add", bp.asarray(ws), old_best) != old_best, "cpu")
            if not useful.any():  # no arc beats the path it would replace: nothing changes
                return
            if int(useful.sum()) < k:  # fewer arcs than endpoints: the chains of new arcs between them
                keep = np.flatnonzero(useful)
                a_ids, b_ids = us[keep], vs[keep]
                Z = self._arc_chains(Mstar, pu[keep], pv[keep], ws[keep])
        Z = xp.asarray(Z)
        ad, bd = xp.asarray(a_ids), xp.asarray(b_ids)
        DA = D[:, ad]
        X, KX = self._product(DA, Z, witness)  # n x r: to an entry, then through Z
        rows = D[bd, :]  # a copy (fancy indexing): D is written below
        # Only a row that now reaches some exit better, and a column some entry now reaches better, can improve
        # (D[i, j] is no worse than D[i, b] (x) D[b, j] nor than D[i, a] (x) D[a, j]): the product runs on that block.
        Y = self._product(Z, rows, False)[0]
        DB = DA if b_ids is a_ids else D[:, bd]
        EA = rows if b_ids is a_ids else D[ad, :]
        R = xp.nonzero((_combine(S, "add", X, DB) != DB).any(axis=1))[0]
        Cc = xp.nonzero((_combine(S, "add", Y, EA) != EA).any(axis=0))[0]
        if not R.size or not Cc.size:
            return
        whole = R.size * Cc.size > D.size // 4  # a block that large: the in-place product over all of D
        mod = self._block_kernels() if not witness and not whole and xp is np else None
        if mod is not None:
            self._block_update(mod, D, R, Cc, X, rows)  # in place: no copy of the block
            return
        if whole:
            R, Cc = xp.arange(D.shape[0]), xp.arange(D.shape[1])
            T, XR, rows_c = D, X, rows
        else:
            T = D[R[:, None], Cc[None, :]]
            XR, rows_c = X[R], xp.ascontiguousarray(rows[:, Cc])
        KY = xp.empty(T.shape, dtype=WITNESS_DTYPE) if witness else None
        matmul_into(S, XR, rows_c, T, KY, True)
        if not whole:
            D[R[:, None], Cc[None, :]] = T
        if KY is None:
            return
        assert P is not None and KX is not None  # KY is there: witness, so P is kept and X's witness computed
        old_rows = P[ed, :]
        si, sj = xp.nonzero(KY >= 0)  # strictly improved
        ii, jj = R[si], Cc[sj]
        b = KY[si, sj]
        pred = old_rows[b, jj]
        home = ed[b] == jj  # the route ends at an endpoint j: its last step is M*'s
        if bool(home.any()):
            h = xp.nonzero(home)[0]
            assert PM is not None  # witness: M*'s predecessors were computed
            a = KX[ii[h], b[h]]
            c = PM[a, b[h]]
            new_arc = (A[c, b[h]] != zero) & (_combine(S, "add", A[c, b[h]], DS[c, b[h]]) == A[c, b[h]]) & (A[c, b[h]] != DS[c, b[h]])
            pred[h] = xp.where(new_arc, ed[c], old_rows[c, jj[h]])
        P[ii, jj] = pred.astype(P.dtype)
        self._touched[to_device(xp.unique(ii), "cpu")] = True
