"""Integers and paths on the GPU, side by side with float32 and the ceilings of the same run.

1. Ceilings (one ``min(x + y, z)`` per chain step, registers only, all SMs): fp32,
   int32 wrapping (VIADDMNMX), packed 16-bit lanes (DPX ``__viaddmin_u16x2`` and
   ``_s16x2``: two pairs per instruction).
2. GEMM n = 8192: int32 min-plus on plain sums (operands 0..999) against the int32 ceiling;
   signed float32 (uniform -1..1; every sum positive; half of the rows' minima positive; rows
   of A at offsets -3..3 by normal B), each beside the general kernel and beside the signed
   path on A's own row order (``config.row_order = "off"``), and non-negative float32 against
   the fp32 ceiling;
   packed 16-bit lanes (0..999) against the fp32 ceiling.
3. APSP n = 8192 (complete graph, weights 1..100; 1% of the arcs, missing ones +inf; 20% of
   the arcs with weights 1..10^6, where only the check after the closure shows the stand-in
   exact; 20% of the arcs with weights -10..10^6, made non-negative by Johnson potentials,
   :mod:`apsp.paths.potentials`): int32 against float32 (``int32 / float32`` time), results compared.
   The signed family runs with ``apsp.shortest_paths``'s distances routed through
   :func:`apsp.paths.exact_integers.exact_closure` where the api does not call it yet (then also
   timed as the api is: int64, saturating sums).
4. APSP n = 8192 with predecessors against distances only: float32, float64, int32
   (routes read off the distances on the device), sampled routes checked.
5. Hop counts: unweighted APSP (random digraph, average out-degree 8) n = 16384 on packed
   lanes against float32 on the same graph; rate ``n^3 / t`` as a fraction of the fp32
   ceiling; rows of SciPy's BFS compared, and the whole matrix against float32.

Times are CUDA-event medians after a warm-up.  Writes ``integers-gpu-<device>.json`` /
``.md`` into ``--out`` (default ``benchmarks/results/``) and ``$OUT`` when set.

Run: ``PYTHONPATH=. python3 benchmarks/integers_gpu.py`` (``--quick``: small sizes).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

import cupy as cp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the package apsp, not benchmarks/apsp.py
from _common import QUICK_RESULTS, gpu_time, machine  # noqa: E402
from integers_cpu import api_uses_exact_closure, through_exact_closure  # noqa: E402

import apsp  # noqa: E402
import semiring as sr  # noqa: E402
from apsp.cuda import packed_closure  # noqa: E402
from semiring.cuda import config, matmul_into  # noqa: E402
from semiring.cuda.ceiling import measure_ceiling  # noqa: E402
from semiring.cuda.packed import duplicated, packed_matmul_into  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
I32_MAX = np.iinfo(np.int32).max


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def device_name() -> str:
    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    return name.decode() if isinstance(name, bytes) else name


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def gemm_rows(ceil: dict, n: int, repeats: int) -> list:
    rng = np.random.default_rng(0)
    rows = []

    def add(label, t, ceiling_key):
        rate = n**3 / t
        rows.append({"part": "gemm", "case": label, "n": n, "seconds": t, "tops": rate / 1e12,
                     "ceiling": ceiling_key, "fraction_of_ceiling": rate / ceil[ceiling_key]})
        log(f"  {label}: {t * 1e3:.2f} ms = {rate / 1e12:.2f} T/s = {rate / ceil[ceiling_key]:.1%} of {ceiling_key}")

    A = cp.asarray(rng.integers(0, 1000, (n, n)).astype(np.int32))
    C = cp.empty_like(A)
    add("int32 min-plus, plain sums (0..999)", gpu_time(lambda: matmul_into(sr.min_plus, A, A, C), repeats),
        "int32_wrap")
    F = cp.asarray(rng.uniform(-1, 1, (n, n)).astype(np.float32))
    Cf, Cg = cp.empty_like(F), cp.empty_like(F)
    # Signed operands: the minima turn negative at once (-1..1 both), never (every sum >= 1),
    # or only in half of the rows (A's even rows 3 above the rest), each against the general
    # kernel (config.signed = "off") on the same operands, results compared.
    signed_cases = [("signed (-1..1)", F, F), ("signed, every sum >= 1 (-1..1 x 2..3)", F, cp.abs(F) + 2)]
    half = F.copy()
    half[::2] += 3
    signed_cases.append(("signed, half of the rows' minima positive", half, F))
    # rows of A at offsets of both signs with small noise, B normal: A = 0.1 N(0, 1) + u, u uniform in -3..3 per row
    offset = cp.asarray((0.1 * rng.standard_normal((n, n)) + rng.uniform(-3, 3, (n, 1))).astype(np.float32))
    normal = cp.asarray(rng.standard_normal((n, n)).astype(np.float32))
    signed_cases.append(("signed, rows at offsets -3..3 (0.1 N(0,1) + u) x N(0,1)", offset, normal))
    for label, X, Y in signed_cases:
        add(f"float32 min-plus, {label}", gpu_time(lambda X=X, Y=Y: matmul_into(sr.min_plus, X, Y, Cf), repeats),
            "float32")
        config.signed = "off"
        add(f"float32 min-plus, {label}, general kernel",
            gpu_time(lambda X=X, Y=Y: matmul_into(sr.min_plus, X, Y, Cg), repeats), "float32")
        config.signed = "auto"
        if not bool(cp.all(Cf == Cg)):
            raise AssertionError(f"{label}: the signed path differs from the general kernel")
        saved, config.row_order = config.row_order, "off"  # A's rows in their own order, as before the sort
        try:
            add(f"float32 min-plus, {label}, rows in A's order",
                gpu_time(lambda X=X, Y=Y: matmul_into(sr.min_plus, X, Y, Cf), repeats), "float32")
        finally:
            config.row_order = saved
        if not bool(cp.all(Cf == Cg)):
            raise AssertionError(f"{label}: the product on A's own row order differs from the general kernel")
    del half, offset, normal, signed_cases
    G = cp.abs(F)
    add("float32 min-plus, non-negative", gpu_time(lambda: matmul_into(sr.min_plus, G, G, Cf), repeats), "float32")
    L = cp.asarray(rng.integers(0, 1000, (n, n)).astype(np.uint16))
    L2, Lp = duplicated(L), L.view(cp.uint32)
    Cp = cp.empty_like(Lp)
    add("packed 16-bit lanes (0..999)", gpu_time(lambda: packed_matmul_into(L2, Lp, Cp, None, False), repeats),
        "float32")
    return rows


def complete_graph(n: int, seed: int, density: float = 1.0, top: int = 100) -> np.ndarray:
    rng = np.random.default_rng(seed)
    W = rng.integers(1, top + 1, (n, n)).astype(np.float32)
    if density < 1:
        W[rng.random((n, n)) >= density] = np.inf
    np.fill_diagonal(W, 0)
    return W


def as_int32(W: np.ndarray) -> np.ndarray:
    out = np.where(np.isinf(W), 0, W).astype(np.int32)
    out[np.isinf(W)] = I32_MAX
    return out


def apsp_int_rows(n: int, repeats: int) -> list:
    rows = []
    for label, density, top in (("complete, weights 1..100", 1.0, 100), ("1% of the arcs, weights 1..100", 0.01, 100),
                                ("20% of the arcs, weights 1..10^6 (checked stand-in)", 0.2, 10**6)):
        W = complete_graph(n, 1, density, top)
        Wf, Wi = cp.asarray(W), cp.asarray(as_int32(W))
        tf = gpu_time(lambda X=Wf: apsp.shortest_paths(X), repeats)
        ti = gpu_time(lambda X=Wi: apsp.shortest_paths(X), repeats)
        Df, Di = cp.asnumpy(apsp.shortest_paths(Wf)), cp.asnumpy(apsp.shortest_paths(Wi))
        same = bool(np.array_equal(as_int32(Df), Di)) and float(np.nanmax(np.where(np.isinf(Df), 0, Df))) < 2**24
        rows.append({"part": "apsp-int32", "case": label, "n": n, "float32_s": tf, "int32_s": ti,
                     "ratio": ti / tf, "equal": same})
        log(f"  APSP {label}: float32 {tf * 1e3:.1f} ms, int32 {ti * 1e3:.1f} ms = {ti / tf:.2f}x, equal={same}")
    rows.append(signed_row(n, repeats))
    return rows


def signed_row(n: int, repeats: int) -> dict:
    """20% of the arcs, weights -10..10^6 (a few negative arcs, no negative cycle): Johnson potentials."""
    from apsp.paths.exact_integers import integer_route, sums_may_leave_int32, widen

    rng = np.random.default_rng(4)
    w = rng.integers(-10, 10**6 + 1, (n, n)).astype(np.float32)
    W = np.where(rng.random((n, n)) < 0.2, w, np.inf).astype(np.float32)
    Wi_h = as_int32(W)
    Wf, Wi = cp.asarray(W), cp.asarray(Wi_h)
    patched = not api_uses_exact_closure()
    label = "20% of the arcs, weights -10..10^6 (Johnson potentials)" + (
        ", distances through exact_closure" if patched else "")
    as_is = None
    if patched:
        as_is = gpu_time(lambda: apsp.shortest_paths(Wi), repeats)
    with through_exact_closure():
        tf = gpu_time(lambda: apsp.shortest_paths(Wf), repeats)
        ti = gpu_time(lambda: apsp.shortest_paths(Wi), repeats)
        Df, Di = cp.asnumpy(apsp.shortest_paths(Wf)), cp.asnumpy(apsp.shortest_paths(Wi))
        X = widen(Wi) if sums_may_leave_int32(Wi, sr.min_plus) else Wi
        route = integer_route(X, sr.min_plus, X).name
    finite = np.isfinite(Df)
    same = bool(np.array_equal(as_int32(Df), Di)) and float(np.abs(Df[finite]).max()) < 2**24
    row = {"part": "apsp-int32", "case": label, "n": n, "float32_s": tf, "int32_s": ti, "ratio": ti / tf,
           "equal": same, "route": route, "negative_arcs": int((Wi_h < 0).sum())}
    msg = f"  APSP {label}: float32 {tf * 1e3:.1f} ms, int32 {ti * 1e3:.1f} ms = {ti / tf:.2f}x, route {route}, " \
          f"equal={same}"
    if as_is is not None:
        row["int32_s_api_as_is"] = as_is
        msg += f"; the api as it is: int32 {as_is * 1e3:.1f} ms = {as_is / tf:.2f}x"
    log(msg)
    return row


def check_sampled_routes(W: np.ndarray, D: np.ndarray, P: np.ndarray, rows: int = 64) -> bool:
    """Routes of a sample of rows are walks along arcs that weigh the distance (exact: integer weights)."""
    rng = np.random.default_rng(7)
    n = W.shape[0]
    for i in rng.choice(n, size=min(rows, n), replace=False):
        for j in rng.choice(n, size=64, replace=False):
            if i == j or not np.isfinite(float(D[i, j])) or D[i, j] == I32_MAX:
                continue
            p = apsp.path(P, int(i), int(j))
            if p[0] != i or p[-1] != j or len(set(p)) != len(p):
                return False
            if sum(float(W[a, b]) for a, b in zip(p, p[1:])) != float(D[i, j]):
                return False
    return True


def predecessor_rows(n: int, repeats: int) -> list:
    rows = []
    W = complete_graph(n, 2)
    for name, X in (("float32", W), ("float64", W.astype(np.float64)), ("int32", as_int32(W))):
        dX = cp.asarray(X)
        apsp.shortest_paths(dX[:512, :512], predecessors=True)  # compile
        td = gpu_time(lambda X=dX: apsp.shortest_paths(X), repeats)
        tp = gpu_time(lambda X=dX: apsp.shortest_paths(X, predecessors=True), repeats)
        D, P = apsp.shortest_paths(dX, predecessors=True)
        ok = check_sampled_routes(X, cp.asnumpy(D), cp.asnumpy(P))
        rows.append({"part": "predecessors", "case": f"complete, weights 1..100, {name}", "n": n,
                     "distances_s": td, "predecessors_s": tp, "ratio": tp / td, "routes_ok": ok})
        log(f"  APSP {name} n={n}: distances {td * 1e3:.1f} ms, with predecessors {tp * 1e3:.1f} ms = "
            f"{tp / td:.2f}x, routes ok={ok}")
        dX = D = P = None
        cp.get_default_memory_pool().free_all_blocks()
    return rows


def hop_rows(ceil: dict, n: int, repeats: int) -> list:
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    rng = np.random.default_rng(3)
    deg = 8
    src = np.repeat(np.arange(n), deg)
    dst = rng.integers(0, n, n * deg)
    W = np.full((n, n), np.inf, np.float32)
    W[src, dst] = 1.0
    np.fill_diagonal(W, 0)
    dW = cp.asarray(W)
    assert packed_closure.packed_applies(sr.min_plus, dW.copy()), "the packed route does not apply"
    tp = gpu_time(lambda: apsp.shortest_paths(dW), repeats)
    Dp = apsp.shortest_paths(dW)
    saved = packed_closure.config.mode
    packed_closure.config.mode = "off"
    try:
        tf = gpu_time(lambda: apsp.shortest_paths(dW), repeats)
        Df = apsp.shortest_paths(dW)
    finally:
        packed_closure.config.mode = saved
    same_f32 = bool(cp.array_equal(Dp, Df))
    A = csr_matrix((np.ones(n * deg), (src, dst)), shape=(n, n))
    sample = rng.choice(n, 256, replace=False)
    ref = shortest_path(A, unweighted=True, indices=sample)
    same_scipy = bool(np.array_equal(cp.asnumpy(Dp[sample]).astype(np.float64), ref))
    rate = n**3 / tp
    finite = cp.isfinite(Dp)
    diameter = int(Dp[finite].max())
    row = {"part": "hop-counts", "case": f"random digraph, out-degree {deg}, unweighted", "n": n,
           "packed_s": tp, "float32_s": tf, "rate_tops": rate / 1e12, "fraction_of_fp32_ceiling": rate / ceil["float32"],
           "fraction_of_u16x2_ceiling": rate / ceil["u16x2"], "speedup_vs_float32": tf / tp, "equal_float32": same_f32,
           "equal_scipy_256_rows": same_scipy, "diameter": diameter}
    log(f"  hop counts n={n}: packed {tp * 1e3:.1f} ms ({rate / 1e12:.2f} T/s = {rate / ceil['float32']:.2f}x the fp32 "
        f"ceiling), float32 {tf * 1e3:.1f} ms; equal float32={same_f32} scipy={same_scipy}")
    return [row]


#: The tables of the report: part, header cells, and the cells of one row.
TABLES = (
    ("gemm", ["GEMM", "n", "ms", "T/s", "of ceiling"],
     lambda r: [r["case"], r["n"], f"{r['seconds'] * 1e3:.2f}", f"{r['tops']:.2f}",
                f"{r['fraction_of_ceiling']:.1%} of {r['ceiling']}"]),
    ("apsp-int32", ["APSP int32 vs float32", "n", "float32 ms", "int32 ms", "int32 / float32", "equal"],
     lambda r: [r["case"], r["n"], f"{r['float32_s'] * 1e3:.1f}", f"{r['int32_s'] * 1e3:.1f}", f"{r['ratio']:.2f}x",
                r["equal"]]),
    ("predecessors", ["APSP with predecessors", "n", "distances ms", "with predecessors ms", "ratio",
                      "sampled routes valid"],
     lambda r: [r["case"], r["n"], f"{r['distances_s'] * 1e3:.1f}", f"{r['predecessors_s'] * 1e3:.1f}",
                f"{r['ratio']:.2f}x", r["routes_ok"]]),
    ("hop-counts", ["hop-count APSP", "n", "packed ms", "float32 ms", "n^3/t", "of fp32 ceiling", "of u16x2 ceiling",
                    "exact (float32; SciPy BFS, 256 rows)"],
     lambda r: [f"{r['case']} (diameter {r['diameter']})", r["n"], f"{r['packed_s'] * 1e3:.1f}",
                f"{r['float32_s'] * 1e3:.1f}", f"{r['rate_tops']:.2f} T/s", f"{r['fraction_of_fp32_ceiling']:.2f}x",
                f"{r['fraction_of_u16x2_ceiling']:.1%}", f"{r['equal_float32']}; {r['equal_scipy_256_rows']}"]),
)


def markdown(res: dict) -> str:
    c = res["ceilings"]
    lines = [f"# Integers and paths on the GPU ({res['device']})", "",
             "Ceilings in the same run (pairs per second): " + ", ".join(f"{k} {v / 1e12:.2f} T/s" for k, v in c.items()),
             ""]
    for part, header, cells in TABLES:
        rows = [r for r in res["rows"] if r["part"] == part]
        if rows:
            lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
            lines += ["| " + " | ".join(str(x) for x in cells(r)) + " |" for r in rows]
            lines.append("")
    lines += [f"Command: `{res['command']}`", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    ap.add_argument("--n", type=int, default=8192, help="GEMM and APSP size")
    ap.add_argument("--hop-n", type=int, default=16384, help="hop-count APSP size")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip", nargs="*", default=[], choices=["gemm", "apsp-int32", "predecessors", "hop-counts"])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.hop_n, args.repeats = 1024, 2048, 2
    if args.out is None:
        args.out = QUICK_RESULTS if args.quick else RESULTS
    name = device_name()
    log(f"device: {name}")
    ceil = {k: measure_ceiling(k) for k in ("float32", "int32_wrap", "u16x2", "s16x2")}
    for k, v in ceil.items():
        log(f"  ceiling {k:10s} {v / 1e12:7.2f} T pairs/s")
    rows = []
    if "gemm" not in args.skip:
        rows += gemm_rows(ceil, args.n, args.repeats)
    if "apsp-int32" not in args.skip:
        rows += apsp_int_rows(args.n, args.repeats)
    if "predecessors" not in args.skip:
        rows += predecessor_rows(args.n, args.repeats)
    if "hop-counts" not in args.skip:
        rows += hop_rows(ceil, args.hop_n, args.repeats)
    res = {"device": name, "ceilings": ceil, "rows": rows, "cupy": cp.__version__, "machine": {**machine(), "gpu": name},
           "command": "PYTHONPATH=. python3 benchmarks/integers_gpu.py "
                      + " ".join(argv if argv is not None else sys.argv[1:])}
    md = markdown(res)
    stem = f"integers-gpu-{slug(name)}"
    folders = [args.out] + ([Path(os.environ["OUT"])] if os.environ.get("OUT") else [])
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{stem}.json").write_text(json.dumps(res, indent=2, default=float))
        (folder / f"{stem}.md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
