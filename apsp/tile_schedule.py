"""The blocked Floyd-Warshall schedule on separate tiles: the steps one tile task runs, and who owns which tile.

:mod:`apsp.blocked_fw` runs the schedule on one ``n x n`` buffer.  A cluster
holds the matrix as a grid of ``b x b`` tiles ``T[I, J]`` (the last row and
column of tiles may be smaller), each owned by one worker (:func:`owner`, a 2-D
block-cyclic layout over a ``pr x pc`` grid of workers), and round ``K`` of
the schedule (pivots ``K b .. K b + b - 1``) is, with ``T`` the tiles before
the round:

1. *diagonal*: ``T'[K, K] = T[K, K]*`` (:func:`close_diagonal_tile`);
2. *row panel*: ``T'[K, J] = T'[K, K] (x) T[K, J]`` for ``J != K``
   (:func:`row_panel_tile`);
3. *column panel*: ``T'[I, K] = T[I, K] (x) T'[K, K]`` for ``I != K``
   (:func:`column_panel_tile`);
4. *the rest*: ``T'[I, J] = T[I, J] (+) T[I, K] (x) T'[K, J]``
   (:func:`interior_tile`), one semiring GEMM per tile with the
   *old* column tile, exactly as :func:`apsp.blocked_fw.blocked_floyd_warshall`
   multiplies the old column panel by the updated row panel.

These are the same operations, in the same order per entry, as the
single-buffer schedule: the diagonal is closed by :func:`apsp.rkleene.rkleene`
(distances) or :func:`apsp.blocked_fw.panel_closure_pred` (predecessors), the
products run in :meth:`apsp.closure_state.Job.gemm` (the library's semiring
GEMM, witness and Pi update included), and a GEMM's entry ``(i, j)`` depends
only on row ``i`` of ``A`` and column ``j`` of ``B``, so cutting the products
into tiles changes no result.  With predecessors, the row panel is closed by
Floyd-Warshall over whole panel rows (:mod:`apsp.blocked_fw`); a column of the
panel only reads the pivot columns, so each row-panel tile runs
:func:`~apsp.blocked_fw.panel_closure_pred` on ``[T[K, K] | T[K, J]]`` (the
diagonal tile before the round, recomputed beside every panel tile: twice the
panel work, ``2 b^2 n`` of the round's ``b n^2``), which gives the same values
and predecessors as the whole panel would.

Tiles are ``(D, P)`` pairs (``P`` is ``None`` without predecessors) of NumPy
arrays on CPU workers or CuPy arrays on GPU workers.  Every step returns new
arrays and never writes into its arguments: a cluster may keep an input tile
and run a step again (after a lost worker), and must then get the same answer.

Bad input does not raise inside a step.  A tile with an invalid entry
(:func:`prepare_tile`) or a closed diagonal tile with a bad diagonal entry (a
negative cycle, :func:`close_diagonal_tile`) comes back as a :class:`Stopped`
value instead of a tile, every later step that reads one returns it unchanged
(at no cost), and the driver finds it among the final diagonal checks
(:func:`bad_diagonal`) and raises the error there.  An exception raised inside
a Dask task is logged by its worker with a traceback ("Compute Failed") before
the caller sees it: bad input is the caller's error to report, not the
worker's.  Nothing here imports Dask; :mod:`apsp.distributed` schedules these
steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from semiring.backend import array_module, to_device
from semiring.dense import scatter_add
from semiring.errors import SemiringError
from semiring.validate import check_matrix

from .base_case import CPU_BASE, GPU_BASE
from .blocked_fw import panel_closure_pred
from .closure_state import Job
from .exact_integers import narrow, widen
from .predecessors import NO_PREDECESSOR, PRED_DTYPE
from .rkleene import rkleene
from .working_matrix import working_matrix

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = [
    "Tile",
    "Stopped",
    "process_grid",
    "owner",
    "tile_ranges",
    "prepare_tile",
    "dense_tile",
    "close_diagonal_tile",
    "row_panel_tile",
    "column_panel_tile",
    "interior_tile",
    "bad_diagonal",
    "finished_tile",
    "finite_extent",
]

#: A tile: distances and predecessors (``None`` without predecessors).
Tile = tuple


@dataclass(frozen=True)
class Stopped:
    """What a step returns in place of a tile when the closure cannot be computed; later steps pass it on.

    Attributes
    ----------
    vertex : int or None
        A vertex (of the whole matrix) whose diagonal entry went bad: it lies
        on a diverging closed walk (a negative cycle for ``min_plus``).
    error : SemiringError or None
        The input error found in a tile (an invalid entry, named with the
        tile's rows and columns), to be raised by the caller.

    Examples
    --------
    >>> from semiring import min_plus
    >>> stop = close_diagonal_tile(min_plus, (np.array([[0.0, 1.0], [-2.0, 0.0]]), None), 10)
    >>> stop
    Stopped(vertex=10, error=None)
    >>> interior_tile(min_plus, (np.zeros((1, 1)), None), np.zeros((1, 2)), stop) is stop
    True
    """

    vertex: int | None = None
    error: SemiringError | None = None


def _stopped(*parts) -> Stopped | None:
    """The first :class:`Stopped` among a step's arguments, or ``None``."""
    return next((p for p in parts if isinstance(p, Stopped)), None)


def process_grid(p: int) -> tuple[int, int]:
    """The ``pr x pc`` grid of ``p`` workers: the most nearly square factorisation, ``pr <= pc``.

    >>> process_grid(1), process_grid(2), process_grid(6), process_grid(8), process_grid(64)
    ((1, 1), (1, 2), (2, 3), (2, 4), (8, 8))
    """
    if p < 1:
        raise ValueError(f"a cluster needs at least one worker, got {p}")
    pr = int(math.isqrt(p))
    while p % pr:
        pr -= 1
    return pr, p // pr


def owner(i: int, j: int, grid: tuple[int, int]) -> int:
    """The index of the worker that owns tile ``(i, j)`` in the 2-D block-cyclic layout over ``grid``.

    >>> [[owner(i, j, (2, 2)) for j in range(4)] for i in range(3)]
    [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1]]
    """
    pr, pc = grid
    return (i % pr) * pc + (j % pc)


def tile_ranges(n: int, b: int) -> list[tuple[int, int]]:
    """The index ranges of the tiles along one side: ``[0, b), [b, 2b), ...``, the last one shorter.

    >>> tile_ranges(5, 2), tile_ranges(1, 4), tile_ranges(0, 4)
    ([(0, 2), (2, 4), (4, 5)], [(0, 1)], [])
    """
    return [(r, min(n, r + b)) for r in range(0, n, b)]


def _job(S: "Semiring", D, P) -> Job:
    """A silent job over one tile (no early check: steps check diagonals themselves)."""
    xp = array_module(D)
    return Job(S, D, P, None, base_size=GPU_BASE if xp is not np else CPU_BASE, early_check=False)


def dense_tile(S: "Semiring", shape: tuple[int, int], rows, cols, vals, dtype, has_weights: bool = True):
    """The dense tile (semiring ``zero`` off-arc) of the arcs ``(rows, cols, vals)``, parallel arcs ``(+)``-ed.

    What :mod:`apsp.matrix_input` does for a whole sparse matrix, for one tile;
    every arc weighs ``1`` (``True`` for bool) when ``has_weights`` is false or
    the dtype is bool.

    >>> from semiring import min_plus
    >>> dense_tile(min_plus, (2, 3), np.array([0, 0]), np.array([2, 2]), np.array([4.0, 3.0]), np.float64)
    array([[inf, inf,  3.],
           [inf, inf, inf]])
    """
    dt = np.dtype(dtype)
    D = np.full(shape, S.zero_value(dt), dtype=dt)
    if len(rows):
        v = np.ones(len(rows), dt) if (not has_weights or dt == np.bool_) else np.asarray(vals).astype(dt, copy=False)
        scatter_add(S, D, np.asarray(rows), np.asarray(cols), v)
    return D


def prepare_tile(S: "Semiring", W, r0: int, c0: int, predecessors: bool, dtype, device: str,
                 wide: bool = False, check: bool = True) -> Tile | Stopped:
    """Tile ``(r0, c0)`` of the working matrix: validated, cast, on ``device``, diagonal ``(+) one``, initial ``P``.

    Parameters
    ----------
    S : Semiring
    W : array (h, w)
        The tile of the input (NumPy or CuPy); it is not modified.
    r0, c0 : int
        Its first row and column in the whole matrix.
    predecessors : bool
    dtype : dtype
        The result's dtype (a cast when ``W``'s differs).
    device : {"cpu", "gpu"}
    wide : bool
        An int32 tile of a closure run in int64 (:mod:`apsp.exact_integers`).
    check : bool
        Validate the entries (NaN, forbidden infinities), naming the tile.

    Returns
    -------
    (D, P), or Stopped
        ``Stopped(error=...)`` (an :class:`~semiring.errors.InvalidEntryError`
        naming the tile and the entry) when ``check`` finds a bad entry.

    Examples
    --------
    >>> from semiring import min_plus
    >>> D, P = prepare_tile(min_plus, np.array([[5.0, 1.0], [np.inf, 2.0]]), 2, 0, True, np.float64, "cpu")
    >>> D, P  # rows 2 and 3, columns 0 and 1: an off-diagonal tile keeps its entries
    (array([[ 5.,  1.],
           [inf,  2.]]), array([[ 2,  2],
           [-1,  3]], dtype=int32))
    """
    h, w = W.shape
    if check:
        try:
            check_matrix(f"W[{r0}:{r0 + h}, {c0}:{c0 + w}]", W, S)
        except SemiringError as err:
            return Stopped(error=err)
    X = to_device(W, device)
    if X.dtype != np.dtype(dtype):
        X = X.astype(dtype)
    if wide:
        X = widen(X)
    xp = array_module(X)
    if r0 == c0:
        D, P = working_matrix(S, X, xp, predecessors, copy=True)
        if P is not None and r0:
            P = xp.where(P >= 0, P + PRED_DTYPE.type(r0), P).astype(PRED_DTYPE, copy=False)
        return D, P
    D = xp.array(X, copy=True, order="C")
    if not predecessors:
        return D, None
    rows = xp.arange(r0, r0 + h, dtype=PRED_DTYPE)[:, None]
    P = xp.where(D != S.zero_value(D.dtype), rows, xp.asarray(NO_PREDECESSOR, dtype=PRED_DTYPE))
    return D, P.astype(PRED_DTYPE, copy=False)


def close_diagonal_tile(S: "Semiring", tile: Tile | Stopped, offset: int) -> Tile | Stopped:
    """Step 1: the closure of a diagonal tile (rows and columns ``offset ..``), checked for a negative cycle.

    Returns
    -------
    (D, P), or Stopped
        ``Stopped(vertex=v)`` when a diagonal entry went bad: ``v`` (a vertex of
        the whole matrix, the first such) lies on a diverging closed walk; the
        cycle itself is found by the caller, who holds the input.  Nothing is
        raised (see the module docstring).  A :class:`Stopped` tile is returned
        as it is.

    Examples
    --------
    >>> from semiring import min_plus
    >>> D = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> close_diagonal_tile(min_plus, (D, None), 0)[0]
    array([[0., 4., 5.],
           [2., 0., 1.],
           [1., 5., 0.]])
    >>> D[2, 0] = -6.0  # 0 -> 1 -> 2 -> 0 weighs -1
    >>> close_diagonal_tile(min_plus, (D, None), 100)
    Stopped(vertex=100, error=None)
    """
    if isinstance(tile, Stopped):
        return tile
    D = tile[0].copy()
    P = None if tile[1] is None else tile[1].copy()
    if P is None:
        job = _job(S, D, None)
        job.offset = offset
        rkleene(job)
    else:
        panel_closure_pred(S, D, P, 0)
    bad = bad_diagonal(S, (D, P), offset)
    return Stopped(vertex=int(bad[0])) if bad.size else (D, P)


def row_panel_tile(S: "Semiring", diag_closed: Tile | Stopped, diag_before: Tile | Stopped | None,
                   tile: Tile | Stopped) -> Tile | Stopped:
    """Step 2: ``T[K, J] = T[K, K]* (x) T[K, J]`` (with predecessors: the panel's Floyd-Warshall on ``[T[K, K] | T[K, J]]``).

    ``diag_before`` (the diagonal tile before the round) is read only with
    predecessors; pass ``None`` without, so that it does not travel.

    Examples
    --------
    >>> from semiring import min_plus
    >>> Dkk = np.array([[0.0, 1.0], [np.inf, 0.0]]); Dkj = np.array([[np.inf], [2.0]])
    >>> row_panel_tile(min_plus, (Dkk, None), (Dkk, None), (Dkj, None))[0]
    array([[3.],
           [2.]])
    """
    stop = _stopped(diag_closed, diag_before, tile)
    if stop is not None:
        return stop
    D, P = tile
    if P is None:
        C = D.copy()
        _job(S, C, None).gemm(diag_closed[0], D, C)
        return C, None
    xp = array_module(D)
    b = D.shape[0]
    R = xp.concatenate([diag_before[0], D], axis=1)
    Q = xp.concatenate([diag_before[1], P], axis=1)
    panel_closure_pred(S, R, Q, 0)
    return xp.ascontiguousarray(R[:, b:]), xp.ascontiguousarray(Q[:, b:])


def column_panel_tile(S: "Semiring", tile: Tile | Stopped, diag_closed: Tile | Stopped) -> Tile | Stopped:
    """Step 3: ``T[I, K] (+)= T[I, K] (x) T[K, K]*`` (the Pi update reading ``P[K, K]``).

    Examples
    --------
    >>> from semiring import min_plus
    >>> Dkk = np.array([[0.0, 1.0], [np.inf, 0.0]])
    >>> column_panel_tile(min_plus, (np.array([[5.0, np.inf]]), None), (Dkk, None))[0]
    array([[5., 6.]])
    """
    stop = _stopped(tile, diag_closed)
    if stop is not None:
        return stop
    D, P = tile
    C = D.copy()
    PC = None if P is None else P.copy()
    _job(S, C, PC).gemm(D, diag_closed[0], C, PB=diag_closed[1], PC=PC)
    return C, PC


def interior_tile(S: "Semiring", tile: Tile | Stopped, column_before, row_after: Tile | Stopped) -> Tile | Stopped:
    """Step 4: ``T[I, J] (+)= T[I, K] (x) T'[K, J]``: one semiring GEMM (``column_before`` is ``D`` of ``T[I, K]``).

    Steps 2 to 4 return the first :class:`Stopped` among their arguments, computing nothing.

    Examples
    --------
    >>> from semiring import min_plus
    >>> interior_tile(min_plus, (np.array([[9.0]]), None), np.array([[1.0, 2.0]]), (np.array([[3.0], [5.0]]), None))[0]
    array([[4.]])
    """
    stop = _stopped(tile, column_before, row_after)
    if stop is not None:
        return stop
    D, P = tile
    C = D.copy()
    PC = None if P is None else P.copy()
    _job(S, C, PC).gemm(column_before, row_after[0], C, PB=row_after[1], PC=PC)
    return C, PC


def bad_diagonal(S: "Semiring", tile: Tile | Stopped, offset: int) -> np.ndarray | Stopped:
    """The vertices (of the whole matrix) whose diagonal entry in this diagonal tile is not ``one``.

    A :class:`Stopped` tile is returned as it is (the driver inspects these checks).

    >>> from semiring import min_plus
    >>> bad_diagonal(min_plus, (np.array([[0.0, 1.0], [1.0, -2.0]]), None), 10)
    array([11])
    """
    if isinstance(tile, Stopped):
        return tile
    D = tile[0]
    xp = array_module(D)
    bad = xp.diagonal(D) != S.one_value(D.dtype)
    return to_device(xp.nonzero(bad)[0], "cpu").astype(np.int64) + offset


def finished_tile(tile: Tile | Stopped, part: int, narrow_int32: bool, device: str | None):
    """Part ``part`` (0: ``D``, 1: ``P``) of a finished tile, narrowed back to int32 if run wide, on ``device`` (``None``: where it is).

    A :class:`Stopped` tile is returned as it is.

    >>> finished_tile((np.array([[2**40]]), None), 0, True, "cpu")
    array([[2147483647]], dtype=int32)
    """
    if isinstance(tile, Stopped):
        return tile
    X = tile[part]
    if part == 0 and narrow_int32:
        X = narrow(X)
    return X if device is None else to_device(X, device)


def finite_extent(W) -> int:
    """The largest ``|w|`` over the entries of the int32 tile ``W`` that are not sentinels (0 if none).

    The whole-matrix test is :func:`apsp.exact_integers.sums_may_leave_int32`:
    ``2 (n - 1) max |w| >= iinfo(int32).max``.

    >>> finite_extent(np.array([[2**31 - 1, -7], [3, 0]], np.int32))
    7
    """
    xp = array_module(W)
    info = np.iinfo(np.int32)
    inner = (W != info.max) & (W != info.min)
    if not bool(inner.any()):
        return 0
    X = xp.where(inner, W, 0).astype(xp.int64)
    return int(max(int(X.max()), -int(X.min())))
