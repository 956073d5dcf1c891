"""Hostile objects in NetworkX graphs never crash the process, and every served function answers as NetworkX does.

The backend converts NetworkX's dicts with a compiled reader that walks them
through CPython's C API, holding borrowed references
(:mod:`graphs.nx_backend._dict_reader`).  A dict lookup can run Python code
(a key's ``__eq__``), and Python code can free what the reader holds, so a
graph of hostile objects must be read from Python, where it cannot crash.

Each group of hostile graph kinds runs in a subprocess (this file run as a
script), so that a crash is a failing test that names its signal rather than
a dead test run.  The subprocess calls every function the backend serves
(:data:`graphs.nx_backend.interface.FUNCTIONS`) through NetworkX's dispatch,
on an undirected and a directed graph of each kind (a DAG for the DAG
functions), once with ``backend="semiring_paths"`` and once with
``backend="networkx"``, each on a fresh copy of the graph, and prints one
JSON verdict per call.  The hostile objects are armed only during the calls:

* edge-data keys: ``str`` and ``int`` subclasses, an exact ``int`` whose hash
  is the weight name's, and a ``str`` subclass equal to ``"weight"`` whose
  ``__eq__`` clears the graph's edges, raises, returns a NumPy array, or
  returns an object whose ``__bool__`` raises;
* nodes: ``str`` and ``int`` subclasses, and ones whose hashes collide (every
  lookup compares) with the same four kinds of ``__eq__``, alone and inside
  tuples (tuples of exact ints and strs are read compiled);
* dict subclasses: adjacency rows that iterate in reverse, edge data whose
  ``get`` and ``__getitem__`` scale the weight, a graph class whose three dict
  factories are such subclasses;
* ``float`` and ``int`` subclasses as weights, with their own ``__add__``;
* a thread that adds and removes a node and churns every edge-data dict
  while the backend reads the graph (``sys.setswitchinterval`` small);
* the reported defect: a large graph (freed dicts get unmapped) whose weight
  key clears the graph when compared.

A call passes when the backend returned NetworkX's answer, raised NetworkX's
exception type, or declined (``NotImplementedError``); where the graph was
changed during the call (a hostile ``__eq__`` that clears it, the thread),
also when it gave NetworkX's answer on the graph as it was before or after
the change, or raised ``RuntimeError`` (NetworkX's "dictionary changed size
during iteration"); where a hostile object raises, also when that error came
through.  Every hostile object must have acted during some backend call, and
for benign objects the backend must answer most calls itself.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import ItemsView, Iterator, KeysView, ValuesView
from pathlib import Path

import numpy as np

if __name__ == "__main__":
    import networkx as nx
else:
    import pytest

    nx = pytest.importorskip("networkx")

B = "semiring_paths"
ROOT = Path(__file__).resolve().parents[1]
#: NetworkX's graph classes by (directed, multigraph)
CLASSES = {(False, False): nx.Graph, (True, False): nx.DiGraph, (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}

# ----------------------------------------------------------------------------------------------
# Hostile objects (armed only while a function runs).
# ----------------------------------------------------------------------------------------------

#: ``armed``: hostile objects act; ``graph``: what a mutating object mutates (once: it is cleared then);
#: ``action``: the kind's action; ``fired``: how often an armed object acted.
STATE: dict = {"armed": False, "graph": None, "action": None, "fired": 0}
TIMES: dict = {}


class Hostile(Exception):
    """Raised by a hostile object."""


class BadBool:
    """A comparison result whose truth value raises."""

    def __bool__(self):
        raise Hostile("no truth value")


def _clear_edges(default):
    G = STATE["graph"]
    if G is not None:
        STATE["graph"] = None
        G.clear_edges()
    return default()


def _raise(default):
    raise Hostile("hostile comparison")


ACTIONS = {
    "clears the edges": _clear_edges,
    "raises": _raise,
    "returns an array": lambda default: np.array([True, False]),
    "returns a bad bool": lambda default: BadBool(),
}
#: The exception type each action's error reaches the caller as.
ACTION_ERRORS = {"raises": "Hostile", "returns an array": "ValueError", "returns a bad bool": "Hostile"}


def _compare(default):
    if not STATE["armed"] or STATE["action"] is None:
        return default()
    STATE["fired"] += 1
    return STATE["action"](default)


class Key(str):
    """A plain ``str`` subclass."""


class IntKey(int):
    """A plain ``int`` subclass."""


class TrapKey(str):
    """A ``str`` subclass hashed as the str it spells, whose ``__eq__`` is the kind's action when armed."""

    __hash__ = str.__hash__

    def __eq__(self, other):
        return _compare(lambda: str.__eq__(self, other))


