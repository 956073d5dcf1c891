"""Conversion between NetworkX graphs and the backend graph types.

:func:`convert_from_nx` is called by NetworkX's dispatcher with the edge
attributes the algorithm reads (``edge_attrs``: name -> default) and what it
must preserve; :func:`convert_to_nx` turns a backend graph back into a
NetworkX graph and passes every other result through unchanged.

Cost: a plain adjacency (``G._adj`` a dict of exact dicts, NetworkX's own
classes) is read by one compiled pass (:mod:`._dict_reader`): the rows, each
neighbour's vertex id (nodes ``0 .. n-1`` in order read as their own ids,
other int nodes through a label -> id table, ``str``, mixed int/str nodes and
tuples of those -- ``grid_2d_graph``'s ``(i, j)`` -- through a node -> id dict) and every declared edge attribute held exactly as
int64 or float64, without touching a reference count.  Whatever it does not
read exactly (other key types, dict subclasses, values of other types,
integers beyond int64, views) is read from Python, where every loop runs at C
speed (``map``/``chain`` into ``np.fromiter``); the columns of the data dicts
so listed are read by the same compiled code where it holds them
(:func:`._dict_reader.read_columns`), else with ``dict.get`` where every data
dict is an exact dict (any other with its own ``get``, as NetworkX reads
them).  Only the attributes the
algorithm declared (``edge_attrs``) are read; the edge data kept for
functions that return graphs is read by the function, column by column, when
it needs it.  ``G._pred`` is kept by reference and read (by the same
compiled pass) only by the functions that walk predecessors.  On a
10^5-arc directed gnm graph (2-core AMD EPYC) the compiled pass takes about
4 ms for the structure and 6-7 ms with one weight (from Python: 10 and 40 ms).
NetworkX caches the converted graph in ``G.__networkx_cache__``
(``nx.config.cache_converted_graphs``), so repeated calls on an unchanged
graph convert once.

Hostile graphs and threads: the compiled pass runs no Python code and reads
one state of the graph (see :mod:`._dict_reader`); where the edge data dicts
themselves are needed too, they are listed first and the pass must find those
very dicts.  Read from Python, the rows are first copied (``dict.copy`` of
each, before any node is hashed) and every later pass reads the copies.  So
the arcs, the columns and the data dicts always agree, even when another
thread, or a node's or key's own ``__eq__``, changes the graph meanwhile: the
result is then that of the graph as it was when read, or an error (a node
missing from ``G``: ``RuntimeError``), as NetworkX's own loops would give.  Python code the graph holds (``__eq__``, ``__hash__``, a
subclass's ``get``) runs only from Python, where it cannot crash the process.
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from operator import is_, is_not, itemgetter
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from ._dict_reader import (
    FLAG_BOOL,
    FLAG_FLOAT,
    FLAG_INT,
    OK,
    STOPPED,
    Adjacency,
    id_table,
    plain_labels,
    read_adjacency,
    read_columns,
    tuple_id_table,
)
from ._dict_reader import available as reader_available
from .attributes import INT64_MAX, INT64_MIN, ValueInfo, arc_column, dict_column
from .graph import BackendGraph, graph_class, paused_gc

__all__ = ["convert_from_nx", "convert_to_nx", "build_nx"]


_values = dict.values
_HELD_TYPES = (int, bool, float)  # the types of the flags FLAG_INT, FLAG_BOOL, FLAG_FLOAT


def _all_type(items: Any, cls: type) -> bool:
    """Whether every item is exactly of type ``cls`` (at C speed)."""
    return set(map(type, items)) <= {cls}


def _is_range(nodes: list) -> bool:
    """Whether ``nodes`` is ``[0, 1, ..., n - 1]`` of Python ints (then vertex ``i`` is node ``i``)."""
    n = len(nodes)
    if n == 0:
        return True
    if type(nodes[0]) is not int or type(nodes[-1]) is not int or nodes[0] != 0 or nodes[-1] != n - 1:
        return False  # the types first: comparing a node of another type may run its own __eq__
    return set(map(type, nodes)) == {int} and nodes == list(range(n))


def _attrs_for(spec: Any, graph_name: str | None) -> dict | bool:
    """``preserve_*_attrs`` as NetworkX passes it: a bool, or ``{graph_name: {attr: default}}``."""
    if isinstance(spec, dict):
        return dict(spec.get(graph_name, {}))
    return bool(spec)


class _Rows(NamedTuple):
    """A private copy of a plain adjacency's rows (:func:`_snapshot`)."""

    keys: list  # each row's key (a node), in the adjacency's order
    rows: list  # a copy of each row (the edge data dicts shared, not copied)


