"""``semiring-paths apsp``: all-pairs shortest paths of a graph file or a generated road network.

It prints the size, the plan (route, method, device, dtype, memory and time
estimates: :func:`graphs.plan_all_pairs`), the time and rate, and checks
sampled rows of the result against ``scipy.sparse.csgraph`` (Dijkstra, or
Johnson when there are negative weights).  With ``--json`` the same facts are
one JSON object of numbers (seconds, bytes, counts).

Memory.  The plan is made against the memory this process may actually use
(:func:`apsp.memory.usable_memory`: available memory, ``ulimit -v`` /
``ulimit -d``, the control group's limit), with room left for the check
against SciPy: when the result fits only without it, fewer rows are checked,
or none, and the output says so.  When nothing fits, the planner's refusal is
printed before anything large is allocated (exit status 2).

Time.  The planner's estimates come from rates measured in this process
(:mod:`apsp.planner`); for ``--method auto`` the sparse route's searches are
also timed on a few sources of this graph, and for ``--method squaring`` the
longest shortest path is estimated (twice the largest breadth-first depth from
a few vertices), so that the estimate counts the squarings this graph needs.
Before the timed run the kernels are warmed up on a leading block of the
graph: loading or compiling them is not part of the time.

The exit status is 0 when the check passes (or is skipped, saying why), 1
when it fails, 2 for bad input or a job that does not fit, 3 when ``--device
gpu`` lacks CuPy (:data:`graphs.cli._common.EXIT_CODES`).

Examples
--------
>>> from graphs.cli import main
>>> main(["apsp", "--n", "300", "--seed", "1", "--device", "cpu", "--quiet"])
0
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
import time
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from apsp.methods import TABLE, single_buffer_methods

from ._common import (
    CHECK_FAILED,
    DEFAULT_N,
    OK,
    SUMMARIES,
    add_graph_arguments,
    check_interrupted,
    load_graph,
    number,
    resolve_device,
)

if TYPE_CHECKING:
    from apsp.planner import Plan, PlanError
    from graphs.graph import Graph

__all__ = ["add_parser", "run", "run_apsp", "check_bytes"]

WARMUP_FULL = 8192  # GPU jobs up to this size are warmed up on a full-size copy
WARMUP_CPU = 320  # CPU jobs are warmed up on a leading block of this many vertices
CHECK_ROWS = 8

#: The methods of apsp's table that close one matrix on one device (the multi-GPU one is apsp.shortest_paths'
#: devices= argument).
CLI_METHODS = single_buffer_methods()
METHOD_HELP = ("all-pairs method: auto (default) = the planner's route, printed before the run: rkleene where the\n"
               "  dense matrix fits and is fastest, one search per source for a sparse graph whose dense closure\n"
               "  would be slow or would not fit, (GPU) streamed blocked-fw when the matrix outgrows the device;\n"
               + "\n".join(f"{name} = {TABLE[name].summary}" for name in CLI_METHODS))


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add ``apsp`` and its options to the subcommands ``sub``."""
    ap = sub.add_parser("apsp", help=SUMMARIES["apsp"],
                        description="All-pairs shortest paths of a graph file or a generated road network; "
                                    "sampled rows are checked against scipy.sparse.csgraph. The plan (route, "
                                    "memory, time) is printed first; a job that does not fit the memory this "
                                    "process may use (ulimit -v, control group, available memory) is refused "
                                    "at once.",
                        formatter_class=argparse.RawTextHelpFormatter)
    add_graph_arguments(ap, vertices=False, n_default=DEFAULT_N)
    ap.add_argument("--method", default="auto", choices=("auto", *CLI_METHODS),
                    help=METHOD_HELP)
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"],
                    help="auto: the GPU when CuPy sees one, else the CPU")
    ap.add_argument("--dtype", default="auto", choices=["auto", "float32", "float64", "int32", "int64"],
                    help="auto: float32 on the GPU; on the CPU float32 where it is exact (integer weights\n"
                         "whose path sums fit in 2**24, or unweighted), else float64")
    ap.add_argument("--out", help="save the distance matrix to this .npy file (row i, column j: i -> j, 0-based);\n"
                                  "written under a temporary name beside it and renamed when complete: an\n"
                                  "interrupted or failed run leaves no file (a previous one unchanged)")
    ap.add_argument("--check-rows", type=int, default=CHECK_ROWS,
                    help="rows checked against SciPy (0: none; fewer when they would not fit beside the result)")
    ap.add_argument("--quiet", action="store_true", help="print nothing; only the exit status tells")
    return ap


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Run ``apsp``: lines as the work goes, or with ``--json`` one JSON object at the end."""
    return run_apsp(args, out)


def check_bytes(n: int, nnz: int, rows: int) -> int:
    """Host bytes the check against SciPy adds: SciPy's copies of the graph and a few float64 arrays per row.

    >>> check_bytes(1000, 5000, 8)
    584024
    """
    graph = (n + 1) * 8 + nnz * 16
    return 3 * graph + rows * n * 40 if rows else 0


def _check(G: Graph, D: np.ndarray, rows: np.ndarray) -> float:
    """Largest |difference| between ``D[rows]`` and SciPy's answer (inf-aware)."""
    from scipy.sparse.csgraph import dijkstra, johnson

    A = G.to_scipy()
    negative = G.weights is not None and bool((G.weights < 0).any())
    ref = (johnson if negative else dijkstra)(A, directed=G.directed, indices=rows)
    got = D[rows].astype(np.float64)
    same_inf = np.isinf(ref) == (got >= _infinity(D.dtype))
    if not same_inf.all():
        return float("inf")
    finite = ~np.isinf(ref)
    return float(np.abs(got[finite] - ref[finite]).max(initial=0.0))


