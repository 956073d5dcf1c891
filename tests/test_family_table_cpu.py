"""Every entry of the family table, on the CPU, against a slow reference: no hand-written case per family.

The tests are parametrised over :data:`semiring.families.FAMILIES` and each
family's dtypes, and read what to check from the family's capabilities
(:class:`semiring.families.Capabilities`), so a new family is tested by adding
its entry.  The reference (:func:`ref_op`) is written per *primitive*, in exact
Python arithmetic from the primitive's documented rule: integers saturate at
the sentinels ``iinfo.min`` / ``iinfo.max``, which stand for ``-inf`` / ``+inf``;
floats follow IEEE arithmetic in the dtype.  A new primitive needs its rule here.

What is checked, for every family and dtype:

* the dense product (NumPy, Numba kernels) against a triple loop over the
  reference ops, on random matrices of awkward sizes (across the kernels'
  blocking) holding the family's zero, one and allowed infinities, plus the
  witness for families with a selective add;
* the laws the family declares (commutative, associative add with identity
  ``zero``; associative mul annihilated by ``zero``; ``one`` an identity,
  idempotence, selectivity, distributivity where declared), elementwise;
* integer saturation at the sentinels, elementwise and through the GEMM kernel;
* every primitive, used by a family or not: its Numba scalar and SIMD-vector
  functions follow its rule on the edge values of every dtype kind it has;
* sparse ``mxv`` / ``vxm`` / ``mxm`` (SciPy CSR and CSC) against the dense product;
* the closure (:func:`apsp.closure`) against Floyd-Warshall over the reference
  ops on random DAGs where the family is closable, and a clear refusal where not.

The GPU twin of these tests is ``tests/test_family_table_gpu.py``.
"""

from __future__ import annotations

import functools
import itertools
import zlib

import numpy as np
import pytest
import scipy.sparse as sp
from numba import njit
from tiers import tiered

import apsp
import semiring as sr
from semiring._cpu import scalar_ops, simd
from semiring._cpu.simd import vload, vstore
from semiring.errors import UnsupportedOperationError
from semiring.families import FAMILIES, PRIMITIVES
from semiring.kernels import elementwise_apply, sentinels

INF = float("inf")


# -- the reference: each primitive's rule, in exact Python arithmetic ------------------------------

def _clamp(v: int, lo: int, hi: int) -> int:
    return lo if v <= lo else hi if v >= hi else v


def _int_rule(name: str, a: int, b: int, lo: int, hi: int) -> int:
    if name == "min":
        return min(a, b)
    if name == "max":
        return max(a, b)
    if name == "plus":
        return _clamp(a + b, lo, hi)
    if name == "plus_inf_absorbs":  # +inf absorbs everything, then -inf every finite value
        return hi if hi in (a, b) else lo if lo in (a, b) else _clamp(a + b, lo, hi)
    if name == "plus_neginf_absorbs":  # the mirror image
        return lo if lo in (a, b) else hi if hi in (a, b) else _clamp(a + b, lo, hi)
    if name == "times":
        return _clamp(a * b, lo, hi)
    if name == "times_inf_absorbs":
        return hi if hi in (a, b) else _clamp(a * b, lo, hi)
    if name == "pair":  # 1 where both operands are stored (not 0), else 0
        return 1 if a != 0 and b != 0 else 0
    if name == "second":  # b, unless a is missing (+inf)
        return hi if a == hi else b
    if name == "first":  # a, unless b is missing (+inf)
        return hi if b == hi else a
    raise AssertionError(f"no reference rule for the primitive {name!r}: add one to tests/test_family_table_cpu.py")


def _float_rule(name: str, a, b):
    """``a`` and ``b`` are NumPy scalars of the dtype: the arithmetic rounds as the kernels' does."""
    inf = type(a)(INF)
    if name == "min":
        return b if b < a else a  # a NaN candidate b (inf + -inf) leaves a
    if name == "max":
        return b if b > a else a
    if name in ("plus", "plus_inf_absorbs", "plus_neginf_absorbs"):
        return a + b
    if name == "times":
        return a * b
    if name == "times_inf_absorbs":  # +inf absorbs, also against 0
        return inf if inf in (a, b) else a * b
    if name == "pair":
        return type(a)(1) if a != 0 and b != 0 else type(a)(0)
    if name == "second":
        return inf if a == inf else b
    if name == "first":
        return inf if b == inf else a
    raise AssertionError(f"no reference rule for the primitive {name!r}: add one to tests/test_family_table_cpu.py")


