"""Out-of-core closure: blocked Floyd-Warshall over a host-resident matrix, streamed through the GPU.

When ``n x n`` does not fit the device memory budget, the matrix stays in
(pinned) host memory and only panels and slabs of rows visit the GPU, so ``n``
is limited by host memory (Harish & Narayanan's streaming blocks, HiPC 2007;
the schedule is the row-panel blocked Floyd-Warshall of :mod:`apsp.methods.blocked_fw`).
For each block ``r`` of ``b`` pivots:

1. the row panel ``R = D[r, :]`` (``b x n``) goes to the device and is closed
   there (its diagonal block by in-core R-Kleene, the rest by one GEMM; with
   predecessors by the pivot kernel), then comes back;
2. every other slab of ``t`` rows ``S = D[I, :]`` is uploaded, updated by
   ``S (+)= S[:, r] (x) R`` (one GEMM with the panel resident on the device)
   and downloaded.  Slabs alternate between two CUDA streams, so one slab's
   copies overlap the other's GEMM; with pinned host memory the copies are
   asynchronous DMA.

Per block the host matrix crosses the bus twice (``2 n^2`` elements) against
``n^2 b`` multiply-adds, so the copies hide behind the GEMMs once ``b`` is a
few thousand: :func:`plan` takes ``b`` as large as the budget allows.

Several devices (``devices=``: the GPUs of one host) share the rounds: the
first closes the panel, every device receives it from host memory, and the
slabs are dealt out to the devices, each on its own thread and streams; so a
matrix larger than all the GPUs together runs out of host memory, at the sum
of their rates while the bus keeps up (``2 n^2`` elements per round over all
links together).  The slab that holds the next round's panel rows goes
first, to the device that closes the panels.

The driver talks to each device through :class:`CupyDevice`; :class:`NumpyDevice`
runs the same schedule with NumPy arrays, which is how the CPU tests check it
(several of them: the multi-device schedule with its transfers as plain copies).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from semiring.dense import WITNESS_DTYPE, matmul_into
from semiring.errors import DeviceError, SemiringError

from .arguments import as_count
from .methods.blocked_fw import panel_closure_pred
from .methods.closure_state import Job
from .methods.rkleene import rkleene
from .negative_cycle import raise_if_diverged
from .paths.predecessors import update_predecessors
from .paths.working_matrix import working_matrix
from .progress import Progress

if TYPE_CHECKING:
    from typing import TypeAlias

    from semiring import Semiring
    from semiring.array_types import DTypeLike

__all__ = ["Plan", "plan", "streamed_closure", "run_streamed", "NumpyDevice", "CupyDevice"]


class NumpyDevice:
    """The host pretending to be a device: same calls, no copies in flight (for tests)."""

    xp = np
    base_size = 96

    def empty(self, shape: tuple[int, ...], dtype: DTypeLike) -> np.ndarray:
        return np.empty(shape, dtype=dtype)

    def host_empty(self, shape: tuple[int, ...], dtype: DTypeLike) -> np.ndarray:
        return np.empty(shape, dtype=dtype)

    def upload(self, dev: Any, host: np.ndarray, stream: Any = None) -> None:
        dev[...] = host

    def download(self, host: np.ndarray, dev: Any, stream: Any = None) -> None:
        host[...] = dev

    def streams(self, count: int) -> list[Any]:
        return [contextlib.nullcontext() for _ in range(count)]

    def synchronize(self) -> None:
        pass

    def sync_fn(self) -> Callable[[], None] | None:
        return None

    def activate(self) -> contextlib.AbstractContextManager[Any]:
        """The context the device's calls run in (nothing for the host)."""
        return contextlib.nullcontext()


