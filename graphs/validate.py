"""Checks of the arrays a :class:`graphs.Graph` is made of: weight dtypes and values, vertex ids, sizes.

Each check raises a ``ValueError`` subclass whose message names the array and
its first offending entry; nothing is converted (a wrong dtype is an error,
not a cast).  :data:`WEIGHT_DTYPES` lists the weight dtypes a graph may hold,
:data:`INDEX_LIMIT` the largest vertex count (``indices`` are int32).

Weights and infinities
    An arc's weight is finite or ``-inf``: an arc of weight ``+inf`` (the
    ``min_plus`` zero; for integers the sentinel ``iinfo.max``) is no arc, so
    :func:`check_weights` rejects it rather than keep an arc that BFS and
    connected components would count and shortest paths would not (leave the
    arc out; :meth:`graphs.Graph.from_dense` drops such entries).  Integer
    weights follow the saturation policy of :mod:`semiring.dtypes`:
    ``iinfo.min`` stands for ``-inf`` and sticks (``-inf + w = -inf``), a sum
    that leaves the range saturates at a sentinel and never wraps.
    :func:`cast_weights` converts weights to another dtype exactly or not at
    all: infinities map to infinities (sentinels), a finite value that the
    target cannot hold (too large, not integral, a float32 overflow, an int64
    that float64 would round) is an error naming the entry, never a new value.

Sizes
    :func:`check_size` checks a vertex count before anything of that size is
    allocated: at most :data:`INDEX_LIMIT` vertices, and the CSR arrays must fit
    in the memory this process may use (:func:`available_memory`, which is
    :func:`apsp.memory.usable_memory`: the least of the available memory, the
    ``ulimit -v`` / ``ulimit -d`` headroom and the control group's limit).
"""

from __future__ import annotations

import numpy as np

from apsp.memory import usable_memory as available_memory
from semiring.backend import array_module
from semiring.docstrings import fill_doc
from semiring.errors import DTypeError, InvalidEntryError
from semiring.validate import INTEGER_DOCS, as_integer

from .errors import GraphError, VertexError

__all__ = [
    "WEIGHT_DTYPES",
    "INDEX_LIMIT",
    "check_weight_dtype",
    "check_coords",
    "check_weights",
    "check_ids",
    "check_size",
    "cast_weights",
    "available_memory",
]

WEIGHT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int32), np.dtype(np.int64))
INDEX_LIMIT = np.iinfo(np.int32).max


def check_weight_dtype(name: str, dtype, unweighted: bool = False) -> np.dtype:
    """``dtype`` if it is one of :data:`WEIGHT_DTYPES` (or bool, with ``unweighted``), else a :class:`DTypeError`.

    The check of the dtype alone, before anything of the array is read: the
    message names ``name`` (the argument or array) and the dtype.

    >>> check_weight_dtype("G", np.complex128, unweighted=True)
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: G has dtype complex128; a graph's weights must be one of float32, float64, int32, int64 (or bool: unweighted); convert explicitly
    """
    dt = np.dtype(dtype)
    if dt in WEIGHT_DTYPES or (unweighted and dt == np.bool_):
        return dt
    ok = ", ".join(str(d) for d in WEIGHT_DTYPES)
    also = " (or bool: unweighted)" if unweighted else ""
    raise DTypeError(f"{name} has dtype {dt}; a graph's weights must be one of {ok}{also}; convert explicitly")


def check_coords(coords, n: int):
    """Vertex coordinates: an ``(n, d)`` array of real numbers (integers or floats), returned unchanged.

    Raises
    ------
    GraphError
        Not of shape ``(n, d)``.
    DTypeError
        Not integers or floats (complex, object, strings, dates...).

    Examples
    --------
    >>> check_coords(np.zeros((2, 2), complex), 2)
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: coords has dtype complex128; coordinates must be real numbers (integers or floats)
    """
    if coords.ndim != 2 or coords.shape[0] != n:
        raise GraphError(f"coords must have shape (n, d) = ({n}, d), got {tuple(coords.shape)}")
    if coords.dtype.kind not in "iuf":
        raise DTypeError(f"coords has dtype {coords.dtype}; coordinates must be real numbers (integers or floats)")
    return coords


