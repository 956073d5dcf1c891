"""Numba kernels for connected components: union-find (weak) and iterative Tarjan (strong)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._kernel_lib import uf_find, uf_link  # union-find with path halving, union by the smaller root

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["weak_labels", "strong_labels", "relabel_first_seen"]


@njit(cache=True, nogil=True)
def weak_labels(indptr, indices):  # pragma: no cover - jitted
    """Union-find over every arc (direction ignored); returns each vertex's root."""
    n = indptr.shape[0] - 1
    parent = np.arange(n, dtype=np.int32)
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            a = uf_find(parent, u)
            b = uf_find(parent, indices[e])
            if a != b:
                uf_link(parent, a, b)
    for v in range(n):
        parent[v] = uf_find(parent, v)
    return parent


@njit(cache=True, nogil=True)
def strong_labels(indptr, indices):  # pragma: no cover - jitted
    """Tarjan's strongly connected components (1972), iterative; returns a component id per vertex.

    Components are numbered in the order Tarjan completes them (reverse
    topological order of the condensation).
    """
    n = indptr.shape[0] - 1
    index = np.full(n, -1, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    on_stack = np.zeros(n, dtype=np.uint8)
    comp = np.full(n, -1, dtype=np.int32)
    stack = np.empty(n, dtype=np.int32)
    call_v = np.empty(n, dtype=np.int32)
    call_e = np.empty(n, dtype=np.int64)
    sp = 0
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        depth = -1
        enter = root  # the vertex to number, push and descend into next (-1: none)
        while True:
            if enter >= 0:
                index[enter] = counter
                low[enter] = counter
                counter += 1
                stack[sp] = enter
                sp += 1
                on_stack[enter] = 1
                depth += 1
                call_v[depth] = enter
                call_e[depth] = indptr[enter]
                enter = -1
            if depth < 0:
                break
            v = call_v[depth]
            e = call_e[depth]
            if e < indptr[v + 1]:
                call_e[depth] = e + 1
                w = indices[e]
                if index[w] < 0:
                    enter = w
                elif on_stack[w] != 0 and index[w] < low[v]:
                    low[v] = index[w]
            else:
                if low[v] == index[v]:
                    while True:
                        sp -= 1
                        w = stack[sp]
                        on_stack[w] = 0
                        comp[w] = ncomp
                        if w == v:
                            break
                    ncomp += 1
                depth -= 1
                if depth >= 0:
                    p = call_v[depth]
                    if low[v] < low[p]:
                        low[p] = low[v]
    return comp


@njit(cache=True, nogil=True)
def relabel_first_seen(labels):  # pragma: no cover - jitted
    """Renumber labels 0, 1, ... in order of each label's smallest vertex; returns (count, labels)."""
    n = labels.shape[0]
    m = 0
    for v in range(n):
        if labels[v] + 1 > m:
            m = labels[v] + 1
    new = np.full(m, -1, dtype=np.int32)
    out = np.empty(n, dtype=np.int32)
    k = 0
    for v in range(n):
        lab = labels[v]
        if new[lab] < 0:
            new[lab] = k
            k += 1
        out[v] = new[lab]
    return k, out
