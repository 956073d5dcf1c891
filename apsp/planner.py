"""The planner: which route an all-pairs computation takes, decided before anything is allocated.

An ``n x n`` closure costs ``n^2`` elements of memory and ``n^3`` multiply-adds,
so a graph that is merely large (36,692 vertices: 10 GiB in float64, hours on
two cores) can fill a machine.  :func:`plan` estimates, for each route that
could produce the result, its peak host and device memory and its time, and
picks the fastest route that fits; when none fits it raises :class:`PlanError`
at once, with the estimate and what to do instead.

Routes (:attr:`Plan.route`):

``"dense"``
    The in-core closure (R-Kleene by default) on the CPU or the GPU: the result
    buffer, a strip of scratch on the CPU (a 16th of the result) or a quadrant
    on the GPU (:mod:`apsp.rkleene`), and with predecessors the ``P`` and
    witness matrices.  ``float32`` is chosen when it
    is exact (integer weights whose path sums stay below ``2**24``, or an
    unweighted graph) and the dtype is left to the planner.
``"streaming"``
    The out-of-core blocked Floyd-Warshall of :mod:`apsp.streaming`: the matrix
    stays in (pinned) host memory and row panels stream through the GPU.  Taken
    when the matrix fits in host memory but not in the device budget.
``"sparse"``
    Many-source SSSP / BFS over batches of sources, rows written into the
    result (an array, or a ``numpy.memmap`` on disk); ``O(n (n + m))`` work
    instead of ``n^3``.  Only graphs with ``nnz`` known offer it; it is run by
    :func:`graphs.all_pairs_shortest_paths` (``apsp`` knows matrices, not
    graphs).

Each decision is one small function (in the style of ``opt_einsum``'s
backend dispatch): :func:`host_memory_available`,
:func:`device_memory_available`, :func:`float32_exact`, :func:`dense_bytes`,
:func:`dense_seconds`, :func:`sparse_bytes`, :func:`sparse_seconds` and
:func:`plan`, which compares the candidates.

Rates.  Times come from :data:`DENSE_RATES` (multiply-adds per second per CPU
core, or per GPU) and :data:`SPARSE_RATE` (arcs scanned per second per core in
many-source Dijkstra) and :data:`BFS_RATE` (the same for one breadth-first
search per source).  They are conservative figures from measurements:
the CPU GEMM ran at 36.7 G float32 min-plus/s on a 2-core AVX2 EPYC (63 G/s
with AVX-512), the H200's float32 add+min ceiling is 14.8 T/s; the sparse rates
were measured on SNAP's email-Enron (36,692 vertices, 367,662 arcs) on the
same 2 cores: :func:`graphs.multi_source_sssp` scanned 75 M arcs/s, a
direction-optimising BFS per source took 0.59 ms (690 M arcs/s equivalent).  Estimates are meant to
be within a factor of two, which is what a decision needs.
"""

from __future__ import annotations

import numbers
import os
from dataclasses import dataclass, field

import numpy as np

from semiring.errors import SemiringError

__all__ = [
    "Plan",
    "PlanError",
    "plan",
    "host_memory_available",
    "device_memory_available",
    "float32_exact",
    "dense_bytes",
    "dense_seconds",
    "sparse_bytes",
    "sparse_seconds",
    "in_core_bytes",
    "DENSE_RATES",
    "SPARSE_RATE",
    "BFS_RATE",
    "HOST_HEADROOM",
]

