"""Replay R-Kleene's small sub-closures on the GPU as CUDA graphs.

Below a few thousand vertices the GPU closure is bound by launches, not
arithmetic: closing a ``2048 x 2048`` diagonal block takes a few hundred
kernel launches (products, copies and base-case closures), and the Python
that issues them costs more than the kernels.  The sequence only depends on
the block size, so it is captured once into a CUDA graph over a fixed
scratch block (``cudaStreamBeginCapture`` / ``cudaGraphLaunch``) and each
later closure of that size is three operations: copy the block in, launch the
graph, copy it back (Buluc, Gilbert & Budak 2010 observe the same launch
overhead; graphs are the modern cure).

Used for distances only (the predecessor schedule is the blocked one, see
:mod:`apsp.rkleene`).  Integer products decide plain vs saturating sums by
reading their operands, which a capture cannot do, so captured closures keep
the saturating kernel, unless the closure runs inside
:func:`semiring.int_range.sums_in_range` (APSP's stand-in for ``+inf`` proves
the range): then the graph records the plain kernels, and the cache keys on
it.  Anything that goes wrong while capturing falls back to running the
closure directly; the first closure of each size always runs
directly (it also compiles the kernels and sizes the scratch).  The closure
that is run and captured is a parameter (R-Kleene passes itself), so this
module does not import :mod:`apsp.rkleene`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

import cupy
import numpy as np

from semiring.int_range import sums_known_in_range

__all__ = ["GRAPH_MAX", "closure_via_graph", "clear", "capture", "ClosureJob"]


class ClosureJob(Protocol):
    """What the replay reads of a closure job, an :class:`apsp.closure_state.Job`.

    Named here rather than imported: ``closure_state`` reaches this package
    through the base case (:mod:`apsp.base_case`), so importing it back, even for
    type hints, would close an import cycle.
    """

    D: Any
    S: Any
    base_size: int
    progress: Any

    def detached(self, X) -> ClosureJob: ...

#: Largest diagonal block replayed from a graph (its scratch holds ``GRAPH_MAX^2`` entries).
GRAPH_MAX = 2048
_MAX_ENTRIES = 8
_CACHE: OrderedDict = OrderedDict()
_FAILED = object()

#: ``close(job)``: replace the whole ``job.D`` by its closure, in place.
WholeClosure = Callable[[ClosureJob], None]


class _Captured:
    """A scratch block, the job that works on it, and the graph of its closure."""

    def __init__(self, X, sub: ClosureJob, graph) -> None:
        self.X, self.sub, self.graph = X, sub, graph


def clear() -> None:
    """Forget every captured graph (frees their scratch blocks)."""
    _CACHE.clear()


def capture(run: Callable[[], None]):
    """Record what ``run()`` launches into a CUDA graph on a private stream; None if the capture fails.

    ``run`` must not allocate or synchronise (run it once directly first, so that
    kernels are compiled and scratch buffers sized).
    """
    stream = cupy.cuda.Stream(non_blocking=True)
    graph = None
    try:
        with stream:
            stream.begin_capture()
            try:
                run()
            finally:
                graph = stream.end_capture()
    except Exception:  # capture unsupported here: run directly from now on
        return None
    return graph


def closure_via_graph(job: ClosureJob, r0: int, r1: int, close: WholeClosure) -> None:
    """Close ``job.D[r0:r1, r0:r1]`` in place, replaying a captured graph when one exists.

    Parameters
    ----------
    job : Job
        A GPU job without predecessors.
    r0, r1 : int
        The diagonal block (at most :data:`GRAPH_MAX` vertices).
    close : callable
        ``close(sub)`` closes the whole matrix of a job (R-Kleene,
        :func:`apsp.rkleene.rkleene`); run directly the first time a size is
        seen, captured into the graph that later closures of that size replay.
    """
    n = r1 - r0
    blk = job.D[r0:r1, r0:r1]
    # A closure under semiring.int_range.sums_in_range records plain integer kernels.
    key = (job.S, np.dtype(job.D.dtype).str, n, job.base_size, cupy.cuda.Device().id, sums_known_in_range())
    entry = _CACHE.get(key)
    if entry is None or entry is _FAILED:
        X = cupy.empty((n, n), dtype=job.D.dtype)
        sub = job.detached(X)
        X[...] = blk
        close(sub)  # the direct run: compiles, allocates the scratch, gives the answer
        blk[...] = X
        if entry is None:
            graph = capture(lambda: close(sub))
            _CACHE[key] = _FAILED if graph is None else _Captured(X, sub, graph)
            while len(_CACHE) > _MAX_ENTRIES:
                _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
        entry.X[...] = blk
        entry.graph.launch(stream=cupy.cuda.get_current_stream())
        blk[...] = entry.X
    job.progress.update(float(n) ** 3)
