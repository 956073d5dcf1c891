"""apsp's door: a closure request checked once and carried down as one object.

:func:`make_request` takes the arguments of :func:`apsp.shortest_paths` (the
matrix or graph, the semiring, the method, the devices, the buffers and
limits; every one given, since the defaults are the public function's and
:func:`apsp.prepare` fills them in), checks every one of them once and
returns a :class:`Request`: the input seen as a
:class:`~apsp.matrix_input.MatrixSource`, the semiring, the result's dtype,
the device the run happens on and the GPUs it may use.  The driver (:mod:`apsp.driver`) and everything below it take the
request and trust it: nothing below the door checks the input again.

:func:`prepared_matrix` makes a request from a matrix that another layer has
already built and checked (the :mod:`graphs.csgraph` drop-in builds its dense
matrix itself): it runs none of the entry checks.

>>> import numpy as np
>>> from apsp import prepare
>>> req = prepare(np.array([[0.0, 2.0], [np.inf, 0.0]]))
>>> req.n, req.dtype, req.device, req.method
(2, dtype('float64'), 'cpu', 'auto')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

import semiring as sr
from semiring import Semiring
from semiring.algebra import VALUE_KINDS, Algebra
from semiring.array_types import Device, Where
from semiring.backend import is_cupy_array, resolve_device
from semiring.docstrings import fill_doc
from semiring.errors import DeviceError, DTypeError, SemiringError, ShapeError, UnsupportedOperationError
from semiring.validate import check_entries, check_matrix

from .arguments import as_count
from .matrix_input import MatrixSource, dask_distributed, is_dask_array, matrix_source
from .methods import MULTI_GPU, NAMES
from .paths.exact_integers import sums_may_leave_int32

__all__ = ["Request", "make_request", "prepared_matrix", "unmasked", "dask_client", "DOOR_DOCS"]


@dataclass(frozen=True)
class Request:
    """One closure, checked: what :func:`apsp.driver.solve` runs.

    Attributes
    ----------
    S : Semiring
    src : MatrixSource
        The input: its size, device, arc count and how to build its dense
        matrix (``src.dense`` is the input itself when it is a dense array).
    dtype : numpy.dtype
        The result's dtype.
    device : {"cpu", "gpu"}
        Where the closure runs.
    method : str
        A name of :data:`apsp.methods.NAMES` (``"auto"``: the planner's pick).
    predecessors : bool
    out : numpy.ndarray or None
        The result buffer (checked: C-contiguous, writeable, the result's
        shape and dtype).
    gpu_ids : tuple of int
        The GPUs the run may use (GPU runs; all of this host's by default).
    several_gpus : bool
        ``devices=`` or ``method="multi-gpu"`` asked for several GPUs: that
        route only.
    block_size, memory_budget, memory_limit : int or None
    progress : bool or None
    widen : bool
        int32 sums could leave the range: the closure runs in int64 and is
        clamped back (:mod:`apsp.paths.exact_integers`).
    client : distributed.Client or None
        The Dask cluster the run goes to (:mod:`apsp.distributed`); ``None``:
        this process.
    given : object or None
        The Dask route's input as the caller gave it (a dask array, a graph
        whose arcs go to the workers), masked entries already made ``zero``.
    """

    S: Semiring
    src: MatrixSource
    dtype: np.dtype
    device: Where
    method: str = "auto"
    predecessors: bool = False
    out: Any = None
    gpu_ids: tuple[int, ...] = ()
    several_gpus: bool = False
    block_size: int | None = None
    memory_budget: int | None = None
    memory_limit: int | None = None
    progress: bool | None = None
    widen: bool = False
    client: Any = None
    given: Any = None

    @property
    def n(self) -> int:
        """The number of vertices."""
        return self.src.n

    @property
    def on_host_input(self) -> bool:
        """The input lives in host memory (results come back as NumPy arrays)."""
        return self.src.device == "cpu"


def unmasked(W: Any, S: Semiring) -> Any:
    """``W`` as a plain array: a :class:`numpy.ma.MaskedArray`'s masked entries become the semiring ``zero``.

    Masked means "no edge", as in SciPy's ``csgraph_from_masked`` (the data
    under the mask is ignored, even NaN).  Other arrays are returned as they are.

    Examples
    --------
    >>> from semiring import min_plus
    >>> W = np.ma.masked_array([[0.0, 2.0], [np.nan, 0.0]], mask=[[False, True], [True, False]])
    >>> unmasked(W, min_plus)
    array([[ 0., inf],
           [inf,  0.]])
    """
    if not isinstance(W, np.ma.MaskedArray):
        return W
    S.check_dtype("W", W.dtype)
    data = np.ma.getdata(W)
    mask = np.ma.getmaskarray(W)
    if not mask.any():
        return np.array(data)
    return np.where(mask, S.zero_value(data.dtype), data).astype(data.dtype, copy=False)


#: The docstring blocks :func:`make_request` shares with :func:`apsp.prepare` (:func:`semiring.docstrings.fill_doc`).
DOOR_DOCS = {
    "checks": """\
