"""Exact int32 closures: a sum that could leave the int32 range is formed in int64.

Integer kernels saturate (:mod:`semiring.dtypes`): a sum that reaches a
sentinel becomes that infinity and stays one.  Saturation is not associative
when weights of both signs meet (``(2**30 + 2**30) - 2**30`` saturates to
``+inf``, ``2**30 + (2**30 - 2**30)`` is ``2**30``), so near the edge of the
range the answer would depend on the order in which a method adds.

A second rule makes non-negative integer closures fast: when every finite
weight is at least 0 and no shortest path can reach ``P = (iinfo.max - 1) // 2``
(:func:`plain_infinity`), the ``+inf`` sentinel is lowered to ``P`` for the
run (:func:`lower_infinity`).  Every entry then stays in ``[0, P]`` (a closure
only ever lowers an entry, and its diagonal is 0), every sum of two entries is
at most ``2 P < iinfo.max``, so the products pass the range check of
:mod:`semiring.int_range` and run on plain sums (one fused add+min per pair on
the GPU); a result of ``P`` or more is a path through a missing arc and becomes
``+inf`` again (:func:`restore_infinity`).

The closure algorithms only add two path weights at a time, so every sum they
form (without a negative cycle) is bounded by ``2 (n - 1) max |w|`` over the
finite weights.  When that bound may reach the int32 sentinels,
:func:`apsp.shortest_paths` runs ``min_plus`` and ``max_plus`` closures of
int32 input in int64 (where every such sum is exact: ``2 n`` int32 values
cannot overflow it) and clamps the result back: an exact distance at or beyond
``iinfo(int32).max`` becomes the ``+inf`` sentinel, one at or below
``iinfo(int32).min`` the ``-inf`` sentinel.  Every method then gives the exact
answer, or the infinity at the edge, whatever the order of its sums.  (int64
input has no wider type: there, sums of one sign are still exact, and see the
policy in :mod:`semiring.dtypes`.)

A third rule brings weights of both signs onto the fast route: Johnson
potentials (:mod:`apsp.paths.potentials`) turn every arc non-negative,
``w'(u, v) = w(u, v) + h(u) - h(v) >= 0``, exactly in int64; when every
reweighted arc fits int32 the reweighted matrix is closed there on the
stand-in route and mapped back, ``d(u, v) = d'(u, v) - h(u) + h(v)``, with the
sentinels of the result's dtype where a distance leaves its range.  A negative
cycle, or negative paths of so many arcs that finding ``h`` would cost more
than the saving, leave the matrix to the general route, which reports the
cycle as before.

:func:`exact_closure` is the one place that picks among these routes
(:func:`integer_route`) and runs the one it picked, falling back to the general
route when a check after the closure fails; every route gives the same bits.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring import lor_land
from semiring.families import FAMILIES
from semiring.kernels import PLAIN_DTYPES, array_module, padding_value, run_rows, sums_in_range, to_device

from .potentials import johnson_potentials, reweight, unreweight
from .working_matrix import working_matrix

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["ADDITIVE_FAMILIES", "sums_may_leave_int32", "widen", "narrow", "stand_in_route", "stand_in_is_exact",
           "plain_infinity", "lower_infinity", "restore_infinity", "IntegerRoute", "integer_route", "exact_closure",
           "POTENTIALS_MIN_N"]

#: The built-in families whose products are sums (capability ``mul_is_plus``; the others never
#: leave the input's values, or multiply).
ADDITIVE_FAMILIES = tuple(name for name, f in FAMILIES.items() if f.capabilities.mul_is_plus)
_I32 = np.iinfo(np.int32)
_I64 = np.iinfo(np.int64)
_ROWS = 1024  # rows scanned at a time: bounded temporary memory


def sums_may_leave_int32(W, S: "Semiring") -> bool:
    """Whether a closure of the int32 matrix ``W`` over ``S`` may form a sum whose saturation depends on the order.

    That needs finite weights of both signs and ``2 (n - 1) max |w|`` at or
    beyond ``iinfo.max``: a sum of one sign that reaches a sentinel stays
    there, whatever order the method adds in.  ``False`` for other dtypes,
    and for semirings whose products are not sums (capability ``mul_is_plus``).  One pass over ``W`` (row slabs on
    the CPU; two fused reductions on the GPU).

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0, 2**30], [-2**30, 0]], np.int32)  # both signs, 2 (n - 1) 2**30 = 2**31
    >>> sums_may_leave_int32(W, min_plus), sums_may_leave_int32(W // 2, min_plus)
    (True, False)
    >>> sums_may_leave_int32(np.abs(W), min_plus)  # one sign: saturation is the same in every order
    False
    """
    if np.dtype(W.dtype) != np.int32 or not S.capabilities.mul_is_plus or W.shape[0] < 2:
        return False
    n = W.shape[0]
    ext = masked_extremes(W, (int(_I32.max), int(_I32.min)))
    if ext is None or not ext[0] < 0 < ext[1]:
        return False  # sums of one sign saturate alike in any order: the int32 kernels are exact
    return 2 * (n - 1) * max(ext[1], -ext[0]) >= _I32.max


def widen(W: Any) -> Any:
    """The int32 matrix ``W`` as int64, its sentinels mapped to int64's.

    >>> widen(np.array([[2**31 - 1, -2**31, 5]], np.int32))
    array([[ 9223372036854775807, -9223372036854775808,                    5]])
    """
    xp = array_module(W)
    if xp is np and W.ndim == 2:  # one Numba pass over row blocks
        from ._integer_kernels import widen_rows

        out, src = np.empty(W.shape, dtype=np.int64), np.asarray(W)  # (a memmap as a plain view)
        run_rows(lambda r0, r1: widen_rows(src, out, r0, r1), W.shape[0], W.size)
        return out
    W64 = W.astype(xp.int64)
    W64[W == _I32.max] = _I64.max
    W64[W == _I32.min] = _I64.min
    return W64


def narrow(D: Any) -> Any:
    """The int64 closure ``D`` back in int32: values outside the int32 range become its sentinels.

    >>> narrow(np.array([[2**40, -2**40, 7, 2**31 - 1]]))
    array([[ 2147483647, -2147483648,           7,  2147483647]], dtype=int32)
    """
    xp = array_module(D)
    if xp is np and D.ndim == 2:  # one Numba pass over row blocks
        from ._integer_kernels import narrow_rows

        out, src = np.empty(D.shape, dtype=np.int32), np.asarray(D)
        run_rows(lambda r0, r1: narrow_rows(src, out, r0, r1), D.shape[0], D.size)
        return out
    return xp.clip(D, _I32.min, _I32.max).astype(xp.int32)


def masked_extremes(W, excluded: tuple[int, ...]) -> tuple[int, int] | None:
    """``(min, max)`` of the entries of the integer matrix ``W`` not in ``excluded`` (None if there are none).

    ``excluded`` must contain ``iinfo(W.dtype).max`` (a sentinel).  On the CPU
    one Numba pass over row blocks, one per thread; on the GPU two fused
    reductions over the whole matrix and one read-back.

    >>> masked_extremes(np.array([[5, 2**31 - 1], [-3, 0]], np.int32), (2**31 - 1,))
    (-3, 5)
    """
    top = int(np.iinfo(W.dtype).max)
    if not 1 <= len(excluded) <= 2 or top not in excluded:
        raise ValueError(f"masked_extremes: excluded must be one or two values including iinfo.max ({top}), "
                         f"got {excluded}")
    ex = (int(excluded[0]), int(excluded[-1]))
    xp = array_module(W)
    if xp is not np:
        lo, hi = (int(v) for v in _gpu_extremes(W, ex).get())
        return None if lo == top else (lo, hi)
    from ._integer_kernels import masked_extremes_rows

    parts = []  # one [min, max, count] per chunk of rows (list.append is atomic)
    t = W.dtype.type

    def rows(r0: int, r1: int) -> None:
        out = np.array([_I64.max, _I64.min, 0], dtype=np.int64)
        masked_extremes_rows(W, t(ex[0]), t(ex[1]), r0, r1, out)
        parts.append(out)

    run_rows(rows, W.shape[0], W.size)
    if not sum(int(p[2]) for p in parts):
        return None
    return min(int(p[0]) for p in parts), max(int(p[1]) for p in parts)


def _gpu_extremes(W, ex: tuple[int, int]):
    """``[min, max]`` over the entries of the CuPy matrix ``W`` not in ``ex`` (a CuPy array of two;
    ``min`` is ``iinfo.max`` when there are none)."""
    import cupy

    info = np.iinfo(W.dtype)
    t = W.dtype.type
    args = (t(ex[0]), t(ex[1]))
    # along the rows first: a custom reduction to one value runs in a single thread block
    lo = _reduction("min", W.dtype.str)(W, *args, t(info.max), axis=1).min()
    hi = _reduction("max", W.dtype.str)(W, *args, t(info.min), axis=1).max()
    return cupy.stack((lo, hi))


@functools.cache
def _reduction(op: str, dtype: str):
    """``op`` ("min" / "max") over the entries not equal to ``e1`` / ``e2`` (those read as ``fill``)."""
    import cupy

    info = np.iinfo(dtype)
    suffix = "LL" if info.bits == 64 else ""
    identity = f"{info.max}{suffix}" if op == "min" else f"(-{info.max}{suffix} - 1)"
    return cupy.ReductionKernel("T x, T e1, T e2, T fill", "T y", "(x == e1 || x == e2) ? fill : x",
                                f"{op}(a, b)", "y = a", identity, f"masked_{op}")


def stand_in_route(W, S: "Semiring") -> tuple[int, bool] | None:
    """``(P, proved)``: the stand-in ``P`` for ``+inf`` of a plain-sum closure of ``W``, and whether it is proved.

    Applies (else ``None``) to int32 / int64 matrices of a semiring whose
    capabilities say ``plain_sums`` (``min_plus``) whose finite entries are
    all non-negative.  With ``+inf`` lowered to ``P = (iinfo.max - 1) // 2``
    every entry stays in ``[0, P]`` (a closure only lowers entries), so no sum
    of two entries wraps, and the closure computes exactly ``min(d, P)`` for
    every true distance ``d``: ``h(x) = min(x, P)`` maps ``(min, +)`` on the
    non-negative numbers onto ``(min, +)`` clamped at ``P``, and the plain
    kernel's ``min(c, a + b)`` with ``c <= P`` equals ``min(c, h(a + b))``.

    ``proved``: the static bound ``(n - 1) max w < P`` shows every finite
    distance below ``P``.  Otherwise the result must be checked afterwards
    (:func:`stand_in_is_exact`): only a pair reachable with ``d >= P`` is
    wrong (it reads ``P``, like a missing path), and that is rare, since real
    distances sit far below the bound of the longest possible path.

    >>> from semiring import min_plus
    >>> W = np.array([[0, 7], [2**31 - 1, 0]], np.int32)
    >>> stand_in_route(W, min_plus)
    (1073741823, True)
    >>> stand_in_route(np.array([[0, 2**30], [5, 0]], np.int32), min_plus)  # may reach P: check after
    (1073741823, False)
    >>> W[1, 0] = -1; stand_in_route(W, min_plus) is None  # a negative weight: the saturating rule
    True
    """
    dtype = np.dtype(W.dtype)
    if not S.capabilities.plain_sums or dtype not in PLAIN_DTYPES or W.shape[0] < 2:
        return None
    ext = masked_extremes(W, (int(np.iinfo(dtype).max),))
    stand_in = padding_value(dtype)  # (iinfo.max - 1) // 2: twice it does not wrap
    if ext is None:
        return stand_in, True
    lo, hi = ext
    if lo < 0:
        return None
    return stand_in, (W.shape[0] - 1) * hi < stand_in


def stand_in_is_exact(D, W, stand_in: int) -> bool:
    """Whether the closure ``D``, computed with ``+inf`` lowered to ``stand_in``, is exact for the arcs of ``W``.

    ``D[i, j] < stand_in`` is exact; ``D[i, j] == stand_in`` means no path or
    a path of weight ``>= stand_in``.  The second exists exactly when some row
    ``i`` has an arc ``j -> k`` with ``D[i, j] < stand_in`` and
    ``D[i, k] == stand_in`` (follow a path to the first vertex that reads
    ``stand_in``), so with ``F = D < stand_in`` and ``A`` the arcs the test is
    that ``F (x) A`` over ``lor_land`` adds nothing to ``F``: one bit-packed
    Boolean product, a small fraction of the closure, skipped when ``F`` holds
    every pair (a strongly connected graph whose distances all stay below the
    stand-in).

    >>> P, inf, a, b = 2**30 - 1, 2**31 - 1, 3 * 2**28, 2**29  # a < P, b < P, a + b >= P
    >>> W = np.array([[0, a, inf], [inf, 0, b], [inf, inf, 0]], np.int32)
    >>> D = np.array([[0, a, P], [P, 0, b], [P, P, 0]], np.int32)  # what the closure with P gives
    >>> stand_in_is_exact(D, W, P)  # 0 -> 1 -> 2 weighs a + b >= P but reads P
    False
    >>> W[1, 2] = inf; D[1, 2] = P; stand_in_is_exact(D, W, P)  # no path 0 -> 2: P is +inf
    True
    """

    xp = array_module(D)
    F = D < stand_in
    if bool(F.all()):  # every pair is joined by a path lighter than the stand-in: nothing reads it
        return True
    A = W != np.iinfo(W.dtype).max
    reach = lor_land.matmul(F, A)
    return not bool(xp.any(reach & ~F))


def plain_infinity(W, S: "Semiring") -> int | None:
    """The stand-in ``P`` for ``+inf`` that lets a ``min_plus`` closure of ``W`` run on plain sums, or None.

    Applies to int32 / int64 matrices of a semiring whose capabilities say
    ``plain_sums`` (``min_plus``: ``add`` keeps minima, ``+inf`` absorbs in the
    sums, so a large finite stand-in behaves like it) whose finite entries are all
    non-negative and whose longest possible shortest path, ``(n - 1) * max``,
    stays below ``P = (iinfo.max - 1) // 2`` (:func:`semiring.int_range.padding_value`).
    One pass over ``W``, in slabs of rows.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0, 7], [2**31 - 1, 0]], np.int32)
    >>> plain_infinity(W, min_plus)
    1073741823
    >>> W[1, 0] = -1  # a negative weight: the saturating rule is needed
    >>> plain_infinity(W, min_plus) is None
    True
    """
    route = stand_in_route(W, S)
    return route[0] if route is not None and route[1] else None


def lower_infinity(D, stand_in: int) -> None:
    """Lower every entry of the integer matrix ``D`` at or above ``stand_in`` (``+inf`` too) to ``stand_in``; in place.

    ``h(x) = min(x, stand_in)`` maps ``(min, +)`` on the non-negative numbers
    onto ``(min, +)`` clamped at ``stand_in`` (see :func:`stand_in_route`), so a
    finite weight at or above the stand-in is lowered with ``+inf``: every entry
    then lies in ``[0, stand_in]`` and no plain sum of two entries wraps.  (An arc
    that heavy reads as a missing one afterwards, which :func:`stand_in_is_exact`
    detects.)  Row slabs on the CPU, one pass on the GPU.

    >>> D = np.array([[0, 2**31 - 1], [3, 2**31 - 2]], np.int32)
    >>> lower_infinity(D, 1073741823); D
    array([[         0, 1073741823],
           [         3, 1073741823]], dtype=int32)
    """
    xp = array_module(D)
    if xp is not np:  # one in-place pass
        _elementwise("if (x > b) x = b;", "lower_to_stand_in")(D.dtype.type(0), D.dtype.type(stand_in), D)
        return
    for r in range(0, D.shape[0], _ROWS):
        X = D[r : r + _ROWS]
        xp.minimum(X, D.dtype.type(stand_in), out=X)


def restore_infinity(D, stand_in: int) -> None:
    """Entries of ``D`` at or above ``stand_in`` become the ``+inf`` sentinel again, in place, in row slabs.

    >>> D = np.array([[0, 1073741823], [3, 1073741830]], np.int32)
    >>> restore_infinity(D, 1073741823); D
    array([[         0, 2147483647],
           [         3, 2147483647]], dtype=int32)
    """
    xp = array_module(D)
    top = D.dtype.type(np.iinfo(D.dtype).max)
    if xp is not np:  # one in-place pass
        _elementwise("if (x >= b) x = a;", "restore_infinity")(top, D.dtype.type(stand_in), D)
        return
    for r in range(0, D.shape[0], _ROWS):
        X = D[r : r + _ROWS]
        xp.putmask(X, X >= stand_in, top)


@functools.cache
def _elementwise(body: str, name: str):
    """An in-place CuPy kernel ``x <- body`` with scalars ``a``, ``b`` of the matrix's type.

    ``name`` is fixed (not derived from ``hash(body)``, which changes between
    processes): CuPy's on-disk cache of compiled kernels keys on the source.
    """
    import cupy

    return cupy.ElementwiseKernel("T a, T b", "T x", body, f"exact_integers_{name}")


# -- the one dispatch point ----------------------------------------------------------------
#: Matrices of both signs smaller than this close on the general route: below it the products
#: are too small for the plain-sum kernels (:data:`semiring.dense.dispatch.PLAIN_MIN_WORK` on the CPU),
#: and the potentials' passes would cost more than they save.
POTENTIALS_MIN_N = 256

_P32 = padding_value(np.int32)


@dataclass(frozen=True)
class IntegerRoute:
    """How :func:`exact_closure` closes a matrix (chosen by :func:`integer_route`).

    ``name`` is one of

    * ``"general"``: as it is (floats, other semirings, and integers whose sums
      saturate alike in every order);
    * ``"int64"``: an int32 matrix whose sums may leave the range
      (:func:`sums_may_leave_int32`), closed in int64 and clamped back;
    * ``"stand-in"``: non-negative integers, ``+inf`` lowered to
      ``stand_in``, plain sums; ``proved`` or checked afterwards;
    * ``"potentials"``: integers of both signs made non-negative by Johnson
      potentials (:mod:`apsp.paths.potentials`), closed in int32 on the stand-in route
      and mapped back exactly.
    """

    name: str
    stand_in: int | None = None
    proved: bool = False
    potentials: Any = None


def integer_route(D, S: "Semiring", W=None) -> IntegerRoute:
    """Which exact route closes the working matrix ``D`` over ``S`` fastest.

    ``W`` is the original input (an array, a callable that rebuilds it, or
    ``None`` when ``D`` is closed in its place); a route whose result must be
    checked afterwards needs it to start again on the general route, so
    without it only routes proved in advance are taken.  Signed matrices cost
    one pass for their extremes and the Bellman-Ford rounds of
    :func:`~apsp.paths.potentials.johnson_potentials` (whose result the route
    carries).

    The potentials route applies to ``min_plus`` (capability ``plain_sums``)
    int32 / int64 matrices of both signs with ``n >= POTENTIALS_MIN_N``, no
    ``-inf`` entry, no negative diagonal entry, ``(n + 1) max |w|`` within
    int64, potentials found within the row budget (so no negative cycle:
    such a matrix goes the general way, which reports it as before), and
    reweighted arcs below ``iinfo(int32).max``.

    Examples
    --------
    >>> from semiring import min_plus
    >>> inf = 2**31 - 1
    >>> integer_route(np.array([[0, 7], [inf, 0]], np.int32), min_plus)
    IntegerRoute(name='stand-in', stand_in=1073741823, proved=True, potentials=None)
    >>> integer_route(np.array([[0, 2**30], [-2**30, 0]], np.int32), min_plus).name  # n < POTENTIALS_MIN_N
    'int64'
    >>> integer_route(np.array([[0.0, -1.0], [2.0, 0.0]]), min_plus).name
    'general'
    """
    dtype = np.dtype(D.dtype)
    n = D.shape[0]
    if not S.capabilities.plain_sums or dtype not in PLAIN_DTYPES or n < 2:
        return _general(D, S)
    info = np.iinfo(dtype)
    stand_in = padding_value(dtype)
    ext = masked_extremes(D, (int(info.max),))
    if ext is None:
        return IntegerRoute("stand-in", stand_in, True)
    lo, hi = ext
    if lo >= 0:
        proved = (n - 1) * hi < stand_in
        return IntegerRoute("stand-in", stand_in, proved) if proved or W is not None else _general(D, S)
    if lo == info.min or n < POTENTIALS_MIN_N or (n + 1) * max(-lo, hi) >= _I64.max:
        return _general(D, S)
    xp = array_module(D)
    if bool((xp.diagonal(D) < 0).any()):  # a negative self loop: a negative cycle, reported by the general route
        return _general(D, S)
    h = johnson_potentials(D)
    if h is None:
        return _general(D, S)
    span = hi + int(h.max()) - int(h.min())  # every reweighted arc lies in [0, span]
    if span >= _I32.max:
        return _general(D, S)
    proved = (n - 1) * span < _P32
    if not proved and W is None and dtype == np.int32:  # reweighted in place, no source to start again from
        return _general(D, S)
    return IntegerRoute("potentials", _P32, proved, h)


def _general(D, S: "Semiring") -> IntegerRoute:
    return IntegerRoute("int64" if sums_may_leave_int32(D, S) else "general")


def exact_closure(S: "Semiring", D, W, close: Callable[[Any], None]) -> str:
    """Close the working matrix ``D`` in place by the route :func:`integer_route` picks; the route taken.

    Parameters
    ----------
    S : Semiring
    D : array (n, n)
        The working matrix (diagonal ``(+) one``), NumPy or CuPy, any dtype.
    W : array, callable or None
        The original input (or a function rebuilding it), for the check of the
        stand-in and a fresh start on the general route; ``None`` when ``D``
        is closed in its place.
    close : callable
        ``close(X)`` closes the square matrix ``X`` (``D`` itself, an int32
        matrix of the same shape and device, or an int64 one) in place with the
        caller's method, on the kernels the current :func:`sums_in_range`
        scope allows.

    Returns
    -------
    str
        The route (an :attr:`IntegerRoute.name`), followed by ``", then
        general"`` when its check failed and ``D`` was closed again from
        ``W`` on the saturating kernels.

    Every route gives the same bits: the exact distances, clamped to the
    sentinels where they leave the dtype's range (:mod:`semiring.dtypes`).

    Examples
    --------
    >>> import apsp
    >>> from semiring import min_plus
    >>> inf = 2**31 - 1
    >>> D = np.array([[0, 5, inf], [inf, 0, -2], [1, inf, 0]], np.int32)
    >>> exact_closure(min_plus, D, None, lambda X: apsp.shortest_paths(X, out=X))  # small: as it is
    'general'
    >>> D
    array([[ 0,  5,  3],
           [-1,  0, -2],
           [ 1,  6,  0]], dtype=int32)
    """
    route = integer_route(D, S, W)
    if route.name in ("general", "int64"):
        _close_general(S, D, close, route.name)
        return route.name
    stand_in = route.stand_in
    if route.name == "stand-in":
        lower_infinity(D, stand_in)
        try:
            with sums_in_range():  # every entry stays in [0, stand_in]: all sums are plain-exact
                close(D)
            exact = route.proved or stand_in_is_exact(D, _arcs(W, D), stand_in)
        finally:
            restore_infinity(D, stand_in)
        if exact:
            return route.name
        _reset(S, D, W)
    else:  # potentials
        h = route.potentials
        xp = array_module(D)
        X = D if np.dtype(D.dtype) == np.int32 else xp.empty(D.shape, dtype=np.int32)
        reweight(D, h, X, stand_in)  # every entry in [0, stand_in], +inf lowered too
        with sums_in_range():
            close(X)
        exact = route.proved or stand_in_is_exact(X, _arcs(W, D) if X is D else D, stand_in)
        if exact:
            unreweight(X, h, stand_in, D)
            return route.name
        del X
        if np.dtype(D.dtype) == np.int32:
            _reset(S, D, W)
    _close_general(S, D, close, _general(D, S).name)
    return f"{route.name}, then general"


def _close_general(S: "Semiring", D, close: Callable[[Any], None], name: str) -> None:
    """Close ``D`` as it is (``name == "general"``) or through int64 (``"int64"``)."""
    if name == "general":
        close(D)
        return
    wide = widen(D)
    close(wide)
    D[...] = narrow(wide)


def _arcs(W, D):
    """The original input ``W`` (rebuilt if a callable) on ``D``'s device."""
    arcs = W() if callable(W) else W
    return to_device(arcs, "cpu" if array_module(D) is np else "gpu")


def _reset(S: "Semiring", D, W) -> None:
    """``D`` becomes the working matrix of ``W`` again (a fresh start after a failed check)."""
    arcs = _arcs(W, D)
    D[...] = arcs
    D[...] = working_matrix(S, D, array_module(D), False, copy=False)[0]
