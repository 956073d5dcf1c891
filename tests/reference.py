"""Slow, obviously correct references the fast kernels are checked against."""

from __future__ import annotations

import math

import numpy as np

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

