"""Benchmark of the GPU semiring GEMM (semiring.cuda) against the chip's ceiling and CuPy.

1. Ceilings: the rate of one ``min(x + y, z)`` instruction pair with all operands in
   registers (fp32, fp64, int32 wrapping, int32 saturating), all SMs busy.
0. ``--tune``: tile shapes of the fp32 / fp64 kernel at n = 8192.
2. min-plus GEMM (non-negative inputs, which take the integer three-way-min kernel, and
   the general kernel that signed inputs get), ours vs the CuPy broadcast a CuPy user writes
   (``cp.min(A[:, kb, None] + B[None, kb, :], axis=1)`` over blocks of k), n = 1024 ... 16384,
   and other semirings / dtypes / the witness at n = 8192; integer min-plus at n = 8192 on
   plain sums (weights 0..999) against the int32 add+min ceiling, and the saturating kernel
   (same operands, and with +inf entries) against the saturating ceiling.
3. Lazy min on an average-degree-12 random graph (n = 8192) and on a dense input.
4. Bit-packed Boolean GEMM (lor_land) at n = 16384, packing included.
5. Streamed GEMM on host operands 3x larger than the device memory budget vs in-core.

Times are CUDA-event medians after a warm-up (streamed: wall clock of the whole call).
``tops`` is 10^12 semiring multiply-adds (n^3) per second.  Writes
``benchmarks/results/gemm-gpu-<device>.json`` and ``.md`` (``--quick``: under ``results/quick/``).

Run: ``PYTHONPATH=. python3 benchmarks/gemm_gpu.py`` (``--quick`` for a short run).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import sys
import time
from pathlib import Path

import cupy as cp
import numpy as np

from semiring import int_range, max_min, min_plus, plus_times
from semiring.cuda import config, matmul_into, streamed_matmul
from semiring.cuda.boolean import bool_matmul
from semiring.cuda.ceiling import CEILINGS, measure_ceiling
from semiring.cuda.compile import TILE_OVERRIDE, Tile

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import QUICK_RESULTS, gpu_time, machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def device_name() -> str:
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
    name = props["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def random_dense(n: int, dtype, rng_seed: int, m: int | None = None):
    m = n if m is None else m
    g = cp.random.default_rng(rng_seed)
    if np.dtype(dtype).kind == "f":
        return (g.random((m, n), dtype=np.float64) * 100).astype(dtype)
    return g.integers(0, 1000, (m, n)).astype(dtype)


def graph_adjacency(n: int, degree: int, seed: int, dtype=np.float32):
    """A random (Erdos-Renyi) directed graph, ``degree * n`` edges, weights in [1, 100), 0 on the diagonal."""
    g = cp.random.default_rng(seed)
    A = cp.full((n, n), cp.inf, dtype=dtype)
    e = degree * n
    i = g.integers(0, n, e)
    j = g.integers(0, n, e)
    A[i, j] = (g.random(e, dtype=np.float64) * 99 + 1).astype(dtype)
    idx = cp.arange(n)
    A[idx, idx] = 0
    return A


def cupy_broadcast_minplus(A, B, C, temp_bytes: int = 1 << 30) -> None:
    """What a CuPy user writes: blocks of k, broadcast add, min over the block."""
    m, k = A.shape
    n = B.shape[1]
    kb = max(1, min(k, temp_bytes // (m * n * A.itemsize)))
    C.fill(cp.inf)
    for k0 in range(0, k, kb):
        part = cp.min(A[:, k0:k0 + kb, None] + B[None, k0:k0 + kb, :], axis=1)
        cp.minimum(C, part, out=C)


def row(semiring, dtype, n, seconds, ceiling, variant="ours", **extra):
    tops = n ** 3 / seconds / 1e12
    r = {"semiring": semiring, "dtype": dtype, "n": n, "variant": variant, "seconds": seconds, "tops": tops,
         "fraction_of_ceiling": (tops * 1e12 / ceiling) if ceiling else None}
    r.update(extra)
    log(f"  {semiring:10s} {dtype:8s} n={n:6d} {variant:22s} {seconds * 1e3:10.2f} ms {tops:8.3f} T/s"
        + (f"  {r['fraction_of_ceiling']:.1%} of ceiling" if ceiling else ""))
    return r


def bench_gemm(ceil: dict, sizes, baseline_max: int, repeats: int) -> list:
    rows = []
    S = min_plus
    log("min-plus float32, ours vs CuPy broadcast")
    for n in sizes:
        A, B = random_dense(n, np.float32, 1), random_dense(n, np.float32, 2)
        C = cp.empty((n, n), cp.float32)
        reps = repeats if n <= 8192 else max(2, repeats // 2)
        t = gpu_time(functools.partial(matmul_into, S, A, B, C), reps)
        rows.append(row("min_plus", "float32", n, t, ceil["float32"], variant="ours (non-negative input)"))
        config.nonneg = config.signed = "off"  # the general kernel (inputs with negative entries: see integers_gpu)
        t = gpu_time(functools.partial(matmul_into, S, A, B, C), reps)
        config.nonneg = config.signed = "auto"
        rows.append(row("min_plus", "float32", n, t, ceil["float32"], variant="ours (general kernel)"))
        if n <= baseline_max:
            t = gpu_time(functools.partial(cupy_broadcast_minplus, A, B, C), 2)
            rows.append(row("min_plus", "float32", n, t, ceil["float32"], variant="cupy_broadcast"))
        del A, B, C
        cp.get_default_memory_pool().free_all_blocks()
    n = 8192
    log("other dtypes / semirings / witness at n = 8192")
    cases = [
        ("min_plus", min_plus, np.float64, "float64", False),
        ("max_min", max_min, np.float32, "float32", False),
        ("plus_times", plus_times, np.float32, None, False),
        ("min_plus", min_plus, np.float32, "float32", True),
        ("min_plus", min_plus, np.float64, "float64", True),
    ]
    for name, S2, dt, ckey, witness in cases:
        A, B = random_dense(n, dt, 3), random_dense(n, dt, 4)
        C = cp.empty((n, n), dt)
        W = cp.empty((n, n), cp.int32) if witness else None
        t = gpu_time(functools.partial(matmul_into, S2, A, B, C, W), max(2, repeats // 2))
        rows.append(row(name, np.dtype(dt).name, n, t, ceil.get(ckey) if ckey else None,
                        variant="ours+witness" if witness else "ours"))
        del A, B, C, W
        cp.get_default_memory_pool().free_all_blocks()
    rows += bench_int_minplus(ceil, n, repeats)
    return rows


def bench_int_minplus(ceil: dict, n: int, repeats: int) -> list:
    """Integer min-plus at n: the plain-sum kernel (weights 0..999: no sum can overflow, the range
    check passes) against the int32 add+min ceiling (``int32_wrap``), and the saturating kernel on
    the same operands (``config.plain_int = "off"``) and with +inf entries (10%: the check fails)
    against the saturating ceiling (``int32``)."""
    rows = []
    reps = max(2, repeats // 2)
    log(f"integer min-plus at n = {n}: plain sums vs saturating")
    before_setting = config.plain_int
    config.plain_int = "auto"
    for dt in (np.int32, np.int64):
        name = np.dtype(dt).name
        A, B = random_dense(n, dt, 3), random_dense(n, dt, 4)  # 0..999
        C = cp.empty((n, n), dt)
        wrap, sat = (ceil["int32_wrap"], ceil["int32"]) if dt == np.int32 else (None, None)
        before = dict(int_range.counts)
        t = gpu_time(functools.partial(matmul_into, min_plus, A, B, C), reps)
        assert int_range.counts["plain"] > before["plain"], "the range check should pass on 0..999"
        extra = {"fraction_of_int32_sat_ceiling": n ** 3 / t / sat} if sat else {}
        rows.append(row("min_plus", name, n, t, wrap, variant="ours plain sums (0..999) / int32_wrap ceiling",
                        **extra))
        want = C.copy()
        config.plain_int = "off"
        try:
            t = gpu_time(functools.partial(matmul_into, min_plus, A, B, C), reps)
        finally:
            config.plain_int = "auto"
        assert bool(cp.all(C == want)), "plain and saturating kernels differ"
        extra = {"fraction_of_int32_wrap_ceiling": n ** 3 / t / wrap} if wrap else {}
        rows.append(row("min_plus", name, n, t, sat, variant="ours saturating, same operands / int32 ceiling",
                        **extra))
        g = cp.random.default_rng(5)
        A[g.random((n, n)) < 0.1] = np.iinfo(dt).max  # "no edge": the range check fails
        t = gpu_time(functools.partial(matmul_into, min_plus, A, B, C), reps)
        extra = {"fraction_of_int32_wrap_ceiling": n ** 3 / t / wrap} if wrap else {}
        rows.append(row("min_plus", name, n, t, sat, variant="ours saturating, 10% +inf / int32 ceiling",
                        **extra))
        del A, B, C, want
        cp.get_default_memory_pool().free_all_blocks()
    config.plain_int = before_setting
    return rows


def bench_lazy(ceil: dict, repeats: int) -> list:
    rows = []
    n = 8192
    log("lazy min: average-degree-12 random graph and dense input, n = 8192")
    A = graph_adjacency(n, 12, 5)
    C = cp.empty((n, n), cp.float32)
    ref = None
    for mode in ("off", "on", "auto"):
        config.lazy = mode
        t = gpu_time(lambda: matmul_into(min_plus, A, A, C), repeats)
        if ref is None:
            ref = C.copy()
        else:
            assert bool(cp.all(C == ref)), f"lazy={mode} differs from the dense kernel"
        rows.append(row("min_plus", "float32", n, t, ceil["float32"], variant=f"degree12 lazy={mode}"))
    D1, D2 = random_dense(n, np.float32, 6), random_dense(n, np.float32, 7)
    for mode in ("off", "auto", "off", "auto"):
        config.lazy = mode
        t = gpu_time(lambda: matmul_into(min_plus, D1, D2, C), repeats)
        rows.append(row("min_plus", "float32", n, t, ceil["float32"], variant=f"dense lazy={mode}"))
    config.lazy = "auto"
    return rows


def bench_bool(repeats: int, n: int = 16384) -> list:
    log(f"Boolean bit-packed GEMM, n = {n}")
    g = cp.random.default_rng(8)
    A = g.random((n, n), dtype=np.float32) < 0.5
    B = g.random((n, n), dtype=np.float32) < 0.5
    C = cp.empty((n, n), cp.bool_)
    t = gpu_time(lambda: bool_matmul(A, B, C, False), max(2, repeats // 2))
    sample = cp.asnumpy(A[:64].astype(np.float32)) @ cp.asnumpy(B[:, :64].astype(np.float32)) > 0
    assert np.array_equal(cp.asnumpy(C[:64, :64]), sample)
    return [row("lor_land", "bool", n, t, None, variant="bit-packed (incl. packing)")]


def bench_streamed(ceil: dict, n: int) -> list:
    """Streamed vs in-core at one size.  Streaming never probes the operands, so both are
    timed with the general kernel (``config.nonneg`` and ``config.signed`` off) and the
    in-core rate of that kernel is the reference; the in-core rate with the non-negative
    kernel (what device operands get here) is reported beside it."""
    log(f"streamed GEMM, float32 n = {n}, budget = operand / 3")
    A = random_dense(n, np.float32, 9)
    B = random_dense(n, np.float32, 10)
    C = cp.empty((n, n), cp.float32)
    t_auto = gpu_time(functools.partial(matmul_into, min_plus, A, B, C), 2)
    config.nonneg = config.signed = "off"
    t_in = gpu_time(functools.partial(matmul_into, min_plus, A, B, C), 2)
    ref = cp.asnumpy(C[:256, :256])
    hA, hB = cp.asnumpy(A), cp.asnumpy(B)
    del A, B, C
    cp.get_default_memory_pool().free_all_blocks()
    hC = np.zeros((n, n), np.float32)
    budget = hA.nbytes // 3
    times = []
    for i in range(3):
        t0 = time.perf_counter()
        streamed_matmul(min_plus, hA, hB, hC, None, False, memory_budget=budget)
        times.append(time.perf_counter() - t0)
        log(f"    streamed run {i}: {times[-1]:.3f} s")
    config.nonneg = config.signed = "auto"
    assert np.array_equal(hC[:256, :256], ref)
    t_st = float(np.median(times[1:]))
    rows = [row("min_plus", "float32", n, t_auto, ceil["float32"], variant="in-core, non-negative kernel"),
            row("min_plus", "float32", n, t_in, ceil["float32"], variant="in-core, general kernel")]
    rows.append(row("min_plus", "float32", n, t_st, ceil["float32"], variant="streamed budget=operand/3",
                    budget_bytes=budget, operand_bytes=hA.nbytes, fraction_of_in_core=t_in / t_st,
                    fraction_of_in_core_nonneg=t_auto / t_st))
    return rows


TUNE = {
    np.float32: [Tile(128, 128, 32, 8, 8, 3), Tile(128, 128, 16, 8, 8, 4, 0, 2), Tile(128, 128, 32, 8, 8, 3, 0, 2),
                 Tile(128, 128, 16, 8, 8, 4, av=4), Tile(128, 256, 16, 8, 16, 3, av=2, minb=1),
                 Tile(256, 128, 16, 16, 8, 3, av=2, minb=1)],
    np.float64: [Tile(64, 128, 16, 4, 8, 3), Tile(128, 64, 16, 8, 4, 3)],
}


def bench_tune(ceil: dict, n: int = 8192, repeats: int = 3) -> list:
    """Time tile shapes of the plain min-plus kernel (fp32 general and non-negative paths, fp64) at one size."""
    rows = []
    for dt, tiles in TUNE.items():
        key = "float32" if dt == np.float32 else "float64"
        A, B = random_dense(n, dt, 11), random_dense(n, dt, 12)
        C = cp.empty((n, n), dt)
        ref = None
        for tile in tiles:
            TILE_OVERRIDE[(np.dtype(dt).itemsize, False, False)] = tile
            for nonneg in (("off", "auto") if dt == np.float32 else ("off",)):
                config.nonneg = config.signed = nonneg  # "off": the general kernel
                t = gpu_time(functools.partial(matmul_into, min_plus, A, B, C), repeats)
                if ref is None:
                    ref = C.copy()
                assert bool(cp.all(C == ref)), (tile, nonneg)
                rows.append(row("min_plus", key, n, t, ceil[key], variant=f"tune {tile.bm}x{tile.bn}x{tile.bk} "
                                f"s{tile.stages} av{tile.av} nonneg={nonneg}"))
        config.nonneg = config.signed = "auto"
        TILE_OVERRIDE.clear()
        del A, B, C, ref
        cp.get_default_memory_pool().free_all_blocks()
    return rows


def markdown(result: dict) -> str:
    lines = [f"# GPU semiring GEMM on {result['device']}", ""]
    lines.append("Ceilings (one `min(x + y, z)` pair, registers only, all SMs): "
                 + ", ".join(f"{k} {v / 1e12:.2f} T/s" for k, v in result["ceilings"].items()))
    lines += ["", "| semiring | dtype | n | variant | ms | T/s | of ceiling |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in result["rows"]:
        frac = f"{r['fraction_of_ceiling']:.1%}" if r["fraction_of_ceiling"] else ""
        if "fraction_of_in_core" in r:
            frac += (f" ({r['fraction_of_in_core']:.1%} of in-core, same kernel; "
                     f"{r['fraction_of_in_core_nonneg']:.1%} of in-core non-negative)")
        lines.append(f"| {r['semiring']} | {r['dtype']} | {r['n']} | {r['variant']} | {r['seconds'] * 1e3:.2f} | "
                     f"{r['tops']:.3f} | {frac} |")
    lines += ["", f"Command: `{result['command']}`", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes only (smoke run)")
    ap.add_argument("--sizes", type=int, nargs="*", default=[1024, 2048, 4096, 8192, 16384])
    ap.add_argument("--baseline-max", type=int, default=4096, help="largest n for the (slow) CuPy broadcast")
    ap.add_argument("--stream-n", type=int, nargs="*", default=[16384, 24576])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--skip", nargs="*", default=[], choices=["gemm", "lazy", "bool", "stream"])
    ap.add_argument("--tune", action="store_true", help="time tile shapes of the fp32/fp64 kernel first")
    ap.add_argument("--out", type=Path, default=None, help="folder (default results/, quick: results/quick/)")
    args = ap.parse_args(argv)
    if args.quick:
        args.sizes, args.baseline_max, args.stream_n, args.repeats = [1024, 2048], 1024, [4096], 3
    if args.out is None:
        args.out = QUICK_RESULTS if args.quick else RESULTS
    name = device_name()
    log(f"device: {name}")
    ceil = {k: measure_ceiling(k) for k in CEILINGS}
    for k, v in ceil.items():
        log(f"  ceiling {k:10s} {v / 1e12:7.2f} T pairs/s")
    rows = bench_tune(ceil) if args.tune else []
    if "gemm" not in args.skip:
        rows += bench_gemm(ceil, args.sizes, args.baseline_max, args.repeats)
    if "lazy" not in args.skip and not args.quick:
        rows += bench_lazy(ceil, args.repeats)
    if "bool" not in args.skip:
        rows += bench_bool(args.repeats, 4096 if args.quick else 16384)
    if "stream" not in args.skip:
        for n in args.stream_n:
            rows += bench_streamed(ceil, n)
    result = {
        "device": name,
        "ceiling_tops": ceil["float32"] / 1e12,
        "ceilings": ceil,
        "rows": rows,
        "command": "PYTHONPATH=. python3 benchmarks/gemm_gpu.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "cupy": cp.__version__,
        "machine": {**machine(), "gpu": name},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"gemm-gpu-{slug(name)}"
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=2, default=float))
    md = markdown(result)
    (args.out / f"{stem}.md").write_text(md)
    out = os.environ.get("OUT")
    if out:
        (Path(out) / f"{stem}.json").write_text(json.dumps(result, indent=2, default=float))
        (Path(out) / f"{stem}.md").write_text(md)
    print(md)
    return 0 if all(math.isfinite(r["seconds"]) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