def check_weights(name: str, w, m: int):
    """Reject unsupported dtypes, wrong lengths, NaN and ``+inf``; return the array unchanged.

    ``+inf`` (for integer dtypes the ``iinfo.max`` sentinel that stands for it)
    is the ``min_plus`` zero, "no arc": an arc of that weight is an error, not
    an arc that some algorithms would see and others not.  ``-inf`` (the
    ``iinfo.min`` sentinel) is kept; shortest-path algorithms reject it.

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
    >>> check_weights("weights", np.array([1.0, np.inf]), 2)
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidEntryError: weights[1] is +inf: an arc of infinite weight is no arc; leave it out
    """
    xp = array_module(w)
    w = xp.asarray(w)
    if w.ndim != 1 or w.shape[0] != m:
        raise GraphError(f"{name} must be 1-D with one entry per arc ({m}), got shape {tuple(w.shape)}")
    check_weight_dtype(name, w.dtype)
    if w.dtype.kind == "f" and m:
        bad = xp.isnan(w)
        if bool(bad.any()):
            k = int(xp.argmax(bad))
            raise InvalidEntryError(f"{name}[{k}] is NaN; a weight must be a number")
    if m:
        top = np.inf if w.dtype.kind == "f" else np.iinfo(w.dtype).max
        bad = w == top
        if bool(bad.any()):
            k = int(xp.argmax(bad))
            what = "+inf" if w.dtype.kind == "f" else f"{top}, the {w.dtype} sentinel of +inf,"
            raise InvalidEntryError(f"{name}[{k}] is {what}: an arc of infinite weight is no arc; leave it out")
    return w


