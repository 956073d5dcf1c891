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
    on the GPU (:mod:`apsp.methods.rkleene`), and with predecessors the ``P`` and
    witness matrices.  ``float32`` is chosen when it
    is exact (integer weights whose path sums stay below ``2**24``, or an
    unweighted graph) and the dtype is left to the planner.
``"streaming"``
    The out-of-core blocked Floyd-Warshall of :mod:`apsp.streaming`: the matrix
    stays in (pinned) host memory and row panels stream through the GPU, or
    through every GPU of the run (``gpus``), which share the slabs of each
    round.  Taken when the matrix fits in host memory but not in the device
    budget (of one GPU, or of each GPU for the multi-GPU route).
``"multi-gpu"``
    Row blocks on several GPUs of one host (:mod:`apsp.multi_device`).

A graph's other route, one search per source, is planned by
:func:`graphs.plan_all_pairs` over these candidates (:func:`candidates`,
:func:`choose`, :func:`refusal`): ``apsp`` knows matrices, not graphs.

Each decision is one small function (in the style of ``opt_einsum``'s
backend dispatch): :func:`host_memory_available`, :func:`memory_budget`,
:func:`device_memory_available`, :func:`float32_exact`, :func:`dense_bytes`,
:func:`dense_seconds`, :func:`candidates` and :func:`plan`, which
compares the candidates.

Memory.  The host budget is :data:`HOST_HEADROOM` of
:func:`apsp.memory.usable_memory`: the least of the machine's available
memory, the ``ulimit -v`` / ``ulimit -d`` headroom (``RLIMIT_AS``,
``RLIMIT_DATA``) and the control group's limit, so a plan made in a container
or under ``ulimit`` fits where it runs.  A result memory-mapped from a file
(``out_on_disk``) needs no memory but still needs address space: it must fit
the ``RLIMIT_AS`` headroom.

