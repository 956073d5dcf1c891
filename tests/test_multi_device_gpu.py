"""The multi-device schedule on GPUs (apsp.multi_device with CudaLane): the same answers as the CPU closure.

Lanes are spread over the GPUs present, several lanes per GPU when there are fewer GPUs than lanes (each lane
has its own streams, so the events and copies between lanes are exercised on one GPU too).
Run with ``pytest -m gpu tests/test_multi_device_gpu.py``; skips without CuPy and a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_routes

import apsp
import semiring as sr
from apsp.errors import NegativeCycleError
from apsp.multi_device import RowBlocks, cuda_lanes, multi_device_closure
from semiring.backend import gpu_available
from semiring.errors import DeviceError

pytestmark = pytest.mark.gpu

cp = pytest.importorskip("cupy")
if not gpu_available():  # pragma: no cover - depends on the machine
    pytest.skip("no usable CUDA GPU", allow_module_level=True)

COUNT = cp.cuda.runtime.getDeviceCount()


def lanes(p: int):
    return cuda_lanes([g % COUNT for g in range(p)])


def graph(n: int, seed: int, dtype, density=0.3, low=1, high=1000):
    rng = np.random.default_rng(seed)
    W = rng.integers(low, high, (n, n)).astype(dtype)
    W[rng.random((n, n)) > density] = sr.min_plus.zero_value(np.dtype(dtype))
    return W


@pytest.mark.parametrize("p", [1, 2, 3, 4])
@pytest.mark.parametrize("n,block", [(1, 1), (77, 16), (300, 64), (1031, 128), (2500, 256)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_equals_the_cpu_closure(p, n, block, dtype):
    W = graph(n, n * 7 + p, dtype)
    expected = apsp.shortest_paths(W)
    R = multi_device_closure(sr.min_plus, W, lanes(p), block=block)
    D = R.gather()
    assert D.dtype == W.dtype
    np.testing.assert_array_equal(D, expected)
    Dg = R.gather(cp)  # CuPy on the current GPU
    assert isinstance(Dg, cp.ndarray)
    np.testing.assert_array_equal(Dg.get(), expected)


@pytest.mark.parametrize("lookahead", [True, False])
def test_cupy_input_on_gpu0_and_no_lookahead(lookahead):
    W = graph(1500, 3, np.float32, density=0.05)
    with cp.cuda.Device(0):
        Wd = cp.asarray(W)
        Wd_before = Wd.copy()
    R = multi_device_closure(sr.min_plus, Wd, lanes(3), block=128, lookahead=lookahead)
    np.testing.assert_array_equal(R.gather(), apsp.shortest_paths(W))
    assert bool(cp.array_equal(Wd, Wd_before))  # the input is not modified


def test_predecessors_route_the_distances():
    W = graph(400, 11, np.float64, density=0.05)
    R = multi_device_closure(sr.min_plus, W, lanes(3), block=48, predecessors=True)
    D, P = R.gather(), R.gather(which="P")
    np.testing.assert_array_equal(D, apsp.shortest_paths(W))
    check_routes(sr.min_plus, W, D, P, exact=True)


def test_negative_cycle_named():
    W = graph(300, 5, np.float64, density=0.05)
    W[17, 230], W[230, 17] = 1.0, -3.0
    with pytest.raises(NegativeCycleError) as info:
        multi_device_closure(sr.min_plus, W, lanes(2), block=64)
    assert info.value.cycle is not None and 17 in info.value.cycle


def test_rows_made_on_the_gpus_and_poisoned_buffers():
    n = 1100
    W = graph(n, 8, np.float32)

    def rows(a, b, xp):
        return xp.asarray(W[a:b])

    L = lanes(2)
    R = RowBlocks.from_rows(n, rows, L, block=100)
    for lane in L:  # poison every receive buffer the pool could hand out again
        with lane.active():
            cp.full((100, n), -7.0, dtype=cp.float32)
    multi_device_closure(sr.min_plus, R, L)
    np.testing.assert_array_equal(R.gather(), apsp.shortest_paths(W))


@pytest.mark.parametrize("devices", ["all", [0], list(range(min(COUNT, 2)))])
def test_shortest_paths_devices(devices):
    W = graph(700, 21, np.float32, density=0.1)
    expected = apsp.shortest_paths(W)
    np.testing.assert_array_equal(apsp.shortest_paths(W, devices=devices), expected)
    D, P = apsp.shortest_paths(W.astype(np.float64), devices=devices, predecessors=True)
    np.testing.assert_array_equal(D, expected.astype(np.float64))
    check_routes(sr.min_plus, W.astype(np.float64), D, P, exact=True)
    with cp.cuda.Device(0):
        Dg = apsp.shortest_paths(cp.asarray(W), devices=devices)
    assert isinstance(Dg, cp.ndarray) and Dg.device.id == 0
    np.testing.assert_array_equal(Dg.get(), expected)


def test_the_planner_spreads_a_large_matrix_over_the_gpus():
    pl = apsp.plan(65536, np.float32, device="gpu", gpus=COUNT)
    if COUNT > 1:
        assert pl.route == "multi-gpu" and f"{COUNT} GPUs" in pl.reason
    else:
        assert pl.route == "dense"
    assert apsp.plan(1024, np.float32, device="gpu", gpus=COUNT).route == "dense"  # small: one GPU is faster


def test_devices_argument_errors():
    W = graph(10, 1, np.float32)
    with pytest.raises(DeviceError, match="GPU"):
        apsp.shortest_paths(W, devices=[COUNT])
    with pytest.raises(ValueError, match="twice"):
        apsp.shortest_paths(W, devices=[0, 0])
    with pytest.raises(TypeError):
        apsp.shortest_paths(W, devices=1.5)
    with pytest.raises(ValueError, match="multi-gpu"):
        apsp.shortest_paths(W, method="rkleene", devices="all")


@pytest.mark.parametrize("p", [1, 2, 4])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_streamed_over_several_gpus_equals_the_cpu_closure(p, dtype):
    """The out-of-core route over several GPUs (apsp.streaming with devices=): the host matrix streamed through
    each GPU, slabs dealt out; several lanes per GPU when fewer GPUs are present."""
    from apsp.streaming import CupyDevice, streamed_closure

    W = graph(1301, 17 + p, dtype, density=0.05)
    expected = apsp.shortest_paths(W)
    D = streamed_closure(sr.min_plus, W, memory_budget=2**30, block_size=200,
                         devices=[CupyDevice(g % COUNT) for g in range(p)])
    np.testing.assert_array_equal(np.asarray(D), expected)
    D, P = streamed_closure(sr.min_plus, W, predecessors=True, memory_budget=2**30, block_size=256,
                            devices=[CupyDevice(g % COUNT) for g in range(p)])
    np.testing.assert_array_equal(np.asarray(D), expected)
    check_routes(sr.min_plus, W, np.asarray(D), np.asarray(P), exact=True)


def test_a_matrix_larger_than_every_gpus_budget_streams_over_all_of_them():
    W = graph(3000, 5, np.float32, density=0.02)
    budget = 3000 * 3000 * 4 // 8  # an eighth of the matrix on each GPU: neither the in-core nor the row-block route
    p = apsp.plan(3000, np.float32, device="gpu", method="multi-gpu", device_memory_limit=budget,
                  routes=("multi-gpu", "streaming"), gpus=COUNT)
    assert p.route == "streaming" and (COUNT == 1 or f"{COUNT} GPUs" in p.reason)
    D = apsp.shortest_paths(W, device="gpu", devices="all", memory_budget=budget)
    np.testing.assert_array_equal(np.asarray(D), apsp.shortest_paths(W))
