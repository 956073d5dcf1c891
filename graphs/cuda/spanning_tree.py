"""GPU driver of the minimum spanning forest: Boruvka rounds (CuPy; kernels in ``spanning_tree.cu``).

ECL-MST's scheme (Fallin, Gonzalez, Seo & Burtscher, SC'23): the live edge list
is filtered every round (edges inside one component dropped, the others
relabelled to their roots) while each root's minimum edge under the strict
order ``(weight, arc id)`` is found with 64-bit ``atomicMin`` (weight key, then
arc id); roots hook along their minimum edges (a mutual pair keeps the smaller
root) and pointer jumping flattens the components.  The host loop reads back
one number per round, the live edge count, and stops when it is zero.

The result is the forest's arc ids, the same set as the CPU's
(:mod:`graphs.trees.spanning_tree` defines the order); everything stays on the GPU.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from semiring.cuda_kernels import BLOCK, launch_grid

from ..graph import Graph
from . import launch

__all__ = ["minimum_spanning_tree_gpu", "candidate_edges_gpu"]

FILE = "spanning_tree.cu"
NONE = np.uint64(0xFFFFFFFFFFFFFFFF)
SUFFIX = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64", np.dtype(np.int32): "i32",
          np.dtype(np.int64): "i64"}


def _module():
    """The compiled ``spanning_tree.cu`` (looked up in :mod:`.launch` at each call)."""
    return launch.module(FILE, "mst_hook")


def candidate_edges_gpu(G: Graph):
    """``(eu, ev, eid)``: tail, head (int32) and arc id (int64) of every candidate arc, by arc id.

    The arcs ``u -> v`` with ``u != v``; of an undirected graph only ``u < v``
    (the other arc of the edge comes later in the CSR and never wins).
    """
    src, dst, _ = G.edges()
    keep = src != dst
    if not G.directed:
        keep &= src < dst
    eid = cp.flatnonzero(keep).astype(cp.int64)
    return src[eid], dst[eid], eid


def minimum_spanning_tree_gpu(G: Graph):
    """Arc ids (increasing, CuPy int64) of the minimum spanning forest of ``G`` (on the GPU)."""
    mod = _module()
    n = G.n
    if n == 0 or G.nnz == 0:
        return cp.zeros(0, dtype=cp.int64)
    src, dst, w = G.edges()
    eu, ev, eid = candidate_edges_gpu(G)
    m = int(eid.shape[0])
    ou, ov, oid = cp.empty_like(eu), cp.empty_like(ev), cp.empty_like(eid)
    suffix = SUFFIX[np.dtype(w.dtype)] if w is not None else "i32"
    filt = mod.get_function(f"mst_filter_{suffix}")
    pick = mod.get_function(f"mst_pick_{suffix}")
    hook = mod.get_function("mst_hook")
    shortcut = mod.get_function("mst_shortcut")
    wptr = w if w is not None else np.uint64(0)  # a null pointer: one weight key for all arcs
    comp = cp.arange(n, dtype=cp.int32)
    parent = cp.empty_like(comp)
    bestw = cp.empty(n, dtype=cp.uint64)
    bestid = cp.empty(n, dtype=cp.uint64)
    count = cp.zeros(1, dtype=cp.uint64)
    in_tree = cp.zeros(G.nnz, dtype=cp.uint8)
    vgrid = launch_grid(n)
    while m > 0:
        bestw.fill(NONE)
        bestid.fill(NONE)
        count.fill(0)
        filt((launch_grid(m),), (BLOCK,), (eu, ev, eid, np.int64(m), comp, wptr, ou, ov, oid, count, bestw))
        m = int(count.get()[0])
        if m == 0:
            break
        eu, ou, ev, ov, eid, oid = ou, eu, ov, ev, oid, eid
        pick((launch_grid(m),), (BLOCK,), (eu, ev, eid, np.int64(m), wptr, bestw, bestid))
        hook((vgrid,), (BLOCK,), (np.int64(n), comp, bestid, src, dst, parent, in_tree))
        shortcut((vgrid,), (BLOCK,), (np.int64(n), parent))
        comp, parent = parent, comp
    return cp.flatnonzero(in_tree).astype(cp.int64)
