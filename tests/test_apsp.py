"""All-pairs shortest paths (min_plus): every method against SciPy, predecessors, negative cycles, bad input."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import check_routes
from test_apsp_strategies import (
    SETTINGS,
    cycle_weight,
    digraphs_with_negative_cycle,
    scipy_distances,
    weighted_digraphs,
)

import apsp
import semiring as sr
from apsp.progress import Progress
from semiring.errors import DTypeError, InvalidEntryError, SemiringError, ShapeError, UnsupportedOperationError

METHODS = ["rkleene", "blocked-fw", "squaring", "fw", "auto"]
BLOCKS = st.sampled_from([None, 1, 2, 3, 5, 8])


def as_dtype(X: np.ndarray, dt: np.dtype) -> np.ndarray:
    """``X`` in ``dt``; for integers ``+inf`` becomes the sentinel (never through a float cast)."""
    if dt.kind == "f":
        return X.astype(dt)
    out = np.full(X.shape, sr.posinf(dt), dtype=dt)
    finite = np.isfinite(X)
    out[finite] = X[finite].astype(dt)
    return out


def assert_valid_paths(W: np.ndarray, D: np.ndarray, P: np.ndarray) -> None:
    """Every path of ``P`` runs along edges of ``W`` from ``i`` to ``j`` and weighs ``D[i, j]``."""
    check_routes(sr.min_plus, W, D, P, exact=True)


@pytest.fixture(scope="module", autouse=True)
def warm_kernels():
    """Compile the Numba kernels once, outside hypothesis' timing."""
    W = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, -1.0], [2.0, np.inf, 0.0]])
    for m in METHODS:
        apsp.shortest_paths(W, m, block_size=1)
        apsp.shortest_paths(W, m, block_size=1, predecessors=True)


# -- distances ---------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(W=weighted_digraphs(), block=BLOCKS)
def test_distances_match_scipy(method, W, block):
    D = apsp.shortest_paths(W, method, block_size=block)
    assert D.dtype == W.dtype
    np.testing.assert_array_equal(D, scipy_distances(W))


@SETTINGS
@given(W=weighted_digraphs(max_n=40), block=BLOCKS)
def test_methods_agree_with_each_other(W, block):
    results = [apsp.shortest_paths(W, m, block_size=block) for m in METHODS]
    for D in results[1:]:
        np.testing.assert_array_equal(D, results[0])


@SETTINGS
@given(W=weighted_digraphs(max_n=40), block=st.sampled_from([1, 2, 4]), below=st.sampled_from([3, 8, 20]))
def test_rkleene_with_blocked_fw_at_the_bottom(W, block, below):
    import apsp.methods.rkleene as rk

    saved = rk.FW_BELOW["cpu"]
    rk.FW_BELOW["cpu"] = below
    try:
        np.testing.assert_array_equal(apsp.shortest_paths(W, "rkleene", block_size=block), scipy_distances(W))
    finally:
        rk.FW_BELOW["cpu"] = saved


@pytest.mark.parametrize("n", [97, 130, 200])
def test_recursion_sizes_not_multiples_of_anything(n):
    rng = np.random.default_rng(n)
    W = rng.integers(0, 50, (n, n)).astype(np.float64)
    W[rng.random((n, n)) < 0.9] = np.inf
    p = rng.integers(0, 30, n)
    W = W + p[:, None] - p[None, :]
    ref = scipy_distances(W)
    for m in ("rkleene", "blocked-fw", "squaring"):
        np.testing.assert_array_equal(apsp.shortest_paths(W, m), ref)


def test_dense_random_weights_close_to_scipy():
    rng = np.random.default_rng(7)
    W = rng.uniform(1.0, 100.0, (160, 160))
    np.testing.assert_allclose(apsp.shortest_paths(W), scipy_distances(W), rtol=1e-14)


# -- predecessors ----------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(W=weighted_digraphs(max_n=20, max_w=2), block=BLOCKS)
def test_predecessor_paths_are_walks_of_the_right_weight(method, W, block):
    D, P = apsp.shortest_paths(W, method, predecessors=True, block_size=block)
    np.testing.assert_array_equal(D, scipy_distances(W))
    assert_valid_paths(W, D, P)


def test_zero_weight_cycles_keep_predecessor_trees():
    """Ties everywhere: a zero-weight clique; the old quadrant Pi update looped here."""
    rng = np.random.default_rng(0)
    n = 150
    W = np.where(rng.random((n, n)) < 0.05, rng.integers(0, 2, (n, n)).astype(float), np.inf)
    for m in METHODS:
        D, P = apsp.shortest_paths(W, m, predecessors=True, block_size=16)
        assert_valid_paths(W, D, P)


def _python_fw_predecessors(W):
    n = W.shape[0]
    D = W.copy()
    np.fill_diagonal(D, np.minimum(np.diag(D), 0))
    P = np.where(np.isfinite(D), np.arange(n)[:, None], -1)
    np.fill_diagonal(P, -1)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if D[i, k] + D[k, j] < D[i, j]:
                    D[i, j] = D[i, k] + D[k, j]
                    P[i, j] = P[k, j]
    return D, P


