"""NetworkX's automatic dispatch to the semiring_paths backend against plain NetworkX, on graph families the main
benchmark never used.

::

    PYTHONPATH=. python3 benchmarks/nx_dispatch_sweep.py [--families ba2,ba3,ws,grid,sf] [--sizes 10000,100000]
        [--weights int,decimal] [--only TEXT] [--before results.json]

Every case of ``benchmarks/nx_backend.py`` (imported: :func:`nx_backend.linear_cases` on graphs of 10^4 and 10^5
edges, :func:`nx_backend.small_cases` on graphs of that script's node counts for the all-pairs and cubic
families) runs on

* ``ba2``, ``ba3``: ``nx.barabasi_albert_graph(n, m)`` with ``m`` = 2, 3 (undirected; nodes ``0 .. n-1``);
* ``ws``: ``nx.watts_strogatz_graph(n, 4, 0.1)`` (undirected ring lattice, rewired);
* ``grid``: ``nx.grid_2d_graph(r, r)`` (undirected; nodes are ``(i, j)`` tuples, as NetworkX makes them);
* ``sf``: ``nx.scale_free_graph(n)`` as a ``DiGraph`` without self-loops (directed; heavy-tailed in- and
  out-degrees); its undirected cases run on ``to_undirected()``.

An undirected family's one-source and traversal cases run on the undirected graph itself (as a user calls
them); the functions NetworkX implements for directed graphs only run on the same graph with each edge
oriented at random.  Edge weights are integers 1..99 (``int``) or floats of two decimals in [1, 100)
(``decimal``: 0.01 is not a dyadic fraction, so their sums round as the user's would); a case runs on the
decimal weights too only where the backend reads an edge attribute for it (seen in the conversion it asks
for), and the Bellman-Ford family runs on the graph's own weights (ties included).

Each case is called through automatic dispatch, as a user configures it (``nx.config.backend_priority`` naming
the backend for algorithms and for the functions that return graphs, no ``backend=``), and through
``backend="networkx"``,
with NetworkX's conversion cache off (every served call converts the graph); the answers must agree
(:func:`nx_backend.same`).  The two are timed in turn, each call from a collected heap, and the medians
compared.  "served" says whether automatic dispatch converted the graph for the backend (``should_run``
said yes); "gave back" whether the backend then raised ``NotImplementedError`` and NetworkX answered.
Results: ``benchmarks/results/nx-dispatch-sweep-cpu.{json,md}`` (a run of some families:
``nx-dispatch-sweep-<families>-cpu``); ``--before`` adds the ratios of an earlier
run's JSON beside the new ones.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

# OpenMP's threads wait passively: on a machine whose cores other processes share, GOMP's default active wait
# makes every parallel region of the Numba kernels wait for a thread the OS has not scheduled (measured on this
# 2-core machine while another process ran: NetworkX's ordered Floyd-Warshall recurrence, n = 1000, 4.6-12.8 s
# with two threads waiting actively, 0.17-0.19 s passively, 0.30-0.35 s on one thread).  Set before Numba loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # noqa: E402
from _common import machine, markdown_table, write_results  # noqa: E402
from nx_backend import Linear, Small, function_of, linear_cases, lscpu, same, small_cases, weighted  # noqa: E402

from graphs.nx_backend.interface import backend_interface  # noqa: E402

B = "semiring_paths"
FAMILIES = ("ba2", "ba3", "ws", "grid", "sf")
#: Node counts of the small graphs, as benchmarks/nx_backend.py chooses them: floyd_warshall_numpy, the all-pairs
#: families, the cubic ones, centralities, the spanning-tree count.
SMALL_NODES = {"W": 1000, "S": 1000, "F": 200, "C": 500, "T": 150}


def decimal_weighted(G, seed, attr="weight"):
    """``G`` with weights of two decimals in [1, 100) (floats whose sums round)."""
    rng = np.random.default_rng(seed)
    for (_, _, d), w in zip(G.edges(data=True), np.round(rng.uniform(1, 100, G.number_of_edges()), 2).tolist()):
        d[attr] = w
    return G


def with_weights(G, kind: str, seed: int):
    return weighted(G, seed) if kind == "int" else decimal_weighted(G, seed)


def oriented(G, seed: int) -> nx.DiGraph:
    """A ``DiGraph`` with each edge of the undirected ``G`` in one direction, chosen at random (data shared)."""
    rng = np.random.default_rng(seed)
    flip = rng.random(G.number_of_edges()) < 0.5
    D = nx.DiGraph()
    D.add_nodes_from(G)
    D.add_edges_from((v, u, d) if f else (u, v, d) for (u, v, d), f in zip(G.edges(data=True), flip.tolist()))
    return D


def family_graph(family: str, edges: int | None = None, nodes: int | None = None, seed: int = 1):
    """The family's graph of about ``edges`` edges (or of about ``nodes`` nodes), and its name."""
    if family in ("ba2", "ba3"):
        m = int(family[2])
        n = nodes or edges // m
        return nx.barabasi_albert_graph(n, m, seed=seed), f"barabasi_albert({n}, {m})"
    if family == "ws":
        n = nodes or edges // 2
        return nx.watts_strogatz_graph(n, 4, 0.1, seed=seed), f"watts_strogatz({n}, 4, 0.1)"
    if family == "grid":
        r = round((nodes or edges / 2) ** 0.5)
        return nx.grid_2d_graph(r, r), f"grid_2d({r}, {r})"
    if family == "sf":
        n = nodes or round(edges / 1.86)  # about 1.86 arcs per node once self-loops and parallel arcs go
        G = nx.DiGraph(nx.scale_free_graph(n, seed=seed))
        G.remove_edges_from(list(nx.selfloop_edges(G)))
        return G, f"scale_free({n}) directed"
    raise ValueError(f"family: unknown {family!r} (one of {', '.join(FAMILIES)})")