def ref_op(name: str, a, b, dtype):
    """The primitive ``name`` on two scalars of ``dtype``, by its documented rule."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        if name == "or":
            return bool(a) or bool(b)
        if name == "and":
            return bool(a) and bool(b)
        raise AssertionError(f"no bool rule for {name!r}")
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        return dtype.type(_int_rule(name, int(a), int(b), int(info.min), int(info.max)))
    with np.errstate(all="ignore"):
        return dtype.type(_float_rule(name, dtype.type(a), dtype.type(b)))


def ref_matmul(S, A, B, witness: bool = False):
    """``A (x) B`` by the triple loop over the reference ops (``(C, W)`` with the kernels' witness rule)."""
    fam = FAMILIES[S.family]
    dtype = A.dtype
    m, k = A.shape
    n = B.shape[1]
    C = np.empty((m, n), dtype=dtype)
    W = np.full((m, n), -1, dtype=np.int32)
    rows, cols = A.tolist(), B.T.tolist()
    for i in range(m):
        for j in range(n):
            acc = S.zero_value(dtype)
            for kk in range(k):
                p = ref_op(fam.mul, rows[i][kk], cols[j][kk], dtype)
                new = ref_op(fam.add, acc, p, dtype)  # add(old, candidate), as every kernel calls it
                if new != acc:  # the witness: the k of the last change (ties keep the earlier k)
                    W[i, j] = kk
                acc = new
            C[i, j] = acc
    return (C, W) if witness else C


def ref_closure(S, A):
    """Floyd-Warshall over the reference ops: ``I (+) A (+) A^2 (+) ...`` (no improving cycle)."""
    fam = FAMILIES[S.family]
    dtype = A.dtype
    n = A.shape[0]
    D = [[A[i, j] for j in range(n)] for i in range(n)]
    one = S.one_value(dtype)
    for i in range(n):
        D[i][i] = ref_op(fam.add, D[i][i], one, dtype)
    for kk in range(n):
        for i in range(n):
            for j in range(n):
                D[i][j] = ref_op(fam.add, D[i][j], ref_op(fam.mul, D[i][kk], D[kk][j], dtype), dtype)
    return np.array(D, dtype=dtype).reshape(n, n)


# -- inputs ----------------------------------------------------------------------------------------

PAIRS = [(name, dt) for name, f in FAMILIES.items() for dt in f.dtypes]


def pair_id(pair) -> str:
    return f"{pair[0]}-{pair[1]}"


def rng_for(*key) -> np.random.Generator:
    """A generator seeded by the test's parameters: the same inputs on every run."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def specials(S, dtype) -> list:
    """The zero, the one and the infinities the semiring's entries may hold, in ``dtype``.

    An infinity the family forbids (``S.forbidden``, abstract) is left out for
    integers too, where its sentinel is not rejected but is not an infinity of
    the family either (``plus_times``: ``iinfo.max`` is a large number).
    """
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return [np.False_, np.True_]
    out = [S.zero_value(dtype), S.one_value(dtype)]
    out += [sr.posinf(dtype)] if INF not in S.forbidden else []
    out += [sr.neginf(dtype)] if -INF not in S.forbidden and not S.nonnegative else []
    keep = []
    for v in out:
        if not any(v == w for w in keep):
            keep.append(v)
    return keep


def small_values(S, dtype) -> tuple[int, int]:
    """The range of ordinary entries: small enough that every float sum and product is exact."""
    mul = PRIMITIVES[FAMILIES[S.family].mul]
    high = 4 if mul.symbol == "*" else 20
    return (0 if S.nonnegative else -high), high


def random_matrix(S, shape, dtype, rng, special_frac: float = 0.25) -> np.ndarray:
    """Small integers (exact in every dtype), with the zero, the one and the allowed infinities mixed in."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.4
    low, high = small_values(S, dtype)
    X = rng.integers(low, high + 1, size=shape).astype(dtype)
    sp_vals = specials(S, dtype)
    mask = rng.random(shape) < special_frac
    X[mask] = np.array(sp_vals, dtype=dtype)[rng.integers(0, len(sp_vals), size=int(mask.sum()))]
    return X


def edge_values(S, dtype) -> np.ndarray:
    """Integer values at and near the sentinels, half the range, and small ones (allowed by ``S``)."""
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    half = 2 ** (info.bits - 2)
    vals = [lo, lo + 1, lo + 7, -half - 1, -half, -3, -1, 0, 1, 2, 3, half, half + 1, hi - 7, hi - 1, hi]
    if S.nonnegative:
        vals = [v for v in vals if v >= 0]
    return np.array(vals, dtype=dtype)


SHAPES = [(1, 1, 1), (2, 0, 3), (3, 5, 2), (17, 33, 9), (6, 260, 70)]  # the last crosses KC = 256


# -- the dense product ----------------------------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("pair", tiered(PAIRS, tuple, pair_id))
def test_matmul_matches_the_reference(pair, shape):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for(name, str(dt), shape)
    m, k, n = shape
    A = random_matrix(S, (m, k), dt, rng)
    B = random_matrix(S, (k, n), dt, rng)
    np.testing.assert_array_equal(S.matmul(A, B), ref_matmul(S, A, B))
    # strided and transposed operands take the same path
    np.testing.assert_array_equal(S.matmul(np.asfortranarray(A), B.T.copy().T), ref_matmul(S, A, B))
    if S.selective:
        C, W = S.matmul(A, B, witness=True)
        Cr, Wr = ref_matmul(S, A, B, witness=True)
        np.testing.assert_array_equal(C, Cr)
        np.testing.assert_array_equal(W, Wr)


@pytest.mark.parametrize("pair", tiered(PAIRS, tuple, pair_id))
def test_accumulate_adds_into_out(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("acc", name, str(dt))
    A, B = random_matrix(S, (9, 13), dt, rng), random_matrix(S, (13, 11), dt, rng)
    C0 = random_matrix(S, (9, 11), dt, rng)
    out = C0.copy()
    S.matmul(A, B, out=out, accumulate=True)
    fam = FAMILIES[name]
    P = ref_matmul(S, A, B)
    want = np.array([ref_op(fam.add, c, p, dt) for c, p in zip(C0.ravel(), P.ravel())], dtype=dt).reshape(C0.shape)
    np.testing.assert_array_equal(out, want)


# -- the laws the family declares -------------------------------------------------------------------

def _law_values(S, dt) -> list:
    dt = np.dtype(dt)
    if dt.kind == "b":
        return [np.False_, np.True_]
    low, high = small_values(S, dt)
    vals = [dt.type(v) for v in sorted({low, low // 2, -1 if low < 0 else 0, 0, 1, 2, high // 2, high})]
    return vals + [v for v in specials(S, dt) if not any(v == w for w in vals)]


@pytest.mark.parametrize("pair", tiered(PAIRS, tuple, pair_id))
def test_the_declared_laws_hold(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    caps = S.capabilities
    vals = _law_values(S, dt)
    a, b, c = (np.array(x, dtype=dt) for x in zip(*itertools.product(vals, repeat=3)))

    def add(x, y):
        return S.add(x, y)

    def mul(x, y):
        return S.mul(x, y)

    zero, one = np.full_like(a, S.zero_value(dt)), np.full_like(a, S.one_value(dt))
    eq = np.testing.assert_array_equal
    eq(add(a, b), add(b, a))
    eq(add(add(a, b), c), add(a, add(b, c)))
    eq(add(a, zero), a)
    eq(mul(mul(a, b), c), mul(a, mul(b, c)))
    eq(mul(a, zero), zero)
    eq(mul(zero, a), zero)
    if caps.one_is_identity:
        eq(mul(a, one), a)
        eq(mul(one, a), a)
    if caps.idempotent:
        eq(add(a, a), a)
    if caps.selective:
        s = add(a, b)
        assert np.all((s == a) | (s == b))
    if caps.distributive:
        eq(mul(a, add(b, c)), add(mul(a, b), mul(a, c)))
        eq(mul(add(a, b), c), add(mul(a, c), mul(b, c)))
    if caps.mul_selective:
        p = mul(a, b)
        assert np.all((p == a) | (p == b))


@pytest.mark.parametrize("pair", tiered(PAIRS, tuple, pair_id))
def test_elementwise_ops_are_the_reference(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    fam = FAMILIES[name]
    vals = _law_values(S, dt)
    a, b = (np.array(x, dtype=dt) for x in zip(*itertools.product(vals, repeat=2)))
    for which, prim in (("add", fam.add), ("mul", fam.mul)):
        got = getattr(S, which)(a, b)
        assert got.dtype == np.dtype(dt)
        np.testing.assert_array_equal(got, [ref_op(prim, x, y, dt) for x, y in zip(a, b)], err_msg=which)


# -- integers at the sentinels: saturate, never wrap --------------------------------------------------

INT_PAIRS = [p for p in PAIRS if np.dtype(p[1]).kind == "i"]


@pytest.mark.parametrize("pair", tiered(INT_PAIRS, tuple, pair_id))
def test_integers_saturate_at_the_sentinels(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    fam = FAMILIES[name]
    e = edge_values(S, dt)
    a, b = (np.array(x, dtype=dt) for x in zip(*itertools.product(e, repeat=2)))
    for which, prim in (("add", fam.add), ("mul", fam.mul)):
        np.testing.assert_array_equal(getattr(S, which)(a, b), [ref_op(prim, x, y, dt) for x, y in zip(a, b)],
                                      err_msg=which)
    # one product per entry through the GEMM kernel (its SIMD micro-kernel for wide rows)
    col, row = e[:, None], np.tile(e, 5)[None, :]
    zero = S.zero_value(dt)
    want = np.array([[ref_op(fam.add, zero, ref_op(fam.mul, x, y, dt), dt) for y in row[0]] for x in col[:, 0]],
                    dtype=dt)
    np.testing.assert_array_equal(S.matmul(col, row), want)


# -- sparse products against the dense one -------------------------------------------------------------

def _sparse(S, D, fmt: str):
    """The entries of the dense ``D`` other than the semiring zero, stored in a SciPy array of ``fmt``."""
    zero = S.zero_value(D.dtype)
    r, c = np.nonzero(D != zero)
    A = sp.coo_array((D[r, c], (r, c)), shape=D.shape)
    return A.tocsr() if fmt == "csr" else A.tocsc()


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("pair", tiered(PAIRS, tuple, pair_id))
def test_sparse_products_match_the_dense_product(pair, fmt):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("sparse", name, str(dt), fmt)
    D = random_matrix(S, (37, 29), dt, rng, special_frac=0.5)
    A = _sparse(S, D, fmt)
    x = random_matrix(S, 29, dt, rng)
    y = random_matrix(S, 37, dt, rng)
    X = random_matrix(S, (29, 5), dt, rng)
    np.testing.assert_array_equal(S.mxv(A, x), S.matmul(D, x[:, None])[:, 0])
    np.testing.assert_array_equal(S.vxm(y, A), S.matmul(y[None, :], D)[0])
    np.testing.assert_array_equal(S.mxm(A, X), S.matmul(D, X))
    np.testing.assert_array_equal(S.mxm(A, X), ref_matmul(S, D, X))


# -- the closure ---------------------------------------------------------------------------------------

def random_dag(S, n: int, dt, rng) -> np.ndarray:
    """A random DAG's matrix (no cycle, so every closable family's closure exists), vertices shuffled."""
    D = random_matrix(S, (n, n), dt, rng, special_frac=0.3)
    zero = S.zero_value(dt)
    D[np.tril_indices(n)] = zero
    perm = rng.permutation(n)
    return D[np.ix_(perm, perm)]


@pytest.mark.parametrize("pair", tiered(PAIRS, tuple, pair_id))
def test_closure_where_the_family_is_closable(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("closure", name, str(dt))
    W = random_dag(S, 11, dt, rng)
    if not S.capabilities.closable:
        with pytest.raises(UnsupportedOperationError, match=f"the closure over {name} is not computed here"):
            apsp.closure(W, semiring=S)
        return
    want = ref_closure(S, W)
    for method in ("rkleene", "blocked-fw", "squaring", "fw"):
        np.testing.assert_array_equal(apsp.closure(W, semiring=S, method=method), want, err_msg=method)


# -- every primitive, family or not: the Numba scalar and vector functions follow the rule -----------

PRIMITIVE_CASES = [(name, np.dtype(dt)) for name in PRIMITIVES for dt in ("float32", "float64", "int32", "int64", "bool")
                   if (name, np.dtype(dt).kind) in scalar_ops.SCALAR]


def _primitive_values(dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        lo, hi, half = int(info.min), int(info.max), 2 ** (info.bits - 2)
        return np.array([lo, lo + 1, -half, -3, -1, 0, 1, 2, 3, half, hi - 1, hi], dtype=dtype)
    big = float(np.finfo(dtype).max)
    return np.array([-INF, -big, -2.5, -1.0, -0.0, 0.0, 1.0, 2.5, 4.0, big, INF], dtype=dtype)


@functools.cache
def _vector_kernel(vop, lanes: int):
    @njit
    def kernel(a, b, lo, hi, out):  # pragma: no cover - jitted
        for i in range(0, a.shape[0], lanes):
            vstore(out, i, vop(vload(a, i, lanes), vload(b, i, lanes), lo, hi))

    return kernel


@pytest.mark.parametrize("case", PRIMITIVE_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_every_primitive_follows_its_rule_on_every_backend_of_the_cpu(case):
    name, dt = case
    v = _primitive_values(dt)
    a, b = (np.array(x, dtype=dt) for x in zip(*itertools.product(v, repeat=2)))
    want = np.array([ref_op(name, x, y, dt) for x, y in zip(a, b)], dtype=dt)
    lo, hi = sentinels(dt)
    with np.errstate(all="ignore"):
        got = elementwise_apply(scalar_ops.SCALAR[(name, dt.kind)], a, b, np.empty_like(a), lo, hi)
    np.testing.assert_array_equal(got, want, err_msg="scalar")
    if (name, dt.kind) in scalar_ops.VECTOR:
        lanes = simd.lanes(dt)
        pad = -len(a) % lanes
        a2, b2 = np.concatenate((a, a[:pad])), np.concatenate((b, b[:pad]))
        out = np.empty_like(a2)
        _vector_kernel(scalar_ops.VECTOR[(name, dt.kind)], lanes)(a2, b2, lo, hi, out)
        np.testing.assert_array_equal(out[: len(a)], want, err_msg="vector")
