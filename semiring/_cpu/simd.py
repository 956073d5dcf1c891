"""A tiny SIMD layer for Numba: LLVM vectors as a Numba type, and intrinsics on them.

Numba has no vector type of its own; it relies on LLVM's auto-vectoriser, which
keeps a GEMM micro-kernel's accumulator tile in memory (loaded and stored every
step) instead of in registers.  This module lets a kernel hold values of the
LLVM type ``<lanes x T>`` in ordinary local variables, so that LLVM's register
allocator keeps them in vector registers:

* :class:`Vec` ``(dtype, lanes)`` is the Numba type of ``<lanes x dtype>``, and
  :class:`Mask` ``(lanes)`` the type of ``<lanes x i1>`` (lane-wise truth values);
* the intrinsics below create and combine them: :func:`vload` / :func:`vstore`
  (unaligned, from an array at an element offset), :func:`vsplat` (broadcast),
  :func:`vadd`, :func:`vsub`, :func:`vmul`, :func:`vmin`, :func:`vmax`,
  saturating :func:`vadds` / :func:`vmuls` (and :func:`vadds_sticky`, whose second
  operand's extremes stick), comparisons :func:`veq` ...
  :func:`vge` giving masks, :func:`vselect`, :func:`vand`, :func:`vor`, and
  :func:`vget` (one lane, mostly for tests).

Explicit vector types are legalised by LLVM on every target: a ``<16 x float>``
becomes one 512-bit register with AVX-512, two 256-bit ones with AVX2, four SSE
registers otherwise.  (LLVM's "prefer 256-bit vectors" tuning only limits its
auto-vectoriser, not explicit vectors, so these do use ``zmm`` registers.)
:func:`lanes` gives the lane count that fills one native register.

Every lane-wise operation equals the scalar Python/Numba operation on each lane
for all non-NaN inputs, ``+-inf`` included (e.g. :func:`vmin` is exactly
``a if a <= b else b``, which also fixes which zero a ``min(-0.0, 0.0)``
returns).  With a NaN operand they may differ (``vmin(nan, x)`` is ``nan``
where the scalar gives ``x``); the semiring kernels never see NaN in valid
inputs.  No bounds are checked: :func:`vload` and :func:`vstore` touch
``lanes`` consecutive elements of the array's buffer, and the caller
guarantees they exist and are contiguous.

>>> import numpy as np
>>> from numba import njit
>>> @njit
... def row_min_plus(a, b, out):
...     acc = vsplat(np.inf, 4)
...     for k in range(a.shape[0]):
...         acc = vmin(acc, vadd(vsplat(a[k], 4), vload(b, 4 * k, 4)))
...     vstore(out, 0, acc)
>>> out = np.empty(4)
>>> row_min_plus(np.array([0.0, 1.0]), np.array([5.0, 1, 7, np.inf, 2, 3, 4, 0]), out)
>>> out
array([3., 1., 5., 1.])
"""

from __future__ import annotations

import functools

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic, models, register_model

__all__ = [
    "Vec", "Mask", "lanes", "register_bytes",
    "vload", "vstore", "vsplat", "vsplat_like", "vget", "like",
    "vadd", "vsub", "vmul", "vmin", "vmax", "vadds", "vmuls", "vadds_sticky",
    "veq", "vne", "vlt", "vle", "vgt", "vge", "vselect", "vand", "vor",
]


# --------------------------------------------------------------------------- types


class Vec(types.Type):
    """Numba type of an LLVM vector ``<lanes x dtype>`` (a value in registers, not an array).

    >>> from numba import types
    >>> Vec(types.float32, 16)
    Vec(float32, 16)
    """

    def __init__(self, dtype: types.Type, lanes: int):
        if not isinstance(dtype, (types.Integer, types.Float)) or isinstance(dtype, types.Boolean):
            raise TypingError(f"SIMD vectors hold integers or floats, not {dtype}")
        self.dtype = dtype
        self.lanes = int(lanes)
        super().__init__(name=f"Vec({dtype}, {self.lanes})")


