"""The planner: its choices under a small fake memory budget, its refusal, its estimates from measured rates, and the
memory probe it budgets against (apsp.memory), read from fake /proc and cgroup trees."""

from __future__ import annotations

import tempfile
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import apsp
import graphs
from apsp import memory, planner
from apsp.planner import Plan, PlanError, dense_bytes, dense_seconds, float32_exact, plan
from graphs import plan_all_pairs
from graphs.paths.all_pairs_plan import sparse_seconds

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


def _graph(n: int, nnz: int, weighted: bool):
    """A graph of ``n`` vertices and ``nnz`` distinct arcs (float weights 0.5.. when weighted)."""
    e = np.arange(nnz)
    src, dst = e % n, (e % n + 1 + e // n) % n
    return graphs.Graph.from_edges(src, dst, 0.5 + e % 7 if weighted else None, n=n)


def test_sparse_route_for_a_sparse_graph():
    p = plan_all_pairs(_graph(4000, 16000, False), memory_limit=128 * MiB)
    assert (p.route, p.method, p.dtype) == ("sparse", "bfs", np.float32)
    assert p.est_seconds == pytest.approx(sparse_seconds(4000, 16000, weighted=False))
    # dense graphs stay dense: n^3 beats n (n + m) when m ~ n^2 / 2 and the rates differ
    assert plan_all_pairs(_graph(300, 300 * 299, True), memory_limit=64 * MiB).route == "dense"
    # a matrix has no search route: apsp plans the closure only
    assert plan(4000, None, exact_float32=True, memory_limit=128 * MiB).route == "dense"


def test_sparse_route_on_disk_needs_no_memory_for_the_result():
    G = _graph(20000, 60000, False)
    with pytest.raises(PlanError):
        plan_all_pairs(G, memory_limit=64 * MiB)
    p = plan_all_pairs(G, memory_limit=64 * MiB, on_disk=True)
    assert p.route == "sparse" and p.est_host_bytes < 64 * MiB


def test_refusal_is_immediate_and_says_what_to_do():
    G = _graph(36692, 367662, True)
    tracemalloc.start()
    try:
        with pytest.raises(PlanError) as err:
            plan_all_pairs(G, dtype=np.float64, memory_limit=2**30)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 16 * MiB, f"{peak / MiB:.0f} MiB allocated before refusing"
    msg = str(err.value)
    assert "36,692 x 36,692 float64 = 10.0 GiB" in msg and "1.0 GiB of host memory" in msg
    for hint in ("dtype='float32'", "multi_source_sssp", "open_memmap", "device='gpu'", "memory_limit"):
        assert hint in msg
    assert isinstance(err.value, ValueError)
    assert all(isinstance(p, Plan) for p in err.value.plans)


def test_shortest_paths_refuses_before_allocating():
    W = np.zeros((600, 600))
    tracemalloc.start()
    try:
        with pytest.raises(apsp.PlanError, match="600 x 600 float64"):
            apsp.shortest_paths(W, memory_limit=2 * MiB)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < W.nbytes / 4, f"{peak / MiB:.1f} MiB allocated before refusing"


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


# -- the memory a process may use (apsp.memory): every source, read from a fake /proc and cgroup tree -------------



KiB, GiB = 2**10, 2**30
NO_LIMIT_V1 = 9223372036854771712  # what cgroup v1 writes for "no limit"


def fake_system(root: Path, *, available=None, vm_size=0, vm_data=0, v2=None, v1=None) -> Path:
    """A fake ``/proc`` (meminfo, self/status, self/cgroup, self/mountinfo) and cgroup trees under ``root``.

    ``v2``: ``{"/a/b": {"memory.max": ..., "memory.current": ..., "memory.stat": ...}, "/a": {...}}``
    (the process is in the longest path); ``v1``: the same for the memory controller's files.
    """
    proc = root / "proc"
    (proc / "self").mkdir(parents=True)
    (proc / "meminfo").write_text("MemTotal:       99999999 kB\n"
                                  + ("" if available is None else f"MemAvailable:   {available // KiB} kB\n"))
    (proc / "self" / "status").write_text(f"Name:\tpython3\nVmSize:\t{vm_size // KiB} kB\nVmData:\t{vm_data // KiB} kB\n")
    cgroup, mounts = ["1:cpu:/"], ["22 27 0:21 / /proc rw,relatime - proc proc rw"]
    for kind, tree in (("v2", v2), ("v1", v1)):
        if tree is None:
            continue
        mount = root / f"cgroup-{kind}"
        for path, files in tree.items():
            d = mount / path.lstrip("/")
            d.mkdir(parents=True, exist_ok=True)
            for name, text in files.items():
                (d / name).write_text(f"{text}\n")
        own = max(tree, key=len)
        if kind == "v2":
            cgroup.append(f"0::{own}")
            mounts.append(f"41 31 0:38 / {mount} rw,relatime - cgroup2 cgroup2 rw")
        else:
            cgroup.append(f"4:memory:{own}")
            mounts.append(f"35 31 0:32 / {mount} rw,relatime - cgroup cgroup rw,memory")
    (proc / "self" / "cgroup").write_text("\n".join(cgroup) + "\n")
    (proc / "self" / "mountinfo").write_text("\n".join(mounts) + "\n")
    return proc


@pytest.fixture
def fake(monkeypatch, tmp_path):
    """Point apsp.memory at a fake system: ``fake(rlimits={...}, **fake_system kwargs)``."""

    def make(rlimits=None, **kwargs):
        monkeypatch.setattr(memory, "PROC", fake_system(tmp_path / f"sys{len(list(tmp_path.iterdir()))}", **kwargs))
        monkeypatch.setattr(memory, "_getrlimit", lambda name: (rlimits or {}).get(name))

    return make


def test_available_memory_alone(fake):
    fake(available=3 * GiB)
    assert memory.memory_limits() == {"available": 3 * GiB}
    assert memory.usable_memory() == 3 * GiB


def test_address_space_limit_counts_what_the_process_maps(fake):
    fake(available=20 * GiB, vm_size=600 * 2**20, rlimits={"RLIMIT_AS": 4_000_000 * KiB})
    assert memory.memory_limits()["address_space"] == 4_000_000 * KiB - 600 * 2**20
    assert memory.usable_memory() == 4_000_000 * KiB - 600 * 2**20


def test_data_limit_counts_the_data_segments(fake):
    fake(available=20 * GiB, vm_size=5 * GiB, vm_data=GiB, rlimits={"RLIMIT_DATA": 3 * GiB})
    assert memory.memory_limits() == {"available": 20 * GiB, "data": 2 * GiB}
    assert memory.usable_memory() == 2 * GiB


def test_a_process_past_its_limit_may_use_nothing(fake):
    fake(available=20 * GiB, vm_size=5 * GiB, rlimits={"RLIMIT_AS": 4 * GiB})
    assert memory.usable_memory() == 0


def test_cgroup_v2_limit_less_usage_over_the_ancestors(fake):
    stat = "anon 1\ninactive_file 104857600\nactive_file 5"
    fake(available=20 * GiB, v2={"/a": {"memory.max": "max", "memory.current": 7 * GiB},
                                 "/a/b": {"memory.max": GiB, "memory.current": 300 * 2**20, "memory.stat": stat}})
    assert memory.memory_limits()["cgroup"] == GiB - 200 * 2**20  # inactive file cache is reclaimable
    fake(available=20 * GiB, v2={"/a": {"memory.max": 500 * 2**20, "memory.current": 450 * 2**20},
                                 "/a/b": {"memory.max": GiB, "memory.current": 300 * 2**20}})
    assert memory.memory_limits()["cgroup"] == 50 * 2**20  # the parent's limit binds
    fake(available=20 * GiB, v2={"/a": {"memory.max": "max", "memory.current": 1}})
    assert "cgroup" not in memory.memory_limits()


def test_cgroup_v1_limit_less_usage(fake):
    stat = f"hierarchical_memory_limit {NO_LIMIT_V1}\ntotal_inactive_file 0\n"
    fake(available=20 * GiB, v1={"/grp": {"memory.limit_in_bytes": 2 * GiB, "memory.usage_in_bytes": GiB // 2,
                                          "memory.stat": stat}})
    assert memory.memory_limits()["cgroup"] == 2 * GiB - GiB // 2
    stat = f"hierarchical_memory_limit {GiB}\ntotal_inactive_file {GiB // 4}\n"  # an ancestor's limit, some cache
    fake(available=20 * GiB, v1={"/grp": {"memory.limit_in_bytes": NO_LIMIT_V1, "memory.usage_in_bytes": GiB // 2,
                                          "memory.stat": stat}})
    assert memory.memory_limits()["cgroup"] == GiB - GiB // 4
    fake(available=20 * GiB, v1={"/grp": {"memory.limit_in_bytes": NO_LIMIT_V1, "memory.usage_in_bytes": 5}})
    assert memory.memory_limits() == {"available": 20 * GiB}


def test_nothing_readable(fake, monkeypatch):
    fake()
    (memory.PROC / "meminfo").unlink()
    monkeypatch.setattr(memory.os, "sysconf", lambda name: (_ for _ in ()).throw(ValueError(name)))
    assert memory.memory_limits() == {} and memory.usable_memory() is None
    assert planner.host_memory_available() == planner.FALLBACK_MEMORY


def test_available_falls_back_to_free_pages(fake, monkeypatch):
    fake()
    monkeypatch.setattr(memory.os, "sysconf", {"SC_AVPHYS_PAGES": 1000, "SC_PAGE_SIZE": 4096}.__getitem__)
    assert memory.memory_limits() == {"available": 4096000}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(available=st.none() | st.integers(0, 2**45), vm=st.integers(0, 2**33),
       rlimit_as=st.none() | st.integers(0, 2**40), rlimit_data=st.none() | st.integers(0, 2**40),
       cg=st.none() | st.tuples(st.integers(1, 2**40), st.integers(0, 2**40)))
def test_usable_memory_is_the_least_headroom(monkeypatch, available, vm, rlimit_as, rlimit_data, cg):
    with tempfile.TemporaryDirectory() as tmp:
        v2 = None if cg is None else {"/job": {"memory.max": cg[0], "memory.current": cg[1]}}
        proc = fake_system(Path(tmp), available=available, vm_size=vm, vm_data=vm // 2, v2=v2)
        monkeypatch.setattr(memory, "PROC", proc)
        monkeypatch.setattr(memory, "_getrlimit", {"RLIMIT_AS": rlimit_as, "RLIMIT_DATA": rlimit_data}.get)
        monkeypatch.setattr(memory.os, "sysconf", lambda name: (_ for _ in ()).throw(ValueError(name)))
        rooms = [x for x in (available and available // KiB * KiB,
                             None if rlimit_as is None else rlimit_as - vm // KiB * KiB,
                             None if rlimit_data is None else rlimit_data - (vm // 2) // KiB * KiB,
                             None if cg is None else cg[0] - cg[1]) if x is not None]
        if available == 0:
            rooms.append(0)
        expect = max(0, min(rooms)) if rooms else None
        assert memory.usable_memory() == expect


def test_graph_checks_use_the_same_probe():
    from graphs import validate

    assert validate.available_memory is memory.usable_memory  # one probe, in apsp


def test_the_plan_budget_names_the_limit_that_binds(fake):
    fake(available=20 * GiB, vm_size=GiB, rlimits={"RLIMIT_AS": 3 * GiB})
    budget, note = planner.memory_budget()
    assert budget == int(planner.HOST_HEADROOM * 2 * GiB) and "ulimit -v" in note
    with pytest.raises(PlanError) as err:
        plan(30000, np.float32)
    msg = str(err.value)
    assert "1.7 GiB of host memory available (85% of 2.0 GiB usable: the address-space limit (ulimit -v" in msg
    p = plan_all_pairs(_graph(10000, 30000, False))  # 381 MiB fits 1.7 GiB
    assert p.est_host_bytes <= budget


def test_a_memory_mapped_result_needs_address_space(fake):
    n = 20000  # float32: 1.5 GiB, on disk
    G = _graph(n, 3 * n, False)
    fake(available=64 * GiB, vm_size=0, rlimits={"RLIMIT_AS": GiB})
    with pytest.raises(PlanError) as err:
        plan_all_pairs(G, on_disk=True)
    assert "a result mapped from disk needs address space" in str(err.value)
    assert "not under this ulimit -v" in str(err.value)
    fake(available=GiB, vm_size=0)  # no ulimit -v: the memory map costs address space only
    p = plan_all_pairs(G, on_disk=True)
    assert p.route == "sparse" and p.est_host_bytes < GiB


# -- time estimates from measured rates ----------------------------------------------------------------------------
@pytest.fixture
def measured(monkeypatch):
    """A fixed table of measured rates (no probe runs); returns it for the test to fill."""
    table: dict = {}
    monkeypatch.setattr(planner, "MEASURED", table)
    monkeypatch.setattr(planner, "CALIBRATE_FROM", 1000)  # measured rates here (the table), as outside tests
    return table


def test_gemm_methods_use_the_measured_rate(measured):
    measured[("gemm", "min_plus", "float32", "cpu")] = 1e10
    measured[("gemm", "min_plus", "float64", "cpu")] = 4e9
    for method in ("rkleene", "blocked-fw"):
        half = planner.HALF_RATE_N[method]
        assert dense_seconds(2000, np.float32, "cpu", method) == pytest.approx(2000**3 / (1e10 * 2000 / (2000 + half)))
        assert dense_seconds(2000, np.float64, "cpu", method) == pytest.approx(2000**3 / (4e9 * 2000 / (2000 + half)))
    base = dense_seconds(2000, np.float32, "cpu", "rkleene")
    assert dense_seconds(2000, np.float32, "cpu", "rkleene", predecessors=True) == pytest.approx(
        base * planner.PREDECESSOR_FACTOR)
    sq = dense_seconds(2000, np.float32, "cpu", "squaring")
    assert sq == pytest.approx(11 * 2000**3 / (1e10 * 2000 / (2000 + planner.HALF_RATE_N["squaring"])))
    assert dense_seconds(2000, np.float32, "cpu", "squaring", path_arcs=84) == pytest.approx(sq * 8 / 11)
    p = plan(2000, np.float32, memory_limit=2**30, method="blocked-fw")
    assert p.est_seconds == pytest.approx(dense_seconds(2000, np.float32, "cpu", "blocked-fw"))
    assert len(measured) == 2  # nothing else was measured


def test_reference_fw_uses_its_measured_step(measured):
    measured[("fw", "min_plus", "float32", "cpu", 2000, False)] = 0.01
    assert dense_seconds(2000, np.float32, "cpu", "fw") == pytest.approx(20.0)
    m = planner.FW_PROBE_MAX
    measured[("fw", "min_plus", "float32", "cpu", m, False)] = 0.05
    assert dense_seconds(2 * m, np.float32, "cpu", "fw") == pytest.approx(2 * m * 0.05 * 4)  # a step grows as n^2


def test_small_problems_and_custom_semirings_use_the_constants(measured):
    assert dense_seconds(500, np.float32, "cpu") == dense_seconds(500, np.float32, "cpu", calibrate=False)
    assert dense_seconds(5000, np.float32, "cpu", semiring="my_semiring") == pytest.approx(
        dense_seconds(5000, np.float32, "cpu", calibrate=False))
    assert measured == {}


def test_routes_that_do_not_fit_are_not_measured(measured, monkeypatch):
    def boom(*a, **k):
        raise AssertionError("a probe ran for a route that does not fit")

    monkeypatch.setattr(planner, "measured_gemm_rate", boom)
    monkeypatch.setattr(planner, "measured_fw_step", boom)
    with pytest.raises(PlanError):
        plan(20000, np.float32, method="fw", memory_limit=2**20)


def test_gemm_probe_runs_the_closure_kernel_once_per_process(measured, monkeypatch):
    calls = []
    real = planner.matmul_into
    monkeypatch.setattr(planner, "matmul_into", lambda *a: calls.append(a[0].name) or real(*a))
    monkeypatch.setattr(planner, "PROBE_SECONDS", 0.0)
    r = planner.measured_gemm_rate(np.float64)
    assert r > 0 and calls == ["min_plus"] * 4  # one untimed call, three timed
    assert planner.measured_gemm_rate(np.float64) == r and len(calls) == 4  # cached
    assert planner.measured_gemm_rate(np.int32, semiring="max_min") > 0 and calls[-1] == "max_min"


def test_fw_probe_stops_the_reference_after_its_steps(measured, monkeypatch):
    steps = []

    def fake_fw(S, D, P, progress):
        assert D.shape == (3000, 3000) and (P is None) == (D.dtype == np.float32)
        for k in range(D.shape[0]):
            steps.append(k)
            progress.update(float(D.size))

    monkeypatch.setattr(planner, "floyd_warshall_inplace", fake_fw)
    monkeypatch.setattr(planner, "PROBE_SECONDS", 0.0)
    assert planner.measured_fw_step(3000, np.float32) > 0
    assert len(steps) == planner.FW_PROBE_WARMUP + planner.FW_PROBE_STEPS
    steps.clear()
    planner.measured_fw_step(3000, np.float64, predecessors=True)
    assert len(steps) == planner.FW_PROBE_WARMUP + planner.FW_PROBE_STEPS


def test_the_probes_measure_the_real_kernels():
    assert planner.measured_fw_step(1000, np.float32) > 0
    assert planner.measured_gemm_rate(np.float32) > 1e7


def test_sparse_route_takes_a_measured_rate(measured):
    measured[("gemm", "min_plus", "float32", "cpu")] = 1e10  # dense: 4000^3 / 1e10 = 6.4 s and more
    assert sparse_seconds(1000, 3000, rate=4e6) == pytest.approx(1.0)
    G = _graph(4000, 16000, False)
    p = plan_all_pairs(G, memory_limit=128 * MiB, sparse_rate=2e7)
    assert p.route == "sparse" and p.est_seconds == pytest.approx(4000 * 20000 / 2e7)
    p = plan_all_pairs(G, memory_limit=128 * MiB, sparse_rate=1e4)
    assert p.route == "dense"  # a slow search (8,000 s measured) loses to the dense closure
    with pytest.raises(ValueError, match="sparse_rate"):
        plan_all_pairs(_graph(10, 10, False), sparse_rate=0)
    with pytest.raises(ValueError, match="path_arcs"):
        plan(10, path_arcs=-1)


@settings(max_examples=50, deadline=None)
@given(n=st.integers(2, 10**6), arcs=st.none() | st.integers(0, 10**7))
def test_squarings_cover_the_paths_and_never_exceed_the_most(n, arcs):
    from apsp.methods.squaring import most_squarings

    k = planner.squarings(n, arcs)
    assert 1 <= k <= most_squarings(n)
    if arcs is not None and k < most_squarings(n):
        assert 2 ** (k - 1) >= arcs  # k - 1 squarings cover paths of 2^(k-1) arcs; one more sees no change


def test_a_matrix_larger_than_all_the_gpus_streams_through_all_of_them():
    n = 262144  # 256 GiB of float32: more than four 80 GiB GPUs hold
    kw = dict(device="gpu", device_memory_limit=64 * GiB, memory_limit=400 * GiB)
    p = plan(n, np.float32, method="multi-gpu", routes=("multi-gpu", "streaming"), gpus=4, **kw)
    assert (p.route, p.method) == ("streaming", "blocked-fw") and "4 GPUs" in p.reason
    one = plan(n, np.float32, method="auto", routes=("dense", "streaming"), gpus=1, **kw)
    assert one.route == "streaming" and "the GPU" in one.reason
    assert p.est_seconds == pytest.approx(one.est_seconds / (4 * planner.MULTI_GPU_EFFICIENCY))
    with pytest.raises(PlanError):  # nor does it fit the host
        plan(n, np.float32, method="multi-gpu", routes=("multi-gpu", "streaming"), gpus=4,
             device="gpu", device_memory_limit=64 * GiB, memory_limit=200 * GiB)
