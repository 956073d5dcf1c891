"""Shared helpers for the benchmark scripts: timing, machine description, result files."""

from __future__ import annotations

import gc
import json
import logging
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
#: Where ``--quick`` runs write, so that a short run never overwrites the full results.
QUICK_RESULTS = RESULTS / "quick"
_quick = False


def set_quick(quick: bool) -> None:
    """Send this process's result files to ``results/quick/`` (``True``) or ``results/`` (``False``)."""
    global _quick
    _quick = bool(quick)


def results_dir() -> Path:
    """The folder result files go to: ``results/quick/`` after ``set_quick(True)``, else ``results/``."""
    return QUICK_RESULTS if _quick else RESULTS


def median_time(fn: Callable[[], object], repeats: int = 5, warmup: int = 1, budget_s: float = 60.0,
                collect: bool = False) -> float:
    """Median wall time of ``fn()`` over ``repeats`` runs after ``warmup`` runs (fewer if slow).

    ``collect``: each run starts from a collected heap (``gc.collect()``, not timed).
    """
    for _ in range(warmup):
        fn()
    times: list[float] = []
    start = time.perf_counter()
    for _ in range(repeats):
        if collect:
            gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        if time.perf_counter() - start > budget_s:
            break
    return statistics.median(times)


def cpu_name() -> str:
    """A short description of this machine's CPU."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def simd_flags() -> str:
    """This CPU's vector extensions (from /proc/cpuinfo), e.g. ``"fma avx avx2 avx512f avx512bw"``."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                keep = ("sse4_2", "fma", "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512_vnni")
                return " ".join(f for f in line.split(":", 1)[1].split() if f in keep)
    except OSError:
        pass
    return ""


def machine() -> dict:
    """Machine facts recorded with every result."""
    return {
        "cpu": cpu_name(),
        "simd": simd_flags(),
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def gpu_kind(name: str) -> str:
    """The short name of a GPU in result file names: ``"h100"``, ``"h200"``, else ``"gpu"``.

    >>> gpu_kind("NVIDIA H100 80GB HBM3"), gpu_kind("NVIDIA H200"), gpu_kind("Tesla T4")
    ('h100', 'h200', 'gpu')
    """
    return "h200" if "H200" in name else "h100" if "H100" in name else "gpu"


def write_results(stem: str, payload: dict, table_md: str) -> tuple[Path, Path]:
    """Write ``<stem>.json`` and ``<stem>.md`` under :func:`results_dir` (and $OUT if set too).

    Each file appears whole or not at all (:mod:`graphs.atomic_file`): an interrupted benchmark
    leaves the previous results.
    """
    from graphs.atomic_file import atomic_path

    paths = []
    for folder in [results_dir()] + ([Path(os.environ["OUT"])] if os.environ.get("OUT") else []):
        folder.mkdir(parents=True, exist_ok=True)
        j = folder / f"{stem}.json"
        m = folder / f"{stem}.md"
        for target, text in ((j, json.dumps(payload, indent=2) + "\n"), (m, table_md)):
            with atomic_path(target) as tmp:
                tmp.write_text(text)
        paths.append((j, m))
    return paths[0]


def markdown_table(header: list[str], rows: list[list[object]]) -> str:
    """A GitHub markdown table."""
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def gpu_time(fn: Callable[[], object], repeats: int = 5, warmup: int = 1) -> float:
    """Median seconds of ``fn()`` by CUDA events on the current stream (after ``warmup`` calls)."""
    import cupy as cp

    for _ in range(warmup):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeats):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    return statistics.median(times)


def interleaved_gpu_times(fns: list[Callable[[], object]], repeats: int = 30) -> list[float]:
    """Median seconds of each of ``fns`` (CUDA events), timed in turn round after round.

    Interleaving puts every contender under the same clocks and memory state, so
    their ratio is steadier than that of two back-to-back medians.
    """
    import cupy as cp

    for fn in fns:
        for _ in range(3):
            fn()
    cp.cuda.Device().synchronize()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for k, fn in enumerate(fns):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            times[k].append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    return [statistics.median(t) for t in times]


class DebugLines(logging.Handler):
    """Within ``with``: the debug lines of logger ``name`` in ``.lines`` (e.g. a GPU driver's batches, rounds
    and waves); the logger's level is put back on exit."""

    def __init__(self, name: str) -> None:
        super().__init__(logging.DEBUG)
        self.logger, self.lines, self.level0 = logging.getLogger(name), [], None

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def __enter__(self):
        self.level0 = self.logger.level
        self.logger.setLevel(logging.DEBUG)
        self.logger.addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        self.logger.removeHandler(self)
        self.logger.setLevel(self.level0)
