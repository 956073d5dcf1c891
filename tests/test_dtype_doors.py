"""Every public door refuses an array of a wrong dtype with the library's own error, naming the argument.

The public callables are enumerated, not listed by hand: every callable name in
the ``__all__`` of :mod:`semiring`, :mod:`apsp`, :mod:`graphs` and
:mod:`graphs.csgraph`, of the modules those ``__all__`` export
(:mod:`graphs.generators`), and the public methods (and constructor) of every
class they export.  Exception classes are no doors and are left out by rule.
Each callable has an entry in :data:`DOORS` (a valid call, its array arguments
and its dtype arguments) or in :data:`SKIP` (why it takes no array and no
dtype); a new public name in an ``__all__`` without an entry fails
:func:`test_every_public_callable_has_an_entry`.

For each entry the valid call is made first (it must succeed: the entry is
right), then each array argument in turn is replaced by an array of the same
shape of each wrong dtype (complex, object, str, bytes, datetime64,
timedelta64, structured void), and each dtype argument by each wrong dtype:

* the library's functions must raise :class:`TypeError` or
  :class:`semiring.DTypeError`, from a frame of the library's own code (not
  NumPy's, SciPy's or Numba's), with a message naming the argument;
* :mod:`graphs.csgraph` keeps SciPy's behaviour (SciPy 1.17) for the
  arguments SciPy has: where SciPy's function raises a TypeError or a
  ValueError the drop-in raises the same kind of error, from its own code and
  naming the argument; where SciPy answers (a complex graph: SciPy drops the
  imaginary part), the drop-in answers the same.  The drop-in's own additions
  (``dtype=``) and its documented departure (``indices`` must be integers, not
  truncated or parsed) follow the library's rule.
"""

from __future__ import annotations

import inspect
import math
import os
import tempfile
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scipy_csgraph

import apsp
import graphs
import semiring
from graphs import csgraph
from semiring import DTypeError

ROOT = Path(__file__).resolve().parents[1]
LIBRARY_DIRS = tuple(str(ROOT / pkg) + os.sep for pkg in ("semiring", "apsp", "graphs"))

#: One array dtype of each wrong kind.
BAD_DTYPES = {
    "complex": np.dtype(np.complex128),
    "object": np.dtype(object),
    "str": np.dtype("U8"),
    "bytes": np.dtype("S8"),
    "datetime64": np.dtype("datetime64[s]"),
    "timedelta64": np.dtype("timedelta64[s]"),
    "void": np.dtype([("a", "f8"), ("b", "i4")]),
}


def bad_like(x: Any, dt: np.dtype) -> Any:
    """An array of ``x``'s shape (values where they convert) of the wrong dtype ``dt``.

    A sparse ``x`` gives a sparse matrix of that dtype where SciPy can hold one
    (complex); ``None`` where it cannot (no caller can pass such a matrix).
    """
    if sp.issparse(x):
        return x.astype(dt) if dt.kind == "c" else None
    x = np.asarray(x)
    if dt.kind in "cOUS":
        finite = np.where(np.isfinite(x), x, 0) if x.dtype.kind == "f" else x
        return finite.astype(dt)
    return np.zeros(x.shape, dtype=dt)


# -- the inputs of the valid calls ---------------------------------------------------------
def w4() -> np.ndarray:
    """A 4 x 4 min-plus weight matrix (inf off the arcs, 0 on the diagonal)."""
    inf = np.inf
    return np.array([[0.0, 1.0, 4.0, inf], [inf, 0.0, 2.0, 6.0], [inf, inf, 0.0, 3.0], [1.0, inf, inf, 0.0]])


def g4() -> graphs.Graph:
    """The weighted directed graph of :func:`w4`."""
    return graphs.Graph.from_dense(w4())


def csg4() -> np.ndarray:
    """SciPy's dense csgraph convention (0 = no edge) of :func:`w4`, symmetric so that every search reaches all."""
    W = np.where(np.isinf(w4()), 0.0, w4())
    return np.maximum(W, W.T)


