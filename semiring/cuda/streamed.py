"""Semiring GEMM on host-resident (NumPy) operands, streamed through the GPU when they do not fit.

If ``A``, ``B`` and ``C`` (and the witness) fit the device memory budget, they are
copied in, multiplied in-core and copied back.  Otherwise the product is cut
into blocks of ``C`` (kept on the device while a block is computed) and panels of
the inner dimension::

    for each block C[i0:i1, j0:j1]:          (two device buffers: the copy-out of one
        for each panel k0:k1:                 block overlaps the work on the next)
            A[i0:i1, k0:k1], B[k0:k1, j0:j1]  -> device    (copy stream, slot t % 2)
            C_blk (+)= A_pan (x) B_pan                      (compute stream)

Panels go through pinned host buffers, packed by a pool of host threads while
the GPU works on the previous panel; copies run on their own CUDA stream, double
buffered, ordered against the kernels by events (as in the out-of-core schemes of
Buluc, Gilbert & Budak, "Solving path problems on the GPU", Parallel Computing
2010, Sec. 5).  With the witness, panels after the first keep ``W`` where they do
not improve and add their ``k`` offset, so the result equals the in-core one.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
import sys
import threading
from dataclasses import dataclass

import cupy as cp
import numpy as np

from ..algebra import Algebra
from ..errors import DeviceError
from ..families import bitpacked_boolean
from .boolean import bool_matmul
from .gemm import empty_product, matmul_into, simple_matmul, tiled_matmul
from .ops import spec_for

__all__ = ["streamed_matmul", "plan_blocks", "StreamPlan", "default_budget"]

_H2D, _D2H = 1, 2
# The pinned staging buffers, per calling thread: two products streamed at once on two
# threads must not pack their panels into the same host memory.
_PINNED = threading.local()


@dataclass(frozen=True)
class StreamPlan:
    """Block of C ``bm x bn``, inner panel ``bk``; ``device_bytes`` is what the plan allocates."""

    bm: int
    bn: int
    bk: int
    device_bytes: int


def default_budget() -> int:
    """Most (80%) of the device memory that is free now, counting CuPy's pool as free."""
    free, _ = cp.cuda.runtime.memGetInfo()
    pool = cp.get_default_memory_pool()
    return int(0.8 * (free + pool.free_bytes()))


def _bytes(bm: int, bn: int, bk: int, item: int, witness: bool) -> int:
    cblk = bm * bn * (item + (4 if witness else 0))
    return 2 * cblk + 2 * (bm * bk + bk * bn) * item