#: Multiply-adds per second of the dense closure: per CPU core (``"cpu"``) or per GPU
#: (``"gpu"``), by dtype kind and size.  Conservative (about 2/3 of what was measured).
DENSE_RATES: dict[tuple[str, str], float] = {
    ("cpu", "float32"): 12e9,
    ("cpu", "int32"): 12e9,
    ("cpu", "float64"): 6e9,
    ("cpu", "int64"): 6e9,
    ("cpu", "bool"): 60e9,  # bit-packed: 64 values of k per word operation
    ("gpu", "float32"): 8e12,
    ("gpu", "int32"): 8e12,
    ("gpu", "float64"): 1.5e12,
    ("gpu", "int64"): 1.5e12,
    ("gpu", "bool"): 40e12,
}
#: The streamed route's fraction of the in-core GPU rate (row panels cross PCIe).
STREAMING_FACTOR = 0.4
#: Arcs (plus vertices) per second per CPU core of many-source Dijkstra (measured: 37 M/s).
SPARSE_RATE = 25e6
#: The same for direction-optimising BFS per source (measured: 690 M/s, as it skips arcs).
BFS_RATE = 250e6
#: Fraction of the available host memory a plan may use (the rest is left to the system).
HOST_HEADROOM = 0.85
#: Sources per batch of the sparse route (bounded so the batch buffers stay small).
SPARSE_BATCH_BYTES = 256 * 2**20

ROUTES = ("dense", "streaming", "sparse")


class PlanError(SemiringError):
    """No route fits: the message gives the estimate (memory, time) and the alternatives.

    A :class:`ValueError` (through :class:`~semiring.errors.SemiringError`).
    ``err.plans`` holds the candidate :class:`Plan` objects that were rejected.
    """

    def __init__(self, message: str, plans: tuple["Plan", ...] = ()) -> None:
        super().__init__(message)
        self.plans = plans


@dataclass(frozen=True)
class Plan:
    """The route chosen for an all-pairs computation, with its estimates.

    Attributes
    ----------
    route : {"dense", "streaming", "sparse"}
    method : str
        The algorithm: ``"rkleene"``, ``"blocked-fw"``, ... for the dense
        routes, ``"dijkstra"`` or ``"bfs"`` for the sparse one.
    device : {"cpu", "gpu"}
    dtype : numpy.dtype
        The result's dtype.
    n : int
    est_host_bytes, est_device_bytes : int
        Estimated peak memory the computation adds (host, GPU).
    est_seconds : float
    reason : str
        Why this route.
    alternatives : tuple of str
        What else could be done (filled in when a route is refused).
    """

    route: str
    method: str
    device: str
    dtype: np.dtype
    n: int
    est_host_bytes: int
    est_device_bytes: int
    est_seconds: float
    reason: str = ""
    alternatives: tuple[str, ...] = field(default=())

    @property
    def result_bytes(self) -> int:
        """Size of the ``n x n`` result."""
        return self.n * self.n * np.dtype(self.dtype).itemsize

    def summary(self) -> str:
        """One line: route, method, device, dtype, memory and time."""
        dev = f", {_size(self.est_device_bytes)} GPU" if self.est_device_bytes else ""
        return (f"{self.route} {self.method} on {self.device}, {np.dtype(self.dtype).name}: "
                f"result {_size(self.result_bytes)}, peak ~{_size(self.est_host_bytes)} host{dev}, "
                f"~{_duration(self.est_seconds)}")

    def __str__(self) -> str:
        lines = [f"plan      {self.summary()}"]
        if self.reason:
            lines.append(f"          {self.reason}")
        lines += [f"  instead: {a}" for a in self.alternatives]
        return "\n".join(lines)


# -- what the machine has --------------------------------------------------------------
def host_memory_available() -> int:
    """Bytes of host memory available now (``MemAvailable`` of ``/proc/meminfo``, else ``sysconf``).

    >>> host_memory_available() > 0
    True
    """
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 8 * 2**30


def device_memory_available() -> int:
    """Bytes of GPU memory available now: free device memory plus CuPy's pool's free blocks.

    Needs CuPy and a GPU.
    """
    import cupy

    free, _ = cupy.cuda.runtime.memGetInfo()
    return int(free + cupy.get_default_memory_pool().free_bytes())


