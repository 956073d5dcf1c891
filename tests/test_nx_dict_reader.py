"""The compiled reader of NetworkX's dicts gives what reading them from Python gives, or steps aside.

``convert_from_nx`` reads plain adjacencies with one compiled pass
(:mod:`graphs.nx_backend._dict_reader`) and falls back to Python where the
reader stops.  Each conversion here is done twice, reader on and off, on
graphs whose labels, adjacency keys and values cover what it reads (ints,
strings, floats with NaN and infinities, bools, ints at int64's edges) and
what it must hand back (tuples, NumPy and bool keys, ints beyond int64,
strings and ``None`` as values, dict subclasses); the results must be
identical, and the reader must have run where it applies.
"""

from __future__ import annotations

import logging
import sys
from contextlib import contextmanager
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

from graphs.nx_backend import _dict_reader as reader  # noqa: E402
from graphs.nx_backend import convert  # noqa: E402
from graphs.nx_backend.attributes import MISSING  # noqa: E402

pytestmark = pytest.mark.skipif(not reader.available(), reason="the compiled reader needs CPython")

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
INTS = st.one_of(st.integers(-5, 50), st.sampled_from([2**63 - 1, -(2**63), True, False]))
FLOATS = st.one_of(st.floats(-10, 10, allow_nan=False), st.sampled_from([float("inf"), -float("inf"), float("nan"), -0.0]))
OTHERS = st.sampled_from([2**63, 2**70, None, "x"])
#: Per graph the values of one family: what the reader holds (ints, floats), or a mix it hands back.
FAMILIES = {"ints": INTS, "floats": FLOATS, "numbers": INTS | FLOATS, "anything": INTS | FLOATS | OTHERS}
DEFAULTS = st.sampled_from([1, 1.5, True, float("nan"), None, 2**64])
LABELS = ["range", "range shuffled", "strings", "ints and strings", "tuples", "grid tuples", "tuples of strings",
          "range, numpy keys", "range, bool key", "big ints"]


class DataDict(dict):
    """Edge data of a dict subclass (the reader leaves them to Python)."""


@st.composite
def graphs(draw):
    directed = draw(st.booleans())
    n = draw(st.integers(1, 9))
    labels = draw(st.sampled_from(LABELS))
    names: list = list(range(n))
    if labels == "range shuffled":
        names = draw(st.permutations(names))
    elif labels == "strings":
        names = [f"v{i}" for i in range(n)]
    elif labels == "ints and strings":
        names = [i if i % 2 else f"v{i}" for i in range(n)]
    elif labels == "tuples":
        names = [(i, -i) for i in range(n)]
    elif labels == "grid tuples":
        names = [(i // 3, i % 3) for i in range(n)]
    elif labels == "tuples of strings":
        names = [(f"v{i}", i) for i in range(n)]
    elif labels == "big ints":
        names = [2**40 + i for i in range(n)]
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(names)
    subclass = draw(st.booleans()) and draw(st.booleans())
    family = FAMILIES[draw(st.sampled_from(list(FAMILIES)))]
    values = st.one_of(family, family, family, st.just(MISSING))  # a quarter of the edges without it
    for u, v, w, x in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), values, values),
                                    max_size=4 * n)):
        a, b = names[u], names[v]
        if labels == "range, numpy keys":
            b = np.int64(b)  # equal to the int node: a new adjacency key of another type
        elif labels == "range, bool key" and b == 1:
            b = True
        G.add_edge(a, b)
        d = G[a][b]
        if w is not MISSING:
            d["weight"] = w
        if x is not MISSING:
            d["cap"] = x
    if subclass and G.number_of_edges():
        u, v = next(iter(G.edges))
        G[u][v]["weight"] = 3
        data = DataDict(G[u][v])
        G._adj[u][v] = data
        if directed:
            G._pred[v][u] = data
        else:
            G._adj[v][u] = data
    return G


