"""Measure the chip's ceiling for one semiring instruction pair (``min(x + y, z)``) per dtype.

The kernels of ``ceiling.cu`` keep 16 independent chains per thread in registers
and execute nothing but the pair and a loop counter, so the rate they reach is
the most a min-plus GEMM can do on this chip: the denominator of the GEMM
benchmark's ``fraction_of_ceiling``.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from .compile import kernel

__all__ = ["CEILINGS", "LANES", "measure_ceiling"]

CEILINGS = {
    "float32": ("ceiling_f32_min_plus", np.float32),
    "float64": ("ceiling_f64_min_plus", np.float64),
    "int32_wrap": ("ceiling_i32_min_plus_wrap", np.int32),
    "int32": ("ceiling_i32_min_plus_sat", np.int32),
    "u16x2": ("ceiling_u16x2_min_plus", np.uint32),
    "s16x2": ("ceiling_s16x2_min_plus", np.uint32),
}
#: Pairs per step of a chain: the packed 16-bit kernels do two.
LANES = {"u16x2": 2, "s16x2": 2}
_CH, _UNROLL = 16, 8


def measure_ceiling(which: str, iters: int = 4096, repeats: int = 5) -> float:
    """Median rate in pairs per second (``x = min(x + y, z)`` steps) of the ``which`` kernel.

    >>> measure_ceiling("float32", iters=8, repeats=1) > 0
    True
    """
    name, dtype = CEILINGS[which]
    fn = kernel("ceiling.cu", name)
    dev = cp.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    blocks, threads = sms * 8, 256
    init = cp.asarray(np.random.default_rng(1).integers(0, 100, 1024).astype(dtype))
    out = cp.empty(blocks * threads, dtype=dtype)
    y = dtype(1)
    args = (init, out, y, np.int32(iters))
    fn((blocks,), (threads,), args)  # warm-up
    times = []
    for _ in range(repeats):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn((blocks,), (threads,), args)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    pairs = blocks * threads * iters * _UNROLL * _CH * LANES.get(which, 1)
    return pairs / float(np.median(times))