def sparse4() -> sp.csr_array:
    return sp.csr_array(np.where(np.isinf(w4()), 0.0, w4()))


def pred4() -> np.ndarray:
    return apsp.shortest_paths(w4(), predecessors=True)[1]


def read_file() -> str:
    """A small DIMACS file for :func:`graphs.read` (written once, in a directory of its own)."""
    path = Path(tempfile.mkdtemp(prefix="dtype-doors-")) / "g.gr"
    path.write_text("p sp 3 2\na 1 2 5\na 2 3 7\n")
    return str(path)


@dataclass
class Door:
    """A valid call of a public callable and the arguments to replace.

    ``make`` returns ``(function, args, kwargs)``; ``arrays`` maps an argument
    (its position in ``args`` or its keyword) to the array whose shape the wrong
    arrays take; ``dtypes`` lists the dtype arguments (a function of the wrong
    dtype gives the value to pass); ``names`` says how the message must name an
    argument when that is not its keyword (the parameter's name by default).
    ``scipy`` is SciPy's function of a :mod:`graphs.csgraph` name (same
    arguments), whose behaviour the drop-in keeps for the arguments in
    ``scipy_args``.
    """

    make: Callable[[], tuple[Callable, list, dict]]
    arrays: dict = field(default_factory=dict)
    dtypes: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)
    scipy: Callable | None = None
    scipy_args: tuple = ()


def call(fn, *args, **kwargs):
    return lambda: (fn, list(args), dict(kwargs))


def method(make_obj, name, *args, **kwargs):
    return lambda: (getattr(make_obj(), name), list(args), dict(kwargs))


S = semiring.min_plus
def SAME(dt):  # noqa: N802 -- a dtype argument takes the wrong dtype itself
    return dt


def as_tuple(dt):  # Semiring(dtypes=...) takes a tuple of dtypes
    return (np.dtype(np.float64), dt)


def _mxv_args():
    return sparse4(), np.array([0.0, np.inf, np.inf, np.inf])


