"""Closures over several devices of one host, in one process: row blocks owned by devices, panels sent device to device.

The schedule is blocked Floyd-Warshall in the row-panel form of
:mod:`apsp.methods.blocked_fw` (Venkataraman, Sahni & Mukhopadhyaya, J. Exp.
Algorithmics 8, 2003), cut by rows over ``p`` devices (lanes):

* row block ``k`` (rows ``k b .. k b + b - 1``) lives on lane ``k % p``
  (block-cyclic, so every lane has the same share of every round's work);
  each lane keeps its row blocks stacked in one ``(rows, n)`` buffer
  (:class:`RowBlocks`);
* round ``k`` (pivots of block ``k``), owner ``o = k % p``:

  1. *panel*: ``o`` closes the diagonal block ``D_kk`` (R-Kleene) and forms
     ``D_kj (+)= D_kk* (x) D_kj`` for the other column blocks: the ``b x n``
     row panel ``R_k``, final for this round;
  2. *send*: every other lane copies ``R_k`` into one of its two receive
     buffers (device to device: over NVLink with peer access where the GPUs
     have it, else through the driver's staging), on a copy stream of its own;
  3. *update*: every lane forms ``D_i (+)= D_ik (x) R_k`` for its rows ``i``
     outside block ``k`` (one GEMM per contiguous range of its rows, with a
     copy of the ``rows x b`` column panel, which the product overwrites).

* **look-ahead**: the owner of round ``k + 1`` first updates only the rows of
  block ``k + 1`` with ``R_k``, closes panel ``k + 1`` and posts it, and only
  then updates the rest of its rows; the other lanes copy ``R_{k+1}`` while
  their round-``k`` update still runs.  The panel work and the copies leave
  the critical path; what remains per round is the GEMM of ``rows / p``
  by ``b`` by ``n`` on every lane (Sao et al., HPDC 2021, pipeline the panels
  of their distributed Floyd-Warshall the same way).

Every ``(i, j, k)`` update happens once and in the same order per entry as in
:func:`apsp.methods.blocked_fw.blocked_floyd_warshall` (the column panel before the
round times the closed row panel), so the results equal the one-device
blocked schedule's; with predecessors the panel is closed by
:func:`~apsp.methods.blocked_fw.panel_closure_pred` and the updates carry the Pi
update (:meth:`apsp.methods.closure_state.Job.gemm`).

Each lane runs in a host thread of its own, so a host synchronisation inside
one lane's kernels (the lazy-min probe reads a count) never stalls another
lane; threads meet only on a :class:`_Board` of posted events.  The lanes are
:class:`CudaLane` (one GPU, a compute stream and a copy stream, CUDA events)
or :class:`HostLane` (NumPy, copies are plain copies): the second runs the
very same schedule on the CPU, which is how the schedule is tested without a
GPU.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from semiring.backend import to_device

from .elementwise import elementwise_ops
from .methods.base_case import CPU_BASE, GPU_BASE
from .methods.blocked_fw import panel_closure_pred
from .methods.closure_state import Job
from .methods.rkleene import rkleene
from .negative_cycle import raise_for_cycle
from .paths.predecessors import NO_PREDECESSOR, PRED_DTYPE
from .progress import Progress

if TYPE_CHECKING:
    from typing import TypeAlias

    from semiring import Semiring
    from semiring.array_types import DTypeLike

__all__ = ["HostLane", "CudaLane", "cuda_lanes", "RowBlocks", "default_block", "prepare_row_blocks", "close_row_blocks",
           "bad_diagonal_vertices", "multi_device_closure", "ranges_without"]


# -- lanes ---------------------------------------------------------------------------
class HostLane:
    """A lane on the host: NumPy buffers, plain copies, no events (everything is already in order).

    It runs the multi-device schedule on the CPU (tests, and machines without a
    GPU); ``index`` only names the lane.

    >>> lane = HostLane(0)
    >>> dst = np.zeros(3); lane.receive(dst, np.arange(3.0), HostLane(1)); dst
    array([0., 1., 2.])
    """

    xp = np
    base_size = CPU_BASE

    def __init__(self, index: int) -> None:
        self.index = int(index)

    def active(self) -> AbstractContextManager[None]:
        """A context in which this lane's work is issued (nothing to set on the host)."""
        return nullcontext()

    def marker(self) -> None:
        """A point in this lane's work that others can wait for (host work is done when issued)."""
        return None

    def wait(self, marker: Any) -> None:
        """Order this lane's next work after ``marker`` (nothing to do on the host)."""

    def receive(self, dst: Any, src: Any, source: Lane, after: Sequence[Any] = ()) -> None:
        """Copy ``src`` (on ``source``) into ``dst`` (on this lane) after ``after``; returns a marker."""
        np.copyto(dst, src)

    def empty(self, shape: tuple[int, ...], dtype: DTypeLike) -> Any:
        return np.empty(shape, dtype)

    def synchronize(self) -> None:
        """Wait until this lane's work is done (nothing to wait for on the host)."""

    def __repr__(self) -> str:
        return f"HostLane({self.index})"