def _infinity(dtype: np.dtype) -> float:
    return float(np.inf) if np.dtype(dtype).kind == "f" else float(np.iinfo(dtype).max)


class _Output:
    """Lines printed as the work goes (text), or facts gathered into one JSON object (``--json``)."""

    def __init__(self, args: argparse.Namespace, out: IO[str] | None) -> None:
        self.out = sys.stdout if out is None else out
        self.text = not (args.quiet or args.json)
        self.json = args.json and not args.quiet
        self.data: dict[str, Any] = {"command": "apsp", "status": None}

    def say(self, line: str) -> None:
        if self.text:
            print(line, file=self.out, flush=True)

    def emit(self, status: int) -> None:
        self.data["status"] = status
        if self.json:
            print(json.dumps(self.data, allow_nan=False), file=self.out, flush=True)


def _sparse_rate(G: Graph) -> float:
    """Arcs (plus vertices) per second of the sparse route on ``G``, all cores together.

    The route's own kernels, on sources spread over the graph, for at least
    :data:`apsp.planner.PROBE_SECONDS`: :func:`graphs.multi_source_sssp`
    (Dijkstra) on batches of sources for a weighted graph; for an unweighted
    one the direction-optimising BFS the route runs per source, on one core,
    times the cores the route runs on.
    """
    import graphs
    from apsp.planner import PROBE_SECONDS, cpu_cores

    n, cores = G.n, cpu_cores()
    order = np.random.default_rng(0).permutation(n)
    done = 0
    if G.weights is not None:
        batch = max(16, 4 * cores)
        graphs.multi_source_sssp(G, order[:1], method="dijkstra")  # loads the kernel
        start = time.perf_counter()
        while done < n and (done < batch or time.perf_counter() - start < PROBE_SECONDS):
            graphs.multi_source_sssp(G, order[done:done + batch], method="dijkstra")
            done += len(order[done:done + batch])
        return done * (n + G.nnz) / max(time.perf_counter() - start, 1e-9)
    from graphs.traversal import _bfs_kernels as BK

    T = G.transpose()
    level, parent = np.empty(n, np.int32), np.empty(n, np.int32)
    t_mode, t_nf, t_edges = np.empty(n, np.int8), np.empty(n, np.int64), np.empty(n, np.int64)
    row = np.empty(n, np.float32)

    def search(s: int) -> None:  # what graphs.all_pairs_shortest_paths does per source
        level.fill(-1)
        parent.fill(-1)
        BK.bfs_levels(G.indptr, G.indices, T.indptr, T.indices, int(s), BK.AUTO, 3.0, 18.0,
                      level, parent, t_mode, t_nf, t_edges)
        row[...] = level
        row[level < 0] = np.inf

    search(order[0])
    start = time.perf_counter()
    while done < n and (done < 4 or time.perf_counter() - start < PROBE_SECONDS):
        search(order[done])
        done += 1
    return cores * done * (n + G.nnz) / max(time.perf_counter() - start, 1e-9)