class TrapName(str):
    """A node name whose hash collides with others' (lookups compare), ``__eq__`` hostile when armed."""

    def __hash__(self):
        return int(self[1:]) % 3

    def __eq__(self, other):
        return _compare(lambda: str.__eq__(self, other))

    def __ne__(self, other):
        return not self == other


class TrapNum(int):
    """An int node whose hash collides with others', ``__eq__`` hostile when armed."""

    def __hash__(self):
        return int(self) % 3

    def __eq__(self, other):
        return _compare(lambda: int.__eq__(self, other))

    def __ne__(self, other):
        return not self == other


class Row(dict):
    """An adjacency row that iterates in reverse insertion order (its views agree)."""

    def __iter__(self):
        return reversed(list(dict.keys(self)))

    def keys(self):
        return KeysView(self)

    def values(self):
        return ValuesView(self)

    def items(self):
        return ItemsView(self)


class Data(dict):
    """Edge data whose ``get`` and ``__getitem__`` read ten times the stored weight."""

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        return value * 10 if type(key) is str and key == "weight" else value

    def get(self, key, default=None):
        return self[key] if key in self else default


class Outer(dict):
    """A graph's outer dict of a dict subclass."""


class Weight(float):
    """A float weight whose sums add one half."""

    def __add__(self, other):
        return Weight(float(self) + float(other) + 0.5)

    __radd__ = __add__


class Count(int):
    """An int weight whose sums add one."""

    def __add__(self, other):
        return Count(int(self) + int(other) + 1)

    __radd__ = __add__


def _factory_graph(directed: bool, multi: bool):
    class Factories(CLASSES[directed, multi]):
        node_dict_factory = Outer
        adjlist_outer_dict_factory = Outer
        adjlist_inner_dict_factory = Row
        edge_attr_dict_factory = Data

    return Factories()


# ----------------------------------------------------------------------------------------------
# Graph kinds.
# ----------------------------------------------------------------------------------------------

N, M = 12, 30


@functools.cache
def _edges(n: int, m: int, seed: int) -> list:
    rng = random.Random(seed)
    pairs = set()
    while len(pairs) < m:
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and (v, u) not in pairs:
            pairs.add((u, v))
    return [(u, v, rng.randint(1, 5), rng.randint(1, 9)) for u, v in sorted(pairs)]


def _plain(w, c):
    return {"weight": w, "capacity": c}


class Kind:
    """How to build a graph of one hostile kind: labels, edge data, rows, and what the calls may answer."""

    def __init__(self, name, *, label=None, data=_plain, rows=None, factory=False, action=None, thread=False,
                 n=N, m=M, functions=None, served=False):
        self.name, self.label, self.data, self.rows, self.factory = name, label or (lambda i: i), data, rows, factory
        self.action, self.thread, self.n, self.m, self.functions = action, thread, n, m, functions
        #: benign objects the backend is expected to answer itself (not decline) for most calls
        self.served = served

    def build(self, variant: str):
        """A fresh graph: ``variant`` is ``directed``, ``undirected`` or ``dag``, ``multi-`` before it for a multigraph
        (two parallel edges on every third pair)."""
        multi = variant.startswith("multi-")
        directed = not variant.endswith("undirected")
        G = _factory_graph(directed, multi) if self.factory else CLASSES[directed, multi]()
        labels = [self.label(i) for i in range(self.n)]
        G.add_nodes_from(labels)
        for k, (u, v, w, c) in enumerate(_edges(self.n, self.m, seed=self.n + self.m)):
            if variant.endswith("dag") and u > v:
                u, v = v, u
            a, b = labels[u], labels[v]
            for p in range(1 + (multi and k % 3 == 0)):
                key = G.add_edge(a, b)
                d = G._adj[a][b][key] if multi else G._adj[a][b]
                d.clear()
                d.update(self.data(w + p, c))
        if self.rows is not None:
            self.rows(G)
        return G


def _subclass_data(G):
    """Replace every edge-data dict by a :class:`Data` (both directions share it, as NetworkX's do)."""
    seen: dict = {}
    for rows in ([G._adj, G._pred] if G.is_directed() else [G._adj]):
        for nbrs in rows.values():
            for keydict in (nbrs.values() if G.is_multigraph() else [nbrs]):
                for v, d in list(keydict.items()):
                    keydict[v] = seen.setdefault(id(d), Data(d))