def _snapshot(adj: Any) -> _Rows | None:
    """A private copy of a plain adjacency (a dict of exact dicts), taken before any key is hashed; else ``None``.

    Every later pass reads the copies, which no one else holds, so the row
    sizes, the keys and their data dicts that the passes read agree with
    each other even when the graph is changed meanwhile (by another thread,
    or by a key's own ``__eq__`` run by a later lookup): each row as it was
    at one moment.  Listing the rows and copying them (``dict.copy``) hashes
    and compares nothing, except that CPython re-inserts the keys of a row
    left with many deleted entries, which compares keys of equal hashes.
    """
    if type(adj) is not dict:
        return None
    with paused_gc():
        items = list(adj.items())
        rows = list(map(itemgetter(1), items))
        if not _all_type(rows, dict):
            return None
        return _Rows(list(map(itemgetter(0), items)), list(map(dict.copy, rows)))


def _data_dicts(adj: Any) -> list | None:
    """The values of every row of a plain adjacency (its edge data dicts, a multigraph's key dicts), in order.

    ``None`` where ``adj`` is not a dict of exact dicts.  Listing them hashes
    and compares nothing.
    """
    if type(adj) is not dict:
        return None
    rows = list(adj.values())
    if not _all_type(rows, dict):
        return None
    return list(chain.from_iterable(map(_values, rows)))


def _compiled_read(adj: Any, nodes: list, attrs: list,
                   data: list | None = None) -> tuple[Adjacency | None, dict | np.ndarray | None]:
    """The compiled reader's pass over a plain adjacency where it applies, and its ids.

    Nodes ``0 .. n-1`` in order (the rows' keys too) are read as their own ids
    (``None``); other int nodes of a small range, and tuples of ints spanning a
    small box, through a label -> id table (:class:`._dict_reader.IdTable`);
    other nodes of type ``int`` or ``str``, or ``tuple`` of those
    (:func:`._dict_reader.plain_labels`), through a node -> id dict.  Nodes of
    any other type (whose hash may run Python code) are not hashed here:
    ``(None, None)``.  ``data`` (:func:`_data_dicts`): the pass must read
    those very data dicts, in that order (it then goes with them).
    """
    if not nodes or type(adj) is not dict or not reader_available():
        return None, None
    n = len(nodes)
    if type(nodes[0]) is int and type(nodes[-1]) is int and nodes[0] == 0 and nodes[-1] == n - 1:
        # the rows' keys 0 .. n-1 in order, each the very object in nodes: nodes is 0 .. n-1 too
        status, read = read_adjacency(adj, attrs, None, n, nodes, data)
        if status == STOPPED:
            return None, None
        if status == OK:
            return read, None
    first = type(nodes[0])
    table = id_table(nodes) if first is int else tuple_id_table(nodes) if first is tuple else None
    if table is not None:
        status, read = read_adjacency(adj, attrs, table, n, None, data)
        return (read, table) if status == OK else (None, None)
    if not plain_labels(nodes):
        return None, None
    index = dict(zip(nodes, range(n)))
    status, read = read_adjacency(adj, attrs, index, n, None, data)
    return (read, index) if status == OK else (None, index)


def _not_a_node(key: Any) -> RuntimeError:
    return RuntimeError(f"{key!r} was read as a node of the graph but is not one now "
                        "(was the graph changed while it was being read?)")


def _python_structure(snap: _Rows, nodes: list, index: dict | None) -> tuple:
    """``(heads, counts, dst, datas, index)`` of a :func:`_snapshot`, read from Python.

    ``index`` (node -> id) is made where it is needed (``None``: nodes
    ``0 .. n-1`` in order, exact int keys read as their own ids, checked to
    be ids).  A key that is not a node raises ``RuntimeError``.
    """
    rows = snap.rows
    counts = np.fromiter(map(len, rows), np.int64, count=len(rows))
    datas = list(chain.from_iterable(map(_values, rows)))
    m, n = len(datas), len(nodes)
    heads = dst = None
    if index is None and _is_range(nodes):
        if snap.keys == nodes:
            heads = np.arange(n, dtype=np.int32)
        keys = list(chain.from_iterable(rows))
        if _all_type(keys, int):
            try:
                ids = np.fromiter(keys, np.int64, count=m)
            except OverflowError:
                ids = None
            if ids is not None and (not m or (ids.min() >= 0 and ids.max() < n)):
                dst = ids.astype(np.int32)
    if heads is None or dst is None:
        if index is None:
            index = {v: i for i, v in enumerate(nodes)}
        try:
            if heads is None:
                heads = np.fromiter(map(index.__getitem__, snap.keys), np.int32, count=len(rows))
            if dst is None:
                dst = np.fromiter(map(index.__getitem__, chain.from_iterable(rows)), np.int32, count=m)
        except KeyError as exc:
            raise _not_a_node(exc.args[0]) from None
    return heads, counts, dst, datas, index


