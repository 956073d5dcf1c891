"""Start-up time: how long a first call takes, in a fresh process each time.

::

    python3 benchmarks/startup.py                       # this checkout
    python3 benchmarks/startup.py --before /work/main   # and another checkout, alternated in one run
    python3 benchmarks/startup.py --quick               # 3 runs each (results/quick/)

Four commands, each timed as a whole process (wall time of ``subprocess.run``,
interpreter start included), with ``PYTHONPATH`` set to the checkout so that
its packages are the ones imported (checked before timing):

* ``import``: ``python -c "import semiring, apsp, graphs"``;
* ``help``: ``semiring-paths --help``;
* ``bfs`` / ``sssp``: ``semiring-paths bfs FILE`` / ``semiring-paths sssp FILE`` on the
  DIMACS road network of Rome (``../shared/data/rome99.gr``: 3,353 vertices, 4,444 arcs;
  ``--graph`` for another file).

``semiring-paths`` is the console script installed beside this interpreter
(``python -m graphs.cli`` where there is none); the interpreter is
``sys.executable`` itself, not a version manager's shim, whose own start would
be timed too.  Each command runs once to warm up (Numba compiles or loads its
cache, the OS caches the files), then ``--repeats`` times (default 5); with
``--before`` every run of a command alternates between the two checkouts, so a
busy machine slows both alike.  The figure is the median.  Results go to
``results/startup-cpu.json`` and ``.md`` with the CPU and its vector extensions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import machine, markdown_table, set_quick, write_results  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ROME = ROOT.parent / "shared" / "data" / "rome99.gr"


def cli() -> list[str]:
    """The ``semiring-paths`` console script of this interpreter (or ``python -m graphs.cli``)."""
    script = Path(sys.executable).with_name("semiring-paths")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "graphs.cli"]


def commands(graph: Path | None) -> dict[str, list[str]]:
    """The timed commands by name (``bfs`` and ``sssp`` only with a graph file)."""
    out = {"import": [sys.executable, "-c", "import semiring, apsp, graphs"], "help": [*cli(), "--help"]}
    if graph is not None:
        out["bfs"] = [*cli(), "bfs", str(graph)]
        out["sssp"] = [*cli(), "sssp", str(graph)]
    return out


def environment(tree: Path) -> dict[str, str]:
    """The environment a command runs in: this process's, with the checkout ``tree`` first on the path."""
    return {**os.environ, "PYTHONPATH": str(tree)}


def check_tree(tree: Path) -> None:
    """Fail unless a process with :func:`environment` imports the packages from ``tree``."""
    code = "import semiring, apsp, graphs; print(semiring.__file__, apsp.__file__, graphs.__file__)"
    out = subprocess.run([sys.executable, "-c", code], env=environment(tree), cwd=tree, capture_output=True,
                         text=True, check=True).stdout.split()
    bad = [f for f in out if not Path(f).resolve().is_relative_to(tree.resolve())]
    if bad:
        raise SystemExit(f"startup.py: {tree} does not provide the packages (imported {bad})")


def revision(tree: Path) -> str:
    """``tree``'s commit (short hash), with ``+changes`` when its working tree differs from it."""
    git = ["git", "-C", str(tree)]
    try:
        head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+changes" if dirty else "")


def run_once(command: list[str], tree: Path) -> float:
    """Wall time of one run of ``command`` in ``tree`` (its output discarded; a failure stops the benchmark)."""
    t = time.perf_counter()
    done = subprocess.run(command, env=environment(tree), cwd=tree, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"startup.py: {' '.join(command)} failed in {tree}:\n{done.stderr}")
    return seconds


def measure(trees: dict[str, Path], cmds: dict[str, list[str]], repeats: int) -> dict[str, dict[str, list[float]]]:
    """``{tree label: {command: [seconds per run]}}``: one warm-up each, then the runs, trees alternating."""
    times: dict[str, dict[str, list[float]]] = {label: {c: [] for c in cmds} for label in trees}
    for name, command in cmds.items():
        for tree in trees.values():
            run_once(command, tree)  # warm-up: Numba's cache, the OS's file cache
        for _ in range(repeats):
            for label, tree in trees.items():
                times[label][name].append(run_once(command, tree))
    return times


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="another checkout to time alternately (e.g. /work/main)")
    ap.add_argument("--graph", type=Path, default=ROME, help="the graph file of bfs and sssp (default: rome99.gr)")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per command and checkout (default 5)")
    ap.add_argument("--quick", action="store_true", help="3 runs each; results under results/quick/")
    args = ap.parse_args(argv)
    set_quick(args.quick)
    repeats = 3 if args.quick else args.repeats
    graph = args.graph if args.graph.is_file() else None
    if graph is None:
        print(f"startup.py: {args.graph} not found: bfs and sssp are not timed", file=sys.stderr)
    trees = {"after": ROOT} if args.before is None else {"before": args.before.resolve(), "after": ROOT}
    for tree in trees.values():
        check_tree(tree)
    cmds = commands(graph)
    times = measure(trees, cmds, repeats)
    medians = {label: {c: statistics.median(t) for c, t in per.items()} for label, per in times.items()}
    shown = {name: " ".join(Path(a).name if a in (sys.executable, cli()[0]) else a for a in cmd)
             for name, cmd in cmds.items()}
    payload = {
        "benchmark": "startup",
        "machine": machine(),
        "repeats": repeats,
        "warmup": 1,
        "trees": {label: {"path": str(tree), "commit": revision(tree)} for label, tree in trees.items()},
        "commands": {name: " ".join(cmd) for name, cmd in cmds.items()},
        "median_s": medians,
        "times_s": times,
    }
    m = payload["machine"]
    header = ["command", *(f"{label} (s)" for label in trees)] + (["after / before"] if args.before else [])
    rows = []
    for name in cmds:
        row = [f"`{shown[name]}`", *(f"{medians[label][name]:.3f}" for label in trees)]
        if args.before:
            row.append(f"{medians['after'][name] / medians['before'][name]:.2f}")
        rows.append(row)
    md = (f"# Start-up time\n\n{m['cpu']} ({m['simd']}), {m['cores']} cores, Python {m['python']}, {m['date']}.\n"
          f"Whole processes (interpreter start included), median of {repeats} runs after 1 warm-up"
          + (", the two checkouts alternating" if args.before else "") + ".\n"
          + "".join(f"\n- {label}: `{tree}` at {revision(tree)}" for label, tree in trees.items()) + "\n\n"
          + markdown_table(header, rows))
    json_path, md_path = write_results("startup-cpu", payload, md)
    print(md)
    print(f"wrote {json_path} and {md_path}")
    return payload


if __name__ == "__main__":
    main()