def _subclass_rows(G):
    """Replace every adjacency row (successors and predecessors) by a :class:`Row`."""
    for rows in ([G._adj, G._pred] if G.is_directed() else [G._adj]):
        for u in list(rows):
            rows[u] = Row(rows[u])


def _trap_data(w, c):
    return {TrapKey("weight"): w, "capacity": c}


KINDS = {k.name: k for k in [
    Kind("edge keys: str subclass", data=lambda w, c: {Key("weight"): w, Key("tag"): 0, "capacity": c},
         served=True),
    Kind("edge keys: int subclass", data=lambda w, c: {"weight": w, IntKey(7): 0, "capacity": c}, served=True),
    Kind("edge keys: exact int colliding with the name",
         data=lambda w, c: {hash("weight"): 0, "weight": w, "capacity": c}, served=True),
    *[Kind(f"edge keys: __eq__ {a}", data=_trap_data, action=a) for a in ACTIONS],
    Kind("nodes: str subclass", label=lambda i: Key(f"v{i}") if i % 2 else f"v{i}", served=True),
    Kind("nodes: int subclass", label=lambda i: IntKey(i) if i % 2 else i, served=True),
    *[Kind(f"nodes: colliding hashes, __eq__ {a}", label=lambda i: TrapName(f"t{i}"), action=a) for a in ACTIONS],
    Kind("nodes: int subclass, colliding hashes, __eq__ raises", label=TrapNum, action="raises"),
    Kind("nodes: tuples of ints", label=lambda i: (i // 7, i % 7), served=True),
    Kind("nodes: tuples holding a str subclass", label=lambda i: (Key(f"v{i}"), i) if i % 2 else (f"v{i}", i),
         served=True),
    Kind("nodes: tuples holding an int subclass", label=lambda i: (IntKey(i), 0) if i % 2 else (i, 0), served=True),
    *[Kind(f"nodes: tuples holding colliding hashes, __eq__ {a}", label=lambda i: (TrapName(f"t{i}"), 0), action=a)
      for a in ACTIONS],
    Kind("dicts: rows of a subclass", rows=_subclass_rows, served=True),
    Kind("dicts: edge data of a subclass", rows=_subclass_data, served=True),
    Kind("dicts: a graph class of subclass factories", factory=True, served=True),
    Kind("values: float subclass", data=lambda w, c: {"weight": Weight(w), "capacity": Weight(c)}),
    Kind("values: int subclass", data=lambda w, c: {"weight": Count(w), "capacity": Count(c)}),
    Kind("threads: a node added and removed, edge data churned", thread=True),
    Kind("defect: a large graph whose weight key clears it when compared", data=_trap_data,
         action="clears the edges", n=6000, m=30000,
         functions=["single_source_dijkstra_path_length", "dijkstra_predecessor_and_distance"]),
]}
GROUPS = {  # one subprocess each
    "edge keys, dicts and values": [k for k in KINDS if k.startswith(("edge keys", "dicts", "values"))],
    "nodes": [k for k in KINDS if k.startswith("nodes")],
    "threads and the reported defect": [k for k in KINDS if k.startswith(("threads", "defect"))],
}


# ----------------------------------------------------------------------------------------------
# The worker: every served function on every kind of a group, one JSON line per call.
# ----------------------------------------------------------------------------------------------

def _dispatchable(name: str):
    """NetworkX's dispatchable function ``name`` (``nx.name``, else the module of ``networkx`` that has it)."""
    f = getattr(nx, name, None)
    if f is None:
        for mod in list(sys.modules.values()):
            g = getattr(mod, name, None) if (getattr(mod, "__name__", "") or "").startswith("networkx.") else None
            if g is not None and B in getattr(g, "backends", ()):
                return g
    return f


def _arguments(f, G, n: int) -> tuple[list, dict]:
    """Arguments for ``f`` on ``G``: the graph, the first and the ``n``-th node as source and target, ..."""
    nodes = list(G)
    a, b = nodes[0], nodes[n - 1]
    required = {"source": a, "_s": a, "n": a, "target": b, "_t": b, "sources": [a], "distance": 2}
    optional = {"weight": "weight", "capacity": "capacity", "distance": "weight"}
    args, kwargs = [], {}
    for p, q in inspect.signature(f).parameters.items():
        if q.kind in (q.VAR_POSITIONAL, q.VAR_KEYWORD):
            continue
        if p in ("G", "flowG"):
            args.append(G)
        elif q.default is inspect.Parameter.empty:
            args.append(required[p])
        elif p in optional:
            kwargs[p] = optional[p]
    return args, kwargs


def _materialize(x):
    if isinstance(x, Iterator):
        return [_materialize(i) for i in x]
    if type(x) in (list, tuple):
        return type(x)(map(_materialize, x))
    if type(x) is dict:
        return {k: _materialize(v) for k, v in x.items()}
    return x


def _sorted(items) -> list:
    return sorted(items, key=repr)


def canon(x):
    """A JSON-able form of a result: types kept, dicts and sets unordered, floats to 12 digits."""
    if isinstance(x, nx.Graph):
        def edge(u, v, d):
            ends = [canon(u), canon(v)]
            return [*(ends if x.is_directed() else _sorted(ends)), canon({k: v for k, v in d.items() if k != "_junk"})]
        return ["graph", type(x).__name__, _sorted(map(canon, x.nodes)), _sorted(edge(*e) for e in x.edges(data=True))]
    if isinstance(x, dict):
        return ["dict", _sorted([canon(k), canon(v)] for k, v in x.items())]
    if isinstance(x, (set, frozenset)):
        return ["set", _sorted(map(canon, x))]
    if isinstance(x, (list, tuple)):
        return [canon(i) for i in x]
    if isinstance(x, np.ndarray):
        return ["array", str(x.dtype), canon(x.tolist())]
    if isinstance(x, (bool, np.bool_)):
        return [type(x).__name__, bool(x)]
    if isinstance(x, float):
        return [type(x).__name__, "nan" if x != x else float(f"{x:.12g}")]
    if isinstance(x, int):
        return [type(x).__name__, int(x)]
    if isinstance(x, str):
        return [type(x).__name__, str(x)]
    if x is None:
        return None
    return [type(x).__name__, repr(x)]


def _mutator(stop: threading.Event, go: threading.Event, extra) -> None:
    """While ``go`` is set: add and remove the node ``extra`` and churn every edge-data dict of ``STATE["graph"]``."""
    while not stop.is_set():
        if not go.wait(0.05):
            continue
        G = STATE["graph"]
        if G is None:
            continue
        STATE["fired"] += 1
        try:
            G.add_node(extra)
            for nbrs in list(G._adj.values()):
                for d in list(nbrs.values()):
                    d["_junk"] = 1
                    del d["_junk"]
            G.remove_node(extra)
        except (RuntimeError, KeyError, nx.NetworkXError):  # the graph changed under this loop too
            pass


def _call(f, G, n, backend, go=None, armed=True):
    args, kwargs = _arguments(f, G, n)
    start = time.perf_counter()
    STATE["fired"] = 0
    STATE["armed"] = armed
    if go is not None:
        go.set()
    try:
        out = ("ok", _materialize(f(*args, backend=backend, **kwargs)))
    except Exception as exc:  # noqa: BLE001 - the exception is the answer compared
        out = ("raise", type(exc).__name__, str(exc)[:300])
    finally:
        if go is not None:
            go.clear()
        STATE["armed"] = False
    fired = STATE["fired"]
    STATE["graph"] = None
    TIMES[backend] = TIMES.get(backend, 0.0) + time.perf_counter() - start
    return (["ok", canon(out[1])] if out[0] == "ok" else list(out)), fired


def run_kind(kind: Kind, multi: bool = False, report=print) -> list[dict]:
    """Every function of ``kind`` (all that the backend serves by default) on its graphs: one verdict per call.

    ``multi``: on multigraphs.  ``report`` gets a line naming each backend call before it is made (so that a
    crash names it).
    """
    from graphs.nx_backend import dag
    from graphs.nx_backend.interface import FUNCTIONS

    nx.config.cache_converted_graphs = False
    STATE["action"] = ACTIONS.get(kind.action)
    mutating = kind.action == "clears the edges"
    stop, go = threading.Event(), threading.Event()
    switch = sys.getswitchinterval()
    if kind.thread:
        sys.setswitchinterval(1e-5)
        threading.Thread(target=_mutator, args=(stop, go, kind.n), daemon=True).start()
    rows = []
    for name in kind.functions or sorted(FUNCTIONS):
        f = _dispatchable(name)
        for variant in ("dag", "undirected") if name in dag.__all__ else ("directed", "undirected"):
            if kind.functions and variant == "undirected":
                continue
            variant = "multi-" + variant if multi else variant
            G = kind.build(variant)
            STATE["graph"] = G if mutating else None
            theirs, _ = _call(f, G, kind.n, "networkx")
            others = []
            if mutating or kind.thread:  # the graph as it was before the hostile object (or the thread) changed it
                others.append(_call(f, kind.build(variant), kind.n, "networkx", armed=False)[0])
                H = kind.build(variant)  # and as it may have left it
                if mutating:
                    H.clear_edges()
                else:
                    H.add_node(kind.n)
                others.append(_call(f, H, kind.n, "networkx", armed=False)[0])
            G = kind.build(variant)
            STATE["graph"] = G if mutating or kind.thread else None
            TIMES.clear()
            report(json.dumps({"calling": name, "kind": kind.name, "graph": variant}), flush=True)
            ours, fired = _call(f, G, kind.n, B, go if kind.thread else None)
            rows.append({"kind": kind.name, "function": name, "graph": variant, "fired": fired,
                         "seconds": round(sum(TIMES.values()), 4),
                         "verdict": verdict(kind, ours, theirs, others),
                         "ours": json.dumps(ours)[:300], "theirs": json.dumps(theirs)[:300]})
    stop.set()
    sys.setswitchinterval(switch)
    return rows


def verdict(kind: Kind, ours: list, theirs: list, others: list) -> str:
    """Why the backend's outcome ``ours`` is acceptable, or ``"DIFFERENT"``."""
    if ours == theirs:
        return "same answer" if ours[0] == "ok" else "same error"
    if ours[0] == "raise":
        if ours[1] == "NotImplementedError":
            return "declined"
        if theirs[0] == "raise" and ours[1] == theirs[1]:
            return "same error"
        if ours[1] == ACTION_ERRORS.get(kind.action):
            return "the hostile object's error"
        if ours[1] == "RuntimeError" and (kind.thread or kind.action == "clears the edges"):
            return "changed during the call"
    for other in others:
        if ours == other or (ours[0] == other[0] == "raise" and ours[1] == other[1]):
            return "the graph before or after the change"
    return "DIFFERENT"


def main(group: str, multi: bool = False) -> None:
    for name in GROUPS[group]:
        for row in run_kind(KINDS[name], multi):
            print(json.dumps(row), flush=True)


# ----------------------------------------------------------------------------------------------
# The tests.
# ----------------------------------------------------------------------------------------------

def run_group(group: str, multi: bool = False, timeout: float = 600) -> tuple[int, list[dict], dict | None, str]:
    """Run one group's worker in a subprocess: its exit status, its verdicts, the call it died in, its stderr's tail."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), group, *(["multi"] if multi else [])],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    rows = [line for line in lines if "verdict" in line]
    last = lines[-1] if lines and "calling" in lines[-1] else None
    return out.returncode, rows, last, out.stderr[-3000:]


def _describe(code: int) -> str:
    return f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"


if __name__ != "__main__":

    def _check_group(group: str, multi: bool) -> None:
        from graphs.nx_backend.interface import FUNCTIONS

        code, rows, last, err = run_group(group, multi)
        assert code == 0, f"the worker for {group!r} died ({_describe(code)}) in {last} after {len(rows)} calls:\n{err}"
        bad = [r for r in rows if r["verdict"] == "DIFFERENT"]
        assert not bad, "\n".join(json.dumps(r) for r in bad[:20])
        for name in GROUPS[group]:
            kind = KINDS[name]
            mine = [r for r in rows if r["kind"] == name]
            assert {r["function"] for r in mine} == set(kind.functions or FUNCTIONS), name  # every function called
            if kind.action or kind.thread:  # the hostile object (or the thread) acted during backend calls
                assert any(r["fired"] for r in mine), name
            if kind.served:  # benign objects: the backend answers most calls itself
                answered = sum(r["verdict"] in ("same answer", "same error") for r in mine)
                assert answered >= 0.75 * len(mine), (name, answered, len(mine))

    # The fast tier keeps the reported defect and the threads; the whole cross products of hostile keys, nodes and
    # values by every served function run in the slow tier (CI runs both).
    @pytest.mark.parametrize("group", [pytest.param(g, marks=() if g.startswith("threads") else pytest.mark.slow)
                                       for g in GROUPS])
    def test_no_crash_and_networkx_answers(group):
        _check_group(group, multi=False)

    @pytest.mark.slow
    @pytest.mark.parametrize("group", list(GROUPS))
    def test_no_crash_and_networkx_answers_on_multigraphs(group):
        _check_group(group, multi=True)


if __name__ == "__main__":
    main(sys.argv[1], multi=sys.argv[2:] == ["multi"])
