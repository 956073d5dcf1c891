"""The benchmark entry point: README table generated from the committed results, suites registered properly."""

from __future__ import annotations

import ast
import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.report import document, readme, registry, results, runner  # noqa: E402


def test_readme_table_is_generated_from_the_committed_results():
    """README.md's performance table is exactly what ``python -m benchmarks --report-only`` writes."""
    want = readme.table()
    got = readme.current()
    assert got == want, (
        "README.md's performance table differs from the one generated from benchmarks/results/*.json; "
        "run `python -m benchmarks --report-only` (and commit README.md) instead of editing it by hand")


def test_a_stale_table_is_detected(tmp_path):
    """Changing one figure in a result file changes the generated table (so the check above can fail)."""
    folder = tmp_path / "results"
    shutil.copytree(results.RESULTS, folder, ignore=shutil.ignore_patterns("*.png", "plots", "quick"))
    path = folder / "apsp-cpu.json"
    data = json.loads(path.read_text())
    data["transitive_closure"]["seconds"] *= 2
    path.write_text(json.dumps(data))
    assert readme.table(folder) != readme.table()
    text = f"intro\n{readme.START}\nold rows\n{readme.END}\nafter\n"
    new = readme.replace_between_markers(text, readme.table(folder))
    assert new.startswith(f"intro\n{readme.START}\n| what | ours | against | ratio |\n")
    assert new.endswith(f"{readme.END}\nafter\n")
    with pytest.raises(ValueError, match="markers"):
        readme.replace_between_markers("no markers here", "x")


def _main_takes_argv(path: Path) -> bool:
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            return len(node.args.args) >= 1
    return False


@pytest.mark.parametrize("suite", registry.SUITES, ids=[s.name for s in registry.SUITES])
def test_every_suite_has_an_entry_point_or_is_optional(suite):
    if not suite.present:
        assert suite.optional, f"{suite.name}: benchmarks/{suite.script}.py is missing and the suite is not optional"
        return
    assert _main_takes_argv(suite.path), f"benchmarks/{suite.script}.py has no main(argv)"
    if "--quick" in suite.quick_argv:
        assert '"--quick"' in suite.path.read_text(), f"benchmarks/{suite.script}.py has no --quick option"


def test_suite_names_are_unique_and_selectable():
    names = [s.name for s in registry.SUITES]
    assert len(names) == len(set(names))
    assert [s.name for s in registry.by_name(["apsp", "gemm_cpu"])] == ["gemm_cpu", "apsp"]
    with pytest.raises(ValueError, match="nosuch"):
        registry.by_name(["nosuch"])


def test_a_missing_script_is_reported_not_run():
    ghost = registry.Suite("ghost", "no_such_script", "cpu", "nothing", ("ghost-cpu.json",), optional=True)
    out = runner.run_suite(ghost, quick=True)
    assert out.status == "not present"
    assert runner.run([ghost], quick=True, cpu=False)[0].status == "skipped"


def test_report_sections_from_result_files(tmp_path):
    """One section per suite; a missing result file is one line; machine and date in each file's heading."""
    folder = tmp_path / "results"
    folder.mkdir()
    for name in ("apsp-cpu.json", "mst_flow-cpu.json", "single_pair-cpu.json"):
        shutil.copy(results.RESULTS / name, folder / name)
    path = document.write(list(registry.SUITES), folder, with_plots=False)
    text = path.read_text()
    for s in registry.SUITES:
        assert f"## {s.name}: {s.title}" in text
    assert "No result file `einsum-cpu.json` in this folder yet" in text
    assert "### `apsp-cpu.json`: AMD EPYC, 2 cores, avx2 avx512f; 2026-11-23" in text
    assert "### `mst_flow-cpu.json`: AMD EPYC, 2 cores, avx2 avx512f; 2026-11-23" in text
    words = {w.strip(".,:;()`*").lower() for w in text.split()}
    assert not words & {"issue", "issues", "session", "sessions", "bar", "bars"}
