"""The out-of-core schedule over several devices (apsp.streaming with devices=), on host lanes: the CPU core of
the multi-GPU streamed route, its transfers as plain copies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apsp
import semiring as sr
from apsp.streaming import NumpyDevice, streamed_closure


def _graph(n: int, seed: int, density: float, signed: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    W = rng.integers(0 if not signed else -3, 40, (n, n)).astype(np.float64)  # integers: every order of sums exact
    W[rng.random((n, n)) >= density] = np.inf
    if signed:  # potentials keep every cycle non-negative
        p = rng.integers(0, 30, n)
        W = np.abs(W) + p[:, None] - p[None, :]
    return W


@settings(deadline=None, max_examples=40)
@given(n=st.integers(1, 70), seed=st.integers(0, 2**31 - 1), density=st.sampled_from([0.03, 0.2, 0.9]),
       lanes=st.integers(1, 3), block=st.integers(1, 70), signed=st.booleans())
def test_lanes_give_the_one_device_result(n, seed, density, lanes, block, signed):
    W = _graph(n, seed, density, signed)
    one = streamed_closure(sr.min_plus, W, block_size=min(block, n), memory_budget=2**30, device=NumpyDevice())
    many = streamed_closure(sr.min_plus, W, block_size=min(block, n), memory_budget=2**30,
                            devices=[NumpyDevice() for _ in range(lanes)])
    np.testing.assert_array_equal(many, one)  # the same schedule: bit for bit
    np.testing.assert_array_equal(many, apsp.shortest_paths(W))


@settings(deadline=None, max_examples=25)
@given(n=st.integers(2, 50), seed=st.integers(0, 2**31 - 1), lanes=st.integers(2, 3), block=st.integers(1, 20))
def test_lanes_with_predecessors_give_shortest_routes(n, seed, lanes, block):
    W = _graph(n, seed, 0.15, True)
    D, P = streamed_closure(sr.min_plus, W, predecessors=True, block_size=min(block, n), memory_budget=2**30,
                            devices=[NumpyDevice() for _ in range(lanes)])
    np.testing.assert_array_equal(D, apsp.shortest_paths(W))
    for i in range(n):
        for j in range(n):
            if i != j and np.isfinite(D[i, j]):
                route = apsp.path(P, i, j)
                assert route[0] == i and route[-1] == j
                assert sum(W[a, b] for a, b in zip(route, route[1:])) == D[i, j]


@pytest.mark.parametrize("semiring", ["max_min", "lor_land"])
def test_lanes_for_other_semirings(semiring):
    S = sr.builtin.get(semiring)
    rng = np.random.default_rng(11)
    if semiring == "lor_land":
        W = rng.random((37, 37)) < 0.08
    else:
        W = np.where(rng.random((37, 37)) < 0.1, rng.random((37, 37)), 0.0)
    want = apsp.closure(W, semiring=S)
    got = streamed_closure(S, W, block_size=5, memory_budget=2**30, devices=[NumpyDevice(), NumpyDevice()])
    np.testing.assert_array_equal(got, want)


def test_a_negative_cycle_is_found_over_lanes():
    W = _graph(30, 3, 0.1, False)
    W[4, 17], W[17, 9], W[9, 4] = 1.0, -5.0, 1.0
    with pytest.raises(apsp.NegativeCycleError):
        streamed_closure(sr.min_plus, W, block_size=7, memory_budget=2**30, devices=[NumpyDevice()] * 3)


def test_no_devices_is_an_error():
    with pytest.raises(ValueError, match="devices is empty"):
        streamed_closure(sr.min_plus, np.zeros((2, 2)), devices=[])


def test_overwrite_closes_in_place():
    W = _graph(45, 8, 0.1, True)
    want = apsp.shortest_paths(W)
    X = W.copy()
    got = streamed_closure(sr.min_plus, X, block_size=8, memory_budget=2**30, devices=[NumpyDevice()] * 2,
                           overwrite=True)
    assert got is X
    np.testing.assert_array_equal(X, want)
    C = np.array([[0.0, 1.0], [-3.0, 0.0]])
    with pytest.raises(apsp.NegativeCycleError):
        streamed_closure(sr.min_plus, C, block_size=1, memory_budget=2**30, device=NumpyDevice(), overwrite=True)
    with pytest.raises(ValueError, match="overwrite"):
        streamed_closure(sr.min_plus, np.zeros((4, 8))[:, ::2], overwrite=True, device=NumpyDevice())