def tag(G, name: str) -> str:
    return f"{name} [{len(G)} nodes, {G.number_of_edges()} edges]"


def linear_graphs(family: str, edges: int, weights: str) -> tuple[Linear, Linear | None]:
    """The family's :class:`nx_backend.Linear` graphs, and for an undirected family the same with ``D`` oriented
    (for the functions NetworkX implements for directed graphs only)."""
    G, name = family_graph(family, edges)
    G = with_weights(G, weights, 2)
    if G.is_directed():
        U = G.to_undirected()
        return Linear(G, U, G, tag(G, name), tag(U, name + " undirected")), None
    D = oriented(G, 3)
    t = tag(G, name)
    return Linear(G, G, G, t, t), Linear(D, G, D, tag(D, name + " oriented"), t)


def small_graphs(family: str, weights: str) -> tuple[Small, Small | None]:
    """The family's :class:`nx_backend.Small` graphs (node counts :data:`SMALL_NODES`), and with oriented edges."""
    made = {}
    for role, n in SMALL_NODES.items():
        G, name = family_graph(family, nodes=n, seed=10 + n)
        made[role] = (with_weights(G, weights, n) if role != "T" else G, name)
    g = made["W"][0], made["S"][0], made["F"][0], made["F"][0], made["C"][0], made["T"][0]
    tags = [tag(made[r][0], made[r][1]) for r in ("W", "S", "F", "C", "T")]
    if g[0].is_directed():
        C = g[4].to_undirected()
        return Small(*g[:4], C, g[5], *tags[:3], tag(C, made["C"][1] + " undirected"), tags[4]), None
    o = [oriented(x, 5) for x in g[:4]]
    otags = [tag(x, made[r][1] + " oriented") for x, r in zip(o, ("W", "S", "F"))]
    return Small(*g, *tags), Small(*o, g[4], g[5], *otags, *tags[3:])