class CupyDevice:
    """A CUDA device through CuPy (default: the current one): pinned host buffers, asynchronous copies, two streams.

    Its calls run on its device when made inside :meth:`activate`.
    """

    def __init__(self, device_id: int | None = None) -> None:
        import cupy

        from .methods.base_case import GPU_BASE

        self.cupy = cupy
        self.xp = cupy
        self.base_size = GPU_BASE
        self.id = int(cupy.cuda.runtime.getDevice()) if device_id is None else int(device_id)

    def activate(self) -> Any:
        """``with device.activate():`` makes this GPU current for the calls inside."""
        return self.cupy.cuda.Device(self.id)

    def empty(self, shape: tuple[int, ...], dtype: DTypeLike) -> Any:
        return self.cupy.empty(shape, dtype=dtype)

    def host_empty(self, shape: tuple[int, ...], dtype: DTypeLike) -> Any:
        """Page-locked host memory (asynchronous DMA), or ordinary memory if it cannot be pinned."""
        import cupyx

        try:
            return cupyx.empty_pinned(shape, dtype=dtype)
        except Exception:  # pragma: no cover - pinned memory exhausted
            return np.empty(shape, dtype=dtype)

    def upload(self, dev: Any, host: np.ndarray, stream: Any = None) -> None:
        dev.set(host, stream=stream)

    def download(self, host: np.ndarray, dev: Any, stream: Any = None) -> None:
        dev.get(stream=stream, out=host)

    def streams(self, count: int) -> list[Any]:
        return [self.cupy.cuda.Stream(non_blocking=True) for _ in range(count)]

    def synchronize(self) -> None:
        self.cupy.cuda.Device(self.id).synchronize()

    def sync_fn(self) -> Callable[[], None] | None:
        return self.synchronize


if TYPE_CHECKING:
    #: A device the rounds run on.
    Lane: TypeAlias = NumpyDevice | CupyDevice


@dataclass(frozen=True)
class Plan:
    """How an out-of-core run cuts the matrix: ``block`` pivots per round, ``rows`` per slab."""

    block: int
    rows: int
    device_bytes: int


def _device_bytes(n: int, b: int, t: int, item: int, pred: bool) -> int:
    pb = 4 if pred else 0
    panel = b * n * (item + pb)
    slabs = 2 * t * n * (item + 2 * pb) + 2 * t * b * item
    diag = b * b * item // 4 + b * b * (pb + pb // 4)
    return panel + slabs + diag


