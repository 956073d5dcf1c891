"""Assembling ``REPORT.md``: one section per suite, each result file with its tables and figures."""

from __future__ import annotations

from pathlib import Path

from . import plots, results, tables
from .registry import Suite


def section(suite: Suite, folder: Path, plot_dir: Path | None) -> str:
    """The markdown section of one suite, read from the result files in ``folder``."""
    found, missing = results.find(suite, folder)
    where = "GPU" if suite.device == "gpu" else "CPU"
    out = [f"## {suite.name}: {suite.title}", "",
           f"Script: `benchmarks/{suite.script}.py` ({where}; `{suite.command()}`)"
           + ("" if suite.present else "; not present in this checkout") + "."]
    if suite.notes:
        out += ["", suite.notes]
    out.append("")
    for r in found:
        out += [f"### `{r.name}`: {r.label()}", "", tables.render(suite.layout, r).rstrip(), ""]
        if plot_dir is not None:
            for path, caption in plots.plot(suite.layout, r, plot_dir):
                rel = path.relative_to(folder).as_posix()
                out += [f"![{caption}; {r.label()}]({rel})", ""]
    for pattern in missing:
        why = "" if suite.present else f" (`benchmarks/{suite.script}.py` is not in this checkout)"
        if any(r.path.match(pattern) for r in found):
            continue
        out += [f"No result file `{pattern}` in this folder yet{why}.", ""]
    return "\n".join(out)


def write(suites: list[Suite], folder: Path, quick: bool = False, with_plots: bool = True) -> Path:
    """Write ``folder/REPORT.md`` (figures under ``folder/plots/``, stale ones removed) and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    plot_dir = folder / "plots" if with_plots else None
    if plot_dir is not None and plot_dir.is_dir():
        for old in plot_dir.glob("*.png"):
            old.unlink()
    head = ["# Benchmark report", ""]
    if quick:
        head += ["A `python -m benchmarks --quick` run: small sizes and few repeats, to check that every suite "
                 "works; its figures are not comparable with the full results in `benchmarks/results/`.", ""]
    head += ["Written by `python -m benchmarks` from the JSON result files of this folder "
             "(`python -m benchmarks --report-only` rewrites it, its figures and the README's performance table "
             "without running anything). Each table and figure names the machine (CPU model and SIMD flags, or "
             "the GPU) and the date recorded in its result file; figures are medians of side-by-side runs.", ""]
    index = []
    for s in suites:
        found, _ = results.find(s, folder)
        files = ", ".join(f"`{r.name}`" for r in found) or "none yet"
        index.append([s.name, s.title, f"`{s.script}.py`" + ("" if s.present else " (not present)"), files])
    head.append(tables.table(["suite", "what", "script", "result files"], index))
    body = [section(s, folder, plot_dir) for s in suites]
    text = "\n".join(head) + "\n" + "\n".join(body).rstrip() + "\n"
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    path = folder / "REPORT.md"
    path.write_text(text)
    return path
