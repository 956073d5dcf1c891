"""Edge attribute values of NetworkX edge data, held exactly, and the numbers the algorithms may compute with.

NetworkX computes with the Python objects of its edge data dicts: exact
``int`` arithmetic of any size, ``float`` arithmetic where a float takes part,
and whatever other objects (NumPy scalars, ``Fraction``, ``None``) do.  The
backend therefore converts without losing anything:

* :func:`as_value_array` gives int64 only when every value is a Python
  ``int`` or ``bool`` inside int64's range, float64 only when every value is a
  Python ``float``, and otherwise an object array of the values themselves
  (integers beyond int64, a mix of ints and floats, anything else);
* :func:`arc_column` reads one attribute per arc (a missing attribute is the
  caller's default; a multigraph's parallel edges are read as their minimum,
  as NetworkX's shortest-path functions do) and records which Python types
  were present and whether some edge lacked the attribute;
* :func:`numbers` splits a column into the values an engine can add exactly
  (int64, or float64) and the masks of ``+inf``, ``-inf`` and NaN, and raises
  ``NotImplementedError`` for what no engine reproduces exactly (integers
  beyond int64, ints mixed with finite floats, other types);
* :func:`dyadic_exponent` and :func:`exact_float_sums` say when float64
  arithmetic on some values is exact (every sum representable), so that any
  order of additions gives NetworkX's bits.

Each algorithm decides from these what it computes and what it leaves to
NetworkX (``NotImplementedError`` before it returns: NetworkX's dispatcher then
runs its own code when falling back).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import repeat
from operator import is_
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "MISSING",
    "ValueInfo",
    "Numbers",
    "as_value_array",
    "arc_column",
    "dict_column",
    "arc_values",
    "numbers",
    "dyadic_exponent",
    "exact_float_sums",
    "to_python",
]

INT64_MAX = int(np.iinfo(np.int64).max)
INT64_MIN = int(np.iinfo(np.int64).min)
#: The Python types the engines compute with (``bool`` adds as ``int``, as in Python).
NUMERIC_TYPES = frozenset({int, bool, float})


class _Missing:
    """The marker of an edge without the attribute (never stored in an array)."""

    def __repr__(self) -> str:
        return "<missing>"


class Unordered:
    """Stands for the minimum over parallel edges whose values Python cannot compare (NetworkX raises there)."""

    def __repr__(self) -> str:
        return "<unordered parallel values>"


MISSING = _MISSING = _Missing()
UNORDERED = Unordered()


class ValueInfo(NamedTuple):
    """What was in the edge data for one attribute.

    ``types``: the Python types of the values present (of every parallel edge
    of a multigraph); ``missing``: some edge lacked the attribute (its value is
    the default then); ``missing_at``: for a graph without parallel edges, the
    bool mask of the arcs whose edge lacked it (``None`` when none did);
    ``parallel``: for a multigraph, per arc the list of its parallel edges'
    values, :data:`MISSING` where one lacked it (for functions that combine
    parallel edges otherwise than by ``min``).
    """

    types: frozenset
    missing: bool
    missing_at: np.ndarray | None = None
    parallel: list | None = None


def as_value_array(values: list, types: set | None = None) -> np.ndarray:
    """The values as int64, float64 or (when neither holds them exactly) an object array of the values.

    int64: every value is a Python ``int`` or ``bool`` in int64's range;
    float64: every value is a Python ``float``; anything else (an integer
    beyond int64, ints mixed with floats, NumPy scalars, ``None``, ...) keeps
    its objects, so nothing is rounded or coerced.  ``types``: the set of the
    values' types, when the caller has it.

    Examples
    --------
    >>> as_value_array([1, True]).dtype, as_value_array([1.0, 2.5]).dtype, as_value_array([]).dtype
    (dtype('int64'), dtype('float64'), dtype('int64'))
    >>> as_value_array([2**63 + 1, 5])
    array([9223372036854775809, 5], dtype=object)
    >>> as_value_array([1, 2.5]).tolist()
    [1, 2.5]
    """
    if not values:
        return np.zeros(0, np.int64)
    if types is None:
        types = set(map(type, values))
    if types <= {int, bool}:
        try:
            return np.array(values, dtype=np.int64)
        except OverflowError:
            pass
    elif types == {float}:
        return np.array(values, dtype=np.float64)
    return np.fromiter(values, dtype=object, count=len(values))


def _least(values: list) -> Any:
    try:
        return min(values)
    except Exception:  # noqa: BLE001 - TypeError, decimal.InvalidOperation, ...: NetworkX's own to raise
        return UNORDERED


def arc_column(edge_data: list, attr: Any, default: Any, multigraph: bool) -> tuple[np.ndarray, ValueInfo]:
    """The value of ``attr`` on every arc (``default`` where missing; minimum over parallel edges), and what was there.

    Parameters
    ----------
    edge_data : list
        Per arc the edge data dict, or for a multigraph the dict ``key -> data``.
    attr : hashable
        The attribute name (``None`` is a name like any other here).
    default : object
        The value of an edge without ``attr``.
    multigraph : bool

    Examples
    --------
    >>> vals, info = arc_column([{"w": 2.5}, {}], "w", 1, False)
    >>> vals, info.types, info.missing_at
    (array([2.5, 1], dtype=object), frozenset({<class 'float'>}), array([False,  True]))
    """
    if multigraph:
        present: set = set()
        missing = False
        vals = []
        parallel = [[d.get(attr, _MISSING) for d in kd.values()] for kd in edge_data]
        for raw in parallel:
            kinds = set(map(type, raw))
            if _Missing in kinds:
                missing = True
                kinds.discard(_Missing)
                raw = [default if v is _MISSING else v for v in raw]
            present |= kinds
            vals.append(_least(raw))
        return as_value_array(vals), ValueInfo(frozenset(present), missing, None, parallel)
    return _summarize([d.get(attr, _MISSING) for d in edge_data], default)


def dict_column(edge_data: Iterable, attr: Any, default: Any, *, checked: bool = False) -> tuple[np.ndarray, ValueInfo]:
    """:func:`arc_column` of a graph without parallel edges, every edge data an exact ``dict`` (read at C speed).

    ``edge_data`` may be any iterable.  Raises ``TypeError`` when an item is
    not an exact ``dict`` -- a subclass may have its own ``get``, which
    NetworkX calls (the caller then uses :func:`arc_column`); ``checked``:
    the caller has checked that every item is one.

    Examples
    --------
    >>> vals, info = dict_column(iter([{"w": 2}, {"w": 3}]), "w", 1)
    >>> vals, info.types, info.missing
    (array([2, 3]), frozenset({<class 'int'>}), False)
    """
    data = edge_data if type(edge_data) is list else list(edge_data)
    if not checked and not set(map(type, data)) <= {dict}:
        raise TypeError("edge data that are not exact dicts: each is read with its own get()")
    return _summarize(list(map(dict.get, data, repeat(attr), repeat(_MISSING))), default)


def _summarize(vals: list, default: Any) -> tuple[np.ndarray, ValueInfo]:
    """The column of one value per arc (:data:`MISSING` where the edge lacked it) and its :class:`ValueInfo`."""
    present = set(map(type, vals))
    missing = _Missing in present
    missing_at = None
    if missing:
        present.discard(_Missing)
        missing_at = np.fromiter(map(is_, vals, repeat(_MISSING)), dtype=bool, count=len(vals))
        for i in np.flatnonzero(missing_at).tolist():
            vals[i] = default
        types = None
    else:
        types = present
    return as_value_array(vals, types), ValueInfo(frozenset(present), missing, missing_at)


def arc_values(edge_data: list, attr: Any, default: Any, multigraph: bool) -> np.ndarray:
    """The value of ``attr`` on every arc (:func:`arc_column` without the summary).

    Examples
    --------
    >>> arc_values([{"w": 2}, {}], "w", 1, False)
    array([2, 1])
    >>> arc_values([{0: {"w": 3.0}, 1: {"w": 0.5}}], "w", 1, True)
    array([0.5])
    >>> arc_values([{"c": 2}, {}], "c", float("inf"), False)  # no sentinel: inf stays inf
    array([2, inf], dtype=object)
    """
    return arc_column(edge_data, attr, default, multigraph)[0]


class Numbers(NamedTuple):
    """A column split for exact arithmetic (see :func:`numbers`).

    ``values``: int64 (``kind == "int"``) or float64 (``kind == "float"``), one
    per arc; entries under a mask are 0.  ``posinf``, ``neginf``, ``nan``:
    bool masks of the arcs whose value is ``+inf``, ``-inf``, NaN.
    """

    values: np.ndarray
    kind: str
    posinf: np.ndarray
    neginf: np.ndarray
    nan: np.ndarray


def _type_names(types: set) -> str:
    return ", ".join(sorted(t.__qualname__ for t in types))


def numbers(arr: np.ndarray, select: np.ndarray | None = None) -> Numbers:
    """Split arc values into exact numbers and the masks of the non-finite ones.

    The finite values must all be Python ints (and bools) inside int64 --
    kind ``"int"`` -- or all Python floats -- kind ``"float"`` (with no finite
    value, kind ``"int"``).  ``select`` (a bool mask) limits that rule to the
    arcs an algorithm uses.

    Raises
    ------
    NotImplementedError
        A value is not a Python ``int``, ``bool`` or ``float``; an integer is
        beyond int64; finite ints and floats are mixed (NetworkX's results then
        mix ints and floats according to the path each one took).

    Examples
    --------
    >>> n = numbers(np.array([3, float("inf")], dtype=object))
    >>> n.kind, n.values.tolist(), n.posinf.tolist()
    ('int', [3, 0], [False, True])
    >>> numbers(np.array([1, 2.5], dtype=object))
    Traceback (most recent call last):
    ...
    NotImplementedError: edge values mix ints with finite floats: NetworkX's results then depend on the path taken
    """
    m = arr.size
    none = np.zeros(m, dtype=bool)
    if arr.dtype.kind in "iub":
        return Numbers(arr.astype(np.int64, copy=False), "int", none, none.copy(), none.copy())
    if arr.dtype.kind == "f":
        w = arr.astype(np.float64, copy=False)
        posinf, neginf, nan = w == np.inf, w == -np.inf, np.isnan(w)
        bad = posinf | neginf | nan
        if bad.any():
            w = np.where(bad, 0.0, w)
        return Numbers(w, "float", posinf, neginf, nan)
    vals = arr.tolist()
    types = set(map(type, vals))
    if not types <= NUMERIC_TYPES:
        raise NotImplementedError(f"edge values of type {_type_names(types - NUMERIC_TYPES)}")
    is_float = np.fromiter((type(v) is float for v in vals), dtype=bool, count=m)
    fl = np.array([v if f else 0.0 for v, f in zip(vals, is_float.tolist())], dtype=np.float64)
    posinf, neginf, nan = fl == np.inf, fl == -np.inf, np.isnan(fl)
    finite_float = is_float & ~(posinf | neginf | nan)
    is_int = ~is_float
    if select is not None:
        finite_float &= select
        is_int &= select
    if finite_float.any() and is_int.any():
        raise NotImplementedError("edge values mix ints with finite floats: NetworkX's results then depend on the path taken")
    if finite_float.any():
        return Numbers(np.where(finite_float, fl, 0.0), "float", posinf, neginf, nan)
    ints = np.zeros(m, dtype=np.int64)
    where = np.flatnonzero(is_int)
    if where.size:
        try:
            ints[where] = np.array([vals[i] for i in where.tolist()], dtype=np.int64)
        except OverflowError:
            raise NotImplementedError("integer edge values beyond int64") from None
    return Numbers(ints, "int", posinf, neginf, nan)


def dyadic_exponent(x: np.ndarray) -> int:
    """The least ``k >= 0`` with every ``x * 2**k`` an integer (``x``: finite float64).

    Examples
    --------
    >>> dyadic_exponent(np.array([3.0, 0.75])), dyadic_exponent(np.array([0.1]))
    (2, 55)
    """
    nz = x[x != 0]
    if nz.size == 0:
        return 0
    frac, exp = np.frexp(nz)
    mant = np.abs(np.ldexp(frac, 53).astype(np.int64))  # exact: 53 bits
    low = mant & -mant  # lowest set bit
    tz = np.frexp(low.astype(np.float64))[1].astype(np.int64) - 1
    lsb = exp.astype(np.int64) - 53 + tz  # x = odd * 2**lsb
    return max(0, -int(lsb.min()))


def exact_float_sums(x: np.ndarray, terms: int, dtype: Any = np.float64) -> bool:
    """Whether every sum of up to ``terms`` of the finite float64 values ``x`` is exact in ``dtype``.

    True when, for ``k =`` :func:`dyadic_exponent`, ``max|x| * 2**k * terms <
    2**p`` (``p`` the precision of ``dtype``: 53 or 24 bits) and ``2**-k`` is
    not below the smallest subnormal of ``dtype``: then every value and every
    partial sum is an integer multiple of ``2**-k`` below ``2**p * 2**-k``,
    so float arithmetic is exact whatever the order of the additions (as in
    exact rational arithmetic).

    Examples
    --------
    >>> exact_float_sums(np.array([0.5, -2.25]), 100), exact_float_sums(np.array([0.1]), 2)
    (True, False)
    >>> exact_float_sums(np.array([2.0**-1022]), 2), exact_float_sums(np.array([2.0**-1022]), 2, np.float32)
    (True, False)
    """
    if x.size == 0:
        return True
    big = float(np.max(np.abs(x)))
    if big == 0:
        return True
    info = np.finfo(dtype)
    k = dyadic_exponent(x)
    if k > info.nmant - info.minexp:  # 2**-k below the smallest subnormal (2**-1074, 2**-149)
        return False
    top = math.frexp(big)[1]  # big < 2**top
    return top + k + max(int(terms), 1).bit_length() <= info.nmant + 1


def to_python(arr: np.ndarray) -> list:
    """Array entries as Python numbers (``int`` for integer arrays), never NumPy scalars.

    Examples
    --------
    >>> to_python(np.array([1, 2])), to_python(np.array([0.5]))
    ([1, 2], [0.5])
    """
    return np.asarray(arr).tolist()