#: The entries' ``names``: apsp's closures call their matrix ``W`` in every message (shape, dtype, entries),
#: the name of :func:`apsp.shortest_paths`' argument, to which ``closure``, ``transitive_closure``,
#: ``widest_paths`` and ``minimax_paths`` hand their matrix; ``Semiring.closure`` checks its ``A`` itself.
DOORS: dict[str, Door] = {
    # -- semiring ---------------------------------------------------------------------------
    "semiring.einsum": Door(call(semiring.einsum, "ij,jk->ik", w4(), w4()),
                            arrays={1: w4(), 2: w4()}, names={1: "operand 0", 2: "operand 1"}),
    "semiring.posinf": Door(call(semiring.posinf, np.float64), dtypes={0: SAME}, names={0: "dtype"}),
    "semiring.neginf": Door(call(semiring.neginf, np.float64), dtypes={0: SAME}, names={0: "dtype"}),
    "semiring.Semiring": Door(
        call(semiring.Semiring, "t", np.minimum, np.add, zero=math.inf, one=0.0, idempotent=True, selective=True,
             dtypes=(np.float64,)), dtypes={"dtypes": as_tuple}),
    "semiring.Semiring.matmul": Door(method(lambda: S, "matmul", w4(), w4(), out=np.empty((4, 4))),
                                     arrays={0: w4(), 1: w4(), "out": w4()}),
    "semiring.Semiring.einsum": Door(method(lambda: S, "einsum", "ij,jk->ik", w4(), w4()),
                                     arrays={1: w4(), 2: w4()}, names={1: "operand 0", 2: "operand 1"}),
    "semiring.Semiring.mxv": Door(method(lambda: S, "mxv", *_mxv_args(), out=np.empty(4), mask=np.ones(4, bool)),
                                  arrays={0: sparse4(), 1: np.zeros(4), "out": np.zeros(4), "mask": np.ones(4)}),
    "semiring.Semiring.vxm": Door(method(lambda: S, "vxm", _mxv_args()[1], sparse4(), out=np.empty(4),
                                         mask=np.ones(4, bool)),
                                  arrays={0: np.zeros(4), 1: sparse4(), "out": np.zeros(4), "mask": np.ones(4)}),
    "semiring.Semiring.mxm": Door(method(lambda: S, "mxm", sparse4(), w4(), out=np.empty((4, 4)),
                                         mask=np.ones((4, 4), bool)),
                                  arrays={0: sparse4(), 1: w4(), "out": w4(), "mask": w4()}),
    "semiring.Semiring.add": Door(method(lambda: S, "add", w4(), w4(), out=np.empty((4, 4))),
                                  arrays={0: w4(), 1: w4(), "out": w4()}),
    "semiring.Semiring.mul": Door(method(lambda: S, "mul", w4(), w4(), out=np.empty((4, 4))),
                                  arrays={0: w4(), 1: w4(), "out": w4()}),
    "semiring.Semiring.identity": Door(method(lambda: S, "identity", 3, np.float64), dtypes={1: SAME}),
    "semiring.Semiring.zeros": Door(method(lambda: S, "zeros", (2, 3), np.float64), dtypes={1: SAME}),
    "semiring.Semiring.power": Door(method(lambda: S, "power", w4(), 3), arrays={0: w4()}),
    "semiring.Semiring.closure": Door(method(lambda: S, "closure", w4()), arrays={0: w4()}),
    "semiring.Semiring.array": Door(method(lambda: S, "array", w4()), arrays={0: w4()}),
    "semiring.Semiring.check_dtype": Door(method(lambda: S, "check_dtype", "A", np.float64), dtypes={1: SAME},
                                          names={1: "A"}),
    "semiring.Semiring.in_dtype": Door(method(lambda: S, "in_dtype", np.dtype(np.float64)), dtypes={0: SAME}),
    "semiring.Semiring.zero_value": Door(method(lambda: S, "zero_value", np.float64), dtypes={0: SAME}),
    "semiring.Semiring.one_value": Door(method(lambda: S, "one_value", np.float64), dtypes={0: SAME}),
    "semiring.Semiring.forbidden_values": Door(method(lambda: S, "forbidden_values", np.float64), dtypes={0: SAME}),
    "semiring.Semiring.exact_ufuncs": Door(method(lambda: S, "exact_ufuncs", np.float64), dtypes={0: SAME}),
    "semiring.SemiringArray": Door(call(semiring.SemiringArray, w4(), S), arrays={0: w4()}),
    # -- apsp -------------------------------------------------------------------------------
    "apsp.closure": Door(call(apsp.closure, w4(), out=np.empty((4, 4)), dtype=np.float64),
                         arrays={0: w4(), "out": w4()}, dtypes={"dtype": SAME}, names={0: "W"}),
    "apsp.shortest_paths": Door(call(apsp.shortest_paths, w4(), out=np.empty((4, 4)), dtype=np.float64),
                                arrays={0: w4(), "out": w4()}, dtypes={"dtype": SAME}, names={0: "W"}),
    "apsp.Closure": Door(call(apsp.Closure, w4()), arrays={0: w4()}, names={0: "W"}),
    "apsp.Closure.update": Door(method(lambda: apsp.Closure(w4()), "update", np.array([0]), np.array([1]),
                                       np.array([0.5])),
                                arrays={0: np.array([0]), 1: np.array([1]), 2: np.array([0.5])}),
    "apsp.Closure.remove": Door(method(lambda: apsp.Closure(w4()), "remove", np.array([0]), np.array([1])),
                                arrays={0: np.array([0]), 1: np.array([1])}),
    "apsp.Closure.remove_vertices": Door(method(lambda: apsp.Closure(w4()), "remove_vertices", np.array([1])),
                                         arrays={0: np.array([1])}),
    "apsp.widest_paths": Door(call(apsp.widest_paths, np.where(np.isinf(w4()), -np.inf, w4()), dtype=np.float64),
                              arrays={0: w4()}, dtypes={"dtype": SAME}, names={0: "W"}),
    "apsp.minimax_paths": Door(call(apsp.minimax_paths, w4(), dtype=np.float64),
                               arrays={0: w4()}, dtypes={"dtype": SAME}, names={0: "W"}),
    "apsp.transitive_closure": Door(call(apsp.transitive_closure, np.isfinite(w4())),
                                    arrays={0: w4()}, names={0: "W"}),
    "apsp.path": Door(call(apsp.path, pred4(), 0, 3), arrays={0: pred4()}),
    "apsp.plan": Door(call(apsp.plan, 100, np.float64), dtypes={1: SAME}),
    "apsp.prepare": Door(call(apsp.prepare, w4(), out=np.empty((4, 4)), dtype=np.float64),
                         arrays={0: w4(), "out": w4()}, dtypes={"dtype": SAME}),
    "apsp.prepared_matrix": Door(call(apsp.prepared_matrix, w4(), out=np.empty((4, 4))),
                                 arrays={0: w4(), "out": w4()}),
    # -- graphs -----------------------------------------------------------------------------
    "graphs.Graph": Door(call(graphs.Graph, np.array([0, 1, 2, 2]), np.array([1, 2]), np.array([1.0, 2.0]),
                              coords=np.zeros((3, 2))),
                         arrays={0: np.array([0, 1, 2, 2]), 1: np.array([1, 2]), 2: np.array([1.0, 2.0]),
                                 "coords": np.zeros((3, 2))}),
    "graphs.Graph.from_edges": Door(call(graphs.Graph.from_edges, np.array([0, 1]), np.array([1, 2]),
                                         np.array([1.0, 2.0]), coords=np.zeros((3, 2))),
                                    arrays={0: np.array([0, 1]), 1: np.array([1, 2]), 2: np.array([1.0, 2.0]),
                                            "coords": np.zeros((3, 2))}),
    "graphs.Graph.from_dense": Door(call(graphs.Graph.from_dense, w4()), arrays={0: w4()}),
    "graphs.Graph.from_scipy": Door(call(graphs.Graph.from_scipy, sparse4()), arrays={0: sparse4()}),
    "graphs.Graph.to_dense": Door(method(g4, "to_dense", dtype=np.float64, out=np.empty((4, 4))),
                                  arrays={"out": w4()}, dtypes={"dtype": SAME}),
    "graphs.as_graph": Door(call(graphs.as_graph, w4()), arrays={0: w4()}),
    "graphs.read": Door(lambda: (graphs.read, [read_file()], {"dtype": np.float64}), dtypes={"dtype": SAME}),
    "graphs.bfs": Door(call(graphs.bfs, g4(), 0), arrays={0: w4()}),
    "graphs.st_connectivity": Door(call(graphs.st_connectivity, g4(), 0, 3), arrays={0: w4()}),
    "graphs.sssp": Door(call(graphs.sssp, g4(), 0), arrays={0: w4()}),
    "graphs.DynamicSSSP": Door(call(graphs.DynamicSSSP, g4(), np.array([0, 2])),
                               arrays={0: w4(), 1: np.array([0, 2])}),
    "graphs.DynamicSSSP.update": Door(method(lambda: graphs.DynamicSSSP(g4(), 0), "update", np.array([0]),
                                             np.array([1]), np.array([0.5])),
                                      arrays={0: np.array([0]), 1: np.array([1]), 2: np.array([0.5])}),
    "graphs.DynamicSSSP.remove": Door(method(lambda: graphs.DynamicSSSP(g4(), 0), "remove", np.array([0]),
                                             np.array([1])), arrays={0: np.array([0]), 1: np.array([1])}),
    "graphs.multi_source_sssp": Door(call(graphs.multi_source_sssp, g4(), np.array([0, 2])),
                                     arrays={0: w4(), 1: np.array([0, 2])}),
    "graphs.distance_matrix": Door(call(graphs.distance_matrix, g4(), np.array([0, 2]), np.array([1, 3]),
                                        out=np.empty((2, 2))),
                                   arrays={0: w4(), 1: np.array([0, 2]), 2: np.array([1, 3]), "out": np.empty((2, 2))}),
    "graphs.plan_distance_matrix": Door(call(graphs.plan_distance_matrix, g4(), np.array([0, 2]), np.array([1, 3])),
                                        arrays={0: w4(), 1: np.array([0, 2]), 2: np.array([1, 3])}),
    "graphs.shortest_path": Door(call(graphs.shortest_path, g4(), 0, 3), arrays={0: w4()}),
    "graphs.k_shortest_paths": Door(call(graphs.k_shortest_paths, g4(), 0, 3, 2), arrays={0: w4()}),
    "graphs.all_pairs_shortest_paths": Door(call(graphs.all_pairs_shortest_paths, g4(), dtype=np.float64,
                                                 out=np.empty((4, 4))),
                                            arrays={0: w4(), "out": w4()}, dtypes={"dtype": SAME}),
    "graphs.plan_all_pairs": Door(call(graphs.plan_all_pairs, g4(), dtype=np.float64, out=np.empty((4, 4))),
                                  arrays={0: w4(), "out": w4()}, dtypes={"dtype": SAME}),
    "graphs.connected_components": Door(call(graphs.connected_components, g4()), arrays={0: w4()}),
    "graphs.betweenness_centrality": Door(call(graphs.betweenness_centrality, g4(), sources=np.array([0, 1])),
                                          arrays={0: w4(), "sources": np.array([0, 1])}),
    "graphs.edge_betweenness_centrality": Door(call(graphs.edge_betweenness_centrality, g4(),
                                                    sources=np.array([0, 1])),
                                               arrays={0: w4(), "sources": np.array([0, 1])}),
    "graphs.closeness_centrality": Door(call(graphs.closeness_centrality, g4()), arrays={0: w4()}),
    "graphs.harmonic_centrality": Door(call(graphs.harmonic_centrality, g4()), arrays={0: w4()}),
    "graphs.eccentricity": Door(call(graphs.eccentricity, g4()), arrays={0: w4()}),
    "graphs.diameter": Door(call(graphs.diameter, g4()), arrays={0: w4()}),
    "graphs.radius": Door(call(graphs.radius, g4()), arrays={0: w4()}),
    "graphs.center": Door(call(graphs.center, g4()), arrays={0: w4()}),
    "graphs.periphery": Door(call(graphs.periphery, g4()), arrays={0: w4()}),
    "graphs.minimum_spanning_tree": Door(call(graphs.minimum_spanning_tree, g4()), arrays={0: w4()}),
    "graphs.maximum_flow": Door(call(graphs.maximum_flow, g4(), 0, 3), arrays={0: w4()}),
    "graphs.generators.erdos_renyi": Door(call(graphs.generators.erdos_renyi, 10, 20, dtype=np.float64),
                                          dtypes={"dtype": SAME}),
    "graphs.generators.rmat": Door(call(graphs.generators.rmat, 4, 2, dtype=np.float32), dtypes={"dtype": SAME}),
    "graphs.generators.kronecker": Door(call(graphs.generators.kronecker, 4, 2, dtype=np.float32),
                                        dtypes={"dtype": SAME}),
    "graphs.generators.ssca2": Door(call(graphs.generators.ssca2, 4, dtype=np.float64), dtypes={"dtype": SAME}),
    "graphs.generators.grid_2d": Door(call(graphs.generators.grid_2d, 3, 4, dtype=np.float64),
                                      dtypes={"dtype": SAME}),
    "graphs.generators.road_network": Door(call(graphs.generators.road_network, 30, dtype=np.float64),
                                           dtypes={"dtype": SAME}),
    "graphs.generators.random_dag": Door(call(graphs.generators.random_dag, 10, 20, dtype=np.float64),
                                         dtypes={"dtype": SAME}),
    # -- graphs.csgraph (SciPy's behaviour for SciPy's arguments) ----------------------------
    "graphs.csgraph.shortest_path": Door(call(csgraph.shortest_path, csg4(), indices=np.array([0, 1]),
                                              dtype=np.float64),
                                         arrays={0: csg4(), "indices": np.array([0, 1])}, dtypes={"dtype": SAME},
                                         scipy=scipy_csgraph.shortest_path, scipy_args=(0,)),
    "graphs.csgraph.floyd_warshall": Door(call(csgraph.floyd_warshall, csg4(), dtype=np.float64),
                                          arrays={0: csg4()}, dtypes={"dtype": SAME},
                                          scipy=scipy_csgraph.floyd_warshall, scipy_args=(0,)),
    "graphs.csgraph.dijkstra": Door(call(csgraph.dijkstra, csg4(), indices=np.array([0, 1]), dtype=np.float64),
                                    arrays={0: csg4(), "indices": np.array([0, 1])}, dtypes={"dtype": SAME},
                                    scipy=scipy_csgraph.dijkstra, scipy_args=(0,)),
    "graphs.csgraph.bellman_ford": Door(call(csgraph.bellman_ford, csg4(), indices=np.array([0, 1]),
                                             dtype=np.float64),
                                        arrays={0: csg4(), "indices": np.array([0, 1])}, dtypes={"dtype": SAME},
                                        scipy=scipy_csgraph.bellman_ford, scipy_args=(0,)),
    "graphs.csgraph.johnson": Door(call(csgraph.johnson, csg4(), indices=np.array([0, 1]), dtype=np.float64),
                                   arrays={0: csg4(), "indices": np.array([0, 1])}, dtypes={"dtype": SAME},
                                   scipy=scipy_csgraph.johnson, scipy_args=(0,)),
    "graphs.csgraph.yen": Door(call(csgraph.yen, csg4(), 0, 3, 2), arrays={0: csg4()},
                               scipy=scipy_csgraph.yen, scipy_args=(0,)),
    "graphs.csgraph.breadth_first_order": Door(call(csgraph.breadth_first_order, csg4(), 0), arrays={0: csg4()},
                                               scipy=scipy_csgraph.breadth_first_order, scipy_args=(0,)),
    "graphs.csgraph.depth_first_order": Door(call(csgraph.depth_first_order, csg4(), 0), arrays={0: csg4()},
                                             scipy=scipy_csgraph.depth_first_order, scipy_args=(0,)),
    "graphs.csgraph.breadth_first_tree": Door(call(csgraph.breadth_first_tree, csg4(), 0), arrays={0: csg4()},
                                              scipy=scipy_csgraph.breadth_first_tree, scipy_args=(0,)),
    "graphs.csgraph.depth_first_tree": Door(call(csgraph.depth_first_tree, csg4(), 0), arrays={0: csg4()},
                                            scipy=scipy_csgraph.depth_first_tree, scipy_args=(0,)),
    "graphs.csgraph.connected_components": Door(call(csgraph.connected_components, csg4()), arrays={0: csg4()},
                                                scipy=scipy_csgraph.connected_components, scipy_args=(0,)),
    "graphs.csgraph.minimum_spanning_tree": Door(call(csgraph.minimum_spanning_tree, csg4()), arrays={0: csg4()},
                                                 scipy=scipy_csgraph.minimum_spanning_tree, scipy_args=(0,)),
    "graphs.csgraph.maximum_flow": Door(call(csgraph.maximum_flow, sp.csr_array(csg4().astype(np.int64)), 0, 3),
                                        arrays={0: sp.csr_array(csg4().astype(np.int64))},
                                        scipy=scipy_csgraph.maximum_flow, scipy_args=(0,)),
    "graphs.csgraph.construct_dist_matrix": Door(
        call(csgraph.construct_dist_matrix, csg4(), scipy_csgraph.shortest_path(csg4(), return_predecessors=True)[1]),
        arrays={0: csg4(), 1: np.zeros((4, 4), np.int32)},
        scipy=scipy_csgraph.construct_dist_matrix, scipy_args=(0, 1)),
    "graphs.csgraph.reconstruct_path": Door(
        call(csgraph.reconstruct_path, csg4(), np.array([-9999, 0, 0, 1], np.int32)),
        arrays={0: csg4(), 1: np.zeros(4, np.int32)},
        scipy=scipy_csgraph.reconstruct_path, scipy_args=(0, 1)),
}