def _view_structure(adj: Any, nodes: list) -> tuple:
    """``(heads, counts, dst, datas, index)`` of an adjacency that is not a dict of exact dicts (a view, subclasses).

    Each row is read once with its own ``items()`` (never trusting ``len()``:
    a filtered view reports the size of what it filters), so each key stays
    with its data; nodes are hashed only once every row is read.
    """
    with paused_gc():
        rows = [(u, list(nbrs.items())) for u, nbrs in adj.items()]
    counts = np.fromiter((len(pairs) for _, pairs in rows), np.int64, count=len(rows))
    pairs = list(chain.from_iterable(map(itemgetter(1), rows)))
    index = {v: i for i, v in enumerate(nodes)}
    try:
        heads = np.fromiter(map(index.__getitem__, map(itemgetter(0), rows)), np.int32, count=len(rows))
        dst = np.fromiter(map(index.__getitem__, map(itemgetter(0), pairs)), np.int32, count=len(pairs))
    except KeyError as exc:
        raise _not_a_node(exc.args[0]) from None
    return heads, counts, dst, list(map(itemgetter(1), pairs)), index


def _held_columns(read: dict | None, wanted: dict) -> dict:
    """Per wanted attribute the column the compiled pass held (``read``: its columns), as
    :func:`.attributes.dict_column` gives it; ``None`` where it cannot (an object column: read from Python)."""
    held: dict = {}
    if read is None:
        return held
    for attr, default in wanted.items():
        column = read.get(attr) if type(attr) is str else None
        held[attr] = None
        if column is None:
            continue
        vals, missing, flags = column
        present = frozenset(compress(_HELD_TYPES, (flags & FLAG_INT, flags & FLAG_BOOL, flags & FLAG_FLOAT)))
        missing_at = missing if missing.any() else None
        ints = not flags & FLAG_FLOAT
        floats = flags == FLAG_FLOAT
        if missing_at is not None:  # the default stands in where the attribute is missing
            if type(default) in (int, bool) and ints and INT64_MIN <= default <= INT64_MAX:
                vals = np.where(missing_at, int(default), vals)
            elif type(default) is float and (floats or not flags):
                vals = np.where(missing_at, default, vals.view(np.float64))
                floats, ints = True, False
            else:
                continue  # the values and the default mix types: an object column
        elif not ints and not floats:
            continue  # ints mixed with floats: an object column
        if floats:
            vals = vals.view(np.float64) if vals.dtype == np.int64 else vals
        held[attr] = (vals, ValueInfo(present, missing_at is not None, missing_at))
    return held


