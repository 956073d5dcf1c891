"""CSR construction: arcs already in row order take a shortcut that must give the counting sorts' arrays."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphs import _csr
from graphs.csr_arrays import build_csr


@st.composite
def coo(draw):
    n = draw(st.integers(1, 40))
    m = draw(st.integers(0, 200))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    hub = draw(st.booleans())  # one row longer than the insertion-sorted rows
    src = rng.integers(0, n, m)
    if hub:
        src = np.concatenate([src, np.zeros(70, np.int64)])
    dst = rng.integers(0, min(n, draw(st.integers(1, n))), src.size)  # few columns: parallel arcs
    w = rng.standard_normal(src.size)
    if draw(st.booleans()):
        order = np.argsort(src, kind="stable")
        src, dst, w = src[order], dst[order], w[order]
    return n, src, dst, w


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(coo(), st.booleans())
def test_rows_in_order_give_the_counting_sorts_arrays(case, weighted):
    n, src, dst, w = case
    want = _csr.coo_to_csr(n, src, dst, w, True)
    indptr, indices, weights = build_csr(n, src, dst, w if weighted else None)
    assert indptr.tolist() == want[0].tolist()
    assert indices.dtype == np.int32 and indices.tolist() == want[1].tolist()
    if weighted:
        assert weights.tolist() == want[2].tolist()  # parallel arcs keep their order: the same weights
    else:
        assert weights is None
    grouped = bool(np.all(np.diff(src) >= 0))
    assert _csr.grouped_coo_to_csr(n, src, dst, w, True)[0] == grouped


def test_a_long_row_and_a_decreasing_row():
    src = np.array([0] * 40 + [1, 1], np.int64)
    dst = np.array(list(range(39, -1, -1)) + [1, 0], np.int64)
    w = np.arange(42, dtype=np.float64)
    ok, indptr, indices, weights = _csr.grouped_coo_to_csr(2, src, dst, w, True)
    assert ok and indptr.tolist() == [0, 40, 42] and indices.tolist() == list(range(40)) + [0, 1]
    assert weights.tolist() == list(range(39, -1, -1)) + [41, 40]
    assert not _csr.grouped_coo_to_csr(2, src[::-1].copy(), dst, w, True)[0]
