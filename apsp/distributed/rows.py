"""Worker side of the closure on a Dask cluster: a worker's row blocks, resident in its memory, updated in place.

The schedule is the one :mod:`apsp.multi_device` runs over the GPUs of one
host (blocked Floyd-Warshall in row-panel form; Venkataraman, Sahni &
Mukhopadhyaya, J. Exp. Algorithmics 8, 2003), with Dask workers as its
lanes.  Row block ``k`` (rows ``k b .. k b + b - 1``) belongs to worker
``k % p`` (:class:`RowLayout`); a worker keeps all its row blocks stacked in
one ``(rows, n)`` buffer (:class:`LocalRows`), created by :func:`build` and
kept in a registry of its process under the run's token, so that the matrix
never passes through Dask's data store and never moves: only panels travel.

Round ``k``, owner ``o = k % p``, are three kinds of tasks:

* :func:`panel` (on ``o``): the rows of block ``k`` take round ``k - 1``'s
  update, then the diagonal block is closed (R-Kleene) and the row panel
  formed, ``D_kj (+)= D_kk* (x) D_kj``; the task returns a copy of the
  ``b x n`` panel ``R_k`` (with predecessors, its ``P`` rows too), which
  Dask sends to every other worker;
* :func:`receive` (on every other worker): the panel as this worker's
  device holds it (on a GPU worker of the same process as the panel's, a
  peer copy); it depends on nothing but the panel, so the transfer runs
  while the worker still updates its rows with the previous panel;
* :func:`update` (on every worker): ``D_i (+)= D_ik (x) R_k`` for the
  worker's rows outside block ``k`` (and outside block ``k + 1`` when the
  worker owns it: :func:`panel` for ``k + 1`` did those rows first, the
  look-ahead of :mod:`apsp.multi_device`).

The driver (:mod:`apsp.distributed`) chains each worker's mutating tasks
(each depends on the one before it on the same worker), which fixes the
order in which every entry receives its updates: the same as
:func:`apsp.methods.blocked_fw.blocked_floyd_warshall`, so results equal the
single-process blocked schedule's.

Bad input and negative cycles do not raise inside a task (a worker logs a
raising task as "Compute Failed"): :func:`build` returns
:class:`~apsp.task_values.Stopped` with the input error, :func:`panel` a
``Stopped`` naming a vertex whose diagonal went bad, and every later step
that receives a ``Stopped`` returns it at once.

GPU workers compute on the current device of their task threads
(``dask_cuda.LocalCUDACluster`` gives each worker process its own GPU as
device 0), on a non-blocking stream of their own, so that Dask's transfers
(which copy device to host on the default stream) never wait for the
round's update.  Nothing here imports Dask.
"""

from __future__ import annotations

import os
import threading
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring.backend import to_device
from semiring.errors import SemiringError
from semiring.validate import check_matrix

from ..elementwise import elementwise_ops
from ..methods.base_case import CPU_BASE, GPU_BASE
from ..methods.blocked_fw import panel_closure_pred
from ..methods.closure_state import Job
from ..methods.rkleene import rkleene
from ..multi_device import ranges_without
from ..paths.exact_integers import narrow, widen
from ..paths.predecessors import NO_PREDECESSOR, PRED_DTYPE
from ..task_values import Stopped, dense_tile
from .ipc import RemotePanel, drop_exports, drop_token, export_slot

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["RowLayout", "RunSpec", "LocalRows", "fit_kernel_threads", "build", "panel", "receive", "update", "bad_diagonal_rows",
           "result_rows", "drop_run", "local_runs", "survey"]


