"""Elementwise ``add`` / ``mul`` on the CPU over every broadcast of shapes, for every family and dtype.

The Numba kernel behind :func:`semiring.dense.elementwise` reads broadcast
operands through element strides (0 along a broadcast axis) instead of through
stride-0 views, which NumPy warns about (and Numba too) when their write flag
is read.  Every result is compared with the reference of each primitive's rule
(:func:`test_family_table_cpu.ref_op`, exact Python arithmetic) on the
broadcast operands, with every warning an error: scalars, 0-d arrays, rows,
columns, outer broadcasts, size 0, more axes, non-contiguous and stride-0
operands, and ``out=`` (also the operand itself, or overlapping one).
"""

from __future__ import annotations

import itertools
import warnings

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_family_table_cpu import PAIRS, pair_id, random_matrix, ref_op, rng_for

import semiring as sr
from apsp.elementwise import elementwise_ops
from semiring.dense import elementwise
from semiring.families import FAMILIES
from semiring.kernels import elementwise_apply, sentinels

pytestmark = pytest.mark.filterwarnings("error")  # every warning an error (also NumPy's FutureWarning)

SHAPES = [
    ((), (1, 1)), ((1, 1), ()), ((), ()), ((), (3, 4)), ((3, 4), ()), ((1,), ()), ((1,), (5,)), ((5,), (1,)),
    ((4,), (3, 4)), ((3, 4), (4,)), ((1, 4), (3, 4)), ((3, 1), (3, 4)), ((3, 4), (3, 1)), ((3, 1), (1, 4)),
    ((1, 4), (3, 1)), ((1, 1), (1, 1)), ((3, 4), (3, 4)), ((0,), (1,)), ((0,), ()), ((0, 3), (3,)),
    ((2, 0), (2, 1)), ((1, 0), (4, 1)), ((2, 1, 3), (4, 1)), ((5, 1, 1, 2), (3, 1, 1)), ((2, 3, 1), (1, 3, 4)),
]


def _reference(S, which: str, A, B) -> np.ndarray:
    """The family's primitive, entry by entry, on the broadcast operands."""
    prim = getattr(FAMILIES[S.family], which)
    dt = np.result_type(A, B)
    a, b = np.broadcast_arrays(np.asarray(A), np.asarray(B))
    vals = [ref_op(prim, x, y, dt) for x, y in zip(a.ravel().tolist(), b.ravel().tolist())]
    return np.array(vals, dtype=dt).reshape(a.shape)


def _operand(S, shape, dt, rng):
    return random_matrix(S, shape, dt, rng) if shape else random_matrix(S, (1,), dt, rng).reshape(())


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_every_broadcast_matches_the_reference(pair):
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("views", name, str(dt))
    for (sa, sb), which in itertools.product(SHAPES, ("add", "mul")):
        A, B = _operand(S, sa, dt, rng), _operand(S, sb, dt, rng)
        want = _reference(S, which, A, B)
        pairs = [(A, B)]
        if (A.ndim == 0) != (B.ndim == 0):  # a NumPy scalar takes the array's dtype (two scalars are no arrays)
            pairs.append((A[()] if A.ndim == 0 else A, B[()] if B.ndim == 0 else B))
        for a, b in pairs:
            got = elementwise(S, which, a, b)
            assert type(got) is np.ndarray and got.dtype == np.dtype(dt) and got.shape == want.shape, (sa, sb)
            np.testing.assert_array_equal(got, want, err_msg=f"{which} {sa} {sb}")
        np.testing.assert_array_equal(getattr(S, which)(A, B), want, err_msg=f"S.{which} {sa} {sb}")


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32, np.int64])
@pytest.mark.parametrize("which", ["add", "mul"])
def test_a_scalar_with_a_one_entry_matrix(which, dt):
    """The smallest broadcast: a NumPy scalar with a (1, 1) array (a size-1 stride-0 view before)."""
    S = sr.min_plus
    one = np.dtype(dt).type(1)
    got = elementwise(S, which, one, np.ones((1, 1), dt))
    assert got.dtype == np.dtype(dt) and got.shape == (1, 1)
    assert got[0, 0] == (1 if which == "add" else 2)
    assert elementwise(S, which, np.ones((1, 1), dt), one)[0, 0] == got[0, 0]


