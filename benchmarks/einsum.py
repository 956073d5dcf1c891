"""semiring.einsum against the semiring GEMMs it reduces to, side by side in one run.

Usage::

    python benchmarks/einsum.py            # chain of four 2048 x 2048 float32 min-plus matrices; batch 256 x 64^3
    python benchmarks/einsum.py --quick    # smaller sizes, for a smoke test
    python benchmarks/einsum.py --gpu      # the same on the GPU (CuPy arrays, CUDA-event timing)

Cases:

* **chain** ``"ij,jk,kl,lm->im"`` of four n x n min-plus matrices: ``einsum``
  (greedy opt_einsum path) against ``S.matmul`` three times in the best
  association (``(A @ B) @ (C @ D)`` and ``((A @ B) @ C) @ D`` cost the same
  for square matrices; the latter is timed).  The target is einsum within
  1.1x of the three GEMMs.
* **batch** ``"bij,bjk->bik"`` with b = 256 matrices of 64 x 64: ``einsum`` (the
  batched Numba kernel, no Python per matrix) against a Python loop of
  ``S.matmul`` over the batch, and the batched kernel alone; and b = 16384
  matrices of 8 x 8 (the kernel's direct loop) against the same kind of loop.

Medians of interleaved repeats (einsum and its reference timed in turn, round
after round, so that both see the same load) after a warm-up; on the GPU with
CUDA events.  Ratios are einsum time over reference time.
Writes ``benchmarks/results/einsum-cpu.json`` / ``.md`` (``einsum-gpu-<device>``
with ``--gpu``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import interleaved_gpu_times, machine, markdown_table, set_quick, write_results  # noqa: E402

import semiring as sr  # noqa: E402
from semiring.dense.batched import batched_matmul  # noqa: E402


def interleaved_times(fns: list, repeats: int) -> list[float]:
    """Median seconds of each of ``fns``, timed in turn round after round (order reversed every other round).

    On a shared machine the load changes during a run; interleaving puts the
    contenders under the same conditions, so their ratio is steadier than that
    of two back-to-back medians.
    """
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    for r in range(repeats):
        order = range(len(fns)) if r % 2 == 0 else reversed(range(len(fns)))
        for k in order:
            t = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - t)
    return [statistics.median(t) for t in times]


def run(n: int, nb: int, bs: int, tiny_nb: int, repeats: int, gpu: bool) -> list[dict]:
    S = sr.min_plus
    rng = np.random.default_rng(0)
    A, B, C, D = (rng.random((n, n), dtype=np.float32) for _ in range(4))
    X, Y = rng.random((nb, bs, bs), dtype=np.float32), rng.random((nb, bs, bs), dtype=np.float32)
    xp, timer = np, interleaved_times
    if gpu:
        import cupy as xp

        A, B, C, D, X, Y = (xp.asarray(M) for M in (A, B, C, D, X, Y))
        timer = interleaved_gpu_times

    def chain_einsum():
        return S.einsum("ij,jk,kl,lm->im", A, B, C, D)

    def chain_gemms():
        return S.matmul(S.matmul(S.matmul(A, B), C), D)

    def batch_einsum():
        return S.einsum("bij,bjk->bik", X, Y)

    def batch_loop():
        return xp.stack([S.matmul(X[b], Y[b]) for b in range(nb)])

    def batch_kernel():
        return batched_matmul(S, X, Y)

    ok_chain = bool((chain_einsum() == chain_gemms()).all())
    ok_batch = bool((batch_einsum() == batch_loop()).all())
    rows = []
    t_e, t_g = timer([chain_einsum, chain_gemms], repeats)
    rows.append({"case": "chain ij,jk,kl,lm->im", "shape": f"4 x {n}x{n} float32", "einsum_s": t_e,
                 "reference": "3 x S.matmul", "reference_s": t_g, "ratio": t_e / t_g, "equal": ok_chain,
                 "gops_einsum": 3 * float(n) ** 3 / t_e / 1e9})
    fns = [batch_einsum, batch_loop] + ([] if gpu else [batch_kernel])
    t_b, t_l, *t_k = timer(fns, max(repeats, 15))
    rows.append({"case": "batch bij,bjk->bik", "shape": f"{nb} x {bs}x{bs} float32", "einsum_s": t_b,
                 "reference": f"Python loop of {nb} S.matmul", "reference_s": t_l, "ratio": t_b / t_l,
                 "equal": ok_batch, "gops_einsum": nb * float(bs) ** 3 / t_b / 1e9})
    if t_k:
        rows.append({"case": "batch, batched kernel alone (no checks)", "shape": f"{nb} x {bs}x{bs} float32",
                     "einsum_s": t_k[0], "reference": f"Python loop of {nb} S.matmul", "reference_s": t_l,
                     "ratio": t_k[0] / t_l, "equal": bool((batch_kernel() == batch_loop()).all()),
                     "gops_einsum": nb * float(bs) ** 3 / t_k[0] / 1e9})
    # Many tiny matrices: the direct loop of the batched kernel.
    T, U = (xp.asarray(rng.random((tiny_nb, 8, 8), dtype=np.float32)) for _ in range(2))
    ok_tiny = bool((S.einsum("bij,bjk->bik", T, U) == xp.stack([S.matmul(T[b], U[b]) for b in range(tiny_nb)])).all())
    t_t, t_tl = timer([lambda: S.einsum("bij,bjk->bik", T, U),
                       lambda: xp.stack([S.matmul(T[b], U[b]) for b in range(tiny_nb)])], 5)
    rows.append({"case": "batch bij,bjk->bik, tiny", "shape": f"{tiny_nb} x 8x8 float32", "einsum_s": t_t,
                 "reference": f"Python loop of {tiny_nb} S.matmul", "reference_s": t_tl, "ratio": t_t / t_tl,
                 "equal": ok_tiny, "gops_einsum": tiny_nb * 512 / t_t / 1e9})
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="n = 512, batches 64 x 32^3 and 1024 x 8^3")
    ap.add_argument("--gpu", action="store_true", help="CuPy arrays on the GPU, CUDA-event timing")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    set_quick(args.quick)
    n, nb, bs, tiny_nb = (512, 64, 32, 1024) if args.quick else (2048, 256, 64, 16384)
    info = machine() | {"load_average_1min_before": round(os.getloadavg()[0], 2)}
    stem = "einsum-cpu"
    if args.gpu:
        import cupy as cp

        name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        info["gpu"] = name
        stem = "einsum-gpu-" + name.lower().replace(" ", "-")
    rows = run(n, nb, bs, tiny_nb, args.repeats, args.gpu)
    where = info.get("gpu") or (f"{info['cpu']} ({info['cores']} cores; {info['simd']}; load average "
                                f"{info['load_average_1min_before']} before the run)")
    header = ["case", "shape", "einsum (s)", "reference", "reference (s)", "einsum / reference", "G ops/s (einsum)",
              "equal"]
    table = markdown_table(header, [[r["case"], r["shape"], f"{r['einsum_s']:.4f}", r["reference"],
                                     f"{r['reference_s']:.4f}", f"{r['ratio']:.3f}", f"{r['gops_einsum']:.1f}",
                                     r["equal"]] for r in rows])
    md = (f"# semiring.einsum vs the GEMMs it reduces to ({'GPU' if args.gpu else 'CPU'})\n\n"
          f"{where}; {info['date']}. Medians of {args.repeats} (chain), {max(args.repeats, 15)} (batch) and 5 "
          f"(tiny batch) runs, each contender timed in turn round after round, after a warm-up; one run of "
          f"`python benchmarks/einsum.py{' --gpu' if args.gpu else ''}{' --quick' if args.quick else ''}`.\n\n"
          + table)
    print(md)
    write_results(stem, {"machine": info, "rows": rows}, md)


if __name__ == "__main__":
    main()
