"""The planner: its choices under a small fake memory budget, its refusal, and its estimates."""

from __future__ import annotations

import time

import numpy as np
import pytest

import apsp
import graphs
from apsp.planner import Plan, PlanError, dense_bytes, dense_seconds, float32_exact, plan, sparse_seconds

MiB = 2**20


def test_in_core_when_it_fits():
    p = plan(1000, np.float64, memory_limit=64 * MiB)
    assert (p.route, p.method, p.device, p.dtype) == ("dense", "rkleene", "cpu", np.float64)
    assert p.est_host_bytes == 1000 * 1000 * 8 + 500 * 500 * 8  # the result and the scratch (one strip: the quadrant)
    assert p.est_seconds == pytest.approx(dense_seconds(1000, np.float64, "cpu"))
    assert "dense rkleene on cpu, float64" in str(p)


def test_float32_when_exact_and_left_to_the_planner():
    assert plan(1000, None, exact_float32=True, memory_limit=64 * MiB).dtype == np.float32
    assert plan(1000, None, exact_float32=False, memory_limit=64 * MiB).dtype == np.float64
    # a given float64 is kept while it fits, lowered to float32 (exact) only when it does not
    assert plan(1000, np.float64, exact_float32=True, memory_limit=64 * MiB).dtype == np.float64
    assert plan(1000, np.float64, exact_float32=True, memory_limit=6 * MiB).dtype == np.float32
    with pytest.raises(PlanError):
        plan(1000, np.float64, exact_float32=False, memory_limit=6 * MiB)


def test_dense_route_peaks_near_the_result():
    for n in (4096, 36692):
        assert dense_bytes(n, np.float32, False, "rkleene") <= 1.07 * n * n * 4
    assert dense_bytes(1000, np.float32, False, "rkleene") <= 1.25 * 1000 * 1000 * 4
    # with predecessors: D, P and a witness matrix
    assert dense_bytes(1000, np.float64, True, "rkleene") > 1000 * 1000 * 16


def test_float32_exactness():
    assert float32_exact("min_plus", 100, None)
    assert float32_exact("min_plus", 1000, np.array([3.0, -7.0]))
    assert not float32_exact("min_plus", 10**6, np.array([3.0, 70.0]))
    assert not float32_exact("min_plus", 10, np.array([0.1]))
    assert float32_exact("max_min", 10, np.array([0.5, 2.0**100]))
    assert not float32_exact("max_min", 10, np.array([0.1]))
    assert not float32_exact("max_times", 10, np.array([0.5]))


def test_streaming_when_the_device_is_too_small():
    p = plan(4096, np.float32, device="gpu", memory_limit=2**30, device_memory_limit=16 * MiB)
    assert (p.route, p.method, p.device) == ("streaming", "blocked-fw", "gpu")
    assert p.est_host_bytes == 4096 * 4096 * 4
    assert plan(4096, np.float32, device="gpu", memory_limit=2**30, device_memory_limit=2**30).route == "dense"


def test_sparse_route_for_a_sparse_graph():
    p = plan(4000, None, nnz=16000, weighted=False, exact_float32=True, memory_limit=128 * MiB)
    assert (p.route, p.method, p.dtype) == ("sparse", "bfs", np.float32)
    assert p.est_seconds == pytest.approx(sparse_seconds(4000, 16000, weighted=False))
    # dense graphs stay dense: n^3 beats n (n + m) when m ~ n^2 / 2 and the rates differ
    assert plan(300, None, nnz=300 * 299, weighted=True, memory_limit=64 * MiB).route == "dense"


def test_sparse_route_on_disk_needs_no_memory_for_the_result():
    with pytest.raises(PlanError):
        plan(20000, None, nnz=60000, weighted=False, exact_float32=True, memory_limit=64 * MiB)
    p = plan(20000, None, nnz=60000, weighted=False, exact_float32=True, memory_limit=64 * MiB, out_on_disk=True)
    assert p.route == "sparse" and p.est_host_bytes < 64 * MiB


def test_refusal_is_immediate_and_says_what_to_do():
    t = time.perf_counter()
    with pytest.raises(PlanError) as err:
        plan(36692, np.float64, nnz=367662, memory_limit=2**30)
    assert time.perf_counter() - t < 1.0
    msg = str(err.value)
    assert "36,692 x 36,692 float64 = 10.0 GiB" in msg and "1.0 GiB of host memory" in msg
    for hint in ("dtype='float32'", "multi_source_sssp", "open_memmap", "device='gpu'", "memory_limit"):
        assert hint in msg
    assert isinstance(err.value, ValueError)
    assert all(isinstance(p, Plan) for p in err.value.plans)


def test_shortest_paths_refuses_before_allocating():
    W = np.zeros((600, 600))
    t = time.perf_counter()
    with pytest.raises(apsp.PlanError, match="600 x 600 float64"):
        apsp.shortest_paths(W, memory_limit=2 * MiB)
    assert time.perf_counter() - t < 1.0


def test_bad_limits():
    with pytest.raises(TypeError, match="memory_limit"):
        plan(10, memory_limit="1G")
    with pytest.raises(ValueError, match="memory_limit"):
        plan(10, memory_limit=0)


def test_plan_of_a_graph():
    G = graphs.Graph.from_edges(np.arange(1999), np.arange(1, 2000), n=2000)
    p = graphs.plan_all_pairs(G, memory_limit=32 * MiB)
    assert (p.route, p.method, p.dtype) == ("sparse", "bfs", np.float32)
    assert graphs.plan_all_pairs(G, memory_limit=2**30, method="rkleene").route == "dense"


@pytest.mark.gpu
def test_device_budget_on_the_gpu():
    pytest.importorskip("cupy")
    from semiring.backend import gpu_available

    if not gpu_available():  # pragma: no cover - depends on the machine
        pytest.skip("no usable CUDA GPU")
    import cupy as cp

    rng = np.random.default_rng(1)
    W = np.where(rng.random((300, 300)) < 0.05, rng.integers(1, 9, (300, 300)), np.inf)
    p = plan(300, np.float64, device="gpu", device_memory_limit=300 * 300 * 8)
    assert p.route == "streaming"
    got = apsp.shortest_paths(cp.asarray(W), memory_budget=300 * 300 * 8)
    np.testing.assert_array_equal(cp.asnumpy(got), apsp.shortest_paths(W))
    assert plan(300, np.float64, device="gpu").route == "dense"  # the measured device memory


def test_shortest_paths_of_a_graph_keeps_its_dtype_and_names_float32_in_the_refusal():
    G = graphs.Graph.from_edges(np.arange(799), np.arange(1, 800), n=800)  # unweighted: float64, exact in float32
    with pytest.raises(apsp.PlanError) as err:
        apsp.shortest_paths(G, memory_limit=800 * 800 * 6)  # float32 would fit; float64 is not lowered silently
    assert "dtype='float32'; exact here" in str(err.value)
    D = apsp.shortest_paths(G, dtype=np.float32, memory_limit=800 * 800 * 6)
    assert D.dtype == np.float32 and D[0, 799] == 799
