"""graphs._kernel_lib: the heaps against heapq, the traversal steps against plain Python, the prefetch in the
compiled code, and the numba cache stamps of the modules that inline the library."""

from __future__ import annotations

import hashlib
import heapq
import inspect
import re
from collections import deque
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from numba.core.registry import CPUDispatcher

import graphs._kernel_lib as lib

ROOT = Path(__file__).resolve().parents[1]
STAMP = re.compile(r"^# numba cache stamp of the kernel library: ([0-9a-f]{16})$", re.M)


@njit
def _binary_run(ops, keys):
    """Push ``keys[i]`` (value ``i``) where ``ops[i]`` is 1, pop where 0; the popped (key, value) pairs."""
    hk = np.empty(ops.shape[0], dtype=keys.dtype)
    hv = np.empty(ops.shape[0], dtype=np.int32)
    out_k = np.empty(ops.shape[0], dtype=keys.dtype)
    out_v = np.empty(ops.shape[0], dtype=np.int32)
    size = 0
    n_out = 0
    for i in range(ops.shape[0]):
        if ops[i] == 1:
            size = lib.heap_push(hk, hv, size, keys[i], i)
        elif size > 0:
            out_k[n_out] = hk[0]
            out_v[n_out] = hv[0]
            n_out += 1
            size = lib.heap_pop(hk, hv, size)
    return out_k[:n_out], out_v[:n_out]


@njit
def _indexed_run(ops, verts, keys, n):
    """Insert-or-decrease ``verts[i]`` to ``keys[i]`` (ops 1) or pop (ops 0) on the indexed 4-ary heap.

    Returns the popped pairs and whether ``pos`` named every slot after every step.
    """
    hk = np.empty(n, dtype=keys.dtype)
    hv = np.empty(n, dtype=np.int32)
    pos = np.full(n, -1, dtype=np.int32)
    out_k = np.empty(ops.shape[0], dtype=keys.dtype)
    out_v = np.empty(ops.shape[0], dtype=np.int32)
    size = 0
    n_out = 0
    consistent = True
    for i in range(ops.shape[0]):
        v = verts[i]
        if ops[i] == 1:
            if pos[v] == -1:
                lib.qheap_up(hk, hv, pos, size, keys[i], v)
                size += 1
            elif pos[v] >= 0 and keys[i] < hk[pos[v]]:
                lib.qheap_up(hk, hv, pos, pos[v], keys[i], v)
        elif size > 0:
            out_k[n_out] = hk[0]
            out_v[n_out] = hv[0]
            n_out += 1
            pos[hv[0]] = -2
            size = lib.qheap_pop(hk, hv, pos, size)
        for j in range(size):
            if pos[hv[j]] != j:
                consistent = False
    return out_k[:n_out], out_v[:n_out], consistent


@settings(max_examples=60)
@given(st.lists(st.tuples(st.booleans(), st.integers(-50, 50)), max_size=80))
def test_binary_heap_pops_as_heapq(steps):
    ops = np.array([1 if push else 0 for push, _ in steps] or [0], dtype=np.int8)
    keys = np.array([k for _, k in steps] or [0], dtype=np.int64)
    got_k, got_v = _binary_run(ops, keys)
    ref: list[tuple[int, int]] = []
    want = []
    for i, (push, k) in enumerate(steps):
        if push:
            heapq.heappush(ref, (k, i))
        elif ref:
            want.append(heapq.heappop(ref)[0])
    assert got_k.tolist() == want
    assert all(keys[v] == k for k, v in zip(got_k, got_v))  # each popped value came with its own key
    assert len(set(got_v.tolist())) == len(got_v)


@settings(max_examples=60)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 11), st.floats(0, 100, allow_nan=False)), max_size=80))
def test_indexed_heap_decrease_key(steps):
    n = 12
    ops = np.array([1 if push else 0 for push, _, _ in steps] or [0], dtype=np.int8)
    verts = np.array([v for _, v, _ in steps] or [0], dtype=np.int32)
    keys = np.array([k for _, _, k in steps] or [0.0], dtype=np.float64)
    got_k, got_v, consistent = _indexed_run(ops, verts, keys, n)
    assert consistent
    queued: dict[int, float] = {}
    done: set[int] = set()
    popped = 0
    for push, v, k in steps:
        if push:
            if v not in done and k < queued.get(v, np.inf):
                queued[v] = k
        elif queued:
            u, ku = int(got_v[popped]), float(got_k[popped])
            assert ku == min(queued.values()) and queued.get(u) == ku  # the least key, with its own vertex
            del queued[u]
            done.add(u)
            popped += 1
    assert popped == len(got_k)