def _path_arcs(G: Graph) -> int:
    """An estimate of the arcs of the longest shortest path: twice the largest BFS depth from four vertices.

    A shortest path by weight takes at least as many arcs as the fewest, and
    on road networks up to about twice; enough for the count of squarings,
    which grows as its logarithm.
    """
    import graphs

    starts = np.unique(np.linspace(0, G.n - 1, num=min(G.n, 4)).astype(np.int64))
    depth = max(int(graphs.bfs(G, int(s))[0].max()) for s in starts)
    return 2 * max(depth, 1)


def _plan(
    G: Graph, args: argparse.Namespace, dtype: np.dtype | None, device: str, rows: int
) -> tuple[Plan, int, str | None]:
    """``(plan, rows, note)``: the plan of the run, with room for ``rows`` checked rows when that fits.

    The budget is the planner's (:func:`apsp.planner.memory_budget`); the
    check's memory (:func:`check_bytes`) is taken from it first.  When the
    run fits only without it, as many rows as fit beside the run are checked
    (``note`` says so), none when not even one does.  Raises
    :class:`apsp.PlanError` when the run does not fit at all.
    """
    import apsp
    import graphs
    from apsp.planner import memory_budget

    budget, _ = memory_budget()
    measured: dict[str, Any] = {"sparse_rate": _sparse_rate(G) if args.method == "auto" and G.n else None,
                "path_arcs": _path_arcs(G) if args.method == "squaring" and G.n else None}

    def plan(limit: int | None) -> Plan:
        return graphs.plan_all_pairs(G, dtype=dtype, device=device, method=args.method, on_disk=bool(args.out),
                                     memory_limit=None if limit is None else max(1, limit), **measured)

    need = check_bytes(G.n, G.nnz, rows)
    if rows:
        try:
            return plan(budget - need), rows, None
        except apsp.PlanError:
            pass
    try:
        pl = plan(None)  # the planner's own budget: its refusal names the limit that binds
    except apsp.PlanError as err:
        raise apsp.PlanError(f"{err}\n  on the command line: {_hints(err, args, device)}", err.plans) from None
    if not rows:
        return pl, 0, None
    room = budget - pl.est_host_bytes
    fit = rows
    while fit and check_bytes(G.n, G.nnz, fit) > room:
        fit -= 1
    why = (f"the check against SciPy needs {_mib(check_bytes(G.n, G.nnz, rows))} beside the run's "
           f"{_mib(pl.est_host_bytes)}, and {_mib(budget)} may be used")
    if fit:
        return pl, fit, f"{fit} of {rows} rows checked: {why}"
    return pl, 0, f"skipped: {why}"


def _hints(err: PlanError, args: argparse.Namespace, device: str) -> str:
    """The options of this command that could make a refused job fit."""
    from apsp.memory import memory_limits

    limits = memory_limits()
    hints = []
    if err.plans and all(np.dtype(p.dtype).itemsize > 4 for p in err.plans):
        hints.append("--dtype float32 (exact for integer weights whose path sums stay below 2**24)")
    if not args.out and "address_space" not in limits:  # a memory-mapped file needs address space
        hints.append("--out D.npy (the result on disk, written row by row)")
    if device == "cpu":
        hints.append("--device gpu")
    if limits and min(limits, key=limits.__getitem__) in ("address_space", "data"):
        hints.append("a higher limit (ulimit -v, ulimit -d)")
    return "; ".join(hints) if hints else "none: the result itself does not fit"


def _mib(b: float) -> str:
    return f"{b / 2**20:,.1f} MiB"