@contextmanager
def reader_off():
    with mock.patch.object(convert, "reader_available", lambda: False):
        yield


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal dtype, equal entries of equal Python types (NaN equal to NaN, -0.0 apart from 0.0)."""
    return a.dtype == b.dtype and [type(x) for x in a.tolist()] == [type(x) for x in b.tolist()] and (
        repr(a.tolist()) == repr(b.tolist()))


@SETTINGS
@given(graphs(), st.lists(st.sampled_from(["weight", "cap", "absent"]), unique=True, max_size=3), DEFAULTS)
def test_reader_on_and_off_convert_alike(G, attrs, default):
    wanted = {a: default for a in attrs}
    H = convert.convert_from_nx(G, edge_attrs=wanted)
    with reader_off():
        R = convert.convert_from_nx(G, edge_attrs=wanted)
    assert H.nodes == R.nodes
    assert H.src.tolist() == R.src.tolist() and H.dst.tolist() == R.dst.tolist()
    assert H.src.dtype == R.src.dtype and H.dst.dtype == R.dst.dtype
    for attr in wanted:
        assert _same(H.values[attr], R.values[attr]), (attr, H.values[attr], R.values[attr])
        a, b = H.info[attr], R.info[attr]
        assert a.types == b.types and a.missing == b.missing
        assert (a.missing_at is None) == (b.missing_at is None)
        if a.missing_at is not None:
            assert a.missing_at.tolist() == b.missing_at.tolist()


@SETTINGS
@given(graphs())
def test_the_reader_runs_where_it_applies(G):
    nodes = list(G)
    kinds = set(map(type, nodes))
    keys = {type(k) for nbrs in G._adj.values() for k in nbrs}
    index = None if list(G._adj) == list(range(len(nodes))) else {v: i for i, v in enumerate(nodes)}
    status, got = reader.read_adjacency(G._adj, ["weight"], index)
    neighbours = [k for nbrs in G._adj.values() for k in nbrs]
    readable = keys <= {int} if index is None else reader.plain_labels(nodes + neighbours)  # the index: the nodes
    assert (status == reader.OK) == readable and (got is not None) == readable, (kinds, keys)
    if index is not None and kinds <= {int}:
        assert reader.read_adjacency(G._adj, [])[0] == reader.NOT_RANGE
    if got is not None:
        with reader_off():
            R = convert.convert_from_nx(G)
        assert got.dst.tolist() == R.dst.tolist()
        assert got.counts.tolist() == [len(nbrs) for nbrs in G._adj.values()]
        subclass = any(type(d) is not dict for nbrs in G._adj.values() for d in nbrs.values())
        weights = [d.get("weight", MISSING) for nbrs in G._adj.values() for d in nbrs.values()]
        held = all(type(w) in (bool, float, type(MISSING)) or (type(w) is int and -(2**63) <= w < 2**63)
                   for w in weights)
        assert (got.columns["weight"] is None) == (subclass or not held)


def test_values_exactly_as_python_reads_them():
    G = nx.DiGraph()
    vals = [0.1, -0.0, float("inf"), float("nan"), 5e-324, 1.7976931348623157e308]
    for i, w in enumerate(vals):
        G.add_edge(i, i + 1, weight=w)
    G.add_edge(9, 0)
    r = reader.read_adjacency(G._adj, ["weight"], {v: i for i, v in enumerate(G)})[1]
    values, missing, flags = r.columns["weight"]
    got = values.view(np.float64)[~missing]
    assert repr(got.tolist()) == repr(vals) and flags == reader.FLAG_FLOAT
    assert missing.tolist() == [False] * len(vals) + [True]
    ints = nx.DiGraph([(0, 1, {"c": 2**63 - 1}), (1, 2, {"c": -(2**63)}), (2, 0, {"c": False})])
    values, missing, flags = reader.read_adjacency(ints._adj, ["c"])[1].columns["c"]
    assert values.tolist() == [2**63 - 1, -(2**63), 0] and flags == reader.FLAG_INT | reader.FLAG_BOOL


def test_the_reader_stops_on_what_it_does_not_read():
    G = nx.DiGraph([(0, 1, {"w": 1}), (1, 2, {"w": 2})])
    assert reader.read_adjacency(G._adj, ["w"])[0] == reader.OK
    assert reader.read_adjacency(G._adj, [("w",)]) == (reader.STOPPED, None)  # a name it does not look up
    assert reader.read_adjacency(dict(G._adj.items()).items(), []) == (reader.STOPPED, None)  # not a dict
    big = nx.DiGraph([(0, 1, {"w": 2**63}), (1, 2, {"w": 1})])
    assert reader.read_adjacency(big._adj, ["w"])[1].columns["w"] is None
    other = nx.DiGraph([(0, 1, {"w": np.float64(1.0)})])
    assert reader.read_adjacency(other._adj, ["w"])[1].columns["w"] is None
    rows = {0: DataDict({1: {}}), 1: {}}
    assert reader.read_adjacency(rows, []) == (reader.STOPPED, None)  # a row of a dict subclass
    outside = {0: {5: {}}, 1: {}}
    assert reader.read_adjacency(outside, []) == (reader.STOPPED, None)  # a key out of 0 .. n-1
    assert reader.read_adjacency({1: {}, 0: {1: {}}}, [])[0] == reader.NOT_RANGE  # rows out of order
    assert reader.read_adjacency({0: {}, 1.0: {}}, [])[0] == reader.NOT_RANGE  # a row key of another type
    named = {"a": {("t",): {}}, ("t",): {}}
    assert reader.read_adjacency(named, [], {"a": 0, ("t",): 1})[0] == reader.OK  # a tuple of a str: read
    nested = {"a": {(("t",),): {}}, (("t",),): {}}
    assert reader.read_adjacency(nested, [], {"a": 0, (("t",),): 1}) == (reader.STOPPED, None)  # a tuple in a tuple


def test_the_reader_borrows_and_writes_nothing():
    G = nx.gnm_random_graph(60, 300, seed=3, directed=True)
    for k, (_, _, d) in enumerate(G.edges(data=True)):
        d["weight"] = k * 0.5 + 2**-40
    data = [d for nbrs in G._adj.values() for d in nbrs.values()]
    snapshot = [(u, v, dict(d)) for u, v, d in G.edges(data=True)]
    before = [sys.getrefcount(d) for d in data] + [sys.getrefcount(d["weight"]) for d in data]
    r = reader.read_adjacency(G._adj, ["weight"])[1]
    after = [sys.getrefcount(d) for d in data] + [sys.getrefcount(d["weight"]) for d in data]
    assert before == after and [(u, v, dict(d)) for u, v, d in G.edges(data=True)] == snapshot
    assert r.columns["weight"][0].view(np.float64).tolist() == [d["weight"] for d in data]


def test_switched_off_by_the_environment(monkeypatch):
    monkeypatch.setenv("SEMIRING_PATHS_NX_READER", "0")
    reader.available.cache_clear()
    try:
        assert reader.available() is False
        assert reader.read_adjacency({0: {}}, []) == (reader.STOPPED, None)
    finally:
        monkeypatch.delenv("SEMIRING_PATHS_NX_READER")
        reader.available.cache_clear()
    assert reader.available() is True


class CountedKey(str):
    """A ``str`` subclass hashed as the str it spells, whose ``__eq__`` (Python code) records each call."""

    calls: list = []

    __hash__ = str.__hash__

    def __eq__(self, other):
        CountedKey.calls.append(other)
        return str.__eq__(self, other)

    def __ne__(self, other):
        return not self == other


class CountedInt(int):
    """An ``int`` subclass hashed as its value, whose ``__eq__`` records each call."""

    __hash__ = int.__hash__

    def __eq__(self, other):
        CountedKey.calls.append(other)
        return int.__eq__(self, other)

    def __ne__(self, other):
        return not self == other


def test_the_reader_runs_no_python_code():
    CountedKey.calls = []
    # a data dict holding the name looked up as a str subclass: a lookup of "w" would call its __eq__
    G = nx.DiGraph([(0, 1, {"w": 1.0}), (1, 2, {"w": 2.0}), (2, 0, {"w": 3.0})])
    G[1][2].clear()
    G[1][2][CountedKey("w")] = 2.0
    status, r = reader.read_adjacency(G._adj, ["w"])
    assert status == reader.OK and r.columns["w"] is None and r.dst.tolist() == [1, 2, 0]  # the column is Python's
    # a str subclass key beside the name, an int subclass key: the column is Python's too
    G[1][2].clear()
    G[1][2].update({"w": 2.0, CountedKey("x"): 0})
    assert reader.read_adjacency(G._adj, ["w"])[1].columns["w"] is None
    G[1][2].clear()
    G[1][2].update({"w": 2.0, CountedInt(5): 0})
    assert reader.read_adjacency(G._adj, ["w"])[1].columns["w"] is None
    # nodes: an index, a neighbour key or a row key of a subclass stops the reader before any lookup
    assert reader.read_adjacency({"a": {"b": {}}, "b": {}}, [], {"a": 0, CountedKey("b"): 1})[0] == reader.STOPPED
    assert reader.read_adjacency({"a": {CountedKey("b"): {}}, "b": {}}, [], {"a": 0, "b": 1})[0] == reader.STOPPED
    assert reader.read_adjacency({CountedKey("a"): {}, "b": {}}, [], {"a": 0, "b": 1})[0] == reader.STOPPED
    assert reader.read_adjacency({0: {CountedInt(1): {}}, 1: {}}, [])[0] == reader.STOPPED
    assert reader.read_adjacency({5: {CountedInt(7): {}}, 7: {}}, [], reader.id_table([5, 7]))[0] == reader.STOPPED
    assert CountedKey.calls == []  # no __eq__ ran
    # from Python, NetworkX's way: the subclass's __eq__ runs there, and the values agree
    G[1][2].clear()
    G[1][2][CountedKey("w")] = 2.0
    H = convert.convert_from_nx(G, edge_attrs={"w": 1})
    assert H.values["w"].tolist() == [1.0, 2.0, 3.0] and CountedKey.calls


def test_tuple_labels_are_read_by_their_items_and_hostile_items_stop_the_reader():
    G = nx.grid_2d_graph(4, 5)
    for k, (_, _, d) in enumerate(G.edges(data=True)):
        d["weight"] = k
    table = reader.tuple_id_table(list(G))
    status, r = reader.read_adjacency(G._adj, ["weight"], table)
    assert status == reader.OK and table.table.size == 20  # read compiled, through the box of (i, j)
    with reader_off():
        R = convert.convert_from_nx(G, edge_attrs={"weight": 1})
    H = convert.convert_from_nx(G, edge_attrs={"weight": 1})
    assert H.dst.tolist() == R.dst.tolist() == r.dst.tolist() and H.values["weight"].tolist() == R.values["weight"].tolist()
    assert H.index[(3, 4)] == 19 and (4, 4) not in H.index and H.index[(3.0, 4)] == 19
    named = {("a", 1): {("b", 2): {}}, ("b", 2): {("a", 1): {}}}
    assert reader.read_adjacency(named, [], {("a", 1): 0, ("b", 2): 1})[1].dst.tolist() == [1, 0]
    # a tuple holding a subclass (whose __eq__ is Python code), a bool, a float, a big int: not read compiled
    CountedKey.calls = []
    hostile = {("a", 1): {(CountedKey("b"), 2): {}}, ("b", 2): {}}
    assert reader.read_adjacency(hostile, [], {("a", 1): 0, ("b", 2): 1})[0] == reader.STOPPED
    assert reader.read_adjacency({("a", 1): {}, ("b", 2): {}}, [], {("a", 1): 0, (CountedKey("b"), 2): 1})[0] \
        == reader.STOPPED
    grid = {(0, 0): {(0, CountedInt(1)): {}}, (0, 1): {}}
    assert reader.read_adjacency(grid, [], reader.tuple_id_table([(0, 0), (0, 1)]))[0] == reader.STOPPED
    assert CountedKey.calls == []
    assert reader.tuple_id_table([(0, 0), (0, True)]) is None and reader.tuple_id_table([(0, 0), (0, 1.5)]) is None
    assert reader.tuple_id_table([(0, 0), (0, 2**70)]) is None and reader.tuple_id_table([(0, 0), (1,)]) is None
    assert reader.tuple_id_table([(0, 0), (10**6, 0)]) is None  # a box far larger than the nodes
    D = nx.DiGraph(nx.grid_2d_graph(3, 3))
    ids = {v: i for i, v in enumerate(D)}
    assert convert.convert_from_nx(D).pred_csr(arcs=False)[1].tolist() == [ids[u] for v in D for u in D._pred[v]]


def test_the_reader_holds_what_compares_in_c():
    # exact int keys (one with the name's hash), a split dict (an instance's __dict__): read by the kernel
    class Holder:
        pass

    holder = Holder()
    holder.w = 5.0
    G = nx.DiGraph([(0, 1, {hash("w"): 0, "w": 3.0}), (1, 2, {"w": 4.0, 7: 1})])
    G.add_edge(2, 0)
    G._adj[2][0] = G._pred[0][2] = holder.__dict__
    values, missing, flags = reader.read_adjacency(G._adj, ["w"])[1].columns["w"]
    assert values.view(np.float64).tolist() == [3.0, 4.0, 5.0] and not missing.any() and flags == reader.FLAG_FLOAT


def test_ids_are_checked():
    rows = {"a": {"b": {}}, "b": {}}
    assert reader.read_adjacency(rows, [], {"a": 0, "b": 1})[1].heads.tolist() == [0, 1]
    assert reader.read_adjacency(rows, [], {"a": 1, "b": 0})[1].heads.tolist() == [1, 0]  # rows in any order
    assert reader.read_adjacency(rows, [], {"a": 0, "b": 2})[0] == reader.STOPPED  # an id beyond the rows
    assert reader.read_adjacency(rows, [], {"a": 0, "b": 0})[0] == reader.STOPPED  # two rows, one id
    assert reader.read_adjacency(rows, [], {"a": 0, "b": 1.0})[0] == reader.STOPPED  # an id that is not an int
    assert reader.read_adjacency(rows, [], {"a": 0, "b": 1}, n=3)[0] == reader.STOPPED  # fewer rows than nodes
    assert reader.read_adjacency({0: {1: {}}, 1: {}}, [], np.array([0, 5]))[0] == reader.STOPPED  # a table id >= n


SMALL = [
    nx.gnm_random_graph(40, 120, seed=1, directed=True),
    nx.relabel_nodes(nx.gnm_random_graph(40, 120, seed=2), {i: f"v{i}" for i in range(40)}),
    nx.relabel_nodes(nx.gnm_random_graph(40, 120, seed=3), {i: 3 * i + 1 for i in range(40)}),
]
for _k, _G in enumerate(SMALL):
    for _j, (_, _, _d) in enumerate(_G.edges(data=True)):
        _d["weight"] = [_j % 7, _j * 0.25, bool(_j % 2)][_k]


def _conversions() -> list:
    out = []
    for G in SMALL:
        H = convert.convert_from_nx(G, edge_attrs={"weight": 1}, preserve_edge_attrs=True)
        w = H.values["weight"]
        out.append((H.nodes, H.src.tolist(), H.dst.tolist(), str(w.dtype), repr(w.tolist()), H.info["weight"].types,
                    nx.single_source_dijkstra_path_length(G, next(iter(G)), backend="semiring_paths")))
    return out


@pytest.fixture
def fresh_availability():
    reader.available.cache_clear()
    yield
    reader.available.cache_clear()


def test_on_for_the_supported_versions(fresh_availability):
    assert sys.version_info[:2] in reader.SUPPORTED_PYTHON  # this run's interpreter is one it reads
    assert reader.available() is True


@pytest.mark.parametrize("how", ["unsupported version", "not CPython", "layout: dk_kind", "layout: float",
                                 "self-check"])
def test_the_python_reader_takes_over(how, monkeypatch, caplog, fresh_availability):
    cache = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = False
    try:
        monkeypatch.setenv("SEMIRING_PATHS_NX_READER", "0")
        expected = _conversions()  # the reader forced off
        monkeypatch.delenv("SEMIRING_PATHS_NX_READER")
        reader.available.cache_clear()
        real = reader._read
        reason = {"unsupported version": "is not one of the versions", "not CPython": "PyPy is not CPython",
                  "layout: dk_kind": "object layout", "layout: float": "object layout",
                  "self-check": "self-check"}[how]
        if how == "unsupported version":
            monkeypatch.setattr(reader, "SUPPORTED_PYTHON", ((3, 9), (3, 10)))
        elif how == "not CPython":
            monkeypatch.setattr(reader.platform, "python_implementation", lambda: "PyPy")
        elif how == "layout: dk_kind":
            monkeypatch.setattr(reader, "_DK_KIND_SHIFT", 8)  # the probe then reads the byte before dk_kind
        elif how == "layout: float":
            monkeypatch.setattr(reader, "_FLOAT_VALUE", 8)  # the probe then reads the type pointer as the double
        else:  # a kernel that reads the neighbours wrong
            def wrong(*args):
                out = list(real(*args))
                out[3] = out[3][::-1].copy()
                return tuple(out)

            monkeypatch.setattr(reader, "_read", wrong)
        with caplog.at_level(logging.INFO, logger="graphs.nx_backend"):
            assert reader.available() is False
        assert any(rec.name == "graphs.nx_backend" and reason in rec.getMessage() for rec in caplog.records), (
            caplog.text)

        def never(*args):
            raise AssertionError("the compiled reader ran while it is off")

        monkeypatch.setattr(reader, "_read", never)
        assert reader.read_adjacency({0: {}}, []) == (reader.STOPPED, None)
        assert _conversions() == expected
    finally:
        nx.config.cache_converted_graphs = cache


def test_nodes_read_as_their_own_ids_are_the_rows_keys():
    n = 300  # ints beyond CPython's small-int cache
    adj = {i: ({i + 1: {}} if i + 1 < n else {}) for i in range(n)}
    same = list(adj)
    status, r = reader.read_adjacency(adj, [], None, n, same)
    assert status == reader.OK and r.heads.tolist() == list(range(n))
    equal = [int(str(i)) for i in range(n)]  # equal ints, other objects beyond 256
    assert equal == same and equal[299] is not same[299]
    assert reader.read_adjacency(adj, [], None, n, equal)[0] == reader.NOT_RANGE
    assert reader.read_adjacency(adj, [], None, n, same[:-1])[0] == reader.NOT_RANGE  # a list of another length
    G = nx.path_graph(n, create_using=nx.DiGraph)  # as NetworkX builds it: one object per node in _node and _adj
    H = convert.convert_from_nx(G)
    assert H.range_nodes and H.dst.tolist() == list(range(1, n))


def test_columns_of_a_list_of_data_dicts():
    CountedKey.calls = []
    values, missing, flags = reader.read_columns([{"w": 1.5}, {"w": -2.0, 3: 0}, {}], ["w"])["w"]
    assert values.view(np.float64)[:2].tolist() == [1.5, -2.0] and missing.tolist() == [False, False, True]
    assert flags == reader.FLAG_FLOAT
    assert reader.read_columns([{"w": 1.0}, {CountedKey("w"): 2.0}], ["w"]) == {"w": None}  # looked up from Python
    assert reader.read_columns([{"w": 1.0}, DataDict(w=2.0)], ["w"]) == {"w": None}  # a subclass: its own get
    assert reader.read_columns([{"w": 1.0}, ("w", 2.0)], ["w"]) == {"w": None}  # not a dict
    assert CountedKey.calls == []


def _python_reach(adj, sources) -> int:
    seen, queue = set(sources), list(dict.fromkeys(sources))
    for v in queue:
        for w in adj[v]:
            if w not in seen:
                seen.add(w)
                queue.append(w)
    return len(queue)


def test_reached_nodes_counts_what_a_search_reaches_and_reads_only_exact_int_nodes():
    for seed in range(40):
        G = nx.gnm_random_graph(30, 20 + 2 * seed, seed=seed, directed=seed % 2 == 0)
        if seed % 3 == 0:
            G = nx.relabel_nodes(G, {v: 29 - v for v in G})  # rows in another order
        for sources in ([0], [3, 7], [5, 5]):
            assert reader.reached_nodes(G._adj, sources) == _python_reach(G._adj, sources)
            reached = reader.reached_nodes(G._adj, sources, 0.2)  # stopped once past a fifth of the nodes
            assert reached == _python_reach(G._adj, sources) or reached > 0.2 * len(G)
    CountedKey.calls = []
    assert reader.reached_nodes({0: {CountedInt(1): {}}, 1: {}}, [0]) == -1  # a neighbour of a subclass
    assert reader.reached_nodes({0: {}, CountedInt(1): {}}, [0]) == -1  # a row key of a subclass
    assert reader.reached_nodes({0: {1: {}}, 1: {}}, [CountedInt(0)]) == -1  # a source of a subclass
    assert reader.reached_nodes({0: {5: {}}, 1: {}}, [0]) == -1  # a neighbour that is no node
    assert reader.reached_nodes({0: {1: {}}, 1: DataDict()}, [0]) == -1  # a row met of a dict subclass
    assert reader.reached_nodes({"a": {}}, ["a"]) == -1 and CountedKey.calls == []
