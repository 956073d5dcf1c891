"""GPU driver of the maximum flow: lock-free push-relabel with global relabelling (kernels in ``flow.cu``).

The host loop of each phase is short on purpose: a global relabel (a backward BFS
from the sink, one launch per level, the frontier's length kept on the device and
read back once per :data:`BFS_BATCH` levels; a warp per frontier vertex of 32 arcs
or more), then rounds of sweeps over all vertices, each discharging every
active vertex (Hong & He's lock-free push-relabel, but pushing along every lower
residual arc in one scan; a thread per vertex, a warp per vertex of more than
:data:`HEAVY` arcs), then a global relabel
again, until no active vertex is left (one count read back per cycle).  The
number of sweeps in a cycle follows the depth of the last BFS (flow needs about
that many hops to reach the sink), between :data:`MIN_SWEEPS` and
:data:`MAX_SWEEPS`.  The global relabel gives every vertex cut off from the sink
label ``n``, which is the gap heuristic's work too.

The two phases are those of :mod:`graphs.flow`: a maximum preflow to ``t``, then
the stranded excess back to ``s`` (from ``t`` on the transposed network when less
capacity enters ``t`` than leaves ``s``).  The residual network is built by sorting
(:func:`graphs._flow_network.residual_arrays`), the minimum cut's source side by
a forward BFS in the residual graph.  CuPy's sparse matrices hold no integers,
so an integer flow comes back as float64 data (exact below ``2**53``; a warning
says so when a flow is larger); ``flow_value`` stays an exact ``int``.

Capacities are int64 on the device, always: float capacities arrive as exact
integers in units of a power of two (:func:`graphs._flow_network.fixed_point`,
the CPU's rule), so that no residual or excess is ever compared with a tolerance;
the flow value and the flow are rounded to float64 once, at the end, as on the
CPU.  (Float capacities that need more than one int64 are solved by the CPU
kernels: :func:`graphs.maximum_flow` decides, and :func:`result_to_gpu` moves the
answer to the device.)
"""

from __future__ import annotations

import warnings

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK, launch_grid

from .._flow_network import FlowResult, check_flow_range, cut_of, flood_from_sink, residual_arrays, to_float
from ..graph import Graph
from . import launch

__all__ = ["maximum_flow_gpu", "result_to_gpu"]

FILE = "flow.cu"
ITERS = 4  # discharges per vertex and sweep
HEAVY = 64  # vertices with more arcs are stepped by a warp each (power-law hubs)
MIN_SWEEPS, MAX_SWEEPS = 8, 512  # sweeps between global relabels
BFS_BATCH = 8  # BFS levels launched between reads of the frontier's length
ZERO = np.int64(0)  # the kernels' ``tol``: exact integers, so a residual or an excess counts when above 0


def _module():
    """The compiled ``flow.cu`` (looked up in :mod:`.launch` at each call)."""
    return launch.module(FILE, "flow_discharge_i64")


