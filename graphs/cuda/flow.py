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
"""

from __future__ import annotations

import warnings

import cupy as cp
import numpy as np

from semiring.cuda.sparse import BLOCK, launch_grid

from .._flow_network import FlowResult, cut_of, flood_from_sink, residual_arrays
from ..graph import Graph
from . import launch

__all__ = ["maximum_flow_gpu"]

FILE = "flow.cu"
ITERS = 4  # discharges per vertex and sweep
HEAVY = 64  # vertices with more arcs are stepped by a warp each (power-law hubs)
MIN_SWEEPS, MAX_SWEEPS = 8, 512  # sweeps between global relabels
BFS_BATCH = 8  # BFS levels launched between reads of the frontier's length


def _module():
    """The compiled ``flow.cu`` (looked up in :mod:`.launch` at each call)."""
    return launch.module(FILE, "flow_discharge_i64")


class _Network:
    """The residual network and the labels, excesses and work buffers of one flow computation."""

    def __init__(self, G: Graph, cap) -> None:
        self.n = G.n
        self.ptr, self.head, self.mate, self.cap0 = residual_arrays(cp, G, cap)
        self.is_float = self.cap0.dtype.kind == "f"
        sfx = "f64" if self.is_float else "i64"
        mod = _module()
        self.k_push = mod.get_function(f"flow_discharge_{sfx}")
        self.k_heavy = mod.get_function(f"flow_discharge_heavy_{sfx}")
        self.heavy = cp.flatnonzero(cp.diff(self.ptr) > HEAVY).astype(cp.int32)
        self.k_bfs = mod.get_function(f"flow_bfs_level_{sfx}")
        self.k_count = mod.get_function(f"flow_count_active_{sfx}")
        self.k_reach = mod.get_function(f"flow_reach_level_{sfx}")
        self.res = self.cap0.copy()
        self.excess = cp.zeros(self.n, dtype=self.cap0.dtype)
        self.label = cp.zeros(self.n, dtype=cp.int32)
        self.queues = (cp.empty(self.n, dtype=cp.int32), cp.empty(self.n, dtype=cp.int32))
        self.counts = cp.zeros(3, dtype=cp.int32)
        self.active = cp.zeros(1, dtype=cp.uint64)
        self.grid = launch_grid(self.n)
        self.depth = MIN_SWEEPS

    def scalar(self, tol):
        return np.float64(tol) if self.is_float else np.int64(tol)

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

    def global_relabel(self, sink: int, blocked: int, tol) -> None:
        """Exact distances to ``sink`` in the residual graph; ``n`` where it cannot be reached."""
        self.label.fill(self.n)
        self.label[sink] = 0
        args = (self.ptr, self.head, self.mate, self.res, self.label, np.int64(self.n), np.int32(blocked),
                self.scalar(tol))
        self.depth = self._levels(self.k_bfs, args, sink)

    def count_active(self, sink: int, blocked: int, tol) -> int:
        self.active.fill(0)
        self.k_count((self.grid,), (BLOCK,), (self.excess, self.label, np.int64(self.n), np.int32(sink),
                                              np.int32(blocked), self.scalar(tol), self.active))
        return int(self.active.get()[0])

    def phase(self, sink: int, blocked: int, tol) -> None:
        """Discharge every vertex with excess towards ``sink``; ``blocked`` keeps label n and moves nothing."""
        args = (self.ptr, self.head, self.mate, self.res, self.excess, self.label, np.int64(self.n),
                np.int32(sink), np.int32(blocked), self.scalar(tol), np.int32(ITERS))
        light = args + (np.int64(HEAVY),)
        nh = int(self.heavy.size)
        heavy = args + (self.heavy, np.int64(nh))
        hgrid = launch_grid(32 * nh)
        self.global_relabel(sink, blocked, tol)
        while self.count_active(sink, blocked, tol):
            for _ in range(min(max(self.depth, MIN_SWEEPS), MAX_SWEEPS)):
                self.k_push((self.grid,), (BLOCK,), light)
                if nh:
                    self.k_heavy((hgrid,), (BLOCK,), heavy)
            self.global_relabel(sink, blocked, tol)

    def reachable_from(self, s: int, tol):
        """Boolean mask of the vertices reachable from ``s`` in the residual graph."""
        seen = cp.zeros(self.n, dtype=cp.int32)
        seen[s] = 1
        self._levels(self.k_reach, (self.ptr, self.head, self.res, seen, self.scalar(tol)), s)
        return seen.astype(bool)


def maximum_flow_gpu(G: Graph, s: int, t: int, cap, tol) -> FlowResult:
    """Two-phase push-relabel on the GPU; ``cap`` and ``tol`` as :func:`graphs._flow_network.capacities` gives them."""
    import cupyx.scipy.sparse as csp

    net = _Network(G, cap)
    reverse = flood_from_sink(net.ptr, net.mate, net.cap0, s, t)  # flood from t on the transpose
    src, snk = (t, s) if reverse else (s, t)
    if reverse:
        net.res = net.cap0[net.mate]
    net.saturate(src)
    net.phase(snk, src, tol)
    value = net.excess[snk].item()
    left = net.excess > tol
    left[s] = False
    left[t] = False
    if bool(left.any()):
        net.phase(src, snk, tol)
    if reverse:
        net.res = net.res[net.mate]
    source_side = net.reachable_from(s, tol)
    flow = net.cap0 - net.res
    if not net.is_float and flow.size and int(cp.abs(flow).max()) > 2**53:
        warnings.warn(
            "CuPy sparse matrices hold no integers: the flow's float64 values are rounded above 2**53 "
            f"(flow_value = {value} is exact)",
            RuntimeWarning,
            stacklevel=3,
        )
    n = G.n
    flow_m = csp.csr_matrix((flow.astype(cp.float64), net.head, net.ptr), shape=(n, n))
    return FlowResult(value, flow_m, source_side, cut_of(cp, G, cap, source_side))