class _Listen(logging.Handler):
    """Counts NetworkX's dispatch log lines that say the backend gave a call back."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.gave_back = 0

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        if msg.startswith(f"Backend '{B}' raised when calling"):
            self.gave_back += 1


class Probe:
    """One untimed call of a case with the conversions it asks for recorded (and whether the backend gave it back).

    ``converted``: the ``edge_attrs`` of each conversion to the backend (one
    per graph argument); ``names``: the functions they were for (NetworkX's
    own code of one function may call another through dispatch:
    ``is_connected`` calls ``connected_components``); ``gave_back``: calls
    the backend handed to NetworkX (``NotImplementedError``).
    """

    def __init__(self) -> None:
        self.converted: list[dict] = []
        self.names: list[str] = []
        self.gave_back = 0

    def __call__(self, fn, b):
        convert = type(backend_interface).convert_from_nx

        def spy(G, *args, **kwargs):
            self.converted.append(dict(kwargs.get("edge_attrs") or {}))
            self.names.append(kwargs.get("name"))
            return convert(G, *args, **kwargs)

        log = logging.getLogger("networkx")
        listen, level = _Listen(), log.level
        backend_interface.convert_from_nx = spy
        log.addHandler(listen)
        log.setLevel(logging.DEBUG)
        try:
            return fn(b)
        finally:
            log.setLevel(level)
            log.removeHandler(listen)
            del backend_interface.convert_from_nx
            self.gave_back += listen.gave_back


def _priority(names: list[str]):
    """A setter of ``nx.config.backend_priority`` for algorithms and for the functions that return graphs (NetworkX
    3.6 looks those up in ``backend_priority.generators``); run outside the timed calls (about 0.2 ms a setting)."""
    def set_it():
        nx.config.backend_priority.algos = names
        nx.config.backend_priority.generators = names
    return set_it


#: Automatic dispatch as a user configures it: the backend tried first, for algorithms
#: (``nx.config.backend_priority = [...]``, ``NETWORKX_BACKEND_PRIORITY``) and for the functions that return
#: graphs (``backend_priority.generators``: ``minimum_spanning_tree``, ``bfs_tree``, ``condensation``, ...;
#: with the first alone those run NetworkX's code, whose inner calls are dispatched).  The reference calls run
#: with no priority, so that the NetworkX functions that call others through dispatch (``is_connected`` calls
#: ``connected_components``, ``single_source_dijkstra`` calls ``multi_source_dijkstra``) stay on NetworkX.
AUTOMATIC, PLAIN = _priority([B]), _priority([])


#: Rounds of a case whose calls are quick: repeated up to this many while the case has run under a second.
MAX_ROUNDS = 15


def alternated(fns, repeats: int, budget_s: float) -> list[list[float]]:
    """Wall times of each ``(setup, fn)`` of ``fns``, called in turn round after round, each call from a collected
    heap after its ``setup()`` (not timed): ``repeats`` rounds (fewer past ``budget_s``), more -- up to
    :data:`MAX_ROUNDS` -- while the case has run under a second (quick calls get steadier medians)."""
    times: list[list[float]] = [[] for _ in fns]
    start = time.perf_counter()
    rounds = 0
    while rounds < MAX_ROUNDS:
        for k, (setup, fn) in enumerate(fns):
            setup()
            gc.collect()
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
        rounds += 1
        spent = time.perf_counter() - start
        if spent > budget_s or (rounds >= repeats and spent > 1.0):
            break
    PLAIN()
    return times


def run_case(name: str, fn, repeats: int, *, need_weights: bool, budget_s: float) -> dict | None:
    """Time one case (``None`` where NetworkX raises for this graph -- not implemented for its kind, say --, or it
    reads no weights and ``need_weights``)."""
    probe = Probe()
    PLAIN()
    try:
        ref = fn("networkx")
    except nx.NetworkXException:  # not for this kind of graph (undirected, say): the oriented graph has the case
        return None
    explicit = Probe()
    try:
        explicit(fn, B)  # which edge attributes the backend reads for this call
    except Exception:  # noqa: BLE001 - an answer the backend refuses here; the conversion it asked for counts
        pass
    weighted_call = any(explicit.converted)
    if need_weights and not weighted_call:
        return None
    AUTOMATIC()
    try:
        got = probe(fn, None)
    finally:
        PLAIN()
    assert same(got, ref), name
    serve = bool(probe.converted)
    ours, theirs = alternated([(AUTOMATIC, lambda: fn(None)), (PLAIN, lambda: fn("networkx"))], repeats, budget_s)
    a, t = statistics.median(ours), statistics.median(theirs)
    via = sorted(set(probe.names) - {function_of(name)})
    return {"case": name, "function": function_of(name), "served": serve, "via": via, "gave_back": probe.gave_back > 0,
            "weighted": weighted_call, "automatic_s": a, "networkx_s": t, "ratio": t / a, "repeats": len(ours),
            "automatic_all_s": ours, "networkx_all_s": theirs}


def sweep(args) -> list[dict]:
    results = []
    for family in args.families:
        for weights in args.weights:
            need = weights != args.weights[0]  # later weight kinds: only the cases that read weights
            groups = []
            for edges in args.sizes:
                first, second = linear_graphs(family, edges, weights)
                groups.append((f"{edges} edges", first, second, linear_cases))
            if not args.no_small:
                first, second = small_graphs(family, weights)
                groups.append(("small", first, second, small_cases))
            for size, first, second, make in groups:
                missing = set()
                for graphs in (first, second):
                    if graphs is None:
                        continue
                    for name, fn, repeats in make(graphs):
                        if args.only and not any(t in name for t in args.only):
                            continue
                        if graphs is second and function_of(name) not in missing:
                            continue  # ran on the undirected graph
                        row = run_case(name, fn, max(repeats, args.repeats), need_weights=need,
                                       budget_s=args.budget)
                        if row is None:
                            missing.add(function_of(name))
                            continue
                        row.update(family=family, weights=weights, size=size)
                        results.append(row)
                        flag = "" if row["served"] else "[NetworkX] "
                        flag += f"[via {', '.join(row['via'])}] " if row["via"] else ""
                        flag += "[gave back] " if row["gave_back"] else ""
                        print(f"{family:4s} {weights:7s} {name[:95]:95s} {flag}auto {row['automatic_s'] * 1e3:9.2f} ms"
                              f"  networkx {row['networkx_s'] * 1e3:9.2f} ms  {row['ratio']:6.2f}x", flush=True)
    return results


def _key(r: dict) -> tuple:
    return r["family"], r["weights"], r["case"]


def report(results: list[dict], before: dict | None, info: dict, args) -> tuple[str, dict]:
    served = [r for r in results if r["served"]]
    worst = sorted(served, key=lambda r: r["ratio"])
    rows = []
    for r in sorted(results, key=lambda r: (not r["served"], r["ratio"])):
        old = before.get(_key(r)) if before else None
        served_as = "yes" + (f" (through {', '.join(r['via'])})" if r["via"] else "")
        served_as += " (gave back)" if r["gave_back"] else ""
        row = [r["family"], r["weights"], r["case"], served_as if r["served"] else "no (NetworkX)", f"{r['automatic_s'] * 1e3:.2f}", f"{r['networkx_s'] * 1e3:.2f}",
               f"{r['ratio']:.2f}x"]
        if before is not None:
            row.insert(-1, "" if old is None else f"{old['ratio']:.2f}x" + ("" if old["served"] else " (NetworkX)"))
        rows.append(row)
    header = ["family", "weights", "case", "served", "automatic ms", "networkx ms", "ratio"]
    if before is not None:
        header.insert(-1, "ratio before")
    low = worst[0] if worst else None
    declined = [r["ratio"] for r in results if not r["served"]]
    summary = (f"{len(results)} cases ({len({r['function'] for r in results})} functions), {len(served)} served "
               f"under automatic dispatch. Minimum ratio (NetworkX time / automatic-dispatch time) over the served "
               f"cases: " + (f"{low['ratio']:.2f}x ({low['family']}, {low['weights']}, {low['case']})" if low else "none")
               + (f"; median {statistics.median(r['ratio'] for r in served):.2f}x" if served else "")
               + (f". Cases left on NetworkX by should_run: ratio median {statistics.median(declined):.2f}x, "
                  f"range {min(declined):.2f}x to {max(declined):.2f}x (dispatch overhead and noise)." if declined
                  else "."))
    md = ("# NetworkX automatic dispatch to semiring_paths against NetworkX, graph families the main benchmark "
          f"never used\n\n{info['cpu']}; SIMD: {info['simd'] or 'none'}; {info['cores']} cores; networkx "
          f"{info['networkx']}; {info['date']}\n\n{lscpu()}\n\n"
          "`nx.config.backend_priority.algos` and `.generators` = `[\"semiring_paths\"]` and no `backend=` (what "
          "`should_run` decides), "
          "against `backend=\"networkx\"`; conversion cache off (every served call converts the graph); each "
          "ratio is the median NetworkX time over the median automatic-dispatch time, the two timed in turn, "
          f"each call from a collected heap; answers checked equal; OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}"
          f" (see the script). Command: `{args.command}`.\n\n"
          f"{summary}\n\n## Worst served cases\n\n")
    md += markdown_table(["family", "weights", "case", "automatic ms", "networkx ms", "ratio"],
                         [[r["family"], r["weights"], r["case"], f"{r['automatic_s'] * 1e3:.2f}",
                           f"{r['networkx_s'] * 1e3:.2f}", f"{r['ratio']:.2f}x"] for r in worst[:10]])
    md += "\n## Every case (served first, slowest first)\n\n" + markdown_table(header, rows)
    payload = {"machine": info, "command": args.command, "results": results,
               "min_served_ratio": low["ratio"] if low else None,
               "median_served_ratio": statistics.median(r["ratio"] for r in served) if served else None}
    return md, payload


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--families", default=",".join(FAMILIES), help="comma-separated, of " + ", ".join(FAMILIES))
    ap.add_argument("--sizes", default="10000,100000", help="edge counts of the linear cases' graphs")
    ap.add_argument("--weights", default="int,decimal", help="int, decimal (the first: every case; later: weighted)")
    ap.add_argument("--repeats", type=int, default=5, help="fewest repeats per case (budget permitting)")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per case before repeats stop")
    ap.add_argument("--no-small", action="store_true", help="skip the all-pairs and cubic families")
    ap.add_argument("--only", action="append", default=[], metavar="TEXT",
                    help="only the cases whose name contains TEXT (repeatable); results are not written")
    ap.add_argument("--before", type=Path, help="an earlier run's JSON: its ratios go beside the new ones")
    args = ap.parse_args(argv)
    args.command = "PYTHONPATH=. python3 benchmarks/nx_dispatch_sweep.py " + " ".join(argv if argv is not None
                                                                                        else sys.argv[1:])
    args.families = args.families.split(",")
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.weights = args.weights.split(",")
    for w in args.weights:
        if w not in ("int", "decimal"):
            ap.error(f"--weights: unknown {w!r}")
    nx.config.cache_converted_graphs = False
    info = {**machine(), "networkx": nx.__version__}
    print(f"# {info['cpu']} ({info['simd'] or 'no SIMD flags read'}), {info['cores']} cores, networkx {nx.__version__}")
    results = sweep(args)
    before = None
    if args.before is not None:
        before = {_key(r): r for r in json.loads(args.before.read_text())["results"]}
    md, payload = report(results, before, info, args)
    print(md.split("## Every case")[0])
    if args.only:
        return
    families = list(args.families)  # (split at the start)
    stem = "nx-dispatch-sweep-cpu" if set(families) == set(FAMILIES) else f"nx-dispatch-sweep-{'-'.join(families)}-cpu"
    print(write_results(stem, payload, md))  # a run of some families: its own file


if __name__ == "__main__":
    main()