#: Public callables that take no array and no dtype argument, and why.
SKIP: dict[str, str] = {
    "semiring.get": "takes a semiring or its name",
    "semiring.Semiring.closure_obstacle": "takes no argument",
    "semiring.SemiringArray.star": "takes keyword options only; the wrapped array was checked when it was wrapped",
    "apsp.choose_method": "takes a size, a device name and a flag",
    "apsp.solve": "takes a Request, which apsp.prepare / apsp.prepared_matrix (the doors, tested) made",
    "apsp.Plan": "a record of the planner's answer (apsp.plan, tested, makes it); its fields are no input",
    "apsp.Plan.summary": "takes no argument",
    "apsp.Request": "a record of a checked request (apsp.prepare, tested, makes it); its fields are no input",
    "graphs.write": "takes a Graph, whose arrays its constructors checked (tested), and a path",
    "graphs.Graph.from_networkx": "takes a NetworkX graph; its weights become an array that Graph.from_edges checks",
    "graphs.Graph.to_scipy": "takes a semiring only",
    "graphs.Graph.to_networkx": "takes a semiring only",
    "graphs.Graph.edges": "takes no argument",
    "graphs.Graph.transpose": "takes no argument",
    "graphs.Graph.simplify": "takes a semiring only",
    "graphs.Graph.to": "takes a device name",
    "graphs.Graph.in_degree": "takes no argument",
    "graphs.Graph.out_degree": "takes no argument",
    "graphs.ShortestPath": "a record of graphs.shortest_path's answer; its fields are no input",
    "graphs.SpanningForest": "a record of graphs.minimum_spanning_tree's answer; its fields are no input",
    "graphs.SpanningForest.to_scipy": "takes no argument",
    "graphs.FlowResult": "a record of graphs.maximum_flow's answer; its fields are no input",
    "graphs.csgraph.MaximumFlowResult": "a record of csgraph.maximum_flow's answer (SciPy's fields); no input",
    "apsp.Closure.add_vertices": "takes a count",
    "apsp.Closure.copy": "takes no argument",
    "apsp.Closure.path": "takes two vertex ids (checked by apsp.path)",
    "graphs.DynamicSSSP.path": "takes two vertices (checked by check_vertex)",
    "graphs.DynamicSSSP.weight": "takes two vertex ids",
    "graphs.DynamicSSSP.to_graph": "takes no argument",
}
#: The names of :mod:`graphs.csgraph` that are SciPy's own functions, re-exported unchanged: their
#: behaviour is SciPy's by definition (see the module's documentation).
for _name in ("laplacian", "maximum_bipartite_matching", "min_weight_full_bipartite_matching",
              "reverse_cuthill_mckee", "structural_rank", "csgraph_from_dense", "csgraph_to_dense",
              "csgraph_from_masked", "csgraph_masked_from_dense", "csgraph_to_masked"):
    SKIP[f"graphs.csgraph.{_name}"] = "SciPy's own function, re-exported unchanged"