@pytest.mark.parametrize("pair", [p for p in PAIRS if p[0] in ("min_plus", "plus_times", "lor_land")], ids=pair_id)
def test_strided_and_stride_zero_operands(pair):
    """Transposed, reversed and sliced operands, and stride-0 views passed in (NumPy's broadcast_arrays, the
    views whose write flag it warns about; broadcast_to)."""
    name, dt = pair
    S = sr.BUILTIN[name]
    rng = rng_for("strided", name, str(dt))
    M = random_matrix(S, (6, 8), dt, rng)
    row, col = random_matrix(S, (1, 8), dt, rng), random_matrix(S, (6, 1), dt, rng)
    # first: one entry each, stride-0 views (Numba reads the flags of an argument of a type it has not seen yet)
    cases = [tuple(np.broadcast_arrays(M[:1, :1], np.ones(1, dt)))]
    cases += [(M.T, M[:, ::-1].T), (M[::2, 1::3], row[:, 1::3]), (M[::-1], col), (M[::-1, ::-2], M[::-1, ::-2])]
    cases += [tuple(np.broadcast_arrays(row, col)), tuple(np.broadcast_arrays(M, row)),
              (np.broadcast_to(row, (6, 8)), np.broadcast_to(col, (6, 8))), (np.broadcast_to(col, (6, 8)), M)]
    for (A, B), which in itertools.product(cases, ("add", "mul")):
        want = _reference(S, which, A, B)
        np.testing.assert_array_equal(elementwise(S, which, A, B), want, err_msg=f"{which} {A.strides} {B.strides}")
        op = sr.kernels.cpu_scalar_ops(S, np.dtype(dt))[which][0]
        lo, hi = sentinels(np.dtype(dt))
        got = elementwise_apply(op, A, B, np.empty(want.shape, dt), lo, hi)
        np.testing.assert_array_equal(got, want, err_msg=f"elementwise_apply {which}")


@pytest.mark.parametrize("dt", [np.float64, np.int32])
def test_out_layouts_and_aliasing(dt):
    """``out`` C- or F-ordered or strided, ``out`` the operand itself, and ``out`` overlapping an operand that
    broadcasts (its rows are read after ``out``'s first row is written: the kernel writes through a temporary)."""
    S = sr.min_plus
    rng = rng_for("out", str(dt))
    M, row = random_matrix(S, (5, 7), dt, rng), random_matrix(S, (7,), dt, rng)
    for which in ("add", "mul"):
        want = _reference(S, which, M, row)
        for out in (np.empty((5, 7), dt), np.empty((7, 5), dt).T, np.empty((10, 14), dt)[::2, ::2]):
            assert elementwise(S, which, M, row, out=out) is out
            np.testing.assert_array_equal(out, want)
        X = M.copy()
        assert elementwise(S, which, X, row, out=X) is X  # in place
        np.testing.assert_array_equal(X, want)
        X = M.copy()
        elementwise(S, which, row, X, out=X)
        np.testing.assert_array_equal(X, _reference(S, which, row, M))
        X = M.copy()
        first = X[:1]  # a view of out's first row, broadcast over all rows
        want = _reference(S, which, M, M[:1].copy())
        elementwise(S, which, X, first, out=X)
        np.testing.assert_array_equal(X, want)
        X = M.copy()
        elementwise(S, which, X[::-1].copy(), X[::-1], out=X)  # reversed view of out
        np.testing.assert_array_equal(X, _reference(S, which, M[::-1], M[::-1]))


@pytest.mark.parametrize("which", ["add", "mul"])
def test_apsp_elementwise_ops_broadcast(which):
    """The closure's elementwise ops (integers and other non-ufunc dtypes go through the same kernel)."""
    S, dt = sr.min_plus, np.dtype(np.int32)
    f = dict(zip(("add", "mul"), elementwise_ops(S, np, dt)))[which]
    lo, hi = sentinels(dt)
    col = np.array([[hi], [5], [lo + 1]], dt)
    for a, b in ((col, np.array(hi - 2, dt)), (np.array(3, dt), col.T), (col, col.T), (col[:0], col.T)):
        np.testing.assert_array_equal(f(a, b), _reference(S, which, a, b))


@pytest.mark.filterwarnings("default")
@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_broadcast_property(data):
    """Any two shapes that broadcast, any family and dtype, any op: the reference, entry by entry."""
    name, dt = data.draw(st.sampled_from(PAIRS), label="pair")
    S = sr.BUILTIN[name]
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4),
                       label="shapes")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    which = data.draw(st.sampled_from(["add", "mul"]), label="which")
    rng = np.random.default_rng(seed)
    A, B = (_operand(S, s, dt, rng) for s in shapes.input_shapes)
    want = _reference(S, which, A, B)
    with warnings.catch_warnings():  # here, not as a mark: Hypothesis's failure report warns in its own code
        warnings.simplefilter("error")
        got = elementwise(S, which, A, B)
    assert got.shape == shapes.result_shape
    np.testing.assert_array_equal(got, want)
