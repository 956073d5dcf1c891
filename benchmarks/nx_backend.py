"""NetworkX through the semiring_paths backend against NetworkX itself, side by side, conversion included.

::

    PYTHONPATH=. python3 benchmarks/nx_backend.py [--quick] [--crossover]

Each case calls the same NetworkX function twice per repeat, with
``backend="semiring_paths"`` and with ``backend="networkx"``, on the same
seeded graph, with NetworkX's conversion cache off (every backend call
converts the graph anew), checks the answers agree, and reports medians and
ratios; every timed call starts from a collected heap (:func:`collected_median`).  ``--crossover`` times ``floyd_warshall_numpy`` and
``single_source_dijkstra_path_length`` and ``descendants`` on small graphs to place the
``should_run`` thresholds (:data:`graphs.nx_backend.interface.MIN_NODES`).
Results go to benchmarks/results/nx-backend-cpu.{json,md}; each case is also timed with the
converted graph kept on ``G.__networkx_cache__`` (conversion excluded).  A case whose function
``should_run`` leaves on NetworkX (:data:`graphs.nx_backend.interface.LINEAR_ON_NETWORKX`: automatic
dispatch does not convert for it) is still timed, and marked; the headline median is over the cases
the backend serves, and the median over every case is printed beside it.  Every function the backend
implements has a case (the summary names any that lacks one): graphs of 10^5 edges where the function
is linear or near it, smaller ones for the all-pairs and cubic families, real-valued weights for the
Bellman-Ford family (whose paths follow NetworkX's queue order where several are shortest, and the
backend then gives the call back to NetworkX).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # noqa: E402
from _common import machine, markdown_table, median_time, set_quick, write_results  # noqa: E402

B = "semiring_paths"




def weighted(G, seed, attr="weight", low=1, high=100):
    rng = np.random.default_rng(seed)
    for (_, _, d), w in zip(G.edges(data=True), rng.integers(low, high, G.number_of_edges()).tolist()):
        d[attr] = w
    return G


def real_weighted(G, seed, attr="weight"):
    """A copy of ``G`` with weights uniform in [1, 100) (real-valued: shortest paths are unique)."""
    H = G.copy()
    rng = np.random.default_rng(seed)
    for (_, _, d), w in zip(H.edges(data=True), rng.uniform(1, 100, H.number_of_edges()).tolist()):
        d[attr] = w
    return H


def _raised(f, *args, **kwargs):
    """``f(*args[:-1], backend=args[-1], **kwargs)``, or the type and message of the exception it raised."""
    *rest, b = args
    try:
        return f(*rest, backend=b, **kwargs)
    except nx.NetworkXException as exc:
        return type(exc).__name__, str(exc)


def _dag_tag(tag: str, A) -> str:
    """How the table names the DAG ``A`` made of the arcs ``u < v`` of the graph named ``tag``."""
    if tag.startswith("gnm("):
        return f"DAG gnm({len(A)}, {A.number_of_edges()})"
    return f"DAG of {tag.removesuffix(' directed')} (arcs u < v: {A.number_of_edges()})"


def _sets(it):
    return sorted(sorted(map(str, c)) for c in it)


class Linear(NamedTuple):
    """The graphs of the cases on 10^4 to 10^5 edges, and the names the table gives them.

    ``D`` directed and ``U`` undirected, weighted (``"weight"``); ``Dr``: ``D``
    with the weights the Bellman-Ford family runs on (real-valued in the main
    benchmark, where shortest paths are unique).
    """

    D: Any
    U: Any
    Dr: Any
    tag_d: str
    tag_u: str


class Small(NamedTuple):
    """The graphs of the all-pairs and cubic families (hundreds to a thousand nodes), and their names.

    ``W``: floyd_warshall_numpy; ``S`` (directed, about 1000 nodes): the
    all-pairs families and transitive closures; ``F`` (directed, about 200
    nodes): NetworkX's dict Floyd-Warshall and the other cubic ones, ``Fr``
    as ``Dr`` of :class:`Linear`; ``C`` (undirected, about 500 nodes):
    centralities and distance measures; ``T`` (undirected, about 150 nodes):
    the exact spanning-tree count.
    """

    W: Any
    S: Any
    F: Any
    Fr: Any
    C: Any
    T: Any
    tag_w: str
    tag_s: str
    tag_f: str
    tag_c: str
    tag_t: str


def gnm_linear(quick: bool) -> Linear:
    """The main benchmark's gnm graphs of 10^5 edges (10^4 with ``quick``)."""
    scale = 10 if quick else 1
    D = weighted(nx.gnm_random_graph(20_000 // scale, 100_000 // scale, seed=3, directed=True), 4)
    U = weighted(nx.gnm_random_graph(20_000 // scale, 100_000 // scale, seed=5), 6)
    return Linear(D, U, real_weighted(D, 21), f"gnm({len(D)}, {D.number_of_edges()}) directed",
                  f"gnm({len(U)}, {U.number_of_edges()})")


def gnm_small(quick: bool) -> Small:
    """The main benchmark's graphs of the all-pairs and cubic families."""
    n_fw = 300 if quick else 1000
    W = weighted(nx.gnp_random_graph(n_fw, 0.1, seed=1, directed=True), 2)
    S = weighted(nx.gnm_random_graph(1000, 10_000, seed=11, directed=True), 12)
    # NetworkX's dict Floyd-Warshall is n^3 Python steps: n = 200 (n = 1000 took NetworkX minutes)
    F = weighted(nx.gnm_random_graph(200, 2000, seed=15, directed=True), 16)
    C = weighted(nx.gnm_random_graph(500, 5000, seed=17), 18)
    T = nx.gnm_random_graph(150, 600, seed=19)  # the backend's exact determinant: at most 160 rows
    return Small(W, S, F, real_weighted(F, 22), C, T, f"gnp({n_fw}, 0.1) directed",
                 f"gnm({len(S)}, {S.number_of_edges()}) directed", f"gnm({len(F)}, {F.number_of_edges()}) directed",
                 f"gnm({len(C)}, {C.number_of_edges()})", f"gnm({len(T)}, {T.number_of_edges()})")


def cases(quick: bool):
    """``(name, f(backend), repeats)``: every family on graphs of 10^4 to 10^6 edges."""
    yield from linear_cases(gnm_linear(quick))
    yield from small_cases(gnm_small(quick))
    if not quick:
        L = weighted(nx.gnm_random_graph(200_000, 1_000_000, seed=13, directed=True), 14)
        tag_l = f"gnm({len(L)}, {L.number_of_edges()}) directed"
        yield (f"single_source_dijkstra_path_length, {tag_l}",
               lambda b: nx.single_source_dijkstra_path_length(L, 0, backend=b), 3)
        yield f"strongly_connected_components, {tag_l}", lambda b: _sets(nx.strongly_connected_components(L, backend=b)), 3


def linear_cases(g: Linear):
    """``(name, f(backend), repeats)`` on graphs of 10^4 to 10^5 edges: one-source and single-pair searches,
    traversals, components, spanning trees, flows, DAG paths, structure tests.

    Sources and sinks are the first nodes of each graph (``0, 1, 2`` on the
    gnm graphs); the target of the single pairs is a node farthest in hops
    from the source, the first of them in ``D``'s node order.
    """
    D, U, Dr, tag_d, tag_u = g
    s, s1, s2 = list(D)[:3]
    u0, u1 = list(U)[:2]
    per_graph = [
        ("single_source_dijkstra_path_length", lambda b: nx.single_source_dijkstra_path_length(D, s, backend=b)),
        ("single_source_dijkstra", lambda b: nx.single_source_dijkstra(D, s, backend=b)),
        ("single_source_dijkstra_path", lambda b: nx.single_source_dijkstra_path(D, s, backend=b)),
        ("dijkstra_predecessor_and_distance", lambda b: nx.dijkstra_predecessor_and_distance(D, s, backend=b)),
        ("multi_source_dijkstra_path_length",
         lambda b: nx.multi_source_dijkstra_path_length(D, {s, s1, s2}, backend=b)),
        ("single_source_bellman_ford_path_length",
         lambda b: nx.single_source_bellman_ford_path_length(D, s, backend=b)),
        ("single_source_shortest_path", lambda b: nx.single_source_shortest_path(D, s, backend=b)),
        ("single_source_shortest_path_length", lambda b: nx.single_source_shortest_path_length(D, s, backend=b)),
        ("single_target_shortest_path_length", lambda b: nx.single_target_shortest_path_length(D, s, backend=b)),
        ("predecessor", lambda b: nx.predecessor(D, s, backend=b)),
        ("shortest_path (one source)", lambda b: nx.shortest_path(D, s, weight="weight", backend=b)),
        ("bfs_edges", lambda b: list(nx.bfs_edges(D, s, backend=b))),
        ("bfs_layers", lambda b: list(nx.bfs_layers(D, s, backend=b))),
        ("descendants", lambda b: nx.descendants(D, s, backend=b)),
        ("dfs_preorder_nodes", lambda b: list(nx.dfs_preorder_nodes(D, backend=b))),
        ("dfs_postorder_nodes", lambda b: list(nx.dfs_postorder_nodes(D, backend=b))),
        ("dfs_edges", lambda b: list(nx.dfs_edges(D, backend=b))),
    ]
    for name, f in per_graph:
        yield f"{name}, {tag_d}", f, 3
    undirected = [
        ("connected_components", lambda b: _sets(nx.connected_components(U, backend=b))),
        ("number_connected_components", lambda b: nx.number_connected_components(U, backend=b)),
        ("is_connected", lambda b: nx.is_connected(U, backend=b)),
        ("minimum_spanning_tree", lambda b: sorted(nx.minimum_spanning_tree(U, backend=b).edges())),
        ("maximum_spanning_tree", lambda b: sorted(nx.maximum_spanning_tree(U, backend=b).edges())),
        ("minimum_spanning_edges", lambda b: list(nx.minimum_spanning_edges(U, data=False, backend=b))),
        ("maximum_flow_value", lambda b: nx.maximum_flow_value(U, u0, u1, capacity="weight", backend=b)),
        ("minimum_cut_value", lambda b: nx.minimum_cut_value(U, u0, u1, capacity="weight", backend=b)),
    ]
    for name, f in undirected:
        yield f"{name}, {tag_u}", f, 3
    directed = [
        ("strongly_connected_components", lambda b: _sets(nx.strongly_connected_components(D, backend=b))),
        ("number_strongly_connected_components", lambda b: nx.number_strongly_connected_components(D, backend=b)),
        ("weakly_connected_components", lambda b: _sets(nx.weakly_connected_components(D, backend=b))),
        ("condensation", lambda b: nx.condensation(D, backend=b).number_of_edges()),
    ]
    for name, f in directed:
        yield f"{name}, {tag_d}", f, 3
    A = nx.DiGraph((u, v, d) for u, v, d in D.edges(data=True) if u < v)
    A.add_nodes_from(D)
    tag_a = _dag_tag(tag_d, A)
    yield f"dag_longest_path, {tag_a}", lambda b: nx.dag_longest_path(A, backend=b), 3
    yield f"dag_longest_path_length, {tag_a}", lambda b: nx.dag_longest_path_length(A, backend=b), 3
    structure = [
        ("is_forest", lambda b: nx.is_forest(U, backend=b)),
        ("is_semiconnected", lambda b: nx.is_semiconnected(D, backend=b)),
        ("attracting_components", lambda b: _sets(nx.attracting_components(D, backend=b))),
    ]
    for name, f in structure:
        yield name + ", " + (tag_u if name == "is_forest" else tag_d), f, 3
    # Bellman-Ford's paths follow NetworkX's queue order where several are shortest (the backend then defers
    # to NetworkX): the main benchmark runs that family on real-valued weights (Dr), where shortest paths are unique
    hops = nx.single_source_shortest_path_length(D, s)
    order = {v: i for i, v in enumerate(D)}
    t = max(hops, key=lambda v: (hops[v], -order[v]))  # a farthest node (hops) from s, the first of them
    tag_dt = f"{tag_d}, {s} -> {t}"
    pairs = [
        ("dijkstra_path", lambda b: nx.dijkstra_path(D, s, t, backend=b)),
        ("dijkstra_path_length", lambda b: nx.dijkstra_path_length(D, s, t, backend=b)),
        ("bidirectional_dijkstra", lambda b: nx.bidirectional_dijkstra(D, s, t, backend=b)),
        ("bidirectional_shortest_path", lambda b: nx.bidirectional_shortest_path(D, s, t, backend=b)),
        ("astar_path", lambda b: nx.astar_path(D, s, t, backend=b)),
        ("astar_path_length", lambda b: nx.astar_path_length(D, s, t, backend=b)),
        ("bellman_ford_path (real weights)", lambda b: nx.bellman_ford_path(Dr, s, t, backend=b)),
        ("bellman_ford_path_length (real weights)", lambda b: nx.bellman_ford_path_length(Dr, s, t, backend=b)),
        ("has_path", lambda b: nx.has_path(D, s, t, backend=b)),
        ("all_shortest_paths", lambda b: sorted(nx.all_shortest_paths(D, s, t, weight="weight", backend=b))),
    ]
    for name, f in pairs:
        yield f"{name}, {tag_dt}", f, 3
    sources = [
        ("shortest_path_length (one source)",
         lambda b: nx.shortest_path_length(D, s, weight="weight", backend=b)),
        ("single_source_bellman_ford (real weights)", lambda b: nx.single_source_bellman_ford(Dr, s, backend=b)),
        ("single_source_bellman_ford_path (real weights)", lambda b: nx.single_source_bellman_ford_path(Dr, s, backend=b)),
        ("bellman_ford_predecessor_and_distance (real weights)",
         lambda b: nx.bellman_ford_predecessor_and_distance(Dr, s, backend=b)),
        ("goldberg_radzik (real weights)", lambda b: nx.goldberg_radzik(Dr, s, backend=b)),
        ("multi_source_dijkstra", lambda b: nx.multi_source_dijkstra(D, {s, s1, s2}, backend=b)),
        ("multi_source_dijkstra_path", lambda b: nx.multi_source_dijkstra_path(D, {s, s1, s2}, backend=b)),
        ("single_target_shortest_path", lambda b: nx.single_target_shortest_path(D, t, backend=b)),
        ("single_source_all_shortest_paths",
         lambda b: {v: sorted(p) for v, p in nx.single_source_all_shortest_paths(D, s, weight="weight", backend=b)}),
        ("negative_edge_cycle", lambda b: nx.negative_edge_cycle(D, backend=b)),
        ("is_negatively_weighted", lambda b: nx.is_negatively_weighted(D, backend=b)),
        ("bfs_predecessors", lambda b: list(nx.bfs_predecessors(D, s, backend=b))),
        ("bfs_successors", lambda b: list(nx.bfs_successors(D, s, backend=b))),
        ("bfs_tree", lambda b: sorted(nx.bfs_tree(D, s, backend=b).edges())),
        ("descendants_at_distance", lambda b: nx.descendants_at_distance(D, s, 4, backend=b)),
        ("ancestors", lambda b: nx.ancestors(D, s, backend=b)),
        ("dfs_labeled_edges", lambda b: list(nx.dfs_labeled_edges(D, backend=b))),
        ("dfs_predecessors", lambda b: nx.dfs_predecessors(D, backend=b)),
        ("dfs_successors", lambda b: nx.dfs_successors(D, backend=b)),
        ("dfs_tree", lambda b: sorted(nx.dfs_tree(D, backend=b).edges())),
        ("is_strongly_connected", lambda b: nx.is_strongly_connected(D, backend=b)),
        ("is_weakly_connected", lambda b: nx.is_weakly_connected(D, backend=b)),
        ("number_weakly_connected_components", lambda b: nx.number_weakly_connected_components(D, backend=b)),
        ("number_attracting_components", lambda b: nx.number_attracting_components(D, backend=b)),
        ("is_attracting_component", lambda b: nx.is_attracting_component(D, backend=b)),
        ("is_directed_acyclic_graph", lambda b: nx.is_directed_acyclic_graph(D, backend=b)),
        ("has_cycle", lambda b: nx.algorithms.dag.has_cycle(D, backend=b)),
        ("is_aperiodic", lambda b: _raised(nx.is_aperiodic, D, b)),  # not strongly connected: an error
        ("is_arborescence", lambda b: nx.is_arborescence(D, backend=b)),
        ("is_branching", lambda b: nx.is_branching(D, backend=b)),
        ("isolates", lambda b: list(nx.isolates(D, backend=b))),
        ("number_of_isolates", lambda b: nx.number_of_isolates(D, backend=b)),
        ("is_isolate", lambda b: nx.is_isolate(D, s, backend=b)),
    ]
    for name, f in sources:
        yield f"{name}, {tag_d}", f, 3
    # the backend answers find_negative_cycle where no negative cycle is reachable (the cycle NetworkX returns
    # otherwise follows its queue order, and NetworkX answers)
    yield f"find_negative_cycle (none reachable), {tag_d}", lambda b: _raised(nx.find_negative_cycle, D, s, b), 3
    undirected = [
        ("node_connected_component", lambda b: nx.node_connected_component(U, u0, backend=b)),
        ("is_tree", lambda b: nx.is_tree(U, backend=b)),
        ("maximum_spanning_edges", lambda b: list(nx.maximum_spanning_edges(U, data=False, backend=b))),
        ("maximum_flow", lambda b: nx.maximum_flow(U, u0, u1, capacity="weight", backend=b)[0]),
        ("minimum_cut", lambda b: nx.minimum_cut(U, u0, u1, capacity="weight", backend=b)[0]),
    ]
    for name, f in undirected:
        yield f"{name}, {tag_u}", f, 3


def small_cases(g: Small):
    """``(name, f(backend), repeats)`` on the graphs of the all-pairs and cubic families: floyd_warshall(_numpy),
    the all-pairs families, transitive closures and reduction, centralities, distance measures, the exact
    spanning-tree count."""
    W, S, F, Fr, C, T, tag_w, tag_s, tag_f, tag_c, tag_t = g
    yield f"floyd_warshall_numpy, {tag_w}", lambda b: nx.floyd_warshall_numpy(W, backend=b), 3
    small = [
        ("all_pairs_dijkstra_path_length", lambda b: dict(nx.all_pairs_dijkstra_path_length(S, backend=b))),
        ("all_pairs_shortest_path_length", lambda b: dict(nx.all_pairs_shortest_path_length(S, backend=b))),
        ("average_shortest_path_length", lambda b: _raised(nx.average_shortest_path_length, S, b, weight="weight")),
        ("transitive_closure", lambda b: nx.transitive_closure(S, backend=b).number_of_edges()),
    ]
    for name, f in small:
        yield f"{name}, {tag_s}", f, 1
    yield (f"floyd_warshall, {tag_f}",
           lambda b: {u: dict(d) for u, d in nx.floyd_warshall(F, backend=b).items()}, 1)
    centralities = [
        ("betweenness_centrality", lambda b: nx.betweenness_centrality(C, backend=b)),
        ("betweenness_centrality (weight)", lambda b: nx.betweenness_centrality(C, weight="weight", backend=b)),
        ("betweenness_centrality (k=50)", lambda b: nx.betweenness_centrality(C, k=50, seed=1, backend=b)),
        ("edge_betweenness_centrality", lambda b: nx.edge_betweenness_centrality(C, backend=b)),
        ("closeness_centrality", lambda b: nx.closeness_centrality(C, backend=b)),
        ("closeness_centrality (distance)", lambda b: nx.closeness_centrality(C, distance="weight", backend=b)),
        ("harmonic_centrality", lambda b: nx.harmonic_centrality(C, backend=b)),
        ("eccentricity (weight)", lambda b: _raised(nx.eccentricity, C, b, weight="weight")),
        ("diameter", lambda b: _raised(nx.diameter, C, b)),
        ("barycenter (weight)", lambda b: _raised(nx.barycenter, C, b, weight="weight")),
    ]
    for name, f in centralities:
        yield f"{name}, {tag_c}", f, 1
    Sd = nx.DiGraph((u, v, d) for u, v, d in S.edges(data=True) if u < v)
    Sd.add_nodes_from(S)
    tag_sd = _dag_tag(tag_s, Sd)
    yield f"transitive_closure_dag, {tag_sd}", lambda b: nx.transitive_closure_dag(Sd, backend=b).number_of_edges(), 1
    yield f"transitive_reduction, {tag_sd}", lambda b: sorted(nx.transitive_reduction(Sd, backend=b).edges()), 1
    all_pairs = [
        ("all_pairs_dijkstra", lambda b: {u: (dict(d), dict(p)) for u, (d, p) in nx.all_pairs_dijkstra(S, backend=b)}),
        ("all_pairs_dijkstra_path", lambda b: dict(nx.all_pairs_dijkstra_path(S, backend=b))),
        ("all_pairs_shortest_path", lambda b: dict(nx.all_pairs_shortest_path(S, backend=b))),
    ]
    for name, f in all_pairs:
        yield f"{name}, {tag_s}", f, 1
    small = [
        ("all_pairs_bellman_ford_path_length (real weights)", lambda b: dict(nx.all_pairs_bellman_ford_path_length(Fr, backend=b))),
        ("all_pairs_bellman_ford_path (real weights)", lambda b: dict(nx.all_pairs_bellman_ford_path(Fr, backend=b))),
        ("all_pairs_all_shortest_paths",
         lambda b: {u: {v: sorted(p) for v, p in d.items()}
                    for u, d in nx.all_pairs_all_shortest_paths(F, weight="weight", backend=b)}),
        ("johnson", lambda b: nx.johnson(F, backend=b)),
    ]
    for name, f in small:
        yield f"{name}, {tag_f}", f, 1
    measures = [
        ("center", lambda b: _raised(nx.center, C, b)),
        ("periphery", lambda b: _raised(nx.periphery, C, b)),
        ("radius", lambda b: _raised(nx.radius, C, b)),
    ]
    for name, f in measures:
        yield f"{name}, {tag_c}", f, 1
    yield f"number_of_spanning_trees, {tag_t}", lambda b: nx.number_of_spanning_trees(T, backend=b), 3


def implemented_without_a_case(names) -> list[str]:
    """The backend's functions that no case calls."""
    from graphs.nx_backend.interface import FUNCTIONS

    timed = {function_of(n) for n in names}
    return sorted(set(FUNCTIONS) - timed)


def same(a, b) -> bool:
    """Equal answers; float values of dicts (centralities, summed in another order) to a relative 1e-9."""
    if isinstance(a, np.ndarray):
        return bool(np.array_equal(a, b))
    if isinstance(a, float) and isinstance(b, float):  # NetworkX's determinant rounds; the backend's is exact
        return math.isclose(a, b, rel_tol=1e-9)
    if isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b):
        return all(x == y or isinstance(x, float) and isinstance(y, float) and math.isclose(x, y, rel_tol=1e-9)
                   for x, y in zip(a.values(), b.values()))
    return a == b


def crossover() -> list[dict]:
    rows = []
    for n in (4, 8, 16, 32, 64):
        G = weighted(nx.gnp_random_graph(n, 0.3, seed=n, directed=True), n)
        ours = median_time(lambda G=G: nx.floyd_warshall_numpy(G, backend=B), repeats=21)
        theirs = median_time(lambda G=G: nx.floyd_warshall_numpy(G, backend="networkx"), repeats=21)
        rows.append({"function": "floyd_warshall_numpy", "n": n, "backend_s": ours, "networkx_s": theirs})
    for n in (32, 64, 125, 250, 500, 1000, 4000, 16000):
        G = weighted(nx.gnm_random_graph(n, 5 * n, seed=n, directed=True), n)
        ours = median_time(lambda G=G: nx.single_source_dijkstra_path_length(G, 0, backend=B), repeats=7)
        theirs = median_time(lambda G=G: nx.single_source_dijkstra_path_length(G, 0, backend="networkx"), repeats=7)
        rows.append(
            {"function": "single_source_dijkstra_path_length (m = 5n)", "n": n, "backend_s": ours, "networkx_s": theirs}
        )
    for n in (125, 250, 500, 1000, 4000, 16000):  # a breadth-first search: NetworkX's cheapest pass per edge
        G = nx.gnm_random_graph(n, 5 * n, seed=n, directed=True)
        ours = median_time(lambda G=G: nx.descendants(G, 0, backend=B), repeats=7)
        theirs = median_time(lambda G=G: nx.descendants(G, 0, backend="networkx"), repeats=7)
        rows.append({"function": "descendants (m = 5n)", "n": n, "backend_s": ours, "networkx_s": theirs})
    return rows


def lscpu() -> str:
    """``lscpu``'s model name, family/model and flags, as one Markdown line (empty where lscpu is missing)."""
    import subprocess

    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    get = {k.strip(): v.strip() for k, v in fields.items()}.get
    return (f"lscpu: {get('Model name', '?')} (family {get('CPU family', '?')}, model {get('Model', '?')}), "
            f"{get('CPU(s)', '?')} CPUs; flags: {get('Flags', '?')}")


def collected_median(fn, repeats: int, budget_s: float = 60.0) -> float:
    """Median wall time of ``fn()``, each run starting from a collected heap (``gc.collect()``, not timed).

    Both sides allocate many containers next to the large graphs the cases
    keep alive, so a full collection of everything lands in whichever call
    crosses the collector's threshold (NetworkX's ``bfs_edges`` measured 36
    to 285 ms that way); collecting before each run makes every timed call
    pay only for the collections it causes itself.
    """
    return median_time(fn, repeats, warmup=0, budget_s=budget_s, collect=True)


def function_of(case: str) -> str:
    """The NetworkX function a case calls (its name up to the first comma or parenthesis)."""
    return case.split(",")[0].split(" (")[0]


def served(case: str) -> bool:
    """Whether automatic dispatch runs the case's function on the backend (``should_run`` does not decline it).

    The cases' graphs have int nodes, which ``READER_LABELS_ONLY`` functions are served on.
    """
    from graphs.nx_backend.interface import LINEAR_ON_NETWORKX

    return function_of(case) not in LINEAR_ON_NETWORKX


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = len(xs) // 2
    return xs[k] if len(xs) % 2 else (xs[k - 1] + xs[k]) / 2


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller floyd_warshall_numpy (n = 300)")
    ap.add_argument("--crossover", action="store_true", help="also time small graphs for the should_run thresholds")
    ap.add_argument("--only", action="append", default=[], metavar="TEXT",
                    help="time only the cases whose name contains TEXT (repeatable); results are not written")
    args = ap.parse_args(argv)
    set_quick(args.quick)
    nx.config.cache_converted_graphs = False  # conversion included in every backend call (but one case)
    nx.config.warnings_to_ignore.add("cache")  # that case keeps the converted graph on purpose
    info = {**machine(), "networkx": nx.__version__}
    print(
        f"# {info['cpu']} ({info['simd'] or 'no SIMD flags read'}), {info['cores']} cores, networkx {nx.__version__}"
    )
    rows, results = [], []
    for name, fn, repeats in cases(args.quick):
        if args.only and not any(t in name for t in args.only):
            continue
        assert same(fn(B), fn("networkx")), name  # also the warm-up (Numba compiled, caches filled)
        ours = collected_median(lambda fn=fn: fn(B), repeats)
        theirs = collected_median(lambda fn=fn: fn("networkx"), repeats, budget_s=120)
        nx.config.cache_converted_graphs = True  # conversion excluded: the converted graph kept on G
        try:
            fn(B)
            kept = collected_median(lambda fn=fn: fn(B), repeats)
        finally:
            nx.config.cache_converted_graphs = False
        serve = served(name)
        results.append({"case": name, "function": function_of(name), "served": serve, "backend_s": ours,
                        "backend_kept_s": kept, "networkx_s": theirs, "speedup": theirs / ours,
                        "speedup_kept": theirs / kept, "repeats": repeats})
        rows.append([name, "yes" if serve else "no (NetworkX)", f"{ours * 1e3:.1f}", f"{kept * 1e3:.1f}",
                     f"{theirs * 1e3:.1f}", f"{theirs / ours:.2f}x", f"{theirs / kept:.2f}x"])
        print(f"{name:70s} {'' if serve else '[NetworkX] '}ours {ours * 1e3:9.1f} ms (kept {kept * 1e3:9.1f})"
              f"  networkx {theirs * 1e3:9.1f} ms  {theirs / ours:7.2f}x  {theirs / kept:7.2f}x", flush=True)
    ups = [r["speedup"] for r in results if r["served"]]
    med, med_all = _median(ups), _median([r["speedup"] for r in results])
    med_kept = _median([r["speedup_kept"] for r in results if r["served"]])
    worst = min(results, key=lambda r: r["speedup"] if r["served"] else float("inf"), default=None)
    summary = (
        f"Median speed-up, conversion included, over the {len(ups)} cases the backend serves: {med:.2f}x "
        f"(converted graph kept: {med_kept:.2f}x); over all {len(results)} cases, those ``should_run`` leaves "
        f"on NetworkX included: {med_all:.2f}x."
    )
    if worst is not None and worst["served"]:
        summary += f" Slowest served case: {worst['case']}, {worst['speedup']:.2f}x."
    untimed = implemented_without_a_case(r["case"] for r in results)
    summary += (f" {len({r['function'] for r in results})} distinct functions timed"
                + (f"; implemented but not timed here: {', '.join(untimed)}." if untimed else
                   ", every function the backend implements."))
    print(summary)
    md = f"# NetworkX through the semiring_paths backend (conversion included)\n\n{info['cpu']}; SIMD: {info['simd'] or 'none'}; {info['cores']} cores; networkx {nx.__version__}; {info['date']}\n\n"
    md += f"{lscpu()}\n\n"
    md += ("Each backend call converts the NetworkX graph anew (NetworkX's conversion cache off); the \"kept\" "
           "columns time the same call with the converted graph cached on `G.__networkx_cache__`.  \"served\": "
           "whether automatic dispatch (`should_run`) runs the function on the backend; the others were timed "
           "through `backend=\"semiring_paths\"`.\n\n")
    md += markdown_table(["case", "served", "semiring_paths ms (converted each call)",
                          "semiring_paths ms (converted graph kept)", "networkx ms", "speed-up", "speed-up, kept"], rows)
    md += f"\n\n{summary}\n"
    payload = {"machine": info, "results": results, "median_speedup": med, "median_speedup_all": med_all,
               "median_speedup_kept": med_kept}
    if args.crossover:
        cross = crossover()
        payload["crossover"] = cross
        md += "\n\n## Small graphs (should_run crossover)\n\n" + markdown_table(
            ["function", "n", "semiring_paths ms", "networkx ms", "ratio"],
            [
                [
                    c["function"],
                    c["n"],
                    f"{c['backend_s'] * 1e3:.3f}",
                    f"{c['networkx_s'] * 1e3:.3f}",
                    f"{c['networkx_s'] / c['backend_s']:.2f}x",
                ]
                for c in cross
            ],
        )
        for c in cross:
            print(
                f"{c['function']:45s} n={c['n']:6d}  {c['backend_s'] * 1e3:9.3f} ms vs {c['networkx_s'] * 1e3:9.3f} ms  {c['networkx_s'] / c['backend_s']:.2f}x"
            )
    if args.only:
        return
    print(write_results("nx-backend-cpu", payload, md + "\n"))


if __name__ == "__main__":
    main()
