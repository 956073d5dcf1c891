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

Rows and data dicts are prefetched in two stages: the object a few arcs
ahead, then, once its header has arrived, the table its ``ma_keys`` word
points to (CPython 3.11-3.13's dict layout).  A prefetch never faults, and the
word is read only from objects whose type is ``dict``, so another layout only
makes that prefetch useless, never wrong.

Safety.  The kernel holds the GIL from start to end (no ``nogil``), so no
other thread runs while borrowed pointers are live; keys are looked up only
when their type hashes and compares in C (``int``, ``str``), so no Python code
runs inside the kernel either.  Any object it does not read exactly --
a dict of another type, a key of another type, an ``int`` beyond int64, a
value other than ``int``, ``bool`` and ``float``, a size that does not match
-- makes it stop and report, and the caller reads that part from Python.
The two layout facts it relies on (``ob_type`` after the reference count;
a ``float``'s double after the object header) are checked once against
live objects by :func:`available`, and the whole reader is checked against
the Python reading of a small graph before first use; a mismatch turns it
off (logged on ``graphs.nx_backend``).  ``SEMIRING_PATHS_NX_READER=0``
turns it off too.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os
import platform
import sys
import sysconfig
from typing import Any, NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic

__all__ = ["available", "read_adjacency", "id_table", "Adjacency", "OK", "STOPPED", "NOT_RANGE", "FLAG_INT", "FLAG_BOOL",
           "FLAG_FLOAT", "FLAG_OTHER"]

_log = logging.getLogger("graphs.nx_backend")

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
_NEXT, _GET, _AS_LL, _SIZE, _T_DICT, _T_INT, _T_BOOL, _T_FLOAT, _T_STR, _TRUE = range(10)
_AHEAD = 16  # arcs prefetched ahead
_ROWS_AHEAD = 4  # rows prefetched ahead (headers while sizing, their entries while reading)


# ----------------------------------------------------------------------------------------------
# Intrinsics: loads at an address, a prefetch, and calls of C functions at an address.
# ----------------------------------------------------------------------------------------------

@intrinsic
def _load_word(typingctx, addr):
    """The int64 at ``addr``."""
    def codegen(context, builder, sig, args):
        return builder.load(builder.inttoptr(args[0], ir.IntType(64).as_pointer()))
    return types.int64(types.int64), codegen


@intrinsic
def _prefetch(typingctx, addr):
    """Prefetch the cache line at ``addr`` for reading (never faults)."""
    def codegen(context, builder, sig, args):
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = builder.module.declare_intrinsic("llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]))
        builder.call(fn, [builder.inttoptr(args[0], i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(types.int64), codegen


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

@njit(cache=True)
def _read(api, adj, n, index, table, attrs):  # pragma: no cover - jitted
    """Read ``G._adj`` (``adj``: its address, ``n`` rows): row sizes, neighbour ids, the attributes ``attrs``.

    Returns ``(status, counts, dst, vals, missing, flags)``: ``counts[i]`` the
    arcs of the i-th row; ``dst`` each arc's neighbour id: the key's value in
    the dict at ``index`` (``index != 0``), else ``table[key]`` (``table`` not
    empty), else the key itself (the rows' keys must be ``0 .. n-1`` in order,
    else the status is ``NOT_RANGE``); per
    attribute ``j``: ``vals[j]`` the int64 values (the float64 bits of
    floats), ``missing[j]`` where the data dict lacks it, ``flags[j]`` the
    types met (``FLAG_*``).  ``status``: ``OK`` or why it stopped.
    """
    k = attrs.shape[0]
    none = (np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros((k, 0), np.int64), np.zeros((k, 0), np.bool_),
            np.zeros(k, np.int64))
    scratch = np.zeros(4, np.int64)  # pos, key, value, overflow
    sp = scratch.ctypes.data
    ovf = sp + 24
    inner = np.zeros(3, np.int64)
    ip = inner.ctypes.data
    t_dict, t_int, t_str = api[_T_DICT], api[_T_INT], api[_T_STR]
    # 1. The rows (borrowed, by PyDict_Next); keys read as their own ids must be 0 .. n-1 in order.
    own = index == 0 and table.shape[0] == 0
    rows = np.empty(n, np.int64)
    i = 0
    scratch[0] = 0
    while _call_next(api[_NEXT], adj, sp, sp + 8, sp + 16):
        if i >= n:
            return (_STOP_SIZE,) + none
        if own:
            key = scratch[1]
            if _load_word(key + 8) != t_int:
                return (NOT_RANGE,) + none
            scratch[3] = 0
            if _call_2(api[_AS_LL], key, ovf) != i or scratch[3] != 0:
                return (NOT_RANGE,) + none
        row = scratch[2]
        if _load_word(row + 8) != t_dict:
            return (_STOP_SIZE,) + none
        rows[i] = row
        i += 1
    if i != n:
        return (_STOP_SIZE,) + none
    counts = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if i + _ROWS_AHEAD < n:
            _prefetch(rows[i + _ROWS_AHEAD])
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
            entries = _load_word(rows[i + _ROWS_AHEAD] + 32)
            _prefetch(entries)
            _prefetch(entries + 64)
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
    # 3. Neighbour ids.
    dst = np.empty(m, np.int32)
    for a in range(m):
        if a + _AHEAD < m:
            _prefetch(keys[a + _AHEAD])
        key = keys[a]
        t = _load_word(key + 8)
        if index == 0:
            if t != t_int:
                return (_STOP_KEY,) + none
            scratch[3] = 0
            v = _call_2(api[_AS_LL], key, ovf)
            if own:
                if scratch[3] != 0 or v < 0 or v >= n:
                    return (_STOP_KEY,) + none
            else:
                if scratch[3] != 0 or v < 0 or v >= table.shape[0] or table[v] < 0:
                    return (_STOP_KEY,) + none
                v = table[v]
        else:
            if t != t_int and t != t_str:
                return (_STOP_KEY,) + none
            r = _call_2(api[_GET], index, key)
            if r == 0 or _load_word(r + 8) != t_int:
                return (_STOP_KEY,) + none
            scratch[3] = 0
            v = _call_2(api[_AS_LL], r, ovf)
        dst[a] = v
    # 4. Attributes: PyDict_GetItem on each data dict (borrowed), the dicts and their entries prefetched ahead.
    t_bool, t_float, true = api[_T_BOOL], api[_T_FLOAT], api[_TRUE]
    vals = np.empty((k, m), np.int64)
    missing = np.empty((k, m), np.bool_)
    flags = np.zeros(k, np.int64)
    for j in range(k):
        name = attrs[j]
        f = 0
        for a in range(m):  # two stages: a data dict 2 * _AHEAD arcs ahead, then its table of entries
            if a + 2 * _AHEAD < m:
                _prefetch(datas[a + 2 * _AHEAD])
            if a + _AHEAD < m:
                ahead = datas[a + _AHEAD]
                if _load_word(ahead + 8) == t_dict:
                    entries = _load_word(ahead + 32)
                    _prefetch(entries)
                    _prefetch(entries + 64)
            d = datas[a]
            if _load_word(d + 8) != t_dict:
                f |= FLAG_OTHER
                break
            r = _call_2(api[_GET], d, name)
            if r == 0:
                missing[j, a] = True
                vals[j, a] = 0
                continue
            missing[j, a] = False
            t = _load_word(r + 8)
            if t == t_float:
                vals[j, a] = _load_word(r + 16)  # the double's bits
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
    return OK, counts, dst, vals, missing, flags


# ----------------------------------------------------------------------------------------------
# The Python side.
# ----------------------------------------------------------------------------------------------

def _address(fn: Any) -> int:
    return ctypes.cast(fn, ctypes.c_void_p).value


@functools.cache
def _api() -> np.ndarray:
    api = ctypes.pythonapi
    table = [0] * 10
    table[_NEXT] = _address(api.PyDict_Next)
    table[_SIZE] = _address(api.PyDict_Size)
    table[_GET] = _address(api.PyDict_GetItem)
    table[_AS_LL] = _address(api.PyLong_AsLongLongAndOverflow)
    table[_T_DICT], table[_T_INT], table[_T_BOOL] = id(dict), id(int), id(bool)
    table[_T_FLOAT], table[_T_STR], table[_TRUE] = id(float), id(str), id(True)
    return np.array(table, dtype=np.int64)


class Adjacency(NamedTuple):
    """What :func:`read_adjacency` read.

    ``counts``: arcs per row (``G._adj`` order); ``dst``: each arc's
    neighbour id; ``columns``: requested attribute -> ``(values, missing,
    flags)`` -- int64 values (the float64 bits where ``flags`` is
    :data:`FLAG_FLOAT` alone; read them with ``.view(np.float64)``), the bool
    mask of arcs without the attribute and the ``FLAG_*`` bits met, or
    ``None`` where the reader could not hold the column exactly (read it
    from Python then).
    """

    counts: np.ndarray
    dst: np.ndarray
    columns: dict


def _layout_holds() -> bool:
    """Whether this interpreter lays objects out as the kernel reads them (checked on live objects)."""
    if platform.python_implementation() != "CPython" or sysconfig.get_config_var("Py_GIL_DISABLED"):
        return False
    if ctypes.sizeof(ctypes.c_void_p) != 8 or sys.byteorder != "little":
        return False
    x, big = 2.5, 10**30
    word = ctypes.c_int64.from_address
    if any(word(id(o) + 8).value != id(type(o)) for o in (x, big, {}, "s", True)):
        return False
    return ctypes.c_double.from_address(id(x) + 16).value == x and float.__basicsize__ == 24


def read_adjacency(adj: dict, attrs: list, ids: dict | np.ndarray | None = None) -> tuple[int, Adjacency | None]:
    """Read a plain NetworkX adjacency (``G._adj``: a dict of exact dicts) in one compiled pass.

    Parameters
    ----------
    adj : dict
        ``G._adj`` (or ``G._pred``) of a NetworkX graph.
    attrs : list
        Edge attribute names to read (``str`` only).
    ids : dict, numpy.ndarray or None
        How a key becomes a vertex id: a dict node -> id (keys of type
        ``int`` or ``str``); an int64 table, ``ids[key]`` for int keys
        ``0 <= key < len(ids)`` (-1: not a node; see :func:`id_table`); or
        ``None``: the rows' keys are the ints ``0 .. n-1`` in order, each key
        its own id.

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
    return _read_unchecked(adj, attrs, ids)


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


def _read_unchecked(adj, attrs, ids):
    if type(adj) is not dict or any(type(a) is not str for a in attrs):
        return STOPPED, None
    names = np.array([id(a) for a in attrs], dtype=np.int64)
    index = id(ids) if type(ids) is dict else 0
    table = ids if isinstance(ids, np.ndarray) else _NO_TABLE
    status, counts, dst, vals, missing, flags = _read(_api(), id(adj), len(adj), index, table, names)
    if status != OK:
        return (NOT_RANGE if status == NOT_RANGE else STOPPED), None
    columns = {a: None if f & FLAG_OTHER else (vals[j], missing[j], f)
               for j, (a, f) in enumerate(zip(attrs, flags.tolist()))}
    return OK, Adjacency(counts, dst, columns)


_NO_TABLE = np.zeros(0, np.int64)


@functools.cache
def available() -> bool:
    """Whether the compiled reader runs here (CPython's layout checked, the reader checked on a small graph).

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    if os.environ.get("SEMIRING_PATHS_NX_READER", "1") == "0":
        return False
    try:
        if not _layout_holds():
            _log.debug("compiled NetworkX reader off: this interpreter's object layout is not CPython's")
            return False
        return _self_check()
    except Exception as exc:  # noqa: BLE001 - any failure of the probe means: read from Python
        _log.debug("compiled NetworkX reader off: %r", exc)
        return False


def _self_check() -> bool:
    """Read a small graph of every value kind and compare with what Python reads."""
    adj = {0: {1: {"w": 2.5, "c": 3}, 2: {"w": -1.0, "c": True}}, 1: {}, 2: {0: {"c": -(2**62)}}}
    status, r = _read_unchecked(adj, ["w", "c"], None)
    index = {"a": 0, 5: 1, "c": 2}
    named = {"a": {5: {}, "c": {}}, 5: {}, "c": {"a": {}}}
    status_q, q = _read_unchecked(named, [], index)
    not_range = _read_unchecked(named, [], None)[0]
    status_t, t = _read_unchecked({4: {0: {}}, 0: {4: {}, 0: {}}}, [], id_table([4, 0]))
    ok = (
        status == status_q == OK and not_range == NOT_RANGE
        and r.counts.tolist() == [2, 0, 1] and r.dst.tolist() == [1, 2, 0]
        and r.columns["w"][0].view(np.float64)[:2].tolist() == [2.5, -1.0]
        and r.columns["w"][1].tolist() == [False, False, True] and r.columns["w"][2] == FLAG_FLOAT
        and r.columns["c"][0].tolist() == [3, 1, -(2**62)] and r.columns["c"][2] == FLAG_INT | FLAG_BOOL
        and q.counts.tolist() == [2, 0, 1] and q.dst.tolist() == [1, 2, 0]
        and status_t == OK and t.dst.tolist() == [1, 0, 1]
    )
    if not ok:
        _log.debug("compiled NetworkX reader off: its self-check read a small graph differently from Python")
    return ok
