"""The CPU Pi update as a Numba kernel (imported lazily: its signature compiles it on import, once, cached)."""

from __future__ import annotations

from numba import int32, njit, prange, types

__all__ = ["update"]

_ARR = types.Array(int32, 2, "A")


@njit(types.void(_ARR, _ARR, _ARR), parallel=True, cache=True, nogil=True)
def update(PC, PB, K):  # pragma: no cover - jitted
    """``PC[i, j] = PB[K[i, j], j]`` where ``K[i, j] >= 0``."""
    for i in prange(K.shape[0]):
        for j in range(K.shape[1]):
            k = K[i, j]
            if k >= 0:
                PC[i, j] = PB[k, j]
