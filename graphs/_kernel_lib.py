"""The CPU kernel library of :mod:`graphs`: what its Numba kernels share, inlined where it is used.

Every helper here is ``@njit(inline="always")``: Numba inlines it into the
calling kernel at its own IR level, so a kernel compiles exactly as if the
helper's lines stood in it (no call, and an argument that is ``None`` or a
constant specialises the copy: the branches it rules out are pruned).

Heaps
    A d-ary min-heap in two parallel arrays, keys ``hk`` and values ``hv``,
    of which the first ``size`` entries are in use: :func:`sift_up` and
    :func:`sift_down` for the arity ``2**shift`` (``shift`` a constant) and,
    when ``pos`` is an array, the slot of every value kept in ``pos[value]``
    (an indexed heap with decrease-key).  :func:`heap_push` / :func:`heap_pop` are the binary
    heap with lazy deletion (stale entries skipped by the caller);
    :func:`qheap_up` / :func:`qheap_pop` the indexed 4-ary heap.
Relaxation
    :func:`relax`: the min-plus step ``dist[v] = d (x) w`` with its
    predecessor, in the weights' dtype (sums saturate, :func:`path_sum`).
Queues and traversal
    :func:`enqueue_once`: a vertex joins a queue unless its flag says it is
    in; :func:`visit_row`: one vertex's step of a breadth- or depth-first
    search (its unmarked out-neighbours marked and queued).
Union-find
    :func:`uf_find` (path halving) and :func:`uf_link` (union by the smaller
    root).
Prefetch
    :func:`prefetch` (LLVM's ``prefetch`` of an address) and
    :func:`prefetch_item` (of an array entry).

Inlining is not always free: Numba binds each array argument of an inlined
helper to a new variable, with a reference count taken and dropped around
it; LLVM removes the pair only where the control flow is simple.  A helper
with branches inside a kernel's innermost loop can then cost a call to the
reference counter per arc (measured: 1.6x on Bellman-Ford with
:func:`enqueue_once` in its arc loop, 2x on delta-stepping with
:func:`relax`, 1.4x on the bidirectional search with a one-side helper), so
every use in a hot loop is timed against the written-out loop, and kept
only where it costs nothing.

Numba's on-disk cache (``cache=True``) checks only the kernel's own file, not
the helpers it inlined from other files, so every module that compiles these
helpers into cached kernels carries a line ``# numba cache stamp: <hash>``, a
hash of the source files its helpers come from (this one, and
``semiring/_cpu/scalar_ops.py`` for :func:`path_sum`).  Editing a helper
changes the hash, ``tests/test_kernel_lib.py`` fails until the dependent
files carry the new line (it prints them), and the changed files recompile.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from semiring.cpu_ops import path_sum

__all__ = ["sift_up", "sift_down", "heap_push", "heap_pop", "qheap_up", "qheap_pop", "relax", "path_sum",
           "enqueue_once", "visit_row", "uf_find", "uf_link", "prefetch", "prefetch_item"]


# -- heaps ----------------------------------------------------------------------------------


@njit(inline="always")
def _put(hk, hv, pos, i, key, val):
    """Entry ``(key, val)`` into slot ``i``; ``pos[val] = i`` unless ``pos`` is None."""
    hk[i] = key
    hv[i] = val
    if pos is not None:
        pos[val] = i


@njit(inline="always")
def sift_up(hk, hv, i, key, val, shift, pos):
    """Put ``(key, val)`` at slot ``i`` of the ``2**shift``-ary heap and sift it up; ``pos`` (or None) tracks slots."""
    while i > 0:
        p = (i - 1) >> shift
        pk = hk[p]
        if pk <= key:
            break
        _put(hk, hv, pos, i, pk, hv[p])
        i = p
    _put(hk, hv, pos, i, key, val)


@njit(inline="always")
def sift_down(hk, hv, size, shift, pos):
    """Remove the root of the ``2**shift``-ary heap (the caller read it before); returns the new size."""
    size -= 1
    key = hk[size]
    val = hv[size]
    i = 0
    while True:
        c = (i << shift) + 1
        if c >= size:
            break
        best = c
        bk = hk[c]
        if shift == 1:  # (a constant: the binary heap's one comparison, without a loop)
            if c + 1 < size and hk[c + 1] < bk:
                best = c + 1
                bk = hk[best]
        else:
            for j in range(c + 1, min(c + (1 << shift), size)):
                kj = hk[j]
                if kj < bk:
                    bk = kj
                    best = j
        if bk >= key:
            break
        _put(hk, hv, pos, i, bk, hv[best])
        i = best
    if size > 0:
        _put(hk, hv, pos, i, key, val)
    return size


@njit(inline="always")
def heap_push(hk, hv, size, key, val):
    """Insert ``key`` / ``val`` into the binary heap; the caller made room for it. Returns the new size."""
    sift_up(hk, hv, size, key, val, 1, None)
    return size + 1


@njit(inline="always")
def heap_pop(hk, hv, size):
    """Remove the root of the binary heap; the caller read it before. Returns the new size."""
    return sift_down(hk, hv, size, 1, None)


@njit(inline="always")
def qheap_up(hk, hv, pos, i, key, val):
    """Sift ``(key, val)`` up from slot ``i`` of the indexed 4-ary heap; ``pos[v]`` tracks every slot."""
    sift_up(hk, hv, i, key, val, 2, pos)


@njit(inline="always")
def qheap_pop(hk, hv, pos, size):
    """Remove the root of the indexed 4-ary heap (the caller read it before); returns the new size."""
    return sift_down(hk, hv, size, 2, pos)


# -- relaxation and traversal ---------------------------------------------------------------


@njit(inline="always")
def relax(dist, pred, u, v, nd):
    """``dist[v], pred[v] = nd, u`` if ``nd < dist[v]``; whether it did (a strict improvement)."""
    if nd < dist[v]:
        dist[v] = nd
        pred[v] = u
        return True
    return False


@njit(inline="always")
def enqueue_once(v, flag, out, n_out):
    """Append ``v`` to ``out[n_out]`` and set ``flag[v] = 1``, unless ``flag[v]`` is set; returns the new ``n_out``."""
    if flag[v] == 0:
        flag[v] = 1
        out[n_out] = v
        n_out += 1
    return n_out


@njit(inline="always")
def visit_row(indptr, indices, u, mark, blank, value, parent, out, n_out):
    """Every out-neighbour ``v`` of ``u`` with ``mark[v] == blank`` gets ``value`` and joins ``out``.

    In CSR order: ``mark[v] = value``, ``parent[v] = u`` (unless ``parent`` is
    None), ``out[n_out] = v``.  Returns the new ``n_out``.
    """
    for e in range(indptr[u], indptr[u + 1]):
        v = indices[e]
        if mark[v] == blank:
            mark[v] = value
            if parent is not None:
                parent[v] = u
            out[n_out] = v
            n_out += 1
    return n_out


# -- union-find -----------------------------------------------------------------------------


@njit(inline="always")
def uf_find(parent, v):
    """The root of ``v`` in the union-find forest ``parent``, halving the path on the way."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


@njit(inline="always")
def uf_link(parent, a, b):
    """Join the distinct roots ``a`` and ``b`` under the smaller; return it (the new root)."""
    if a < b:
        parent[b] = a
        return a
    parent[a] = b
    return b


# -- prefetch -------------------------------------------------------------------------------


@intrinsic
def prefetch(typingctx, addr):
    """Ask the cache for the line at the integer address ``addr`` (LLVM's ``prefetch``: read, keep, data).

    A prefetch never faults, whatever the address.
    """
    if not isinstance(addr, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = builder.module.declare_intrinsic("llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]))
        builder.call(fn, [builder.inttoptr(args[0], i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(addr), codegen


@njit(inline="always")
def prefetch_item(a, i):
    """Prefetch the cache line that holds ``a[i]`` (a 1-D contiguous array)."""
    prefetch(np.intp(a.ctypes.data) + np.intp(i) * a.itemsize)
