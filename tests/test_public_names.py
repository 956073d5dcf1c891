"""Every public name stays importable where users import it today.

The lists below are written out, not read from the packages: a name dropped
from an ``__all__``, or a module moved without its old path kept, fails here.
They hold the ``__all__`` of the public packages, the modules ``apsp`` and
``graphs`` import from ``semiring``, the dotted names README.md, docs/ and the
notebooks show (``apsp.distributed.default_block_size``, ``from semiring.generic
import generic_matmul``...), and the entry points of pyproject.toml.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: ``__all__`` of each public package (at least these names; more may come).
ALL = {
    "semiring": ["BUILTIN", "DTypeError", "DeviceError", "InvalidEntryError", "Semiring", "SemiringArray",
                 "SemiringError", "ShapeError", "SubscriptError", "UnsupportedOperationError", "__version__",
                 "einsum", "get", "lor_land", "max_min", "max_plus", "max_times", "min_max", "min_plus",
                 "min_second", "min_times", "neginf", "plus_pair", "plus_times", "posinf", "tropical"],
    "apsp": ["Closure", "METHODS", "NegativeCycleError", "Plan", "PlanError", "Request", "__version__", "choose_method",
             "closure", "minimax_paths", "path", "plan", "prepare", "prepared_matrix", "shortest_paths", "solve",
             "transitive_closure", "widest_paths"],
    "graphs": ["CapacityError", "DynamicSSSP", "FlowResult", "Graph", "GraphError", "GraphFormatError", "NegativeCycleError",
               "ShortestPath", "SpanningForest", "VertexError", "VertexTypeError", "__version__",
               "all_pairs_shortest_paths", "as_graph", "betweenness_centrality", "bfs", "center",
               "closeness_centrality", "connected_components", "diameter", "eccentricity",
               "edge_betweenness_centrality", "generators", "harmonic_centrality", "k_shortest_paths", "maximum_flow",
               "minimum_spanning_tree", "multi_source_sssp", "distance_matrix", "plan_distance_matrix", "periphery",
               "plan_all_pairs", "radius", "read", "shortest_path", "sssp", "st_connectivity", "write"],
    "graphs.csgraph": ["MaximumFlowResult", "NegativeCycleError", "bellman_ford", "breadth_first_order",
                       "breadth_first_tree", "connected_components", "construct_dist_matrix", "csgraph_from_dense",
                       "csgraph_from_masked", "csgraph_masked_from_dense", "csgraph_to_dense", "csgraph_to_masked",
                       "depth_first_order", "depth_first_tree", "dijkstra", "floyd_warshall", "johnson",
                       "laplacian", "maximum_bipartite_matching", "maximum_flow",
                       "min_weight_full_bipartite_matching", "minimum_spanning_tree", "reconstruct_path",
                       "reverse_cuthill_mckee", "shortest_path", "structural_rank", "yen"],
    "graphs.generators": ["erdos_renyi", "grid_2d", "kronecker", "random_dag", "rmat", "road_network", "ssca2"],
    "graphs.nx_backend.interface": ["BackendInterface", "KNOWN_DIFFERENCES", "LINEAR_ON_NETWORKX", "MIN_NODES",
                                    "READER_LABELS_ONLY", "backend_interface"],
}

#: Modules imported by path: the public modules of ``apsp`` and ``semiring`` that the other layers, the
#: documentation and the command line import (``semiring.cuda_kernels`` needs CuPy and is left out).
MODULES = [
    "apsp.api", "apsp.distributed", "apsp.distributed_cluster", "apsp.errors", "apsp.memory", "apsp.methods",
    "apsp.multi_device", "apsp.planner", "apsp.request", "apsp.streaming",
    "semiring.algebra", "semiring.backend", "semiring.closure_hook", "semiring.core", "semiring.cpu_ops",
    "semiring.dense", "semiring.dtypes", "semiring.errors", "semiring.families", "semiring.generic",
    "semiring.int_range", "semiring.kernels", "semiring.sparse", "semiring.validate",
    "graphs.csgraph", "graphs.generators", "graphs.nx_backend", "graphs.cli",
]

#: Dotted names shown in README.md, docs/*.md and notebooks/*.ipynb.
DOCUMENTED = [
    "apsp.distributed",
    "apsp.distributed.PAUSE_S",
    "apsp.distributed.WorkerMemoryError",
    "apsp.distributed.default_block_size",
    "apsp.distributed_cluster.gpu_process_cluster",
    "apsp.distributed_cluster.threaded_cluster",
    "apsp.errors.VertexError",
    "apsp.multi_device",
    "apsp.multi_device.RowBlocks.from_rows",
    "apsp.multi_device.cuda_lanes",
    "apsp.multi_device.multi_device_closure",
    "apsp.path",
    "apsp.planner",
    "apsp.shortest_paths",
    "apsp.streaming",
    "apsp.transitive_closure",
    "apsp.widest_paths",
    "graphs.Graph",
    "graphs.Graph.from_edges",
    "graphs.as_graph",
    "graphs.betweenness_centrality",
    "graphs.bfs",
    "graphs.center",
    "graphs.closeness_centrality",
    "graphs.csgraph",
    "graphs.csgraph.dijkstra",
    "graphs.csgraph.shortest_path",
    "graphs.diameter",
    "graphs.edge_betweenness_centrality",
    "graphs.generators",
    "graphs.generators.grid_2d",
    "graphs.generators.road_network",
    "graphs.k_shortest_paths",
    "graphs.maximum_flow",
    "graphs.minimum_spanning_tree",
    "graphs.multi_source_sssp",
    "graphs.nx_backend",
    "graphs.radius",
    "graphs.read",
    "graphs.shortest_path",
    "graphs.sssp",
    "semiring.__version__",
    "semiring.backend",
    "semiring.backend.gpu_available",
    "semiring.einsum",
    "semiring.generic",
    "semiring.generic.generic_matmul",
    "semiring.int_range.plain_sums_exact",
    "semiring.int_range.sums_in_range",
    "semiring.kernels.cpu_kernels",
    "semiring.min_plus",
]

#: Entry points of pyproject.toml (``module:attribute``).
ENTRY_POINTS = ["apsp.api:closure", "graphs.nx_backend.interface:backend_interface", "_nx_semiring_paths:get_info",
                "graphs.cli:main"]


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module prefix, then attributes.

    >>> resolve("apsp.distributed.default_block_size").__name__
    'default_block_size'
    """
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError as e:
            if e.name is not None and not ".".join(parts[:k]).startswith(e.name):
                raise  # a dependency is missing, not this module
            continue
        where = getattr(obj, "__file__", None)
        if where is not None and ROOT not in Path(where).resolve().parents:
            raise ModuleNotFoundError(f"{dotted}: {where} is not in this tree")  # another installed copy
        for a in parts[k:]:
            obj = getattr(obj, a)
        return obj
    raise ModuleNotFoundError(dotted)


@pytest.mark.parametrize("module", sorted(ALL))
def test_every_listed_name_is_in_all_and_importable(module: str):
    mod = importlib.import_module(module)
    missing = [n for n in ALL[module] if n not in mod.__all__ or not hasattr(mod, n)]
    assert missing == [], f"{module} lacks {missing}"
    assert all(hasattr(mod, n) for n in mod.__all__)


@pytest.mark.parametrize("module", MODULES)
def test_public_module_imports(module: str):
    mod = importlib.import_module(module)
    assert all(hasattr(mod, n) for n in getattr(mod, "__all__", ()))


@pytest.mark.parametrize("dotted", DOCUMENTED)
def test_documented_name_resolves(dotted: str):
    assert resolve(dotted) is not None


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_entry_point_resolves(entry: str):
    module, attr = entry.split(":")
    assert getattr(importlib.import_module(module), attr) is not None


def test_a_moved_module_is_caught():
    with pytest.raises((AttributeError, ModuleNotFoundError)):
        resolve("apsp.rkleene.rkleene")  # moved to apsp.methods.rkleene, which is not a documented path
    with pytest.raises(AttributeError):
        resolve("apsp.distributed.no_such_name")
