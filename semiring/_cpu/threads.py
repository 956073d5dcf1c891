"""Split a row-range kernel over a pool of threads (the kernels release the GIL).

The pool has one worker per core (``SEMIRING_PATHS_THREADS`` or
``NUMBA_NUM_THREADS`` override it).  Small jobs run on the calling thread:
the hand-off costs tens of microseconds, which matters for the many small
products of recursive algorithms.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = ["num_threads", "run_rows", "run_chunks"]

SERIAL_WORK = 1 << 22  # multiply-adds below which one thread does the job (tens of microseconds)


@functools.lru_cache(maxsize=1)
def num_threads() -> int:
    """Worker threads used by the CPU kernels.

    >>> num_threads() >= 1
    True
    """
    for var in ("SEMIRING_PATHS_THREADS", "NUMBA_NUM_THREADS"):
        if os.environ.get(var, "").isdigit() and int(os.environ[var]) > 0:
            return int(os.environ[var])
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


@functools.lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=num_threads(), thread_name_prefix="semiring-paths")


def run_rows(kernel: Callable[[int, int], None], m: int, work: int, align: int = 4) -> None:
    """Call ``kernel(r0, r1)`` over ``[0, m)`` cut into one ``align``-multiple chunk per thread.

    >>> seen = []
    >>> run_rows(lambda a, b: seen.append((a, b)), 10, work=0)
    >>> seen
    [(0, 10)]
    """
    t = num_threads()
    if t == 1 or work < SERIAL_WORK or m <= align:
        kernel(0, m)
        return
    step = -(-m // t)
    step = -(-step // align) * align
    bounds = [(r, min(m, r + step)) for r in range(0, m, step)]
    futures = [_pool().submit(kernel, r0, r1) for r0, r1 in bounds[1:]]
    kernel(*bounds[0])
    for f in futures:
        f.result()


def run_chunks(kernel: Callable[[int, int], None], m: int, work: int, per_thread: int = 4) -> None:
    """Call ``kernel(r0, r1)`` over ``[0, m)`` cut into about ``per_thread`` chunks per thread, taken as threads free up.

    For rows of uneven cost (one search per row, say): a thread that drew
    cheap rows takes the next chunk instead of idling while another finishes
    its fixed half.  Small jobs run on the calling thread, as in :func:`run_rows`.

    >>> seen = []
    >>> run_chunks(lambda a, b: seen.append((a, b)), 10, work=0)
    >>> seen
    [(0, 10)]
    """
    t = num_threads()
    if t == 1 or work < SERIAL_WORK or m <= 1:
        kernel(0, m)
        return
    step = max(1, -(-m // (t * per_thread)))
    futures = [_pool().submit(kernel, r, min(m, r + step)) for r in range(0, m, step)]
    for f in futures:
        f.result()