Times.  For ``n >= CALIBRATE_FROM`` on the CPU or the GPU, the dense times come
from rates measured in this process, once per kernel, and cached
(:func:`measured_gemm_rate`, :func:`measured_fw_step`): the GEMM-based methods
(R-Kleene, blocked Floyd-Warshall, repeated squaring) from a
:data:`GEMM_PROBE`-sized product of the very GEMM the closure calls (its
semiring and dtype), scaled by ``n / (n + HALF_RATE_N[method])`` (their
recursion and base cases run below the GEMM's rate at small ``n``; fitted
against full runs on a 2-core AMD EPYC); the reference ``"fw"`` from a few of
its own rank-1 steps on an ``n x n`` matrix (at most :data:`FW_PROBE_MAX`:
beyond that a step's time grows as ``n^2``), since its speed depends on
whether the matrix and its temporaries fit the caches.  The probes see the
machine as it is (its other load included), which constants cannot.  Repeated
squaring is counted at :func:`squarings`: its most, ``ceil(log2 n)``, unless the
caller knows or estimates the arcs of the longest shortest path
(``path_arcs``).  Small ``n`` and custom semirings use the constants below.

Constant rates.  :data:`DENSE_RATES` (multiply-adds per second per CPU
core, or per GPU).  They are conservative figures from measurements:
the CPU GEMM ran at 36.7 G float32 min-plus/s on a 2-core AVX2 EPYC (63 G/s
with AVX-512), the H200's float32 add+min ceiling is 14.8 T/s.  Estimates are meant to
be within a factor of two, which is what a decision needs.
"""

from __future__ import annotations

import numbers
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

import semiring as sr
from semiring.backend import gpu_available
from semiring.dense import matmul_into
from semiring.errors import SemiringError
from semiring.families import FAMILIES

from .fw import floyd_warshall_inplace
from .memory import SOURCES, memory_limits, usable_memory
from .methods import MULTI_GPU, TABLE
from .methods.squaring import most_squarings
from .multi_device import default_block

if TYPE_CHECKING:
    from semiring.array_types import DTypeLike

__all__ = [
    "Plan",
    "PlanError",
    "plan",
    "candidates",
    "candidate_dtypes",
    "check_path_arcs",
    "choose",
    "refusal",
    "Budgets",
    "budgets",
    "ROUTES",
    "format_bytes",
    "format_seconds",
    "host_memory_available",
    "memory_budget",
    "device_memory_available",
    "float32_exact",
    "dense_bytes",
    "dense_seconds",
    "squarings",
    "in_core_bytes",
    "measured_gemm_rate",
    "measured_fw_step",
    "DENSE_RATES",
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
#: Fraction of the available host memory a plan may use (the rest is left to the system).
HOST_HEADROOM = 0.85
#: Host bytes assumed when no memory source can be read (not Linux, no ``sysconf``).
FALLBACK_MEMORY = 8 * 2**30

#: ``n`` from which dense times come from measured rates (below it the work takes a few milliseconds).
CALIBRATE_FROM = 1000
#: Seconds each rate probe runs for at least: long enough to see the machine's other load, not only a quiet slice.
PROBE_SECONDS = 0.1
#: Size of the square GEMM the rate probe times, per device.
GEMM_PROBE = {"cpu": 384, "gpu": 2048}
#: The closure runs at ``n / (n + HALF_RATE_N[method])`` of the probe's GEMM rate (measured on 2 AMD EPYC cores:
#: R-Kleene and blocked Floyd-Warshall 0.8-0.9 of it at n = 1000 (leaves, panels), repeated squaring's
#: whole-matrix products 1.0-1.4).
HALF_RATE_N = {name: m.half_rate_n for name, m in TABLE.items() if m.half_rate_n is not None}
#: The multi-GPU route: fraction of ``gpus`` times the one-GPU rate it reaches (0.98 at n = 65536 on 4 H200s,
#: ``benchmarks/results/multi-gpu-4x-h200.md``) and seconds it spends starting its lanes (threads, streams).
MULTI_GPU_EFFICIENCY = 0.95
MULTI_GPU_START_S = 0.05
#: Work with predecessors, relative to distances only (the Pi update's witnesses; measured 1.2x-1.5x).
PREDECESSOR_FACTOR = 1.5
#: Rank-1 steps the reference Floyd-Warshall probe runs untimed (the allocator settles), then times (at least).
FW_PROBE_WARMUP = 3
FW_PROBE_STEPS = 4
#: Largest matrix that probe runs on; a step on a larger one is scaled by ``n^2``.
FW_PROBE_MAX = 4096

#: The matrix routes, in the order that breaks ties of time.
ROUTES = ("dense", "streaming", "multi-gpu")


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
    route : str
        One of :data:`ROUTES`, or ``"sparse"`` for a graph's searches
        (:func:`graphs.plan_all_pairs`).
    method : str
        The algorithm: ``"rkleene"``, ``"blocked-fw"``, ... for the matrix
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
        dev = f", {format_bytes(self.est_device_bytes)} GPU" if self.est_device_bytes else ""
        return (f"{self.route} {self.method} on {self.device}, {np.dtype(self.dtype).name}: "
                f"result {format_bytes(self.result_bytes)}, peak ~{format_bytes(self.est_host_bytes)} host{dev}, "
                f"~{format_seconds(self.est_seconds)}")

    def __str__(self) -> str:
        lines = [f"plan      {self.summary()}"]
        if self.reason:
            lines.append(f"          {self.reason}")
        lines += [f"  instead: {a}" for a in self.alternatives]
        return "\n".join(lines)


# -- what the machine has --------------------------------------------------------------
def host_memory_available() -> int:
    """Bytes of host memory this process may still use: :func:`apsp.memory.usable_memory`.

    The least of the machine's available memory, the ``ulimit -v`` and
    ``ulimit -d`` headroom and the control group's limit less its usage
    (:mod:`apsp.memory` says how each is read); :data:`FALLBACK_MEMORY` when
    none can be read.

    >>> host_memory_available() >= 0
    True
    """
    usable = usable_memory()
    return FALLBACK_MEMORY if usable is None else usable


def memory_budget(memory_limit: int | None = None) -> tuple[int, str]:
    """Host bytes a plan may use, and where the figure comes from (for messages).

    ``memory_limit`` when given, else :data:`HOST_HEADROOM` of
    :func:`host_memory_available`; the text then names the limit that binds
    (:data:`apsp.memory.SOURCES`).

    >>> memory_budget(2**30)
    (1073741824, 'memory_limit')
    >>> memory_budget()[0] <= host_memory_available()
    True
    """
    limit = _limit("memory_limit", memory_limit)
    if limit is not None:
        return limit, "memory_limit"
    return _budget_of(memory_limits())


def _budget_of(limits: dict[str, int]) -> tuple[int, str]:
    """:func:`memory_budget` from one reading of :func:`apsp.memory.memory_limits`."""
    usable = min(limits.values()) if limits else FALLBACK_MEMORY
    note = f"{HOST_HEADROOM:.0%} of {format_bytes(usable)} usable"
    if limits:
        note += f": {SOURCES[min(limits, key=limits.__getitem__)]}"
    return int(HOST_HEADROOM * usable), note


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
def float32_exact(semiring_name: str, n: int, weights: Any = None) -> bool:
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
    fam = FAMILIES.get(semiring_name)  # None for a custom semiring: never exact by this rule
    caps = None if fam is None else fam.capabilities
    if caps is not None and caps.mul_is_plus:
        if w is None or w.size == 0:
            return max(n - 1, 0) <= 2**24
        if w.dtype.kind == "b":
            return max(n - 1, 0) <= 2**24
        if w.dtype.kind == "f" and not bool(np.all(np.isfinite(w) & (w == np.round(w)))):
            return False
        top = max(abs(float(w.min())), abs(float(w.max())))  # not np.abs: it wraps at int64's minimum
        return max(n - 1, 0) * top <= 2**24
    if caps is not None and caps.selective and caps.mul_selective and not caps.bitpacked:
        if w is None or w.size == 0 or w.dtype.kind == "b":
            return True
        with np.errstate(over="ignore"):
            return bool(np.all(w.astype(np.float32).astype(w.dtype) == w))
    return False


# -- estimates ----------------------------------------------------------------------------
def in_core_bytes(n: int, dtype: DTypeLike, predecessors: bool, method: str) -> int:
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


def dense_bytes(n: int, dtype: DTypeLike, predecessors: bool, method: str, result_allocated: bool = False) -> int:
    """Peak host bytes of the in-core route on the CPU.

    The result plus, for R-Kleene without predecessors, the strip of scratch
    its in-place products use (:mod:`apsp.methods.rkleene`: a 16th of the result for
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


def squarings(n: int, path_arcs: int | None = None) -> int:
    """Squarings repeated squaring does: enough to cover paths of ``path_arcs`` arcs, plus the one that
    finds nothing changed; at most ``ceil(log2 n)`` (:func:`apsp.methods.squaring.most_squarings`), and that
    when ``path_arcs`` is not known.

    >>> squarings(2000), squarings(2000, 84), squarings(2000, 10**6)
    (11, 8, 11)
    """
    most = max(1, most_squarings(int(n)))
    if path_arcs is None:
        return most
    return int(min(most, max(1, int(np.ceil(np.log2(max(int(path_arcs), 1))))) + 1))


def _rate_key(dtype: DTypeLike) -> str:
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return "bool"
    if dt.kind in "iu":
        return "int32" if dt.itemsize <= 4 else "int64"
    return "float32" if dt.itemsize <= 4 else "float64"


def dense_seconds(n: int, dtype: DTypeLike, device: str, method: str = "rkleene", *, semiring: str = "min_plus",
                  predecessors: bool = False, calibrate: bool | None = None, path_arcs: int | None = None) -> float:
    """Estimated seconds of the dense closure of ``n`` vertices by ``method``.

    With ``calibrate`` (default: ``n >= CALIBRATE_FROM``, a built-in
    semiring, and for the GPU one that CuPy sees), from rates measured in this process (see the module
    docstring): ``n^3`` multiply-adds (times ``ceil(log2 n)`` for repeated
    squaring) at :func:`measured_gemm_rate` scaled by ``n / (n +
    HALF_RATE_N[method])``, or for the reference ``"fw"`` ``n`` steps of
    :func:`measured_fw_step`.  Without, from :data:`DENSE_RATES`, the
    reference ``"fw"`` taken as twenty times slower than the GEMM-based
    methods.  Predecessors cost :data:`PREDECESSOR_FACTOR` times more in the
    GEMM-based methods (the probe of ``"fw"`` carries them).  Repeated
    squaring is counted at :func:`squarings` (``path_arcs``: the arcs of the
    longest shortest path, if known or estimated).

    A measurement runs the kernel on up to ``GEMM_PROBE`` / ``FW_PROBE_MAX``
    sized arrays, so call it with ``calibrate=True`` only when those fit (the
    planner does so only for routes that fit).

    >>> round(dense_seconds(1000, np.float32, "cpu", calibrate=False) * cpu_cores() * 12)
    1
    >>> dense_seconds(2000, np.float32, "cpu") > dense_seconds(1000, np.float32, "cpu")
    True
    """
    n = int(n)
    if calibrate is None:
        calibrate = (n >= CALIBRATE_FROM and _builtin(semiring) is not None and device in GEMM_PROBE
                     and (device == "cpu" or gpu_available()))
    steps = float(squarings(n, path_arcs)) if method == "squaring" else 1.0
    if calibrate and method == "fw":
        m = min(n, FW_PROBE_MAX)
        return n * measured_fw_step(m, dtype, device, semiring, predecessors) * (n / m) ** 2
    if calibrate:
        rate = measured_gemm_rate(dtype, device, semiring) * n / (n + HALF_RATE_N.get(method, HALF_RATE_N["rkleene"]))
        return float(n) ** 3 * steps * (PREDECESSOR_FACTOR if predecessors else 1.0) / rate
    rate = DENSE_RATES[(device, _rate_key(dtype))] * (cpu_cores() if device == "cpu" else 1)
    work = float(n) ** 3 * steps
    if method == "fw":
        work *= 20.0
    return work / rate


# -- measured rates ---------------------------------------------------------------------------
#: Rates measured in this process: ``("gemm", semiring, dtype, device) -> multiply-adds/s`` and
#: ``("fw", semiring, dtype, device, m, predecessors) -> seconds per step``.  Clear it to measure again.
MEASURED: dict[tuple[Any, ...], float] = {}
#: Held while a rate is measured: threads planning at once measure each rate once, one probe at a time
#: (probes running side by side would time each other), and all plan with the same figure.
_MEASURE_LOCK = threading.RLock()


def measured_gemm_rate(dtype: DTypeLike, device: str = "cpu", semiring: str = "min_plus") -> float:
    """Multiply-adds per second of the closure's GEMM (``C (+)= A (x) B``), measured once per process.

    :data:`GEMM_PROBE`-sized products, repeated for at least
    :data:`PROBE_SECONDS` (and three times; after one untimed call, which
    also loads or compiles the kernel), of the kernel that
    :class:`apsp.methods.closure_state.Job` calls (:func:`semiring.dense.matmul_into`),
    for ``semiring`` and ``dtype`` on ``device``; their mean rate, cached in
    :data:`MEASURED`.

    >>> measured_gemm_rate(np.float32) > 1e8
    True
    """
    dt = np.dtype(dtype)

    def measure() -> float:
        S = sr.get(semiring)
        p = GEMM_PROBE[device]
        xp, sync = _device_module(device)
        A = xp.asarray(_probe_matrix(p, dt, 1))
        B = xp.asarray(_probe_matrix(p, dt, 2))
        C = xp.asarray(_probe_matrix(p, dt, 3))

        def once() -> None:
            matmul_into(S, A, B, C, None, True)
            sync()

        once()
        reps, start = 0, time.perf_counter()
        while reps < 3 or time.perf_counter() - start < PROBE_SECONDS:
            once()
            reps += 1
        return reps * float(p) ** 3 / max(time.perf_counter() - start, 1e-9)

    return _measured_once(("gemm", semiring, dt.name, device), measure)


def _measured_once(key: tuple[Any, ...], measure: Callable[[], float]) -> float:
    """``MEASURED[key]``, from ``measure()`` the first time: once per process, by one thread at a time."""
    found = MEASURED.get(key)
    if found is None:
        with _MEASURE_LOCK:
            found = MEASURED.get(key)
            if found is None:
                found = MEASURED[key] = measure()
    return found


class _StopProbe(Exception):
    """Raised by the probe's progress counter to end a Floyd-Warshall run after its timed steps."""


class _StepClock:
    """A progress object for :func:`apsp.fw.floyd_warshall_inplace`: after ``warmup`` steps, times at least
    ``steps`` more for at least ``seconds``, then stops the run."""

    def __init__(self, warmup: int, steps: int, seconds: float, sync: Callable[[], object]) -> None:
        self.warmup, self.steps, self.seconds, self.sync = warmup, steps, seconds, sync
        self.done, self.start = 0, 0.0
        self.per_step: float | None = None

    def update(self, _work: float) -> None:
        self.sync()
        now = time.perf_counter()
        self.done += 1
        if self.done == self.warmup:
            self.start = now
        timed = self.done - self.warmup
        if timed > 0:
            self.per_step = (now - self.start) / timed
            if timed >= self.steps and now - self.start >= self.seconds:
                raise _StopProbe


def measured_fw_step(m: int, dtype: DTypeLike, device: str = "cpu", semiring: str = "min_plus",
                     predecessors: bool = False) -> float:
    """Seconds of one rank-1 step of the reference Floyd-Warshall (``"fw"``) on an ``m x m`` matrix.

    :func:`apsp.fw.floyd_warshall_inplace` itself runs on an ``m x m``
    matrix (and predecessors) and is stopped after :data:`FW_PROBE_WARMUP`
    untimed steps and at least :data:`FW_PROBE_STEPS` timed ones lasting
    :data:`PROBE_SECONDS`; their mean, once per ``(m, dtype, device,
    predecessors)`` per process, cached in :data:`MEASURED`.  It allocates
    what the run would: about three ``m x m`` arrays.

    >>> measured_fw_step(600, np.float32) > 0
    True
    >>> measured_fw_step(1, np.float32) > 0  # one step, none timed: the minimum
    True
    """
    dt = np.dtype(dtype)

    def measure() -> float:
        S = sr.get(semiring)
        xp, sync = _device_module(device)
        D = xp.ones((m, m), dtype=dt)
        P = xp.zeros((m, m), dtype=np.int32) if predecessors else None
        warmup = min(FW_PROBE_WARMUP, max(0, int(m) - 1))  # a tiny matrix has fewer steps than that
        clock = _StepClock(warmup, FW_PROBE_STEPS, PROBE_SECONDS, sync)
        clock.start = time.perf_counter()
        try:
            floyd_warshall_inplace(S, D, P, progress=clock)
        except _StopProbe:
            pass
        return max(clock.per_step or 0.0, 1e-9)

    return _measured_once(("fw", semiring, dt.name, device, int(m), bool(predecessors)), measure)


def _builtin(semiring: str) -> sr.Semiring | None:
    try:
        return sr.get(semiring)
    except SemiringError:
        return None


def _device_module(device: str) -> tuple[Any, Callable[[], object]]:
    """The array module of ``device`` and a function that waits for it."""
    if device == "gpu":
        import cupy

        return cupy, cupy.cuda.get_current_stream().synchronize
    return np, lambda: None


def _probe_matrix(m: int, dtype: np.dtype, seed: int) -> np.ndarray:
    """An ``m x m`` host matrix of small positive values (``True`` for bool): valid in every semiring's kernel."""
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return rng.random((m, m)) < 0.5
    return rng.integers(1, 10, size=(m, m)).astype(dtype)


# -- the decision ------------------------------------------------------------------------
def multi_gpu_bytes(n: int, dtype: DTypeLike, predecessors: bool, gpus: int, block: int) -> int:
    """GPU bytes each of ``gpus`` GPUs needs for the multi-GPU route: its rows, two receive buffers, scratch.

    >>> multi_gpu_bytes(65536, np.float32, False, 4, 4096) / 2**30  # 4 GiB of rows, 2 GiB received, scratch
    6.25
    """
    item = np.dtype(dtype).itemsize + (4 if predecessors else 0)
    rows = -(-n // gpus)
    witness = rows * n * 4 if predecessors else 0
    return int(rows * n * item + 2 * block * n * item + rows * block * np.dtype(dtype).itemsize + witness)


@dataclass(frozen=True)
class Budgets:
    """The memory a plan may use, read once: host bytes (and where that figure comes from), GPU
    bytes (``None`` on the CPU), and the address space a memory-mapped result may take (``None``: no limit)."""

    host: int
    host_note: str
    device: int | None
    mappable: int | None


def budgets(memory_limit: int | None = None, device_memory_limit: int | None = None,
            device: str = "cpu") -> Budgets:
    """Every memory figure a plan needs, from one reading of the limits (:func:`apsp.memory.memory_limits`).

    >>> b = budgets(2**30)
    >>> b.host, b.host_note, b.device
    (1073741824, 'memory_limit', None)
    """
    limits = memory_limits()  # one reading of every source, for the budget and the address space
    given = _limit("memory_limit", memory_limit)
    host, host_note = (given, "memory_limit") if given is not None else _budget_of(limits)
    dev_budget = _limit("device_memory_limit", device_memory_limit)
    if device == "gpu" and dev_budget is None:
        dev_budget = int(0.85 * device_memory_available())
    room = limits.get("address_space")  # a memory-mapped result needs address space, not memory
    return Budgets(host, host_note, dev_budget, None if room is None else int(HOST_HEADROOM * room))


def candidate_dtypes(dtype: DTypeLike | None, exact_float32: bool, semiring: sr.Semiring | str = "min_plus",
                     name: str = "dtype") -> list[np.dtype]:
    """The result dtypes a plan weighs, the asked (or default) one first.

    ``None`` asks for float32 where it is exact, else float64; a float64 that
    is exact in float32 may be lowered when float64 does not fit.  An asked
    dtype that ``semiring`` does not accept is a :class:`DTypeError` naming
    ``name`` (the argument it came from).

    >>> [d.name for d in candidate_dtypes(None, True)], [d.name for d in candidate_dtypes("float64", True)]
    (['float32', 'float64'], ['float64', 'float32'])
    >>> candidate_dtypes(np.complex128, True)
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: min_plus does not support dtype complex128 of dtype; use one of: float32, float64, int32, int64
    """
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    if dtype is None:
        return [f32, f64] if exact_float32 else [f64]
    dt = sr.get(semiring).check_dtype(name, dtype)
    if dt == f64 and exact_float32:
        return [f64, f32]
    return [dt]


def candidates(n: int, dtypes: list[np.dtype], budget: Budgets, *, predecessors: bool = False,
               device: str = "cpu", method: str = "auto", result_allocated: bool = False,
               semiring: str = "min_plus", path_arcs: int | None = None,
               gpus: int = 1) -> list[tuple[Plan, bool]]:
    """Every matrix route that could produce the result, each with whether it fits ``budget``.

    Times of routes that fit come from measured rates (:func:`dense_seconds`);
    the others', shown only in a refusal, from the constants, so nothing of
    their size is allocated.

    >>> [(p.route, ok) for p, ok in candidates(100, [np.dtype(np.float64)], budgets(2**30))]
    [('dense', True)]
    """
    out: list[tuple[Plan, bool]] = []
    dense_method = "rkleene" if method in ("auto", MULTI_GPU) else method
    host, dev_budget = budget.host, budget.device

    def seconds(dt: np.dtype, dev: str, m: str, fits: bool) -> float:
        return dense_seconds(n, dt, dev, m, semiring=semiring, predecessors=predecessors,
                             calibrate=None if fits else False, path_arcs=path_arcs)

    for dt in dtypes:
        if device == "gpu":
            probe = "rkleene" if method in ("auto", "blocked-fw") else method
            dbytes = in_core_bytes(n, dt, predecessors, probe)
            hbytes = 0 if result_allocated else n * n * dt.itemsize
            ok = dev_budget is not None and dbytes <= dev_budget and hbytes <= host
            p = Plan("dense", dense_method, "gpu", dt, n, hbytes, dbytes, seconds(dt, "gpu", dense_method, ok),
                     reason="in-core on the GPU: the matrix fits the device budget")
            if method != MULTI_GPU:
                out.append((p, ok))
            if method == MULTI_GPU or (gpus > 1 and method == "auto"):
                gpus = max(1, gpus)
                each = multi_gpu_bytes(n, dt, predecessors, gpus, default_block(n, gpus))
                ok = dev_budget is not None and each <= dev_budget and hbytes <= host
                one = seconds(dt, "gpu", "blocked-fw", ok and p.est_device_bytes <= (dev_budget or 0))
                m = Plan("multi-gpu", MULTI_GPU, "gpu", dt, n, hbytes, each,
                         MULTI_GPU_START_S * gpus + one / (gpus * MULTI_GPU_EFFICIENCY),
                         reason=f"row blocks on {gpus} GPUs: {format_bytes(each)} on each")
                out.append((m, ok))
            if method in ("auto", "blocked-fw", "rkleene", MULTI_GPU):
                lanes = max(1, gpus) if method in ("auto", MULTI_GPU) else 1
                hbytes = n * n * dt.itemsize + (n * n * 4 if predecessors else 0)
                ok = hbytes <= host
                rate = STREAMING_FACTOR * (1 if lanes == 1 else lanes * MULTI_GPU_EFFICIENCY)
                where = "the GPU" if lanes == 1 else f"{lanes} GPUs"
                s = Plan("streaming", "blocked-fw", "gpu", dt, n, hbytes, dev_budget or 0,
                         seconds(dt, "gpu", "blocked-fw", ok) / rate,
                         reason=f"streamed through {where}: the matrix fits host memory but not the device budget")
                out.append((s, ok))
        else:
            b = dense_bytes(n, dt, predecessors, dense_method, result_allocated)
            ok = b <= host
            p = Plan("dense", dense_method, "cpu", dt, n, b, 0, seconds(dt, "cpu", dense_method, ok),
                     reason=f"in-core on {cpu_cores()} CPU core(s): fits {format_bytes(host)} of host memory")
            out.append((p, ok))
    return out


def choose(cands: list[tuple[Plan, bool]], dtype: DTypeLike | None = None, order: tuple[str, ...] = ROUTES) -> Plan | None:
    """The fastest candidate that fits (ties to the earlier route of ``order``), or ``None``.

    A ``dtype`` that was asked for is kept whenever one of its routes fits.

    >>> choose(candidates(100, [np.dtype(np.float64)], budgets(2**30))).route
    'dense'
    >>> choose([]) is None
    True
    """
    fitting = [p for p, ok in cands if ok]
    if not fitting:
        return None
    pool = [p for p in fitting if dtype is None or p.dtype == np.dtype(dtype)] or fitting
    rank = {r: i for i, r in enumerate(order)}
    return min(pool, key=lambda p: (p.est_seconds, rank.get(p.route, len(order))))


def plan(
    n: int,
    dtype: DTypeLike | None = None,
    semiring: str = "min_plus",
    *,
    predecessors: bool = False,
    device: str = "cpu",
    method: str = "auto",
    memory_limit: int | None = None,
    device_memory_limit: int | None = None,
    exact_float32: bool = False,
    result_allocated: bool = False,
    lower_dtype: bool = True,
    routes: tuple[str, ...] = ROUTES,
    path_arcs: int | None = None,
    gpus: int = 1,
) -> Plan:
    """Pick the route of a matrix's closure before anything is allocated.

    Among the candidates (:func:`candidates`: in-core on the CPU or the GPU,
    streamed through the GPU, row blocks on several GPUs) the fastest one that
    fits the memory is chosen (:func:`choose`); ties go to the dense route.
    With ``dtype=None`` the planner chooses float32 where it is exact
    (``exact_float32``), else float64.

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
        The predecessor matrix is asked for too.
    device : {"cpu", "gpu"}
    method : str
        As in :func:`apsp.shortest_paths`; ``"auto"`` lets the planner pick.
    memory_limit : int, optional
        Host bytes the computation may add; default :data:`HOST_HEADROOM` of
        :func:`host_memory_available` (the least of the available memory, the
        ``ulimit -v`` / ``ulimit -d`` headroom and the control group's limit).
    device_memory_limit : int, optional
        GPU bytes; default 85% of :func:`device_memory_available` (GPU only).
    exact_float32 : bool
        float32 represents every result exactly (:func:`float32_exact`).
    result_allocated : bool
        The caller already holds the result buffer in memory (``out=``).
    lower_dtype : bool
        A given float64 may be lowered to an exact float32 when it does not
        fit; ``False`` keeps it (float32 is then only named as an alternative).
    routes : tuple of str
        The routes the caller can run (a subset of :data:`ROUTES`).
    path_arcs : int, optional
        Arcs of the longest shortest path, known or estimated: repeated
        squaring's estimate then counts :func:`squarings` for it rather than
        the most, ``ceil(log2 n)``.
    gpus : int
        GPUs the run may use (GPU only): with more than one, the multi-GPU
        route (:mod:`apsp.multi_device`, ``device_memory_limit`` per GPU) is
        a candidate, chosen when it is the fastest that fits.

    Returns
    -------
    Plan

    Raises
    ------
    PlanError
        Nothing fits; the message gives the estimates and the alternatives.

    See Also
    --------
    graphs.plan_all_pairs : the same over a graph, where one search per source
        is one more route.

    Examples
    --------
    >>> p = plan(1000, np.float64, memory_limit=2**30)
    >>> p.route, p.dtype.name, p.est_host_bytes
    ('dense', 'float64', 10000000)
    >>> plan(20000, np.float64, memory_limit=2**30)
    Traceback (most recent call last):
    ...
    apsp.planner.PlanError: the all-pairs result over min_plus (20,000 x 20,000 float64 = 3.0 GiB) does not fit: 1.0 GiB of host memory available; the least any route needs is 3.2 GiB (dense, ...)
    ...
    """
    if int(n) < 0:
        raise SemiringError(f"n must be a non-negative number of vertices, got {n!r}")
    n = int(n)
    if device not in ("cpu", "gpu"):
        raise SemiringError(f"device must be 'cpu' or 'gpu' here, got {device!r}")
    budget = budgets(memory_limit, device_memory_limit, device)
    dtypes = candidate_dtypes(dtype, exact_float32 and (lower_dtype or dtype is None), semiring)
    check_path_arcs(path_arcs)
    cands = [(p, ok) for p, ok in candidates(n, dtypes, budget, predecessors=predecessors, device=device,
                                             method=method, result_allocated=result_allocated,
                                             semiring=semiring, path_arcs=path_arcs, gpus=gpus)
             if p.route in routes]
    best = choose(cands, None if dtype is None else dtypes[0])
    if best is not None:
        return best
    raise refusal(n, semiring, cands, budget, device, exact_float32)


def check_path_arcs(path_arcs: Any) -> None:
    """``path_arcs`` is ``None`` or a non-negative integer, else a ``ValueError`` naming it.

    >>> check_path_arcs(-1)
    Traceback (most recent call last):
    ...
    semiring.errors.SemiringError: path_arcs must be a non-negative integer, got -1
    """
    if path_arcs is not None and (isinstance(path_arcs, bool) or not isinstance(path_arcs, numbers.Integral)
                                  or path_arcs < 0):
        raise SemiringError(f"path_arcs must be a non-negative integer, got {path_arcs!r}")


def _limit(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of bytes, got {type(value).__name__}")
    count = int(value)  # type: ignore[call-overload]  # a Real has __int__ at run time; typeshed's Real lacks it
    if count <= 0:
        raise SemiringError(f"{name} must be a positive number of bytes, got {value!r}")
    return count


def refusal(n: int, semiring: str, cands: list[tuple[Plan, bool]], budget: Budgets, device: str,
            exact_float32: bool, note: str = "", alternatives: tuple[str, ...] = ()) -> PlanError:
    """The :class:`PlanError` for ``cands``, none of which fits: the least any needs, and what to do instead.

    ``note`` is added to the first line; ``alternatives`` (the caller's own)
    come before the matrix-level ones (float32, a GPU, a larger budget).
    """
    best = min((p for p, _ in cands), key=lambda p: p.est_host_bytes)
    dt = np.dtype(best.dtype)
    gpu = f" and {format_bytes(budget.device)} of GPU memory" if device == "gpu" and budget.device is not None else ""
    why = "" if budget.host_note == "memory_limit" else f" ({budget.host_note})"
    lines = [
        f"the all-pairs result over {semiring} ({n:,} x {n:,} {dt.name} = {format_bytes(n * n * dt.itemsize)}) "
        f"does not fit: {format_bytes(budget.host)} of host memory{gpu} available{why}; the least any route needs is "
        f"{format_bytes(best.est_host_bytes)} ({best.route}, ~{format_seconds(best.est_seconds)}){note}",
        "alternatives:",
    ]
    alts = []
    if dt.itemsize > 4:
        f32 = n * n * 4
        alts.append(f"float32 ({format_bytes(f32)}): dtype='float32'"
                    + ("; exact here" if exact_float32 else "; exact only for integer weights whose path sums "
                       "stay below 2**24"))
    alts += list(alternatives)
    if device == "cpu":
        alts.append(f"a GPU: device='gpu' (~{format_seconds(dense_seconds(n, np.float32, 'gpu', calibrate=False))} "
                    "in float32; "
                    "streams from host memory when the device is too small)")
    alts.append("a larger budget, if you know better: memory_limit=<bytes>")
    lines += [f"  - {a}" for a in alts]
    return PlanError("\n".join(lines), tuple(p for p, _ in cands))


def format_bytes(b: float) -> str:
    """A byte count for messages: ``"3.0 GiB"``, ``"12.5 MiB"``, ``"512 B"``.

    >>> format_bytes(3 * 2**30), format_bytes(512)
    ('3.0 GiB', '512 B')
    """
    b = float(b)
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= scale:
            return f"{b / scale:,.1f} {unit}"
    return f"{int(b)} B"


def format_seconds(s: float) -> str:
    """A duration for messages: ``"40 ms"``, ``"12 s"``, ``"5 min"``, ``"2.5 h"``.

    >>> format_seconds(0.04), format_seconds(300)
    ('40 ms', '5 min')
    """
    if s < 1:
        return f"{s * 1000:.0f} ms"
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"