@dataclass(frozen=True)
class RowLayout:
    """Row block ``k`` of an ``n x n`` matrix cut every ``block`` rows belongs to worker ``k % workers``.

    >>> L = RowLayout(10, 4, 2)
    >>> L.count, [L.span(k) for k in range(L.count)], L.blocks_of(0), L.local_span(2), L.rows_of(0)
    (3, [(0, 4), (4, 8), (8, 10)], [0, 2], (4, 6), 6)
    """

    n: int
    block: int
    workers: int

    @property
    def count(self) -> int:
        """Number of row blocks (rounds)."""
        return -(-self.n // self.block) if self.n else 0

    def owner(self, k: int) -> int:
        return k % self.workers

    def span(self, k: int) -> tuple[int, int]:
        """Global rows of block ``k``."""
        return k * self.block, min(self.n, (k + 1) * self.block)

    def blocks_of(self, g: int) -> list[int]:
        return list(range(g, self.count, self.workers))

    def local_span(self, k: int) -> tuple[int, int]:
        """Rows of block ``k`` in its owner's buffer."""
        r0 = (k // self.workers) * self.block
        a, b = self.span(k)
        return r0, r0 + (b - a)

    def rows_of(self, g: int) -> int:
        """Rows worker ``g`` holds."""
        return sum(b - a for a, b in map(self.span, self.blocks_of(g)))


@dataclass(frozen=True)
class RunSpec:
    """What every step of one run needs: its token (the registry key), layout, semiring, working dtype."""

    token: str
    layout: RowLayout
    semiring: Any
    dtype: np.dtype
    predecessors: bool
    device: str  # "cpu" or "gpu"
    share: str = "copy"  # "ipc": panels leave as CUDA IPC handles of a slot per worker (apsp.distributed.ipc)


# -- the registry of a worker process ----------------------------------------------------
_RUNS: dict[tuple[str, int], "LocalRows"] = {}
_DROPPED: set[str] = set()  # runs dropped here: a build still running when its run was dropped registers nothing
_RUNS_LOCK = threading.Lock()


def _state(spec: RunSpec, g: int) -> "LocalRows":
    with _RUNS_LOCK:
        st = _RUNS.get((spec.token, g))
    if st is None:
        raise RuntimeError(f"no rows of run {spec.token} (worker {g}) in this process: the worker was restarted")
    return st


def drop_run(token: str) -> int:
    """Forget every worker's rows of run ``token`` held in this process; returns how many were dropped.

    >>> drop_run("no-such-run")
    0
    """
    with _RUNS_LOCK:
        _DROPPED.add(token)  # first: no row of the run is registered from now on
    dropped = drop_token(_RUNS, _RUNS_LOCK, token)
    drop_exports(token)
    return dropped


def local_runs() -> list[tuple[str, int]]:
    """The ``(token, worker)`` pairs whose rows this process holds (what the tests look at).

    >>> isinstance(local_runs(), list)
    True
    """
    with _RUNS_LOCK:
        return sorted(_RUNS)


# -- devices -------------------------------------------------------------------------
_MEMCPY_DEFAULT = 4  # cudaMemcpyDefault: the direction from the pointers (unified addressing)


class _Host:
    """CPU worker: NumPy buffers, nothing to order."""

    xp = np
    base_size = CPU_BASE

    def active(self):

        return nullcontext()

    def adopt(self, X):
        return to_device(X, "cpu")

    def done(self) -> None:
        """Nothing runs behind the host's back."""

    def copied(self) -> None:
        """Nothing to wait for."""

    def sync(self) -> None:
        """Nothing to wait for."""


class _Gpu:
    """GPU worker: the current device of the task thread, a compute and a copy stream, arrays held until used."""

    base_size = GPU_BASE

    def __init__(self) -> None:
        import cupy

        self.xp = cupy
        self.id = cupy.cuda.runtime.getDevice()
        self.device = cupy.cuda.Device(self.id)
        with self.device:
            self.compute = cupy.cuda.Stream(non_blocking=True)
            self.copies = cupy.cuda.Stream(non_blocking=True)
        self._held: list = []  # (event, arrays): inputs kept alive until the work reading them is done
        self._peers: set[int] = set()

    def active(self):

        stack = ExitStack()
        stack.enter_context(self.device)
        stack.enter_context(self.compute)
        return stack

    def _event(self, stream):
        ev = self.xp.cuda.Event(block=False, disable_timing=True)
        ev.record(stream)
        return ev

    def adopt(self, X):
        """``X`` on this GPU, ordered before the work issued next on the compute stream.

        An array Dask deserialised here was copied on the default stream (wait for it); an array of
        another GPU (an in-process cluster passes objects by reference) is copied peer to peer on the
        copy stream; a NumPy array is copied in.
        """
        cp = self.xp
        self._release()
        if isinstance(X, np.ndarray):
            out = cp.asarray(X)
            self._held.append((None, (X,)))
            return out
        if X.device.id == self.id:
            self.compute.wait_event(self._event(cp.cuda.Stream.null))
            return X
        rt = cp.cuda.runtime
        if X.device.id not in self._peers:
            self._peers.add(X.device.id)
            if rt.deviceCanAccessPeer(self.id, X.device.id):
                try:
                    rt.deviceEnablePeerAccess(X.device.id)
                except rt.CUDARuntimeError as e:  # already enabled in this process
                    if "PeerAccessAlreadyEnabled" not in str(e):
                        raise
        src = X if X.flags.c_contiguous else None
        if src is None:
            with X.device:
                src = cp.ascontiguousarray(X)
                X.device.synchronize()
        with self.copies:  # from the copy stream's part of the pool: no block the compute stream may still read
            out = cp.empty(X.shape, X.dtype)
        rt.memcpyPeerAsync(out.data.ptr, self.id, src.data.ptr, X.device.id, out.nbytes, self.copies.ptr)
        copied = self._event(self.copies)
        self.compute.wait_event(copied)
        self._held.append((copied, (src, X)))
        return out

    def copy_mapped(self, parts) -> tuple:
        """Copies on this GPU of arrays that map another process's memory (CUDA IPC), on the copy stream."""
        cp = self.xp
        rt = cp.cuda.runtime
        self._release()
        outs = []
        for V in parts:
            if V is None:
                outs.append(None)
                continue
            with self.copies:
                out = cp.empty(V.shape, V.dtype)
            rt.memcpyAsync(out.data.ptr, V.data.ptr, V.nbytes, _MEMCPY_DEFAULT, self.copies.ptr)
            outs.append(out)
        copied = self._event(self.copies)
        self.compute.wait_event(copied)
        self._held.append((copied, tuple(parts)))
        return tuple(outs)

    def keep(self, *arrays) -> None:
        """Keep ``arrays`` alive until the compute stream has passed this point."""
        self._held.append((self._event(self.compute), arrays))

    def _release(self) -> None:
        self._held = [(ev, a) for ev, a in self._held if ev is None or not ev.done]

    def done(self) -> None:
        self._release()

    def copied(self) -> None:
        """Wait for the peer copies issued so far (their sources may be released after this task)."""
        self.copies.synchronize()
        self._release()

    def sync(self) -> None:
        self.compute.synchronize()
        self.copies.synchronize()
        self._held.clear()


# -- a worker's rows -------------------------------------------------------------------
class LocalRows:
    """Worker ``g``'s row blocks: ``D`` (``rows x n``), ``P`` or ``None``, the job that updates them."""

    def __init__(self, spec: RunSpec, g: int, dev) -> None:
        self.spec, self.g, self.dev = spec, int(g), dev
        lay = spec.layout
        xp = dev.xp
        with dev.active():
            self.D = xp.empty((lay.rows_of(g), lay.n), dtype=spec.dtype)
            self.P = xp.empty((lay.rows_of(g), lay.n), dtype=PRED_DTYPE) if spec.predecessors else None
        self.job = Job(spec.semiring, self.D, self.P, None, base_size=dev.base_size, early_check=False)
        self.job.use_graphs = False  # captured graphs belong to one thread; the diagonal closures are small
        self.stop: Stopped | None = None

    def update_rows(self, ranges, k: int, R, PR) -> None:
        """``D[r] (+)= D[r, block k] (x) R`` for the local row ranges ``ranges``."""
        a, b = self.spec.layout.span(k)
        for r0, r1 in ranges:
            if r1 > r0:
                A = self.job.copy("data", self.D[r0:r1, a:b])
                self.job.gemm(A, R, self.D[r0:r1, :], PB=PR, PC=None if self.P is None else self.P[r0:r1, :])

    def close_panel(self, k: int) -> None:
        """Close the diagonal block of block ``k`` and form its row panel, in place."""
        S, lay = self.spec.semiring, self.spec.layout
        la, lb = lay.local_span(k)
        a, b = lay.span(k)
        if self.P is None:
            diag = Job(S, self.D[la:lb, a:b], None, None, base_size=self.dev.base_size, early_check=False)
            diag._scratch = self.job._scratch
            diag.use_graphs = False
            rkleene(diag)
            Dkk = self.D[la:lb, a:b]
            for c0, c1 in ranges_without([(a, b)], lay.n):
                C = self.D[la:lb, c0:c1]
                self.job.gemm(Dkk, self.job.copy("data", C), C)
        else:
            panel_closure_pred(S, self.D[la:lb, :], self.P[la:lb, :], a)

    def bad_vertices(self, ks) -> np.ndarray:
        """Vertices of blocks ``ks`` whose diagonal entry is better than ``one`` (on a diverging closed walk)."""
        S, lay, xp = self.spec.semiring, self.spec.layout, self.dev.xp
        found = []
        for k in ks:
            la, lb = lay.local_span(k)
            a, b = lay.span(k)
            d = xp.diagonal(self.D[la:lb, a:b])
            one = S.one_value(d.dtype)
            add, _ = elementwise_ops(S, xp, d.dtype)
            bad = add(d, xp.full_like(d, one)) != one
            found.append(to_device(xp.nonzero(bad)[0], "cpu").astype(np.int64) + a)
        return np.concatenate(found) if found else np.zeros(0, np.int64)


def _device(spec: RunSpec):
    return _Gpu() if spec.device == "gpu" else _Host()


def _local(R):
    """A panel as this process holds it: ``(D, P)``.

    A panel exported here that Dask pickled and read back (spilled to disk or
    host memory under memory pressure) returns as its :class:`RemotePanel`;
    its arrays are this process's slot.
    """
    return R.arrays() if isinstance(R, RemotePanel) else R


def _first_stop(*parts) -> Stopped | None:
    return next((x for x in parts if isinstance(x, Stopped)), None)


def _enter(spec: RunSpec, g: int, *parts):
    """Worker ``g``'s state and the first stop among its own and ``parts``, which it then keeps (or ``None``)."""
    st = _state(spec, g)
    stop = _first_stop(st.stop, *parts)
    if stop is not None:
        st.stop = stop
    return st, stop


# -- the steps (each one Dask task) ----------------------------------------------------------
def fit_kernel_threads(threads: int) -> int:
    """Let the CPU kernels of this process use ``threads`` threads, unless the environment already says how many.

    A worker process that runs one task at a time is given the cores of its
    Dask threads (``threads_per_worker``): by default every process would
    use every core of its host, and ``p`` worker processes on one host would
    run ``p`` times as many kernel threads as it has cores.  The variables
    ``SEMIRING_PATHS_THREADS`` and ``NUMBA_NUM_THREADS`` of the worker, when
    set, win.  Returns the kernel threads now in force.
    """

    from semiring.kernels import num_threads  # read once per process (cached): the cache is cleared here

    if not any(os.environ.get(v, "").isdigit() for v in ("SEMIRING_PATHS_THREADS", "NUMBA_NUM_THREADS")):
        os.environ["SEMIRING_PATHS_THREADS"] = str(max(1, int(threads)))
        num_threads.cache_clear()
    return num_threads()


def build(spec: RunSpec, g: int, pieces: list, check: bool, wide: bool, kind: str,
          threads: int | None = None) -> Stopped | None:
    """Create worker ``g``'s rows from its pieces of the input, prepared: diagonal ``(+) one``, initial ``P``.

    ``pieces`` holds one entry per row block of ``g`` (in order): the rows
    ``(b_k, n)`` (``kind="dense"``), or the arcs ``(rows, cols, vals,
    weighted)`` of the block with rows local to it (``kind="arcs"``).  With
    ``check``, entries are validated (an invalid one comes back as
    ``Stopped(error=...)`` naming the block).  ``wide``: an int32 input run in
    int64 (:mod:`apsp.paths.exact_integers`).  ``threads``: the worker process's
    Dask threads, given when it is a process of its own
    (:func:`fit_kernel_threads`).

    Examples
    --------
    >>> from semiring import min_plus
    >>> spec = RunSpec("doc-build", RowLayout(3, 2, 1), min_plus, np.dtype(np.float64), False, "cpu")
    >>> W = np.array([[5.0, 1.0, np.inf], [np.inf, 7.0, 2.0], [3.0, np.inf, 9.0]])
    >>> build(spec, 0, [W[:2], W[2:]], True, False, "dense") is None
    True
    >>> local_runs(), _state(spec, 0).D
    ([('doc-build', 0)], array([[ 0.,  1., inf],
           [inf,  0.,  2.],
           [ 3., inf,  0.]]))
    >>> drop_run("doc-build")
    1
    """
    S, lay = spec.semiring, spec.layout
    if threads is not None and spec.device == "cpu":
        fit_kernel_threads(threads)
    dev = _device(spec)
    st = LocalRows(spec, g, dev)
    with _RUNS_LOCK:
        if spec.token in _DROPPED:  # the run was given up while this task waited
            return Stopped(error=None)
        _RUNS[spec.token, g] = st
    ks = lay.blocks_of(g)
    if len(pieces) != len(ks):
        raise ValueError(f"worker {g} holds {len(ks)} row blocks, got {len(pieces)} pieces")
    xp = dev.xp
    with dev.active():
        for k, piece in zip(ks, pieces):
            a, b = lay.span(k)
            la, lb = lay.local_span(k)
            if kind == "arcs":
                rows, cols, vals, weighted = piece
                X = dense_tile(S, (b - a, lay.n), rows, cols, vals, np.int32 if wide else spec.dtype, weighted)
            else:
                X = piece
            if check:
                try:
                    check_matrix(f"W[{a}:{b}, 0:{lay.n}]", X, S)
                except SemiringError as err:
                    st.stop = Stopped(error=err)
                    return st.stop
            if wide:
                X = widen(X)
            st.D[la:lb] = dev.adopt(X)
        _prepare(S, st, xp)
        dev.sync()
    return None


def _prepare(S: "Semiring", st: LocalRows, xp) -> None:
    """Diagonal ``(+) one`` and the initial predecessors (``i`` where ``D[i, j]`` is an arc) of the rows."""
    lay, L = st.spec.layout, st.D
    ks = lay.blocks_of(st.g)
    if not ks:
        return
    rows = xp.concatenate([xp.arange(*lay.span(k)) for k in ks])
    local = xp.arange(rows.shape[0])
    add, _ = elementwise_ops(S, xp, L.dtype)
    L[local, rows] = add(L[local, rows], xp.full(rows.shape[0], S.one_value(L.dtype), dtype=L.dtype))
    if st.P is not None:
        st.P[...] = xp.where(L != S.zero_value(L.dtype), rows.astype(PRED_DTYPE)[:, None],
                             xp.asarray(NO_PREDECESSOR, dtype=PRED_DTYPE))
        st.P[local, rows] = NO_PREDECESSOR


def panel(spec: RunSpec, g: int, k: int, previous, chain) -> tuple | Stopped:
    """Round ``k``'s panel on its owner ``g``: rows of block ``k`` updated with ``previous`` (``R_{k-1}``), closed.

    Returns a copy of the rows of block ``k`` (``(D, P)``, ``P`` ``None``
    without predecessors): what every other worker receives.  ``chain`` is
    the result of the task before this one on ``g`` (it orders the updates).

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> spec = RunSpec("doc-panel", RowLayout(3, 1, 1), min_plus, np.dtype(np.float64), False, "cpu")
    >>> _ = build(spec, 0, [W[0:1], W[1:2], W[2:3]], True, False, "dense")
    >>> R0 = panel(spec, 0, 0, None, None); R0[0]
    array([[ 0.,  4., inf]])
    >>> panel(spec, 0, 1, R0, None)[0]
    array([[inf,  0.,  1.]])
    >>> drop_run("doc-panel")
    1
    """
    st, stop = _enter(spec, g, previous, chain)
    if stop is not None:
        return stop
    lay, dev = spec.layout, st.dev
    la, lb = lay.local_span(k)
    with dev.active():
        if previous is not None:
            previous = _local(previous)
            R, PR = dev.adopt(previous[0]), None if previous[1] is None else dev.adopt(previous[1])
            st.update_rows([(la, lb)], k - 1, R, PR)
            if spec.device == "gpu":
                dev.keep(R, PR)
        st.close_panel(k)
        bad = st.bad_vertices([k])
        if bad.size:
            st.stop = Stopped(vertex=int(bad[0]))
            return st.stop
        if spec.share == "ipc":  # into this worker's exported slot: other processes copy it from there
            slot = export_slot(spec.token, g, lay.block, lay.n, st.D.dtype, None if st.P is None else PRED_DTYPE)
            out = slot.fill(st.D[la:lb], None if st.P is None else st.P[la:lb])
        else:
            out = (st.D[la:lb].copy(), None if st.P is None else st.P[la:lb].copy())
        dev.sync()  # the panel leaves this worker (or this thread) complete
    return out


def receive(spec: RunSpec, g: int, R, built=None) -> tuple | Stopped:
    """Panel ``R`` as worker ``g`` holds it (a task of its own, so that Dask fetches it while ``g`` computes).

    On the CPU and on a GPU worker that received it over the network this is
    ``R`` itself; an array of another GPU of the same process is copied here,
    and so is a panel another process exported (:class:`RemotePanel`: its
    memory is mapped and copied GPU to GPU; the copy is complete when this
    task returns, which the owner's reuse of its slot waits for).  ``built``
    is the result of ``g``'s :func:`build` (the task's other dependency: the
    worker's streams exist only after it).
    """
    stop = _first_stop(R, built)
    if stop is not None:
        return stop
    if spec.device != "gpu":
        return R
    dev = _state(spec, g).dev
    with dev.active():
        if isinstance(R, RemotePanel):
            out = dev.copy_mapped(R.arrays())
        else:
            out = tuple(None if X is None else dev.adopt(X) for X in R)
        dev.copied()
    return out


def update(spec: RunSpec, g: int, k: int, R, chain) -> Stopped | None:
    """Round ``k`` on worker ``g``: its rows outside block ``k`` (and ``k + 1`` when it owns it) take ``R_k``.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> spec = RunSpec("doc-update", RowLayout(3, 3, 1), min_plus, np.dtype(np.float64), False, "cpu")
    >>> _ = build(spec, 0, [W], True, False, "dense")
    >>> R0 = panel(spec, 0, 0, None, None); update(spec, 0, 0, R0, R0) is None
    True
    >>> result_rows(spec, 0, 0, 0, False, None)
    array([[0., 4., 5.],
           [2., 0., 1.],
           [1., 5., 0.]])
    >>> drop_run("doc-update")
    1
    """
    st, stop = _enter(spec, g, R, chain)
    if stop is not None:
        return stop
    lay, dev = spec.layout, st.dev
    skip = []
    if lay.owner(k) == g:
        skip.append(lay.local_span(k))
    if k + 1 < lay.count and lay.owner(k + 1) == g:
        skip.append(lay.local_span(k + 1))  # done by panel(k + 1): the look-ahead
    with dev.active():
        D, PR = _local(R)
        if spec.device == "gpu":
            D, PR = dev.adopt(D), None if PR is None else dev.adopt(PR)
        st.update_rows(ranges_without(skip, st.D.shape[0]), k, D, PR)
        if spec.device == "gpu":
            dev.keep(D, PR)
            dev.done()
    return None


def bad_diagonal_rows(spec: RunSpec, g: int, chain) -> np.ndarray | Stopped:
    """The vertices among worker ``g``'s rows whose final diagonal entry is better than ``one`` (or the stop)."""
    st = _state(spec, g)
    stop = _first_stop(st.stop, chain)
    if stop is not None:
        return stop
    with st.dev.active():
        bad = st.bad_vertices(spec.layout.blocks_of(g))
        st.dev.sync()
    return bad


def result_rows(spec: RunSpec, g: int, k: int, part: int, narrow_int32: bool, home: str | None, *after):
    """Rows of block ``k`` of the result (``part`` 0: ``D``, 1: ``P``), narrowed to int32 if run wide, on ``home``.

    ``home=None`` leaves them where they are (a view of the worker's buffer
    when nothing changes them: the buffer lives as long as a view does).
    """
    st = _state(spec, g)
    la, lb = spec.layout.local_span(k)
    with st.dev.active():
        X = (st.D if part == 0 else st.P)[la:lb]
        if part == 0 and narrow_int32:
            X = narrow(X)
        if home is not None:
            X = to_device(X, home)
        st.dev.sync()
    return X


def survey(device: str) -> dict:
    """What the driver checks before a run, read on a worker (inside a task, so on the GPU its tasks use).

    Returns the worker's memory limit and the fractions at which it spills
    and pauses (``None`` when the setting is off), its process memory now,
    its status, and with ``device="gpu"`` the free and total memory of its
    current GPU (bytes).
    """
    from distributed import get_worker  # only ever called as a task on a worker

    w = get_worker()
    mm = w.memory_manager
    info = {
        "address": w.address,
        "memory_limit": int(mm.memory_limit or 0),
        "spill": mm.memory_spill_fraction or None,
        "pause": mm.memory_pause_fraction or None,
        "process": int(w.monitor.get_process_memory()),
        "status": getattr(w.status, "name", str(w.status)),
        "threads": int(w.state.nthreads),
    }
    if device == "gpu":
        import cupy

        free, total = cupy.cuda.runtime.memGetInfo()
        pool = cupy.get_default_memory_pool()
        info["gpu"] = int(cupy.cuda.runtime.getDevice())
        info["gpu_free"] = int(free) + int(pool.free_bytes())
        info["gpu_total"] = int(total)
    return info