class _Network:
    """The residual network and the labels, excesses and work buffers of one flow computation."""

    def __init__(self, G: Graph, icap) -> None:
        self.n = G.n
        self.ptr, self.head, self.mate, self.cap0 = residual_arrays(cp, G, icap)
        mod = _module()
        self.k_push = mod.get_function("flow_discharge_i64")
        self.k_heavy = mod.get_function("flow_discharge_heavy_i64")
        self.heavy = cp.flatnonzero(cp.diff(self.ptr) > HEAVY).astype(cp.int32)
        self.k_bfs = mod.get_function("flow_bfs_level_i64")
        self.k_count = mod.get_function("flow_count_active_i64")
        self.k_reach = mod.get_function("flow_reach_level_i64")
        self.res = self.cap0.copy()
        self.excess = cp.zeros(self.n, dtype=self.cap0.dtype)
        self.label = cp.zeros(self.n, dtype=cp.int32)
        self.queues = (cp.empty(self.n, dtype=cp.int32), cp.empty(self.n, dtype=cp.int32))
        self.counts = cp.zeros(3, dtype=cp.int32)
        self.active = cp.zeros(1, dtype=cp.uint64)
        self.grid = launch_grid(self.n)
        self.depth = MIN_SWEEPS


    def saturate(self, s: int) -> None:
        """Push every residual arc out of ``s`` to capacity (heads of a row are distinct)."""
        lo, hi = (int(x) for x in self.ptr[s : s + 2].get())
        if hi == lo:
            return
        d = self.res[lo:hi].copy()
        self.res[lo:hi] = 0
        self.res[self.mate[lo:hi]] += d
        self.excess[self.head[lo:hi]] += d

    def _levels(self, kernel, args, start: int) -> int:
        """Run a frontier BFS from ``start`` (one launch per level); returns its number of levels."""
        q = self.queues
        q[0][:1] = start
        self.counts[:] = cp.asarray([1, 0, 0], dtype=cp.int32)
        i = 0
        while True:
            for _ in range(BFS_BATCH):
                kernel((self.grid,), (BLOCK,), args + (q[i % 2], q[(i + 1) % 2], self.counts, np.int32(i)))
                i += 1
            if int(self.counts[i % 3].get()) == 0:
                return i

    def global_relabel(self, sink: int, blocked: int) -> None:
        """Exact distances to ``sink`` in the residual graph; ``n`` where it cannot be reached."""
        self.label.fill(self.n)
        self.label[sink] = 0
        args = (self.ptr, self.head, self.mate, self.res, self.label, np.int64(self.n), np.int32(blocked),
                ZERO)
        self.depth = self._levels(self.k_bfs, args, sink)

    def count_active(self, sink: int, blocked: int) -> int:
        self.active.fill(0)
        self.k_count((self.grid,), (BLOCK,), (self.excess, self.label, np.int64(self.n), np.int32(sink),
                                              np.int32(blocked), ZERO, self.active))
        return int(self.active.get()[0])

    def phase(self, sink: int, blocked: int) -> None:
        """Discharge every vertex with excess towards ``sink``; ``blocked`` keeps label n and moves nothing."""
        args = (self.ptr, self.head, self.mate, self.res, self.excess, self.label, np.int64(self.n),
                np.int32(sink), np.int32(blocked), ZERO, np.int32(ITERS))
        light = args + (np.int64(HEAVY),)
        nh = int(self.heavy.size)
        heavy = args + (self.heavy, np.int64(nh))
        hgrid = launch_grid(32 * nh)
        self.global_relabel(sink, blocked)
        while self.count_active(sink, blocked):
            for _ in range(min(max(self.depth, MIN_SWEEPS), MAX_SWEEPS)):
                self.k_push((self.grid,), (BLOCK,), light)
                if nh:
                    self.k_heavy((hgrid,), (BLOCK,), heavy)
            self.global_relabel(sink, blocked)

    def reachable_from(self, s: int):
        """Boolean mask of the vertices reachable from ``s`` in the residual graph."""
        seen = cp.zeros(self.n, dtype=cp.int32)
        seen[s] = 1
        self._levels(self.k_reach, (self.ptr, self.head, self.res, seen, ZERO), s)
        return seen.astype(bool)


def maximum_flow_gpu(G: Graph, s: int, t: int, cap, icap, emin) -> FlowResult:
    """Two-phase push-relabel on the GPU.

    ``cap`` as :func:`graphs._flow_network.capacities` gives it; ``icap`` the
    capacities as exact int64 (``cap`` itself for integers), in units of
    ``2**emin`` (``emin`` None: integer capacities).
    """
    import cupyx.scipy.sparse as csp

    net = _Network(G, icap)
    reverse = flood_from_sink(net.ptr, net.mate, net.cap0, s, t)  # flood from t on the transpose
    src, snk = (t, s) if reverse else (s, t)
    if reverse:
        net.res = net.cap0[net.mate]
    net.saturate(src)
    net.phase(snk, src)
    value = net.excess[snk].item()
    left = net.excess > 0
    left[s] = False
    left[t] = False
    if bool(left.any()):
        net.phase(src, snk)
    if reverse:
        net.res = net.res[net.mate]
    source_side = net.reachable_from(s)
    flow = net.cap0 - net.res
    if emin is not None:
        value = to_float(value, emin)
        flow = cp.ldexp(flow.astype(cp.float64), emin)  # int64 -> float64 rounds once, the scaling is exact
        check_flow_range(cp, flow)
    elif flow.size and int(cp.abs(flow).max()) > 2**53:
        warnings.warn(
            "CuPy sparse matrices hold no integers: the flow's float64 values are rounded above 2**53 "
            f"(flow_value = {value} is exact)",
            RuntimeWarning,
            stacklevel=3,
        )
    n = G.n
    flow_m = csp.csr_matrix((flow.astype(cp.float64), net.head, net.ptr), shape=(n, n))
    return FlowResult(value, flow_m, source_side, cut_of(cp, G, cap, source_side))


def result_to_gpu(r: FlowResult) -> FlowResult:
    """A CPU :class:`FlowResult` with its arrays on the device (the layout :func:`maximum_flow_gpu` returns)."""
    import cupyx.scipy.sparse as csp

    F = r.flow
    flow = csp.csr_matrix(
        (cp.asarray(F.data, dtype=cp.float64), cp.asarray(F.indices), cp.asarray(F.indptr.astype(np.int64))),
        shape=F.shape,
    )
    return FlowResult(r.flow_value, flow, cp.asarray(r.source_side), tuple(cp.asarray(x) for x in r.cut_edges))
