"""A compiled reader of NetworkX's adjacency dicts (CPython only).

Converting a NetworkX graph means reading one Python dict per node and one
edge-data dict per arc.  Done from Python, even at C speed (``map`` into
``np.fromiter``), each arc costs an interpreter round trip, a reference count
written into its scattered data dict and a dependent chain of cache misses.
:func:`read_adjacency` reads the same dicts from one Numba kernel through
CPython's C API (``PyDict_Next``, ``PyDict_GetItem``,
``PyLong_AsLongLongAndOverflow``, ``PyDict_Size``), borrowing every
reference (nothing is written into NetworkX's objects) and prefetching rows,
data dicts and key objects ahead of their use, so that their cache misses
overlap.  On a 10^5-arc gnm graph (2-core AMD EPYC) it reads the structure and
a weight column in about 6 ms, where ``dict.get`` at C speed takes 40.
:func:`read_columns` reads the columns alone, from a list of data dicts;
:func:`reached_nodes` counts what a breadth-first search from some nodes
reaches (for ``should_run``), reading only the rows it meets.  Node labels
that are tuples of ints spanning a small box (``grid_2d_graph``'s) are
numbered by their items (:func:`tuple_id_table`), without hashing.

Rows and data dicts are prefetched in two stages: the object a few arcs
ahead, then, once its header has arrived, the keys object its ``ma_keys``
word points to (CPython 3.11-3.13's dict layout), whose entries the lookup
reads and whose ``dk_kind`` byte says whether every key is an exact ``str``
(see Safety).  A prefetch never faults; the word is read only from objects
whose type is ``dict``.

Safety.  The reader never runs Python code while it holds borrowed
references, so nothing it holds can be freed or changed under it:

* it runs only on CPython of a version in :data:`SUPPORTED_PYTHON` (one
  place; 64-bit, little-endian, not free-threaded).  Before first use it
  checks the layout facts it reads (``ob_type`` after the reference count; a
  ``float``'s double after the object header; a dict's ``ma_used`` and
  ``ma_keys`` words and its keys object's ``dk_kind`` byte) against live
  objects, then reads small graphs (ints, strs, every value type, a refused
  ``str`` subclass key) and compares with what Python reads.  Elsewhere, or
  if a check fails, it is off and says why on the ``graphs.nx_backend``
  logger; ``SEMIRING_PATHS_NX_READER=0`` turns it off too.  Off, every graph
  is read from Python;
* the kernel holds the GIL from start to end (no ``nogil``, no call back into
  Python, no allocation the cyclic collector sees), so no other thread runs
  while its pointers are live, and it reads one state of the graph;
* it calls only C functions that run no Python code on the objects it gives
  them: ``PyDict_Next`` and ``PyDict_Size`` on exact dicts,
  ``PyLong_AsLongLongAndOverflow`` on exact ints, and ``PyDict_GetItem`` only
  where the key looked up and every key stored in the dict are exact ``str``
  or ``int``, or (node labels only) exact ``tuple`` of exact ``str`` and
  ``int`` items (their hashes and comparisons are C code; a ``str`` compared
  with an ``int`` or a ``tuple`` is unequal in C).  Each type is checked by
  its type pointer before the object is used: the rows must be exact dicts
  and their keys (the neighbours) such labels (:func:`plain_labels`), as must
  every key of the node -> id dict; a data dict is looked up only when CPython marks its keys as all
  exact ``str`` (``dk_kind``) or when each of its keys, read with
  ``PyDict_Next``, is an exact ``str`` or ``int`` -- a ``str`` subclass key
  (whose own ``__eq__`` a lookup of the plain name would call) makes the
  whole column Python's.  Values are read only from exact ``float``, ``int``
  (within int64) and ``bool``;
* anything else -- a dict subclass, another key type, a larger int, another
  value type, a row count or a dict size that changed, an id out of range
  or repeated -- makes it stop and report, and the caller reads that graph,
  or that column, from Python, where a hostile ``__eq__`` or ``__hash__``
  runs as it does in NetworkX's own loops and cannot crash the process.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os
import platform
import sys
import sysconfig
from itertools import chain
from typing import Any, NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic

from .._kernel_lib import prefetch

# numba cache stamp of the kernel library: d90e55e47d0c8b74

__all__ = ["available", "read_adjacency", "read_columns", "reached_nodes", "id_table", "tuple_id_table", "IdTable",
           "plain_labels",
           "Adjacency", "SUPPORTED_PYTHON",
           "OK", "STOPPED", "NOT_RANGE", "FLAG_INT", "FLAG_BOOL", "FLAG_FLOAT", "FLAG_OTHER"]

_log = logging.getLogger("graphs.nx_backend")

#: The CPython versions (major, minor) whose object layout the kernel reads; on any other interpreter the
#: reader is off (and says why on the ``graphs.nx_backend`` logger).
SUPPORTED_PYTHON = ((3, 11), (3, 12), (3, 13))

#: Status of :func:`read_adjacency`: everything read.
OK = 0
#: Status of :func:`read_adjacency`: stopped on something it does not read (read from Python).
STOPPED = 1
#: Status of :func:`read_adjacency` without an index: the rows' keys are not the ints 0 .. n-1 in order.
NOT_RANGE = 2
_STOP_SIZE = 3  # a dict's size changed, or a row is not an exact dict
_STOP_KEY = 4  # a neighbour key the reader does not read (type, range, not in the index)

#: Column flags: which value types were present (a bit each), or something the reader does not hold.
FLAG_INT, FLAG_BOOL, FLAG_FLOAT, FLAG_OTHER = 1, 2, 4, 8

# Positions in the table of addresses the kernel gets.
_NEXT, _GET, _AS_LL, _SIZE, _T_DICT, _T_INT, _T_BOOL, _T_FLOAT, _T_STR, _TRUE, _LIST_SIZE, _LIST_GET, _T_TUPLE = range(13)
# The layout facts the kernel reads (CPython 3.11-3.13, 64-bit; checked on live objects by _layout_holds):
_OB_TYPE = 8  # PyObject.ob_type
_FLOAT_VALUE = 16  # PyFloatObject.ob_fval
_MA_USED = 16  # PyDictObject.ma_used
_MA_KEYS = 32  # PyDictObject.ma_keys
_DK_KIND_WORD, _DK_KIND_SHIFT = 8, 16  # PyDictKeysObject.dk_kind: byte 10, bits 16..23 of the word at offset 8
_DK_GENERAL, _DK_UNICODE, _DK_SPLIT = 0, 1, 2  # its values: any keys; exact str keys only (combined, split)
_TUPLE_SIZE, _TUPLE_ITEMS = 16, 24  # PyTupleObject.ob_size, ob_item[0]
_AHEAD = 16  # arcs prefetched ahead
_ROWS_AHEAD = 4  # rows prefetched ahead (headers while sizing, their entries while reading)


# ----------------------------------------------------------------------------------------------
# Intrinsics: loads at an address and calls of C functions at an address (the prefetch is the kernel library's).
# ----------------------------------------------------------------------------------------------

@intrinsic
def _load_word(typingctx, addr):
    """The int64 at ``addr``."""
    def codegen(context, builder, sig, args):
        return builder.load(builder.inttoptr(args[0], ir.IntType(64).as_pointer()))
    return types.int64(types.int64), codegen


@intrinsic
def _call_next(typingctx, fn, d, pos, key, value):
    """``PyDict_Next(d, pos, key, value)`` at address ``fn`` (pointers as int64); its int result."""
    def codegen(context, builder, sig, args):
        i64, i32 = ir.IntType(64), ir.IntType(32)
        fnty = ir.FunctionType(i32, [i64, i64, i64, i64])
        r = builder.call(builder.inttoptr(args[0], fnty.as_pointer()), args[1:])
        return builder.sext(r, i64)
    return types.int64(types.int64, types.int64, types.int64, types.int64, types.int64), codegen


@intrinsic
def _call_1(typingctx, fn, a):
    """``fn(a)`` for a C function of one pointer-sized argument returning a 64-bit value."""
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64])
        return builder.call(builder.inttoptr(args[0], fnty.as_pointer()), args[1:])
    return types.int64(types.int64, types.int64), codegen


@intrinsic
def _call_2(typingctx, fn, a, b):
    """``fn(a, b)`` for a C function of two pointer-sized arguments returning a 64-bit value."""
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        return builder.call(builder.inttoptr(args[0], fnty.as_pointer()), args[1:])
    return types.int64(types.int64, types.int64, types.int64), codegen


# ----------------------------------------------------------------------------------------------
# The kernel.
# ----------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _plain_key(api, key):  # pragma: no cover - jitted
    """Whether the object at ``key`` is an exact ``int`` or ``str``, or an exact ``tuple`` of those (by type pointers).

    Such keys hash and compare in C: a dict of them is looked up without running Python code.
    """
    t = _load_word(key + _OB_TYPE)
    if t == api[_T_INT] or t == api[_T_STR]:
        return True
    if t != api[_T_TUPLE]:
        return False
    for i in range(_load_word(key + _TUPLE_SIZE)):
        ti = _load_word(_load_word(key + _TUPLE_ITEMS + 8 * i) + _OB_TYPE)
        if ti != api[_T_INT] and ti != api[_T_STR]:
            return False
    return True


@njit(cache=True, inline="always")
def _table_slot(api, key, tshape, ovf, scratch):  # pragma: no cover - jitted
    """The slot of ``key`` in an id table, or -1: an exact ``int`` is its own slot (``tshape`` empty); with
    ``tshape`` = ``(low, span, stride)`` per position, an exact ``tuple`` of that many exact ints within
    ``low .. low + span - 1`` is at ``sum((item - low) * stride)`` (:func:`tuple_id_table`)."""
    t = _load_word(key + _OB_TYPE)
    k = tshape.shape[0] // 3
    if k == 0:
        if t != api[_T_INT]:
            return -1
        scratch[3] = 0
        v = _call_2(api[_AS_LL], key, ovf)
        return -1 if scratch[3] != 0 or v < 0 else v
    if t != api[_T_TUPLE] or _load_word(key + _TUPLE_SIZE) != k:
        return -1
    slot = 0
    for i in range(k):
        item = _load_word(key + _TUPLE_ITEMS + 8 * i)
        if _load_word(item + _OB_TYPE) != api[_T_INT]:
            return -1
        scratch[3] = 0
        v = _call_2(api[_AS_LL], item, ovf) - tshape[3 * i]
        if scratch[3] != 0 or v < 0 or v >= tshape[3 * i + 1]:
            return -1
        slot += v * tshape[3 * i + 2]
    return slot


@njit(cache=True)
def _exact_keys(api, d, scratch):  # pragma: no cover - jitted
    """Whether every key of the exact dict at ``d`` is an exact ``str`` or ``int`` (by type pointer; no lookup)."""
    t_str, t_int = api[_T_STR], api[_T_INT]
    sp = scratch.ctypes.data
    scratch[0] = 0
    while _call_next(api[_NEXT], d, sp, sp + 8, sp + 16):
        t = _load_word(scratch[1] + _OB_TYPE)
        if t != t_str and t != t_int:
            return False
    return True


@njit(cache=True)
def _lookup_safe(api, d, scratch):  # pragma: no cover - jitted
    """Whether ``PyDict_GetItem`` on the exact dict at ``d`` with an exact str or int key runs no Python code.

    It does not when every stored key is an exact ``str`` or ``int`` (their
    hashes and comparisons are C code): CPython marks a dict whose keys are
    all exact ``str`` in its keys object (``dk_kind``: unicode or split,
    checked on live dicts by :func:`_layout_holds`); any other dict has its
    keys checked one by one.
    """
    kind = (_load_word(_load_word(d + _MA_KEYS) + _DK_KIND_WORD) >> _DK_KIND_SHIFT) & 0xFF
    if kind == _DK_UNICODE or kind == _DK_SPLIT:
        return True
    return _exact_keys(api, d, scratch)


@njit(cache=True)
def _read(api, adj, n, index, table, tshape, attrs, nodes, expect):  # pragma: no cover - jitted
    """Read ``G._adj`` (``adj``: its address, ``n`` rows expected): row ids, row sizes, neighbour ids, attributes.

    Returns ``(status, heads, counts, dst, vals, missing, flags)``: ``heads[i]``
    the id of the i-th row's key, ``counts[i]`` its arcs; ``dst`` each arc's
    neighbour id -- a key's id is its value in the dict at ``index``
    (``index != 0``), else ``table[slot]`` (``table`` not empty; the slot of
    an int or of a tuple of ints, :func:`_table_slot` with ``tshape``), else the key
    itself (the rows' keys must be ``0 .. n-1`` in order -- and, where the
    list at ``nodes`` is given (``nodes != 0``), the very objects it holds --
    else the status is ``NOT_RANGE``); every id is below ``n`` and the heads
    are distinct; where the list at ``expect`` is given (``expect != 0``), the
    data dicts read must be the very objects it holds, in its order (else
    ``_STOP_SIZE``); per attribute ``j``: ``vals[j]`` the int64 values (the float64 bits of
    floats), ``missing[j]`` where the data dict lacks it, ``flags[j]`` the
    types met (``FLAG_*``).  ``status``: ``OK`` or why it stopped.  No Python
    code runs: every key is checked to be an exact ``int`` or ``str`` (by its
    type pointer) before it is hashed, compared or looked up, and a data dict
    is looked up only when all of its keys are (:func:`_lookup_safe`).
    """
    k = attrs.shape[0]
    none = (np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros((k, 0), np.int64),
            np.zeros((k, 0), np.bool_), np.zeros(k, np.int64))
    scratch = np.zeros(4, np.int64)  # pos, key, value, overflow
    sp = scratch.ctypes.data
    ovf = sp + 24
    inner = np.zeros(3, np.int64)
    ip = inner.ctypes.data
    t_dict, t_int = api[_T_DICT], api[_T_INT]
    own = index == 0 and table.shape[0] == 0
    if own and nodes != 0 and _call_1(api[_LIST_SIZE], nodes) != n:
        return (NOT_RANGE,) + none
    # 0. The index: its keys exact ints or strs (lookups in it run no Python code), its values ids below n.
    if index != 0:
        scratch[0] = 0
        while _call_next(api[_NEXT], index, sp, sp + 8, sp + 16):
            if not _plain_key(api, scratch[1]) or _load_word(scratch[2] + _OB_TYPE) != t_int:
                return (_STOP_KEY,) + none
            scratch[3] = 0
            v = _call_2(api[_AS_LL], scratch[2], ovf)
            if scratch[3] != 0 or v < 0 or v >= n:
                return (_STOP_KEY,) + none
    # 1. The rows (borrowed, by PyDict_Next) and their keys' ids: 0 .. n-1 in order read as their own ids,
    #    else distinct ids through the table or the index.
    rows = np.empty(n, np.int64)
    heads = np.empty(n, np.int32)
    seen = np.zeros(0 if own else n, np.bool_)
    i = 0
    scratch[0] = 0
    while _call_next(api[_NEXT], adj, sp, sp + 8, sp + 16):
        if i >= n:
            return (_STOP_SIZE,) + none
        key = scratch[1]
        t = _load_word(key + _OB_TYPE)
        if own:
            if t != t_int:
                return (NOT_RANGE,) + none
            scratch[3] = 0
            if _call_2(api[_AS_LL], key, ovf) != i or scratch[3] != 0:
                return (NOT_RANGE,) + none
            if nodes != 0 and _call_2(api[_LIST_GET], nodes, i) != key:  # nodes[i] is this very int
                return (NOT_RANGE,) + none
            h = i
        elif index == 0:
            v = _table_slot(api, key, tshape, ovf, scratch)
            if v < 0 or v >= table.shape[0] or table[v] < 0 or table[v] >= n:
                return (_STOP_KEY,) + none
            h = table[v]
        else:
            if not _plain_key(api, key):
                return (_STOP_KEY,) + none
            r = _call_2(api[_GET], index, key)
            if r == 0:
                return (_STOP_KEY,) + none
            h = _call_2(api[_AS_LL], r, ovf)  # an exact int below n (step 0)
        if not own:
            if seen[h]:
                return (_STOP_KEY,) + none
            seen[h] = True
        row = scratch[2]
        if _load_word(row + _OB_TYPE) != t_dict:
            return (_STOP_SIZE,) + none
        rows[i] = row
        heads[i] = h
        i += 1
    if i != n:
        return (_STOP_SIZE,) + none
    counts = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if i + _ROWS_AHEAD < n:
            prefetch(rows[i + _ROWS_AHEAD])
        c = _call_1(api[_SIZE], rows[i])
        counts[i] = c
        m += c
    # 2. Each row's keys and data dicts; the rows ahead are prefetched, and the table their header points
    #    to (CPython's entries) too: a prefetch never faults.
    keys = np.empty(m, np.int64)
    datas = np.empty(m, np.int64)
    e = 0
    for i in range(n):
        if i + _ROWS_AHEAD < n:
            entries = _load_word(rows[i + _ROWS_AHEAD] + _MA_KEYS)
            prefetch(entries)
            prefetch(entries + 64)
        inner[0] = 0
        c = 0
        while _call_next(api[_NEXT], rows[i], ip, ip + 8, ip + 16):
            if e >= m:
                return (_STOP_SIZE,) + none
            keys[e] = inner[1]
            datas[e] = inner[2]
            e += 1
            c += 1
        if c != counts[i]:
            return (_STOP_SIZE,) + none
    if expect != 0:  # the caller's list of the data dicts: the same objects, in the same order
        if _call_1(api[_LIST_SIZE], expect) != m:
            return (_STOP_SIZE,) + none
        for a in range(m):
            if _call_2(api[_LIST_GET], expect, a) != datas[a]:
                return (_STOP_SIZE,) + none
    # 3. Neighbour ids.
    dst = np.empty(m, np.int32)
    for a in range(m):
        if a + _AHEAD < m:
            prefetch(keys[a + _AHEAD])
        key = keys[a]
        if own:
            if _load_word(key + _OB_TYPE) != t_int:
                return (_STOP_KEY,) + none
            scratch[3] = 0
            v = _call_2(api[_AS_LL], key, ovf)
            if scratch[3] != 0 or v < 0 or v >= n:
                return (_STOP_KEY,) + none
        elif index == 0:
            v = _table_slot(api, key, tshape, ovf, scratch)
            if v < 0 or v >= table.shape[0] or table[v] < 0 or table[v] >= n:
                return (_STOP_KEY,) + none
            v = table[v]
        else:
            if not _plain_key(api, key):
                return (_STOP_KEY,) + none
            r = _call_2(api[_GET], index, key)
            if r == 0:
                return (_STOP_KEY,) + none
            v = _call_2(api[_AS_LL], r, ovf)  # an exact int below n (step 0)
        dst[a] = v
    # 4. Attributes.
    vals, missing, flags = _columns(api, datas, attrs)
    return OK, heads, counts, dst, vals, missing, flags


@njit(cache=True)
def _columns(api, datas, attrs):  # pragma: no cover - jitted
    """The attributes ``attrs`` of the data dicts at ``datas`` (borrowed): ``(vals, missing, flags)`` as in :func:`_read`.

    ``PyDict_GetItem`` on each data dict that is an exact dict whose keys are
    all exact strs and ints (:func:`_lookup_safe`), else the column is
    ``FLAG_OTHER``; the dicts and their entries are prefetched ahead.
    """
    k, m = attrs.shape[0], datas.shape[0]
    scratch = np.zeros(4, np.int64)  # overflow at 3
    ovf = scratch.ctypes.data + 24
    guard = np.zeros(3, np.int64)
    t_dict, t_int, t_bool, t_float, true = api[_T_DICT], api[_T_INT], api[_T_BOOL], api[_T_FLOAT], api[_TRUE]
    vals = np.empty((k, m), np.int64)
    missing = np.empty((k, m), np.bool_)
    flags = np.zeros(k, np.int64)
    for j in range(k):
        name = attrs[j]
        f = 0
        for a in range(m):  # two stages: a data dict 2 * _AHEAD arcs ahead, then its table of entries
            if a + 2 * _AHEAD < m:
                prefetch(datas[a + 2 * _AHEAD])
            if a + _AHEAD < m:
                ahead = datas[a + _AHEAD]
                if _load_word(ahead + _OB_TYPE) == t_dict:
                    entries = _load_word(ahead + _MA_KEYS)
                    prefetch(entries)
                    prefetch(entries + 64)
            d = datas[a]
            if _load_word(d + _OB_TYPE) != t_dict or not _lookup_safe(api, d, guard):
                f |= FLAG_OTHER
                break
            r = _call_2(api[_GET], d, name)
            if r == 0:
                missing[j, a] = True
                vals[j, a] = 0
                continue
            missing[j, a] = False
            t = _load_word(r + _OB_TYPE)
            if t == t_float:
                vals[j, a] = _load_word(r + _FLOAT_VALUE)  # the double's bits
                f |= FLAG_FLOAT
            elif t == t_int:
                scratch[3] = 0
                vals[j, a] = _call_2(api[_AS_LL], r, ovf)
                if scratch[3] != 0:
                    f |= FLAG_OTHER
                    break
                f |= FLAG_INT
            elif t == t_bool:
                vals[j, a] = 1 if r == true else 0
                f |= FLAG_BOOL
            else:
                f |= FLAG_OTHER
                break
        flags[j] = f
    return vals, missing, flags


@njit(cache=True)
def _reach(api, adj, n, sources, fraction):  # pragma: no cover - jitted
    """The nodes a breadth-first search of ``G._adj`` (``adj``, ``n`` rows) from the int nodes ``sources``
    reaches, counted until more than ``fraction * n``; -1 where a key is not an exact ``int`` in ``0 .. n-1``, a
    row met is not an exact dict, or a source is not a node.

    One ``PyDict_Next`` pass over ``adj`` numbers the rows by their keys' values (reading the entries and the
    keys, not the rows); every neighbour is then found by its value: nothing is looked up or compared.  Only the
    rows the search meets are read; the rows ahead in the queue, then their entries, are prefetched.
    """
    scratch = np.zeros(4, np.int64)
    sp = scratch.ctypes.data
    ovf = sp + 24
    t_int, t_dict = api[_T_INT], api[_T_DICT]
    rows = np.zeros(n, np.int64)
    count = 0
    scratch[0] = 0
    while _call_next(api[_NEXT], adj, sp, sp + 8, sp + 16):
        key = scratch[1]
        if count >= n or _load_word(key + _OB_TYPE) != t_int:
            return -1
        scratch[3] = 0
        v = _call_2(api[_AS_LL], key, ovf)
        if scratch[3] != 0 or v < 0 or v >= n or rows[v] != 0:
            return -1
        rows[v] = scratch[2]
        count += 1
    if count != n:
        return -1
    budget = fraction * n
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    tail = 0
    for k in range(sources.shape[0]):
        s = sources[k]
        if s < 0 or s >= n:
            return -1
        if not seen[s]:
            seen[s] = True
            queue[tail] = s
            tail += 1
    head = 0
    inner = np.zeros(3, np.int64)
    ip = inner.ctypes.data
    while head < tail:
        if tail > budget:
            return tail
        if head + 2 * _ROWS_AHEAD < tail:  # two stages: a queued row's header, then its entries
            prefetch(rows[queue[head + 2 * _ROWS_AHEAD]])
        if head + _ROWS_AHEAD < tail:
            ahead = rows[queue[head + _ROWS_AHEAD]]
            if _load_word(ahead + _OB_TYPE) == t_dict:
                entries = _load_word(ahead + _MA_KEYS)
                prefetch(entries)
                prefetch(entries + 64)
        row = rows[queue[head]]
        head += 1
        if _load_word(row + _OB_TYPE) != t_dict:
            return -1
        inner[0] = 0
        while _call_next(api[_NEXT], row, ip, ip + 8, ip + 16):
            key = inner[1]
            if _load_word(key + _OB_TYPE) != t_int:
                return -1
            scratch[3] = 0
            v = _call_2(api[_AS_LL], key, ovf)
            if scratch[3] != 0 or v < 0 or v >= n:
                return -1
            if not seen[v]:
                seen[v] = True
                queue[tail] = v
                tail += 1
    return tail


@njit(cache=True)
def _tuple_labels(api, nodes, n, k):  # pragma: no cover - jitted
    """The items of the ``n`` nodes in the list at ``nodes`` (borrowed) as an ``n`` x ``k`` int64 array, and whether
    every node is an exact ``tuple`` of ``k`` exact ``int`` items within int64 (by type pointers)."""
    labels = np.empty((n, k), np.int64)
    scratch = np.zeros(4, np.int64)
    ovf = scratch.ctypes.data + 24
    if _call_1(api[_LIST_SIZE], nodes) != n:
        return False, labels
    for i in range(n):
        node = _call_2(api[_LIST_GET], nodes, i)
        if _load_word(node + _OB_TYPE) != api[_T_TUPLE] or _load_word(node + _TUPLE_SIZE) != k:
            return False, labels
        for j in range(k):
            item = _load_word(node + _TUPLE_ITEMS + 8 * j)
            if _load_word(item + _OB_TYPE) != api[_T_INT]:
                return False, labels
            scratch[3] = 0
            labels[i, j] = _call_2(api[_AS_LL], item, ovf)
            if scratch[3] != 0:
                return False, labels
    return True, labels


@njit(cache=True)
def _read_list(api, data, attrs):  # pragma: no cover - jitted
    """:func:`_columns` of the items of the list at ``data`` (each borrowed from the list, which the caller holds)."""
    m = _call_1(api[_LIST_SIZE], data)
    datas = np.empty(m, np.int64)
    for a in range(m):
        datas[a] = _call_2(api[_LIST_GET], data, a)
    return _columns(api, datas, attrs)


# ----------------------------------------------------------------------------------------------
# The Python side.
# ----------------------------------------------------------------------------------------------

def _address(fn: Any) -> int:
    return ctypes.cast(fn, ctypes.c_void_p).value


@functools.cache
def _api() -> np.ndarray:
    api = ctypes.pythonapi
    table = [0] * 13
    table[_NEXT] = _address(api.PyDict_Next)
    table[_SIZE] = _address(api.PyDict_Size)
    table[_GET] = _address(api.PyDict_GetItem)
    table[_AS_LL] = _address(api.PyLong_AsLongLongAndOverflow)
    table[_LIST_SIZE] = _address(api.PyList_Size)
    table[_LIST_GET] = _address(api.PyList_GetItem)
    table[_T_DICT], table[_T_INT], table[_T_BOOL] = id(dict), id(int), id(bool)
    table[_T_FLOAT], table[_T_STR], table[_TRUE], table[_T_TUPLE] = id(float), id(str), id(True), id(tuple)
    return np.array(table, dtype=np.int64)


class Adjacency(NamedTuple):
    """What :func:`read_adjacency` read.

    ``heads``: the id of each row's key (``G._adj`` order; distinct, below
    the number of rows); ``counts``: arcs per row; ``dst``: each arc's
    neighbour id; ``columns``: requested attribute -> ``(values, missing,
    flags)`` -- int64 values (the float64 bits where ``flags`` is
    :data:`FLAG_FLOAT` alone; read them with ``.view(np.float64)``), the bool
    mask of arcs without the attribute and the ``FLAG_*`` bits met, or
    ``None`` where the reader could not hold the column exactly (read it
    from Python then).
    """

    heads: np.ndarray
    counts: np.ndarray
    dst: np.ndarray
    columns: dict


class IdTable(NamedTuple):
    """Vertex ids of nodes that are tuples of ints (:func:`tuple_id_table`): ``table[slot]`` is the id of the node
    whose items ``x[i]`` give ``slot = sum((x[i] - low[i]) * stride[i])``, ``shape`` = ``(low, span, stride)`` per
    position, flat."""

    table: np.ndarray
    shape: np.ndarray

    def slot(self, node: Any) -> int:
        """The slot of ``node``, -1 where it is not an exact tuple of exact ints within the table's ranges.

        Examples
        --------
        >>> t = tuple_id_table([(0, 0), (0, 1), (1, 0)])
        >>> t.slot((1, 0)), int(t.table[t.slot((1, 0))]), t.slot((1, 0, 0)), t.slot((True, 0))
        (2, 2, -1, -1)
        """
        shape = self.shape
        k = shape.shape[0] // 3
        if type(node) is not tuple or len(node) != k or not all(type(x) is int for x in node):
            return -1
        slot = 0
        for i, x in enumerate(node):
            v = x - int(shape[3 * i])
            if not 0 <= v < int(shape[3 * i + 1]):
                return -1
            slot += v * int(shape[3 * i + 2])
        return slot


class _StrKey(str):
    """A ``str`` subclass: a dict holding one is not marked as of exact ``str`` keys (the layout probe)."""


def _layout_holds() -> bool:
    """Whether this interpreter lays objects out as the kernel reads them (checked on live objects).

    ``ob_type`` after the reference count; a ``float``'s double after the
    object header; a dict's ``ma_used`` and ``ma_keys`` words, and the
    ``dk_kind`` byte of its keys object: unicode for dicts of exact ``str``
    keys (empty ones included), split for an instance's ``__dict__``, general
    for dicts holding an ``int`` or a ``str`` subclass.
    """
    if ctypes.sizeof(ctypes.c_void_p) != 8 or sys.byteorder != "little":
        return False
    x, big = 2.5, 10**30
    word = ctypes.c_int64.from_address
    if any(word(id(o) + _OB_TYPE).value != id(type(o)) for o in (x, big, {}, "s", True)):
        return False
    if ctypes.c_double.from_address(id(x) + _FLOAT_VALUE).value != x or float.__basicsize__ != 24:
        return False
    pair = ("a", big)
    if (word(id(pair) + _OB_TYPE).value != id(tuple) or word(id(pair) + _TUPLE_SIZE).value != 2
            or [word(id(pair) + _TUPLE_ITEMS + 8 * i).value for i in range(2)] != [id("a"), id(big)]):
        return False
    holder = _StrKey("probe")
    holder.attribute = 1  # an instance dict: split keys
    dicts = [({}, _DK_UNICODE), ({"a": 1, "b": 2}, _DK_UNICODE), (holder.__dict__, _DK_SPLIT), ({1: 1}, _DK_GENERAL),
             ({"a": 1, 2: 2}, _DK_GENERAL), ({_StrKey("a"): 1}, _DK_GENERAL), ({"a": 1, _StrKey("b"): 2}, _DK_GENERAL)]
    for d, kind in dicts:
        keys = word(id(d) + _MA_KEYS).value
        if word(id(d) + _MA_USED).value != len(d) or not keys:
            return False
        if (word(keys + _DK_KIND_WORD).value >> _DK_KIND_SHIFT) & 0xFF != kind:
            return False
    return True


def read_adjacency(adj: dict, attrs: list, ids: dict | np.ndarray | None = None, n: int | None = None,
                   nodes: list | None = None, data: list | None = None) -> tuple[int, Adjacency | None]:
    """Read a plain NetworkX adjacency (``G._adj``: a dict of exact dicts) in one compiled pass.

    Parameters
    ----------
    adj : dict
        ``G._adj`` (or ``G._pred``) of a NetworkX graph.
    attrs : list
        Edge attribute names to read (``str`` only).
    ids : dict, numpy.ndarray, IdTable or None
        How a key becomes a vertex id: a dict node -> id (keys as
        :func:`plain_labels` accepts them, ids ``0 .. n-1``); an
        :class:`IdTable` for tuples of ints (:func:`tuple_id_table`); an int64 table, ``ids[key]``
        for int keys ``0 <= key < len(ids)`` (-1: not a node; see
        :func:`id_table`); or ``None``: the rows' keys are the ints
        ``0 .. n-1`` in order, each key its own id.
    n : int, optional
        The number of nodes (default ``len(adj)``): ``adj`` must have that
        many rows, and every id is below it.
    nodes : list, optional
        With ``ids`` ``None``: the node list, whose items must be the rows'
        keys themselves (then ``nodes`` is ``[0, 1, ..., n-1]`` of exact ints
        too), else the status is :data:`NOT_RANGE`.
    data : list, optional
        The caller's list of the data dicts (the rows' values, in order):
        the reader stops unless it reads those very objects, so that what it
        read is known to go with them.

    Returns
    -------
    status : int
        :data:`OK`; :data:`NOT_RANGE` (``ids`` is ``None`` and the rows' keys
        are not ``0 .. n-1`` in order); :data:`STOPPED` (something the reader
        does not read, or the reader is off: read the graph from Python).
    Adjacency or None
        What was read, with status :data:`OK`.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"w": 2.5}), (1, 2, {})])
    >>> status, r = read_adjacency(G._adj, ["w"])
    >>> values, missing, flags = r.columns["w"]
    >>> r.counts.tolist(), r.dst.tolist(), values.view(np.float64).tolist()[0], missing.tolist(), flags == FLAG_FLOAT
    ([1, 1, 0], [1, 2], 2.5, [False, True], True)
    >>> H = nx.path_graph([7, 3])
    >>> read_adjacency(H._adj, [])[0] == NOT_RANGE, read_adjacency(H._adj, [], id_table([7, 3]))[1].dst.tolist()
    (True, [1, 0])
    """
    if not available():
        return STOPPED, None
    return _read_unchecked(adj, attrs, ids, n, nodes, data)


def read_columns(data: list, attrs: list) -> dict:
    """The attributes ``attrs`` of every data dict of the list ``data``, in one compiled pass.

    Returns ``{attr: (values, missing, flags) or None}`` as
    :attr:`Adjacency.columns` (``None``: a column the reader does not hold
    exactly, or the reader is off: read it from Python).  A column is held
    only when every item is an exact ``dict`` whose keys are all exact
    ``str`` or ``int``.

    Examples
    --------
    >>> values, missing, flags = read_columns([{"w": 2}, {}, {"w": True}], ["w"])["w"]
    >>> values.tolist(), missing.tolist(), flags == FLAG_INT | FLAG_BOOL
    ([2, 0, 1], [False, True, False], True)
    >>> read_columns([{"w": 2}, {"w": None}], ["w"])
    {'w': None}
    """
    if not available() or type(data) is not list or any(type(a) is not str for a in attrs):
        return dict.fromkeys(attrs)
    names = np.array(list(map(id, attrs)), dtype=np.int64)
    vals, missing, flags = _read_list(_api(), id(data), names)
    return {a: None if f & FLAG_OTHER else (vals[j], missing[j], f) for j, (a, f) in enumerate(zip(attrs, flags.tolist()))}


def plain_labels(nodes: list) -> bool:
    """Whether every node is an exact ``int`` or ``str``, or an exact ``tuple`` of those (keys the reader looks up).

    Examples
    --------
    >>> plain_labels([0, "a", (1, 2), ("b", 3)]), plain_labels([(1, (2,))]), plain_labels([1.5])
    (True, False, False)
    """
    kinds = set(map(type, nodes))
    if not kinds <= {int, str, tuple}:
        return False
    if tuple not in kinds:
        return True
    tuples = nodes if kinds == {tuple} else [v for v in nodes if type(v) is tuple]
    return set(map(type, chain.from_iterable(tuples))) <= {int, str}


def reached_nodes(adj: dict, sources: list, fraction: float = 1.0) -> int:
    """The nodes a breadth-first search of ``adj`` (``G._adj``, or ``G._pred`` for searches to a node) from the
    nodes ``sources`` reaches (themselves included), counted until more than ``fraction`` of all nodes (the
    search stops there); -1 where the nodes are not the exact ints ``0 .. n-1`` (in any order), a row met is not
    an exact dict, a source is not a node, or the reader is off.

    One compiled pass numbers the rows by their keys, then the search finds every neighbour by its value: no key
    is looked up or compared (no Python code runs), no reference count is written, and only the rows the search
    meets are read.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1), (1, 2), (3, 0)])
    >>> reached_nodes(G._adj, [0]), reached_nodes(G._adj, [0], 0.4), reached_nodes(G._pred, [0])
    (3, 2, 2)
    >>> reached_nodes(nx.path_graph(["a", "b"])._adj, ["a"]), reached_nodes(G._adj, [7])
    (-1, -1)
    """
    if not available() or type(adj) is not dict or not set(map(type, sources)) <= {int}:
        return -1
    try:
        ids = np.array(sources, dtype=np.int64)
    except OverflowError:
        return -1
    return int(_reach(_api(), id(adj), len(adj), ids, float(fraction)))


def id_table(nodes: list) -> np.ndarray | None:
    """``table[label] = position`` for nodes that are distinct non-negative Python ints of a small range, else ``None``.

    Examples
    --------
    >>> id_table([2, 0, 5]).tolist(), id_table(["a"]), id_table([0, 10**9])
    ([1, -1, 0, -1, -1, 2], None, None)
    """
    n = len(nodes)
    if not n or set(map(type, nodes)) != {int}:
        return None
    try:
        labels = np.fromiter(nodes, np.int64, count=n)
    except OverflowError:
        return None
    low, high = int(labels.min()), int(labels.max())
    if low < 0 or high >= 4 * n + 1024:
        return None
    table = np.full(high + 1, -1, np.int64)
    table[labels] = np.arange(n, dtype=np.int64)
    return table


def tuple_id_table(nodes: list) -> IdTable | None:
    """An :class:`IdTable` for nodes that are exact tuples of one length of exact ints whose ranges span a small
    box (at most ``4 n + 1024`` slots: ``grid_2d_graph``'s ``(i, j)``), else ``None``.

    Examples
    --------
    >>> t = tuple_id_table([(1, 5), (0, 5), (1, 6)])
    >>> t.table.tolist(), t.shape.tolist(), tuple_id_table([(0, 1), (2,)]), tuple_id_table([(0, 0), (0, 10**9)])
    ([1, -1, 0, 2], [0, 2, 2, 5, 2, 1], None, None)
    """
    return _tuple_id_table(nodes, available())


def _tuple_id_table(nodes: list, compiled: bool) -> IdTable | None:
    n = len(nodes)
    if not n or type(nodes) is not list or type(nodes[0]) is not tuple or not 1 <= len(nodes[0]) <= 8:
        return None
    k = len(nodes[0])
    if compiled:
        ok, labels = _tuple_labels(_api(), id(nodes), n, k)
    else:
        ok = set(map(type, nodes)) == {tuple} and set(map(len, nodes)) == {k} and set(
            map(type, chain.from_iterable(nodes))) <= {int}
        try:
            labels = np.fromiter(chain.from_iterable(nodes), np.int64, count=n * k).reshape(n, k) if ok else None
        except OverflowError:
            ok = False
    if not ok:
        return None
    low = labels.min(axis=0)
    span = [int(h) - int(lo) + 1 for lo, h in zip(low.tolist(), labels.max(axis=0).tolist())]
    size = 1
    for x in span:
        size *= x
    if size > 4 * n + 1024:
        return None
    stride = np.ones(k, np.int64)
    for i in range(k - 2, -1, -1):
        stride[i] = stride[i + 1] * span[i + 1]
    table = np.full(size, -1, np.int64)
    table[(labels - low) @ stride] = np.arange(n, dtype=np.int64)
    return IdTable(table, np.stack([low, np.array(span, np.int64), stride], axis=1).reshape(-1))


def _read_unchecked(adj, attrs, ids, n=None, nodes=None, data=None):
    if type(adj) is not dict or not set(map(type, attrs)) <= {str}:
        return STOPPED, None
    tshape = _NO_TABLE
    if type(ids) is IdTable:
        ids, tshape = ids
        if tshape.dtype != np.int64 or tshape.ndim != 1 or not tshape.size or tshape.size % 3:
            return STOPPED, None
    if isinstance(ids, np.ndarray) and (ids.dtype != np.int64 or ids.ndim != 1):
        return STOPPED, None
    names = np.array(list(map(id, attrs)), dtype=np.int64)
    index = id(ids) if type(ids) is dict else 0
    table = ids if isinstance(ids, np.ndarray) else _NO_TABLE
    n = len(adj) if n is None else n
    status, heads, counts, dst, vals, missing, flags = _read(_api(), id(adj), n, index, table, tshape, names,
                                                             id(nodes) if type(nodes) is list else 0,
                                                             id(data) if type(data) is list else 0)
    if status != OK:
        return (NOT_RANGE if status == NOT_RANGE else STOPPED), None
    columns = {}
    for j, (a, f) in enumerate(zip(attrs, flags.tolist())):
        columns[a] = None if f & FLAG_OTHER else (vals[j], missing[j], f)
    return OK, Adjacency(heads, counts, dst, columns)


_NO_TABLE = np.zeros(0, np.int64)


def _off_reason() -> str | None:
    """Why the compiled reader cannot run on this interpreter (``None``: it may, its self-check permitting)."""
    implementation = platform.python_implementation()
    if implementation != "CPython":
        return f"{implementation} is not CPython"
    version = sys.version_info[:2]
    if version not in SUPPORTED_PYTHON:
        supported = ", ".join(f"{major}.{minor}" for major, minor in SUPPORTED_PYTHON)
        return f"CPython {version[0]}.{version[1]} is not one of the versions whose object layout it reads ({supported})"
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        return "a free-threaded CPython (no GIL to hold while it reads)"
    if not _layout_holds():
        return "this interpreter's object layout is not the one it reads"
    return None


@functools.cache
def available() -> bool:
    """Whether the compiled reader runs here (CPython's layout checked, the reader checked on a small graph).

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    if os.environ.get("SEMIRING_PATHS_NX_READER", "1") == "0":
        _log.debug("compiled NetworkX reader off: SEMIRING_PATHS_NX_READER=0")
        return False
    try:
        reason = _off_reason()
        if reason is None and not _self_check():
            reason = "its self-check read a small graph differently from Python"
    except Exception as exc:  # noqa: BLE001 - any failure of the probe means: read from Python
        reason = f"its probe failed: {exc!r}"
    if reason is not None:
        _log.info("compiled NetworkX reader off (NetworkX graphs are read from Python): %s", reason)
        return False
    return True


def _self_check() -> bool:
    """Read small graphs of every value and key kind and compare with what Python reads."""
    adj = {0: {1: {"w": 2.5, "c": 3}, 2: {"w": -1.0, "c": True}}, 1: {}, 2: {0: {"c": -(2**62), 5: 0}}}
    data = [d for row in adj.values() for d in row.values()]
    status, r = _read_unchecked(adj, ["w", "c"], None, None, list(adj), data)
    other_data = _read_unchecked(adj, [], None, None, None, [{}, {}, {}])[0]  # equal dicts, not the same ones
    index = {"a": 0, 5: 1, "c": 2}
    named = {"a": {5: {}, "c": {}}, 5: {}, "c": {"a": {}}}
    status_q, q = _read_unchecked(named, [], index)
    not_range = _read_unchecked(named, [], None)[0]
    status_t, t = _read_unchecked({4: {0: {}}, 0: {4: {}, 0: {}}}, [], id_table([4, 0]))
    pairs = {(0, "a"): {(1, "b"): {}}, (1, "b"): {(0, "a"): {}}}
    status_p, p = _read_unchecked(pairs, [], {(0, "a"): 0, (1, "b"): 1})
    grid = {(0, 1): {(1, 0): {}, (0, 0): {}}, (0, 0): {}, (1, 0): {(0, 1): {}}}
    status_g, g = _read_unchecked(grid, [], _tuple_id_table(list(grid), True))
    off_grid = _read_unchecked({(0, 1): {(0, 2.0): {}}, (0, 2): {}}, [], _tuple_id_table([(0, 1), (0, 2)], True))[0]
    nested = _read_unchecked({(0, (1,)): {}}, [], {(0, (1,)): 0})[0]  # a tuple holding a tuple: refused
    subclass_key = _read_unchecked({0: {1: {_StrKey("w"): 1.0}}, 1: {}}, ["w"], None)  # a key whose type it refuses
    subclass_index = _read_unchecked(named, [], {_StrKey("a"): 0, 5: 1, "c": 2})[0]
    ok = (
        status == status_q == OK and not_range == NOT_RANGE
        and r.heads.tolist() == [0, 1, 2] and r.counts.tolist() == [2, 0, 1] and r.dst.tolist() == [1, 2, 0]
        and r.columns["w"][0].view(np.float64)[:2].tolist() == [2.5, -1.0]
        and r.columns["w"][1].tolist() == [False, False, True] and r.columns["w"][2] == FLAG_FLOAT
        and r.columns["c"][0].tolist() == [3, 1, -(2**62)] and r.columns["c"][2] == FLAG_INT | FLAG_BOOL
        and q.heads.tolist() == [0, 1, 2] and q.counts.tolist() == [2, 0, 1] and q.dst.tolist() == [1, 2, 0]
        and status_t == OK and t.heads.tolist() == [0, 1] and t.dst.tolist() == [1, 0, 1]
        and status_p == OK and p.dst.tolist() == [1, 0] and nested == STOPPED
        and status_g == OK and g.dst.tolist() == [2, 1, 0] and off_grid == STOPPED
        and subclass_key[0] == OK and subclass_key[1].columns["w"] is None and subclass_index == STOPPED
        and other_data == STOPPED
    )
    return ok
