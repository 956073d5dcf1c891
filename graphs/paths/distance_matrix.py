"""Distance matrices between many origins and many destinations: :func:`distance_matrix` and its plan.

Routing vehicles, matching GPS traces, planning logistics and building
travel-time features ask for the distances between thousands of origins and
thousands of destinations on a graph of millions of vertices: neither one
shortest path nor all ``n^2`` pairs.  :func:`distance_matrix` runs the
many-source engine (:mod:`graphs.paths.many_source`): on the CPU one Dijkstra
per source on every core, each stopping once its targets are settled; on the
GPU thousands of searches per batch.  :func:`plan_distance_matrix` predicts the
memory and time of a request and refuses one that cannot fit, with the numbers
and the alternatives, before anything is allocated.
"""

from __future__ import annotations

import numbers
import os
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from apsp.partial_out import noting_partial_out
from apsp.planner import (
    PlanError,
    cpu_cores,
    device_memory_available,
    format_bytes,
    format_seconds,
    host_memory_available,
)
from semiring.errors import DTypeError

from .._arguments import check_sources
from ..atomic_file import atomic_memmap
from ..door import check_weights, prepare
from ..errors import GraphError
from ..graph import Graph
from ..source_spread import SourceJob, check_spread, place_first, spread
from .all_pairs_plan import SPARSE_RATE
from .engine import johnson_potentials
from .many_source import ROW_BATCH_BYTES, distance_rows, search_order

if TYPE_CHECKING:
    from semiring.array_types import Array, Device

__all__ = ["distance_matrix", "plan_distance_matrix", "matrix_plan", "MatrixPlan", "GPU_PAIR_RATE", "PROGRESS_AFTER"]

#: (source, vertex) pairs per second of the GPU's batched search (measured about 1e9 on road networks).
GPU_PAIR_RATE = 5e8
#: Seconds of estimated work above which a progress bar is shown (on a terminal).
PROGRESS_AFTER = 2.0
#: Share of the available memory a result may take.
MEMORY_SHARE = 0.85


@dataclass(frozen=True)
class MatrixPlan:
    """What a :func:`distance_matrix` call needs: the result's size and where it lives, memory and time.

    Attributes
    ----------
    shape : tuple of int
        ``(len(sources), len(targets))``.
    dtype : numpy.dtype
    device : {"cpu", "gpu"}
    result_bytes, predecessor_bytes : int
    on_disk : bool
        Whether the result goes to a file (``out=`` a path or a memmap).
    est_seconds : float
    """

    shape: tuple[int, int]
    dtype: np.dtype
    device: str
    result_bytes: int
    predecessor_bytes: int
    on_disk: bool
    est_seconds: float

    def summary(self) -> str:
        """One line: shape, dtype, device, memory and time."""
        where = "on disk" if self.on_disk else ("in GPU memory" if self.device == "gpu" else "in memory")
        pred = f", predecessors {format_bytes(self.predecessor_bytes)}" if self.predecessor_bytes else ""
        return (f"{self.shape[0]:,} x {self.shape[1]:,} {np.dtype(self.dtype).name} on {self.device}: result "
                f"{format_bytes(self.result_bytes)} {where}{pred}, ~{format_seconds(self.est_seconds)}")


