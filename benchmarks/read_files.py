"""Reading graph files: this tree's ``graphs.read`` against an earlier commit's, alternated in one run.

Each round starts one process per tree (the earlier commit extracted with
``git archive`` into a temporary folder), in alternating order, and times
``graphs.read`` of each file after a warm-up (compiled kernels loaded, the
file in the page cache): CPU time (``time.process_time``) and wall time, the
median over every round.  Files: the shared real graphs ``email-Enron.txt``
(SNAP, 367,662 lines) and ``rome99.gr`` (DIMACS, 4,444 arcs) when
``../shared/data`` is present, else a generated SNAP file.

    python3 benchmarks/read_files.py [--against d603f61] [--rounds 6] [--repeats 5]

Writes ``results/read-files-cpu.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import machine, markdown_table, write_results  # noqa: E402

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import graphs
files, reps = sys.argv[2].split(","), int(sys.argv[3])
for f in files:
    graphs.read(f); graphs.read(f)
out = {}
for f in files:
    cpu, wall = [], []
    for _ in range(reps):
        c, w = time.process_time(), time.perf_counter()
        graphs.read(f)
        cpu.append(time.process_time() - c); wall.append(time.perf_counter() - w)
    out[f] = {"cpu": cpu, "wall": wall}
print(json.dumps(out))
"""


def _files(folder: Path) -> list[str]:
    data = ROOT.parent / "shared" / "data"
    names = ["email-Enron.txt", "rome99.gr"]
    if all((data / n).exists() for n in names):
        return [str(data / n) for n in names]
    import numpy as np

    rng = np.random.default_rng(0)
    path = folder / "generated.txt"
    src, dst = rng.integers(0, 40_000, 400_000), rng.integers(0, 40_000, 400_000)
    path.write_text("# generated\n" + "".join(f"{u}\t{v}\n" for u, v in zip(src.tolist(), dst.tolist())))
    return [str(path)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--against", default="d603f61", help="the earlier commit (default d603f61)")
    p.add_argument("--rounds", type=int, default=6, help="process pairs, alternated (default 6)")
    p.add_argument("--repeats", type=int, default=5, help="reads per file per process (default 5)")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        old.mkdir()
        archive = subprocess.run(["git", "archive", a.against, "semiring", "apsp", "graphs"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        files = _files(Path(tmp))
        trees = {"before": str(old), "now": str(ROOT)}
        times = {k: {f: {"cpu": [], "wall": []} for f in files} for k in trees}
        for r in range(a.rounds):
            for k in (("before", "now") if r % 2 == 0 else ("now", "before")):
                out = subprocess.run([sys.executable, "-c", CHILD, trees[k], ",".join(files), str(a.repeats)],
                                     capture_output=True, text=True, check=True, cwd=tmp).stdout
                for f, t in json.loads(out.splitlines()[-1]).items():
                    for kind in ("cpu", "wall"):
                        times[k][f][kind] += t[kind]
    rows, payload = [], {"machine": machine(), "against": a.against, "rounds": a.rounds, "repeats": a.repeats, "files": {}}
    for f in files:
        med = {k: {kind: statistics.median(times[k][f][kind]) for kind in ("cpu", "wall")} for k in trees}
        name = Path(f).name
        payload["files"][name] = {"median_s": med, "times_s": {k: times[k][f] for k in trees}}
        rows.append([name, f"{med['before']['cpu'] * 1e3:.2f}", f"{med['now']['cpu'] * 1e3:.2f}",
                     f"{med['now']['cpu'] / med['before']['cpu']:.3f}", f"{med['before']['wall'] * 1e3:.2f}",
                     f"{med['now']['wall'] * 1e3:.2f}", f"{med['now']['wall'] / med['before']['wall']:.3f}"])
    table = markdown_table(["file", f"CPU ms {a.against}", "CPU ms now", "now / before", f"wall ms {a.against}",
                            "wall ms now", "now / before"], rows)
    m = payload["machine"]
    md = (f"# Reading graph files, before ({a.against}) and now\n\n{m['cpu']} ({m['simd']}; {m['cores']} cores); medians of "
          f"{a.rounds * a.repeats} reads per tree, processes alternated.\n\n{table}\n")
    write_results("read-files-cpu", payload, md)
    print(md)


if __name__ == "__main__":
    main()
