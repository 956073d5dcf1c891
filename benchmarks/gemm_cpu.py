"""CPU semiring GEMM, side by side: semiring-paths vs tropical-gemm, python-graphblas and NumPy.

Usage::

    python benchmarks/gemm_cpu.py            # n = 2048 (min-plus) and 4096 (Boolean)
    python benchmarks/gemm_cpu.py --quick    # smaller sizes, for a smoke test

Prints a table and writes ``benchmarks/results/gemm-cpu.json`` / ``.md``
(``--quick``: ``benchmarks/results/quick/``).
Rates are semiring multiply-adds per second (``m * k * n / time``), medians
of repeats after a warm-up, all measured in this one run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, markdown_table, median_time, set_quick, write_results  # noqa: E402

import semiring as sr  # noqa: E402
from semiring.generic import generic_matmul  # noqa: E402


def _rate(n3: float, t: float) -> float:
    return n3 / t / 1e9


def bench_minplus(n: int, repeats: int) -> list[dict]:
    rng = np.random.default_rng(0)
    rows: list[dict] = []
    A32 = rng.random((n, n), dtype=np.float32)
    B32 = rng.random((n, n), dtype=np.float32)
    n3 = float(n) ** 3
    ref = sr.min_plus.matmul(A32, B32)

    def add(impl: str, dtype: str, t: float, check=None, note: str = "") -> None:
        rows.append({"impl": impl, "op": "min_plus", "dtype": dtype, "n": n, "seconds": t,
                     "gops": _rate(n3, t), "matches_ours": check, "note": note})

    t = median_time(lambda: sr.min_plus.matmul(A32, B32), repeats)
    add("semiring-paths", "float32", t, True)
    for dt in (np.float64, np.int32):
        A, B = A32.astype(dt) if dt != np.int32 else (A32 * 1000).astype(dt), None
        B = B32.astype(dt) if dt != np.int32 else (B32 * 1000).astype(dt)
        note = "weights 0..999: plain sums (range check passes)" if dt == np.int32 else ""
        add("semiring-paths", np.dtype(dt).name, median_time(lambda A=A, B=B: sr.min_plus.matmul(A, B), repeats),
            note=note)
    # The same int32 operands with 10% +inf entries: the range check fails, the saturating kernel runs.
    A = (A32 * 1000).astype(np.int32)
    A[rng.random(A.shape) < 0.1] = np.iinfo(np.int32).max
    add("semiring-paths", "int32", median_time(lambda: sr.min_plus.matmul(A, B), repeats),
        note="10% +inf entries: saturating kernel")
    try:
        import tropical_gemm

        got = np.asarray(tropical_gemm.minplus_matmul_2d(A32, B32))
        t = median_time(lambda: tropical_gemm.minplus_matmul_2d(A32, B32), repeats)
        add("tropical-gemm minplus_matmul_2d", "float32", t, bool(np.array_equal(got, ref)))
    except ImportError:
        print("tropical-gemm not installed (pip install -e '.[bench]')", file=sys.stderr)
    try:
        import graphblas as gb

        nb = min(n, 1024)
        Ma, Mb = gb.Matrix.from_dense(A32[:nb, :nb]), gb.Matrix.from_dense(B32[:nb, :nb])
        got = Ma.mxm(Mb, op=gb.semiring.min_plus).new().to_dense()
        t = median_time(lambda: Ma.mxm(Mb, op=gb.semiring.min_plus).new(), max(1, repeats // 2), budget_s=30)
        rows.append({"impl": "python-graphblas min_plus mxm (dense operands)", "op": "min_plus",
                     "dtype": "float32", "n": nb, "seconds": t, "gops": _rate(float(nb) ** 3, t),
                     "matches_ours": bool(np.array_equal(got, ref[:nb, :nb] if nb == n else
                                                         sr.min_plus.matmul(A32[:nb, :nb], B32[:nb, :nb]))),
                     "note": f"n = {nb}" if nb != n else ""})
    except ImportError:
        print("python-graphblas not installed (pip install -e '.[bench]')", file=sys.stderr)
    nb = min(n, 1024)
    Cn = np.empty((nb, nb), np.float32)
    t = median_time(lambda: generic_matmul(sr.min_plus, A32[:nb, :nb], B32[:nb, :nb], Cn, None, False),
                    max(1, repeats // 2), budget_s=30)
    rows.append({"impl": "NumPy blocked broadcast (min over A[:, kb, None] + B[None, kb, :])", "op": "min_plus",
                 "dtype": "float32", "n": nb, "seconds": t, "gops": _rate(float(nb) ** 3, t),
                 "matches_ours": bool(np.array_equal(Cn, sr.min_plus.matmul(A32[:nb, :nb], B32[:nb, :nb]))),
                 "note": f"n = {nb}" if nb != n else ""})
    return rows


def bench_boolean(n: int, repeats: int) -> list[dict]:
    rng = np.random.default_rng(1)
    rows = []
    cases = {
        "random, density 0.5": (rng.random((n, n)) < 0.5, rng.random((n, n)) < 0.5),
        "A all true (densest)": (np.ones((n, n), bool), rng.random((n, n)) < 0.5),
        "random, density 0.01": (rng.random((n, n)) < 0.01, rng.random((n, n)) < 0.01),
        "A density 0.5, B density 0.0002 (C stays sparse: no early exit)":
            (rng.random((n, n)) < 0.5, rng.random((n, n)) < 0.0002),
    }
    for name, (A, B) in cases.items():
        t = median_time(lambda A=A, B=B: sr.lor_land.matmul(A, B), repeats)
        rows.append({"impl": "semiring-paths bit-packed", "op": "lor_land", "dtype": "bool", "n": n,
                     "seconds": t, "gops": _rate(float(n) ** 3, t), "matches_ours": None, "note": name})
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=2048)
    p.add_argument("--bool-n", type=int, default=4096)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    if args.quick:
        args.n, args.bool_n, args.repeats = 512, 1024, 3
    set_quick(args.quick)
    rows = bench_minplus(args.n, args.repeats) + bench_boolean(args.bool_n, args.repeats)
    ours = next(r["gops"] for r in rows if r["impl"] == "semiring-paths" and r["dtype"] == "float32")
    for r in rows:
        r["ours_over_this"] = ours / r["gops"] if r["op"] == "min_plus" else r["gops"] / ours
    header = ["implementation", "op", "dtype", "n", "median s", "G ops/s", "ratio", "same result", "note"]
    table = [[r["impl"], r["op"], r["dtype"], r["n"], f"{r['seconds']:.4f}", f"{r['gops']:.1f}",
              (f"ours f32 = {r['ours_over_this']:.1f}x this" if r["op"] == "min_plus"
               else f"{r['ours_over_this']:.0f}x our f32 min-plus rate"),
              "" if r["matches_ours"] is None else ("yes" if r["matches_ours"] else "NO"), r["note"]]
             for r in rows]
    md = markdown_table(header, table)
    info = machine()
    head = f"# CPU semiring GEMM ({info['cpu']}, {info['cores']} cores, {info['date']})\n\n"
    print(head + md)
    write_results("gemm-cpu", {"machine": info, "rows": rows}, head + md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