def check_ids(name: str, ids, n: int | None):
    """Check that ``ids`` is a 1-D integer array of vertices of a graph with ``n`` vertices; return it.

    An empty array of another dtype becomes int64.  ``n=None`` checks the
    dtype, the shape and the sign only (before ``n`` is known).

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
        if lo < 0 or (n is not None and hi >= n):
            bad = (ids < 0) if n is None else (ids < 0) | (ids >= n)
            k = int(xp.argmax(bad))
            if n is None:
                raise VertexError(f"{name}[{k}] = {int(ids[k])} is not a vertex id (ids are 0-based, >= 0)")
            raise VertexError(f"{name}[{k}] = {int(ids[k])} is not a vertex of a graph with n = {n}")
    return ids


def csr_bytes(n: int, m: int, weight_itemsize: int = 8) -> int:
    """Bytes a CSR of ``n`` vertices and ``m`` arcs needs while it is built from COO.

    The int64 ``indptr`` and the counting sort's two int64 bucket arrays (``3 *
    8 * (n + 1)``), the int32 ``indices``, the weights and the sort order (int64)
    of the ``m`` arcs.

    >>> csr_bytes(10, 0)
    264
    """
    return 24 * (n + 1) + m * (4 + 8 + weight_itemsize)


@fill_doc(INTEGER_DOCS)
def check_size(name: str, n, m: int = 0, weight_itemsize: int = 8, memory: int | None = None) -> int:
    """A vertex count as an ``int``, checked against the index limit and the memory, before allocating.

    Parameters
    ----------
    {name}
    n : int
        The vertex count: a Python or NumPy integer (a float, even an integral
        one, is a TypeError: it would be silently truncated elsewhere).
    m : int
        The number of arcs the CSR will hold.
    weight_itemsize : int
        Bytes per weight (0 for an unweighted graph).
    memory : int, optional
        Bytes available; default :func:`available_memory` (:func:`apsp.memory.usable_memory`).

    {returns_int}
    GraphError
        ``n < 0``; ``n`` exceeds :data:`INDEX_LIMIT` (``2**31 - 1``, column
        indices are int32); or the CSR arrays (:func:`csr_bytes`) would not
        fit in the available memory.  The message names the limit hit.

    Examples
    --------
    >>> check_size("n", 3)
    3
    >>> check_size("n", 2**31 + 5)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphError: n = 2147483653 vertices exceeds the limit of 2147483647 (2**31 - 1) vertices: a graph stores its column indices as int32
    >>> check_size("n", 10**9, memory=2**30)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphError: n = 1000000000 vertices and 0 arcs need 24000000024 bytes (22.4 GiB) for the CSR arrays; 1.0 GiB of memory is available
    """
    if isinstance(n, (bool, np.bool_)):  # (its own message: no type name)
        raise TypeError(f"{name} must be an integer vertex count, got {n!r}")
    n = as_integer(name, n, message="{name} must be an integer vertex count, got {value!r} ({type})", bools=True)
    if n < 0:
        raise GraphError(f"{name} must be >= 0, got {n}")
    if n > INDEX_LIMIT:
        raise GraphError(
            f"{name} = {n} vertices exceeds the limit of {INDEX_LIMIT} (2**31 - 1) vertices: "
            "a graph stores its column indices as int32"
        )
    need = csr_bytes(n, int(m), weight_itemsize)
    if need > 2**28:  # below 256 MiB, not worth a look at the memory
        have = available_memory() if memory is None else memory
        if have is not None and need > have:
            raise GraphError(
                f"{name} = {n} vertices and {int(m)} arcs need {need} bytes ({need / 2**30:.1f} GiB) for the "
                f"CSR arrays; {have / 2**30:.1f} GiB of memory is available"
            )
    return n


def cast_weights(name: str, w, dtype):
    """``w`` converted to ``dtype`` exactly, infinities to infinities, or an error naming the entry.

    ``+inf`` / ``-inf`` (for integer ``w`` the sentinels ``iinfo.max`` /
    ``iinfo.min``) become the infinities of ``dtype`` (its sentinels for an
    integer ``dtype``).  A finite value must stay the same finite value: an
    integer ``dtype`` takes integral values strictly between its sentinels; a
    float ``dtype`` takes integers it holds exactly and floats that do not
    overflow it (float64 to float32 rounds to the nearest float32, as any
    float32 computation does).

    Parameters
    ----------
    name : str
        How the messages call the array.
    w : array
        NumPy or CuPy array of a :data:`WEIGHT_DTYPES` dtype.
    dtype : dtype
        One of :data:`WEIGHT_DTYPES` or bool.

    Returns
    -------
    array of ``dtype`` on ``w``'s device (``w`` itself if the dtype is the same).

    Raises
    ------
    InvalidEntryError
        A finite value that ``dtype`` cannot hold (the message names it).

    Examples
    --------
    >>> cast_weights("weights", np.array([np.inf, -np.inf, 3.0]), np.int32)
    array([ 2147483647, -2147483648,           3], dtype=int32)
    >>> cast_weights("weights", np.array([2.5]), np.int64)
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidEntryError: weights[0] = 2.5 is not an integer; it has no int64 value
    >>> cast_weights("weights", np.array([3_000_000_000]), np.int32)
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidEntryError: weights[0] = 3000000000 does not fit int32 (finite values lie strictly between -2147483648 and 2147483647, the sentinels of -inf and +inf)
    """
    xp = array_module(w)
    dtype = np.dtype(dtype)
    src = np.dtype(w.dtype)
    if src == dtype or dtype == np.bool_:
        return w.astype(dtype, copy=False)

    def fail(mask, why):
        k = int(xp.argmax(mask))
        v = w[k].item()
        raise InvalidEntryError(f"{name}[{k}] = {v!r} {why}")

    if src.kind == "f":
        pos, neg = w == np.inf, w == -np.inf
    else:
        pos, neg = w == np.iinfo(src).max, w == np.iinfo(src).min
    finite = ~(pos | neg)
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        if src.kind == "f":
            frac = finite & (xp.floor(w) != w)
            if bool(frac.any()):
                fail(frac, f"is not an integer; it has no {dtype} value")
            # float(info.max) is exact for int32 and 2**63 for int64: both tests are exact.
            out = finite & ((w <= float(info.min)) | (w >= float(info.max)))
        else:
            out = finite & ((w <= info.min) | (w >= info.max))
        if bool(out.any()):
            fail(out, f"does not fit {dtype} (finite values lie strictly between {info.min} and {info.max}, "
                      "the sentinels of -inf and +inf)")
        with np.errstate(invalid="ignore", over="ignore"):
            r = xp.where(finite, w, 0).astype(dtype)
        r[pos] = info.max
        r[neg] = info.min
        return r
    # float target
    with np.errstate(over="ignore", invalid="ignore"):
        r = w.astype(dtype)
    if src.kind == "f":
        over = finite & ~xp.isfinite(r)
        if bool(over.any()):
            fail(over, f"overflows {dtype} (largest finite {np.finfo(dtype).max})")
        return r
    r64 = r.astype(np.float64)
    big = r64 >= 2.0**63  # an int64 near iinfo.max rounds up to 2**63, which has no int64 value
    back = xp.where(big, 0, r64).astype(np.int64)
    lost = finite & (big | (back != w.astype(np.int64)))
    if bool(lost.any()):
        fail(lost, f"has no exact {dtype} value")
    r[pos] = np.inf
    r[neg] = -np.inf
    return r