def matrix_plan(G: Graph, k: int, t: int, *, predecessors: bool = False, on_disk: bool = False,
                result_device: str | None = None, memory_limit: int | None = None,
                result_held: bool = False) -> MatrixPlan:
    """The :class:`MatrixPlan` of ``k`` sources by ``t`` targets on the checked graph ``G``, or a refusal.

    The result (``k t`` entries of the weights' dtype, float64 hop counts)
    must fit in :data:`MEMORY_SHARE` of the memory where it lives (host
    memory, or the GPU's when the graph is there) unless it goes to disk; the
    predecessors (``k n`` int32) always live in memory.  ``result_held``: the
    caller's array holds the result already (only the predecessors are new).

    Raises
    ------
    apsp.PlanError
        It cannot fit: the message gives the sizes, the memory available and
        the alternatives (fewer targets, ``out=`` a ``.npy`` file, float32,
        no predecessors).

    Examples
    --------
    >>> from graphs.generators import grid_2d
    >>> matrix_plan(grid_2d(10, 10), 5, 100).shape
    (5, 100)
    >>> matrix_plan(grid_2d(10, 10), 10**5, 10**5, memory_limit=2**30)
    Traceback (most recent call last):
    ...
    apsp.planner.PlanError: a 100,000 x 100,000 float64 distance matrix (74.5 GiB) does not fit in 1.0 GiB of host memory
    alternatives:
      - fewer targets: 100,000 x 1,140 fits
      - out="D.npy": rows are written to the file as they complete (74.5 GiB on disk)
      - float32 weights (37.3 GiB): the graph's weights as numpy.float32
    """
    dtype = np.dtype(np.float64 if G.weights is None else G.weights.dtype)
    device = result_device or G.device
    n = G.n
    result = k * t * dtype.itemsize
    pred = k * n * 4 if predecessors else 0
    work = float(k) * (n + G.nnz)
    secs = k * n / GPU_PAIR_RATE if G.device == "gpu" else work / (SPARSE_RATE * 4 * cpu_cores())
    plan = MatrixPlan((k, t), dtype, device, result, pred, on_disk, secs)
    if memory_limit is not None:
        avail, where = int(memory_limit), "host memory" if device == "cpu" else "GPU memory"
    elif device == "gpu":
        avail, where = device_memory_available(), "GPU memory"
    else:
        avail, where = host_memory_available(), "host memory"
    # On disk: one batch of rows in memory; in the caller's array: nothing new.
    need = (0 if result_held else min(result, ROW_BATCH_BYTES) if on_disk else result) + pred
    if need <= MEMORY_SHARE * avail:
        return plan
    room = MEMORY_SHARE * avail - pred
    alts = []
    fit_t = int(max(0, room) // max(1, k * dtype.itemsize))
    if 0 < fit_t < t:
        alts.append(f"fewer targets: {k:,} x {fit_t:,} fits")
    if not on_disk:
        alts.append(f'out="D.npy": rows are written to the file as they complete ({format_bytes(result)} on disk)')
    if dtype.itemsize == 8 and dtype.kind in "fi":
        name = "float32" if dtype.kind == "f" else "int32"
        alts.append(f"{name} weights ({format_bytes(result // 2)}): the graph's weights as numpy.{name}")
    if pred:
        alts.append(f"predecessors=False (the predecessors take {format_bytes(pred)})")
    head = (f"a {k:,} x {t:,} {dtype.name} distance matrix ({format_bytes(result)})"
            + (f" with {format_bytes(pred)} of predecessors" if pred else "")
            + f" does not fit in {format_bytes(avail)} of {where}")
    raise PlanError("\n".join([head, "alternatives:"] + [f"  - {a}" for a in alts]))


def _check_limit(limit: Any) -> float | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, numbers.Real):
        raise TypeError(f"limit must be a number, got {type(limit).__name__}")
    value = float(limit)
    if not value >= 0:
        raise GraphError(f"limit must be a non-negative number, got {limit!r}")
    return value


def _check_out(out: Any, shape: tuple[int, int], dtype: np.dtype) -> Any:
    """``out`` as given: ``None``, a path of a ``.npy`` file, or an array of ``shape`` and ``dtype``."""
    if out is None or isinstance(out, (str, os.PathLike)):
        return out
    if not (isinstance(out, np.ndarray) or hasattr(out, "__cuda_array_interface__")):
        raise TypeError(f"out must be a path, a numpy array, a numpy.memmap or a CuPy array, "
                        f"got {type(out).__name__}")
    if np.dtype(out.dtype) != dtype:
        raise DTypeError(f"out must be an array of {dtype.name} (the distances' dtype), got {np.dtype(out.dtype)}")
    if tuple(out.shape) != shape:
        raise GraphError(f"out must be a {shape[0]} x {shape[1]} array, got shape {tuple(out.shape)}")
    return out


