"""Running suites in this process, through each script's ``main(argv)``."""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from dataclasses import dataclass

from .registry import Suite


@dataclass
class Outcome:
    """What became of one suite: ``status`` is ``ran``, ``failed``, ``not present`` or ``skipped``."""

    suite: Suite
    status: str
    seconds: float = 0.0
    detail: str = ""


def gpu_present() -> bool:
    """Whether CuPy is importable and sees a CUDA device."""
    from semiring.backend import gpu_available

    return gpu_available()


def _load_packages() -> None:
    """Import the library's packages before any script: ``benchmarks/apsp.py`` must never shadow ``apsp``."""
    import apsp  # noqa: F401
    import graphs  # noqa: F401
    import semiring  # noqa: F401


def run_suite(suite: Suite, quick: bool) -> Outcome:
    """Import the suite's script as ``benchmarks.<script>`` and call its ``main(argv)``; time it."""
    if not suite.present:
        return Outcome(suite, "not present", detail=f"benchmarks/{suite.script}.py is not in this checkout")
    _load_packages()
    argv = list(suite.quick_argv if quick else suite.argv)
    print(f"== {suite.name}: {suite.command(quick)}", flush=True)
    path_before = list(sys.path)
    t0 = time.perf_counter()
    try:
        module = importlib.import_module(f"benchmarks.{suite.script}")
        code = module.main(argv)
    except SystemExit as e:  # argparse errors and scripts that exit
        code = e.code
    except Exception:
        traceback.print_exc()
        return Outcome(suite, "failed", time.perf_counter() - t0, "raised an exception (traceback above)")
    finally:
        sys.path[:] = path_before
    seconds = time.perf_counter() - t0
    if code not in (None, 0):
        return Outcome(suite, "failed", seconds, f"exit status {code}")
    return Outcome(suite, "ran", seconds)


def run(suites: list[Suite], quick: bool, cpu: bool = True, gpu: bool = True) -> list[Outcome]:
    """Run ``suites`` in order: the CPU ones if ``cpu``, the GPU ones if ``gpu`` and a GPU is present."""
    has_gpu = gpu and any(s.device == "gpu" for s in suites) and gpu_present()
    out = []
    for s in suites:
        if s.device == "cpu" and not cpu:
            out.append(Outcome(s, "skipped", detail="CPU suites not selected"))
        elif s.device == "gpu" and not gpu:
            out.append(Outcome(s, "skipped", detail="GPU suites not selected"))
        elif s.device == "gpu" and not has_gpu:
            out.append(Outcome(s, "skipped", detail="no GPU here (CuPy missing or no device visible)"))
        else:
            out.append(run_suite(s, quick))
            print(f"== {s.name}: {out[-1].status} in {out[-1].seconds:.1f} s", flush=True)
    return out


def summary(outcomes: list[Outcome]) -> str:
    """A plain-text account of a run, one line per suite."""
    width = max(len(o.suite.name) for o in outcomes)
    lines = []
    for o in outcomes:
        t = f"{o.seconds:7.1f} s" if o.status in ("ran", "failed") else " " * 9
        lines.append(f"{o.suite.name:<{width}}  {o.status:<11} {t}  {o.detail}".rstrip())
    return "\n".join(lines)