def convert_from_nx(
    G: Any,
    edge_attrs: dict | None = None,
    node_attrs: dict | None = None,
    preserve_edge_attrs: Any = False,
    preserve_node_attrs: Any = False,
    preserve_graph_attrs: Any = False,
    name: str | None = None,
    graph_name: str | None = None,
) -> BackendGraph:
    """A NetworkX graph as a backend graph (arcs in NetworkX's adjacency order).

    Parameters
    ----------
    G : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph (or a backend graph, returned as is)
    edge_attrs : dict, optional
        Edge attribute name -> default for edges without it; one array each.
    node_attrs : dict, optional
        Ignored (no implemented algorithm reads node attributes).
    preserve_edge_attrs, preserve_node_attrs, preserve_graph_attrs : bool or dict
        Keep the data dicts (by reference) for algorithms that return graphs.
    name, graph_name : str, optional
        The algorithm and argument being converted (NetworkX passes them).

    Returns
    -------
    BackendGraph
        Of the class with ``G``'s directed and multigraph flags.

    Notes
    -----
    Nothing is rounded or refused here: values are held exactly
    (:func:`.attributes.as_value_array`), and each algorithm decides what it
    computes with them.

    Examples
    --------
    >>> import networkx as nx
    >>> H = convert_from_nx(nx.path_graph(["a", "b", "c"]), edge_attrs={"weight": 1})
    >>> H.nodes, H.src.tolist(), H.dst.tolist(), H.values["weight"].tolist()
    (['a', 'b', 'c'], [0, 1, 1, 2], [1, 0, 2, 1], [1, 1, 1, 1])
    """
    if isinstance(G, BackendGraph):
        return G
    adj = G._adj
    nodes = list(G)
    multigraph = G.is_multigraph()
    keep_edges = _attrs_for(preserve_edge_attrs, graph_name)
    wanted = dict(edge_attrs or {})
    if isinstance(keep_edges, dict):  # preserve_edge_attrs={graph_name: {attr: default}}
        wanted.update(keep_edges)
        keep_edges = False
    # Edge data made by dict (NetworkX's default factory) are read compiled, or with dict.get at C speed.
    dict_data = not multigraph and getattr(G, "edge_attr_dict_factory", None) is dict
    attrs = list(compress(wanted, map(is_, map(type, wanted), repeat(str)))) if dict_data else []  # str names
    # Where the edge data dicts themselves are needed, they are listed first and the compiled pass must read
    # those very dicts (so that the arcs, the columns and the data dicts agree); from Python, everything is
    # read from one private copy of the rows.
    datas = _data_dicts(adj) if keep_edges or multigraph else None
    read, ids = _compiled_read(adj, nodes, attrs, datas)
    columns = _held_columns(read and read.columns, wanted)
    if read is not None and datas is None and None in columns.values():  # a column it could not hold
        datas = _data_dicts(adj)
        read, ids = _compiled_read(adj, nodes, attrs, datas)
        columns = _held_columns(read and read.columns, wanted)
    index = ids if type(ids) is dict else None
    if read is not None:  # the structure (and the columns it held) in one compiled pass
        plain = True
        heads, counts, dst = read.heads, read.counts, read.dst
    else:
        rows = _snapshot(adj)
        plain = rows is not None
        if plain:
            heads, counts, dst, datas, index = _python_structure(rows, nodes, index)
        else:
            heads, counts, dst, datas, index = _view_structure(adj, nodes)
        if attrs and reader_available():  # the columns of the data dicts listed, compiled where it applies
            columns = _held_columns(read_columns(datas, attrs), wanted)
    dicts = plain and dict_data
    src = np.repeat(heads, counts)

    values, info = {}, {}
    exact = None  # every data dict read is an exact dict: True, False, unknown (None)
    if wanted and any(map(is_not, columns.values(), repeat(None))):
        exact = True  # the compiled pass held a column: it found only exact dicts
    elif wanted and datas is not None:
        exact = _all_type(chain.from_iterable(kd.values() for kd in datas) if multigraph else datas, dict)
    for attr, default in wanted.items():
        column = columns.get(attr)
        if column is None and dicts and exact:
            column = dict_column(datas, attr, default, checked=True)
        elif column is None:  # each data dict read with its own get()
            column = arc_column(datas, attr, default, multigraph)
        values[attr], info[attr] = column

    node_data = None
    if _attrs_for(preserve_node_attrs, graph_name):
        node = G._node
        items = list(node.items())  # each node with its data, at one moment
        if list(map(itemgetter(0), items)) == nodes:
            node_data = list(map(itemgetter(1), items))
        else:
            try:
                node_data = [node[v] for v in nodes]
            except KeyError as exc:  # a node listed above was removed since (another thread)
                raise _not_a_node(exc.args[0]) from None
    graph_data = G.graph if preserve_graph_attrs else None
    cls = graph_class(G.is_directed(), multigraph)
    H = cls(
        nodes,
        src,
        dst,
        values,
        info=info,
        node_data=node_data,
        edge_data=datas if keep_edges else None,
        graph_data=graph_data,
        nx_class=type(G),
    )
    if index is not None:
        H._index = index
    elif ids is not None:
        H.id_table = ids
    else:
        H.range_nodes = True
    H.dict_edges = dicts
    H.exact_edge_data = exact
    if H.directed:
        H.nx_pred = G._pred
    if multigraph:  # parallel edges per arc (iterated: a filtered view's len() is not its size)
        H.multiplicity = np.fromiter((sum(1 for _ in keys) for keys in datas), np.int64, count=int(src.size))
    return H