# -- enumeration --------------------------------------------------------------------------
def _own_class(obj: Any) -> bool:
    return inspect.isclass(obj) and obj.__module__.split(".")[0] in ("semiring", "apsp", "graphs")


def public_callables() -> dict[str, Any]:
    """Every public callable of the three packages, by qualified name (see the module docstring)."""
    found: dict[str, Any] = {}
    todo = [("semiring", semiring), ("apsp", apsp), ("graphs", graphs), ("graphs.csgraph", csgraph)]
    seen = set()
    while todo:
        prefix, mod = todo.pop()
        if prefix in seen:
            continue
        seen.add(prefix)
        for name in mod.__all__:
            obj = getattr(mod, name)
            key = f"{prefix}.{name}"
            if inspect.ismodule(obj):
                todo.append((key, obj))
            elif inspect.isclass(obj):
                if issubclass(obj, BaseException):
                    continue  # exceptions are raised, not called
                found[key] = obj
                if not _own_class(obj):
                    continue
                for attr, value in inspect.getmembers(obj):
                    if attr.startswith("_") or isinstance(inspect.getattr_static(obj, attr), property):
                        continue
                    if callable(value):
                        found[f"{key}.{attr}"] = value
            elif callable(obj):
                found[key] = obj
    return found


def test_every_public_callable_has_an_entry():
    names = set(public_callables())
    missing = sorted(names - set(DOORS) - set(SKIP))
    assert not missing, f"public callables without an entry in DOORS or SKIP: {missing}"
    stale = sorted((set(DOORS) | set(SKIP)) - names)
    assert not stale, f"entries for names that are not public callables: {stale}"
    assert not set(DOORS) & set(SKIP)