class Mask(types.Type):
    """Numba type of an LLVM ``<lanes x i1>``: one truth value per lane (from a comparison).

    >>> Mask(8)
    Mask(8)
    """

    def __init__(self, lanes: int):
        self.lanes = int(lanes)
        super().__init__(name=f"Mask({self.lanes})")


@register_model(Vec)
class _VecModel(models.PrimitiveModel):
    # The same LLVM type as value and in memory: locals live in allocas that
    # LLVM's mem2reg turns into SSA values, i.e. registers.
    def __init__(self, dmm, fe_type):
        elem = dmm.lookup(fe_type.dtype).get_value_type()
        super().__init__(dmm, fe_type, ir.VectorType(elem, fe_type.lanes))


@register_model(Mask)
class _MaskModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.VectorType(ir.IntType(1), fe_type.lanes))


@functools.lru_cache(maxsize=1)
def register_bytes() -> int:
    """Width in bytes of the vector registers Numba compiles for: 64 with AVX-512, else 32.

    Follows ``NUMBA_CPU_FEATURES`` when it is set (as Numba does), else the host.

    >>> register_bytes() in (32, 64)
    True
    """
    from numba.core import config
    from numba.core.codegen import get_host_cpu_features

    feats = config.CPU_FEATURES if config.CPU_FEATURES is not None else get_host_cpu_features()
    return 64 if "+avx512f" in str(feats).split(",") else 32


def lanes(dtype) -> int:
    """Lanes of ``dtype`` that fill one native vector register (16 float32 with AVX-512).

    >>> lanes(np.float64) * np.dtype(np.float64).itemsize == register_bytes()
    True
    """
    return max(1, register_bytes() // np.dtype(dtype).itemsize)


# --------------------------------------------------------------------------- helpers


def _literal_lanes(ty) -> int:
    if isinstance(ty, types.IntegerLiteral) and ty.literal_value > 0:
        return int(ty.literal_value)
    raise TypingError(f"the lane count must be a positive compile-time integer constant, got {ty}")


def _check_vec(*tys):
    first = tys[0]
    if not isinstance(first, Vec) or any(t != first for t in tys):
        raise TypingError(f"expected SIMD vectors of one type, got {', '.join(map(str, tys))}")
    return first


def _is_float(vt: Vec) -> bool:
    return isinstance(vt.dtype, types.Float)


def _elem_pointer(context, builder, arrty, arr, idx, idxty, vt):
    """Pointer ``<lanes x T>*`` to element ``idx`` of the array's flat buffer."""
    ary = context.make_array(arrty)(context, builder, arr)
    i = context.cast(builder, idx, idxty, types.intp)
    ptr = builder.gep(ary.data, [i])
    return builder.bitcast(ptr, context.get_value_type(vt).as_pointer())


def _splat(builder, vty: ir.VectorType, x):
    """Broadcast scalar ``x`` to every lane (insertelement + zero-mask shufflevector)."""
    n = vty.count
    v = builder.insert_element(ir.Constant(vty, ir.Undefined), x, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(v, ir.Constant(vty, ir.Undefined),
                                  ir.Constant(ir.VectorType(ir.IntType(32), n), [0] * n))


def _llvm_suffix(vt: Vec) -> str:
    kind = "f" if _is_float(vt) else "i"
    return f"v{vt.lanes}{kind}{vt.dtype.bitwidth}"


# --------------------------------------------------------------------------- memory


@intrinsic
def vload(typingctx, arr, idx, nlanes):
    """Load ``arr``'s flat elements ``idx .. idx + nlanes - 1`` as a vector (unaligned).

    ``idx`` counts elements from the array's data pointer; the elements must be
    contiguous in memory (e.g. a C-contiguous array, or a row of one).

    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def first4(x):
    ...     return vget(vload(x, 2, 4), 3)
    >>> first4(np.arange(8.0))
    5.0
    """
    n = _literal_lanes(nlanes)
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer):
        raise TypingError(f"vload(array, int, lanes) got {arr}, {idx}")
    vt = Vec(arr.dtype, n)

    def codegen(context, builder, sig, args):
        ptr = _elem_pointer(context, builder, sig.args[0], args[0], args[1], sig.args[1], vt)
        return builder.load(ptr, align=context.get_abi_sizeof(context.get_data_type(arr.dtype)))

    return vt(arr, idx, nlanes), codegen


@intrinsic
def vstore(typingctx, arr, idx, v):
    """Store vector ``v`` into ``arr``'s flat elements ``idx ..`` (unaligned, contiguous)."""
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer) or not isinstance(v, Vec):
        raise TypingError(f"vstore(array, int, vector) got {arr}, {idx}, {v}")
    if arr.dtype != v.dtype:
        raise TypingError(f"vstore: array of {arr.dtype}, vector of {v.dtype}")

    def codegen(context, builder, sig, args):
        ptr = _elem_pointer(context, builder, sig.args[0], args[0], args[1], sig.args[1], v)
        builder.store(args[2], ptr, align=context.get_abi_sizeof(context.get_data_type(arr.dtype)))
        return context.get_dummy_value()

    return types.none(arr, idx, v), codegen