def convert_to_nx(obj: Any, *, name: str | None = None) -> Any:
    """A backend graph as a NetworkX graph; anything else is returned unchanged.

    Node and edge data come back where they were preserved; converted edge
    attributes come back as edge data otherwise (one edge per arc pair; a
    multigraph's parallel edges, read as their minimum, come back as one).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 2.5})])
    >>> H = convert_to_nx(convert_from_nx(G, edge_attrs={"weight": 1}))
    >>> type(H).__name__, list(H.edges(data=True))
    ('DiGraph', [(0, 1, {'weight': 2.5})])
    >>> convert_to_nx({1: 2})
    {1: 2}
    """
    if not isinstance(obj, BackendGraph):
        return obj
    cls = obj.nx_class
    if cls is None or not (isinstance(cls, type) and issubclass(cls, nx.Graph)):
        cls = {
            (False, False): nx.Graph,
            (True, False): nx.DiGraph,
            (False, True): nx.MultiGraph,
            (True, True): nx.MultiDiGraph,
        }[(obj.directed, obj.multigraph)]
    H = cls()
    H.graph.update(obj.graph)
    if obj.node_data is not None:
        H.add_nodes_from(zip(obj.nodes, obj.node_data))
    else:
        H.add_nodes_from(obj.nodes)
    nodes = obj.nodes
    src, dst = obj.src.tolist(), obj.dst.tolist()
    columns = {attr: vals.tolist() for attr, vals in obj.values.items()}
    for e, (i, j) in enumerate(zip(src, dst)):
        if not obj.directed and j < i:
            continue  # the other direction of an undirected edge
        u, v = nodes[i], nodes[j]
        # data dicts go in whole (add_edge(**d) would refuse attribute names that are not strings)
        if obj.edge_data is not None:
            if obj.multigraph:
                H.add_edges_from((u, v, key, d) for key, d in obj.edge_data[e].items())
            else:
                H.add_edges_from([(u, v, obj.edge_data[e])])
        else:
            H.add_edges_from([(u, v, {attr: col[e] for attr, col in columns.items()})])
    return H


def build_nx(cls: type, graph_data: dict | None, nodes: list, node_data: list | None, us: list, vs: list,
             datas: Any = None) -> Any:
    """A new NetworkX graph of class ``cls``, as ``add_nodes_from`` then ``add_edges_from`` would build it.

    ``node_data`` (per node a dict, copied) or ``None``; edges ``us[k] -> vs[k]``
    with the data ``datas[k]`` (copied; ``None``: no data), endpoints among
    ``nodes``.  For ``nx.Graph`` and ``nx.DiGraph`` themselves the dicts are
    filled directly (what their methods do, without a call per edge); any
    other class (subclasses, multigraphs) goes through its own methods.

    Examples
    --------
    >>> import networkx as nx
    >>> T = build_nx(nx.Graph, {"name": "t"}, [0, 1, 2], None, [0, 1], [1, 2], [{"w": 1}, {}])
    >>> T.graph, list(T.edges(data=True))
    ({'name': 't'}, [(0, 1, {'w': 1}), (1, 2, {})])
    """
    with paused_gc():
        return _build_nx(cls, graph_data, nodes, node_data, us, vs, datas)


def _build_nx(cls, graph_data, nodes, node_data, us, vs, datas):
    T = cls()
    if graph_data:
        T.graph.update(graph_data)
    plain = datas is None
    datas = repeat({}) if plain else datas
    if cls is nx.Graph or cls is nx.DiGraph:
        T._node.update(zip(nodes, [{} for _ in nodes] if node_data is None else map(dict, node_data)))
        adj = T._adj
        adj.update(zip(nodes, [{} for _ in nodes]))
        back = adj
        if cls is nx.DiGraph:
            back = T._pred
            back.update(zip(nodes, [{} for _ in nodes]))
        if plain:  # no edge data: one new dict per edge, shared by both directions
            for u, v in zip(us, vs):
                row = adj[u]
                if v not in row:
                    row[v] = back[v][u] = {}
            return T
        for u, v, d in zip(us, vs, datas):
            row = adj[u]
            dd = row.get(v)
            if dd is None:
                dd = row[v] = {}
                back[v][u] = dd
            dd.update(d)
        return T
    T.add_nodes_from(nodes if node_data is None else zip(nodes, node_data))
    T.add_edges_from(zip(us, vs, datas))
    return T
