"""Values the Dask tasks of :mod:`apsp.distributed` pass between them, built without Dask.

* :class:`Stopped`: what a task returns instead of raising when its input is
  bad (an invalid entry, named with its rows and columns) or a diagonal went
  bad (a vertex on a diverging closed walk).  An exception raised inside a
  Dask task is logged by its worker with a traceback ("Compute Failed")
  before the caller sees it; bad input is the caller's error to report, so a
  task hands it on as a value, later tasks that read it return it unchanged,
  and the driver raises it.  :mod:`graphs.paths.distributed` uses it the same
  way.
* :func:`dense_tile`: the dense block of a sparse input's arcs (what
  :meth:`graphs.Graph.to_dense` does for a whole graph), built on the
  worker that owns the rows.
* :func:`finite_extent`: the largest finite ``|w|`` of an int32 block, for the
  driver's test whether int32 sums could leave the range.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from semiring.backend import array_module
from semiring.dense import scatter_add
from semiring.errors import SemiringError

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["Stopped", "dense_tile", "finite_extent"]


@dataclass(frozen=True)
class Stopped:
    """What a task returns in place of its block when the closure cannot be computed; later tasks pass it on.

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
    >>> Stopped(vertex=10)
    Stopped(vertex=10, error=None)
    """

    vertex: int | None = None
    error: SemiringError | None = None


def dense_tile(S: "Semiring", shape: tuple[int, int], rows, cols, vals, dtype, has_weights: bool = True):
    """The dense tile (semiring ``zero`` off-arc) of the arcs ``(rows, cols, vals)``, parallel arcs ``(+)``-ed.

    What a whole graph's ``__semiring_matrix__`` does, for one tile;
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


def finite_extent(W) -> int:
    """The largest ``|w|`` over the entries of the int32 tile ``W`` that are not sentinels (0 if none).

    The whole-matrix test is :func:`apsp.paths.exact_integers.sums_may_leave_int32`:
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
