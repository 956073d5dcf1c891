"""Slow, obviously correct references the fast kernels are checked against."""

from __future__ import annotations

import math
import sys

import numpy as np

import apsp
import semiring as sr
from semiring import Semiring
from semiring.dtypes import neginf, posinf


def _sat(v: int, dtype) -> int:
    info = np.iinfo(dtype)
    return max(info.min, min(info.max, v))


def scalar_add(S: Semiring, a, b, dtype):
    """The semiring add of two scalars, in exact Python arithmetic, saturated like the kernels."""
    dtype = np.dtype(dtype)
    fam = S.family
    if fam in ("min_plus", "min_max", "min_times"):
        return min(a, b)
    if fam in ("max_plus", "max_min", "max_times"):
        return max(a, b)
    if fam == "lor_land":
        return bool(a) or bool(b)
    if fam == "plus_times":
        return _sat(int(a) + int(b), dtype) if dtype.kind == "i" else a + b
    raise AssertionError(fam)


def scalar_mul(S: Semiring, a, b, dtype):
    """The semiring mul of two scalars, in exact Python arithmetic, saturated like the kernels."""
    dtype = np.dtype(dtype)
    fam = S.family
    hi, lo = (int(posinf(dtype)), int(neginf(dtype))) if dtype.kind == "i" else (None, None)
    if fam == "min_plus":  # both infinities stick; +inf ("no path") wins where they meet
        if dtype.kind == "i":
            if a == hi or b == hi:
                return hi
            if a == lo or b == lo:
                return lo
            return _sat(int(a) + int(b), dtype)
        return a + b
    if fam == "max_plus":  # the mirror image: -inf wins
        if dtype.kind == "i":
            if a == lo or b == lo:
                return lo
            if a == hi or b == hi:
                return hi
            return _sat(int(a) + int(b), dtype)
        return a + b
    if fam == "max_min":
        return min(a, b)
    if fam == "min_max":
        return max(a, b)
    if fam == "lor_land":
        return bool(a) and bool(b)
    if fam in ("plus_times", "max_times"):
        return _sat(int(a) * int(b), dtype) if dtype.kind == "i" else a * b
    if fam == "min_times":  # +inf absorbs, also against 0 (IEEE would give NaN)
        if dtype.kind == "i":
            return hi if a == hi or b == hi else _sat(int(a) * int(b), dtype)
        return math.inf if math.isinf(a) or math.isinf(b) else a * b
    raise AssertionError(fam)


def matmul_reference(S: Semiring, A: np.ndarray, B: np.ndarray, C0: np.ndarray | None = None):
    """Triple loop in exact arithmetic (ints) / the dtype's own arithmetic (floats)."""
    m, k = A.shape
    n = B.shape[1]
    dtype = A.dtype
    C = np.empty((m, n), dtype=dtype)
    W = np.full((m, n), -1, dtype=np.int64)
    for i in range(m):
        for j in range(n):
            acc = C0[i, j].item() if C0 is not None else S.zero_value(dtype).item()
            win = -1
            for kk in range(k):
                p = scalar_mul(S, A[i, kk].item(), B[kk, j].item(), dtype)
                if dtype.kind == "f":
                    p = dtype.type(p).item()
                new = scalar_add(S, acc, p, dtype)
                if dtype.kind == "f":
                    new = dtype.type(new).item()
                if new != acc:
                    win = kk
                acc = new
            C[i, j] = acc
            W[i, j] = win
    return C, W


