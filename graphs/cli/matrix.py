"""``semiring-paths matrix``: distances from many sources to many targets (:func:`graphs.distance_matrix`).

The sources are ``--sources K``, K distinct vertices sampled with ``--seed``
(default: 100, or every vertex of a smaller graph), or ``--sources FILE``, a
text file of vertex ids, one per line (blank lines and ``#`` comments skipped;
ids 0-based, or 1-based with ``--one-based``).  ``--targets`` reads the same
way; by default every vertex is a target.  Each source's search stops once its
targets are settled, or at ``--limit`` (farther targets count as unreachable).

It prints the shape and dtype of the matrix, the seconds, the share of the
(source, target) pairs connected, and the least, median and largest finite
distance; ``--print`` adds the matrix itself (up to :data:`PRINT_ENTRIES`
entries), ``--out D.npy`` saves it (row ``i``: ``sources[i]``, column ``j``:
``targets[j]``; written under a temporary name and renamed when complete, so an
interrupted run leaves no file).  A matrix that cannot fit (the memory this
process may use, or ``--memory-limit``) is refused before the work starts, with
the sizes and the alternatives (exit status 2).

Examples
--------
>>> from graphs.cli import main
>>> main(["matrix", "--n", "300", "--sources", "4", "--targets", "30", "--device", "cpu", "--json"])
... # doctest: +ELLIPSIS
{"command": "matrix", "graph": "road_network(n=300, seed=0)", ..., "shape": [4, 30], "dtype": "float64", ...}
0
"""

from __future__ import annotations

import argparse
import math
import re

import numpy as np

from ._common import OK, SUMMARIES, add_subcommand, number, start, timed, to_host

__all__ = ["add_parser", "run", "read_vertices", "memory_size", "PRINT_ENTRIES", "DEFAULT_SOURCES"]