@njit
def _bfs(indptr, indices, s, with_parent):
    n = indptr.shape[0] - 1
    level = np.full(n, -1, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    level[s] = 0
    queue[0] = s
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        if with_parent:
            tail = lib.visit_row(indptr, indices, u, level, -1, level[u] + 1, parent, queue, tail)
        else:
            tail = lib.visit_row(indptr, indices, u, level, -1, level[u] + 1, None, queue, tail)
    return queue[:tail], level, parent


@settings(max_examples=40)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40))))
def test_visit_row_is_a_bfs_step(graph):
    n, arcs = graph
    arcs = sorted(arcs, key=lambda a: a[0])  # CSR order: by tail, stable
    indptr = np.zeros(n + 1, dtype=np.int64)
    for u, _ in arcs:
        indptr[u + 1] += 1
    indptr = np.cumsum(indptr)
    indices = np.array([v for _, v in arcs], dtype=np.int32)
    order, level, parent = _bfs(indptr, indices, 0, True)
    order2, level2, parent2 = _bfs(indptr, indices, 0, False)
    ref_level = [-1] * n
    ref_parent = [-1] * n
    ref_level[0] = 0
    ref_order = [0]
    q = deque([0])
    while q:
        u = q.popleft()
        for v in indices[indptr[u]:indptr[u + 1]]:
            if ref_level[v] < 0:
                ref_level[v] = ref_level[u] + 1
                ref_parent[v] = u
                ref_order.append(int(v))
                q.append(v)
    assert order.tolist() == ref_order and order2.tolist() == ref_order
    assert level.tolist() == ref_level and level2.tolist() == ref_level
    assert parent.tolist() == ref_parent
    assert (parent2 == -1).all()  # parent None: nothing written


@njit
def _relax_all(dist, pred, u, vs, nds, flag, out):
    n_out = 0
    for i in range(vs.shape[0]):
        if lib.relax(dist, pred, u, vs[i], nds[i]):
            n_out = lib.enqueue_once(vs[i], flag, out, n_out)
    return n_out


def test_relax_and_enqueue_once():
    dist = np.array([5.0, 1.0, np.inf])
    pred = np.full(3, -1, dtype=np.int32)
    flag = np.zeros(3, dtype=np.uint8)
    out = np.empty(3, dtype=np.int32)
    k = _relax_all(dist, pred, 7, np.array([0, 1, 2, 0]), np.array([4.0, 1.0, 3.0, 2.0]), flag, out)
    assert dist.tolist() == [2.0, 1.0, 3.0]  # a tie (1.0) is no improvement
    assert pred.tolist() == [7, -1, 7]
    assert out[:k].tolist() == [0, 2] and flag.tolist() == [1, 0, 1]  # vertex 0 improved twice, queued once


@njit
def _prefetched_sum(a, idx):
    s = 0.0
    for j in range(idx.shape[0]):
        lib.prefetch_item(a, idx[j])
        s += a[idx[j]]
    return s


def test_prefetch_reaches_the_compiled_code():
    a = np.arange(100.0)
    idx = np.array([3, 50, 99])
    assert _prefetched_sum(a, idx) == 152.0
    assert "@llvm.prefetch" in _prefetched_sum.inspect_llvm(_prefetched_sum.signatures[0])


def library_stamp() -> str:
    """A hash of the source files whose code the library's helpers compile into a kernel."""
    files = {Path(lib.__file__).resolve()}
    for obj in vars(lib).values():
        if isinstance(obj, CPUDispatcher):
            files.add(Path(inspect.getsourcefile(obj.py_func)).resolve())
    h = hashlib.sha1()
    for f in sorted(files):
        h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_text().encode())
    return h.hexdigest()[:16]


def dependents() -> list[Path]:
    """The modules that import the kernel library."""
    return sorted(p for p in (ROOT / "graphs").rglob("*.py") if re.search(r"^from \.+_kernel_lib import", p.read_text(), re.M))


def test_dependents_carry_the_library_stamp():
    """Numba's cache keys a kernel by its own file only: a module that inlines the library must change with it."""
    stamp = library_stamp()
    mods = dependents()
    assert len(mods) >= 8
    stale = [p.relative_to(ROOT).as_posix() for p in mods if STAMP.findall(p.read_text()) != [stamp]]
    assert not stale, (f"these modules inline graphs/_kernel_lib.py but carry another stamp: {stale}; "
                       f"write this line below their import of it:\n# numba cache stamp of the kernel library: {stamp}")