# --------------------------------------------------------------------------- construction


@intrinsic
def vsplat(typingctx, x, nlanes):
    """A vector with ``x`` in all ``nlanes`` lanes (its type is ``x``'s: cast first, e.g. ``np.int32(k)``)."""
    n = _literal_lanes(nlanes)
    dt = types.unliteral(x)
    if not isinstance(dt, (types.Integer, types.Float)) or isinstance(dt, types.Boolean):
        raise TypingError(f"vsplat: cannot broadcast {x}")
    vt = Vec(dt, n)

    def codegen(context, builder, sig, args):
        val = context.cast(builder, args[0], sig.args[0], dt)
        return _splat(builder, context.get_value_type(vt), val)

    return vt(x, nlanes), codegen


@intrinsic
def vsplat_like(typingctx, v, x):
    """A vector of ``v``'s type with ``x`` (cast to its element type) in every lane."""
    vt = _check_vec(v)
    if not isinstance(x, (types.Integer, types.Float)):
        raise TypingError(f"vsplat_like: cannot broadcast {x}")

    def codegen(context, builder, sig, args):
        val = context.cast(builder, args[1], sig.args[1], vt.dtype)
        return _splat(builder, context.get_value_type(vt), val)

    return vt(v, x), codegen


@intrinsic
def like(typingctx, a, x):
    """``x`` as a scalar of ``a``'s type: a typed constant in scalar code generic over the dtype.

    >>> import numpy as np
    >>> from numba import njit
    >>> njit(lambda a: like(a, 1))(np.float32(2.5))
    1.0
    """
    at = types.unliteral(a)
    xt = types.unliteral(x)
    if not isinstance(at, (types.Integer, types.Float)) or not isinstance(xt, (types.Integer, types.Float)):
        raise TypingError(f"like: needs a number and a number, got {a} and {x}")

    def codegen(context, builder, sig, args):
        return context.cast(builder, args[1], sig.args[1], at)

    return at(a, x), codegen


@intrinsic
def vget(typingctx, v, i):
    """Lane ``i`` of vector ``v`` as a scalar."""
    vt = _check_vec(v)
    if not isinstance(i, types.Integer):
        raise TypingError("vget: the lane index must be an integer")

    def codegen(context, builder, sig, args):
        return builder.extract_element(args[0], context.cast(builder, args[1], sig.args[1], types.int32))

    return vt.dtype(v, i), codegen


# --------------------------------------------------------------------------- arithmetic


def _named_intrinsic(typer, name: str, doc: str):
    """``typer`` as a Numba intrinsic called ``name``, documented by ``doc`` (the factories below)."""
    typer.__doc__ = doc
    typer.__name__ = typer.__qualname__ = name
    return intrinsic(typer)


