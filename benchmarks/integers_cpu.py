"""Integer against float APSP on the CPU, side by side in one run: weights of realistic size and small ones.

Families (n = 2048 by default), each int32 against float32 on the same arcs and weights:

* ``large``: 20% of the arcs, weights uniform in 1..10^6 (road lengths in metres): the static bound
  ``2 (n - 1) max w`` is far above int32's half range, so the closure runs on the stand-in with the
  check afterwards (:func:`apsp.exact_integers.stand_in_is_exact`);
* ``small``: a complete graph, weights 1..99 (the static bound proves the range).

Interleaved runs (int32, float32, int32, ...), median of ``--repeats``; every int32 result equal to
the float32 one (exact: integer sums below 2**24 are not asked of float32 here; the check uses float64).
Writes ``results/integers-cpu.{json,md}``; names the CPU and its SIMD flags.

Run: ``python3 benchmarks/integers_cpu.py [--n 2048] [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import apsp  # noqa: E402
from benchmarks._common import machine, markdown_table, write_results  # noqa: E402


def family(name: str, n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    if name == "large":
        w = rng.integers(1, 10**6 + 1, (n, n))
        arcs = rng.random((n, n)) < 0.2
    else:
        w = rng.integers(1, 100, (n, n))
        arcs = np.ones((n, n), bool)
    Wi = np.where(arcs, w, np.iinfo(np.int32).max).astype(np.int32)
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rows, payload = [], {"machine": machine(), "n": args.n, "families": {}}
    for name in ("large", "small"):
        Wi, Wf, Wd = family(name, args.n)
        med, out = timed({"int32": lambda Wi=Wi: apsp.shortest_paths(Wi),
                          "float32": lambda Wf=Wf: apsp.shortest_paths(Wf)}, args.repeats)
        ref = apsp.shortest_paths(Wd)
        same = bool(np.array_equal(np.where(out["int32"] == np.iinfo(np.int32).max, np.inf, out["int32"]), ref))
        rate = med["float32"] / med["int32"]
        payload["families"][name] = {"int32_s": med["int32"], "float32_s": med["float32"], "int32_rate": rate,
                                     "exact": same}
        rows.append([name, args.n, f"{med['int32']:.3f}", f"{med['float32']:.3f}", f"{rate:.2f}x",
                     "equal to float64" if same else "DIFFERENT"])
        print(rows[-1], flush=True)
    m = payload["machine"]
    md = (f"Integer against float APSP, CPU: {m['cpu']} ({m['cores']} cores; {m['simd']}); medians of "
          f"{args.repeats} interleaved runs.\n\n"
          + markdown_table(["family", "n", "int32 s", "float32 s", "int32 rate / float32 rate", "check"], rows))
    write_results("integers-cpu", payload, md)
    print(md)


if __name__ == "__main__":
    main()
