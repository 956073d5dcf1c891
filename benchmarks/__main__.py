"""``python -m benchmarks``: run the benchmark suites, then write REPORT.md, its figures and the README table.

Run from the repository root::

    python -m benchmarks                 # every CPU suite here, and the GPU suites where CuPy sees a GPU
    python -m benchmarks --quick         # small sizes, few repeats (results/quick/, REPORT.md there too)
    python -m benchmarks --cpu-only      # or --gpu-only
    python -m benchmarks --only gemm_cpu apsp
    python -m benchmarks --report-only   # no runs: REPORT.md, figures and README table from the results
    python -m benchmarks --list          # the suites and whether their scripts are present

A full run (not ``--quick``) rewrites ``benchmarks/results/REPORT.md``, ``results/plots/`` and
the README's performance table; a ``--quick`` run writes only under ``results/quick/``.
"""

from __future__ import annotations

import argparse
import sys
import time

from .report import document, readme, registry, runner
from .report.results import QUICK, RESULTS


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="suites: " + ", ".join(s.name for s in registry.SUITES))
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats; results under results/quick/")
    dev = ap.add_mutually_exclusive_group()
    dev.add_argument("--cpu-only", action="store_true", help="run the CPU suites only")
    dev.add_argument("--gpu-only", action="store_true", help="run the GPU suites only")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run these suites only")
    ap.add_argument("--report-only", action="store_true",
                    help="run nothing: rewrite REPORT.md, its figures and the README table from the results")
    ap.add_argument("--no-plots", action="store_true", help="write REPORT.md without figures")
    ap.add_argument("--list", action="store_true", help="list the suites and exit")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    try:
        chosen = registry.by_name(args.only)
    except ValueError as e:
        print(f"python -m benchmarks: {e}", file=sys.stderr)
        return 2
    if args.list:
        for s in registry.SUITES:
            state = "present" if s.present else ("not present (optional)" if s.optional else "MISSING")
            print(f"{s.name:<14} {s.device}  {s.command():<52} {state}")
        return 0
    folder = QUICK if args.quick else RESULTS
    failed = False
    if not args.report_only:
        t0 = time.perf_counter()
        outcomes = runner.run(chosen, args.quick, cpu=not args.gpu_only, gpu=not args.cpu_only)
        print(f"\nSuites ({'quick' if args.quick else 'full'} run, {time.perf_counter() - t0:.1f} s in all):")
        print(runner.summary(outcomes))
        failed = any(o.status == "failed" for o in outcomes)
    report = document.write(list(registry.SUITES), folder, quick=args.quick, with_plots=not args.no_plots)
    print(f"wrote {report}")
    if not args.quick:
        changed = readme.write()
        print(f"README performance table {'rewritten' if changed else 'unchanged'} ({readme.README})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