def matmul_broadcast(S: Semiring, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Vectorised reference for floats (exact for min/max families)."""
    with np.errstate(invalid="ignore"):
        P = S.mul_ufunc(A[:, :, None], B[None, :, :])
    if S.family == "min_times":  # +inf absorbs, also against 0
        P[np.isinf(A)[:, :, None] | np.isinf(B)[None, :, :]] = np.inf
    return S.add_ufunc.reduce(P, axis=1, initial=S.zero_value(A.dtype))


def closure_reference_scalar(S: Semiring, W: np.ndarray) -> np.ndarray:
    """Floyd-Warshall with :func:`scalar_add` / :func:`scalar_mul` (exact Python arithmetic, saturated)."""
    n = W.shape[0]
    dtype = W.dtype
    D = W.copy()
    for i in range(n):
        D[i, i] = scalar_add(S, D[i, i].item(), S.one_value(dtype).item(), dtype)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                D[i, j] = scalar_add(S, D[i, j].item(), scalar_mul(S, D[i, k].item(), D[k, j].item(), dtype), dtype)
    return D



def strong_components_by_completion(indptr, indices, forward: bool = True) -> np.ndarray:
    """Slow reference: recursive Tarjan from vertices 0, 1, ..., successors in CSR order (``forward``) or
    reversed, components numbered in the order they complete (SciPy's numbering)."""
    import sys

    n = len(indptr) - 1
    index, low, labels = [-1] * n, [0] * n, [-1] * n
    stack, on_stack, counter, comp = [], [False] * n, [0], [0]
    sys.setrecursionlimit(max(1000, 4 * n + 100))

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack[v] = True
        row = list(indices[indptr[v]:indptr[v + 1]])
        for w in (row if forward else row[::-1]):
            if index[w] < 0:
                visit(w)
                low[v] = min(low[v], low[w])
            elif on_stack[w]:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                x = stack.pop()
                on_stack[x] = False
                labels[x] = comp[0]
                if x == v:
                    break
            comp[0] += 1

    for v in range(n):
        if index[v] < 0:
            visit(v)
    return np.array(labels, dtype=np.int32)


def check_routes(S, W: np.ndarray, D: np.ndarray, P: np.ndarray, exact: bool, rtol: float = 0.0) -> None:
    """Every ``apsp.path(P, i, j)`` runs along arcs of ``W`` from ``i`` to ``j``, visits no vertex twice and
    weighs ``D[i, j]`` (combined with ``S``'s ``mul``; exactly, or within ``rtol`` of the arcs' size)."""
    n = W.shape[0]
    zero = S.zero_value(W.dtype)
    assert P.dtype == np.int32 and P.shape == (n, n)
    for i in range(n):
        assert P[i, i] == -1
        for j in range(n):
            p = apsp.path(P, i, j)
            if i == j:
                assert p == [i]
                continue
            if D[i, j] == zero:
                assert p == [] and P[i, j] == -1, (i, j)
                continue
            assert p[0] == i and p[-1] == j and len(set(p)) == len(p), (i, j, p)
            arcs = [W[a, b] for a, b in zip(p, p[1:])]
            assert all(w != zero for w in arcs), (i, j, p)
            if S is sr.min_plus or S is sr.max_plus:
                total = sum(float(w) for w in arcs)
                scale = sum(abs(float(w)) for w in arcs)
            elif S is sr.max_min:
                total, scale = min(float(w) for w in arcs), 0.0
            else:  # min_max
                total, scale = max(float(w) for w in arcs), 0.0
            if exact:
                assert total == float(D[i, j]), (i, j, p, total, D[i, j])
            else:
                assert abs(total - float(D[i, j])) <= rtol * max(scale, 1.0), (i, j, p, total, D[i, j])


def random_csr_with_explicit_zeros(seed: int, n: int, density: float = 0.2):
    """A random SciPy CSR array (duplicates summed) of weights in [0.01, 1.01), a tenth of them explicit zeros."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    m = int(density * n * n)
    data = rng.random(m) + 0.01
    data[rng.random(m) < 0.1] = 0.0  # explicit zeros: edges of weight 0
    return sp.coo_array((data, (rng.integers(0, n, m), rng.integers(0, n, m))), shape=(n, n)).tocsr()


def with_sentinels(W: np.ndarray, dtype) -> np.ndarray:
    """Integer-valued float ``W`` in ``dtype``: floats as they are, integers with ``inf`` as ``iinfo.max``
    (built in the integer dtype directly: a float detour would round ``iinfo(int64).max``)."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return W.astype(dt)
    out = np.full(W.shape, np.iinfo(dt).max, dtype=dt)
    fin = np.isfinite(W)
    out[fin] = W[fin].astype(dt)
    return out


def python_calls(fn, *args, **kwargs):
    """``(fn(*args, **kwargs), number of Python and C function calls it made)``, counted by ``sys.setprofile``.

    What a test of "compiled, not a Python loop per item" asserts on: unlike a
    wall-clock time, the count does not move with the machine's load.
    """
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event in ("call", "c_call")

    sys.setprofile(count)
    try:
        result = fn(*args, **kwargs)
    finally:
        sys.setprofile(None)
    return result, calls