def _even(total: int, most: int, align: int) -> int:
    """The largest block <= most that splits ``total`` into equal parts (rounded up to ``align``)."""
    if total <= most:
        return total
    parts = -(-total // most)
    size = -(-total // parts)
    size = -(-size // align) * align
    return min(size, most) if size <= most else max(align, size - align)


def plan_blocks(m: int, n: int, k: int, item: int, witness: bool, budget: int) -> StreamPlan:
    """Choose the C block and the panel depth so that the buffers fit ``budget`` bytes.

    Panels are ``bk = 1024`` deep (less only for tiny budgets); the C block is as large
    as the rest of the budget allows (two of them), split evenly, since the host-device
    traffic falls as the block grows (A and B cross ``n / bn`` and ``m / bm`` times).

    >>> p = plan_blocks(16384, 16384, 16384, 4, False, 16384 * 16384 * 4 // 3); (p.bm, p.bn, p.bk)
    (5504, 5504, 1024)
    >>> p.device_bytes <= 16384 * 16384 * 4 // 3
    True
    """
    cw = item + (4 if witness else 0)
    bk = min(k, 1024)
    while True:
        # largest b with 2 b^2 cw + 4 b bk item <= budget
        p = 4 * bk * item
        b = int((-p + (p * p + 8 * cw * budget) ** 0.5) / (4 * cw))
        if b >= 128 or bk <= 8:
            break
        bk = max(8, bk // 2)
    b = max(1, b)
    while True:
        align = 128 if b >= 256 else 1
        bm, bn = _even(m, b, align), _even(n, b, align)
        if b <= 1 or _bytes(bm, bn, bk, item, witness) <= budget:
            break
        b = int(b * 0.9)
    return StreamPlan(bm, bn, bk, _bytes(bm, bn, bk, item, witness))


@functools.lru_cache(maxsize=1)
def _pool() -> concurrent.futures.ThreadPoolExecutor:
    return concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(16, (os.cpu_count() or 2))))


def _pinned(tag: str, count: int, dtype) -> np.ndarray:
    """A reusable page-locked host buffer of ``count`` elements (grown on demand), the calling thread's own."""
    dtype = np.dtype(dtype)
    key = (tag, dtype.str)
    buffers = getattr(_PINNED, "buffers", None)
    if buffers is None:
        buffers = _PINNED.buffers = {}
    buf = buffers.get(key)
    if buf is None or buf.size < count:
        mem = cp.cuda.alloc_pinned_memory(max(1, count) * dtype.itemsize)
        buf = np.frombuffer(mem, dtype=dtype, count=max(1, count))
        buffers[key] = buf
    return buf


def _copy_parts(dst: np.ndarray, src: np.ndarray) -> list:
    """Start ``dst[...] = src`` on the host thread pool in row slices of about 1 MiB or more.

    NumPy releases the GIL while it copies, so the slices run in parallel.
    """
    rows = dst.shape[0]
    parts = min(rows, max(1, dst.nbytes >> 20), _pool()._max_workers)
    if parts <= 1:
        np.copyto(dst, src)
        return []
    step = -(-rows // parts)
    return [_pool().submit(np.copyto, dst[r:r + step], src[r:r + step]) for r in range(0, rows, step)]


def _copy_rows(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[...] = src`` split by rows over the host thread pool."""
    for f in _copy_parts(dst, src):
        f.result()


def _h2d(dev, host: np.ndarray, stream) -> None:
    cp.cuda.runtime.memcpyAsync(dev.data.ptr, host.ctypes.data, host.nbytes, _H2D, stream.ptr)


def _d2h(host: np.ndarray, dev, stream) -> None:
    cp.cuda.runtime.memcpyAsync(host.ctypes.data, dev.data.ptr, host.nbytes, _D2H, stream.ptr)


def _in_core(S: Algebra, A, B, C, W, accumulate: bool) -> None:
    dA, dB = cp.asarray(A), cp.asarray(B)
    dC = cp.asarray(C) if accumulate else cp.empty(C.shape, dtype=C.dtype)
    dW = None if W is None else cp.empty(W.shape, dtype=W.dtype)
    matmul_into(S, dA, dB, dC, dW, accumulate)
    dC.get(out=C) if C.flags.c_contiguous else C.__setitem__(Ellipsis, dC.get())
    if W is not None:
        dW.get(out=W) if W.flags.c_contiguous else W.__setitem__(Ellipsis, dW.get())


def streamed_matmul(S: Algebra, A: np.ndarray, B: np.ndarray, C: np.ndarray, W: np.ndarray | None,
                    accumulate: bool, memory_budget: int | None = None) -> None:
    """``C (+)= A (x) B`` on host arrays through the GPU, streaming panels when they exceed the budget.

    Parameters
    ----------
    S : Semiring
    A, B, C : numpy.ndarray
        ``(m, k)``, ``(k, n)``, ``(m, n)`` host arrays of one dtype (validated by the caller).
    W : numpy.ndarray of int32 or None
        The witness (see :func:`semiring.cuda.gemm.matmul_into`).
    accumulate : bool
        ``C = C (+) A (x) B``.
    memory_budget : int, optional
        Device bytes this call may use; default :func:`default_budget`.

    Returns
    -------
    None; ``C`` (and ``W``) are written in place.

    Raises
    ------
    semiring.errors.DeviceError
        If the budget cannot hold even the smallest blocks.

    Examples
    --------
    >>> from semiring import min_plus
    >>> A = np.array([[0.0, 1.0], [2.0, 0.0]]); C = np.empty((2, 2))
    >>> streamed_matmul(min_plus, A, A, C, None, False, memory_budget=256); C
    array([[0., 1.],
           [2., 0.]])
    """
    if empty_product(S, A, B, C, W, accumulate):
        return
    m, k = A.shape
    n = B.shape[1]
    item = A.itemsize
    witness = W is not None
    budget = default_budget() if memory_budget is None else int(memory_budget)
    in_core = (m * k + k * n + m * n) * item + (m * n * 4 if witness else 0)
    spec = spec_for(S, A.dtype)
    if in_core <= budget or (witness and spec is None):
        _in_core(S, A, B, C, W, accumulate)
        return
    plan = plan_blocks(m, n, k, item, witness, budget)
    if plan.device_bytes > budget and plan.bm * plan.bn * plan.bk > 1:
        raise DeviceError(f"memory_budget={budget} bytes cannot hold the smallest streamed blocks")
    _stream(S, spec, A, B, C, W, accumulate, plan)


def _panel_product(S, spec, dA, dB, dC, dW, accumulate: bool, first: bool, k0: int) -> None:
    """One panel's product on the compute stream; never synchronises the host (no lazy probe)."""
    acc = accumulate or not first
    if spec is None:
        matmul_into(S, dA, dB, dC, None, acc)
    elif dC.dtype == np.bool_:
        if dW is None and bitpacked_boolean(S):
            bool_matmul(dA, dB, dC, acc)
        else:
            simple_matmul(spec, dA, dB, dC, dW, acc, load_w=not first, k_offset=k0)
    else:
        tiled_matmul(spec, dA, dB, dC, dW, acc, load_w=not first, k_offset=k0, lazy="off")


def _stream(S, spec, A, B, C, W, accumulate: bool, plan: StreamPlan) -> None:
    m, k = A.shape
    n = B.shape[1]
    bm, bn, bk = plan.bm, plan.bn, plan.bk
    dt = A.dtype
    witness = W is not None
    blocks = [(i0, j0) for i0 in range(0, m, bm) for j0 in range(0, n, bn)]
    panels = list(range(0, k, bk))
    show = sys.stderr.isatty() and len(blocks) * len(panels) >= 64

    dA = [cp.empty(bm * bk, dtype=dt) for _ in range(2)]
    dB = [cp.empty(bk * bn, dtype=dt) for _ in range(2)]
    dC = [cp.empty(bm * bn, dtype=dt) for _ in range(2)]
    dW = [cp.empty(bm * bn, dtype=np.int32) for _ in range(2)] if witness else None
    hA = [_pinned(f"A{s}", bm * bk, dt) for s in range(2)]
    hB = [_pinned(f"B{s}", bk * bn, dt) for s in range(2)]
    hC = [_pinned(f"C{s}", bm * bn, dt) for s in range(2)]
    hW = [_pinned(f"W{s}", bm * bn, np.int32) for s in range(2)] if witness else None

    copy = cp.cuda.Stream(non_blocking=True)
    compute = cp.cuda.Stream(non_blocking=True)
    h2d_done = [None, None]      # per panel slot: its copy-in finished (host may refill)
    kernel_done = [None, None]   # per panel slot: the kernel reading it finished
    d2h_done = [None, None]      # per C slot: the block's copy-out finished
    pending: list = [None, None]  # per C slot: (i0, i1, j0, j1) waiting to be unpacked

    def unpack(c: int) -> None:
        if pending[c] is None:
            return
        d2h_done[c].synchronize()
        i0, i1, j0, j1 = pending[c]
        r, w = i1 - i0, j1 - j0
        _copy_rows(C[i0:i1, j0:j1], hC[c][: r * w].reshape(r, w))
        if witness:
            _copy_rows(W[i0:i1, j0:j1], hW[c][: r * w].reshape(r, w))
        pending[c] = None

    t = 0
    for bi, (i0, j0) in enumerate(blocks):
        c = bi % 2
        i1, j1 = min(m, i0 + bm), min(n, j0 + bn)
        r, w = i1 - i0, j1 - j0
        unpack(c)  # the block that used this C slot two blocks ago
        Cd = dC[c][: r * w].reshape(r, w)
        Wd = None if not witness else dW[c][: r * w].reshape(r, w)
        if accumulate:
            _copy_rows(hC[c][: r * w].reshape(r, w), C[i0:i1, j0:j1])
            if d2h_done[c] is not None:
                copy.wait_event(d2h_done[c])
            _h2d(Cd, hC[c][: r * w], copy)
            ev = copy.record()
            compute.wait_event(ev)
        elif d2h_done[c] is not None:
            compute.wait_event(d2h_done[c])
        for pi, k0 in enumerate(panels):
            s = t % 2
            k1 = min(k, k0 + bk)
            d = k1 - k0
            if h2d_done[s] is not None:
                h2d_done[s].synchronize()
            futs = _copy_parts(hA[s][: r * d].reshape(r, d), A[i0:i1, k0:k1])
            futs += _copy_parts(hB[s][: d * w].reshape(d, w), B[k0:k1, j0:j1])
            for f in futs:
                f.result()
            if kernel_done[s] is not None:
                copy.wait_event(kernel_done[s])
            Ad = dA[s][: r * d].reshape(r, d)
            Bd = dB[s][: d * w].reshape(d, w)
            _h2d(Ad, hA[s][: r * d], copy)
            _h2d(Bd, hB[s][: d * w], copy)
            h2d_done[s] = copy.record()
            compute.wait_event(h2d_done[s])
            with compute:
                _panel_product(S, spec, Ad, Bd, Cd, Wd, accumulate, pi == 0, k0)
                kernel_done[s] = compute.record()
            t += 1
            if show:
                print(f"\rstreamed GEMM: block {bi + 1}/{len(blocks)}, panel {pi + 1}/{len(panels)}",
                      end="", file=sys.stderr, flush=True)
        copy.wait_event(kernel_done[(t - 1) % 2])
        _d2h(hC[c][: r * w], Cd, copy)
        if witness:
            _d2h(hW[c][: r * w], Wd, copy)
        d2h_done[c] = copy.record()
        pending[c] = (i0, i1, j0, j1)
    for c in (0, 1):
        unpack(c)
    if show:
        print(file=sys.stderr)