class CudaLane:
    """A lane on one GPU: a compute stream, a copy stream that receives panels, CUDA events as markers.

    Create lanes with :func:`cuda_lanes`, which also enables peer access
    between the GPUs where the hardware allows it.
    """

    base_size = GPU_BASE

    def __init__(self, device_id: int) -> None:
        import cupy

        self.xp = cupy
        self.index = int(device_id)
        self.device = cupy.cuda.Device(self.index)
        with self.device:
            self.compute = cupy.cuda.Stream(non_blocking=True)
            self.copies = cupy.cuda.Stream(non_blocking=True)

    @contextmanager
    def active(self) -> Iterator[None]:
        """This GPU current and its compute stream the current stream (both per host thread)."""
        with self.device, self.compute:
            yield

    def marker(self, stream: Any = None) -> Any:
        ev = self.xp.cuda.Event(block=False, disable_timing=True)
        ev.record(stream if stream is not None else self.compute)
        return ev

    def wait(self, marker: Any) -> None:
        if marker is not None:
            self.compute.wait_event(marker)

    def receive(self, dst: Any, src: Any, source: Lane, after: Sequence[Any] = ()) -> Any:
        """Copy ``src`` (contiguous, on ``source``'s GPU) into ``dst`` (contiguous, here) on the copy stream."""
        rt = self.xp.cuda.runtime
        with self.device:
            for ev in after:
                if ev is not None:
                    self.copies.wait_event(ev)
            rt.memcpyPeerAsync(dst.data.ptr, self.index, src.data.ptr, source.index, dst.nbytes, self.copies.ptr)
            return self.marker(self.copies)

    def empty(self, shape: tuple[int, ...], dtype: DTypeLike) -> Any:
        with self.device:
            return self.xp.empty(shape, dtype)

    def synchronize(self) -> None:
        self.compute.synchronize()
        self.copies.synchronize()

    def __repr__(self) -> str:
        return f"CudaLane({self.index})"


if TYPE_CHECKING:
    #: A lane of the row-block closure: the host (tests) or one GPU.
    Lane: TypeAlias = HostLane | CudaLane


def cuda_lanes(devices: Sequence[int]) -> list[CudaLane]:
    """One :class:`CudaLane` per device id, peer access enabled between every pair that supports it."""
    import cupy

    rt = cupy.cuda.runtime
    ids = [int(d) for d in devices]
    for a in ids:
        for b in ids:
            if a != b and rt.deviceCanAccessPeer(a, b):  # lanes may share a GPU (a == b): no peer access needed
                with cupy.cuda.Device(a):
                    try:
                        rt.deviceEnablePeerAccess(b)
                    except rt.CUDARuntimeError as e:  # already enabled by an earlier call
                        if "PeerAccessAlreadyEnabled" not in str(e):
                            raise
    return [CudaLane(d) for d in ids]