# -- the checks ---------------------------------------------------------------------------
def _param_name(fn: Callable, key: int | str) -> str:
    if isinstance(key, str):
        return key
    params = [p for p in inspect.signature(fn).parameters.values()]
    return params[key].name


def _replaced(args: list, kwargs: dict, key: int | str, value: Any) -> tuple[list, dict]:
    args, kwargs = list(args), dict(kwargs)
    if isinstance(key, int):
        args[key] = value
    else:
        kwargs[key] = value
    return args, kwargs


def _raised_by_library(err: BaseException) -> str:
    """The file of the frame that raised ``err``; it must be one of the library's."""
    frames = traceback.extract_tb(err.__traceback__)
    return frames[-1].filename if frames else "?"


def _same_answer(a: Any, b: Any) -> None:
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _same_answer(x, y)
    elif sp.issparse(a):
        np.testing.assert_array_equal(a.toarray(), b.toarray())
    elif hasattr(a, "flow_value"):
        assert a.flow_value == b.flow_value
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def _cases():
    for key, door in DOORS.items():
        for arg in door.arrays:
            yield pytest.param(key, "array", arg, id=f"{key}-{arg}")
        for arg in door.dtypes:
            yield pytest.param(key, "dtype", arg, id=f"{key}-dtype:{arg}")