def plan(n: int, itemsize: int, predecessors: bool, budget: int, block: int | None = None) -> Plan:
    """The largest block (and slab) whose device buffers fit in ``budget`` bytes.

    Raises :class:`~semiring.errors.DeviceError` if not even a tiny block fits.

    >>> plan(32768, 4, False, 2 << 30).block  # a 4 GiB matrix through 2 GiB of device memory
    4736
    """
    if block is not None:
        b = max(1, min(n, int(block)))
        need = _device_bytes(n, b, b, itemsize, predecessors)
        if need > budget:
            raise DeviceError(f"block_size={block} needs {need} bytes of device memory, over the budget of {budget}")
        return Plan(b, b, need)
    b = max(1, min(n, budget // max(1, 3 * n * (itemsize + (8 if predecessors else 0)))))
    while b > 1 and _device_bytes(n, b, b, itemsize, predecessors) > budget:
        b -= max(1, b // 16)
    if b >= 256:
        b -= b % 128
    if _device_bytes(n, b, b, itemsize, predecessors) > budget:
        raise DeviceError(f"memory_budget={budget} bytes cannot hold even one row panel of a {n}-vertex matrix")
    return Plan(b, b, _device_bytes(n, b, b, itemsize, predecessors))


def _slabs(n: int, r0: int, r1: int, rows: int) -> list[tuple[int, int]]:
    out = []
    for a, z in ((0, r0), (r1, n)):
        out += [(i, min(z, i + rows)) for i in range(a, z, rows)]
    return out


def streamed_closure(
    S: "Semiring",
    W: np.ndarray,
    predecessors: bool = False,
    memory_budget: int = 1 << 30,
    block_size: int | None = None,
    progress: bool | None = None,
    device: Lane | None = None,
    devices: Sequence[Lane] | None = None,
    overwrite: bool = False,
) -> Any:
    """The closure of the host matrix ``W`` through the device(s), streaming row slabs.

    Parameters
    ----------
    S : Semiring
        Idempotent (selective with ``predecessors``); validated by the caller.
    W : numpy.ndarray (n, n)
        Host input, left unchanged.
    predecessors : bool
        Also return the predecessor matrix.
    memory_budget : int
        Device bytes the run may use (on each device).
    block_size : int, optional
        Pivots per round (default: the largest that fits, see :func:`plan`).
    progress : bool, optional
        Show progress (see :class:`apsp.progress.Progress`).
    device : NumpyDevice or CupyDevice, optional
        Default: :class:`CupyDevice` (the current GPU).
    devices : sequence of NumpyDevice or CupyDevice, optional
        Several devices sharing the rounds (instead of ``device``); the first
        closes the panels.
    overwrite : bool
        Close ``W`` in its place (a C-contiguous writeable array): no second
        ``n x n`` buffer, for a matrix that fills host memory; a negative
        cycle is then named by a vertex on it, without the cycle's arcs.

    Returns
    -------
    D, or (D, P) : numpy.ndarray
        In pinned host memory on the GPU path.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> streamed_closure(min_plus, W, memory_budget=400, device=NumpyDevice())
    array([[0., 1., 2.],
           [2., 0., 1.],
           [1., 2., 0.]])
    >>> bool((streamed_closure(min_plus, W, memory_budget=400, devices=[NumpyDevice(), NumpyDevice()])
    ...       == streamed_closure(min_plus, W, memory_budget=400, device=NumpyDevice())).all())
    True
    """
    memory_budget = as_count("memory_budget", memory_budget)
    if block_size is not None:
        block_size = as_count("block_size", block_size)
    if devices is not None:
        lanes = list(devices)
        if not lanes:
            raise DeviceError("devices is empty: name at least one device")
    else:
        lanes = [device if device is not None else CupyDevice()]
    if overwrite and not (isinstance(W, np.ndarray) and W.flags.c_contiguous and W.flags.writeable):
        raise SemiringError("overwrite=True needs W as a C-contiguous, writeable numpy array")
    return run_streamed(S, W, lanes, predecessors, memory_budget, block_size, progress, overwrite)


def run_streamed(S: "Semiring", W: np.ndarray, lanes: Sequence[Lane], predecessors: bool, memory_budget: int,
                 block_size: int | None, progress: bool | None, overwrite: bool = False) -> Any:
    """:func:`streamed_closure` with its arguments checked: what :func:`apsp.driver.solve` runs.

    ``lanes``: the devices (at least one), the first closing the panels;
    ``memory_budget`` and ``block_size`` are counts (``block_size`` may be
    ``None``); with ``overwrite``, ``W`` is a C-contiguous writeable array.

    >>> from semiring import min_plus
    >>> run_streamed(min_plus, np.array([[0.0, 1.0], [np.inf, 0.0]]), [NumpyDevice()], False, 400, None, False)
    array([[ 0.,  1.],
           [inf,  0.]])
    """
    dev = lanes[0]
    n = W.shape[0]
    item = W.dtype.itemsize
    pl = plan(n, item, predecessors, memory_budget, block_size) if n else None
    if overwrite:
        D, original = W, None
    else:
        with dev.activate():
            D = dev.host_empty((n, n), W.dtype)  # pinned on the GPU path: the copies are DMA
        D[...] = W
        original = W
    D, P0 = working_matrix(S, D, np, predecessors, copy=False)
    P = None
    if predecessors:
        with dev.activate():
            P = dev.host_empty((n, n), P0.dtype)
        P[...] = P0
        del P0
    raise_if_diverged(S, D, original, whole=False)
    if n == 0:
        return (D, P) if predecessors else D
    assert pl is not None  # planned for every n > 0
    b, t = pl.block, pl.rows
    buffers = [_LaneBuffers(lane, n, b, t, W.dtype, predecessors) for lane in lanes]
    bar = Progress(float(n) ** 3, f"apsp streamed n={n}" + (f" on {len(lanes)} devices" if len(lanes) > 1 else ""),
                   enabled=progress, sync=dev.sync_fn())
    lock = threading.Lock()
    with bar, ThreadPoolExecutor(max_workers=len(lanes)) as pool:
        for r0 in range(0, n, b):
            r1 = min(n, r0 + b)
            bb = r1 - r0
            first = buffers[0]
            with dev.activate():
                R, RP = first.R[:bb], (None if first.RP is None else first.RP[:bb])
                dev.upload(R, D[r0:r1])
                if RP is not None:
                    assert P is not None  # RP and P both exist exactly with predecessors
                    dev.upload(RP, P[r0:r1])
                _close_panel(S, R, RP, r0, original, dev, bar)
                dev.download(D[r0:r1], R)
                if RP is not None:
                    assert P is not None
                    dev.download(P[r0:r1], RP)
                dev.synchronize()
            slabs = _slabs(n, r0, r1, t)
            if r1 < n:  # the slab with the next panel's rows first (lane 0): the next round waits for it first
                nxt = next(i for i, (i0, i1) in enumerate(slabs) if i0 <= r1 < i1)
                slabs.insert(0, slabs.pop(nxt))
            shares = [slabs[g::len(lanes)] for g in range(len(lanes))]
            jobs = [pool.submit(_update_slabs, S, buf, D, P, r0, r1, share, g > 0, bar, lock)
                    for g, (buf, share) in enumerate(zip(buffers, shares))]
            for j in jobs:
                j.result()
    raise_if_diverged(S, D, original, whole=True)
    return (D, P) if predecessors else D


class _LaneBuffers:
    """One device's buffers for the rounds: the panel, two slabs (with predecessors and witnesses), two streams."""

    def __init__(self, lane: Lane, n: int, b: int, t: int, dtype: DTypeLike, predecessors: bool) -> None:
        self.lane = lane
        with lane.activate():
            self.R = lane.empty((b, n), dtype)
            self.RP = lane.empty((b, n), np.int32) if predecessors else None
            self.streams = lane.streams(2)
            self.slab_d = [lane.empty((t, n), dtype) for _ in self.streams]
            self.slab_p: list[Any] = [lane.empty((t, n), np.int32) for _ in self.streams] if predecessors else [None, None]
            self.wit: list[Any] = [lane.empty((t, n), WITNESS_DTYPE) for _ in self.streams] if predecessors else [None, None]
            self.acol = [lane.empty((t, b), dtype) for _ in self.streams]


def _update_slabs(S: "Semiring", buf: _LaneBuffers, D: np.ndarray, P: np.ndarray | None, r0: int, r1: int,
                  slabs: list[tuple[int, int]], fetch_panel: bool,
                  bar: Progress, lock: threading.Lock) -> None:
    """``D[I, :] (+)= D[I, r] (x) R`` for this device's slabs ``I`` of round ``r = [r0, r1)``, on its two streams.

    ``fetch_panel``: the closed panel is read from host memory first (every device but the one that closed it).
    """
    lane = buf.lane
    bb = r1 - r0
    with lane.activate():
        R, RP = buf.R[:bb], (None if buf.RP is None else buf.RP[:bb])
        if fetch_panel and slabs:
            lane.upload(R, D[r0:r1])
            if RP is not None:
                assert P is not None  # the buffers hold RP exactly when the run keeps predecessors
                lane.upload(RP, P[r0:r1])
            lane.synchronize()
        for idx, (i0, i1) in enumerate(slabs):
            k = idx % 2
            rows = i1 - i0
            with buf.streams[k]:
                Sd = buf.slab_d[k][:rows]
                lane.upload(Sd, D[i0:i1], buf.streams[k])
                Sp = None
                if P is not None:  # predecessors
                    Sp = buf.slab_p[k][:rows]
                    lane.upload(Sp, P[i0:i1], buf.streams[k])
                A = buf.acol[k][:rows, :bb]
                A[...] = Sd[:, r0:r1]
                if P is not None:  # predecessors
                    K = buf.wit[k][:rows]
                    matmul_into(S, A, R, Sd, K, True)
                    update_predecessors(Sp, RP, K)
                    lane.download(P[i0:i1], Sp, buf.streams[k])
                else:
                    matmul_into(S, A, R, Sd, None, True)
                lane.download(D[i0:i1], Sd, buf.streams[k])
            with lock:
                bar.update(float(rows) * bb * D.shape[0])
        lane.synchronize()


def _close_panel(S: "Semiring", R: Any, RP: Any, r0: int, W: Any, dev: Lane, bar: Progress) -> None:
    """Close the device row panel ``R`` (rows ``r0..``) over its own pivots; check its diagonal."""
    bb, n = R.shape
    r1 = r0 + bb
    if RP is not None:
        panel_closure_pred(S, R, RP, r0)
    else:
        job = Job(S, R[:, r0:r1], None, W, base_size=dev.base_size, early_check=False)
        rkleene(job)
        Drr = R[:, r0:r1]
        for c0, c1 in ((0, r0), (r1, n)):
            if c1 > c0:
                C = R[:, c0:c1]
                job.gemm(Drr, job.copy("data", C), C)
    raise_if_diverged(S, R[:, r0:r1], W, offset=r0, whole=False)
    bar.update(float(bb) * bb * n)
