"""APSP over the GPUs of one host in one process (apsp.multi_device) against one GPU, side by side in one run.

Input: a seeded random digraph, float32 integer weights uniform in [1, 1000),
half of the arcs missing, made on the GPUs themselves row chunk by row chunk
(``seeded_rows``: the same matrix whatever the layout), so no host transfer is
timed on either side.

* one GPU: ``apsp.shortest_paths`` on a CuPy matrix on GPU 0 (R-Kleene);
* ``p`` GPUs: :func:`apsp.multi_device.multi_device_closure` over
  ``cuda_lanes(range(p))`` (row blocks, panels sent GPU to GPU, look-ahead),
  for each ``p`` in ``--gpus``; the result is compared with the one-GPU result
  bit for bit, all rows;
* ``--big N``: ``n = N`` on all GPUs (a matrix no single GPU holds), checked on
  ``--check-rows`` sampled rows against single-source closures of those rows
  (repeated min-plus vector-matrix products with the regenerated input until
  nothing changes).

Wall-clock seconds of one closure after a warm-up closure (every device
synchronised before and after); rates are ``n^3`` min-plus pairs per second.
Writes ``results/multi-gpu-<gpu>.{json,md}``.

Run: ``python3 benchmarks/multi_gpu.py [--n 65536] [--gpus 1 2 4] [--big 196608]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import apsp  # noqa: E402
import semiring as sr  # noqa: E402
from apsp.multi_device import RowBlocks, cuda_lanes, multi_device_closure  # noqa: E402
from benchmarks._common import machine, markdown_table, write_results  # noqa: E402

CHUNK = 256


def seeded_rows(n: int, seed: int):
    """``rows(a, b, xp)``: rows ``a:b`` of the seeded matrix (made in chunks of 256 rows, each from its own seed)."""

    def rows(a: int, b: int, xp):
        out = xp.empty((b - a, n), dtype=xp.float32)
        for c0 in range(a - a % CHUNK, b, CHUNK):
            rng = xp.random.default_rng(seed * 1_000_003 + c0 // CHUNK)
            vals = rng.integers(1, 1000, size=(CHUNK, n), dtype=xp.int32).astype(xp.float32)
            vals[rng.random((CHUNK, n), dtype=xp.float32) < 0.5] = xp.inf
            idx = xp.arange(CHUNK)
            keep = (c0 + idx) < n
            vals[idx[keep], (c0 + idx)[keep]] = 0
            lo, hi = max(a, c0), min(b, c0 + CHUNK)
            out[lo - a : hi - a] = vals[lo - c0 : hi - c0]
        return out

    return rows


def _sync_all(p: int) -> None:
    import cupy as cp

    for d in range(p):
        with cp.cuda.Device(d):
            cp.cuda.Device(d).synchronize()


def one_gpu(n: int, seed: int):
    import cupy as cp

    with cp.cuda.Device(0):
        W = seeded_rows(n, seed)(0, n, cp)
        apsp.shortest_paths(seeded_rows(4096, seed + 1)(0, 4096, cp))  # warm-up: compile
        cp.cuda.Device(0).synchronize()
        t = time.perf_counter()
        D = apsp.shortest_paths(W, method="rkleene")  # one GPU: the planner would spread a large matrix over all
        cp.cuda.Device(0).synchronize()
        seconds = time.perf_counter() - t
        del W
    return seconds, D


def multi(n: int, p: int, seed: int, block: int | None):
    lanes = cuda_lanes(range(p))
    warm = RowBlocks.from_rows(4096, seeded_rows(4096, seed + 1), lanes)
    multi_device_closure(sr.min_plus, warm, lanes)
    del warm
    R = RowBlocks.from_rows(n, seeded_rows(n, seed), lanes, block)
    _sync_all(p)
    t = time.perf_counter()
    multi_device_closure(sr.min_plus, R, lanes)
    _sync_all(p)
    return time.perf_counter() - t, R


def equal_to(R: RowBlocks, D) -> bool:
    """Every row of ``R`` equals the one-GPU result ``D`` (on GPU 0), bit for bit."""
    import cupy as cp

    from apsp.multi_device import _onto

    with cp.cuda.Device(0):
        for g, _ in enumerate(R.lanes):
            for k in R.blocks_of(g):
                a, b = R.span(k)
                part = _onto(R.local[g][slice(*R.local_span(k))], cp)
                if not bool(cp.array_equal(part, D[a:b])):
                    return False
    return True


def sampled_rows_exact(R: RowBlocks, seed: int, samples: int) -> tuple[bool, int]:
    """``samples`` rows of ``R`` against single-source closures (repeated ``V (+)= V (x) W``) of the same rows."""
    import cupy as cp

    n = R.n
    rows = seeded_rows(n, seed)
    picks = np.sort(np.random.default_rng(seed).choice(n, samples, replace=False))
    with cp.cuda.Device(0):
        V = cp.concatenate([rows(int(s), int(s) + 1, cp) for s in picks])
    rounds = 0
    while True:
        rounds += 1
        parts = []
        for g, lane in enumerate(R.lanes):
            with lane.active():
                Vg = cp.asarray(V.get())
                acc = cp.full((samples, n), cp.inf, dtype=cp.float32)
                for k in R.blocks_of(g):
                    a, b = R.span(k)
                    sr.min_plus.matmul(Vg[:, a:b], rows(a, b, cp), out=acc, accumulate=True)
                parts.append(acc.get())
        new = np.minimum(V.get(), np.minimum.reduce(parts))
        with cp.cuda.Device(0):
            changed = not np.array_equal(new, V.get())
            V = cp.asarray(new)
        if not changed:
            break
    got = np.concatenate([R.rows(int(s), int(s) + 1) for s in picks])
    return bool(np.array_equal(got, V.get())), rounds


def main() -> None:
    import cupy as cp

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=65536)
    ap.add_argument("--gpus", type=int, nargs="+", default=None)
    ap.add_argument("--block", type=int, default=None)
    ap.add_argument("--big", type=int, default=0)
    ap.add_argument("--check-rows", type=int, default=64)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    count = cp.cuda.runtime.getDeviceCount()
    gpus = [p for p in (args.gpus or [1, 2, 4, 8]) if p <= count]
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    n = args.n
    rate = lambda s, m: m**3 / s / 1e12  # noqa: E731
    print(f"{count} x {name}; n = {n}", flush=True)
    base, D = one_gpu(n, args.seed)
    print(f"one GPU (apsp.shortest_paths): {base:.2f} s = {rate(base, n):.2f} T pairs/s", flush=True)
    rows = [["1 (apsp.shortest_paths)", n, f"{base:.2f}", f"{rate(base, n):.2f}", "1.00", "-"]]
    results = {"n": n, "one_gpu_s": base, "multi": []}
    for p in gpus:
        seconds, R = multi(n, p, args.seed, args.block)
        same = equal_to(R, D)
        del R
        print(f"{p} GPUs (multi_device): {seconds:.2f} s = {rate(seconds, n):.2f} T/s, "
              f"{base / seconds:.2f}x one GPU, equal: {same}", flush=True)
        results["multi"].append({"gpus": p, "seconds": seconds, "speedup": base / seconds, "equal": same})
        rows.append([f"{p} (multi_device)", n, f"{seconds:.2f}", f"{rate(seconds, n):.2f}", f"{base / seconds:.2f}",
                     "all rows equal" if same else "DIFFERENT"])
    del D
    cp.get_default_memory_pool().free_all_blocks()
    if args.big:
        p = count
        seconds, R = multi(args.big, p, args.seed, args.block)
        ok, rounds = sampled_rows_exact(R, args.seed, args.check_rows)
        print(f"n = {args.big} on {p} GPUs: {seconds:.1f} s = {rate(seconds, args.big):.2f} T/s; "
              f"{args.check_rows} sampled rows exact: {ok} ({rounds} products)", flush=True)
        results["big"] = {"n": args.big, "gpus": p, "seconds": seconds, "exact_rows": ok,
                          "rows_checked": args.check_rows}
        rows.append([f"{p} (multi_device)", args.big, f"{seconds:.1f}", f"{rate(seconds, args.big):.2f}", "-",
                     f"{args.check_rows} sampled rows exact" if ok else "DIFFERENT"])
    md = (f"# APSP over the GPUs of one host ({count} x {name})\n\nfloat32, weights 1..999, half the arcs missing; "
          "wall-clock seconds of one closure after a warm-up; rate = n^3 / time.\n\n"
          + markdown_table(["GPUs", "n", "seconds", "T pairs/s", "speed-up", "check"], rows))
    tag = name.replace("NVIDIA ", "").replace(" ", "-").lower()
    write_results(f"multi-gpu-{count}x-{tag}", {"machine": machine(), "gpu": name, **results}, md)
    print(md)


if __name__ == "__main__":
    main()