@SETTINGS
@given(W=weighted_digraphs(max_n=12, max_w=2))
def test_fw_tie_breaking_is_the_documented_one(W):
    """Strict improvements only, pivots in increasing order: exactly the textbook algorithm."""
    D, P = apsp.shortest_paths(W, "fw", predecessors=True)
    D0, P0 = _python_fw_predecessors(W)
    np.testing.assert_array_equal(D, D0)
    np.testing.assert_array_equal(P, P0)


@pytest.mark.parametrize("method", METHODS)
def test_predecessors_are_deterministic(method):
    rng = np.random.default_rng(1)
    W = np.where(rng.random((90, 90)) < 0.1, rng.integers(0, 3, (90, 90)).astype(float), np.inf)
    a = apsp.shortest_paths(W, method, predecessors=True, block_size=7)[1]
    b = apsp.shortest_paths(W, method, predecessors=True, block_size=7)[1]
    np.testing.assert_array_equal(a, b)


def test_path_errors():
    P = np.array([[-1, 1], [0, -1]], np.int32)  # row 0 loops: 1's predecessor is 1
    with pytest.raises(ValueError, match="loops"):
        apsp.path(P, 0, 1)
    with pytest.raises(IndexError):
        apsp.path(P, 0, 5)


# -- negative cycles ----------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(case=digraphs_with_negative_cycle(), block=BLOCKS, pred=st.booleans())
def test_negative_cycles_raise_and_name_a_vertex_on_one(method, case, block, pred):
    W, _ = case
    with pytest.raises(apsp.NegativeCycleError) as info:
        apsp.shortest_paths(W, method, block_size=block, predecessors=pred)
    err = info.value
    cyc = err.cycle
    assert err.vertex == cyc[0]
    assert all(np.isfinite(W[u, v]) for u, v in zip(cyc, cyc[1:] + cyc[:1]))
    assert cycle_weight(W, cyc) < 0
    assert isinstance(err, ValueError) and str(err.vertex) in str(err)


def test_negative_self_loop():
    W = np.array([[0.0, 1.0], [np.inf, -0.5]])
    with pytest.raises(apsp.NegativeCycleError) as info:
        apsp.shortest_paths(W)
    assert info.value.vertex == 1 and info.value.cycle == [1]


def test_positive_self_loops_and_parallel_edge_minimum():
    W = np.array([[5.0, 2.0], [1.0, 3.0]])  # self loops worse than staying put
    np.testing.assert_array_equal(apsp.shortest_paths(W), [[0.0, 2.0], [1.0, 0.0]])


@pytest.mark.parametrize("method", METHODS)
def test_tiny_graphs(method):
    for pred in (False, True):
        out = apsp.shortest_paths(np.zeros((0, 0)), method, predecessors=pred)
        D = out[0] if pred else out
        assert D.shape == (0, 0)
        out = apsp.shortest_paths(np.array([[7.0]]), method, predecessors=pred)
        D = out[0] if pred else out
        np.testing.assert_array_equal(D, [[0.0]])


# -- dtypes -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "int32", "int64"])
@SETTINGS
@given(W=weighted_digraphs(max_n=20))
def test_other_dtypes(dtype, W):
    dt = np.dtype(dtype)
    D = apsp.shortest_paths(as_dtype(W, dt), "rkleene", block_size=3)
    assert D.dtype == dt
    np.testing.assert_array_equal(D, as_dtype(scipy_distances(W), dt))


def test_int32_sums_saturate_at_infinity():
    hi = np.iinfo(np.int32).max
    W = np.array([[0, hi - 5, hi], [hi, 0, hi - 5], [hi, hi, 0]], np.int32)
    for m in ("rkleene", "fw", "squaring", "blocked-fw"):
        D = apsp.shortest_paths(W, m, block_size=1)
        assert D[0, 2] == hi  # (hi - 5) + (hi - 5) saturates to +inf, never wraps


# -- bad input ---------------------------------------------------------------------------------
def test_bad_input_is_named():
    with pytest.raises(InvalidEntryError, match=r"W\[0, 1\] is NaN"):
        apsp.shortest_paths(np.array([[0.0, np.nan], [1.0, 0.0]]))
    with pytest.raises(ShapeError, match="square"):
        apsp.shortest_paths(np.zeros((2, 3)))
    with pytest.raises(ShapeError):
        apsp.shortest_paths(np.zeros(3))
    with pytest.raises(DTypeError):
        apsp.shortest_paths(np.zeros((2, 2), np.float16))
    with pytest.raises(InvalidEntryError):
        apsp.shortest_paths(np.array([[0.0, -np.inf], [1.0, 0.0]]))
    with pytest.raises(UnsupportedOperationError, match="idempotent"):
        apsp.closure(np.zeros((2, 2)), semiring=sr.plus_times)
    with pytest.raises(SemiringError, match="unknown method"):
        apsp.shortest_paths(np.zeros((2, 2)), "dijkstra")
    with pytest.raises(DTypeError, match="lor_land"):
        apsp.transitive_closure(np.zeros((2, 2)))