def _builder_op(name: str):
    """A codegen applying the IR builder's binary instruction ``name`` to the two arguments."""

    def codegen(context, builder, sig, args):
        return getattr(builder, name)(args[0], args[1])

    return codegen


def _binary(float_op: str, int_op: str, doc: str):
    def typer(typingctx, a, b):
        vt = _check_vec(a, b)
        return vt(a, b), _builder_op(float_op if _is_float(vt) else int_op)

    return _named_intrinsic(typer, f"v{int_op}", doc)


vadd = _binary("fadd", "add", "Lane-wise ``a + b`` (integers wrap around, like NumPy's).")
vsub = _binary("fsub", "sub", "Lane-wise ``a - b`` (integers wrap around).")
vmul = _binary("fmul", "mul", "Lane-wise ``a * b`` (integers wrap around).")


def _cmp(builder, vt: Vec, op: str, x, y):
    """``x op y`` lane-wise, with Numba's scalar semantics (``!=`` is true on NaN)."""
    if _is_float(vt):
        return builder.fcmp_unordered(op, x, y) if op == "!=" else builder.fcmp_ordered(op, x, y)
    if vt.dtype.signed:
        return builder.icmp_signed(op, x, y)
    return builder.icmp_unsigned(op, x, y)


@intrinsic
def vmin(typingctx, a, b):
    """Lane-wise ``a if a <= b else b``, exactly.

    Emitted as ``b < a ? b : a`` (the same for every non-NaN input), the
    pattern x86 maps to one ``vminps``/``vminpd``/``vpmins*`` instruction.
    """
    vt = _check_vec(a, b)

    def codegen(context, builder, sig, args):
        x, y = args
        return builder.select(_cmp(builder, vt, "<", y, x), y, x)

    return vt(a, b), codegen


@intrinsic
def vmax(typingctx, a, b):
    """Lane-wise ``a if a >= b else b``, exactly (emitted as ``b > a ? b : a``: one ``vmaxps``)."""
    vt = _check_vec(a, b)

    def codegen(context, builder, sig, args):
        x, y = args
        return builder.select(_cmp(builder, vt, ">", y, x), y, x)

    return vt(a, b), codegen


def _sadd_sat(builder, x, y, vty: ir.VectorType, sticky: bool = False):
    """``x + y`` clamped to the signed range ``[MIN, MAX]``, as ``clamp(x, MIN - y, MAX - y) + y``.

    The bounds are ``MAX - y`` (for ``y >= 0``, else ``MAX``) and ``MIN - y``
    (for ``y < 0``, else ``MIN``); neither overflows, nor does the final sum.
    They depend on ``y`` alone, so in a GEMM micro-kernel, where ``y`` is a
    loaded ``B`` vector shared by every row of the tile, LLVM computes them once
    per vector and each lane pays one min, one max and one add (``llvm.sadd.sat``
    expands to about six instructions on x86).

    ``sticky``: where ``y`` is ``MIN`` or ``MAX`` both bounds are 0, so the
    result is ``y`` whatever ``x`` is (``y == MAX`` already has the upper bound
    0, ``y == MIN`` the lower one; the other bound is zeroed).  Still bounds of
    ``y`` alone: the lanes pay nothing more.
    """
    bits = vty.element.width
    top = _splat(builder, vty, ir.Constant(vty.element, 2 ** (bits - 1) - 1))
    bottom = _splat(builder, vty, ir.Constant(vty.element, -(2 ** (bits - 1))))
    zero = ir.Constant(vty, None)
    upper = builder.select(builder.icmp_signed(">=", y, zero), builder.sub(top, y), top)
    lower = builder.select(builder.icmp_signed("<", y, zero), builder.sub(bottom, y), bottom)
    if sticky:
        upper = builder.select(builder.icmp_signed("==", y, bottom), zero, upper)
        lower = builder.select(builder.icmp_signed("==", y, top), zero, lower)
    clamped = builder.select(builder.icmp_signed(">", x, upper), upper, x)
    clamped = builder.select(builder.icmp_signed("<", clamped, lower), lower, clamped)
    return builder.add(clamped, y)


