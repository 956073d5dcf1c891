"""Every public algorithm of graphs enters the door (graphs.door.prepare) once and runs no check twice.

A profiler hook counts, for one public call, the calls of ``prepare`` and of
every project function whose name says it checks (``check`` or ``valid``),
keyed by the argument it checks (its ``name`` parameter, when it has one);
a check of the same thing twice, or a second entry through the door, fails.
"""

import collections
import os
import sys

import numpy as np
import pytest

import graphs
from graphs import generators as gen

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(graphs.__file__))) + os.sep
PACKAGES = tuple(ROOT + p + os.sep for p in ("graphs", "apsp", "semiring"))


def entries(call):
    """``(door entries, {(check function, checked name): calls})`` of one call."""
    door = 0
    checks = collections.Counter()

    def profile(frame, event, arg):
        nonlocal door
        if event != "call":
            return
        code = frame.f_code
        if not code.co_filename.startswith(PACKAGES):
            return
        if code.co_name == "prepare" and code.co_filename.endswith(os.path.join("graphs", "door.py")):
            door += 1
        elif "check" in code.co_name or "valid" in code.co_name:
            name = frame.f_locals.get("name")
            checks[(code.co_filename[len(ROOT):], code.co_name, name if isinstance(name, str) else None)] += 1

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return door, checks


def once(call):
    """Fail unless ``call`` enters the door once and checks each thing at most once."""
    door, checks = entries(call)
    twice = {k: v for k, v in checks.items() if v > 1}
    assert door == 1, f"the door was entered {door} times"
    assert not twice, f"checked more than once: {twice}"


W = gen.grid_2d(6, 7, seed=1)  # weighted, undirected, coordinates
D = gen.erdos_renyi(40, 160, seed=2)  # weighted, directed
U = gen.grid_2d(5, 5, weights=None)
DENSE = W.to_dense()
CALLS = {
    "sssp": lambda: graphs.sssp(W, 0),
    "sssp (bellman-ford)": lambda: graphs.sssp(D, 3, "bellman-ford"),
    "sssp (unweighted)": lambda: graphs.sssp(U, 2),
    "sssp (dense matrix)": lambda: graphs.sssp(DENSE, 0),
    "multi_source_sssp": lambda: graphs.multi_source_sssp(D, np.array([0, 5, 7])),
    "multi_source_sssp (spmm)": lambda: graphs.multi_source_sssp(D, np.array([1, 2]), method="spmm"),
    "shortest_path": lambda: graphs.shortest_path(W, 0, 41),
    "shortest_path (scipy)": lambda: graphs.shortest_path(D.to_scipy(), 0, 9),
    "bfs": lambda: graphs.bfs(D, 0),
    "st_connectivity": lambda: graphs.st_connectivity(D, 0, 9),
    "connected_components": lambda: graphs.connected_components(D, "strong"),
    "minimum_spanning_tree": lambda: graphs.minimum_spanning_tree(W),
    "maximum_flow": lambda: graphs.maximum_flow(D, 0, 9),
    "betweenness_centrality": lambda: graphs.betweenness_centrality(W),
    "edge_betweenness_centrality": lambda: graphs.edge_betweenness_centrality(D, sources=5, seed=1),
    "closeness_centrality": lambda: graphs.closeness_centrality(D),
    "harmonic_centrality": lambda: graphs.harmonic_centrality(U),
    "eccentricity": lambda: graphs.eccentricity(W),
    "diameter": lambda: graphs.diameter(U),
    "radius": lambda: graphs.radius(W),
    "center": lambda: graphs.center(W, weighted=False),
    "periphery": lambda: graphs.periphery(W),
    "all_pairs_shortest_paths (sparse)": lambda: graphs.all_pairs_shortest_paths(gen.erdos_renyi(900, 2000, seed=3), memory_limit=3_900_000),
    "all_pairs_shortest_paths (dense)": lambda: graphs.all_pairs_shortest_paths(U),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_one_door_and_no_check_twice(name):
    CALLS[name]()  # compile and cache first
    once(CALLS[name])


def test_a_second_check_or_a_second_entry_is_caught(monkeypatch):
    """The test above fails when the engine checks the source again or re-enters the door."""
    import graphs.paths.engine as engine
    from graphs._arguments import check_vertex
    from graphs.door import prepare

    search = engine.search

    def checks_again(P, s, method="auto", delta=None):
        check_vertex(P.graph, s, "source")
        return search(P, s, method, delta)

    monkeypatch.setattr(sys.modules["graphs.paths.sssp"], "search", checks_again)
    with pytest.raises(AssertionError, match="checked more than once"):
        once(CALLS["sssp"])

    def enters_again(P, s, method="auto", delta=None):
        return search(prepare(P.graph, facts=True), s, method, delta)

    monkeypatch.setattr(sys.modules["graphs.paths.sssp"], "search", enters_again)
    with pytest.raises(AssertionError, match="door was entered 2 times"):
        once(CALLS["sssp"])
