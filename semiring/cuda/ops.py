"""CUDA C expressions for a semiring's ``add`` / ``mul`` in a dtype: what the kernels are specialised with.

Every primitive of :data:`semiring.families.PRIMITIVES` has one expression per
dtype kind here (:data:`EXPRESSIONS`), mostly calls of the functions of
``scalar_ops.cuh``, the CUDA twin of :mod:`semiring._cpu.scalar_ops` (the
reference semantics: integer sentinels, saturation, which infinity absorbs).
A built-in family's expressions are those of its ``add`` and ``mul`` primitives
(:data:`semiring.families.FAMILIES`).  Custom semirings give ``cuda_add`` /
``cuda_mul`` expressions in ``a`` and ``b``.

:func:`spec_for` returns a :class:`KernelSpec`, the hashable key under which the
compiled kernels are cached.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..algebra import Algebra
from ..families import FAMILIES

__all__ = ["KernelSpec", "spec_for", "ctype_of", "literal", "expression", "EXPRESSIONS"]

CTYPES = {
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
    np.dtype(np.int32): "int",
    np.dtype(np.int64): "long long",
    np.dtype(np.bool_): "unsigned char",
}

# (primitive, dtype kind) -> expression in a and b.  Float expressions fill in {mn} / {mx}
# by width: float32 min/max are single FMNMX instructions; float64 has no DMNMX, and a
# compare-and-select (DSETP + 2 FSEL) is half the instructions of fmin()'s NaN-aware
# sequence (the inputs hold no NaN).  {w} is the width: i32 / i64 / f32 / f64.
# Float sums need no absorbing rule: the families forbid the infinity that would meet
# the absorbing one.
EXPRESSIONS = {
    ("min", "f"): "{mn}(a, b)",
    ("min", "i"): "sr_min(a, b)",
    ("max", "f"): "{mx}(a, b)",
    ("max", "i"): "sr_max(a, b)",
    ("or", "b"): "(a | b)",
    ("and", "b"): "(a & b)",
    ("plus", "f"): "(a + b)",
    ("plus", "i"): "sr_sat_add_{w}(a, b)",
    ("plus_inf_absorbs", "f"): "(a + b)",
    ("plus_inf_absorbs", "i"): "sr_minplus_mul_{w}(a, b)",
    ("plus_neginf_absorbs", "f"): "(a + b)",
    ("plus_neginf_absorbs", "i"): "sr_maxplus_mul_{w}(a, b)",
    ("times", "f"): "(a * b)",
    ("times", "i"): "sr_sat_mul_{w}(a, b)",
    ("times_inf_absorbs", "f"): "sr_infabs_mul_{w}(a, b)",
    ("times_inf_absorbs", "i"): "sr_infabs_mul_{w}(a, b)",
    ("pair", "f"): "sr_pair(a, b)",
    ("pair", "i"): "sr_pair(a, b)",
    ("second", "f"): "sr_second(a, b)",
    ("second", "i"): "sr_second(a, b)",
    ("first", "f"): "sr_first(a, b)",
    ("first", "i"): "sr_first(a, b)",
}
_MINMAX = {4: {"mn": "fminf", "mx": "fmaxf"}, 8: {"mn": "sr_min", "mx": "sr_max"}}


def expression(primitive: str, dtype) -> str | None:
    """The CUDA expression of a primitive in ``dtype``, or ``None`` if it has none for that dtype.

    >>> expression("min", np.float32), expression("min", np.float64)
    ('fminf(a, b)', 'sr_min(a, b)')
    >>> expression("plus_inf_absorbs", np.int64)
    'sr_minplus_mul_i64(a, b)'
    """
    dtype = np.dtype(dtype)
    e = EXPRESSIONS.get((primitive, dtype.kind))
    if e is None:
        return None
    if dtype.kind == "f":
        return e.format(**_MINMAX[dtype.itemsize], w=f"f{8 * dtype.itemsize}")
    if dtype.kind == "i":
        return e.format(w=f"i{8 * dtype.itemsize}")
    return e


@dataclass(frozen=True)
class KernelSpec:
    """Everything a kernel is specialised with (hashable: the compile-cache key).

    ``pad``, where set, is what the tiled GEMM pads partial tiles with instead of
    ``zero`` (``SR_PAD``; the plain-sum integer kernels of :mod:`.gemm` need a value
    whose double cannot wrap around).  ``muladd``, where set, is one expression in
    ``c``, ``a``, ``b`` for ``c (+) a (x) b`` (``SR_MULADD``: a fused instruction), and
    ``dup_out`` makes the dense kernel also write each 16-bit lane of C, twice, into a
    32-bit word of ``W`` (``SR_DUP_OUT``; :mod:`.packed`).
    """

    add: str
    mul: str
    ctype: str
    zero: str
    dtype: str
    pad: str | None = None
    muladd: str | None = None
    dup_out: bool = False


def ctype_of(dtype) -> str:
    """The C type of a supported dtype.

    >>> ctype_of(np.dtype(np.int64))
    'long long'
    """
    try:
        return CTYPES[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"no CUDA kernels for dtype {np.dtype(dtype)}") from None


def literal(value, dtype) -> str:
    """An exact C literal of ``value`` in ``dtype`` (floats by their bit pattern).

    >>> literal(np.inf, np.float32)
    '__int_as_float(0x7f800000)'
    >>> literal(-2**31, np.int32)
    '(-2147483647 - 1)'
    """
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        (bits,) = struct.unpack("<I", struct.pack("<f", float(value)))
        return f"__int_as_float(0x{bits:08x})"
    if dtype == np.float64:
        (bits,) = struct.unpack("<Q", struct.pack("<d", float(value)))
        return f"__longlong_as_double(0x{bits:016x}LL)"
    if dtype == np.bool_:
        return f"((unsigned char){int(bool(value))})"
    v = int(value)
    info = np.iinfo(dtype)
    suffix = "LL" if dtype.itemsize == 8 else ""
    if v == info.min:  # the most negative literal is not expressible directly
        return f"(-{info.max}{suffix} - 1{suffix})"
    return f"({v}{suffix})"


def spec_for(S: Algebra, dtype) -> KernelSpec | None:
    """The kernel specialisation of ``S`` in ``dtype``, or ``None`` if no CUDA expressions exist.

    >>> from semiring import min_plus
    >>> spec_for(min_plus, np.float32).mul
    '(a + b)'
    >>> spec_for(min_plus, np.int32).mul
    'sr_minplus_mul_i32(a, b)'
    """
    dtype = np.dtype(dtype)
    ctype = ctype_of(dtype)
    zero = literal(S.zero_value(dtype), dtype)
    fam = FAMILIES.get(S.family) if S.family is not None else None
    if fam is not None:
        add, mul = expression(fam.add, dtype), expression(fam.mul, dtype)
        if add is None or mul is None:
            return None
    elif S.cuda_add is not None and S.cuda_mul is not None:
        add, mul = f"({S.cuda_add})", f"({S.cuda_mul})"
    else:
        return None
    return KernelSpec(add=add, mul=mul, ctype=ctype, zero=zero, dtype=dtype.str)
