"""Row panels handed between GPU worker processes of one host as CUDA IPC handles, copied GPU to GPU.

A Dask worker sends a task's result to another worker by pickling it over
its comm (TCP by default).  For the closure's row panels (``b x n`` entries
each round, 1 GiB at ``n = 65536``, ``b = 4096``) that means device -> host
-> socket -> host -> device, far slower than the round's GEMM.  Between
processes of one host the GPUs can read each other's memory directly (NVLink
or PCIe peer to peer): the owner of a panel exports its device buffer once
(``cudaIpcGetMemHandle``), and only the 64-byte handle travels through Dask;
the receiving worker maps it (``cudaIpcOpenMemHandle``, once per run) and
copies the panel into its own GPU with one ``cudaMemcpyAsync``.  This is what
UCX's CUDA IPC transport does underneath, without needing UCX.

Producer side, :class:`PanelSlot`: one device buffer per worker and run
(``b`` rows of ``D``, and of ``P`` with predecessors), allocated with
``cudaMalloc`` of its own (a pool block may not start its allocation, and a
handle names a whole allocation), filled by each panel the worker owns.
The panel task returns an :class:`ExportedPanel`: a plain ``(D, P)`` tuple
of views of the slot inside its own process (Dask passes it by reference to
the worker's own tasks), which pickles to a :class:`RemotePanel` (handles,
shapes, dtypes, the exporting process).

One slot per worker is enough because the schedule orders its reuse: the
owner of block ``k`` next fills its slot with panel ``k + p``, and that task
depends (through the chain of panels ``k + 1 .. k + p - 1``, each of which
takes the previous panel as received by its owner, and each worker's chain of
tasks) on every other worker's ``receive`` of panel ``k``, which returns only
after its copy completed.  :mod:`apsp.distributed` builds that graph.

Consumer side, :meth:`RemotePanel.arrays`: the panel's device memory mapped
into this process (cached per run: a context may open a handle once), as
CuPy arrays of the current device; :mod:`apsp.distributed.rows` copies them
in.  A ``RemotePanel`` unpickled in the process that exported it (Dask may
spill a result to disk and read it back) resolves to the slot itself.

Lifetime: :func:`close_imports` unmaps a run's panels in a process,
:func:`drop_exports` frees its slots; the driver calls the first on every
worker before the second (freeing an exported buffer that another process
still maps is undefined behaviour in CUDA).

Whether a cluster can use this is decided once per run by the driver
(:func:`probe_export` on one worker, :func:`probe_import` on the others): GPU
workers, one host, more than one process, and a handle that opens and reads
back.  Otherwise panels travel as Dask sends any result.  Nothing here
imports Dask; CuPy is imported inside the functions that need it.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

__all__ = ["PanelSlot", "ExportedPanel", "RemotePanel", "export_slot", "close_imports", "drop_exports", "drop_token",
           "probe_export", "probe_import", "shared_runs"]

# -- the registries of a worker process --------------------------------------------------------
_EXPORTS: dict[tuple[str, Any], "PanelSlot"] = {}  # (token, owner) -> slot exported by this process
_IMPORTS: dict[tuple[str, bytes], int] = {}  # (token, handle) -> pointer mapped into this process
_LOCK = threading.Lock()


def shared_runs() -> dict[str, list]:
    """What this process exports and maps, by kind: ``{"exports": [(token, owner)], "imports": [token]}``.

    >>> shared_runs()
    {'exports': [], 'imports': []}
    """
    with _LOCK:
        return {"exports": sorted(_EXPORTS, key=str), "imports": sorted({t for t, _ in _IMPORTS})}


class PanelSlot:
    """A device buffer of ``rows x n`` entries of ``dtype`` (and of ``pred_dtype``), each exported once.

    Made on the current device.  :meth:`fill` copies a panel into it on the
    current stream and returns the :class:`ExportedPanel` that other
    processes can map.
    """

    def __init__(self, token: str, owner: Any, rows: int, n: int, dtype, pred_dtype=None) -> None:
        import cupy

        rt = cupy.cuda.runtime
        self.token, self.owner, self.n = token, owner, int(n)
        dtypes = [np.dtype(dtype)] + ([np.dtype(pred_dtype)] if pred_dtype is not None else [])
        self._memory = [cupy.cuda.memory.Memory(max(1, rows * self.n * dt.itemsize)) for dt in dtypes]
        self._dtypes = dtypes
        self._handles = [bytes(rt.ipcGetMemHandle(m.ptr)) for m in self._memory]
        self.rows = int(rows)

    def views(self, rows: int) -> list:
        """The first ``rows`` rows of each buffer, as CuPy arrays."""
        import cupy

        return [cupy.ndarray((rows, self.n), dt, memptr=cupy.cuda.MemoryPointer(m, 0))
                for m, dt in zip(self._memory, self._dtypes)]

    def fill(self, D, P=None) -> "ExportedPanel":
        """Copy ``D`` (and ``P``) into the slot on the current stream; the exported panel of those rows."""
        rows = int(D.shape[0])
        if rows > self.rows or D.shape[1] != self.n or (P is None) != (len(self._memory) == 1):
            raise ValueError(f"panel of shape {D.shape} (predecessors: {P is not None}) does not fit the slot "
                             f"({self.rows} x {self.n}, predecessors: {len(self._memory) == 2})")
        views = self.views(rows)
        for dst, src in zip(views, (D, P)):
            dst[...] = src
        ref = RemotePanel(self.token, self.owner, os.getpid(),
                          tuple((h, (rows, self.n), dt.str) for h, dt in zip(self._handles, self._dtypes)))
        return ExportedPanel((views[0], views[1] if P is not None else None), ref)


class ExportedPanel(tuple):
    """``(D, P)`` views of a :class:`PanelSlot` in the exporting process; pickled, a :class:`RemotePanel`."""

    remote: "RemotePanel"

    def __new__(cls, arrays: tuple, remote: "RemotePanel") -> "ExportedPanel":
        self = super().__new__(cls, arrays)
        self.remote = remote
        return self

    def __reduce__(self):
        return self.remote.__reduce__()


class RemotePanel:
    """A panel exported by another process: its handles, shapes and dtypes, and who exported it.

    >>> r = RemotePanel("t", 0, 1, ((b"h" * 64, (2, 3), "<f4"),))
    >>> import pickle; q = pickle.loads(pickle.dumps(r)); (q.token, q.owner, q.pid, q.parts[0][1:])
    ('t', 0, 1, ((2, 3), '<f4'))
    """

    __slots__ = ("token", "owner", "pid", "parts")

    def __init__(self, token: str, owner: Any, pid: int, parts: tuple) -> None:
        self.token, self.owner, self.pid, self.parts = token, owner, int(pid), tuple(parts)

    def __reduce__(self):
        return RemotePanel, (self.token, self.owner, self.pid, self.parts)

    def __repr__(self) -> str:
        shapes = ", ".join(f"{s[0]}x{s[1]} {np.dtype(d).name}" for _, s, d in self.parts)
        return f"RemotePanel(run {self.token}, worker {self.owner}, process {self.pid}: {shapes})"

    def arrays(self) -> tuple:
        """The panel's parts as CuPy arrays of the current device (``(D, None)`` without predecessors).

        In another process they map the exporter's memory (read them before
        the run's next round on the exporter: copy them in); in the exporting
        process they are the slot's views.
        """
        if self.pid == os.getpid():
            with _LOCK:
                slot = _EXPORTS.get((self.token, self.owner))
            if slot is None:
                raise RuntimeError(f"{self!r}: this process no longer holds the panel (its run was dropped)")
            views = slot.views(self.parts[0][1][0])
        else:
            import cupy

            rt = cupy.cuda.runtime
            device = int(rt.getDevice())
            views = []
            for handle, shape, dt in self.parts:
                key = (self.token, handle)
                with _LOCK:
                    ptr = _IMPORTS.get(key)
                    if ptr is None:
                        ptr = _IMPORTS[key] = int(rt.ipcOpenMemHandle(handle, rt.cudaIpcMemLazyEnablePeerAccess))
                nbytes = int(np.prod(shape)) * np.dtype(dt).itemsize
                mem = cupy.cuda.UnownedMemory(ptr, nbytes, self, device)
                views.append(cupy.ndarray(shape, np.dtype(dt), memptr=cupy.cuda.MemoryPointer(mem, 0)))
        return views[0], (views[1] if len(views) > 1 else None)


def export_slot(token: str, owner: Any, rows: int, n: int, dtype, pred_dtype=None) -> PanelSlot:
    """The slot of ``(token, owner)`` in this process, made (on the current device) the first time."""
    with _LOCK:
        slot = _EXPORTS.get((token, owner))
    if slot is None:
        slot = PanelSlot(token, owner, rows, n, dtype, pred_dtype)
        with _LOCK:
            slot = _EXPORTS.setdefault((token, owner), slot)
    return slot


def close_imports(token: str) -> int:
    """Unmap the panels of run ``token`` that this process mapped; returns how many.

    >>> close_imports("no-such-run")
    0
    """
    with _LOCK:
        keys = [key for key in _IMPORTS if key[0] == token]
        ptrs = [_IMPORTS.pop(key) for key in keys]
    if ptrs:
        import cupy

        cupy.cuda.runtime.deviceSynchronize()  # nothing may still read them
        for ptr in ptrs:
            cupy.cuda.runtime.ipcCloseMemHandle(ptr)
    return len(ptrs)


def drop_token(registry: dict, lock: Any, token: str) -> int:
    """Delete, under ``lock``, the entries of ``registry`` whose key is ``(token, ...)``; how many there were.

    The per-process registries of a run (this module's exported slots, the
    rows of :mod:`apsp.distributed.rows`) are keyed by the run's token first.

    >>> reg = {("a", 0): 1, ("a", 1): 2, ("b", 0): 3}
    >>> drop_token(reg, threading.Lock(), "a"), reg
    (2, {('b', 0): 3})
    """
    with lock:
        keys = [key for key in registry if key[0] == token]
        for key in keys:
            del registry[key]
    return len(keys)


def drop_exports(token: str) -> int:
    """Free the slots of run ``token`` exported by this process (after :func:`close_imports` everywhere).

    >>> drop_exports("no-such-run")
    0
    """
    return drop_token(_EXPORTS, _LOCK, token)


# -- the driver's check, run as tasks on the workers ---------------------------------------------
_PROBE_ROWS, _PROBE_COLS = 3, 257


def _probe_pattern(xp):
    return xp.arange(_PROBE_ROWS * _PROBE_COLS, dtype=np.float32).reshape(_PROBE_ROWS, _PROBE_COLS) * 0.5 - 7.0


def probe_export(token: str) -> ExportedPanel:
    """On one worker: export a small known panel under ``(token, "probe")`` (a task; its result travels)."""
    import cupy

    slot = export_slot(token, "probe", _PROBE_ROWS, _PROBE_COLS, np.float32)
    out = slot.fill(_probe_pattern(cupy))
    cupy.cuda.Stream.null.synchronize()
    return out


def probe_import(R) -> str:
    """On another worker: map the probe panel and read it back; ``""`` when it matches, else why not."""
    import cupy

    if not isinstance(R, RemotePanel):
        return f"the probe arrived as {type(R).__name__}, not as a handle (one process?)"
    try:
        D, _ = R.arrays()
        got = cupy.asnumpy(D)
    except Exception as err:  # noqa: BLE001 - any failure means: do not share panels this way
        return f"{type(err).__name__}: {err}"
    want = _probe_pattern(np)
    return "" if np.array_equal(got, want) else "the probe panel read back different values"