Parameters and errors are those of :func:`apsp.shortest_paths`, whose
documentation the checks follow.  A dense matrix is checked whole here
(dtype, shape, every entry); a graph is checked as its dense matrix is
built (:func:`apsp.driver.solve`, in row blocks, so the check's
temporaries stay small).""",
    "returns": """\
Returns
-------
Request

Raises
------
TypeError
    ``W``, ``out`` or an integer argument is of no accepted type, or a
    keyword argument is unknown.
ShapeError, DTypeError, InvalidEntryError, UnsupportedOperationError, DeviceError, SemiringError""",
}


@fill_doc(DOOR_DOCS)
def make_request(W: Any, method: str, *, semiring: Semiring | str, predecessors: bool, device: Device,
                 memory_budget: int | None, block_size: int | None, progress: bool | None, out: Any, dtype: Any,
                 memory_limit: int | None, devices: Any, client: Any) -> Request:
    """Check the arguments of :func:`apsp.shortest_paths` once and return the :class:`Request` they make.

    Every argument is required (the defaults are :func:`apsp.shortest_paths`'s,
    and :func:`apsp.prepare` fills them in).
    {checks}

    {returns}

    Examples
    --------
    >>> make_request(np.zeros((2, 3)), "auto", semiring="min_plus", predecessors=False, device="auto",
    ...              memory_budget=None, block_size=None, progress=None, out=None, dtype=None, memory_limit=None,
    ...              devices=None, client=None)
    Traceback (most recent call last):
    ...
    semiring.errors.ShapeError: W must be square (an adjacency matrix), got shape (2, 3)
    """
    S = semiring if isinstance(semiring, Algebra) else sr.get(semiring)
    if block_size is not None:  # the counts as Python ints from here down
        block_size = as_count("block_size", block_size)
    if memory_budget is not None:
        memory_budget = as_count("memory_budget", memory_budget)
    if memory_limit is not None:
        memory_limit = as_count("memory_limit", memory_limit)
    if isinstance(W, np.ma.MaskedArray):
        W = unmasked(W, S)
    if client is not None or (type(W).__module__ or "").startswith("dask."):  # a Dask cluster (a dask array)
        return _dask_request(W, S, method, predecessors, device, block_size, progress, out, dtype, client)
    if type(W) is np.ndarray:  # the common case, without the search of matrix_source
        src = MatrixSource(int(W.shape[0]) if W.ndim == 2 else 0, W.dtype, "cpu", None, False,
                           functools.partial(_fill_from, W), dense=W)
    else:
        src = matrix_source("W", W, S, dtype)
    _check(S, predecessors, method, src.dense)
    widen = (src.dense is not None and W.dtype.kind == "i" and sums_may_leave_int32(W, S)
             and (dtype is None or np.dtype(dtype) == W.dtype))
    if devices is not None and device == "auto":
        device = "gpu"  # GPUs named: a GPU run, whatever kind of array W is
    dev: Where
    if device in ("auto", "cpu") and src.device == "cpu":
        dev = "cpu"
    else:
        dev = resolve_device(device, W if src.dense is not None else _placeholder(src.device))
    rdtype = np.dtype(dtype) if dtype is not None else np.dtype(src.dtype)
    if dtype is not None and not _accepted(S, rdtype):
        S.check_dtype("dtype", rdtype)
    if out is not None:
        _check_out(out, src.n, rdtype, dev)
    if devices is not None and dev != "gpu":
        raise DeviceError("devices= names GPUs: use it with GPU input or device='gpu'")
    gpu_ids = tuple(_gpu_ids(devices)) if dev == "gpu" else ()
    several = devices is not None or method == MULTI_GPU  # several GPUs asked for: that route only
    if several and method not in ("auto", MULTI_GPU):
        raise SemiringError(f"devices= runs method {MULTI_GPU!r}; got method={method!r}")
    if several and dev != "gpu":
        raise DeviceError(f"method {MULTI_GPU!r} runs on GPUs: use it with GPU input or device='gpu'")
    return Request(S, src, rdtype, dev, method, bool(predecessors), out, gpu_ids, several,
                   block_size, memory_budget, memory_limit, progress, widen)


def _dask_request(W: Any, S: Semiring, method: str, predecessors: bool, device: Device, block_size: int | None,
                  progress: bool | None, out: Any, dtype: Any, client: Any) -> Request:
    """The :class:`Request` of a run on a Dask cluster (:mod:`apsp.distributed`), its arguments checked.

    The route runs blocked Floyd-Warshall; ``device`` is where the workers
    compute (not a GPU of this process); a dask array's entries are checked on
    the workers that hold them, a dense array's here; ``out`` gathers the
    distances, so it cannot go with a dask array (whose result stays on the
    workers).  ``memory_budget``, ``memory_limit`` and ``devices`` are the
    single process's: each worker's memory is the cluster's setting.
    """
    if method not in ("auto", "blocked-fw"):
        raise UnsupportedOperationError(
            f"on a Dask cluster the closure runs blocked Floyd-Warshall: use method='auto' or "
            f"'blocked-fw', got {method!r}"
        )
    _check(S, predecessors, method)  # the semiring before the input, as this route always checked them
    if dtype is not None:
        S.check_dtype("dtype", np.dtype(dtype))
    dask_array = is_dask_array(W)
    if dask_array:  # its shape and dtype here, its entries on the workers
        S.check_dtype("W", W.dtype)
        src = MatrixSource(int(W.shape[0]) if W.ndim == 2 else 0, W.dtype,
                           "gpu" if is_cupy_array(getattr(W, "_meta", None)) else "cpu", None, False, _built_on_workers)
    else:
        src = matrix_source("W", W, S, dtype)
        if src.dense is not None:
            check_matrix("W", src.dense, S)
    if (dask_array or src.dense is not None) and (W.ndim != 2 or W.shape[0] != W.shape[1]):
        raise ShapeError(f"W must be square (an adjacency matrix), got shape {tuple(W.shape)}")
    dev = src.device if device == "auto" else device
    if dev not in ("cpu", "gpu"):
        raise DeviceError(f"device must be 'auto', 'cpu' or 'gpu', got {device!r}")
    rdtype = np.dtype(dtype) if dtype is not None else np.dtype(src.dtype)
    if out is not None:
        if dask_array and isinstance(out, np.ndarray):
            raise UnsupportedOperationError("out= gathers the result: it cannot be used with a dask-array result")
        _check_out(out, src.n, rdtype, "cpu", in_place=False)
    return Request(S, src, rdtype, dev, method, bool(predecessors), out, (), False, block_size, None, None, progress,
                   False, dask_client(client), W)


def _built_on_workers(out: Any) -> Any:
    """The ``fill`` of a dask array's :class:`MatrixSource`: its matrix is built on the workers, never here."""
    raise UnsupportedOperationError("a dask array's matrix is built on the Dask workers, not in this process")