def test_no_silent_cast_of_lists():
    with pytest.raises(DTypeError):
        apsp.shortest_paths([[0.0, 1.0], [1.0, 0.0]])


def test_non_selective_custom_semiring_has_no_predecessors():
    S = sr.Semiring("min_plus_nonsel", np.minimum, np.add, zero=np.inf, one=0.0, idempotent=True)
    W = np.array([[0.0, 1.0], [np.inf, 0.0]])
    np.testing.assert_array_equal(apsp.closure(W, semiring=S), W)
    with pytest.raises(UnsupportedOperationError, match="selective"):
        apsp.shortest_paths(W, semiring=S, predecessors=True)


def test_input_is_not_modified():
    W = np.array([[3.0, 1.0], [1.0, np.inf]])
    keep = W.copy()
    apsp.shortest_paths(W, predecessors=True)
    np.testing.assert_array_equal(W, keep)


# -- progress -------------------------------------------------------------------------------------
def test_progress_bar_when_asked(capsys):
    rng = np.random.default_rng(0)
    W = rng.uniform(1, 10, (200, 200))
    apsp.shortest_paths(W, progress=True)
    err = capsys.readouterr().err
    assert "100%" in err and "rkleene" in err
    apsp.shortest_paths(W)  # not a terminal: quiet
    assert capsys.readouterr().err == ""
    apsp.shortest_paths(W, progress=False)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("method", ["squaring", "fw", "blocked-fw"])
def test_progress_ends_at_100_percent_for_every_method(capsys, method):
    """Squaring stops early on this graph; the display still ends at 100% when the run succeeds."""
    W = np.random.default_rng(1).uniform(1, 10, (60, 60))
    apsp.shortest_paths(W, method, progress=True)
    err = capsys.readouterr().err
    assert f"apsp {method} n=60: 100%" in err


def test_progress_is_tqdm():
    from tqdm import tqdm  # the base of the text bar and of the notebook widget

    with Progress(10, "x", enabled=False) as bar:
        assert isinstance(bar, tqdm)
        bar.update(10)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_waits_for_its_delay():
    out = _Terminal()
    with Progress(10, "x", enabled=None, stream=out, delay=60.0) as bar:
        bar.update(10)
    assert out.getvalue() == ""


def test_progress_shows_on_a_terminal_after_its_delay():
    out = _Terminal()
    with Progress(10, "x", enabled=None, stream=out, delay=0.01) as bar:
        time.sleep(0.2)  # past the delay and tqdm's shortest redraw interval (0.1 s)
        bar.update(5)
        assert "x:  50%" in out.getvalue()
    assert "x: 100%" in out.getvalue()


def test_progress_is_silent_when_redirected_or_disabled():
    for enabled, out in ((None, io.StringIO()), (False, _Terminal())):
        with Progress(10, "x", enabled=enabled, stream=out, delay=0.0) as bar:
            bar.update(10)
        assert out.getvalue() == ""


def test_progress_syncs_only_when_it_redraws():
    calls = []
    out = io.StringIO()
    with Progress(1000, "x", enabled=True, stream=out, sync=lambda: calls.append(out.getvalue().count("\r"))) as bar:
        drawn = calls[:]
        for _ in range(1000):
            bar.update(1)  # far quicker than tqdm's redraw interval: few redraws
    assert drawn == [0]  # the first draw, before anything was written
    assert 2 <= len(calls) < 50  # first draw, the final 100% line, and at most a few in between
    assert "x: 100%" in out.getvalue()


def test_progress_without_sync_is_not_called_when_silent():
    calls = []
    with Progress(10, "x", enabled=False, sync=lambda: calls.append(1)) as bar:
        bar.update(10)
    with Progress(10, "x", enabled=None, stream=io.StringIO(), sync=lambda: calls.append(1)) as bar:
        bar.update(10)
    assert calls == []


def test_progress_keeps_its_count_when_the_run_fails():
    out = io.StringIO()
    with pytest.raises(RuntimeError), Progress(10, "x", enabled=True, stream=out) as bar:
        bar.update(3)
        raise RuntimeError("stop")
    assert "x:  30%" in out.getvalue() and "100%" not in out.getvalue()


def test_gpu_request_without_a_gpu_is_a_device_error():
    from semiring.backend import gpu_available
    from semiring.errors import DeviceError

    if gpu_available():
        pytest.skip("a GPU is present")
    with pytest.raises(DeviceError, match="gpu"):
        apsp.shortest_paths(np.zeros((2, 2)), device="gpu")
    with pytest.raises(DeviceError):
        apsp.shortest_paths(np.zeros((2, 2)), device="tpu")
