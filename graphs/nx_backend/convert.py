"""Conversion between NetworkX graphs and the backend graph types.

:func:`convert_from_nx` is called by NetworkX's dispatcher with the edge
attributes the algorithm reads (``edge_attrs``: name -> default) and what it
must preserve; :func:`convert_to_nx` turns a backend graph back into a
NetworkX graph and passes every other result through unchanged.

Cost: a plain adjacency (``G._adj`` a dict of exact dicts, NetworkX's own
classes) is read by one compiled pass (:mod:`._dict_reader`): the rows, each
neighbour's vertex id (nodes ``0 .. n-1`` in order read as their own ids,
other int nodes through a label -> id table, ``str`` and mixed int/str nodes
through a node -> id dict) and every declared edge attribute held exactly as
int64 or float64, without touching a reference count.  Whatever it does not
read exactly (other key types, dict subclasses, values of other types,
integers beyond int64, views) is read from Python, where every loop runs at C
speed (``map``/``chain`` into ``np.fromiter``), one attribute with
``dict.get`` straight off the adjacency (data dicts of another factory with
their own ``get``, as NetworkX reads them).  Only the attributes the
algorithm declared (``edge_attrs``) are read; the edge data kept for
functions that return graphs is read by the function, column by column, when
it needs it.  ``G._pred`` is kept by reference and read (by the same
compiled pass) only by the functions that walk predecessors.  On a
10^5-arc directed gnm graph (2-core AMD EPYC) the compiled pass takes about
4 ms for the structure and 6-7 ms with one weight (from Python: 10 and 40 ms).
NetworkX caches the converted graph in ``G.__networkx_cache__``
(``nx.config.cache_converted_graphs``), so repeated calls on an unchanged
graph convert once.
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Any

import networkx as nx
import numpy as np

from ._dict_reader import FLAG_BOOL, FLAG_FLOAT, FLAG_INT, OK, STOPPED, Adjacency, id_table, read_adjacency
from ._dict_reader import available as reader_available
from .attributes import INT64_MAX, INT64_MIN, ValueInfo, arc_column, dict_column
from .graph import BackendGraph, graph_class, paused_gc

__all__ = ["convert_from_nx", "convert_to_nx", "build_nx"]


_values = dict.values


def _all_type(items: Any, cls: type) -> bool:
    """Whether every item is exactly of type ``cls`` (at C speed)."""
    return set(map(type, items)) <= {cls}


def _is_range(nodes: list) -> bool:
    """Whether ``nodes`` is ``[0, 1, ..., n - 1]`` of Python ints (then vertex ``i`` is node ``i``)."""
    n = len(nodes)
    if n == 0:
        return True
    if nodes[0] != 0 or nodes[-1] != n - 1 or set(map(type, nodes)) != {int}:
        return False
    return nodes == list(range(n))


def _attrs_for(spec: Any, graph_name: str | None) -> dict | bool:
    """``preserve_*_attrs`` as NetworkX passes it: a bool, or ``{graph_name: {attr: default}}``."""
    if isinstance(spec, dict):
        return dict(spec.get(graph_name, {}))
    return bool(spec)


def _compiled_read(adj: Any, nodes: list, attrs: list) -> tuple[Adjacency | None, dict | np.ndarray | None]:
    """The compiled reader's pass over a plain adjacency where it applies, and how it numbered the keys.

    Nodes ``0 .. n-1`` in order (the rows' keys too) are read as their own ids
    (``None``); other int nodes of a small range through a label -> id table;
    other nodes of type ``int`` or ``str`` through a node -> id dict; anything
    else (keys whose hash may run Python code) is left to Python (``None``,
    with the node -> id dict if one was made).
    """
    if not adj or type(adj) is not dict or not reader_available():
        return None, None
    n = len(nodes)
    if type(nodes[0]) is int and nodes[0] == 0 and nodes[-1] == n - 1:
        status, read = read_adjacency(adj, attrs)
        if status == STOPPED:
            return None, None
        if status == OK and list(adj) == nodes:
            return read, None
    table = id_table(nodes)
    if table is not None:
        status, read = read_adjacency(adj, attrs, table)
        return (read, table) if status == OK else (None, None)
    index = {v: i for i, v in enumerate(nodes)}
    if set(map(type, nodes)) <= {int, str}:
        status, read = read_adjacency(adj, attrs, index)
        if status == OK:
            return read, index
    return None, index


def _held_column(column: tuple | None, default: Any) -> tuple[np.ndarray, ValueInfo] | None:
    """A column the compiled reader held, as :func:`.attributes.dict_column` gives it (``None``: it cannot)."""
    if column is None:
        return None
    vals, missing, flags = column
    present = frozenset(t for t, bit in ((int, FLAG_INT), (bool, FLAG_BOOL), (float, FLAG_FLOAT)) if flags & bit)
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
            return None  # the values and the default mix types: an object column (read from Python)
    elif not ints and not floats:
        return None  # ints mixed with floats: an object column
    if floats:
        vals = vals.view(np.float64) if vals.dtype == np.int64 else vals
    return vals, ValueInfo(present, missing_at is not None, missing_at)


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
    read, ids = _compiled_read(adj, nodes, [a for a in wanted if type(a) is str] if dict_data else [])
    index = ids if type(ids) is dict else None
    if read is not None:  # the structure (and the columns it held) in one compiled pass
        plain = True
        counts, dst = read.counts, read.dst
        if ids is None:
            heads = np.arange(len(nodes), dtype=np.int32)
        elif index is None:  # int labels through a table
            heads = ids[np.fromiter(adj, np.int64, count=len(adj))].astype(np.int32)
        else:
            heads = np.fromiter(map(index.__getitem__, adj), np.int32, count=len(adj))
    else:
        plain = type(adj) is dict and _all_type(adj.values(), dict)
        if index is None:
            index = None if plain and _is_range(nodes) else {v: i for i, v in enumerate(nodes)}
    dicts = plain and dict_data
    if plain and read is None:
        # A plain graph: len() of each neighbour dict is exact; one flat pass at C speed, no list per row.
        counts = np.fromiter(map(len, adj.values()), np.int64, count=len(adj))
        m = int(counts.sum())
        heads = dst = None
        if index is None:  # nodes 0..n-1 in order: a neighbour (equal to one of them) is its own position
            if list(adj) == nodes:
                heads = np.arange(len(nodes), dtype=np.int32)
            try:
                dst = np.fromiter(chain.from_iterable(adj.values()), np.int32, count=m)
            except (TypeError, ValueError, OverflowError):  # a key of another type (equal to an int node)
                dst = None
            if dst is None or heads is None:
                index = {v: i for i, v in enumerate(nodes)}
        if heads is None:
            heads = np.fromiter(map(index.__getitem__, adj), np.int32, count=len(adj))
        if dst is None:
            dst = np.fromiter(map(index.__getitem__, chain.from_iterable(adj.values())), np.int32, count=m)
    elif not plain:
        # A view: iterate (never trust len()): filtered views report the size of what they filter.
        with paused_gc():
            rows = [[index[v] for v in nbrs] for nbrs in adj.values()]
        counts = np.fromiter(map(len, rows), np.int64, count=len(rows))
        heads = np.fromiter((index[u] for u in adj), np.int32, count=len(rows))
        dst = np.fromiter(chain.from_iterable(rows), np.int32, count=int(counts.sum()))
    src = np.repeat(heads, counts)

    edge_data = None
    if keep_edges or (wanted and (multigraph or not plain or (len(wanted) > 1 and read is None))):
        edge_data = list(chain.from_iterable(map(_values, adj.values())) if plain
                         else chain.from_iterable(nbrs.values() for nbrs in adj.values()))
    values, info = {}, {}
    for attr, default in wanted.items():
        column = None
        if read is not None and attr in read.columns:
            column = _held_column(read.columns[attr], default)
        if column is None and dicts:
            try:  # one attribute: straight off the adjacency, without a list of the data dicts
                column = dict_column(chain.from_iterable(map(_values, adj.values())) if edge_data is None
                                     else edge_data, attr, default)
            except TypeError:  # a data dict that is not a dict after all: read each with its own get()
                column = None
        if column is None:
            if edge_data is None:
                edge_data = list(chain.from_iterable(map(_values, adj.values())))
            column = arc_column(edge_data, attr, default, multigraph)
        values[attr], info[attr] = column

    node_data = None
    if _attrs_for(preserve_node_attrs, graph_name):
        node = G._node
        node_data = list(node.values()) if type(node) is dict and list(node) == nodes else [node[v] for v in nodes]
    graph_data = G.graph if preserve_graph_attrs else None
    cls = graph_class(G.is_directed(), multigraph)
    H = cls(
        nodes,
        src,
        dst,
        values,
        info=info,
        node_data=node_data,
        edge_data=edge_data if keep_edges else None,
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
    if H.directed:
        H.nx_pred = G._pred
    if multigraph:  # parallel edges per arc (iterated: a filtered view's len() is not its size)
        H.multiplicity = np.fromiter((sum(1 for _ in keys) for nbrs in adj.values() for keys in nbrs.values()),
                                     np.int64, count=int(src.size))
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
        if obj.edge_data is not None:
            if obj.multigraph:
                for key, d in obj.edge_data[e].items():
                    H.add_edge(u, v, key, **d)
            else:
                H.add_edge(u, v, **obj.edge_data[e])
        else:
            H.add_edge(u, v, **{attr: col[e] for attr, col in columns.items()})
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
