"""The backend graph types: a node list and NetworkX-ordered arc arrays, with ``graphs.Graph`` built lazily.

A :class:`BackendGraph` is what :func:`graphs.nx_backend.convert.convert_from_nx`
makes of a NetworkX graph.  It keeps

* ``nodes``: the original node labels (any hashable), in NetworkX's order;
  vertex ``i`` of every array is ``nodes[i]``;
* ``src``, ``dst``: one arc per adjacency entry, in NetworkX's adjacency order
  (``G._adj``: for an undirected graph both directions of each edge, for a
  multigraph one arc per pair of neighbours);
* ``values``: one array per converted edge attribute, aligned with the arcs
  (for a multigraph the minimum over the parallel edges, which is what
  NetworkX's shortest-path functions use), held exactly (int64, float64, or
  the Python objects themselves: :func:`.attributes.as_value_array`), and
  ``info``: per attribute the Python types present and whether some edge
  lacked it (:class:`.attributes.ValueInfo`);
* optionally the node, edge and graph data (``preserve_*_attrs``) that
  functions returning graphs copy.

The :class:`graphs.Graph` (CSR) that the library's engines need is built on
first use by the algorithm, from the numbers it decided to compute with
(:meth:`BackendGraph.arc_graph`), and kept.  Four classes carry the
flags NetworkX reads (``is_directed()``, ``is_multigraph()``); all share
``__networkx_backend__ = "semiring_paths"``.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from contextlib import contextmanager
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from ..csr_arrays import build_csr
from ..graph import Graph
from ._dict_reader import OK, IdTable, read_adjacency
from .attributes import ValueInfo, arc_column, dict_column

__all__ = ["paused_gc", "PAUSE_GC_ITEMS", "BackendGraph", "BackendDiGraph", "BackendMultiGraph", "BackendMultiDiGraph", "graph_class",
           "IntNodeIds"]


#: Fewest containers a result must have for :func:`paused_gc` to pause the collector: re-enabling it after a
#: small result costs more than the collections it saves (the first allocation after it collects what was counted
#: while it was off: about 26 us a call, measured on all_pairs_shortest_path of a directed scale_free(1000), one
#: small result per source).
PAUSE_GC_ITEMS = 2000


@contextmanager
def paused_gc(items: int | None = None):
    """Pause Python's cyclic garbage collector while a large acyclic result is built (restored after).

    ``items``: the containers the result will hold, where known; below
    :data:`PAUSE_GC_ITEMS` the collector is left as it is.

    Building a result of many containers (dicts of paths, a NetworkX graph)
    makes the collector traverse every live object of the process, the input
    graph's included, again and again: tens to hundreds of milliseconds for
    a 10^5-edge result next to large graphs.  The containers built here hold
    no cycles (reference counting frees them), so nothing is lost; the
    collector's previous state is restored even when building raises.  The
    collector is process-wide: with threads, one call may turn it back on
    while another still builds (that one is then only slower).

    Examples
    --------
    >>> import gc
    >>> with paused_gc():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    if not gc.isenabled() or (items is not None and items < PAUSE_GC_ITEMS):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class BackendGraph:
    """An undirected graph of the ``semiring_paths`` NetworkX backend.

    Parameters
    ----------
    nodes : list
        Node labels in NetworkX's order.
    src, dst : int32 arrays
        Arcs in NetworkX's adjacency order (both directions of an undirected edge).
    values : dict, optional
        Edge attribute name -> array aligned with the arcs.
    info : dict, optional
        Edge attribute name -> :class:`.attributes.ValueInfo` (types present, some missing).
    node_data, edge_data : list, optional
        Per node the data dict; per arc the data dict (for a multigraph the
        dict ``key -> data``), when preserved.
    graph_data : dict, optional
        The graph attributes, when preserved.
    nx_class : type, optional
        The NetworkX class the graph came from (``convert_to_nx`` rebuilds it).

    Examples
    --------
    >>> import numpy as np
    >>> G = BackendGraph(["a", "b"], np.array([0, 1], np.int32), np.array([1, 0], np.int32))
    >>> G.is_directed(), G.is_multigraph(), G.number_of_nodes(), G.number_of_edges()
    (False, False, 2, 1)
    >>> G.graph_for(None).nnz
    2
    """

    __networkx_backend__ = "semiring_paths"
    directed = False
    multigraph = False

    def __init__(
        self,
        nodes: list,
        src: np.ndarray,
        dst: np.ndarray,
        values: dict[Any, np.ndarray] | None = None,
        *,
        info: dict[Any, ValueInfo] | None = None,
        node_data: list | None = None,
        edge_data: list | None = None,
        graph_data: dict | None = None,
        nx_class: type | None = None,
    ) -> None:
        self.nodes = nodes
        self.src = src
        self.dst = dst
        self.values = dict(values or {})
        self.info = dict(info or {})
        self.node_data = node_data
        self.edge_data = edge_data
        self.graph = dict(graph_data or {})
        self.nx_class = nx_class
        self._index: dict | None = None
        self._graphs: dict = {}
        self._csr: tuple | None = None
        self._pred_csr: tuple | None = None
        self._pred_arcs: np.ndarray | None = None
        #: The nodes are the Python ints ``0 .. n - 1`` in order (vertex ``i`` is node ``i``).
        self.range_nodes = False
        #: For other int nodes of a small range, ``id_table[node]`` is the node's vertex id (-1: none); for tuples of
        #: ints spanning a small box, an :class:`._dict_reader.IdTable`.
        self.id_table: np.ndarray | IdTable | None = None
        #: Every edge data is an exact ``dict`` (NetworkX's default factory): read at C speed.
        self.dict_edges = False
        #: Whether every edge data dict read at conversion was an exact ``dict`` (``None``: none was read).
        #: NetworkX's copies of a graph (``G.reverse()``) copy a subclass's items into exact dicts.
        self.exact_edge_data: bool | None = None
        #: NetworkX's predecessor dicts (``G._pred``) of a directed graph, for the predecessor order.
        self.nx_pred: Any = None
        #: For a multigraph converted from NetworkX, the number of parallel edges of each arc (else None).
        self.multiplicity: np.ndarray | None = None

    # NetworkX reads these -------------------------------------------------
    def is_directed(self) -> bool:
        """Whether arcs have a direction (NetworkX's ``G.is_directed()``)."""
        return self.directed

    def is_multigraph(self) -> bool:
        """Whether the NetworkX graph allowed parallel edges (``G.is_multigraph()``)."""
        return self.multigraph

    def __len__(self) -> int:
        return len(self.nodes)

    def __contains__(self, node: Any) -> bool:
        try:
            return node in self.index
        except TypeError:  # unhashable: not a node, as in NetworkX
            return False

    def __iter__(self):
        return iter(self.nodes)

    def number_of_nodes(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    def number_of_edges(self) -> int:
        """Number of adjacency pairs: arcs, or edges of an undirected graph (self loops once)."""
        if self.directed:
            return int(self.src.size)
        loops = int(np.count_nonzero(self.src == self.dst))
        return (int(self.src.size) - loops) // 2 + loops

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.number_of_nodes()} nodes, {self.number_of_edges()} edges>"

    # Numbering and engines --------------------------------------------------
    @property
    def index(self) -> Mapping:
        """Node label -> vertex id: for int nodes in order or numbered by :attr:`id_table`, computed per
        lookup (no dict of every node for one source); otherwise a dict built on first use."""
        if self._index is None:
            if self.range_nodes or self.id_table is not None:
                self._index = IntNodeIds(self.nodes, self.id_table)
            else:
                self._index = {v: i for i, v in enumerate(self.nodes)}
        return self._index

    def vertex(self, node: Any) -> int:
        """The vertex id of ``node``, -1 when it is not a node (``node in G`` then says False: unhashable too).

        Examples
        --------
        >>> G = BackendGraph(["a", "b"], np.array([0], np.int32), np.array([1], np.int32))
        >>> G.vertex("b"), G.vertex("z"), G.vertex([])
        (1, -1, -1)
        """
        if self.range_nodes and type(node) is int:  # vertex i is the node i
            return node if 0 <= node < len(self.nodes) else -1
        try:
            return self.index[node]
        except (KeyError, TypeError):
            return -1

    def labels(self, ids: Any) -> list:
        """The node labels of vertex ids (an int array or a list of ints), as a new list (at C speed).

        Examples
        --------
        >>> G = BackendGraph(["a", "b"], np.array([0], np.int32), np.array([1], np.int32))
        >>> G.labels(np.array([1, 0]))
        ['b', 'a']
        """
        ids = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
        if self.range_nodes:  # vertex i is the node i
            return ids
        return list(map(self.nodes.__getitem__, ids))

    def weights(self, attr: Any) -> np.ndarray | None:
        """The arc values of edge attribute ``attr`` (``None``: unweighted, no array).

        Raises
        ------
        NotImplementedError
            ``attr`` was not converted (NetworkX then falls back when it may).
        """
        if attr is None:
            return None
        return self.column(attr)[0]

    def column(self, attr: Any) -> tuple[np.ndarray, ValueInfo]:
        """The arc values of ``attr`` (any hashable, ``None`` included; default 1) and their :class:`ValueInfo`.

        Raises
        ------
        NotImplementedError
            ``attr`` was not converted and the edge data was not kept.
        """
        if attr not in self.values:
            if self.edge_data is None:
                raise NotImplementedError(f"edge attribute {attr!r} was not converted to the semiring_paths graph")
            column = None
            if self.dict_edges and not self.multigraph:
                try:
                    column = dict_column(self.edge_data, attr, 1)
                except TypeError:  # not a dict after all: each one's own get()
                    column = None
            if column is None:
                column = arc_column(self.edge_data, attr, 1, self.multigraph)
            # The summary first: a thread that sees the values (on a graph NetworkX shares between
            # threads) must find their summary, not make a lesser one from the values alone.
            self.info[attr] = column[1]
            self.values[attr] = column[0]
        info = self.info.get(attr)
        if info is None:  # values given without a summary: read it off the array
            info = ValueInfo(frozenset(map(type, self.values[attr].tolist())), False)
            self.info[attr] = info
        return self.values[attr], info

    def column_at(self, attr: Any, arcs: np.ndarray) -> np.ndarray:
        """The values of ``attr`` on the arcs ``arcs`` (an int array), held exactly.

        When the column was not converted, only those arcs' edge data are
        read (and nothing is cached): a function that reads each undirected
        edge once reads half the dicts.  The array's dtype is then that of the
        selected values alone (:func:`.attributes.as_value_array`: int64 where
        the whole column, ints and floats mixed, would be an object array).

        Examples
        --------
        >>> G = BackendGraph([0, 1], np.array([0, 1], np.int32), np.array([1, 0], np.int32),
        ...                  edge_data=[{"w": 2.5}, {"w": 2.5}])
        >>> G.column_at("w", np.array([0]))
        array([2.5])
        """
        if attr in self.values or self.edge_data is None or self.multigraph:
            return self.column(attr)[0][arcs]
        picked = list(map(self.edge_data.__getitem__, arcs.tolist()))
        if self.dict_edges:
            try:
                return dict_column(picked, attr, 1)[0]
            except TypeError:  # not a dict after all: each one's own get()
                pass
        return arc_column(picked, attr, 1, False)[0]

    def graph_for(self, attr: None = None, *, reverse: bool = False) -> Graph:
        """The unweighted :class:`graphs.Graph` of all arcs (cached); ``reverse=True`` flips every arc."""
        if attr is not None:
            raise TypeError("graph_for reads no weights; use arc_graph with the numbers to compute with")
        return self.arc_graph(None, None, reverse=reverse)

    def arc_graph(self, key: Any, weights: np.ndarray | None, keep: np.ndarray | None = None, *,
                  reverse: bool = False) -> Graph:
        """The :class:`graphs.Graph` of the arcs selected by ``keep`` weighted by ``weights`` (cached under ``key``).

        Built trusted (``check=False``): the arcs are the conversion's and the
        weights an engine's plan (exact int64 or float64, no NaN, no ``inf``).

        Parameters
        ----------
        key : hashable
            Names the (weights, keep) pair; ``None`` is the unweighted graph of all arcs.
        weights : int64 or float64 array, optional
            One per selected arc (``None``: unweighted).
        keep : bool array, optional
            Which arcs (default all).
        reverse : bool
            Flip every arc (paths *to* a node).
        """
        ck = (key, reverse)
        G = self._graphs.get(ck)
        if G is None:
            src, dst = (self.dst, self.src) if reverse else (self.src, self.dst)
            if keep is not None:
                src, dst = src[keep], dst[keep]
            G = Graph(*build_csr(len(self.nodes), src, dst, weights), directed=True, check=False)
            self._graphs[ck] = G
        return G

    def arc_csr(self, key: Any, weights: np.ndarray, keep: np.ndarray | None = None, *,
                reverse: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(indptr, indices, weights)`` of the arcs of :meth:`arc_graph`, for a search (cached under ``key``).

        All arcs forward, rows in node order (as the conversion reads them):
        the conversion's arrays themselves, each row in NetworkX's adjacency
        order; otherwise :meth:`arc_graph`'s arrays.  Trusted as :meth:`arc_graph`.

        Examples
        --------
        >>> G = BackendGraph([0, 1], np.array([0, 1], np.int32), np.array([1, 0], np.int32))
        >>> G.arc_csr("w", np.array([3, 3]))
        (array([0, 1, 2]), array([1, 0], dtype=int32), array([3, 3]))
        """
        ck = ("csr", key, reverse)
        got = self._graphs.get(ck)
        if got is None:
            src = self.src
            if (keep is None and not reverse and self.dst.dtype == np.int32
                    and not (src.size and (np.diff(src) < 0).any())):
                indptr = np.zeros(len(self.nodes) + 1, np.int64)
                np.cumsum(np.bincount(src, minlength=len(self.nodes)), out=indptr[1:])
                got = (indptr, self.dst, weights)
            else:
                G = self.arc_graph(key, weights, keep, reverse=reverse)
                got = (G.indptr, G.indices, G.weights)
            self._graphs[ck] = got
        return got

    def csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(indptr, indices, arcs)``: rows in node order, each row in NetworkX's adjacency order (cached).

        ``arcs[k]`` is the arc (index into ``src``/``dst``/values) of CSR entry ``k``.
        """
        if self._csr is None:
            n = len(self.nodes)
            src = self.src
            if src.size and (np.diff(src) < 0).any():
                arcs = np.argsort(src, kind="stable")
            else:
                arcs = np.arange(src.size)
            indptr = np.zeros(n + 1, np.int64)
            np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
            self._csr = (indptr, self.dst[arcs].astype(np.int64), arcs)
        return self._csr

    def pred_csr(self, arcs: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``(indptr, indices, arcs)`` of the arcs *into* each node, in NetworkX's predecessor order (cached).

        For an undirected graph this is :meth:`csr`.  For a directed graph the
        order is ``G._pred``'s (kept at conversion); without it, arcs sorted by
        head then tail position (``NotImplementedError`` where that order matters
        is the caller's decision).  ``arcs=False``: ``arcs`` is ``None`` (not
        matched: the caller reads no arc values).
        """
        if not self.directed:
            return self.csr()
        if self._pred_csr is None:
            n = len(self.nodes)
            if self.nx_pred is not None:
                counts, tails = self._pred_lists()
            else:
                order = np.lexsort((self.src, self.dst))
                counts = np.bincount(self.dst, minlength=n)
                tails = self.src[order].astype(np.int64)
                self._pred_arcs = order
            indptr = np.zeros(n + 1, np.int64)
            np.cumsum(counts, out=indptr[1:])
            self._pred_csr = (indptr, tails)
        indptr, tails = self._pred_csr
        if not arcs:
            return indptr, tails, None
        if self._pred_arcs is None:
            from ._order_kernels import match_pred_arcs

            found, ok = match_pred_arcs(self.src, self.dst, indptr, tails)
            if not ok:
                raise NotImplementedError("the predecessor dicts do not match the converted arcs")
            self._pred_arcs = found
        return indptr, tails, self._pred_arcs

    def _pred_lists(self) -> tuple[np.ndarray, np.ndarray]:
        """Per node the number of its predecessors, and their vertex ids, in ``G._pred`` order."""
        pred, nodes, n = self.nx_pred, self.nodes, len(self.nodes)
        read = self._read_pred(pred)
        if read is not None:
            return read.counts, read.dst.astype(np.int64)
        if type(pred) is dict and set(map(type, pred.values())) <= {dict}:
            # NetworkX's own dicts: each row copied at once (len() and the keys then agree), one flat pass at C speed
            try:
                with paused_gc():
                    items = list(pred.items())
                    if list(map(itemgetter(0), items)) == nodes:
                        rows = list(map(dict.copy, map(itemgetter(1), items)))
                    else:
                        rows = list(map(dict.copy, map(pred.__getitem__, nodes)))
            except (KeyError, TypeError):  # a node without a row, a row that is not a dict after all
                raise NotImplementedError("the predecessor dicts do not match the converted nodes") from None
            counts = np.fromiter(map(len, rows), np.int64, count=n)
            keys = list(chain.from_iterable(rows))
            m = len(keys)
            if self.range_nodes and set(map(type, keys)) <= {int}:  # exact ints: their own ids, if they are ids
                try:
                    tails = np.fromiter(keys, np.int64, count=m)
                except OverflowError:
                    tails = None
                if tails is not None and (not m or (tails.min() >= 0 and tails.max() < n)):
                    return counts, tails
            try:
                return counts, np.fromiter(map(self.index.__getitem__, keys), np.int64, count=m)
            except KeyError:
                raise NotImplementedError("the predecessor dicts do not match the converted nodes") from None
        # a view: iterate (a filtered view's len() is not its size)
        index = self.index
        try:
            rows = [[index[u] for u in pred[v]] for v in nodes]
        except KeyError:
            raise NotImplementedError("the predecessor dicts do not match the converted nodes") from None
        counts = np.fromiter(map(len, rows), np.int64, count=n)
        return counts, np.fromiter(chain.from_iterable(rows), np.int64, count=int(counts.sum()))

    def _read_pred(self, pred: Any) -> Any:
        """``G._pred`` read by the compiled reader (:mod:`._dict_reader`) in node order, numbered as the arcs; else ``None``."""
        if type(pred) is not dict or not pred or list(pred) != self.nodes:
            return None
        if self.range_nodes or self.id_table is not None:
            ids = self.id_table
        elif set(map(type, self.nodes)) <= {int, str}:
            ids = self.index
        else:
            return None
        n = len(self.nodes)
        status, read = read_adjacency(pred, [], ids, n)
        if status != OK or (n and (np.diff(read.heads) != 1).any()):
            return None  # not read, or the rows are no longer in node order
        return read

    def nx_class_or(self, default: type) -> type:
        """The NetworkX class the graph came from, else ``default``."""
        import networkx as nx

        cls = self.nx_class
        return cls if isinstance(cls, type) and issubclass(cls, nx.Graph) else default


class IntNodeIds(Mapping):
    """Node -> vertex id of int nodes ``0 .. n-1`` in order (``table`` ``None``) or numbered by a table, or of
    tuples of ints numbered by an :class:`._dict_reader.IdTable`.

    An exact ``int`` (a tuple of exact ints) is answered from the numbering;
    a key of another type that may equal a node (``1.0``, ``True``, a NumPy
    integer) goes through a dict of every node, built the first time one is
    asked for, so lookups agree with NetworkX's dict lookups.

    Examples
    --------
    >>> ids = IntNodeIds([5, 2], np.array([-1, -1, 1, -1, -1, 0]))
    >>> ids[2], ids[5.0], 3 in ids, len(ids), list(ids)
    (1, 0, False, 2, [5, 2])
    >>> from ._dict_reader import tuple_id_table
    >>> pairs = IntNodeIds([(0, 1), (0, 0)], tuple_id_table([(0, 1), (0, 0)]))
    >>> pairs[(0, 0)], pairs[(0.0, 1)], (2, 2) in pairs
    (1, 0, False)
    """

    __slots__ = ("_nodes", "_table", "_dict")

    def __init__(self, nodes: list, table: np.ndarray | IdTable | None = None) -> None:
        self._nodes = nodes
        self._table = table
        self._dict: dict | None = None

    def __getitem__(self, node: Any) -> int:
        if type(self._table) is IdTable:
            slot = self._table.slot(node)
            if slot >= 0 and self._table.table[slot] >= 0:
                return int(self._table.table[slot])
            if slot >= 0 or type(node) in (int, str) or (type(node) is tuple and all(type(x) is int for x in node)):
                raise KeyError(node)  # every node is a tuple of exact ints: one equal to node is in the table
        elif type(node) is int:
            table = self._table
            if table is None:
                if 0 <= node < len(self._nodes):
                    return node
            elif 0 <= node < table.shape[0] and table[node] >= 0:
                return int(table[node])
            raise KeyError(node)
        if self._dict is None:
            self._dict = {v: i for i, v in enumerate(self._nodes)}
        return self._dict[node]

    def __contains__(self, node: Any) -> bool:
        try:
            self[node]
        except KeyError:
            return False
        return True

    def __iter__(self):
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


class BackendDiGraph(BackendGraph):
    """A directed graph of the ``semiring_paths`` NetworkX backend (see :class:`BackendGraph`).

    Examples
    --------
    >>> import numpy as np
    >>> BackendDiGraph([0, 1], np.array([0], np.int32), np.array([1], np.int32)).number_of_edges()
    1
    """

    directed = True


class BackendMultiGraph(BackendGraph):
    """An undirected multigraph (parallel edges read as their minimum); see :class:`BackendGraph`.

    Examples
    --------
    >>> BackendMultiGraph([], *[__import__("numpy").zeros(0, "int32")] * 2).is_multigraph()
    True
    """

    multigraph = True


class BackendMultiDiGraph(BackendGraph):
    """A directed multigraph (parallel arcs read as their minimum); see :class:`BackendGraph`.

    Examples
    --------
    >>> G = BackendMultiDiGraph([], *[__import__("numpy").zeros(0, "int32")] * 2)
    >>> G.is_directed(), G.is_multigraph()
    (True, True)
    """

    directed = True
    multigraph = True


def graph_class(directed: bool, multigraph: bool) -> type[BackendGraph]:
    """The backend class with these flags.

    Examples
    --------
    >>> graph_class(True, False).__name__
    'BackendDiGraph'
    """
    return {
        (False, False): BackendGraph,
        (True, False): BackendDiGraph,
        (False, True): BackendMultiGraph,
        (True, True): BackendMultiDiGraph,
    }[(bool(directed), bool(multigraph))]
