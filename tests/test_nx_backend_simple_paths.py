"""The backend's ``shortest_simple_paths``: NetworkX's paths in NetworkX's order, ties included, lazily."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

B = "semiring_paths"


def _paths(G, s, t, weight, limit=80, **kw):
    try:
        return list(itertools.islice(nx.shortest_simple_paths(G, s, t, weight=weight, **kw), limit))
    except nx.NetworkXNoPath as err:
        return str(err)


def _random_graph(rng: np.random.Generator, i: int):
    n = int(rng.integers(1, 11))
    G = nx.gnp_random_graph(n, float(rng.uniform(0.15, 0.6)), seed=int(rng.integers(1 << 30)), directed=i % 2 == 0)
    kind = (i // 2) % 4
    for u, v in G.edges():
        G[u][v]["w"] = [int(rng.integers(0, 3)), int(rng.integers(1, 3)), float(rng.integers(1, 6)) / 10, 1][kind]
    return G, None if kind == 3 else "w"


@pytest.mark.parametrize("part", range(4))
def test_exactly_networkx_paths_and_order(part):
    """Ties (equal lengths, zero weights, hop counts), float sums that round, directed and undirected graphs."""
    rng = np.random.default_rng(1000 + part)
    for i in range(60):
        G, weight = _random_graph(rng, i)
        s, t = (int(x) for x in rng.integers(0, len(G), 2))
        assert _paths(G, s, t, weight, backend=B) == _paths(G, s, t, weight), (part, i)


def test_weight_functions_string_nodes_and_missing_attributes():
    G = nx.complete_graph(6)
    G = nx.relabel_nodes(G, {i: f"v{i}" for i in G})
    for u, v in G.edges():
        if (int(u[1]) + int(v[1])) % 3:
            G[u][v]["cost"] = abs(int(u[1]) - int(v[1]))  # the others read as 1 (NetworkX's default)

    def hide(u, v, d):
        return None if {u, v} == {"v0", "v5"} else d.get("cost", 2)

    for weight in ("cost", hide, None):
        assert _paths(G, "v0", "v5", weight, backend=B) == _paths(G, "v0", "v5", weight)


def test_errors_come_lazily_as_networkx_raises_them():
    G = nx.path_graph(3)
    gen = nx.shortest_simple_paths(G, 0, 9, backend=B)  # no error yet: a generator
    with pytest.raises(nx.NodeNotFound, match="target node 9 not in graph"):
        next(gen)
    with pytest.raises(nx.NodeNotFound, match="source node 7 not in graph"):
        next(nx.shortest_simple_paths(G, 7, 0, backend=B))
    G.add_node(5)
    with pytest.raises(nx.NetworkXNoPath, match="No path between 0 and 5"):
        next(nx.shortest_simple_paths(G, 0, 5, backend=B))
    assert list(nx.shortest_simple_paths(G, 1, 1, backend=B)) == [[1]]
    with pytest.raises(nx.NetworkXNotImplemented):
        next(nx.shortest_simple_paths(nx.MultiGraph([(0, 1)]), 0, 1, backend=B))


def test_what_is_not_reproduced_goes_back_at_the_call():
    for bad, why in ((-1, "negative weights"), (float("inf"), "inf weights")):
        G = nx.DiGraph([(0, 1, {"w": bad}), (1, 2, {"w": 3}), (0, 2, {"w": 5})])
        with pytest.raises(NotImplementedError) as info:
            nx.shortest_simple_paths(G, 0, 2, weight="w", backend=B)  # at the call, not at the first next()
        assert why in str(info.value.__cause__ or info.value.__context__)
        expected = _paths(G, 0, 2, "w")
        G.add_nodes_from(range(3, 600))  # large enough for should_run: NetworkX's own code answers
        with nx.config.backend_priority(algos=[B]):
            assert _paths(G, 0, 2, "w") == expected


def test_batches_ahead_of_the_caller_give_every_path_once():
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 4), first_label=1, ordering="sorted")
    ours = list(nx.shortest_simple_paths(G, 1, 12, backend=B))  # every simple path, in batches of up to 32
    assert ours == list(nx.shortest_simple_paths(G, 1, 12))
    assert len(ours) == len({tuple(p) for p in ours}) == len(list(nx.all_simple_paths(G, 1, 12)))
