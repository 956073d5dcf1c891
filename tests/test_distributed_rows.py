"""The worker steps of apsp.distributed (apsp.distributed.rows) without Dask: the schedule run by hand, in order.

The driver's graph is replayed here task by task (build, panel with
look-ahead, receive, update, checks, results) over ``p`` simulated workers
of one process, against SciPy and the single-process closure; then the
pieces the driver relies on: the layout, the default block, stops, drops.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.csgraph as csg
from hypothesis import given, settings
from hypothesis import strategies as st

import apsp
import semiring as sr
from apsp.distributed import default_block_size
from apsp.distributed.rows import (
    RowLayout,
    RunSpec,
    bad_diagonal_rows,
    build,
    drop_run,
    local_runs,
    panel,
    receive,
    result_rows,
    update,
)
from apsp.task_values import Stopped

_count = iter(range(10**9))


def replay(W, S=sr.min_plus, p=2, b=4, predecessors=False, dtype=None):
    """Run the driver's task graph in its order on ``p`` simulated workers; return D (and P), or a Stopped."""
    n = W.shape[0]
    lay = RowLayout(n, b, p)
    spec = RunSpec(f"replay-{next(_count)}", lay, S, np.dtype(dtype or W.dtype), predecessors, "cpu")
    chain = [build(spec, g, [W[slice(*lay.span(k))] for k in lay.blocks_of(g)], True, False, "dense")
             for g in range(p)]
    try:
        o = lay.owner(0)
        R = chain[o] = panel(spec, o, 0, None, chain[o])
        for k in range(lay.count):
            o = lay.owner(k)
            held = [R if g == o else receive(spec, g, R) for g in range(p)]
            if k + 1 < lay.count:
                o1 = lay.owner(k + 1)
                R = chain[o1] = panel(spec, o1, k + 1, held[o1], chain[o1])
            for g in range(p):
                chain[g] = update(spec, g, k, held[g], chain[g])
        checks = [bad_diagonal_rows(spec, g, chain[g]) for g in range(p)]
        stop = next((c for c in checks if isinstance(c, Stopped)), None)
        if stop is not None:
            return stop
        bad = np.concatenate(checks)
        if bad.size:
            return Stopped(vertex=int(bad[0]))
        parts = [np.concatenate([result_rows(spec, lay.owner(k), k, part, False, "cpu") for k in range(lay.count)])
                 for part in range(2 if predecessors else 1)]
        return tuple(parts) if predecessors else parts[0]
    finally:
        drop_run(spec.token)


def _random(n, seed, density=0.3, lo=1, hi=9):
    rng = np.random.default_rng(seed)
    W = rng.integers(lo, hi, (n, n)).astype(np.float64)
    W[rng.random((n, n)) > density] = np.inf
    return W


@settings(deadline=None, max_examples=40)
@given(n=st.integers(1, 23), p=st.integers(1, 4), b=st.integers(1, 9), seed=st.integers(0, 10**6),
       density=st.floats(0.0, 1.0))
def test_replayed_schedule_equals_scipy(n, p, b, seed, density):
    W = _random(n, seed, density)
    D = replay(W, p=p, b=b)
    np.testing.assert_array_equal(D, csg.floyd_warshall(np.where(np.isinf(W), 0, W), directed=True))


@pytest.mark.parametrize("S,dtype", [(sr.max_min, np.float32), (sr.lor_land, np.bool_), (sr.min_plus, np.int64),
                                     (sr.min_max, np.int32)])
def test_other_semirings_equal_one_process(S, dtype):
    rng = np.random.default_rng(4)
    if dtype == np.bool_:
        W = rng.random((19, 19)) < 0.1
    else:
        W = rng.integers(1, 50, (19, 19)).astype(dtype)
        W[rng.random((19, 19)) > 0.3] = S.zero_value(np.dtype(dtype))
    np.testing.assert_array_equal(replay(W, S, p=3, b=4), apsp.shortest_paths(W, semiring=S))


@settings(deadline=None, max_examples=25)
@given(n=st.integers(2, 20), p=st.integers(1, 3), b=st.integers(1, 7), seed=st.integers(0, 10**6))
def test_predecessors_are_shortest_path_trees(n, p, b, seed):
    W = _random(n, seed, 0.3, lo=0, hi=3)  # ties and zero-weight cycles
    D, P = replay(W, p=p, b=b, predecessors=True)
    np.testing.assert_array_equal(D, apsp.shortest_paths(W))
    for i in range(n):
        for j in range(n):
            if i != j and np.isfinite(D[i, j]):
                path = apsp.path(P, i, j)
                assert path[0] == i and path[-1] == j and len(set(path)) == len(path)
                assert sum(W[u, v] for u, v in zip(path, path[1:])) == D[i, j]


def test_negative_cycle_stops_every_later_step():
    W = _random(20, 3, 0.1)
    W[2, 13], W[13, 7], W[7, 2] = 1.0, -4.0, 2.0
    out = replay(W, p=2, b=3)
    assert isinstance(out, Stopped) and out.vertex in (2, 7, 13)


def test_a_bad_entry_comes_back_named():
    W = _random(12, 5)
    W[9, 3] = np.nan
    out = replay(W, p=2, b=4)
    assert isinstance(out, Stopped) and isinstance(out.error, sr.errors.InvalidEntryError)
    assert "W[8:12, 0:12][1, 3] is NaN" in str(out.error)


def test_runs_leave_nothing_behind_and_a_dropped_run_does_not_register():
    replay(_random(9, 1), p=3, b=2)
    assert not [r for r in local_runs() if r[0].startswith("replay-")]
    lay = RowLayout(4, 2, 1)
    spec = RunSpec("dropped-before-build", lay, sr.min_plus, np.dtype(np.float64), False, "cpu")
    drop_run(spec.token)
    W = np.zeros((4, 4))
    assert isinstance(build(spec, 0, [W[:2], W[2:]], True, False, "dense"), Stopped)
    assert ("dropped-before-build", 0) not in local_runs()
    with pytest.raises(RuntimeError, match="no rows of run"):
        update(spec, 0, 0, (W[:2], None), None)


@given(n=st.integers(1, 200), p=st.integers(1, 9), b=st.integers(1, 64))
def test_layout_covers_every_row_once(n, p, b):
    lay = RowLayout(n, b, p)
    seen = np.zeros(n, int)
    for g in range(p):
        local = 0
        for k in lay.blocks_of(g):
            a, c = lay.span(k)
            la, lc = lay.local_span(k)
            assert (la, lc - la) == (local, c - a) and lay.owner(k) == g
            seen[a:c] += 1
            local = lc
        assert local == lay.rows_of(g)
    assert (seen == 1).all()


def test_default_block_sizes():
    assert default_block_size(4096, 2, "cpu") == 512
    assert default_block_size(65536, 2, "gpu") == default_block_size(65536, 4, "gpu") == 4096
    for n, p in [(1, 1), (7, 3), (1000, 2), (4096, 8), (10**5, 2)]:
        b = default_block_size(n, p, "cpu")
        assert 1 <= b <= min(n, 1024)
        assert -(-n // b) >= min(4 * p, -(-n // 8))  # every worker has blocks, unless blocks would be tiny
