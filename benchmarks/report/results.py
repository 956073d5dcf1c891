"""Reading result files, and naming the machine and date each one came from."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .registry import BENCHMARKS, Suite

RESULTS = BENCHMARKS / "results"
QUICK = RESULTS / "quick"


@dataclass
class Result:
    """One result file: its path, its parsed JSON and the machine record it carries."""

    path: Path
    data: dict

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def stem(self) -> str:
        return self.path.stem

    @property
    def machine(self) -> dict:
        m = self.data.get("machine")
        return m if isinstance(m, dict) else {}

    @property
    def date(self) -> str:
        return str(self.machine.get("date") or "date not recorded")

    @property
    def gpu(self) -> str | None:
        """The GPU's name when the file is from a GPU run (``device`` or ``machine.gpu``), else None."""
        dev = self.data.get("device")
        if dev == "cpu":
            return None
        if dev in (None, "", "gpu"):  # a device kind, not a name: the name is kept beside it
            dev = self.data.get("gpu") or self.machine.get("gpu") or (dev or None)
        count = self.data.get("gpu_count")
        if dev and isinstance(count, int) and count > 1:
            dev = f"{count} x {dev}"
        return str(dev) if dev else None

    def label(self) -> str:
        """Machine and date, e.g. ``AMD EPYC, 2 cores, avx2 avx512f; 2026-11-23 11:28:35``."""
        return f"{machine_label(self.machine, self.gpu)}; {self.date}"


def simd_summary(machine: dict) -> str:
    """The vector extensions that matter to the CPU kernels (avx2, avx512f), or that they were not recorded."""
    flags = machine.get("simd")
    if flags is None:
        return "SIMD flags not recorded"
    words = flags if isinstance(flags, list) else str(flags).split()  # a list in some older files
    have = [f for f in ("avx2", "avx512f") if f in words]
    return " ".join(have) if have else "neither avx2 nor avx512f"


def machine_label(machine: dict, gpu: str | None = None) -> str:
    """``CPU model, cores, SIMD`` or ``GPU name (host: CPU model, cores)``."""
    cpu = machine.get("cpu", "CPU not recorded")
    cores = f"{machine['cores']} cores" if machine.get("cores") else "cores not recorded"
    if gpu:
        return f"GPU {gpu} (host {cpu}, {cores})" if machine else f"GPU {gpu} (host not recorded)"
    return f"{cpu}, {cores}, {simd_summary(machine)}"


def find(suite: Suite, folder: Path) -> tuple[list[Result], list[str]]:
    """The suite's result files in ``folder`` (in pattern order), and the patterns that matched none."""
    found: list[Result] = []
    missing: list[str] = []
    seen: set[Path] = set()
    for pattern in suite.results:
        paths = sorted(p for p in folder.glob(pattern) if p.is_file() and p not in seen)
        if not paths:
            missing.append(pattern)
        for p in paths:
            seen.add(p)
            found.append(load(p))
    return found, missing


def load(path: Path) -> Result:
    """Parse one result file."""
    return Result(path, json.loads(path.read_text()))