def dask_client(client: Any) -> Any:
    """``client``, checked to be a :class:`distributed.Client`; ``None``: the default client, which must exist.

    >>> dask_client(object())
    Traceback (most recent call last):
    ...
    TypeError: client must be a distributed.Client, got object
    """
    distributed = dask_distributed()
    if client is None:
        try:
            return distributed.default_client()
        except ValueError:
            raise UnsupportedOperationError(
                "W is a dask array but there is no Dask client: pass client= (a distributed.Client; "
                "creating one makes it the default), or W.compute() for a single-process run"
            ) from None
    if not isinstance(client, distributed.Client):
        raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}")
    return client


def prepared_matrix(D: Any, *, predecessors: bool = False, device: Where = "cpu", out: Any = None,
                    semiring: Semiring = sr.min_plus) -> Request:
    """A :class:`Request` for a dense matrix that the caller built and checked (no entry checks run).

    For the layers above ``apsp`` that build the matrix themselves (the
    :mod:`graphs.csgraph` drop-in): ``D`` must be a square NumPy or CuPy array
    of a dtype ``semiring`` accepts, holding no value the semiring forbids;
    ``device`` is where the closure runs (``D`` is moved there); ``out`` (CPU)
    is the result buffer, ``D`` itself to close it in place.  What costs
    nothing is checked: ``D``'s dtype must be one ``semiring`` accepts and
    ``out`` must be a C-contiguous NumPy array of ``D``'s shape and dtype (a
    :class:`DTypeError` / :class:`ShapeError` naming the array); the entries
    are not.

    Examples
    --------
    >>> from apsp.driver import solve
    >>> D = np.array([[0.0, 1.0], [np.inf, 0.0]])
    >>> R = solve(prepared_matrix(D, out=D))
    >>> R is D, D
    (True, array([[ 0.,  1.],
           [inf,  0.]]))
    """
    if not (D.dtype.kind in VALUE_KINDS and semiring.in_dtype(D.dtype).accepted):  # the entries are the caller's
        semiring.check_dtype("D", D.dtype)
    gpu = device == "gpu"
    if out is not None and not (out is D and type(D) is np.ndarray and not gpu and D.flags.c_contiguous
                                and D.flags.writeable):  # D itself, a C-contiguous host array: closed in place
        _check_out(out, int(D.shape[0]), np.dtype(D.dtype), "gpu" if gpu else "cpu")
    src = MatrixSource(int(D.shape[0]), D.dtype, "cpu" if isinstance(D, np.ndarray) else "gpu", None, False,
                       functools.partial(_fill_from, D), dense=D)
    gpu_ids = (int(_cupy().cuda.runtime.getDevice()),) if gpu else ()
    return Request(semiring, src, np.dtype(D.dtype), "gpu" if gpu else "cpu", "auto", bool(predecessors), out,
                   gpu_ids)