def cpu_cores() -> int:
    """CPU cores this process may run on.

    >>> cpu_cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# -- exactness ------------------------------------------------------------------------
def float32_exact(semiring_name: str, n: int, weights=None) -> bool:
    """True when every closure entry is exact in float32.

    Sums (``min_plus``, ``max_plus``): integer weights (or none: weight 1)
    whose path sums, at most ``(n - 1) * max |w|``, stay within ``2**24``.
    Selections (``max_min``, ``min_max``): weights that float32 represents.
    Other semirings (products): never assumed.

    Parameters
    ----------
    semiring_name : str
    n : int
        Vertices (a simple path has at most ``n - 1`` arcs).
    weights : array, optional
        The arc weights; ``None`` for an unweighted graph.

    Examples
    --------
    >>> float32_exact("min_plus", 1000, np.array([1.0, 7.0]))
    True
    >>> float32_exact("min_plus", 10**6, np.array([1.0, 70.0]))
    False
    >>> float32_exact("min_plus", 10, np.array([0.5]))
    False
    >>> float32_exact("min_plus", 10, np.array([-2**63, 1]))  # int64's minimum: no wrap-around
    False
    """
    w = None if weights is None else np.asarray(weights.get() if hasattr(weights, "get") else weights)
    if semiring_name in ("min_plus", "max_plus"):
        if w is None or w.size == 0:
            return max(n - 1, 0) <= 2**24
        if w.dtype.kind == "b":
            return max(n - 1, 0) <= 2**24
        if w.dtype.kind == "f" and not bool(np.all(np.isfinite(w) & (w == np.round(w)))):
            return False
        top = max(abs(float(w.min())), abs(float(w.max())))  # not np.abs: it wraps at int64's minimum
        return max(n - 1, 0) * top <= 2**24
    if semiring_name in ("max_min", "min_max"):
        if w is None or w.size == 0 or w.dtype.kind == "b":
            return True
        with np.errstate(over="ignore"):
            return bool(np.all(w.astype(np.float32).astype(w.dtype) == w))
    return False


# -- estimates ----------------------------------------------------------------------------
def in_core_bytes(n: int, dtype, predecessors: bool, method: str) -> int:
    """Bytes an in-core run needs: the matrix, its scratch copies, predecessors and witnesses.

    >>> in_core_bytes(1024, np.float32, False, "rkleene")
    5242880
    """
    s = np.dtype(dtype).itemsize
    nn = n * n
    if method == "squaring":
        return 2 * nn * s + (nn * (4 + 4 + 4) if predecessors else 0)
    if method == "fw":
        return 4 * nn * s + (nn * 5 + nn * 4 if predecessors else 0)
    if predecessors:  # the full-row blocked schedule: D, P, a witness for the other rows, a column panel
        return nn * s + nn * 4 + nn * 4 + n * 256 * (s + 4)
    return nn * s + nn * s // 4  # matrix + one quadrant of scratch


def dense_bytes(n: int, dtype, predecessors: bool, method: str, result_allocated: bool = False) -> int:
    """Peak host bytes of the in-core route on the CPU.

    The result plus, for R-Kleene without predecessors, the strip of scratch
    its in-place products use (:mod:`apsp.rkleene`: a 16th of the result for
    large ``n``); otherwise :func:`in_core_bytes`.  ``result_allocated``: the
    caller already holds the result buffer (``out=`` an in-memory array), so
    only the scratch counts.

    >>> dense_bytes(4096, np.float64, False, "rkleene") / (4096 * 4096 * 8)
    1.0625
    """
    s = np.dtype(dtype).itemsize
    if method in ("rkleene", "auto") and not predecessors:
        h = -(-n // 2)
        strip = h if h <= 512 else max(512, -(-h // 4))
        need = n * n * s + h * strip * s
    else:
        need = in_core_bytes(n, dtype, predecessors, method)
    if result_allocated:
        need -= n * n * s
    return need


def _rate_key(dtype) -> str:
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return "bool"
    if dt.kind in "iu":
        return "int32" if dt.itemsize <= 4 else "int64"
    return "float32" if dt.itemsize <= 4 else "float64"


def dense_seconds(n: int, dtype, device: str, method: str = "rkleene") -> float:
    """Estimated seconds of the dense closure: ``n^3`` multiply-adds at :data:`DENSE_RATES`.

    Repeated squaring does ``log2 n`` times the work, the reference ``"fw"`` about
    twenty times slower than the GEMM-based methods.

    >>> round(dense_seconds(1000, np.float32, "cpu") * cpu_cores() * 12)
    1
    """
    rate = DENSE_RATES[(device, _rate_key(dtype))] * (cpu_cores() if device == "cpu" else 1)
    work = float(n) ** 3
    if method == "squaring":
        work *= max(1.0, np.log2(max(n, 2)))
    elif method == "fw":
        work *= 20.0
    return work / rate


def sparse_batch(n: int, dtype) -> int:
    """Sources per batch of the sparse Dijkstra route: buffers (distances, predecessors) of at most
    256 MiB and a 32nd of the rows (at least 16): an eighth of a float32 result at most.

    >>> sparse_batch(36692, np.float32), sparse_batch(1000, np.float64)
    (457, 31)
    """
    per_row = max(n, 1) * (8 + 4 + np.dtype(dtype).itemsize)
    return int(max(1, min(max(n, 1), SPARSE_BATCH_BYTES // per_row, max(16, n // 32))))


def sparse_bytes(n: int, nnz: int, dtype, result_in_memory: bool = True, weighted: bool = True) -> int:
    """Peak host bytes of the sparse route: the result (unless on disk), one batch of rows, the graph.

    A batch is :func:`sparse_batch` rows of distances and predecessors for
    Dijkstra, a few per-core vectors for BFS.

    >>> sparse_bytes(1000, 5000, np.float32) // 1000
    4632
    """
    if weighted:
        batch = sparse_batch(n, dtype) * n * (8 + 4 + np.dtype(dtype).itemsize)
    else:
        batch = cpu_cores() * n * 32
    graph = (n + 1) * 8 + nnz * 12
    result = n * n * np.dtype(dtype).itemsize if result_in_memory else 0
    return result + batch + 2 * graph


def sparse_seconds(n: int, nnz: int, weighted: bool = True, k: int | None = None) -> float:
    """Estimated seconds of ``k`` (default ``n``) single-source searches over ``n`` vertices and ``nnz`` arcs.

    Dijkstra at :data:`SPARSE_RATE`, breadth-first search (unweighted) at
    :data:`BFS_RATE`, per core; sources run in parallel.

    >>> sparse_seconds(1000, 9000, weighted=False) < sparse_seconds(1000, 9000, weighted=True)
    True
    """
    k = n if k is None else k
    work = float(k) * (n + nnz)
    return work / ((SPARSE_RATE if weighted else BFS_RATE) * cpu_cores())


# -- the decision ------------------------------------------------------------------------
def _candidates(n, dtypes, predecessors, device, method, nnz, weighted, host, dev_budget,
                result_allocated, out_on_disk) -> list[tuple[Plan, bool]]:
    """Every route that could produce the result, each with whether it fits."""
    out: list[tuple[Plan, bool]] = []
    dense_method = "rkleene" if method == "auto" else method
    for dt in dtypes:
        if device == "gpu":
            probe = "rkleene" if method in ("auto", "blocked-fw") else method
            dbytes = in_core_bytes(n, dt, predecessors, probe)
            p = Plan("dense", dense_method, "gpu", dt, n, 0 if result_allocated else n * n * dt.itemsize,
                     dbytes, dense_seconds(n, dt, "gpu", dense_method),
                     reason="in-core on the GPU: the matrix fits the device budget")
            host_ok = p.est_host_bytes <= host
            out.append((p, dev_budget is not None and dbytes <= dev_budget and host_ok))
            if method in ("auto", "blocked-fw", "rkleene"):
                hbytes = n * n * dt.itemsize + (n * n * 4 if predecessors else 0)
                s = Plan("streaming", "blocked-fw", "gpu", dt, n, hbytes, dev_budget or 0,
                         dense_seconds(n, dt, "gpu") / STREAMING_FACTOR,
                         reason="streamed through the GPU: the matrix fits host memory but not the device budget")
                out.append((s, hbytes <= host))
        else:
            b = dense_bytes(n, dt, predecessors, dense_method, result_allocated)
            p = Plan("dense", dense_method, "cpu", dt, n, b, 0, dense_seconds(n, dt, "cpu", dense_method),
                     reason=f"in-core on {cpu_cores()} CPU core(s): fits {_size(host)} of host memory")
            out.append((p, b <= host))
        if nnz is not None and not predecessors:
            sb = sparse_bytes(n, nnz, dt, not (out_on_disk or result_allocated), weighted)
            sm = "dijkstra" if weighted else "bfs"
            where = "rows written to disk" if out_on_disk else "rows written into the result"
            p = Plan("sparse", sm, "cpu", dt, n, sb, 0, sparse_seconds(n, nnz, weighted),
                     reason=f"sparse graph ({nnz:,} arcs): one search per source, {where}")
            out.append((p, sb <= host))
    return out


def plan(
    n: int,
    dtype=None,
    semiring: str = "min_plus",
    *,
    predecessors: bool = False,
    device: str = "cpu",
    method: str = "auto",
    memory_limit: int | None = None,
    device_memory_limit: int | None = None,
    nnz: int | None = None,
    weighted: bool = True,
    exact_float32: bool = False,
    result_allocated: bool = False,
    out_on_disk: bool = False,
    lower_dtype: bool = True,
    routes: tuple[str, ...] = ROUTES,
) -> Plan:
    """Pick the route of an all-pairs computation before anything is allocated.

    Among the candidates (:func:`_candidates`: dense in-core, GPU streaming,
    sparse many-source searches) the fastest one that fits the memory is
    chosen; ties go to the dense route.  With ``dtype=None`` the planner
    chooses float32 where it is exact (``exact_float32``), else float64.

    Parameters
    ----------
    n : int
        Vertices (the result is ``n x n``).
    dtype : dtype, optional
        The result's dtype; ``None``: the planner's choice.  A float64 dtype
        given here is still lowered to float32 when float64 does not fit and
        ``exact_float32`` holds.
    semiring : str
        Its name (only for the messages).
    predecessors : bool
        The predecessor matrix is asked for too (dense routes only).
    device : {"cpu", "gpu"}
    method : str
        As in :func:`apsp.shortest_paths`; ``"auto"`` lets the planner pick.
    memory_limit : int, optional
        Host bytes the computation may add; default :data:`HOST_HEADROOM` of
        :func:`host_memory_available`.
    device_memory_limit : int, optional
        GPU bytes; default 85% of :func:`device_memory_available` (GPU only).
    nnz : int, optional
        Arcs of the graph; given, the sparse route is a candidate.
    weighted : bool
        The graph has weights (Dijkstra) rather than unit arcs (BFS).
    exact_float32 : bool
        float32 represents every result exactly (:func:`float32_exact`).
    result_allocated : bool
        The caller already holds the result buffer in memory (``out=``).
    out_on_disk : bool
        The result goes to a ``numpy.memmap`` (the sparse route writes it row
        by row without holding it in memory).
    lower_dtype : bool
        A given float64 may be lowered to an exact float32 when it does not
        fit; ``False`` keeps it (float32 is then only named as an alternative).
    routes : tuple of str
        The routes the caller can run (:func:`apsp.shortest_paths` runs the
        dense and streaming ones; ``nnz`` then only informs the messages).

    Returns
    -------
    Plan

    Raises
    ------
    PlanError
        Nothing fits; the message gives the estimates and the alternatives.

    Examples
    --------
    >>> p = plan(1000, np.float64, memory_limit=2**30)
    >>> p.route, p.dtype.name, p.est_host_bytes
    ('dense', 'float64', 10000000)
    >>> plan(4000, None, nnz=16000, weighted=False, exact_float32=True, memory_limit=2**27).route
    'sparse'
    """
    if int(n) < 0:
        raise SemiringError(f"n must be a non-negative number of vertices, got {n!r}")
    n = int(n)
    if device not in ("cpu", "gpu"):
        raise SemiringError(f"device must be 'cpu' or 'gpu' here, got {device!r}")
    host = _limit("memory_limit", memory_limit)
    if host is None:
        host = int(HOST_HEADROOM * host_memory_available())
    dev_budget = _limit("device_memory_limit", device_memory_limit)
    if device == "gpu" and dev_budget is None:
        dev_budget = int(0.85 * device_memory_available())
    dtypes = _dtypes(dtype, exact_float32 and (lower_dtype or dtype is None))
    cands = [(p, ok) for p, ok in _candidates(n, dtypes, predecessors, device, method, nnz, weighted, host,
                                              dev_budget, result_allocated, out_on_disk) if p.route in routes]
    fitting = [p for p, ok in cands if ok]
    if fitting:
        # a given dtype is kept whenever one of its routes fits
        pool = [p for p in fitting if dtype is None or p.dtype == dtypes[0]] or fitting
        order = {r: i for i, r in enumerate(ROUTES)}
        return min(pool, key=lambda p: (p.est_seconds, order[p.route]))
    raise _refusal(n, semiring, cands, host, dev_budget, device, nnz, weighted, exact_float32)


def _limit(name: str, value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of bytes, got {type(value).__name__}")
    if int(value) <= 0:
        raise SemiringError(f"{name} must be a positive number of bytes, got {value!r}")
    return int(value)


def _dtypes(dtype, exact_float32: bool) -> list[np.dtype]:
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    if dtype is None:
        return [f32, f64] if exact_float32 else [f64]
    dt = np.dtype(dtype)
    if dt == f64 and exact_float32:
        return [f64, f32]
    return [dt]


def _refusal(n, semiring, cands, host, dev_budget, device, nnz, weighted, exact_float32) -> PlanError:
    best = min((p for p, _ in cands), key=lambda p: p.est_host_bytes)
    dt = np.dtype(best.dtype)
    gpu = f" and {_size(dev_budget)} of GPU memory" if device == "gpu" else ""
    lines = [
        f"the all-pairs result over {semiring} ({n:,} x {n:,} {dt.name} = {_size(n * n * dt.itemsize)}) "
        f"does not fit: {_size(host)} of host memory{gpu} available; the least any route needs is "
        f"{_size(best.est_host_bytes)} ({best.route}, ~{_duration(best.est_seconds)})",
        "alternatives:",
    ]
    alts = []
    if dt.itemsize > 4:
        f32 = n * n * 4
        alts.append(f"float32 ({_size(f32)}): dtype='float32'"
                    + ("; exact here" if exact_float32 else "; exact only for integer weights whose path sums "
                       "stay below 2**24"))
    alts.append("only the rows you need: graphs.multi_source_sssp(G, sources) "
                f"({_size(n * (dt.itemsize + 4))} per source row)")
    alts.append("a disk-backed result: graphs.all_pairs_shortest_paths(G, out=numpy.lib.format.open_memmap("
                f"'D.npy', mode='w+', dtype='{dt.name}', shape=({n}, {n}))), written row by row"
                + (f" (~{_duration(sparse_seconds(n, nnz, weighted))})" if nnz is not None else ""))
    if device == "cpu":
        alts.append(f"a GPU: device='gpu' (~{_duration(dense_seconds(n, np.float32, 'gpu'))} in float32; "
                    "streams from host memory when the device is too small)")
    alts.append("a larger budget, if you know better: memory_limit=<bytes>")
    lines += [f"  - {a}" for a in alts]
    return PlanError("\n".join(lines), tuple(p for p, _ in cands))


def _size(b: float) -> str:
    b = float(b)
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= scale:
            return f"{b / scale:,.1f} {unit}"
    return f"{int(b)} B"


def _duration(s: float) -> str:
    if s < 1:
        return f"{s * 1000:.0f} ms"
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"