def _smul_sat64(builder, x, y, n: int):
    """``x * y`` clamped to ``[INT64_MIN, INT64_MAX]`` on ``<n x i64>``, exactly, without 128-bit products.

    (``llvm.smul.fix.sat`` would do it lane by lane with scalar ``imul``.)  The
    wrapped product ``p = x * y mod 2**64`` is exact unless the true product
    leaves the int64 range.  A float64 estimate ``|x| * |y|`` (relative error
    below ``2**-51``) splits the cases: at or above ``1.5 * 2**63`` it overflows
    for sure; below, ``|true| < 2**64``, so the true product overflowed exactly
    when ``p`` has the wrong sign (negative for a positive product, positive for
    a negative one).
    """
    i64 = ir.VectorType(ir.IntType(64), n)
    f64 = ir.VectorType(ir.DoubleType(), n)
    p = builder.mul(x, y)
    est = builder.fmul(builder.sitofp(x, f64), builder.sitofp(y, f64))
    limit = _splat(builder, f64, ir.Constant(ir.DoubleType(), 1.5 * 2.0**63))
    big = builder.or_(builder.fcmp_ordered(">=", est, limit),
                      builder.fcmp_ordered("<=", est, builder.fneg(limit)))
    zero = ir.Constant(i64, None)
    neg = builder.icmp_signed("<", builder.xor(x, y), zero)  # signs differ: product <= 0
    wrong = builder.select(neg, builder.icmp_signed(">", p, zero), builder.icmp_signed("<", p, zero))
    top = _splat(builder, i64, ir.Constant(ir.IntType(64), 2**63 - 1))
    bottom = _splat(builder, i64, ir.Constant(ir.IntType(64), -(2**63)))
    return builder.select(builder.or_(big, wrong), builder.select(neg, bottom, top), p)


