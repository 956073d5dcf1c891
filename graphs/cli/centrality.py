"""``semiring-paths centrality``: betweenness, closeness, harmonic centrality or eccentricity of every vertex.

A summary (the top vertices, and for eccentricity the diameter, radius and
center), or every vertex's value with ``--all``.  Betweenness can be estimated
from ``--sample K`` random sources (``--sample-seed``).  Long runs show a
progress bar on a terminal.

Examples
--------
>>> from graphs.cli import main
>>> main(["centrality", "--n", "200", "--measure", "betweenness", "--device", "cpu", "--json"])  # doctest: +ELLIPSIS
{"command": "centrality", "graph": "road_network(n=200, seed=0)", ..., "measure": "betweenness", ..., "top": [...]}
0
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ._common import OK, SHOWN, SUMMARIES, add_subcommand, number, start, to_host

__all__ = ["add_parser", "run"]

MEASURES = ("betweenness", "closeness", "harmonic", "eccentricity")


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``centrality`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "centrality", SUMMARIES["centrality"],
                       "Centrality of every vertex: betweenness (Brandes, exact or from a sample of "
                       "sources), closeness, harmonic centrality, or eccentricity (with the diameter, "
                       "radius and center). NetworkX's conventions; weights are lengths.")
    p.add_argument("--measure", default="betweenness", choices=MEASURES, help="what to compute (default betweenness)")
    p.add_argument("--sample", type=int, metavar="K",
                   help="betweenness from K random sources (rescaled as NetworkX's k=); default: all sources")
    p.add_argument("--sample-seed", type=int, default=None, help="seed of the sample of sources")
    p.add_argument("--unweighted", action="store_true", help="count hops, ignoring the weights")
    p.add_argument("--raw", action="store_true", help="betweenness not normalized")
    p.add_argument("--all", action="store_true", help="list every vertex's value")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``centrality``; return the exit status."""
    import graphs

    G, report, num = start(args, "centrality", out)
    weighted = not args.unweighted
    progress = False if args.no_progress else None
    if args.sample is not None and args.measure != "betweenness":
        raise graphs.GraphError("--sample applies to --measure betweenness only")
    t0 = time.perf_counter()
    extra = {}
    if args.measure == "betweenness":
        values = graphs.betweenness_centrality(G, sources=args.sample, seed=args.sample_seed, weighted=weighted,
                                               normalized=not args.raw, progress=progress)
    elif args.measure == "closeness":
        values = graphs.closeness_centrality(G, weighted=weighted, progress=progress)
    elif args.measure == "harmonic":
        values = graphs.harmonic_centrality(G, weighted=weighted, progress=progress)
    else:
        values = graphs.eccentricity(G, weighted=weighted, progress=progress)
    seconds = time.perf_counter() - t0
    values = to_host(values)
    report.field("measure", args.measure)
    report.field("weighted", bool(weighted and G.weights is not None))
    if args.sample is not None:
        report.field("sample", int(args.sample), f"{args.sample:,} sources (seed {args.sample_seed})")
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    if args.measure == "eccentricity" and values.size:
        lo, hi = values.min(), values.max()
        extra = {"diameter": number(hi), "radius": number(lo),
                 "center": [num.out(v) for v in np.flatnonzero(values == lo).tolist()]}
        report.field("diameter", extra["diameter"])
        report.field("radius", extra["radius"])
        report.field("center", extra["center"], " ".join(map(str, extra["center"][:SHOWN]))
                     + (" ..." if len(extra["center"]) > SHOWN else ""))
    order = np.argsort(-values, kind="stable")[:SHOWN]
    report.table("top", ["vertex", args.measure], [[num.out(int(v)), number(values[v])] for v in order],
                 json_rows=[{"vertex": num.out(int(v)), "value": number(values[v])} for v in order])
    if args.all:
        report.data["values"] = [number(x) for x in values.tolist()]
        report.lines.append("every vertex: " + " ".join(f"{x:.6g}" for x in values.tolist()))
    report.emit()
    return OK
