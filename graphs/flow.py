"""Maximum flow and minimum cut: push-relabel on the CPU (Numba) and the GPU (CUDA through CuPy).

Goldberg & Tarjan's push-relabel ("A new approach to the maximum-flow problem",
JACM 35, 1988) in two phases.  The first computes a maximum preflow, and with it
the flow value and the minimum cut; the second returns the excess stranded at
vertices cut off from the sink to the source, which makes the preflow a flow.
Both phases are the same discharge loop with the roles of the terminals swapped.
The first phase floods every arc out of its source; when less capacity enters ``t``
than leaves ``s``, the problem is solved from ``t`` on the transposed network
(residual capacities of the reverse arcs), which strands less excess: on R-MAT
hub pairs this halves the work.

* CPU: Cherkassky & Goldberg's HIPR ("On implementing the push-relabel method for
  the maximum flow problem", Algorithmica 19, 1997): highest-label selection, the
  gap heuristic, and global relabelling by a backward breadth-first search from the
  sink after relabelling work of about ``n + m`` (kernels in
  :mod:`graphs._flow_kernels`).
* GPU: the lock-free push-relabel of Hong & He ("An asynchronous multithreaded
  algorithm for the maximum network flow problem with nonblocking global
  relabeling heuristic", IEEE TPDS 22, 2011) in the cycles of Harish, Vineet &
  Narayanan ("Large graph algorithms for massively multithreaded architectures",
  IIIT Hyderabad 2009): a few sweeps over all active vertices, each vertex
  discharged in one scan of its arcs (pushing along every residual arc to a lower
  neighbour, not only to the lowest, so a hub fills many arcs per scan), then
  one global relabel (level-synchronous backward BFS from the sink), which also
  does the gap heuristic's work (kernels in ``graphs/cuda/flow.cu``).

Capacities are the graph's weights (1 for an unweighted graph), arcs read as
directed (an undirected graph stores each edge both ways, so each direction gets
the edge's capacity).  Integer capacities are exact in int64: no cast to int32,
and an input whose capacity out of the source, or between one vertex pair, does not
fit int64 is refused.  Float capacities are exact too: every finite float64 is an
integer multiple of ``2**-1074``, so the capacities are written as integers times
the power of two they all share (:func:`graphs._flow_network.fixed_point`), in one
int64 each when every sum fits 62 bits and in several 62-bit limbs otherwise (the
CPU kernels run on either; the GPU's on one int64, and wider problems are solved by
the CPU kernels, with a warning).  No tolerance is involved: a capacity of ``1e-3``
beside one of ``1e15`` carries its flow.  The exact flow value and the flow on each
arc are rounded once, to the nearest float64, at the end.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from . import _flow_kernels as K
from ._arguments import check_vertex
from ._flow_network import (
    FlowResult,
    capacities,
    check_flow_range,
    check_int64_room,
    fixed_point,
    flood_from_sink,
    to_float,
)
from .door import prepare
from .errors import GraphError, VertexError

if TYPE_CHECKING:
    from semiring.array_types import Device

__all__ = ["maximum_flow", "FlowResult"]

#: Global relabelling after relabel work above ``GLOBAL_FREQ * (n + m)`` (HIPR uses 0.5; 1.0 measured
#: faster here on R-MAT, where one global relabel costs about as much as the pushes between two).
GLOBAL_FREQ = 1.0


def maximum_flow(
    G: Any, s: Any, t: Any, *, device: Device = "auto", method: Literal["push_relabel"] = "push_relabel"
) -> FlowResult:
    """The maximum flow from ``s`` to ``t`` and a minimum cut.

    Parameters
    ----------
    G : Graph or anything :func:`graphs.as_graph` accepts
        Arc capacities are the weights (int32/int64: exact integer flow;
        float32/float64: the exact flow, rounded once to float64 at the end, so
        capacities of very different magnitudes all count); an unweighted graph
        has capacity 1 on every arc.  Parallel arcs add up, self loops carry nothing.
    s, t : int
        Source and sink, distinct vertex ids.
    device : {"auto", "cpu", "gpu"}
        Where to run; ``"auto"`` is where ``G`` lives.
    method : {"push_relabel"}

    Returns
    -------
    FlowResult
        ``flow_value``, ``flow`` (antisymmetric sparse net flow, SciPy's layout;
        CuPy sparse on the GPU), ``source_side`` (bool mask of the minimum cut's
        source side) and ``cut_edges`` (``(u, v)`` of the cut's arcs).  For float
        capacities ``flow_value`` is the exact maximum flow value rounded to the
        nearest float64, which is the exact sum of the cut arcs' capacities rounded.

    Raises
    ------
    VertexError
        ``s`` or ``t`` is not an integer vertex id of ``G``, or ``s == t`` (so a
        graph with fewer than two vertices has no flow problem).
    CapacityError
        A capacity is negative, NaN or infinite (the message names the arc),
        integer capacities out of ``s`` (or of one vertex pair) sum past int64,
        or a float flow value (or the flow on one arc) is above the largest float64.
    GraphError
        Unknown ``method`` or ``device``.

    Examples
    --------
    >>> from graphs import Graph
    >>> G = Graph.from_edges([0, 0, 1, 1, 2], [1, 2, 2, 3, 3], [3, 2, 1, 2, 3])
    >>> r = maximum_flow(G, 0, 3)
    >>> r.flow_value
    5
    >>> r.flow.toarray()
    array([[ 0,  3,  2,  0],
           [-3,  0,  1,  2],
           [-2, -1,  0,  3],
           [ 0, -2, -3,  0]])
    >>> r.source_side
    array([ True, False, False, False])
    >>> r.cut_edges
    (array([0, 0], dtype=int32), array([1, 2], dtype=int32))

    Float capacities of any magnitudes are exact:

    >>> maximum_flow(Graph.from_edges([0, 1, 0], [1, 2, 2], [1e13, 5.0, 3.0]), 0, 2).flow_value
    8.0
    >>> maximum_flow(Graph.from_edges([0, 1, 0], [1, 2, 2], [1e15, 1e15, 1e-3]), 0, 2).flow_value
    1000000000000000.0
    """
    if method != "push_relabel":
        raise GraphError(f"method must be 'push_relabel', got {method!r}")
    G = prepare(G, device).graph
    s = check_vertex(G, s, "s")
    t = check_vertex(G, t, "t")
    if s == t:
        raise VertexError(f"s and t must differ, got s = t = {s}")
    cap = capacities(G)
    if cap.dtype.kind == "f":
        icap, emin = fixed_point(G.xp, cap)
    else:
        check_int64_room(G, cap, s)
        icap, emin = cap, None
    if G.device == "gpu":
        from .cuda.flow import maximum_flow_gpu, result_to_gpu

        if icap.ndim == 1:
            return maximum_flow_gpu(G, s, t, cap, icap, emin)
        warnings.warn(
            f"the float capacities need {icap.shape[1]} limbs of 62 bits to be exact and the GPU kernels hold "
            "one (int64): the flow is computed by the CPU kernels",
            RuntimeWarning,
            stacklevel=2,
        )
        H = G.to("cpu")
        return result_to_gpu(_maximum_flow_cpu(H, s, t, cap.get(), icap.get(), emin))
    return _maximum_flow_cpu(G, s, t, cap, icap, emin)


def _maximum_flow_cpu(G: Any, s: int, t: int, cap: Any, icap: Any, emin: Any) -> FlowResult:
    """Two-phase HIPR push-relabel on the residual network of ``G`` (Numba).

    ``icap`` holds the capacities as exact integers (int64, or rows of limbs) and
    ``emin`` the power of two they are in units of (None: integer capacities, ``cap``).
    """
    import scipy.sparse as sp

    n = G.n
    if icap.ndim == 1:
        ptr, head, mate, cap0 = K.residual_csr(G.indptr, G.indices, icap, not G.directed)
        excess = np.zeros(n, dtype=np.int64)
    else:
        ptr, head, mate, where = K.residual_map(G.indptr, G.indices, not G.directed)
        cap0 = K.limb_sums(where, icap, head.shape[0])
        excess = np.zeros((n, icap.shape[1]), dtype=np.int64)
    # Flood from the terminal of smaller capacity: t on the transposed network if need be.
    reverse = flood_from_sink(ptr, mate, cap0, s, t)
    src, snk = (t, s) if reverse else (s, t)
    res = cap0[mate] if reverse else cap0.copy()
    label = np.zeros(n, dtype=np.int32)
    freq = int(GLOBAL_FREQ * (n + head.shape[0])) + 1
    K.saturate_source(ptr, head, mate, res, excess, src)
    K.push_relabel(ptr, head, mate, res, excess, label, snk, src, freq)
    if excess.ndim == 1:
        value = excess[snk].item()
    else:
        value = 0
        for limb in excess[snk].tolist():
            value = (value << K.LIMB_BITS) | limb
    if K.stranded(excess, s, t):
        K.push_relabel(ptr, head, mate, res, excess, label, src, snk, freq)
    if reverse:
        res = res[mate]  # the transpose's residuals, read back on the arcs of G
    source_side = K.reachable_from(ptr, head, res, s)
    if emin is None:
        data = cap0 - res
    else:
        value = to_float(value, emin)
        data = np.ldexp((cap0 - res).astype(np.float64), emin) if cap0.ndim == 1 else K.limb_flows(cap0, res, emin)
        check_flow_range(np, data)
    # int32 row pointers when they fit, as SciPy would choose (it would scan int64 ones to decide).
    rows = ptr.astype(np.int32) if head.shape[0] < 2**31 else ptr
    flow = sp.csr_array((data, head, rows), shape=(n, n))
    return FlowResult(value, flow, source_side, K.cut_arcs(G.indptr, G.indices, cap, source_side))

