"""Payloads whose large arrays reach the worker processes of this host once, through shared memory.

A Dask cluster's worker processes each receive their own pickled copy of a
job's payload (the graph).  On one host that costs memory and, more, speed:
processes that search separate copies of the same graph share none of their
cache lines, while threads of one process searching one copy do (measured on
a 2-core Xeon, ``road_network(100_000)``, distance rows: two worker
processes 93 sources/s each with copies of their own, 107 each mapping one
copy, and 106 per thread in one process).

:class:`SharedPayload` pickles a payload with its NumPy arrays of at least
:data:`MIN_BYTES` written once to files in a folder of shared memory
(``/dev/shm`` where it has room, else the temporary folder: page-cache pages
are shared as well) and replaced by references; what travels is the rest of
the pickle and the file names.  A process that receives it maps the files
copy-on-write (:func:`opened`: once per process; plain writable arrays, so
compiled kernels see the types they always see, and a write stays private to
its process).  Between workers (Dask replicates a scattered payload from
worker to worker) the small wrapper travels again, not the arrays.

:func:`host_shared` decides (one place): the payload goes shared when every
worker of the client runs on this host, and the folder is removed when the
run ends (mapped files stay readable to the processes that mapped them).

>>> import pickle
>>> payload = ("graph", np.arange(300_000, dtype=np.float64))
>>> with SharedPayload.made(payload) as shared:
...     back = opened(pickle.loads(pickle.dumps(shared)))
...     bool((back[1] == payload[1]).all()), back[0], len(pickle.dumps(shared)) < 1000
(True, 'graph', True)
"""

from __future__ import annotations

import io
import os
import pickle
import shutil
import socket
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import numpy as np

__all__ = ["SharedPayload", "host_shared", "opened", "MIN_BYTES"]

#: Arrays at least this large travel as shared files; smaller ones inside the pickle.
MIN_BYTES = 1 << 20


def _goes_shared(obj: Any) -> bool:
    """Whether ``obj`` travels as a shared file: a plain NumPy array of :data:`MIN_BYTES` or more, no objects."""
    return type(obj) is np.ndarray and obj.nbytes >= MIN_BYTES and not obj.dtype.hasobject


class _Writer(pickle.Pickler):
    """A pickler that writes each large array once to ``folder`` and pickles a reference to it."""

    def __init__(self, buf: io.BytesIO, folder: str) -> None:
        super().__init__(buf, protocol=pickle.HIGHEST_PROTOCOL)
        self.folder = folder
        self.files: list[str] = []
        self._seen: dict[int, int] = {}
        self._keep: list[np.ndarray] = []  # the arrays written (their ids stay theirs while the pickle runs)

    def persistent_id(self, obj: Any) -> Any:
        if not _goes_shared(obj):
            return None
        k = self._seen.get(id(obj))
        if k is None:
            k = len(self.files)
            name = f"{k}.npy"
            np.save(os.path.join(self.folder, name), obj, allow_pickle=False)
            self.files.append(name)
            self._seen[id(obj)] = k
            self._keep.append(obj)
        return ("array", k)


class _Reader(pickle.Unpickler):
    """The unpickler of :class:`_Writer`'s pickles: each reference mapped copy-on-write from its file."""

    def __init__(self, buf: io.BytesIO, folder: str, files: list[str]) -> None:
        super().__init__(buf)
        self.folder = folder
        self.files = files
        self._mapped: dict[int, np.ndarray] = {}

    def persistent_load(self, pid: Any) -> Any:
        kind, k = pid
        if kind != "array":
            raise pickle.UnpicklingError(f"unknown reference {pid!r} in a shared payload")
        if k not in self._mapped:
            self._mapped[k] = np.load(os.path.join(self.folder, self.files[k]), mmap_mode="c").view(np.ndarray)
        return self._mapped[k]