def _quiet(fn, args, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's ComplexWarning, the drop-in's negative-weight warning
        return fn(*args, **kwargs)


@pytest.mark.parametrize(("key", "kind", "arg"), list(_cases()))
def test_wrong_dtypes_are_refused_at_the_door(key, kind, arg):
    door = DOORS[key]
    fn, args, kwargs = door.make()
    _quiet(fn, args, kwargs)  # the entry is a valid call
    name = door.names.get(arg, _param_name(fn, arg))
    for label, dt in BAD_DTYPES.items():
        if kind == "array":
            value = bad_like(door.arrays[arg], dt)
            if value is None:
                continue
        else:
            value = door.dtypes[arg](dt)
        bad_args, bad_kwargs = _replaced(args, kwargs, arg, value)
        expect = (TypeError, DTypeError)
        if door.scipy is not None and arg in door.scipy_args:
            theirs = inspect.signature(door.scipy).parameters  # SciPy's arguments only (not dtype=, device=)
            try:
                want = _quiet(door.scipy, bad_args, {k: v for k, v in bad_kwargs.items() if k in theirs})
            except (TypeError, ValueError) as err:
                expect = TypeError if isinstance(err, TypeError) else ValueError
            else:  # SciPy answers: so does the drop-in, with SciPy's answer
                got = _quiet(fn, bad_args, bad_kwargs)
                _same_answer(got, want)
                continue
        try:
            _quiet(fn, bad_args, bad_kwargs)
        except expect as err:
            where = _raised_by_library(err)
            assert where.startswith(LIBRARY_DIRS), (
                f"{key}({name}={label}): {type(err).__name__} raised in {where}, not by the library: {err}")
            assert name in str(err), f"{key}({name}={label}): the message does not name {name!r}: {err}"
        except Exception as err:  # noqa: BLE001 -- reported with its origin
            where = _raised_by_library(err)
            raise AssertionError(f"{key}({name}={label}): {type(err).__name__} from {where}: {err}") from err
        else:
            raise AssertionError(f"{key}({name}={label}) was accepted (a silent coercion)")