def _sat_intrinsic(name: str, doc: str):
    def typer(typingctx, a, b):
        vt = _check_vec(a, b)

        def codegen(context, builder, sig, args):
            x, y = args
            if _is_float(vt):  # floats saturate to +-inf by themselves
                return builder.fadd(x, y) if name == "sadd" else builder.fmul(x, y)
            vty = context.get_value_type(vt)
            signed = "s" if vt.dtype.signed else "u"
            if name == "sadd" and vt.dtype.signed:
                return _sadd_sat(builder, x, y, vty)
            if name == "sadd":
                fnty = ir.FunctionType(vty, [vty, vty])
                fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.{signed}add.sat.{_llvm_suffix(vt)}")
                return builder.call(fn, [x, y])
            bits = vt.dtype.bitwidth
            if bits <= 32:
                # Exact product in double width (one vpmullq/vpmulld per register), clamped, truncated:
                # LLVM scalarises llvm.smul.fix.sat below 64 bits too.
                wide = ir.VectorType(ir.IntType(2 * bits), vt.lanes)
                ext = builder.sext if vt.dtype.signed else builder.zext
                p = builder.mul(ext(x, wide), ext(y, wide))
                info = np.iinfo(f"{'' if vt.dtype.signed else 'u'}int{bits}")
                top = _splat(builder, wide, ir.Constant(wide.element, int(info.max)))
                bottom = _splat(builder, wide, ir.Constant(wide.element, int(info.min)))
                cmp = builder.icmp_signed if vt.dtype.signed else builder.icmp_unsigned
                p = builder.select(cmp(">", p, top), top, p)
                p = builder.select(cmp("<", p, bottom), bottom, p)
                return builder.trunc(p, vty)
            if vt.dtype.signed:
                return _smul_sat64(builder, x, y, vt.lanes)
            # llvm.umul.fix.sat with scale 0 is the product clamped to the type's range (done lane by lane).
            fnty = ir.FunctionType(vty, [vty, vty, ir.IntType(32)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.{signed}mul.fix.sat.{_llvm_suffix(vt)}")
            return builder.call(fn, [x, y, ir.Constant(ir.IntType(32), 0)])

        return vt(a, b), codegen

    return _named_intrinsic(typer, f"v{name[1:]}s", doc)


vadds = _sat_intrinsic("sadd", "Lane-wise ``a + b`` clamped to the element type's range (``llvm.sadd.sat``); floats: ``a + b``.")


@intrinsic
def vadds_sticky(typingctx, a, b):
    """Lane-wise ``a + b`` clamped to the range of a signed integer type, where ``b``'s extremes stick.

    ``b == MIN`` gives ``MIN`` and ``b == MAX`` gives ``MAX`` whatever ``a`` is;
    otherwise the result is :func:`vadds`'s.  (``a``'s extremes do not stick:
    the caller selects for them, once per ``a``.)  It costs what :func:`vadds`
    costs, since the extra work depends on ``b`` alone.

    >>> import numpy as np
    >>> from numba import njit
    >>> @njit
    ... def f(x, y):
    ...     return vget(vadds_sticky(vsplat(x, 4), vsplat(y, 4)), 0)
    >>> top = np.iinfo(np.int32).max
    >>> f(np.int32(-5), np.int32(top)), f(np.int32(7), np.int32(-top - 1)), f(np.int32(top), np.int32(1))
    (2147483647, -2147483648, 2147483647)
    """
    vt = _check_vec(a, b)
    if _is_float(vt) or not vt.dtype.signed:
        raise TypingError(f"vadds_sticky takes vectors of signed integers, got {vt}")

    def codegen(context, builder, sig, args):
        return _sadd_sat(builder, args[0], args[1], context.get_value_type(vt), sticky=True)

    return vt(a, b), codegen
vmuls = _sat_intrinsic("smul", "Lane-wise ``a * b`` clamped to the element type's range (``llvm.smul.fix.sat``); floats: ``a * b``.")


# --------------------------------------------------------------------------- comparisons and masks


def _compare(op: str, doc: str):
    def typer(typingctx, a, b):
        vt = _check_vec(a, b)

        def codegen(context, builder, sig, args):
            return _cmp(builder, vt, op, args[0], args[1])

        return Mask(vt.lanes)(a, b), codegen

    return _named_intrinsic(typer, f"vcmp{op}", doc)


veq = _compare("==", "Lane-wise ``a == b`` as a :class:`Mask`.")
vne = _compare("!=", "Lane-wise ``a != b`` as a :class:`Mask`.")
vlt = _compare("<", "Lane-wise ``a < b`` as a :class:`Mask`.")
vle = _compare("<=", "Lane-wise ``a <= b`` as a :class:`Mask`.")
vgt = _compare(">", "Lane-wise ``a > b`` as a :class:`Mask`.")
vge = _compare(">=", "Lane-wise ``a >= b`` as a :class:`Mask`.")


@intrinsic
def vselect(typingctx, m, a, b):
    """Lane-wise ``a if m else b`` (``m`` a :class:`Mask` with as many lanes)."""
    vt = _check_vec(a, b)
    if not isinstance(m, Mask) or m.lanes != vt.lanes:
        raise TypingError(f"vselect: mask {m} does not fit {vt}")

    def codegen(context, builder, sig, args):
        return builder.select(args[0], args[1], args[2])

    return vt(m, a, b), codegen


def _bitwise(op: str, doc: str):
    def typer(typingctx, a, b):
        if isinstance(a, Mask) and a == b:
            res = a
        else:
            res = _check_vec(a, b)
            if _is_float(res):
                raise TypingError(f"{op}: bitwise operations need masks or integer vectors")
        return res(a, b), _builder_op(op)

    return _named_intrinsic(typer, f"v{op.rstrip('_')}", doc)


vand = _bitwise("and_", "Lane-wise bitwise and (of two masks, or of two integer vectors).")
vor = _bitwise("or_", "Lane-wise bitwise or (of two masks, or of two integer vectors).")
