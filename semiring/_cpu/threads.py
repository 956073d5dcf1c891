"""Split a row-range kernel over a pool of threads (the kernels release the GIL).

The pool has one worker per core (``SEMIRING_PATHS_THREADS`` or
``NUMBA_NUM_THREADS`` override it).  Small jobs run on the calling thread:
the hand-off costs tens of microseconds, which matters for the many small
products of recursive algorithms.  Callers on many threads share the pool;
its tasks never wait on other tasks, so it cannot deadlock.

The few kernels that run their own Numba ``parallel=True`` loops (``prange``)
are called through :func:`run_parallel`, which is free under Numba's OpenMP
and TBB threading layers and serialises them under its ``workqueue`` layer:
that one aborts the process when two threads enter parallel code at once.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = ["num_threads", "run_rows", "run_chunks", "run_parallel"]

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


_THREADSAFE_LAYERS = frozenset({"omp", "tbb"})
_LAYER_SAFE = False  # set once Numba says its threading layer takes concurrent parallel regions
_REGION_LOCK = threading.Lock()


def run_parallel(kernel: Callable, *args):
    """``kernel(*args)`` for a Numba ``parallel=True`` kernel, safe when threads call it at once.

    Numba's ``workqueue`` threading layer (the fallback where neither OpenMP
    nor TBB loads) is not thread-safe: two Python threads in parallel code at
    once terminate the process.  Under it, and before the first parallel
    kernel has chosen a layer, the call holds a lock; under ``omp`` and
    ``tbb`` it costs one flag test.

    >>> run_parallel(max, 2, 3)
    3
    """
    global _LAYER_SAFE
    if _LAYER_SAFE:
        return kernel(*args)
    with _REGION_LOCK:
        out = kernel(*args)
    import numba

    try:
        _LAYER_SAFE = numba.threading_layer() in _THREADSAFE_LAYERS
    except ValueError:  # no parallel kernel has run yet: the layer is not chosen
        pass
    return out
