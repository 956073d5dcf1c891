"""The value type of a semiring: what it is, as every kernel module reads it.

:class:`Algebra` holds a semiring's identity and laws -- its ``name``, the
ufuncs of the generic path, the abstract ``zero`` / ``one`` and their values in
a dtype, the dtypes it accepts, the values its entries may not take, the
optional Numba / CUDA expressions of a custom semiring, and, for a built-in
family, the :class:`~semiring.families.Capabilities` derived from the family
table (:mod:`semiring.families`).  It carries no operation.

:class:`semiring.Semiring` (:mod:`semiring.core`) is this type plus the
operations (``matmul``, ``mxv``, ``closure``...): the facade users call.  The
modules behind those operations (dense and sparse products, dispatch, the CPU
and CUDA kernels, input checks) take an :class:`Algebra` and import this
module plainly; only the facade, :mod:`semiring.builtin` and the public entry
points import :mod:`semiring.core`, so the package has no import cycle, not
even through type hints.

This module imports only :mod:`semiring.dtypes`, :mod:`semiring.errors` and
:mod:`semiring.families`.

>>> from semiring import min_plus
>>> isinstance(min_plus, Algebra)
True
>>> min_plus.capabilities.has_last_hop
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from .dtypes import NUMERIC_DTYPES
from .errors import DTypeError, SemiringError
from .families import Capabilities, Family, exact_ufuncs, family_of, improving_cycle

if TYPE_CHECKING:
    from .array_types import DTypeLike

__all__ = ["Algebra", "DtypeValues", "abstract_value", "value_dtype", "VALUE_KINDS"]

#: The dtype kinds a semiring's values can have: bool, signed and unsigned integers, floats.
VALUE_KINDS = "biuf"


def value_dtype(dtype: DTypeLike, name: str = "dtype") -> np.dtype[Any]:
    """``dtype`` as a :class:`numpy.dtype` whose kind can hold a semiring's values, else :class:`DTypeError`.

    Semiring values are bools, integers (whose infinities are the saturating
    sentinels of :mod:`semiring.dtypes`) and floats; complex numbers, Python
    objects, strings, bytes, dates, time spans and structured records are not
    (no order, or no arithmetic, or no infinity): the error names ``name``.

    >>> value_dtype(np.float32)
    dtype('float32')
    >>> value_dtype(np.complex128, "out")
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: out has dtype complex128; semiring values are bools, integers or floats
    """
    dt = np.dtype(dtype)
    if dt.kind not in VALUE_KINDS:
        raise DTypeError(f"{name} has dtype {dt}; semiring values are bools, integers or floats")
    return dt


def abstract_value(value: Any, dtype: DTypeLike) -> np.generic[Any]:
    """Map an abstract constant (``inf``, ``-inf``, a number, a bool) to a scalar of ``dtype``.

    Infinities become the float infinities or, for integers, the saturating
    sentinels ``iinfo.max`` / ``iinfo.min`` (:mod:`semiring.dtypes`).  A dtype
    that holds no semiring values (complex, object, strings, dates...) is a
    :class:`DTypeError` (:func:`value_dtype`).

    >>> abstract_value(float("inf"), np.int32)
    np.int32(2147483647)
    >>> abstract_value(0, np.float32)
    np.float32(0.0)
    """
    dtype = value_dtype(dtype)
    if dtype.kind == "b":
        return np.bool_(bool(value))
    if isinstance(value, float) and math.isinf(value):
        if dtype.kind == "f":
            return dtype.type(value)
        info = np.iinfo(dtype)
        return dtype.type(info.max if value > 0 else info.min)
    return dtype.type(value)


@dataclass(frozen=True)
class DtypeValues:
    """A semiring's constants in one dtype, derived once (:meth:`Algebra.in_dtype`) and read by the hot paths.

    Attributes
    ----------
    dtype : numpy.dtype
    zero, one : numpy scalar
        The identities in ``dtype`` (integer infinities are the sentinels).
    forbidden : tuple of numpy scalar
        The values an entry may not hold (:meth:`Algebra.forbidden_values`).
    accepted : bool
        ``dtype`` is one of the semiring's dtypes.
    one_pass : tuple or None
        The comparisons that, true for every entry, show an array of
        ``dtype`` valid: ``(ufunc, bound)`` pairs (``bound`` ``None``: a
        unary ufunc); NaN fails each.  ``None``: the semiring forbids values
        no comparison pass covers (:func:`semiring.validate.check_entries`
        then looks for each).
    """

    dtype: np.dtype[Any]
    zero: np.generic[Any]
    one: np.generic[Any]
    forbidden: tuple[np.generic[Any], ...]
    accepted: bool
    one_pass: tuple[tuple[np.ufunc, Any], ...] | None = None


def _one_pass(
    dt: np.dtype[Any], forbidden: tuple[Any, ...], nonnegative: bool
) -> tuple[tuple[np.ufunc, Any], ...] | None:
    """The :attr:`DtypeValues.one_pass` comparisons of ``dt`` (decided once per semiring and dtype).

    >>> _one_pass(np.dtype(np.float64), (np.float64(-np.inf),), False)
    ((<ufunc 'greater'>, -inf),)
    >>> _one_pass(np.dtype(np.float64), (np.float64(0.5),), False) is None
    True
    """
    if dt.kind == "b":
        return ()
    if dt.kind == "i":
        return ((np.greater_equal, 0),) if nonnegative else ()
    neg = any(bool(np.isneginf(v)) for v in forbidden)
    pos = any(bool(np.isposinf(v)) for v in forbidden)
    if len(forbidden) != int(neg) + int(pos):
        return None  # a forbidden finite value: no comparison covers it
    if nonnegative:  # X >= 0 also rejects NaN and -inf
        return ((np.greater_equal, 0), (np.less, np.inf)) if pos else ((np.greater_equal, 0),)
    if neg and pos:
        return ((np.isfinite, None),)
    if neg:
        return ((np.greater, -np.inf),)
    return ((np.less, np.inf),) if pos else ((np.less_equal, np.inf),)  # X <= inf: only NaN fails


@dataclass(frozen=True, eq=False)
class Algebra:
    """A semiring's value: name, ufuncs, identities, dtypes, forbidden values and capabilities; no operations.

    The parameters are those of :class:`semiring.Semiring`, which adds the
    operations; see its documentation.  Immutable and hashable; two semirings
    are equal when their name, family, ufuncs and identities are.

    Examples
    --------
    >>> from semiring import max_min
    >>> max_min.one_value(np.int32), max_min.capabilities.mul_selective
    (np.int32(2147483647), True)
    """

    name: str
    add_ufunc: np.ufunc
    mul_ufunc: np.ufunc
    zero: Any
    one: Any
    idempotent: bool = False
    selective: bool = False
    dtypes: tuple[DTypeLike, ...] = NUMERIC_DTYPES
    family: str | None = None
    numba_add: Callable[..., Any] | None = field(default=None, repr=False)
    numba_mul: Callable[..., Any] | None = field(default=None, repr=False)
    cuda_add: str | None = field(default=None, repr=False)
    cuda_mul: str | None = field(default=None, repr=False)
    nonnegative: bool = False
    forbidden: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise SemiringError(f"a semiring needs a non-empty name, got {self.name!r}")
        for what in ("add_ufunc", "mul_ufunc"):
            f = getattr(self, what)
            if not isinstance(f, np.ufunc) or f.nin != 2 or f.nout != 1:
                raise SemiringError(f"{self.name}: {what.split('_')[0]} must be a binary numpy ufunc, got {f!r}")
        if self.selective and not self.idempotent:
            raise SemiringError(f"{self.name}: a selective add is idempotent; pass idempotent=True")
        dts = tuple(value_dtype(d, "dtypes") for d in self.dtypes)
        if not dts:
            raise SemiringError(f"{self.name}: dtypes must not be empty")
        object.__setattr__(self, "dtypes", dts)
        if (self.numba_add is None) != (self.numba_mul is None):
            raise SemiringError(f"{self.name}: give both numba_add and numba_mul, or neither")

    # -- identity, hashing, printing ------------------------------------------------
    def __hash__(self) -> int:
        return hash((self.name, self.family, self.add_ufunc, self.mul_ufunc))

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Algebra)
            and (self.name, self.family, self.add_ufunc, self.mul_ufunc, self.zero, self.one)
            == (other.name, other.family, other.add_ufunc, other.mul_ufunc, other.zero, other.one)
        )

    def __repr__(self) -> str:
        return f"Semiring({self.name!r}, add={self.add_ufunc.__name__}, mul={self.mul_ufunc.__name__})"

    # -- values of the semiring in a dtype --------------------------------------------
    def in_dtype(self, dtype: DTypeLike) -> DtypeValues:
        """The semiring's constants in ``dtype``, computed on first use and kept (one dict lookup after).

        A dtype that holds no semiring values (complex, object, strings,
        dates...) is a :class:`DTypeError` naming ``dtype`` (:func:`value_dtype`).

        >>> from semiring import min_plus
        >>> v = min_plus.in_dtype(np.dtype(np.int32))
        >>> v.zero, v.one, v.accepted
        (np.int32(2147483647), np.int32(0), True)
        """
        cache = self.__dict__.get("_in_dtype")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_in_dtype", cache)
        found = cache.get(dtype)
        if found is None:
            dt = value_dtype(dtype)
            forbidden = () if not self.forbidden or dt.kind != "f" else tuple(abstract_value(v, dt) for v in self.forbidden)
            found = DtypeValues(dt, abstract_value(self.zero, dt), abstract_value(self.one, dt), forbidden,
                                dt in self.dtypes, _one_pass(dt, forbidden, self.nonnegative))
            cache[dtype] = found
        return found

    def zero_value(self, dtype: DTypeLike) -> np.generic[Any]:
        """The semiring zero (identity of add) as a scalar of ``dtype``.

        >>> from semiring import min_plus
        >>> min_plus.zero_value(np.int32)
        np.int32(2147483647)
        """
        return abstract_value(self.zero, dtype)

    def one_value(self, dtype: DTypeLike) -> np.generic[Any]:
        """The semiring one (identity of mul) as a scalar of ``dtype``.

        >>> from semiring import max_min
        >>> max_min.one_value(np.float32)
        np.float32(inf)
        """
        return abstract_value(self.one, dtype)

    def forbidden_values(self, dtype: DTypeLike) -> tuple[np.generic[Any], ...]:
        """The values entries may not hold in ``dtype`` (floats only; integers saturate).

        >>> from semiring import min_plus
        >>> min_plus.forbidden_values(np.float64)
        (np.float64(-inf),)
        """
        return self.in_dtype(dtype).forbidden

    def check_dtype(self, name: str, dtype: DTypeLike) -> np.dtype[Any]:
        """Raise :class:`DTypeError` unless ``dtype`` is one this semiring accepts.

        >>> from semiring import lor_land
        >>> lor_land.check_dtype("A", np.float32)
        Traceback (most recent call last):
        ...
        semiring.errors.DTypeError: lor_land does not support dtype float32 of A; use one of: bool
        """
        dtype = np.dtype(dtype)
        if dtype not in self.dtypes:  # (a custom semiring's dtypes are value dtypes: see value_dtype)
            ok = ", ".join(str(d) for d in self.dtypes)
            raise DTypeError(f"{self.name} does not support dtype {dtype} of {name}; use one of: {ok}")
        return dtype

    # -- facts from the family table (semiring.families) -------------------------------
    @property
    def table_entry(self) -> Family | None:
        """The family table's entry of a built-in semiring, ``None`` for a custom one.

        >>> from semiring import max_min
        >>> max_min.table_entry.doc
        'widest (bottleneck) paths'
        """
        return family_of(self)

    @cached_property
    def capabilities(self) -> Capabilities:
        """What this semiring allows: its laws and the fast paths open to it.

        A built-in family's are derived from its entry of the family table
        (:attr:`semiring.families.Family.capabilities`); a custom semiring has
        its own ``idempotent`` / ``selective`` and no fast path
        (:meth:`semiring.families.Capabilities.custom`).

        >>> from semiring import min_plus, plus_times
        >>> min_plus.capabilities.plain_sums, plus_times.capabilities.closable
        (True, False)
        """
        fam = self.table_entry
        if fam is None:
            return Capabilities.custom(self.idempotent, self.selective)
        return fam.capabilities

    def closure_obstacle(self) -> str | None:
        """Why the closure over this semiring is not computed (a sentence naming it), or ``None``.

        >>> from semiring import min_plus, plus_times
        >>> min_plus.closure_obstacle() is None
        True
        >>> print(plus_times.closure_obstacle())
        the closure over plus_times is not computed here: its add is not idempotent, so I (+) A (+) A^2 (+) ... need not converge
        """
        why = self.capabilities.closure_obstacle
        return None if why is None else f"the closure over {self.name} is not computed here: {why}"

    @property
    def improving_cycle(self) -> str:
        """What a cycle whose weight is better than ``one`` (the closure diverges) is called in messages.

        >>> from semiring import max_plus
        >>> max_plus.improving_cycle
        'positive cycle (max_plus)'
        """
        return improving_cycle(self)

    def exact_ufuncs(self, dtype: DTypeLike) -> bool:
        """Whether ``add_ufunc`` / ``mul_ufunc`` compute this semiring's add and mul exactly in ``dtype``.

        Always true for custom semirings (their ufuncs are their definition);
        for a built-in family never on integers (whose infinities are
        sentinels), and on floats and bools when both primitives' ufuncs are
        exact (a primitive whose rule differs from NumPy's arithmetic makes the
        library's own elementwise kernels run).

        >>> from semiring import min_plus
        >>> min_plus.exact_ufuncs(np.float64), min_plus.exact_ufuncs(np.int64)
        (True, False)
        """
        return exact_ufuncs(self, value_dtype(dtype))
