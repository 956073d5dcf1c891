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
:mod:`apsp.methods.rkleene`).  Integer products decide plain vs saturating sums by
reading their operands, which a capture cannot do, so captured closures keep
the saturating kernel, unless the closure runs inside
:func:`semiring.int_range.sums_in_range` (APSP's stand-in for ``+inf`` proves
the range): then the graph records the plain kernels, and the cache keys on
it.  Anything that goes wrong while capturing falls back to running the
closure directly; the first closure of each size always runs
directly (it also compiles the kernels and sizes the scratch).  The closure
that is run and captured is a parameter (R-Kleene passes itself), so this
module does not import :mod:`apsp.methods.rkleene`.

Threads.  A captured graph works on its own scratch block, so one graph serves
one closure at a time: :class:`GraphCache` lends an entry to one thread (a
thread that finds it lent closes its block directly meanwhile) and orders the
next borrower's stream after the last one's work with an event.  Captures run
on a private stream in relaxed mode, so launches and allocations of other
threads neither end up in the graph nor break the capture.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Protocol

import cupy
import numpy as np

from semiring.int_range import sums_known_in_range

__all__ = ["GRAPH_MAX", "closure_via_graph", "clear", "capture", "ClosureJob", "GraphCache"]


class ClosureJob(Protocol):
    """What the replay reads of a closure job, an :class:`apsp.methods.closure_state.Job`.

    Named here rather than imported: ``closure_state`` reaches this package
    through the base case (:mod:`apsp.methods.base_case`), so importing it back, even for
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
_FAILED = object()


class GraphCache:
    """Captured graphs (with their scratch) by key, lent to one thread at a time; the ``size`` last used are kept.

    A graph replays into its own scratch blocks, so two threads replaying one
    graph at once would mix their blocks.  :meth:`take` lends a key's entry to
    the calling thread and makes the current stream wait until the previous
    borrower's work on it is done; :meth:`give` returns it, recording that
    work's end on the current stream (an event, no host synchronisation).
    While an entry is lent, other threads asking for its key are told to run
    directly, as they are while its first capture is under way.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict = OrderedDict()  # key -> [entry, event of its last use or None]
        self._lent: set = set()
        self._lock = threading.Lock()

    def take(self, key: Hashable) -> tuple[Any, bool]:
        """``(entry, fresh)``: the entry of ``key`` lent to this thread, or ``None``; ``fresh`` is True when
        none is stored and this thread is to capture one.  Unless ``(None, False)``, call :meth:`give` after."""
        with self._lock:
            if key in self._lent:
                return None, False
            self._lent.add(key)
            slot = self._entries.get(key)
            if slot is None:
                return None, True
            self._entries.move_to_end(key)
        if slot[1] is not None:
            cupy.cuda.get_current_stream().wait_event(slot[1])
        return slot[0], False

    def give(self, key: Hashable, entry: Any) -> None:
        """Return ``key`` (lent by :meth:`take`), storing ``entry`` (``None``: store nothing) as used up to now
        on the current stream."""
        done = None
        if entry is not None:
            done = cupy.cuda.Event(disable_timing=True)
            done.record(cupy.cuda.get_current_stream())
        dropped = []
        with self._lock:
            self._lent.discard(key)
            if entry is not None:
                self._entries[key] = [entry, done]
                self._entries.move_to_end(key)
                while len(self._entries) > self._size:
                    dropped.append(self._entries.popitem(last=False)[1])
        self._wait(dropped)

    @staticmethod
    def _wait(slots: list) -> None:
        """Wait for the last use of dropped entries: their scratch then goes back to CuPy's pool unused."""
        for _, done in slots:
            if done is not None:
                done.synchronize()

    def clear(self) -> None:
        """Forget every entry (one lent now comes back when its thread is done with it)."""
        with self._lock:
            dropped = list(self._entries.values())
            self._entries.clear()
        self._wait(dropped)

    def values(self) -> list:
        """The stored entries, least recently used first."""
        with self._lock:
            return [entry for entry, _ in self._entries.values()]

    def __len__(self) -> int:
        return len(self._entries)


_CACHE = GraphCache(_MAX_ENTRIES)

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
            # relaxed: nothing other threads do is forbidden while this stream captures
            stream.begin_capture(mode=cupy.cuda.runtime.streamCaptureModeRelaxed)
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
        :func:`apsp.methods.rkleene.rkleene`); run directly the first time a size is
        seen, captured into the graph that later closures of that size replay.
    """
    n = r1 - r0
    blk = job.D[r0:r1, r0:r1]
    # A closure under semiring.int_range.sums_in_range records plain integer kernels.
    key = (job.S, np.dtype(job.D.dtype).str, n, job.base_size, cupy.cuda.Device().id, sums_known_in_range())
    entry, fresh = _CACHE.take(key)
    kept = entry
    try:
        if entry is None or entry is _FAILED:
            X = cupy.empty((n, n), dtype=job.D.dtype)
            sub = job.detached(X)
            X[...] = blk
            close(sub)  # the direct run: compiles, allocates the scratch, gives the answer
            blk[...] = X
            if fresh:
                graph = capture(lambda: close(sub))
                kept = _FAILED if graph is None else _Captured(X, sub, graph)
        else:
            entry.X[...] = blk
            entry.graph.launch(stream=cupy.cuda.get_current_stream())
            blk[...] = entry.X
    finally:
        if entry is not None or fresh:
            _CACHE.give(key, kept)
    job.progress.update(float(n) ** 3)
