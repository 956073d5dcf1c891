"""CUDA C expressions for a semiring's ``add`` / ``mul`` in a dtype: what the kernels are specialised with.

The built-in families use the functions of ``scalar_ops.cuh``, the CUDA twin of
:mod:`semiring._cpu.scalar_ops` (the reference semantics: integer sentinels,
saturation, ``+inf`` absorbing in ``min_plus`` and ``-inf`` in ``max_plus``).
Custom semirings give ``cuda_add`` / ``cuda_mul`` expressions in ``a`` and ``b``.

:func:`spec_for` returns a :class:`KernelSpec`, the hashable key under which the
compiled kernels are cached.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..core import Semiring

__all__ = ["KernelSpec", "spec_for", "ctype_of", "literal"]

CTYPES = {
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
    np.dtype(np.int32): "int",
    np.dtype(np.int64): "long long",
    np.dtype(np.bool_): "unsigned char",
}

# float32 min/max are single FMNMX instructions; float64 has no DMNMX, and a
# compare-and-select (DSETP + 2 FSEL) is half the instructions of fmin()'s NaN-aware
# sequence (the inputs hold no NaN).
_FLOAT = {
    "min_plus": ("{mn}(a, b)", "(a + b)"),
    "max_plus": ("{mx}(a, b)", "(a + b)"),
    "max_min": ("{mx}(a, b)", "{mn}(a, b)"),
    "min_max": ("{mn}(a, b)", "{mx}(a, b)"),
    "plus_times": ("(a + b)", "(a * b)"),
    "max_times": ("{mx}(a, b)", "(a * b)"),
}
_MINMAX = {4: {"mn": "fminf", "mx": "fmaxf"}, 8: {"mn": "sr_min", "mx": "sr_max"}}
_INT = {
    "min_plus": ("sr_min(a, b)", "sr_minplus_mul_{w}(a, b)"),
    "max_plus": ("sr_max(a, b)", "sr_maxplus_mul_{w}(a, b)"),
    "max_min": ("sr_max(a, b)", "sr_min(a, b)"),
    "min_max": ("sr_min(a, b)", "sr_max(a, b)"),
    "plus_times": ("sr_sat_add_{w}(a, b)", "sr_sat_mul_{w}(a, b)"),
    "max_times": ("sr_max(a, b)", "sr_sat_mul_{w}(a, b)"),
}


@dataclass(frozen=True)
class KernelSpec:
    """Everything a kernel is specialised with (hashable: the compile-cache key)."""

    add: str
    mul: str
    ctype: str
    zero: str
    dtype: str


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


def spec_for(S: "Semiring", dtype) -> KernelSpec | None:
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
    fam = S.family
    if fam == "lor_land":
        add, mul = "(a | b)", "(a & b)"
    elif fam is not None and dtype.kind == "f":
        add, mul = (e.format(**_MINMAX[dtype.itemsize]) for e in _FLOAT[fam])
    elif fam is not None and dtype.kind == "i":
        add, mul = (e.format(w=f"i{8 * dtype.itemsize}") for e in _INT[fam])
    elif S.cuda_add is not None and S.cuda_mul is not None:
        add, mul = f"({S.cuda_add})", f"({S.cuda_mul})"
    else:
        return None
    return KernelSpec(add=add, mul=mul, ctype=ctype, zero=zero, dtype=dtype.str)
