"""Integer against float APSP on the CPU, side by side in one run, with the float64 GEMM and predecessors.

Families (n = 2048 by default), each int32 against float32 on the same arcs and weights:

* ``large``: 20% of the arcs, weights uniform in 1..10^6 (road lengths in metres): the static bound
  ``2 (n - 1) max w`` is far above int32's half range, so the closure runs on the stand-in with the
  check afterwards (:func:`apsp.paths.exact_integers.stand_in_is_exact`);
* ``small``: a complete graph, weights 1..99 (the static bound proves the range);
* ``signed``: 20% of the arcs, weights uniform in -10..10^6 (a few negative arcs, no negative cycle):
  Johnson potentials make the weights non-negative (:mod:`apsp.paths.potentials`), and the reweighted
  matrix runs on the stand-in route (:func:`apsp.paths.exact_integers.exact_closure`).

Also in the same run: the float64 closure of the ``large`` family against the float64 min-plus GEMM
(``n^3 / t`` of each), and every family with predecessors against distances only.

Interleaved runs (int32, float32, int32, ...), median of ``--repeats``; every int32 result equal to
the float64 one (exact: every distance here is an integer below 2**53).  Writes
``results/integers-cpu.{json,md}``; names the CPU and its SIMD flags.

``apsp.shortest_paths`` closes integer matrices through :func:`apsp.paths.exact_integers.exact_closure` when
its distances route calls it; where it does not yet, the ``signed`` family is also timed with the
distances routed through it (the same patch as ``tests/test_integer_potentials.py``), and the report
says so.

Run: ``python3 benchmarks/integers_cpu.py [--n 2048] [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import apsp  # noqa: E402
import semiring as sr  # noqa: E402
from apsp.paths import exact_integers  # noqa: E402
from benchmarks._common import machine, markdown_table, write_results  # noqa: E402

I32_MAX = np.iinfo(np.int32).max


def family(name: str, n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    if name == "large":
        w = rng.integers(1, 10**6 + 1, (n, n))
        arcs = rng.random((n, n)) < 0.2
    elif name == "signed":
        w = rng.integers(-10, 10**6 + 1, (n, n))
        arcs = rng.random((n, n)) < 0.2
    else:
        w = rng.integers(1, 100, (n, n))
        arcs = np.ones((n, n), bool)
    Wi = np.where(arcs, w, I32_MAX).astype(np.int32)
    Wf = np.where(arcs, w, np.inf).astype(np.float32)
    Wd = np.where(arcs, w, np.inf).astype(np.float64)
    return Wi, Wf, Wd


def timed(fn, repeats: int):
    times = {k: [] for k in fn}
    out = {}
    for k, f in fn.items():  # warm-up: compile
        out[k] = f()
    for _ in range(repeats):
        for k, f in fn.items():
            t = time.perf_counter()
            out[k] = f()
            times[k].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}, out


def _engine():
    """The module whose ``_distances`` closes integer matrices without predecessors."""
    for name in ("apsp.driver", "apsp.api"):
        with contextlib.suppress(ImportError):
            mod = importlib.import_module(name)
            if hasattr(mod, "_distances") and hasattr(mod, "_closure"):
                return mod
    raise RuntimeError("no module of apsp defines _distances")


def api_uses_exact_closure() -> bool:
    return "exact_closure" in inspect.getsource(_engine()._distances)


@contextlib.contextmanager
def through_exact_closure():
    """apsp.shortest_paths with its distances routed through exact_closure (a no-op where they already are)."""
    mod = _engine()
    if api_uses_exact_closure():
        yield
        return
    saved, closure = mod._distances, mod._closure

    def _distances(S, D, *args):
        tail = args[1:] if len(args) == 8 else args  # (P, W, ...) or (W, ...)
        exact_integers.exact_closure(S, D, tail[0], lambda X: closure(S, X, None, *tail))

    mod._distances = _distances
    try:
        yield
    finally:
        mod._distances = saved


def equal_to(D, ref) -> bool:
    return bool(np.array_equal(np.where(D == I32_MAX, np.inf, D), ref))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    n, reps = args.n, args.repeats
    patched = not api_uses_exact_closure()
    load_start = os.getloadavg()[0]
    payload = {"machine": machine(), "n": n, "repeats": reps, "families": {},
               "api_routes_distances_through_exact_closure": not patched}
    rows, pred_rows = [], []
    for name in ("large", "small", "signed"):
        Wi, Wf, Wd = family(name, n)
        route = exact_integers.integer_route(Wi, sr.min_plus, Wi).name if name != "signed" else None
        ctx = through_exact_closure() if name == "signed" else contextlib.nullcontext()
        with ctx:
            med, out = timed({"int32": lambda Wi=Wi: apsp.shortest_paths(Wi),
                              "float32": lambda Wf=Wf: apsp.shortest_paths(Wf)}, reps)
            if name == "signed":
                X = exact_integers.widen(Wi) if exact_integers.sums_may_leave_int32(Wi, sr.min_plus) else Wi
                route = exact_integers.integer_route(X, sr.min_plus, X).name
            pm, pout = timed({"int32 predecessors": lambda Wi=Wi: apsp.shortest_paths(Wi, predecessors=True),
                              "float32 predecessors": lambda Wf=Wf: apsp.shortest_paths(Wf, predecessors=True)},
                             reps)
        if name == "signed" and patched:  # the api as it is, for comparison
            today, _ = timed({"int32": lambda Wi=Wi: apsp.shortest_paths(Wi)}, max(1, reps // 2))
        ref = apsp.shortest_paths(Wd)
        same = equal_to(out["int32"], ref) and equal_to(pout["int32 predecessors"][0], ref)
        rate = med["float32"] / med["int32"]
        fam = {"int32_s": med["int32"], "float32_s": med["float32"], "int32_rate": rate, "exact": same,
               "route": route, "int32_predecessors_s": pm["int32 predecessors"],
               "float32_predecessors_s": pm["float32 predecessors"],
               "int32_predecessors_ratio": pm["int32 predecessors"] / med["int32"],
               "float32_predecessors_ratio": pm["float32 predecessors"] / med["float32"]}
        if name == "signed" and patched:
            fam["int32_s_api_as_is"] = today["int32"]
        payload["families"][name] = fam
        label = name + (" (distances through exact_closure)" if name == "signed" and patched else "")
        rows.append([label, n, route, f"{med['int32']:.3f}", f"{med['float32']:.3f}", f"{rate:.2f}x",
                     "equal to float64" if same else "DIFFERENT"])
        pred_rows.append([name, f"{med['int32']:.3f}", f"{pm['int32 predecessors']:.3f}",
                          f"{fam['int32_predecessors_ratio']:.2f}x", f"{med['float32']:.3f}",
                          f"{pm['float32 predecessors']:.3f}", f"{fam['float32_predecessors_ratio']:.2f}x"])
        print(rows[-1], pred_rows[-1], flush=True)
        if name == "signed" and patched:
            print(f"signed, apsp.shortest_paths as it is: int32 {today['int32']:.3f} s", flush=True)
    # the float64 closure against the float64 min-plus GEMM of the same run
    _, _, Wd = family("large", n)
    A = np.ascontiguousarray(np.where(np.isinf(Wd), 1e9, Wd))
    C = np.empty_like(A)
    med, _ = timed({"gemm": lambda: sr.min_plus.matmul(A, A, out=C), "closure": lambda: apsp.shortest_paths(Wd)}, reps)
    gemm_rate, closure_rate = n**3 / med["gemm"], n**3 / med["closure"]
    payload["float64"] = {"gemm_s": med["gemm"], "closure_s": med["closure"], "gemm_rate": gemm_rate,
                          "closure_rate": closure_rate, "closure_fraction_of_gemm": closure_rate / gemm_rate}
    f64 = [["float64 min-plus GEMM", n, f"{med['gemm']:.3f}", f"{gemm_rate / 1e9:.1f}", "1.00"],
           ["float64 APSP (large family)", n, f"{med['closure']:.3f}", f"{closure_rate / 1e9:.1f}",
            f"{closure_rate / gemm_rate:.2f}"]]
    print(f64, flush=True)
    m = payload["machine"]
    payload["load_average"] = [load_start, os.getloadavg()[0]]
    note = ("" if not patched else
            f"\n\nThe `signed` row routes `apsp.shortest_paths`'s distances through "
            f"`apsp.paths.exact_integers.exact_closure` (the api does not call it yet); the api as it is took "
            f"{payload['families']['signed']['int32_s_api_as_is']:.3f} s for the same int32 matrix "
            f"(int64, saturating sums).")
    md = (f"Integer against float APSP, CPU: {m['cpu']} ({m['cores']} cores; {m['simd']}); medians of "
          f"{reps} interleaved runs; one-minute load average {load_start:.1f} at the start, "
          f"{payload['load_average'][1]:.1f} at the end (other work shared the cores: compare within a row).\n\n"
          + markdown_table(["family", "n", "route", "int32 s", "float32 s", "int32 rate / float32 rate", "check"],
                           rows)
          + "\n\nWith predecessors against distances only (same run):\n\n"
          + markdown_table(["family", "int32 s", "int32 + predecessors s", "ratio", "float32 s",
                            "float32 + predecessors s", "ratio"], pred_rows)
          + "\n\nThe float64 closure against the float64 min-plus GEMM (n^3 / t, G/s):\n\n"
          + markdown_table(["what", "n", "s", "G/s", "fraction of the GEMM rate"], f64) + note + "\n")
    write_results("integers-cpu", payload, md)
    print(md)


if __name__ == "__main__":
    main()