class SharedPayload:
    """A payload pickled with its large arrays in files of ``folder`` (see the module's text).

    Build one with :meth:`made` (which also removes the files at the end);
    a process gets the payload back with :func:`opened`.  The process that
    made it holds the payload itself and never reads the files.
    """

    def __init__(self, blob: bytes, folder: str, files: list[str], host: str, payload: Any = None,
                 loaded: bool = False) -> None:
        self.blob, self.folder, self.files, self.host = blob, folder, files, host
        self._payload, self._loaded = payload, loaded

    @classmethod
    @contextmanager
    def made(cls, payload: Any, folder: str | None = None) -> Iterator["SharedPayload"]:
        """``payload`` shared through a fresh folder under ``folder`` (default: :func:`shared_folder`), removed
        when the ``with`` block ends."""
        where = tempfile.mkdtemp(prefix="semiring-paths-", dir=folder or shared_folder())
        try:
            buf = io.BytesIO()
            writer = _Writer(buf, where)
            writer.dump(payload)
            yield cls(buf.getvalue(), where, writer.files, socket.gethostname(), payload, loaded=True)
        finally:
            shutil.rmtree(where, ignore_errors=True)

    def __reduce__(self) -> tuple[Any, ...]:
        return (SharedPayload, (self.blob, self.folder, self.files, self.host))

    def load(self) -> Any:
        """The payload (its large arrays mapped from the files: once per process, then kept)."""
        if not self._loaded:
            if socket.gethostname() != self.host or not os.path.isdir(self.folder):
                raise RuntimeError(f"the shared payload of {self.host}:{self.folder} cannot be read here "
                                   f"({socket.gethostname()}): it is meant for processes of the host that made it")
            self._payload = _Reader(io.BytesIO(self.blob), self.folder, self.files).load()
            self._loaded = True
        return self._payload


def opened(payload: Any) -> Any:
    """The payload a task works on: a :class:`SharedPayload` opened (:meth:`SharedPayload.load`), anything else as
    it is.

    >>> opened((1, 2))
    (1, 2)
    """
    return payload.load() if isinstance(payload, SharedPayload) else payload


def shared_folder(need: int = 0) -> str:
    """``/dev/shm`` where it exists and has twice ``need`` bytes free, else the temporary folder.

    >>> isinstance(shared_folder(), str)
    True
    """
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK) and shutil.disk_usage(shm).free >= 2 * need:
        return shm
    return tempfile.gettempdir()


def _large_bytes(payload: Any) -> int:
    """Bytes of the large arrays ``payload`` holds (counted by pickling it with references only)."""
    sizes: dict[int, int] = {}

    class Counter(pickle.Pickler):
        def persistent_id(self, obj: Any) -> Any:
            if _goes_shared(obj):
                sizes[id(obj)] = obj.nbytes
                return ("array", id(obj))
            return None

    Counter(io.BytesIO(), protocol=pickle.HIGHEST_PROTOCOL).dump(payload)
    return sum(sizes.values())


@contextmanager
def host_shared(payload: Any, client: Any, workers: list[str]) -> Iterator[Any]:
    """What to send the ``workers`` of ``client`` for ``payload``: a :class:`SharedPayload` when every one of them
    runs on this host, in processes of their own, and the payload holds large arrays; else the payload itself.
    Files are removed when the ``with`` block ends.
    """
    with ExitStack() as stack:
        send = payload
        need = _large_bytes(payload) if _all_here(client, workers) else 0
        if need:
            try:
                send = stack.enter_context(SharedPayload.made(payload, shared_folder(need)))
            except OSError:  # no room to write the files: the payload travels as it is
                send = payload
        yield send


def _all_here(client: Any, workers: list[str]) -> bool:
    """Whether every worker of ``workers`` runs on this host in a process other than this one."""
    try:
        where = client.run(_host_and_pid, workers=workers)
    except OSError:  # a worker left: send the payload as it is
        return False
    here = (socket.gethostname(), os.getpid())
    return len(where) == len(workers) and all(h == here[0] and p != here[1] for h, p in where.values())


def _host_and_pid() -> tuple[str, int]:
    return socket.gethostname(), os.getpid()
