"""Every entry of the family table on the GPU (CuPy, CUDA kernels), against the slow reference of the CPU twin.

The GPU half of ``tests/test_family_table_cpu.py``: the same parametrisation
over :data:`semiring.families.FAMILIES` and each family's dtypes, the same
inputs and reference (:func:`test_family_table_cpu.ref_matmul`...), run on
CuPy arrays: the dense product and its witness, elementwise ops and integer
saturation, sparse products (``cupyx.scipy.sparse`` holds bool, float32 and
float64 only) and the closure where the family is closable.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

cp = pytest.importorskip("cupy")
csp = pytest.importorskip("cupyx.scipy.sparse")

from test_family_table_cpu import (  # noqa: E402
    INT_PAIRS,
    PAIRS,
    SHAPES,
    _law_values,
    _sparse,
    edge_values,
    pair_id,
    random_dag,
    random_matrix,
    ref_closure,
    ref_matmul,
    ref_op,
    rng_for,
)

import apsp  # noqa: E402
import semiring as sr  # noqa: E402
from semiring.backend import gpu_available  # noqa: E402
from semiring.families import FAMILIES  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not gpu_available(), reason="no usable CUDA GPU")]

GPU_SHAPES = SHAPES + [(130, 70, 257)]  # several tiles of the tiled kernel in each direction


@pytest.mark.parametrize("shape", GPU_SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_gpu_matmul_matches_the_reference(pair, shape):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("gpu", name, str(dt), shape)
    m, k, n = shape
    A = random_matrix(S, (m, k), dt, rng)
    B = random_matrix(S, (k, n), dt, rng)
    want = ref_matmul(S, A, B, witness=S.selective)
    got = S.matmul(cp.asarray(A), cp.asarray(B))
    np.testing.assert_array_equal(cp.asnumpy(got), want[0] if S.selective else want)
    if S.selective:
        C, W = S.matmul(cp.asarray(A), cp.asarray(B), witness=True)
        np.testing.assert_array_equal(cp.asnumpy(C), want[0])
        np.testing.assert_array_equal(cp.asnumpy(W), want[1])


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_gpu_elementwise_ops_are_the_reference(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    fam = FAMILIES[name]
    vals = _law_values(S, dt)
    a, b = (np.array(x, dtype=dt) for x in zip(*itertools.product(vals, repeat=2)))
    for which, prim in (("add", fam.add), ("mul", fam.mul)):
        got = cp.asnumpy(getattr(S, which)(cp.asarray(a), cp.asarray(b)))
        np.testing.assert_array_equal(got, [ref_op(prim, x, y, dt) for x, y in zip(a, b)], err_msg=which)


@pytest.mark.parametrize("pair", INT_PAIRS, ids=pair_id)
def test_gpu_integers_saturate_at_the_sentinels(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    fam = FAMILIES[name]
    e = edge_values(S, dt)
    a, b = (np.array(x, dtype=dt) for x in zip(*itertools.product(e, repeat=2)))
    got = cp.asnumpy(S.mul(cp.asarray(a), cp.asarray(b)))
    np.testing.assert_array_equal(got, [ref_op(fam.mul, x, y, dt) for x, y in zip(a, b)])
    col, row = e[:, None], np.tile(e, 9)[None, :]
    zero = S.zero_value(dt)
    want = np.array([[ref_op(fam.add, zero, ref_op(fam.mul, x, y, dt), dt) for y in row[0]] for x in col[:, 0]],
                    dtype=dt)
    np.testing.assert_array_equal(cp.asnumpy(S.matmul(cp.asarray(col), cp.asarray(row))), want)


SPARSE_PAIRS = [p for p in PAIRS if np.dtype(p[1]) in (np.dtype(np.bool_), np.dtype(np.float32), np.dtype(np.float64))]


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("pair", SPARSE_PAIRS, ids=pair_id)
def test_gpu_sparse_products_match_the_reference(pair, fmt):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("gpu-sparse", name, str(dt), fmt)
    D = random_matrix(S, (37, 29), dt, rng, special_frac=0.5)
    A = _sparse(S, D, fmt)
    G = csp.csr_matrix(A.tocsr()) if fmt == "csr" else csp.csc_matrix(A.tocsc())
    x = random_matrix(S, 29, dt, rng)
    y = random_matrix(S, 37, dt, rng)
    X = random_matrix(S, (29, 5), dt, rng)
    np.testing.assert_array_equal(cp.asnumpy(S.mxv(G, cp.asarray(x))), ref_matmul(S, D, x[:, None])[:, 0])
    np.testing.assert_array_equal(cp.asnumpy(S.vxm(cp.asarray(y), G)), ref_matmul(S, y[None, :], D)[0])
    np.testing.assert_array_equal(cp.asnumpy(S.mxm(G, cp.asarray(X))), ref_matmul(S, D, X))


@pytest.mark.parametrize("pair", [p for p in PAIRS if sr.BUILTIN[p[0]].capabilities.closable], ids=pair_id)
def test_gpu_closure_where_the_family_is_closable(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("gpu-closure", name, str(dt))
    W = random_dag(S, 11, dt, rng)
    want = ref_closure(S, W)
    for method in ("rkleene", "blocked-fw", "squaring", "fw"):
        got = apsp.closure(cp.asarray(W), semiring=S, method=method)
        np.testing.assert_array_equal(cp.asnumpy(got), want, err_msg=method)
