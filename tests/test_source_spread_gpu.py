"""Many-source work on GPU lanes (``devices=``): every GPU of the machine as a lane, against one GPU and the CPU."""

from __future__ import annotations

import numpy as np
import pytest

import graphs

cp = pytest.importorskip("cupy")
try:
    _COUNT = cp.cuda.runtime.getDeviceCount()
except Exception:  # noqa: BLE001 - no driver
    _COUNT = 0

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(_COUNT == 0, reason="needs a CUDA GPU")]


def _host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


@pytest.mark.parametrize("on_gpu", [False, True], ids=["host-graph", "gpu-graph"])
@pytest.mark.parametrize("weighted", [True, False])
def test_gpu_lanes_equal_one_gpu_and_the_cpu(on_gpu, weighted):
    """devices="all" (one lane per GPU) gives the one-GPU results (rows exactly, sums to reordering) and the
    CPU's (to the rounding of a path sum); the result lives where the graph does."""
    G = graphs.generators.road_network(1500, seed=7)
    H = G.to("gpu") if on_gpu else G
    bc = graphs.betweenness_centrality(H, weighted=weighted, devices="all")
    assert isinstance(bc, cp.ndarray) == on_gpu
    np.testing.assert_allclose(_host(bc), graphs.betweenness_centrality(G, weighted=weighted), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(_host(bc), _host(graphs.betweenness_centrality(G.to("gpu"), weighted=weighted)),
                               rtol=1e-9, atol=1e-12)
    for f in ("closeness_centrality", "harmonic_centrality", "eccentricity"):
        got = getattr(graphs, f)(H, weighted=weighted, devices=list(range(_COUNT)))
        np.testing.assert_allclose(_host(got), _host(getattr(graphs, f)(G.to("gpu"), weighted=weighted)), rtol=1e-12,
                                   atol=0)  # one GPU
        np.testing.assert_allclose(_host(got), getattr(graphs, f)(G, weighted=weighted), rtol=1e-9, atol=0)
    src, dst = list(range(0, 1500, 7)), list(range(0, 1500, 5))
    D = graphs.distance_matrix(H, src, dst, weighted=weighted, devices="all")
    assert isinstance(D, cp.ndarray) == on_gpu
    np.testing.assert_array_equal(_host(D), _host(graphs.distance_matrix(G.to("gpu"), src, dst, weighted=weighted)))
    np.testing.assert_allclose(_host(D), graphs.distance_matrix(G, src, dst, weighted=weighted), rtol=1e-12)