# -- the checks ------------------------------------------------------------------------
def _check(S: Semiring, predecessors: bool, method: str, W: Any = None) -> None:
    """The semiring has a closure, the method exists; a dense ``W``: 2-D, square, of a dtype ``S`` accepts, every entry valid."""
    if W is not None:
        if W.ndim != 2:
            raise ShapeError(f"W must be 2-D, got shape {tuple(W.shape)}")
        if not (W.dtype.kind in VALUE_KINDS and S.in_dtype(W.dtype).accepted):
            S.check_dtype("W", W.dtype)
        check_entries("W", W, S)
        if W.shape[0] != W.shape[1]:
            raise ShapeError(f"W must be square (an adjacency matrix), got shape {tuple(W.shape)}")
    if not S.idempotent:
        raise UnsupportedOperationError(
            f"the closure over {S.name} is not computed here: its add is not idempotent, so "
            "I (+) A (+) A^2 (+) ... need not converge (for plus_times with spectral radius < 1 "
            "it is inv(I - A): use numpy.linalg.solve)"
        )
    if not S.capabilities.closable:  # e.g. a mul without a two-sided identity
        raise UnsupportedOperationError(S.closure_obstacle())
    if predecessors and not S.selective:
        raise UnsupportedOperationError(
            f"predecessors=True needs a selective add (min, max, or); {S.name} combines values"
        )
    if method not in NAMES:
        raise SemiringError(f"unknown method {method!r}; use one of: {', '.join(NAMES)}")


def _accepted(S: Semiring, dtype: np.dtype) -> bool:
    """Whether ``S`` accepts ``dtype`` (one dict lookup for the dtypes a semiring can hold; never an error)."""
    return dtype.kind in VALUE_KINDS and S.in_dtype(dtype).accepted


def _check_out(out: Any, n: int, dtype: np.dtype, dev: str, in_place: bool = True) -> None:
    """``out`` must be a NumPy array (n, n) of the result's dtype (CPU runs only); C-contiguous and writeable when the closure runs in it."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray or numpy.memmap, got {type(out).__name__}")
    if dev != "cpu":
        raise DeviceError("out= is a host array: use it with device='cpu'")
    if out.shape != (n, n):
        raise ShapeError(f"out must have shape {(n, n)}, got {tuple(out.shape)}")
    if out.dtype != dtype:
        raise DTypeError(f"out must have dtype {dtype}, got {out.dtype}")
    if in_place and not (out.flags.c_contiguous and out.flags.writeable):
        raise ShapeError("out must be C-contiguous and writeable")


def _gpu_ids(devices: Any) -> list[int]:
    """The GPU ids ``devices`` names (``None``: all GPUs, for the planner to consider)."""
    count = _cupy().cuda.runtime.getDeviceCount()
    if devices is None or (isinstance(devices, str) and devices == "all"):
        return list(range(count))
    if isinstance(devices, str) or not hasattr(devices, "__iter__"):
        raise TypeError(f"devices must be None, 'all' or a sequence of GPU ids, got {type(devices).__name__}")
    ids = [as_count(f"devices[{i}]", d, minimum=0) for i, d in enumerate(devices)]
    if not ids:
        raise DeviceError("devices is empty: name at least one GPU")
    for i, d in enumerate(ids):
        if d >= count:
            raise DeviceError(f"devices[{i}] is GPU {d}, but this machine has {count} GPU(s) (ids 0..{count - 1})")
    if len(set(ids)) != len(ids):
        raise DeviceError(f"devices names a GPU twice: {ids}")
    return ids


def _fill_from(W: Any, out: Any) -> Any:
    """The ``fill`` of a dense input ``W`` (bound with :func:`functools.partial`): ``W``, or ``W`` copied into ``out``."""
    if out is None:
        return W
    out[...] = W
    return out


def _placeholder(device: str) -> Any:
    """An empty array on ``device``, for :func:`resolve_device`'s ``"auto"``."""
    return np.empty(0) if device == "cpu" else _cupy().empty(0)


def _cupy() -> Any:
    import cupy

    return cupy

