"""graphs.k_shortest_paths on the GPU (a round of spur searches per launch): the CPU engine's paths, exactly."""

from __future__ import annotations

import math

import numpy as np
import pytest
from gpu_support import cupy_or_skip

from graphs import Graph, k_shortest_paths

cp, pytestmark = cupy_or_skip()


from test_k_shortest_paths import HELD_OUT_SEED, _arc_min, _case, _check_paths, _road_case  # noqa: E402


def _keys(found):
    return [(r.distance, r.path) for r in found]


def test_200_held_out_graphs_as_on_the_cpu():
    rng = np.random.default_rng(HELD_OUT_SEED)
    for i in range(200):
        G, src, dst, w, directed, hops, s, t, k = _case(rng, i)
        cpu = k_shortest_paths(G, s, t, k, weighted=not hops, device="cpu")
        gpu = k_shortest_paths(G, s, t, k, weighted=not hops, device="gpu")
        _check_paths(gpu, _arc_min(src, dst, w, directed), s, t, hops)
        if hops or min(w, default=1) > 0:
            assert _keys(gpu) == _keys(cpu), i
        else:  # zero-weight arcs: the same lengths, routes may tie otherwise
            assert [r.distance for r in gpu] == [r.distance for r in cpu], i
        assert all(type(a.distance) is type(b.distance) for a, b in zip(gpu, cpu))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, None])
def test_road_network_pairs_as_on_the_cpu(dtype):
    G, pairs = _road_case(4000, 3, 3)  # corner to corner, then random pairs
    if dtype is None:  # hop counts
        weighted = False
    else:
        weighted = True
        w = G.weights if np.dtype(dtype).kind == "f" else np.maximum(1, np.round(G.weights))
        G = Graph(G.indptr, G.indices, np.asarray(w, dtype=dtype), coords=G.coords)
    for s, t in pairs:
        cpu = k_shortest_paths(G, s, t, 40, weighted=weighted, device="cpu")
        gpu = k_shortest_paths(G, s, t, 40, weighted=weighted, device="gpu")
        assert len(gpu) == 40
        if dtype == np.float32:  # float32 sums: the same lengths, within the rounding of a path sum
            np.testing.assert_allclose([r.distance for r in gpu], [r.distance for r in cpu], rtol=1e-5)
            assert sum(a.path == b.path for a, b in zip(gpu, cpu)) >= 36
        else:
            assert _keys(gpu) == _keys(cpu), (s, t)
        src, dst, ww = G.edges()
        arcs = _arc_min(src.tolist(), dst.tolist(), (ww if weighted else np.ones(src.size)).tolist(), G.directed)
        for r in gpu:
            p = r.path
            assert p[0] == s and p[-1] == t and len(set(p)) == len(p)
            assert math.isclose(float(r.distance), sum(arcs[(u, v)] for u, v in zip(p, p[1:])), rel_tol=1e-5)


def test_rounds_larger_than_the_slots(monkeypatch):
    """A round in several launches (few slots), the records reused from launch to launch."""
    import graphs.cuda.spur_search as spur

    monkeypatch.setattr(spur, "MAX_SLOTS", 3)
    G, pairs = _road_case(2500, 5, 2)
    for s, t in pairs:
        assert _keys(k_shortest_paths(G, s, t, 25, device="gpu")) == _keys(k_shortest_paths(G, s, t, 25, device="cpu"))


def test_a_graph_on_the_gpu_runs_there_and_answers_on_the_host():
    G, [(s, t)] = _road_case(1500, 9, 1)
    on_gpu = G.to("gpu")
    found = k_shortest_paths(on_gpu, s, t, 10)
    assert _keys(found) == _keys(k_shortest_paths(G, s, t, 10, device="cpu"))
    assert all(isinstance(r.path, list) and isinstance(r.distance, np.float64) for r in found)


def test_unreachable_target_and_source_equal_to_target():
    G = Graph.from_edges([0, 1, 3], [1, 2, 4], [1.0, 2.0, 1.0], n=5)
    assert k_shortest_paths(G, 0, 4, 3, device="gpu") == []
    assert _keys(k_shortest_paths(G, 2, 2, 3, device="gpu")) == [(0.0, [2])]


def test_too_little_device_memory_is_refused_with_a_message(monkeypatch):
    import apsp
    import graphs.cuda.spur_search as spur

    monkeypatch.setattr(spur, "device_memory_available", lambda: 1000)
    G, [(s, t)] = _road_case(1500, 9, 1)
    with pytest.raises(apsp.PlanError, match="device='cpu'"):
        k_shortest_paths(G, s, t, 5, device="gpu")
    assert len(k_shortest_paths(G, s, t, 5, device="cpu")) == 5
