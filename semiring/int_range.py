"""The range check that lets an integer min-plus product use plain (wrapping) sums.

Integer min-plus products are exact with sentinels: ``iinfo.max`` stands for
``+inf`` and ``iinfo.min`` for ``-inf``, both stick in a sum, and sums that leave
the range saturate (:mod:`semiring.dtypes`).  That rule costs several
instructions per pair.  When the operands hold no sentinel and every sum
``a + b`` stays strictly between ``iinfo.min`` and ``iinfo.max``, the saturating
sum *is* the plain sum, so the product may run on plain ``a + b`` and ``min``
(one fused instruction on the GPU, ``vpaddd`` + ``vpminsd`` on the CPU).

:func:`plain_sums_exact` decides that from the operands' extremes; the CPU
dispatcher (:mod:`semiring.dense.dispatch`) and the GPU GEMM (:mod:`semiring.cuda.gemm`)
call it once per product on the actual operands, so a closure whose distances
grow more negative than its inputs stays exact.  The plain kernels exist for the
families whose capabilities say ``plain_sums`` (:class:`semiring.families.Capabilities`:
``add`` keeps minima, ``mul`` is a sum that ``+inf`` absorbs; :data:`PLAIN_FAMILIES`
lists them) in the dtypes :data:`PLAIN_DTYPES`, and :data:`counts` records how
often each kind of kernel was chosen (an introspection hook for tests and
benchmarks).

A caller that has *proved* the range for a whole computation (APSP after
lowering ``+inf`` to :func:`padding_value`, :mod:`apsp.paths.exact_integers`) says so
with :func:`sums_in_range`: inside it the dispatchers take the plain kernels
without reading the operands (on the GPU: also while a CUDA graph is being
captured, where no read-back is possible).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import numpy as np

from .families import FAMILIES

if TYPE_CHECKING:
    from .array_types import DTypeLike, NDArray

__all__ = ["PLAIN_FAMILIES", "PLAIN_DTYPES", "counts", "plain_sums_exact", "operand_extremes",
           "plain_path_applies", "padding_value", "sums_in_range", "sums_known_in_range"]

#: Built-in families whose integer product has a plain-sum kernel (capability ``plain_sums``).
PLAIN_FAMILIES = frozenset(name for name, f in FAMILIES.items() if f.capabilities.plain_sums)

#: Dtypes of the plain-sum kernels.
PLAIN_DTYPES = frozenset({np.dtype(np.int32), np.dtype(np.int64)})

#: How often the dispatchers chose each integer min-plus kernel: ``"plain"`` (range check
#: passed), ``"saturating"`` (range check failed) and ``"proved"`` (plain, unread, inside
#: :func:`sums_in_range`).  Products too small to be worth the check, and witness products,
#: are not counted.
counts = {"plain": 0, "saturating": 0, "proved": 0}

_PROVED: ContextVar[bool] = ContextVar("semiring_int_range_proved", default=False)


@contextmanager
def sums_in_range() -> Iterator[None]:
    """Within this block every integer min-plus product is known to pass :func:`plain_sums_exact`.

    The caller guarantees it (for example, every entry of every operand lies in
    ``[0, padding_value(dtype)]``); the dispatchers then use the plain kernel
    without reading the operands' extremes, and count ``counts["proved"]``.
    Witness products keep the saturating kernel.  The scope is per thread and
    per asyncio task (a :class:`contextvars.ContextVar`) and nests.

    Examples
    --------
    >>> sums_known_in_range()
    False
    >>> with sums_in_range():
    ...     sums_known_in_range()
    True
    """
    token = _PROVED.set(True)
    try:
        yield
    finally:
        _PROVED.reset(token)


def sums_known_in_range() -> bool:
    """Whether the current code runs inside :func:`sums_in_range`.

    >>> sums_known_in_range()
    False
    """
    return _PROVED.get()


def plain_sums_exact(amin: int, amax: int, bmin: int, bmax: int, dtype: DTypeLike) -> bool:
    """True when plain sums of entries in ``[amin, amax]`` and ``[bmin, bmax]`` equal the saturating ones.

    That holds when no entry is a sentinel (``iinfo.min`` / ``iinfo.max`` of
    ``dtype``) and every sum lies strictly between them:
    ``amin + bmin > iinfo.min`` and ``amax + bmax < iinfo.max``.

    Parameters
    ----------
    amin, amax, bmin, bmax : int
        The least and greatest entries of the left and right operands.
    dtype : numpy dtype
        A signed integer dtype.

    Returns
    -------
    bool

    Examples
    --------
    >>> plain_sums_exact(1, 1000, 1, 1000, np.int32)
    True
    >>> plain_sums_exact(0, 2**30, 0, 2**30 - 2, np.int32)
    True
    >>> plain_sums_exact(0, 2**30, 0, 2**30 - 1, np.int32)  # the sum reaches +inf
    False
    >>> plain_sums_exact(0, 2**31 - 1, -5, -1, np.int32)  # a +inf entry
    False
    """
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    amin, amax, bmin, bmax = int(amin), int(amax), int(bmin), int(bmax)
    if amin <= lo or bmin <= lo or amax >= hi or bmax >= hi:
        return False
    return amin + bmin > lo and amax + bmax < hi


def padding_value(dtype: DTypeLike) -> int:
    """A value ``P`` with ``P + P`` at least every sum the plain kernel can meet, and no wrap-around.

    The GPU kernel pads partial ``k`` tiles of both operands with it; under
    :func:`plain_sums_exact` every real sum is at most ``iinfo.max - 1 = 2 P``,
    so a padded pair never wins the minimum (a tie gives the same value).

    >>> padding_value(np.int32), 2 * padding_value(np.int32) == 2**31 - 2
    (1073741823, True)
    """
    return (int(np.iinfo(dtype).max) - 1) // 2


def operand_extremes(X: NDArray[Any]) -> tuple[int, int]:
    """``(min, max)`` of a non-empty NumPy array, as Python ints.

    >>> operand_extremes(np.array([[3, -2], [7, 0]], np.int32))
    (-2, 7)
    """
    return int(X.min()), int(X.max())


def plain_path_applies(family: str | None, A: NDArray[Any], B: NDArray[Any]) -> bool:
    """The CPU decision: does ``A (x) B`` (NumPy operands) run exactly on plain sums?

    True when ``family``'s capabilities say ``plain_sums``, the dtype has a plain kernel, and
    :func:`plain_sums_exact` holds for the operands' extremes.  Updates
    :data:`counts` for the families and dtypes it applies to.

    Parameters
    ----------
    family : str or None
        The semiring family (``Semiring.family``).
    A, B : numpy.ndarray
        Non-empty operands of one dtype.

    Returns
    -------
    bool

    Examples
    --------
    >>> A = np.array([[0, 5], [2, 0]], np.int32)
    >>> plain_path_applies("min_plus", A, A)
    True
    >>> A[0, 1] = np.iinfo(np.int32).max  # "no edge"
    >>> plain_path_applies("min_plus", A, A)
    False
    """
    if family not in PLAIN_FAMILIES or np.dtype(A.dtype) not in PLAIN_DTYPES:
        return False
    if sums_known_in_range():
        counts["proved"] += 1
        return True
    ok = plain_sums_exact(*operand_extremes(A), *operand_extremes(B), A.dtype)
    counts["plain" if ok else "saturating"] += 1
    return ok