#: Sources sampled when ``--sources`` is not given (every vertex of a smaller graph).
DEFAULT_SOURCES = 100
#: Entries up to which ``--print`` shows the matrix.
PRINT_ENTRIES = 10_000
#: Entries up to which the median is exact (their finite values are copied); a larger matrix gives the median of
#: evenly spaced rows holding about as many entries.
MEDIAN_ENTRIES = 1 << 22
#: Bytes of one block of rows read back for the summary.
BLOCK_BYTES = 1 << 24
_INTEGER = re.compile(r"[+-]?\d+")
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?", re.IGNORECASE)


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``matrix`` and its options to the subcommands ``sub``."""
    p = add_subcommand(sub, "matrix", SUMMARIES["matrix"],
                       "Shortest-path distances from each source to each target (graphs.distance_matrix): a "
                       "summary, the matrix with --print, or the matrix saved with --out. A matrix that cannot "
                       "fit is refused before the work starts.")
    p.add_argument("--sources", metavar="FILE|K",
                   help=f"K: K distinct vertices sampled with --seed; FILE: one vertex id per line "
                        f"(default: {DEFAULT_SOURCES} sampled, or every vertex of a smaller graph)")
    p.add_argument("--targets", metavar="FILE|K", help="as --sources (default: every vertex)")
    p.add_argument("--limit", type=float, help="distances above this count as unreachable; the searches stop there")
    p.add_argument("--unweighted", action="store_true", help="count hops, ignoring the weights")
    p.add_argument("--out", metavar="D.npy", help="save the matrix to this .npy file (written whole or not at all)")
    p.add_argument("--print", action="store_true", dest="print_matrix",
                   help=f"print the matrix (up to {PRINT_ENTRIES:,} entries)")
    p.add_argument("--memory-limit", type=memory_size, metavar="BYTES",
                   help="memory the matrix may take (e.g. 2G, 500M; default: what this process may use)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    return p


def memory_size(text: str) -> int:
    """Bytes of a size written as ``123``, ``64K``, ``500M``, ``2G`` or ``1T`` (powers of 1024; ``B``/``iB`` allowed).

    Parameters
    ----------
    text : str
        The ``--memory-limit`` argument.

    Returns
    -------
    int

    Raises
    ------
    argparse.ArgumentTypeError
        Not a size (argparse reports it and exits with status 2).

    Examples
    --------
    >>> memory_size("2G"), memory_size("1.5k"), memory_size("4096")
    (2147483648, 1536, 4096)
    >>> memory_size("lots")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'lots' is not a size (bytes, or a number with K, M, G or T)
    """
    found = _SIZE.fullmatch(text.strip())
    if not found:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (bytes, or a number with K, M, G or T)")
    scale = 1024 ** " KMGT".index(found.group(2).upper() or " ")
    return int(float(found.group(1)) * scale)


def read_vertices(path: str, n: int, base: int = 0) -> np.ndarray:
    """The vertex ids of a text file, one per line, as 0-based int32 ids of a graph of ``n`` vertices.

    Parameters
    ----------
    path : str
        The text file: one id per line; blank lines and ``#`` comments are
        skipped.
    n : int
        Vertices of the graph.
    base : int
        1 when the file's ids count from 1 (``--one-based``), else 0.

    Returns
    -------
    int32 ndarray
        The ids in the file's order (repeats kept), 0-based.

    Raises
    ------
    graphs.errors.GraphFormatError
        A line that holds no integer, or an id outside the graph (naming the
        file and the line), or a file with no id at all.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "sources.txt"
    >>> _ = f.write_text("# depots\\n3\\n\\n0  # the first\\n")
    >>> read_vertices(str(f), 5)
    array([3, 0], dtype=int32)
    >>> _ = f.write_text("3\\nseven\\n")
    >>> read_vertices(str(f), 5)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphFormatError: ...sources.txt, line 2: 'seven' is not a vertex id (an integer)
    """
    from graphs.errors import GraphFormatError

    ids = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line_no, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if not _INTEGER.fullmatch(text):
                raise GraphFormatError(path, line_no, f"{text!r} is not a vertex id (an integer)")
            v = int(text)
            if not base <= v < n + base:
                raise GraphFormatError(path, line_no, f"{v} is not a vertex: {'1' if base else '0'}-based ids run "
                                                      f"from {base} to {n - 1 + base}")
            ids.append(v - base)
    if not ids:
        raise GraphFormatError(path, None, "holds no vertex id (one per line)")
    return np.array(ids, dtype=np.int32)


def _vertices(arg: str | None, option: str, n: int, base: int, rng: np.random.Generator, default: int | None):
    """``(ids, description)`` of ``--sources`` or ``--targets``: a sample of K vertices, a file's ids, or ``None``
    (every vertex) when not given and ``default`` is ``None``."""
    if arg is None:
        if default is None:
            return None, {"count": n, "from": "all"}
        k = min(default, n)
        return np.sort(rng.choice(n, size=k, replace=False)).astype(np.int32), {"count": k, "from": "sample"}
    if _INTEGER.fullmatch(arg.strip()):
        k = int(arg)
        if not 1 <= k <= n:
            raise ValueError(f"{option} {k}: sample between 1 and {n:,} vertices (the graph has {n:,}), "
                             f"or give a file of vertex ids")
        return np.sort(rng.choice(n, size=k, replace=False)).astype(np.int32), {"count": k, "from": "sample"}
    ids = read_vertices(arg, n, base)
    return ids, {"count": int(ids.shape[0]), "from": "file", "file": arg}


def _describe(d: dict, seed: int) -> str:
    if d["from"] == "all":
        return f"every vertex ({d['count']:,})"
    if d["from"] == "sample":
        return f"{d['count']:,} sampled (seed {seed})"
    return f"{d['count']:,} from {d['file']}"


def _summary(D, inf) -> dict:
    """Pairs connected, and the least, median and largest finite distance of ``D``, read in row blocks.

    The median is exact up to :data:`MEDIAN_ENTRIES` entries; beyond, it is
    the median of evenly spaced rows (``median_rows`` says how many).
    """
    k, t = D.shape
    rows = max(1, BLOCK_BYTES // max(1, t * D.dtype.itemsize))
    every = max(1, math.ceil(k * t / MEDIAN_ENTRIES))
    reached, lo, hi, kept, median_rows = 0, None, None, [], 0
    for r0 in range(0, k, rows):
        B = to_host(D[r0:r0 + rows])
        ok = B != inf
        reached += int(np.count_nonzero(ok))
        finite = B[ok]
        if finite.size:
            bmin, bmax = finite.min(), finite.max()
            lo = bmin if lo is None else min(lo, bmin)
            hi = bmax if hi is None else max(hi, bmax)
        pick = np.arange(-r0 % every, B.shape[0], every)
        median_rows += pick.shape[0]
        kept.append(B[pick][ok[pick]])
    values = np.concatenate(kept) if kept else np.empty(0)
    median = np.median(values) if values.size else None
    return {"reached_pairs": reached, "reached": reached / (k * t) if k * t else 0.0, "min": number(lo),
            "median": number(median), "max": number(hi), "median_rows": median_rows if every > 1 else None}


def _fmt(x) -> str:
    return "-" if x is None else f"{x:,.6g}"


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``matrix``; return the exit status."""
    import apsp
    import graphs
    from semiring.dtypes import posinf

    if args.limit is not None and not args.limit >= 0:
        raise ValueError(f"--limit must be a non-negative number, got {args.limit}")
    G, report, num = start(args, "matrix", out)
    rng = np.random.default_rng(args.seed)
    src, src_info = _vertices(args.sources, "--sources", G.n, num.base, rng, DEFAULT_SOURCES)
    tgt, tgt_info = _vertices(args.targets, "--targets", G.n, num.base, rng, None)
    k, t = src.shape[0], tgt_info["count"]
    if args.print_matrix and k * t > PRINT_ENTRIES:
        raise ValueError(f"--print shows up to {PRINT_ENTRIES:,} entries; this matrix has {k:,} x {t:,} "
                         f"(--out D.npy saves it)")
    try:
        D, seconds = timed(graphs.distance_matrix, G, src, tgt, weighted=not args.unweighted, limit=args.limit,
                           out=args.out, progress=args.progress, memory_limit=args.memory_limit)
    except apsp.PlanError as err:
        hints = ([] if args.out else ["--out D.npy (the matrix on disk, written row by row)"]) + \
            ["--targets K or FILE (fewer targets)"] + (["a larger --memory-limit"] if args.memory_limit else [])
        raise apsp.PlanError(f"{err}\n  on the command line: {'; '.join(hints)}", err.plans) from None
    dtype = np.dtype(D.dtype)
    stats = _summary(D, posinf(dtype))
    report.field("sources", src_info, _describe(src_info, args.seed))
    report.field("targets", tgt_info, _describe(tgt_info, args.seed))
    report.field("limit", args.limit, "none" if args.limit is None else f"{args.limit:g}")
    report.field("hops", bool(args.unweighted or G.weights is None),
                 "yes (arcs counted)" if args.unweighted or G.weights is None else "no (weights summed)")
    report.field("shape", [k, t], f"{k:,} x {t:,} {dtype.name}")
    report.data["dtype"] = dtype.name
    report.field("time_s", round(seconds, 6), f"{seconds:.4f} s", label="time")
    report.field("reached", stats["reached"], f"{stats['reached']:.2%} of {k * t:,} pairs "
                                              f"({stats['reached_pairs']:,} connected)")
    report.data["reached_pairs"] = stats["reached_pairs"]
    note = f" (median of {stats['median_rows']:,} evenly spaced rows)" if stats["median_rows"] else ""
    report.lines.append(f"{'distances':<10} min {_fmt(stats['min'])}, median {_fmt(stats['median'])}, "
                        f"max {_fmt(stats['max'])} (finite){note}")
    report.data.update(min=stats["min"], median=stats["median"], max=stats["max"], median_rows=stats["median_rows"])
    report.field("out", args.out, args.out or "not saved (--out D.npy saves the matrix)")
    if args.print_matrix:
        Dh = to_host(D)
        src_ids = [num.out(v) for v in src.tolist()]
        tgt_ids = [num.out(v) for v in (range(G.n) if tgt is None else tgt.tolist())]
        values = [[None if x == posinf(dtype) else number(x) for x in row] for row in Dh.tolist()]
        report.table("matrix", ["source", *map(str, tgt_ids)],
                     [[s, *(math.inf if x is None else x for x in row)] for s, row in zip(src_ids, values)],
                     json_rows=values)
        report.data.update(source_ids=src_ids, target_ids=tgt_ids)
    report.emit()
    return OK
