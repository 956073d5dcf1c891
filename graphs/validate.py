"""Checks of the arrays a :class:`graphs.Graph` is made of: weight dtypes and values, vertex ids.

Each check raises a ``ValueError`` subclass whose message names the array and
its first offending entry; nothing is converted (a wrong dtype is an error,
not a cast).  :data:`WEIGHT_DTYPES` lists the weight dtypes a graph may hold,
:data:`INDEX_LIMIT` the largest vertex count (``indices`` are int32).
"""

from __future__ import annotations

import numpy as np

from semiring.backend import array_module
from semiring.errors import DTypeError, InvalidEntryError

from .errors import GraphError, VertexError

__all__ = ["WEIGHT_DTYPES", "INDEX_LIMIT", "check_weights", "check_ids"]

WEIGHT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int32), np.dtype(np.int64))
INDEX_LIMIT = np.iinfo(np.int32).max


def check_weights(name: str, w, m: int):
    """Reject unsupported dtypes, wrong lengths and NaN; return the array unchanged.

    Parameters
    ----------
    name : str
        How the error messages call the array (``"weights"``, ``"A.data"``).
    w : array
        One weight per arc (NumPy or CuPy).
    m : int
        The number of arcs.

    Raises
    ------
    GraphError, DTypeError, InvalidEntryError

    Examples
    --------
    >>> check_weights("weights", np.array([1.0, np.nan]), 2)
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidEntryError: weights[1] is NaN; a weight must be a number
    """
    xp = array_module(w)
    w = xp.asarray(w)
    if w.ndim != 1 or w.shape[0] != m:
        raise GraphError(f"{name} must be 1-D with one entry per arc ({m}), got shape {tuple(w.shape)}")
    if np.dtype(w.dtype) not in WEIGHT_DTYPES:
        ok = ", ".join(str(d) for d in WEIGHT_DTYPES)
        raise DTypeError(f"{name} has dtype {w.dtype}; weights must be one of {ok} (convert explicitly)")
    if w.dtype.kind == "f" and m:
        bad = xp.isnan(w)
        if bool(bad.any()):
            k = int(xp.argmax(bad))
            raise InvalidEntryError(f"{name}[{k}] is NaN; a weight must be a number")
    return w


def check_ids(name: str, ids, n: int):
    """Check that ``ids`` is a 1-D integer array of vertices of a graph with ``n`` vertices; return it.

    An empty array of another dtype becomes int64.

    Raises
    ------
    GraphError, DTypeError, VertexError
        The message names the first offending entry.

    Examples
    --------
    >>> check_ids("src", np.array([0, 3]), 3)
    Traceback (most recent call last):
    ...
    graphs.errors.VertexError: src[1] = 3 is not a vertex of a graph with n = 3
    """
    xp = array_module(ids)
    ids = xp.asarray(ids)
    if ids.ndim != 1:
        raise GraphError(f"{name} must be 1-D, got shape {tuple(ids.shape)}")
    if ids.dtype.kind not in "iu":
        if ids.size == 0:
            return ids.astype(np.int64)
        raise DTypeError(f"{name} must hold integer vertex ids, got dtype {ids.dtype}")
    if ids.size:
        lo, hi = int(ids.min()), int(ids.max())
        if lo < 0 or hi >= n:
            bad = (ids < 0) | (ids >= n)
            k = int(xp.argmax(bad))
            raise VertexError(f"{name}[{k}] = {int(ids[k])} is not a vertex of a graph with n = {n}")
    return ids
