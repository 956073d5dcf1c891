"""Hypothesis strategies for the APSP tests: weighted digraphs with and without negative cycles.

Graphs without negative cycles get negative edges through vertex potentials
(Johnson's reweighting run backwards): start from weights ``w >= 0`` and use
``w'(u, v) = w(u, v) + p(u) - p(v)``; every cycle keeps its (non-negative)
weight, while single edges may turn negative.  Weights are small integers
stored as floats, so every algorithm's sums are exact and results can be
compared with ``==``.  Zero weights are common on purpose: zero-weight cycles
are where predecessor bookkeeping goes wrong.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import NegativeCycleError as ScipyNegativeCycleError
from scipy.sparse.csgraph import csgraph_from_dense, floyd_warshall

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def to_scipy(W: np.ndarray):
    """The sparse graph of ``W`` (``inf`` = no edge; zero weights are edges), for scipy.sparse.csgraph."""
    return csgraph_from_dense(np.asarray(W, dtype=np.float64), null_value=np.inf)


def scipy_distances(W: np.ndarray) -> np.ndarray:
    """scipy's Floyd-Warshall distances of ``W`` (self loops ignored, like ours when non-negative)."""
    return floyd_warshall(to_scipy(W), directed=True)


@st.composite
def weighted_digraphs(draw, max_n: int = 24, min_n: int = 0, negative: bool = True, max_w: int = 6):
    """``W`` (float64, ``inf`` off-edge): no negative cycles; negative edges when ``negative``."""
    n = draw(st.integers(min_n, max_n))
    seed = draw(st.integers(0, 2**32 - 1))
    density = draw(st.sampled_from([0.05, 0.2, 0.5, 1.0]))
    rng = np.random.default_rng(seed)
    W = rng.integers(0, max_w + 1, size=(n, n)).astype(np.float64)
    W[rng.random((n, n)) >= density] = np.inf
    if negative and n:
        p = rng.integers(0, 3 * max_w + 1, size=n).astype(np.float64)
        W = W + p[:, None] - p[None, :]
    return W


@st.composite
def digraphs_with_negative_cycle(draw, max_n: int = 20):
    """``(W, cycle)``: a graph of :func:`weighted_digraphs` with one planted negative cycle."""
    W = draw(weighted_digraphs(max_n=max_n, min_n=1))
    n = W.shape[0]
    length = draw(st.integers(1, n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cycle = [int(v) for v in rng.permutation(n)[:length]]
    edges = list(zip(cycle, cycle[1:] + cycle[:1]))
    weights = rng.integers(-3, 4, size=length).astype(np.float64)
    weights[-1] -= weights.sum() + 1 + rng.integers(0, 3)  # total weight <= -1
    for (u, v), w in zip(edges, weights):
        W[u, v] = w
    return W, cycle


def cycle_weight(W: np.ndarray, cycle: list[int]) -> float:
    return float(sum(W[u, v] for u, v in zip(cycle, cycle[1:] + cycle[:1])))


@SETTINGS
@given(weighted_digraphs())
def test_generated_graphs_have_no_negative_cycle(W):
    D = scipy_distances(W)  # raises on a negative cycle
    assert D.shape == W.shape


@SETTINGS
@given(digraphs_with_negative_cycle())
def test_planted_cycles_are_negative(case):
    W, cycle = case
    assert cycle_weight(W, cycle) < 0
    if len(cycle) > 1:  # scipy ignores self loops
        with pytest.raises(ScipyNegativeCycleError):
            floyd_warshall(to_scipy(W), directed=True)