def run_apsp(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Run the APSP job described by ``args``, reporting to ``out`` (default: stdout); return the exit status.

    The route comes from the planner (:func:`graphs.plan_all_pairs`), printed
    before anything large is allocated: the dense closure, or one search per
    source for a sparse graph whose dense closure would be slow or would not
    fit; with ``--out`` the result is written straight into a ``.npy`` file (a
    memory map) beside that path, renamed onto it only once the run is done
    (:func:`_result_file`): interrupted (exit status 130) or failed, it
    leaves no file there, and a previous one unchanged.  When nothing fits,
    the planner's refusal (the estimate and the alternatives) is raised as
    :class:`apsp.PlanError`.
    """
    if args.check_rows < 0:
        raise ValueError(f"--check-rows must be >= 0, got {args.check_rows}")
    if args.out:
        _check_writable(args.out)
    report = _Output(args, out)
    say, data = report.say, report.data
    device = resolve_device(args.device)
    if args.check_rows:
        import scipy.sparse.csgraph  # noqa: F401  (its libraries are mapped now, so the memory probe counts them)
    t0 = time.perf_counter()
    G, name = load_graph(args)
    t_load = time.perf_counter() - t0
    n = G.n
    say(f"graph     {name}: {n:,} vertices, {G.nnz:,} edges ({'directed' if G.directed else 'undirected'}, "
        f"{'weighted' if G.weights is not None else 'unweighted: weight 1'}), read in {t_load:.2f} s")
    data.update(graph=name, vertices=n, edges=G.nnz, directed=bool(G.directed), weighted=G.weights is not None,
                read_s=t_load)
    dtype = None if args.dtype == "auto" else np.dtype(args.dtype)
    if dtype is None and device == "gpu":
        dtype = np.dtype("float32")
    pl, rows, check_note = _plan(G, args, dtype, device, min(args.check_rows, n))
    say(str(pl))
    data["plan"] = {"route": pl.route, "method": pl.method, "device": pl.device, "dtype": np.dtype(pl.dtype).name,
                    "result_bytes": pl.result_bytes, "peak_host_bytes": pl.est_host_bytes,
                    "peak_device_bytes": pl.est_device_bytes, "estimated_s": pl.est_seconds, "reason": pl.reason}
    dtype = np.dtype(pl.dtype)
    with _result_file(args.out, dtype, (n, n)) as result:
        status = _run(args, G, pl, device, dtype, rows, check_note, result, report)
        check_interrupted()  # before the file is saved: a Ctrl-C Python dropped inside a destructor counts too
    if args.out:
        say(f"saved     {args.out}")
    report.emit(status)
    return status


def _result_file(
    path: str | None, dtype: np.dtype, shape: tuple[int, int]
) -> contextlib.AbstractContextManager[np.memmap | None]:
    """The ``--out`` file as a memory map, written atomically (:func:`graphs.atomic_file.atomic_memmap`).

    The result goes to a temporary ``.npy`` beside ``path`` and is renamed onto
    it only when the run finished: an interrupted or failed run leaves no
    ``path`` (a previous one unchanged), never a valid-looking, partly closed
    matrix.  Without ``--out``, nothing (``None``).
    """
    if not path:
        return contextlib.nullcontext(None)
    from graphs.atomic_file import atomic_memmap

    return atomic_memmap(path, dtype, shape)


def _run(args: argparse.Namespace, G: Graph, pl: Plan, device: str, dtype: np.dtype, rows: int, check_note: str | None,
         result: np.memmap | None, report: _Output) -> int:
    """The timed run, the count of connected pairs and the check; the exit status (``result``: --out's map)."""
    import apsp
    import graphs
    from semiring.backend import to_device

    say, data = report.say, report.data
    n = G.n
    t_h2d = t_d2h = None
    if pl.route == "dense" and device == "gpu":
        import cupy

        import semiring as sr

        W = G.to_dense(sr.min_plus, dtype=dtype)
        t1 = time.perf_counter()
        Wd = to_device(W, "gpu")
        del W
        cupy.cuda.runtime.deviceSynchronize()
        t_h2d = time.perf_counter() - t1
        # Warm-up: compiles the kernels and captures the CUDA graphs of this size's sub-closures
        # (the whole job when it is small, a leading block otherwise); not part of the timing.
        w = n if n <= WARMUP_FULL else WARMUP_FULL // 2
        apsp.shortest_paths(Wd[:w, :w].copy(), method=args.method, device="gpu")
        cupy.cuda.runtime.deviceSynchronize()
        t1 = time.perf_counter()
        Dd = apsp.shortest_paths(Wd, method=args.method, device="gpu")
        cupy.cuda.runtime.deviceSynchronize()
        t_run = time.perf_counter() - t1
        t1 = time.perf_counter()
        if result is not None:
            Dd.get(out=result)  # type: ignore[union-attr]  # device="gpu": a CuPy array, which has get()
            D: np.ndarray = result
        else:
            D = to_device(Dd, "cpu")
        t_d2h = time.perf_counter() - t1
        transfers = f" (+ {t_h2d:.3f} s to the device, {t_d2h:.3f} s back)"
    else:
        if pl.route == "dense" and n > WARMUP_CPU:  # loads the compiled kernels: not part of the timing
            apsp.shortest_paths(graphs.as_graph(G.to_scipy()[:WARMUP_CPU, :WARMUP_CPU]), method=args.method,
                                dtype=dtype)
        t1 = time.perf_counter()
        D = graphs.all_pairs_shortest_paths(G, out=result, plan=pl, method=args.method,
                                            progress=None if not args.quiet else False)
        t_run = time.perf_counter() - t1
        transfers = ""
    say(f"method    {pl.method} on {pl.device} ({pl.route} route)")
    say(f"time      {t_run:.3f} s{transfers} (planned ~{_seconds(pl.est_seconds)})")
    data.update(method=pl.method, device=pl.device, route=pl.route, dtype=dtype.name, time_s=t_run,
                to_device_s=t_h2d, to_host_s=t_d2h)
    if pl.route == "sparse":
        rate = n * (n + G.nnz) / max(t_run, 1e-12)
        say(f"rate      {rate / 1e9:,.2f} G arcs/s (n (n + m) / time)")
        data["arcs_per_s"] = rate
    else:
        rate = float(n) ** 3 / max(t_run, 1e-12)
        say(f"rate      {rate / 1e9:,.1f} G min-plus/s (n^3 / time)")
        data["min_plus_per_s"] = rate
    reachable = _count_reachable(D)
    say(f"result    {reachable:,} of {n * n:,} pairs connected")
    data.update(connected_pairs=reachable, pairs=n * n)
    status = OK
    check: dict[str, Any] = {"requested_rows": min(args.check_rows, n), "rows": rows, "note": check_note}
    if rows and n:
        picked = np.sort(np.random.default_rng(args.seed).choice(n, size=rows, replace=False))
        diff = _check(G, D, picked)
        exact = dtype.kind != "f" or dtype.itemsize == 8 or G.__semiring_matrix_info__()["float32_exact"]
        sample = D[picked].astype(np.float64)
        tol = 1e-9 if exact else 1e-3 * max(1.0, float(np.abs(sample[np.isfinite(sample)]).max(initial=1.0)))
        ok = diff <= tol
        status = OK if ok else CHECK_FAILED
        say(f"check     {rows} sampled rows vs scipy.sparse.csgraph: "
            f"{'match' if ok else 'MISMATCH'} (max |diff| = {diff:g})" + (f"; {check_note}" if check_note else ""))
        check.update(max_abs_diff=number(diff), tolerance=tol, match=bool(ok))
    elif check_note:
        say(f"check     {check_note}")
    data["check"] = check
    data["out"] = args.out
    return status


def _check_writable(path: str) -> None:
    """Fail before the work, not after it: ``path``'s folder must exist and be writable."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", folder)
    if not os.access(folder, os.W_OK):
        raise PermissionError(errno.EACCES, "Permission denied", folder)


def _seconds(s: float) -> str:
    if s < 1:
        return f"{s * 1000:.0f} ms"
    return f"{s:.1f} s" if s < 120 else f"{s / 60:.1f} min"


def _count_reachable(D: np.ndarray) -> int:
    """Entries below the dtype's infinity, counted in row blocks (no ``n x n`` temporary)."""
    inf = _infinity(D.dtype)
    step = max(1, (4 * 2**20) // max(1, D.shape[1]))  # a boolean block of at most 4 MiB
    return int(sum(np.count_nonzero(D[r:r + step] < inf) for r in range(0, D.shape[0], step)))