# -- the distributed matrix -------------------------------------------------------
def default_block(n: int, lanes: int) -> int:
    """Pivots per round: 4096 for large matrices, smaller so that every lane owns at least two blocks.

    >>> default_block(65536, 4), default_block(196608, 4), default_block(1000, 2), default_block(5, 3)
    (4096, 4096, 256, 1)
    """
    b = 4096
    while b > 1 and -(-n // b) < 2 * lanes:
        b //= 2
    if b < 64 and n >= 64 * 2 * lanes:
        b = 64
    return max(1, min(b, n))


class RowBlocks:
    """A square matrix cut into row blocks of ``block`` rows, block ``k`` on lane ``k % len(lanes)``.

    ``local[g]`` is lane ``g``'s ``(rows, n)`` buffer: its blocks stacked in
    order; ``pred[g]`` the predecessors of those rows (or ``None``).

    >>> R = RowBlocks.scatter(np.arange(25.0).reshape(5, 5), [HostLane(0), HostLane(1)], block=2)
    >>> [R.rows_of(g) for g in range(2)]
    [[(0, 2), (4, 5)], [(2, 4)]]
    >>> bool((R.gather() == np.arange(25.0).reshape(5, 5)).all())
    True
    """

    def __init__(self, n: int, block: int, lanes: Sequence[Lane], local: list[Any],
                 pred: list[Any | None] | None = None) -> None:
        self.n, self.block, self.lanes, self.local = int(n), int(block), list(lanes), local
        self.pred: list[Any | None] = pred if pred is not None else [None] * len(self.lanes)

    # layout
    @property
    def count(self) -> int:
        """Number of row blocks."""
        return -(-self.n // self.block) if self.n else 0

    def owner(self, k: int) -> int:
        return k % len(self.lanes)

    def span(self, k: int) -> tuple[int, int]:
        """Global rows of block ``k``."""
        return k * self.block, min(self.n, (k + 1) * self.block)

    def local_span(self, k: int) -> tuple[int, int]:
        """Rows of block ``k`` in its owner's buffer."""
        r0 = (k // len(self.lanes)) * self.block
        a, b = self.span(k)
        return r0, r0 + (b - a)

    def blocks_of(self, g: int) -> list[int]:
        return list(range(g, self.count, len(self.lanes)))

    def rows_of(self, g: int) -> list[tuple[int, int]]:
        return [self.span(k) for k in self.blocks_of(g)]

    @staticmethod
    def _local_rows(n: int, block: int, p: int, g: int) -> int:
        return sum(min(n, (k + 1) * block) - k * block for k in range(g, -(-n // block) if n else 0, p))

    # building and reading
    @classmethod
    def from_rows(cls, n: int, rows: Callable[[int, int, Any], Any], lanes: Sequence[Lane],
                  block: int | None = None, dtype: DTypeLike | None = None) -> "RowBlocks":
        """Build each block on its lane: ``rows(r0, r1, xp)`` returns rows ``r0:r1`` (an ``(r1 - r0, n)`` array of ``xp``).

        Used to make a matrix larger than one device on the devices themselves
        (``rows`` called inside the lane's context, so CuPy allocates there).
        """
        block = default_block(n, len(lanes)) if block is None else int(block)
        local = []
        for g, lane in enumerate(lanes):
            with lane.active():
                parts = [rows(a, b, lane.xp) for a, b in (
                    (k * block, min(n, (k + 1) * block)) for k in range(g, -(-n // block) if n else 0, len(lanes)))]
                dt = dtype if dtype is not None else (parts[0].dtype if parts else np.float64)
                buf = lane.xp.empty((cls._local_rows(n, block, len(lanes), g), n), dtype=dt)
                r = 0
                for part in parts:
                    if part.shape[1] != n:
                        raise ValueError(f"rows() returned {part.shape[1]} columns, expected {n}")
                    buf[r : r + part.shape[0]] = part
                    r += part.shape[0]
                local.append(buf)
        return cls(n, block, lanes, local)

    @classmethod
    def scatter(cls, W: Any, lanes: Sequence[Lane], block: int | None = None) -> "RowBlocks":
        """Copy the rows of the square matrix ``W`` (NumPy, or CuPy on any GPU) to their lanes.

        A CuPy ``W`` is read by the lanes' own streams: its GPU is synchronised
        first, so the work that made ``W`` (on that GPU's current stream) has
        finished before any lane copies a row of it.
        """
        if not isinstance(W, np.ndarray) and hasattr(W, "device"):
            W.device.synchronize()
        return cls.from_rows(W.shape[0], lambda a, b, xp: _onto(W[a:b], xp), lanes, block, dtype=W.dtype)

    def _buffers(self, which: str) -> list[Any]:
        """The lanes' buffers of the matrix (``which="D"``) or of its predecessors (``"P"``)."""
        if which == "D":
            return self.local
        if which != "P":
            raise ValueError(f"which={which!r}: expected 'D' (the matrix) or 'P' (its predecessors)")
        pred = [P for P in self.pred if P is not None]
        if len(pred) != len(self.pred):
            raise ValueError("which='P': these row blocks carry no predecessors (prepare_row_blocks with "
                             "predecessors=True makes them)")
        return pred

    def gather(self, xp: Any = np, which: Literal["D", "P"] = "D") -> Any:
        """The whole matrix (or the predecessors, ``which="P"``) in module ``xp`` (CuPy: on the current GPU)."""
        bufs = self._buffers(which)
        out = xp.empty((self.n, self.n), dtype=bufs[0].dtype if bufs else np.float64)
        for g, lane in enumerate(self.lanes):
            lane.synchronize()
            for k in self.blocks_of(g):
                a, b = self.span(k)
                out[a:b] = _onto(bufs[g][slice(*self.local_span(k))], xp)
        return out

    def rows(self, r0: int, r1: int, which: Literal["D", "P"] = "D") -> np.ndarray:
        """Rows ``r0:r1`` of the matrix (or of the predecessors) as a NumPy array."""
        bufs = self._buffers(which)
        out = []
        for k in range(r0 // self.block, -(-r1 // self.block)):
            a, b = self.span(k)
            lo, hi = max(a, r0), min(b, r1)
            g = self.owner(k)
            la, _ = self.local_span(k)
            self.lanes[g].synchronize()
            out.append(to_device(bufs[g][la + lo - a : la + hi - a], "cpu"))
        return np.concatenate(out) if out else np.empty((0, self.n))


def _onto(X: Any, xp: Any) -> Any:
    """``X`` (NumPy, or CuPy on any GPU) as a contiguous array of ``xp`` (CuPy: on the current GPU).

    A CuPy ``X`` must be complete (its GPU's work on it finished); the copy is
    ordered on the current stream."""
    if xp is np:
        return np.ascontiguousarray(to_device(X, "cpu"))
    if isinstance(X, np.ndarray):
        return xp.asarray(np.ascontiguousarray(X))
    here = xp.cuda.runtime.getDevice()
    if X.device.id == here:
        return xp.ascontiguousarray(X)
    src = X if X.flags.c_contiguous else None
    if src is None:
        with X.device:
            src = xp.ascontiguousarray(X)
            X.device.synchronize()
    out = xp.empty(X.shape, X.dtype)
    # on the current stream, so that what this stream does next with ``out`` comes after the copy: a lane's
    # stream does not wait for the legacy default stream, on which a plain cudaMemcpyPeer would run
    xp.cuda.runtime.memcpyPeerAsync(out.data.ptr, here, src.data.ptr, X.device.id, out.nbytes,
                                    xp.cuda.get_current_stream().ptr)
    return out


# -- meeting points of the lane threads -------------------------------------------------
class _Board:
    """Posted markers keyed by ``(what, round, lane)``; a waiter fails at once when any lane failed."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._posted: dict[tuple[Any, ...], Any] = {}
        self._failed: BaseException | None = None

    def post(self, key: tuple[Any, ...], value: Any) -> None:
        with self._cond:
            self._posted[key] = value
            self._cond.notify_all()

    def take(self, key: tuple[Any, ...]) -> Any:
        with self._cond:
            while key not in self._posted:
                if self._failed is not None:
                    raise _Abandoned() from self._failed
                self._cond.wait()
            return self._posted[key]

    def fail(self, exc: BaseException) -> None:
        with self._cond:
            if self._failed is None:
                self._failed = exc
            self._cond.notify_all()


class _Abandoned(Exception):
    """Raised in a lane whose partner failed (the partner's error is the one reported)."""


# -- the schedule -------------------------------------------------------------------
def prepare_row_blocks(S: "Semiring", blocks: RowBlocks, predecessors: bool) -> None:
    """Diagonal ``(+) one`` on every lane's rows, and the initial predecessors (``i`` where ``D[i, j]`` is an arc)."""
    for g, lane in enumerate(blocks.lanes):
        with lane.active():
            xp = lane.xp
            L = blocks.local[g]
            add, _ = elementwise_ops(S, xp, L.dtype)
            rows = xp.concatenate([xp.arange(a, b) for a, b in blocks.rows_of(g)]) if blocks.rows_of(g) else \
                xp.zeros(0, dtype=np.int64)
            local = xp.arange(rows.shape[0])
            one = xp.full(rows.shape[0], S.one_value(L.dtype), dtype=L.dtype)
            L[local, rows] = add(L[local, rows], one)
            if predecessors:
                P = xp.where(L != S.zero_value(L.dtype), rows.astype(PRED_DTYPE)[:, None],
                             xp.asarray(NO_PREDECESSOR, dtype=PRED_DTYPE)).astype(PRED_DTYPE, copy=False)
                P[local, rows] = NO_PREDECESSOR
                blocks.pred[g] = P


def ranges_without(spans: list[tuple[int, int]], total: int) -> list[tuple[int, int]]:
    """``[0, total)`` minus the (sorted, disjoint) ``spans``, as contiguous ranges.

    >>> ranges_without([(2, 4), (6, 7)], 10)
    [(0, 2), (4, 6), (7, 10)]
    """
    out, at = [], 0
    for a, b in sorted(spans):
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if total > at:
        out.append((at, total))
    return out


def close_row_blocks(S: "Semiring", blocks: RowBlocks, *, lookahead: bool = True,
                     progress: Progress | None = None) -> None:
    """Replace the prepared matrix held by ``blocks`` by its closure, in place, one host thread per lane.

    ``blocks`` must be prepared (:func:`prepare_row_blocks`).  With
    ``blocks.pred`` set, predecessors follow the Pi update.  Negative cycles
    are not checked here (the caller reads the diagonal afterwards).

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> R = RowBlocks.scatter(W, [HostLane(0), HostLane(1)], block=1)
    >>> prepare_row_blocks(min_plus, R, predecessors=False); close_row_blocks(min_plus, R); R.gather()
    array([[0., 4., 5.],
           [2., 0., 1.],
           [1., 5., 0.]])
    """
    p = len(blocks.lanes)
    if blocks.count == 0:
        return
    board = _Board()
    lock = threading.Lock()
    errors: list[BaseException] = []

    def run(g: int) -> None:
        try:
            with blocks.lanes[g].active():
                _lane_schedule(S, blocks, g, board, lookahead, progress, lock)
        except _Abandoned:
            pass
        except BaseException as e:  # noqa: BLE001 - reported by the caller's thread
            errors.append(e)
            board.fail(e)

    threads = [threading.Thread(target=run, args=(g,), name=f"apsp-lane-{g}", daemon=True) for g in range(p)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    for lane in blocks.lanes:
        with lane.active():
            lane.synchronize()


def _lane_schedule(S: Semiring, blocks: RowBlocks, g: int, board: _Board, lookahead: bool, progress: Progress | None,
                   lock: threading.Lock) -> None:
    lane = blocks.lanes[g]
    L, PL = blocks.local[g], blocks.pred[g]
    n, K, p = blocks.n, blocks.count, len(blocks.lanes)
    job = Job(S, L, PL, None, base_size=lane.base_size, early_check=False)
    job.use_graphs = False  # captured graphs are per device and per thread; the diagonal closure is small
    width = min(blocks.block, n)
    recv = [lane.empty((width, n), L.dtype) for _ in range(2)] if p > 1 else []
    recv_p = [lane.empty((width, n), PRED_DTYPE) for _ in range(2)] if (p > 1 and PL is not None) else []
    slot_free: list[Any] = [None, None]
    sent: list[int] = []  # my panels whose copies I have not yet waited for

    def close_panel(k: int) -> None:
        la, lb = blocks.local_span(k)
        a, b = blocks.span(k)
        if PL is None:
            diag = Job(S, L[la:lb, a:b], None, None, base_size=lane.base_size, early_check=False)
            diag._scratch = job._scratch
            diag.use_graphs = False
            rkleene(diag)
            Dkk = L[la:lb, a:b]
            for c0, c1 in ranges_without([(a, b)], n):
                C = L[la:lb, c0:c1]
                job.gemm(Dkk, job.copy("data", C), C)
        else:
            panel_closure_pred(S, L[la:lb, :], PL[la:lb, :], a)
        board.post(("ready", k), lane.marker())

    def update(local_ranges: list[tuple[int, int]], k: int, R: Any, PR: Any) -> None:
        a, b = blocks.span(k)
        for r0, r1 in local_ranges:
            C = L[r0:r1, :]
            A = job.copy("data", L[r0:r1, a:b])
            job.gemm(A, R, C, PB=PR, PC=None if PL is None else PL[r0:r1, :])
        if progress is not None:
            with lock:
                progress.update(float(sum(r1 - r0 for r0, r1 in local_ranges)) * (b - a) * n)

    def settle_sent() -> None:
        for k in sent:
            for h in range(p):
                if h != g:
                    lane.wait(board.take(("copied", k, h)))
        sent.clear()

    mine_total = L.shape[0]
    if blocks.owner(0) == g:
        close_panel(0)
    for k in range(K):
        o = blocks.owner(k)
        a, b = blocks.span(k)
        if o == g:
            la, lb = blocks.local_span(k)
            R = L[la:lb, :]
            PR = None if PL is None else PL[la:lb, :]
            skip = [(la, lb)]
        else:
            ready = board.take(("ready", k))
            src = blocks.local[o][slice(*blocks.local_span(k))]
            dst = recv[k % 2][: b - a]
            done = lane.receive(dst, src, blocks.lanes[o], after=(ready, slot_free[k % 2]))
            if PL is not None:
                dstp = recv_p[k % 2][: b - a]
                Po = blocks.pred[o]
                assert Po is not None  # prepare_row_blocks gives every lane predecessors, or none
                srcp = Po[slice(*blocks.local_span(k))]
                done = lane.receive(dstp, srcp, blocks.lanes[o], after=(ready, slot_free[k % 2]))
            board.post(("copied", k, g), done)
            lane.wait(done)
            R = dst
            PR = None if PL is None else recv_p[k % 2][: b - a]
            skip = []
        nxt = k + 1
        ahead = lookahead and nxt < K and blocks.owner(nxt) == g
        settle_sent()  # rows of my earlier panels change below: every lane must have its copy
        if ahead:
            span = blocks.local_span(nxt)
            update([span], k, R, PR)
            close_panel(nxt)
            skip.append(span)
        update(ranges_without(skip, mine_total), k, R, PR)
        if o != g:
            slot_free[k % 2] = lane.marker()
        else:
            sent.append(k)
        if not lookahead and nxt < K and blocks.owner(nxt) == g:
            close_panel(nxt)
    settle_sent()


# -- the driver ---------------------------------------------------------------------
def bad_diagonal_vertices(S: "Semiring", blocks: RowBlocks) -> np.ndarray:
    """The vertices whose diagonal entry is better than ``one`` after the closure (on a diverging cycle)."""
    found = []
    for g, lane in enumerate(blocks.lanes):
        rows = blocks.rows_of(g)
        if not rows:
            continue
        with lane.active():
            xp = lane.xp
            idx = xp.concatenate([xp.arange(a, b) for a, b in rows])
            d = blocks.local[g][xp.arange(idx.shape[0]), idx]
            one = S.one_value(d.dtype)
            add, _ = elementwise_ops(S, xp, d.dtype)
            bad = add(d, xp.full_like(d, one)) != one
            found.append(to_device(idx[bad], "cpu"))
    return np.sort(np.concatenate(found)) if found else np.zeros(0, np.int64)


def multi_device_closure(S: "Semiring", W: Any, lanes: Sequence[Lane], *, predecessors: bool = False,
                         block: int | None = None, lookahead: bool = True, original: Any = None,
                         progress: Progress | None = None) -> RowBlocks:
    """The closure of ``W`` (a square NumPy/CuPy matrix, or a :class:`RowBlocks`) over ``lanes``, as row blocks.

    ``W`` is checked by the caller.  A :class:`RowBlocks` is closed in place.
    ``original`` (the input matrix, or a function returning it) is searched
    for the cycle when one is found; without it the error names a vertex on
    a diverging closed walk.

    Raises
    ------
    NegativeCycleError
        When a diagonal entry of the closure is better than ``one``.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> multi_device_closure(min_plus, W, [HostLane(0), HostLane(1)], block=1).gather()
    array([[0., 4., 5.],
           [2., 0., 1.],
           [1., 5., 0.]])
    """
    blocks = W if isinstance(W, RowBlocks) else RowBlocks.scatter(W, lanes, block)
    prepare_row_blocks(S, blocks, predecessors)
    close_row_blocks(S, blocks, lookahead=lookahead, progress=progress)
    bad = bad_diagonal_vertices(S, blocks)
    if bad.size:
        if original is None and not isinstance(W, RowBlocks):
            original = W
        raise_for_cycle(S, original, int(bad[0]), bad)
    return blocks

