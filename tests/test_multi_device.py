"""The multi-device schedule (apsp.multi_device) on host lanes: the same threads, panels and look-ahead as on GPUs,
with plain copies; checked against the one-device closure and the scalar reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import check_routes, closure_reference_scalar

import apsp
import semiring as sr
from apsp.errors import NegativeCycleError
from apsp.multi_device import HostLane, RowBlocks, default_block, multi_device_closure


def _lanes(p: int) -> list[HostLane]:
    return [HostLane(g) for g in range(p)]


def _graph(rng, n: int, dtype, density: float, low: int, high: int) -> np.ndarray:
    W = rng.integers(low, high, size=(n, n)).astype(dtype)
    W[rng.random((n, n)) > density] = sr.min_plus.zero_value(np.dtype(dtype))
    return W


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 37), p=st.integers(1, 5), block=st.integers(1, 9), lookahead=st.booleans(),
       dtype=st.sampled_from([np.float64, np.float32, np.int32, np.int64]), density=st.floats(0.05, 0.9),
       seed=st.integers(0, 2**32 - 1))
def test_equals_the_one_device_closure(n, p, block, lookahead, dtype, density, seed):
    rng = np.random.default_rng(seed)
    W = _graph(rng, n, dtype, density, 0, 50)
    D = multi_device_closure(sr.min_plus, W, _lanes(p), block=block, lookahead=lookahead).gather()
    assert D.dtype == W.dtype
    np.testing.assert_array_equal(D, apsp.shortest_paths(W))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 24), p=st.integers(1, 4), block=st.integers(1, 7), seed=st.integers(0, 2**32 - 1),
       S=st.sampled_from([sr.min_plus, sr.max_min, sr.min_max]))
def test_predecessors_give_routes_of_the_distances(n, p, block, seed, S):
    rng = np.random.default_rng(seed)
    W = rng.integers(-3 if S is sr.min_plus else 1, 30, size=(n, n)).astype(np.float64)
    if S is sr.min_plus:
        W = np.abs(W)  # no negative cycle
    W[rng.random((n, n)) > 0.4] = S.zero_value(W.dtype)
    R = multi_device_closure(S, W, _lanes(p), block=block, predecessors=True)
    D, P = R.gather(), R.gather(which="P")
    np.testing.assert_array_equal(D, closure_reference_scalar(S, W))
    check_routes(S, W, D, P, exact=True)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 20), p=st.integers(1, 4), block=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_negative_weights_and_cycles(n, p, block, seed):
    rng = np.random.default_rng(seed)
    W = _graph(rng, n, np.float64, 0.3, -4, 20)
    try:
        expected = apsp.shortest_paths(W)
    except NegativeCycleError:
        with pytest.raises(NegativeCycleError) as info:
            multi_device_closure(sr.min_plus, W, _lanes(p), block=block)
        cycle = info.value.cycle
        assert cycle is not None and sum(W[a, b] for a, b in zip(cycle, cycle[1:] + cycle[:1])) < 0
        return
    np.testing.assert_array_equal(multi_device_closure(sr.min_plus, W, _lanes(p), block=block).gather(), expected)


def test_rows_built_on_their_lanes_and_read_back():
    n, rng = 23, np.random.default_rng(5)
    W = _graph(rng, n, np.float32, 0.3, 1, 9)
    R = RowBlocks.from_rows(n, lambda a, b, xp: xp.asarray(W[a:b]), _lanes(3), block=4)
    assert [R.owner(k) for k in range(R.count)] == [0, 1, 2, 0, 1, 2]
    assert sum(buf.shape[0] for buf in R.local) == n
    multi_device_closure(sr.min_plus, R, R.lanes)
    expected = apsp.shortest_paths(W)
    np.testing.assert_array_equal(R.gather(), expected)
    np.testing.assert_array_equal(R.rows(5, 17), expected[5:17])


def test_reading_predecessors_that_were_not_computed_is_a_clear_error():
    W = np.ones((5, 5))
    R = multi_device_closure(sr.min_plus, W, _lanes(2), block=2)
    for read in (lambda: R.gather(which="P"), lambda: R.rows(0, 3, which="P")):
        with pytest.raises(ValueError, match="no predecessors"):
            read()
    with pytest.raises(ValueError, match="which='Q'"):
        R.gather(which="Q")  # type: ignore[arg-type]  # a wrong value on purpose
    R = multi_device_closure(sr.min_plus, W, _lanes(2), block=2, predecessors=True)
    np.testing.assert_array_equal(R.rows(0, 5, which="P"), R.gather(which="P"))


def test_a_failing_lane_fails_the_closure_without_hanging():
    class Broken(HostLane):
        def receive(self, dst, src, source, after=()):
            raise RuntimeError("link down")

    W = np.ones((12, 12))
    with pytest.raises(RuntimeError, match="link down"):
        multi_device_closure(sr.min_plus, W, [HostLane(0), Broken(1), HostLane(2)], block=2)


def test_default_block_leaves_every_lane_two_blocks():
    for n in (1, 7, 100, 1000, 65536, 196608):
        for p in (1, 2, 3, 4, 8):
            b = default_block(n, p)
            assert 1 <= b <= max(1, n) and (-(-n // b) >= 2 * p or b <= 64)


def test_devices_need_a_gpu_run():
    from semiring.errors import DeviceError

    W = np.ones((4, 4))
    with pytest.raises(DeviceError, match="devices= names GPUs"):
        apsp.shortest_paths(W, devices="all", device="cpu")
    with pytest.raises(DeviceError, match="runs on GPUs"):
        apsp.shortest_paths(W, method="multi-gpu")
    assert "multi-gpu" in apsp.METHODS