def _request(G: Any, sources: Any, targets: Any, weighted: bool, predecessors: bool, limit: Any, device: str, out: Any,
             memory_limit: int | None, spread: Literal["lanes", "dask"] | None = None
             ) -> tuple[Graph, np.ndarray, np.ndarray | None, float | None, Any, MatrixPlan]:
    """The checked arguments of a distance matrix and its plan (a refusal raised here); ``spread``: the rows come
    from other devices (``"lanes"``, into host memory) or a Dask cluster (``"dask"``: into host memory, or left on
    the workers when no ``out`` is given)."""
    for name, flag in (("weighted", weighted), ("predecessors", predecessors)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    P = prepare(G, device, facts=True)
    Gr = P.graph
    if not weighted and Gr.weights is not None:
        Gr = Graph(Gr.indptr, Gr.indices, None, directed=Gr.directed, node_labels=Gr.node_labels, check=False)
    elif P.facts is not None and P.facts.neginf_at >= 0:
        check_weights(Gr, "bellman-ford")  # names the -inf weight
    src = check_sources(Gr, sources, "sources")
    cols = None if targets is None else check_sources(Gr, targets, "targets")
    lim = _check_limit(limit)
    k, t = src.shape[0], (Gr.n if cols is None else cols.shape[0])
    dtype = np.dtype(np.float64 if Gr.weights is None else Gr.weights.dtype)
    out = _check_out(out, (k, t), dtype)
    to_file = isinstance(out, (str, os.PathLike))
    on_host = to_file or isinstance(out, np.ndarray) or (spread and out is None)
    on_workers = spread == "dask" and out is None  # dask arrays: the rows stay in the workers' memory
    plan = matrix_plan(Gr, k, t, predecessors=bool(predecessors) and not on_workers,
                       on_disk=to_file or isinstance(out, np.memmap), result_device="cpu" if on_host else Gr.device,
                       memory_limit=memory_limit, result_held=(out is not None and not to_file) or on_workers)
    return Gr, src, cols, lim, out, plan


def plan_distance_matrix(G: Any, sources: Any, targets: Any = None, *, weighted: bool = True,
                         predecessors: bool = False, device: str = "auto", out: Any = None,
                         memory_limit: int | None = None) -> MatrixPlan:
    """What :func:`distance_matrix` would need for these arguments (memory, time), or its refusal; nothing runs.

    Parameters are those of :func:`distance_matrix`.

    Returns
    -------
    MatrixPlan

    Raises
    ------
    apsp.PlanError
        The result cannot fit (the message gives the sizes and the alternatives).

    Examples
    --------
    >>> from graphs.generators import road_network
    >>> G = road_network(1000, seed=1)
    >>> plan_distance_matrix(G, range(100), range(500)).result_bytes
    400000
    """
    return _request(G, sources, targets, weighted, predecessors, None, device, out, memory_limit)[-1]


@overload
def distance_matrix(G: Any, sources: Any, targets: Any = None, *, weighted: bool = True, predecessors: Literal[False] = False,
                    limit: float | None = None, device: Device = "auto", out: Any = None,
                    progress: bool | None = None, memory_limit: int | None = None, devices: Any = None,
                    client: Any = None) -> Array: ...
@overload
def distance_matrix(G: Any, sources: Any, targets: Any = None, *, weighted: bool = True, predecessors: Literal[True],
                    limit: float | None = None, device: Device = "auto", out: Any = None,
                    progress: bool | None = None, memory_limit: int | None = None, devices: Any = None,
                    client: Any = None) -> tuple[Array, Array]: ...
@overload
def distance_matrix(G: Any, sources: Any, targets: Any = None, *, weighted: bool = True, predecessors: bool = False,
                    limit: float | None = None, device: Device = "auto", out: Any = None,
                    progress: bool | None = None, memory_limit: int | None = None, devices: Any = None,
                    client: Any = None) -> Array | tuple[Array, Array]: ...
def distance_matrix(G: Any, sources: Any, targets: Any = None, *, weighted: bool = True, predecessors: bool = False,
                    limit: float | None = None, device: Device = "auto", out: Any = None,
                    progress: bool | None = None, memory_limit: int | None = None, devices: Any = None,
                    client: Any = None) -> Array | tuple[Array, Array]:
    """Shortest-path distances from each source to each target: a ``len(sources) x len(targets)`` matrix.

    Each source's search stops once all its targets are settled or its
    distances pass ``limit``, which is what makes origin-destination
    matrices on road networks cheap.  The many-source engine
    (:mod:`graphs.paths.many_source`) runs one Dijkstra per source on every
    CPU core (in reverse Cuthill-McKee order on deep graphs), or thousands of
    searches per batch on the GPU; negative weights go through Johnson's
    reweighting.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
    sources : vertex or sequence of vertices
        0-based ids, or labels of a labelled graph; repeats allowed.
    targets : vertex or sequence of vertices, optional
        The columns, in the order given (repeats allowed); default: every
        vertex.
    weighted : bool
        ``False`` counts hops (float64) whatever the weights.
    predecessors : bool
        Also return the shortest-path trees: ``P[r, v]`` is the vertex before
        ``v`` on the route from ``sources[r]`` (``-1`` for the source and for
        vertices not reached, or not settled before the search stopped); the
        route to ``t`` is ``apsp.path(P[r], sources[r], t)``.
    limit : float, optional
        Distances above ``limit`` are reported as unreachable (``inf``, or the
        integer maximum), as SciPy's ``dijkstra(limit=...)`` does.
    device : {"auto", "cpu", "gpu"}
        ``"auto"``: where the graph lives.  The result is on that device
        (unless ``out`` is on the host or on disk).
    out : str, os.PathLike or array, optional
        A ``.npy`` path: the rows are written to that file as batches
        complete, for results larger than memory; the file appears complete
        or not at all (returned as a read-only memory map).  An array (NumPy,
        ``numpy.memmap`` or CuPy) of the result's shape and dtype: filled in
        place (on failure it holds a partial result, and the exception says
        so).
    progress : bool, optional
        Show a progress bar; default: on a terminal, for work estimated over
        two seconds.
    memory_limit : int, optional
        Bytes the result may take where it lives (default: what is available).
    devices : "all" or sequence of int, optional
        Spread the sources over these GPUs of this process (``"all"``: every
        GPU): the graph copied to each once, chunks of sources taken from a
        shared counter, rows written to the host (or ``out``) as chunks
        complete; returned on ``G``'s device when ``out`` is not given.
    client : distributed.Client, optional
        Spread the sources over the workers of a Dask cluster (the graph sent
        to each once, one task per chunk; a worker lost mid-run has its
        chunks computed again).  The result is a :class:`dask.array.Array`
        (and the predecessors another), one block of rows per chunk left in
        the workers' memory; with ``out``, the rows are written there as
        tasks complete instead.  Not with ``devices``.

    Returns
    -------
    D : array (len(sources), len(targets))
        In the weights' dtype (float64 hop counts); ``inf`` (or the integer
        maximum) where a target is unreachable.  A dask array with
        ``client`` and no ``out``.
    P : int32 array (len(sources), n)
        Only with ``predecessors=True``: ``(D, P)``.

    Raises
    ------
    apsp.PlanError
        The result cannot fit: the message gives the sizes and the
        alternatives (fewer targets, ``out=`` a file, float32).
    NegativeCycleError
        A negative cycle is reachable; the error names it.
    VertexError, VertexTypeError, GraphError
        A bad source or target (the message names its position), a bad
        ``limit`` or ``out``.
    TypeError
        An argument of the wrong type.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [1.0, 1.0, 1.0, 5.0])
    >>> distance_matrix(G, [0, 1], [3, 2])
    array([[3., 2.],
           [2., 1.]])
    >>> D, P = distance_matrix(G, [0], [3], predecessors=True)
    >>> import apsp
    >>> apsp.path(P[0], 0, 3)
    [0, 1, 2, 3]
    >>> distance_matrix(G, [0], limit=2.0)
    array([[ 0.,  1.,  2., inf]])

    References
    ----------
    E. W. Dijkstra, "A note on two problems in connexion with graphs",
    Numerische Mathematik 1, 1959.  D. B. Johnson, "Efficient algorithms for
    shortest paths in sparse networks", JACM 24, 1977.
    """
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be a bool or None, got {type(progress).__name__}")
    check_spread(devices, client)
    spread: Literal["lanes", "dask"] | None = "dask" if client is not None else "lanes" if devices is not None else None
    Gr, src, cols, lim, out, plan = _request(G, sources, targets, weighted, predecessors, limit, device, out,
                                             memory_limit, spread)
    k, t = plan.shape
    dtype = plan.dtype
    to_file = isinstance(out, (str, os.PathLike))
    show = bool(progress) if progress is not None else plan.est_seconds > PROGRESS_AFTER
    from apsp.progress import tqdm  # type: ignore[attr-defined]  # apsp.progress imports tqdm for its users; the text bar, or the Jupyter widget where ipywidgets is present

    bar = tqdm(total=k, desc=f"distance matrix {k:,} x {t:,}", unit="sources", disable=not show, mininterval=0.5,
               leave=False)
    where = atomic_memmap(out, dtype, (k, t)) if to_file else nullcontext(out)
    with bar, where as buf, noting_partial_out(None if to_file else out):
        if spread:
            D, Pr = _spread_rows(Gr, src, cols, lim, bool(predecessors), buf, devices, client, bar)
        else:
            D, Pr = distance_rows(Gr, src, cols, limit=lim, predecessors=bool(predecessors), out=buf, bar=bar)
    if to_file:
        D = np.load(out, mmap_mode="r")
    elif spread == "lanes" and out is None and Gr.device == "gpu":  # rows on the host: the result on G's device
        D, Pr = Gr.xp.asarray(D), (None if Pr is None else Gr.xp.asarray(Pr))
    return (D, Pr) if predecessors else D


def _rows_task(payload: tuple[Any, ...], chunk: np.ndarray) -> tuple[Any, ...]:
    """A spread chunk's distance rows (and predecessor rows) on the device its graph is on."""
    G, cols, limit, predecessors = payload
    D, P = distance_rows(G, chunk, cols, limit=limit, predecessors=predecessors)
    return (D, P) if predecessors else (D,)


def _spread_rows(G: Graph, src: np.ndarray, cols: np.ndarray | None, limit: float | None, predecessors: bool,
                 buf: Any, devices: Any, client: Any, bar: Any) -> tuple[Any, Any]:
    """The rows of :func:`distance_matrix` from the lanes of ``devices`` or the workers of ``client``, into
    ``buf`` (allocated on the host when ``None``); a negative cycle is named here, before anything is sent."""
    if G.has_negative_weights:
        johnson_potentials(G)  # raises NegativeCycleError naming the cycle (each chunk computes its own potentials)
    k, t = src.shape[0], (G.n if cols is None else cols.shape[0])
    dtype = np.dtype(np.float64 if G.weights is None else G.weights.dtype)
    row_bytes = dtype.itemsize * t + (4 * G.n if predecessors else 0)
    host = G.to("cpu") if G.device == "gpu" else G
    if G.device == "cpu":  # the search order made here once, sent with the graph
        search_order(host, k)
    parts = ((t,), dtype), ((G.n,), np.dtype(np.int32))
    job = SourceJob(_rows_task, (host, cols, limit, predecessors), "rows", place_first, row_bytes,
                    parts[:2 if predecessors else 1], (G.n + G.nnz) / SPARSE_RATE)
    if client is not None and buf is None:  # dask arrays, their blocks left on the workers
        arrays = spread(job, src, devices, client, G.device == "gpu", None, bar)
        assert arrays is not None  # a rows job without out returns its arrays
        return arrays[0], (arrays[1] if predecessors else None)
    D = np.empty((k, t), dtype=dtype) if buf is None else buf
    P = np.full((k, G.n), -1, dtype=np.int32) if predecessors else None
    out = [D] if P is None else [D, P]
    spread(job, src, devices, client, G.device == "gpu", out, bar)
    return D, P
