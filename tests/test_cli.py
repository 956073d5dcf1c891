"""The ``semiring-paths`` command line: the main job, its check against SciPy, and bad input."""

from __future__ import annotations

import errno
import gzip
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse.csgraph import breadth_first_order, connected_components, dijkstra

import apsp
import graphs
from graphs.cli import _common, build_parser, main
from semiring.backend import gpu_available

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def test_default_job_checks_against_scipy(capsys):
    assert main(["apsp", "--n", "250", "--seed", "3", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "road_network(n=250, seed=3): 250 vertices" in out
    assert "match (max |diff| = 0)" in out


def test_graph_file_and_output(tmp_path, capsys):
    f = tmp_path / "g.gr"
    f.write_text("c tiny\np sp 4 5\na 1 2 3\na 2 3 -1\na 3 1 2\na 3 4 7\na 1 4 20\n")
    out_file = tmp_path / "D.npy"
    assert main(["apsp", str(f), "--device", "cpu", "--dtype", "int64", "--out", str(out_file)]) == 0
    D = np.load(out_file)
    assert D.dtype == np.int64 and D[0, 3] == 9 and D[1, 0] == 1
    assert "4 vertices, 5 edges" in capsys.readouterr().out


def test_bad_input_exits_2_with_the_line(tmp_path, capsys):
    f = tmp_path / "bad.gr"
    f.write_text("p sp 3 2\na 1 2 5\na 2 x 1\n")
    assert main(["apsp", str(f), "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "line 3" in err


def test_negative_cycle_exits_2_naming_a_vertex(tmp_path, capsys):
    f = tmp_path / "neg.gr"
    f.write_text("p sp 3 3\na 1 2 1\na 2 3 -4\na 3 1 1\n")
    assert main(["apsp", str(f), "--device", "cpu"]) == 2
    assert "negative cycle through vertex" in capsys.readouterr().err


@pytest.mark.skipif(not (DATA / "rome99.gr").exists(), reason="shared data not present")
def test_real_road_network(capsys):
    assert main(["apsp", str(DATA / "rome99.gr"), "--device", "cpu", "--check-rows", "4"]) == 0
    assert "3,353 vertices" in capsys.readouterr().out


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs CuPy and a CUDA GPU")
def test_default_job_on_the_gpu(capsys):
    assert main(["apsp", "--n", "1500", "--device", "gpu"]) == 0
    out = capsys.readouterr().out
    assert "on gpu" in out and "match" in out


# -- every subcommand: generated default, real files, --json, --format, numbering, exit codes -------------------
SUBCOMMANDS = ["apsp", "sssp", "matrix", "path", "paths", "bfs", "components", "mst", "flow", "centrality"]


def _json(capsys, argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_help_lists_every_subcommand_and_the_exit_codes(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name in SUBCOMMANDS:
        assert name in out
    assert "0-based" in out and "3  an optional dependency" in out and "130  interrupted" in out
    assert "not enough memory" in out


def test_apsp_help_explains_the_methods(capsys):
    with pytest.raises(SystemExit):
        main(["apsp", "--help"])
    out = capsys.readouterr().out
    assert "rkleene = recursive Kleene" in out and "slow reference for checking" in out
    for name in apsp.methods.single_buffer_methods():  # every method of the table, with its summary
        assert f"{name} = {apsp.methods.TABLE[name].summary.split(':')[0]}" in " ".join(out.split())


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"semiring-paths {graphs.__version__}"


@pytest.mark.parametrize("command", SUBCOMMANDS[1:])
def test_each_subcommand_on_the_generated_default(command, capsys):
    argv = [command, "--n", "150", "--seed", "2"] + (["--device", "cpu"] if command != "path" else [])
    if command == "flow":
        argv += ["--target", "77"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "road_network(n=150, seed=2)" in out and "0-based vertex ids" in out


def test_sssp_json_matches_scipy(capsys):
    G = graphs.generators.road_network(150, seed=2)
    ref = dijkstra(G.to_scipy(), indices=7)
    r = _json(capsys, ["sssp", "--n", "150", "--seed", "2", "--source", "7", "--all", "--device", "cpu"])
    assert r["command"] == "sssp" and r["source"] == 7 and r["reached"] == 150
    np.testing.assert_array_equal(np.array(r["all"]["distance"], dtype=float), ref)
    assert r["farthest"]["distance"] == ref.max() and r["farthest"]["vertex"] == int(np.argmax(ref))


def test_path_json_matches_scipy_and_defaults_to_the_last_vertex(capsys):
    G = graphs.generators.road_network(150, seed=2)
    ref = dijkstra(G.to_scipy(), indices=3)
    r = _json(capsys, ["path", "--n", "150", "--seed", "2", "--source", "3"])
    assert r["target"] == 149 and r["distance"] == ref[149]
    assert r["route"][0] == 3 and r["route"][-1] == 149


def test_bfs_and_components_json(capsys):
    G = graphs.generators.road_network(150, seed=2)
    r = _json(capsys, ["bfs", "--n", "150", "--seed", "2", "--device", "cpu", "--all"])
    assert sum(r["levels"]) == 150 and r["all"]["level"][0] == 0
    assert set(breadth_first_order(G.to_scipy(), 0, return_predecessors=False)) == set(range(150))
    r = _json(capsys, ["components", "--n", "150", "--seed", "2", "--device", "cpu"])
    assert r["count"] == 1 and r["components"] == [{"component": 0, "size": 150, "smallest_vertex": 0}]


def test_mst_and_flow_json_match_scipy(capsys):
    from scipy.sparse.csgraph import maximum_flow, minimum_spanning_tree

    G = graphs.generators.road_network(150, seed=2)
    A = G.to_scipy()
    r = _json(capsys, ["mst", "--n", "150", "--seed", "2", "--device", "cpu"])
    assert r["weight"] == pytest.approx(minimum_spanning_tree(A).sum(), rel=1e-12)
    assert r["components"] == 1 and r["edges_in_forest"] == 149 == len(r["forest"])
    ref = maximum_flow(sp_csr(G, np.int32), 3, 77).flow_value
    r = _json(capsys, ["flow", "--n", "150", "--seed", "2", "--source", "3", "--target", "77", "--device", "cpu"])
    assert r["flow_value"] == ref and r["source"] == 3 and r["target"] == 77
    assert sum(1 for _ in r["cut"]) >= 1


def sp_csr(G, dtype):
    """SciPy's maximum_flow wants integer capacities: the graph's (integral) weights as ``dtype``."""
    import scipy.sparse as sp

    A = G.to_scipy()
    assert np.all(A.data == np.round(A.data))
    return sp.csr_array((A.data.astype(dtype), A.indices, A.indptr), shape=A.shape)


def test_apsp_json_is_one_object_of_numbers(capsys):
    r = _json(capsys, ["apsp", "--n", "120", "--device", "cpu"])
    assert r["command"] == "apsp" and r["status"] == 0 and r["graph"] == "road_network(n=120, seed=0)"
    assert "" not in r and all(k for k in r["plan"])  # meaningful keys, none empty
    assert (r["vertices"], r["pairs"], r["connected_pairs"]) == (120, 14400, 14400)
    assert isinstance(r["edges"], int) and r["weighted"] is True and r["directed"] is True
    for key in ("read_s", "time_s", "min_plus_per_s"):
        assert isinstance(r[key], float) and r[key] > 0, key
    assert r["to_device_s"] is None and r["to_host_s"] is None and r["out"] is None
    plan = r["plan"]
    assert (plan["route"], plan["method"], plan["device"], plan["dtype"]) == ("dense", "rkleene", "cpu", "float32")
    assert plan["result_bytes"] == 120 * 120 * 4 and isinstance(plan["peak_host_bytes"], int)
    assert isinstance(plan["estimated_s"], float) and plan["peak_device_bytes"] == 0
    assert r["check"] == {"requested_rows": 8, "rows": 8, "note": None, "max_abs_diff": 0.0, "tolerance": 1e-9,
                          "match": True}
    assert (r["method"], r["route"], r["dtype"], r["device"]) == ("rkleene", "dense", "float32", "cpu")


def test_apsp_json_of_the_sparse_route_and_a_failed_check(tmp_path, monkeypatch, capsys):
    import graphs.cli.apsp as cli_apsp

    f = tmp_path / "path.txt"
    f.write_text("".join(f"{i}\t{i + 1}\n" for i in range(99)))
    monkeypatch.setattr(cli_apsp, "_check", lambda G, D, rows: 5.0)  # SciPy disagrees
    assert main(["apsp", str(f), "--device", "cpu", "--json", "--check-rows", "3"]) == 1
    r = json.loads(capsys.readouterr().out)
    assert r["status"] == 1 and r["check"]["match"] is False and r["check"]["max_abs_diff"] == 5.0
    assert r["check"]["rows"] == 3 and isinstance(r.get("arcs_per_s", r.get("min_plus_per_s")), float)


@pytest.mark.skipif(not (DATA / "rome99.gr").exists(), reason="shared data not present")
def test_real_dimacs_file_every_vertex_subcommand(capsys):
    G = graphs.read(DATA / "rome99.gr")
    A = G.to_scipy()
    ref = dijkstra(A, indices=0)
    r = _json(capsys, ["sssp", str(DATA / "rome99.gr"), "--device", "cpu"])
    assert r["numbering"] == "0-based vertex ids (file id k is vertex k-1)"
    assert r["reached"] == int(np.isfinite(ref).sum()) == 3353 - 1840
    r = _json(capsys, ["path", str(DATA / "rome99.gr"), "--source", "1", "--target", "3353", "--one-based"])
    ref1 = dijkstra(A, indices=0)
    assert r["distance"] == ref1[3352] and r["route"][0] == 1 and r["route"][-1] == 3353
    assert r["numbering"] == "1-based vertex ids (as in the file)"
    r = _json(capsys, ["bfs", str(DATA / "rome99.gr"), "--device", "cpu"])
    assert sum(r["levels"]) == r["reached"] == int(np.isfinite(ref).sum())
    r = _json(capsys, ["components", str(DATA / "rome99.gr"), "--connection", "strong", "--device", "cpu"])
    assert r["count"] == connected_components(A, directed=True, connection="strong")[0]
    from scipy.sparse.csgraph import maximum_flow, minimum_spanning_tree

    r = _json(capsys, ["mst", str(DATA / "rome99.gr"), "--device", "cpu"])
    assert r["weight"] == minimum_spanning_tree(A).sum()  # integer metres: exact
    r = _json(capsys, ["flow", str(DATA / "rome99.gr"), "--source", "0", "--target", "100", "--device", "cpu"])
    assert r["flow_value"] == maximum_flow(sp_csr(G, np.int32), 0, 100).flow_value


@pytest.mark.skipif(not (DATA / "email-Enron.txt").exists(), reason="shared data not present")
def test_real_snap_file(capsys):
    G = graphs.read(DATA / "email-Enron.txt")
    r = _json(capsys, ["components", str(DATA / "email-Enron.txt"), "--device", "cpu"])
    count, labels = connected_components(G.to_scipy(), directed=True, connection="weak")
    assert r["count"] == count and r["largest"] == np.bincount(labels).max()
    s = int(np.argmax(np.diff(G.indptr)))  # the busiest sender
    hops = dijkstra(G.to_scipy(), unweighted=True, indices=s)
    t = int(np.argmax(np.where(np.isinf(hops), -1, hops)))  # the farthest reachable vertex
    r = _json(capsys, ["path", str(DATA / "email-Enron.txt"), "--source", str(s), "--target", str(t)])
    assert r["method"] == "bfs" and r["distance"] == hops[t] > 1 and len(r["route"]) == hops[t] + 1


def test_format_for_files_without_a_known_extension(tmp_path, capsys):
    f = tmp_path / "roads.data"
    f.write_bytes(gzip.compress(b"c tiny\np sp 3 2\na 1 2 4\na 2 3 5\n"))
    f = f.rename(tmp_path / "roads.data.gz")
    assert main(["path", str(f), "--source", "0", "--target", "2"]) == 2
    err = capsys.readouterr().err
    assert "cannot tell the format from the extension '.data'" in err and len(err.strip().splitlines()) == 1
    r = _json(capsys, ["path", str(f), "--format", "dimacs", "--source", "0", "--target", "2"])
    assert r["distance"] == 9.0 and r["route"] == [0, 1, 2]
    assert r["numbering"] == "0-based vertex ids (file id k is vertex k-1)"


def test_unreachable_target_and_bad_vertex(tmp_path, capsys):
    f = tmp_path / "g.gr"
    f.write_text("p sp 3 1\na 1 2 4\n")
    r = _json(capsys, ["path", str(f), "--source", "0", "--target", "2"])
    assert r["distance"] is None and r["route"] is None
    assert main(["path", str(f), "--source", "0", "--target", "2"]) == 0
    assert "inf: vertex 2 cannot be reached from vertex 0" in capsys.readouterr().out
    assert main(["sssp", str(f), "--source", "3", "--device", "cpu"]) == 2
    assert "--source 3 is not a vertex: 0-based vertex ids (file id k is vertex k-1) run from 0 to 2" \
        in capsys.readouterr().err
    assert main(["sssp", str(f), "--source", "0", "--one-based", "--device", "cpu"]) == 2
    assert main(["sssp", str(f), "--source", "1", "--all", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "1       0.0            -" in out and "2       inf            -" in out


@pytest.mark.parametrize("command", [c for c in SUBCOMMANDS if c != "path"])  # path runs on the CPU
def test_gpu_without_cupy_names_the_extra_and_exits_3(command, monkeypatch, capsys):
    monkeypatch.setattr(_common, "cupy_installed", lambda: False)
    assert main([command, "--n", "50", "--device", "gpu"]) == 3
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and 'pip install "semiring-paths[cuda]"' in lines[0]
    assert "Traceback" not in captured.err and captured.out == ""


def test_auto_device_without_cupy_runs_on_the_cpu(monkeypatch, capsys):
    monkeypatch.setattr(_common, "cupy_installed", lambda: False)
    r = _json(capsys, ["bfs", "--n", "50"])
    assert r["device"] == "cpu"


def test_parser_has_no_placeholder_subcommands():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert sorted(sub.choices) == sorted(SUBCOMMANDS)


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs CuPy and a CUDA GPU")
@pytest.mark.parametrize("command", ["sssp", "bfs", "components"])
def test_subcommands_on_the_gpu_agree_with_the_cpu(command, capsys):
    argv = [command, "--n", "2000", "--seed", "4", "--all"]
    gpu = _json(capsys, [*argv, "--device", "gpu"])
    cpu = _json(capsys, [*argv, "--device", "cpu"])
    assert gpu["device"] == "gpu" and cpu["device"] == "cpu"
    for key in ("reached", "farthest", "levels", "count", "components"):
        assert gpu.get(key) == cpu.get(key)
    if command == "sssp":
        assert gpu["all"]["distance"] == cpu["all"]["distance"]
    if command == "bfs":
        assert gpu["all"]["level"] == cpu["all"]["level"]

def test_apsp_prints_the_plan_before_running(capsys):
    assert main(["apsp", "--n", "200", "--seed", "2", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert out.index("plan      dense rkleene on cpu, float32") < out.index("time ")  # exact: integer weights
    assert "(dense route)" in out


def test_apsp_refuses_at_once_when_nothing_fits(monkeypatch, capsys):
    import apsp.planner

    monkeypatch.setattr(apsp.planner, "memory_limits", lambda: {"available": 2**16})

    def no_closure(*args, **kwargs):
        raise AssertionError("a refused job must not start the closure")

    monkeypatch.setattr(apsp, "shortest_paths", no_closure)  # "at once": refused before any closure runs
    monkeypatch.setattr(graphs, "all_pairs_shortest_paths", no_closure)
    assert main(["apsp", "--n", "400", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "does not fit" in err and "alternatives:" in err and "open_memmap" in err


def test_apsp_sparse_route_writes_the_out_file(tmp_path, monkeypatch, capsys):
    import apsp.planner

    f = tmp_path / "path.txt"
    n = 1500
    f.write_text("".join(f"{i}\t{i + 1}\n" for i in range(n - 1)))  # a SNAP edge list: unweighted
    monkeypatch.setattr(apsp.planner, "memory_limits", lambda: {"available": n * n * 4})  # dense won't fit
    out_file = tmp_path / "D.npy"
    assert main(["apsp", str(f), "--device", "cpu", "--out", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "plan      sparse bfs on cpu, float32" in out and "match" in out
    D = np.load(out_file, mmap_mode="r")
    assert D.dtype == np.float32 and D[0, n - 1] == n - 1 and np.isinf(D[n - 1, 0])


# -- every failure is one message and an exit status, never a traceback -------------------------------------------
def _argv(command, *extra):
    """``command`` on the generated graph (or a file in ``extra``), with the options it needs."""
    argv = [command, *extra]
    if command != "path":
        argv += ["--device", "cpu"]
    return argv


def _fails(capsys, argv, status):
    """Run ``argv``; it must exit with ``status`` and print one message (no traceback) on stderr only."""
    assert main(argv) == status
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""
    return captured.err.strip()


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_bad_files_and_options_exit_2_with_one_line(command, tmp_path, capsys):
    err = _fails(capsys, _argv(command, str(tmp_path / "missing.gr")), 2)
    assert err == f"semiring-paths: error: cannot open '{tmp_path / 'missing.gr'}': No such file or directory"
    err = _fails(capsys, _argv(command, str(tmp_path), "--format", "dimacs"), 2)
    assert err.endswith("Is a directory")
    bad = tmp_path / "bad.gr"
    bad.write_text("p sp 3 2\na 1 2 5\na 2 x 1\n")
    assert "line 3" in _fails(capsys, _argv(command, str(bad)), 2)
    assert "--n must be at least 1, got 0" in _fails(capsys, _argv(command, "--n", "0"), 2)
    assert "--seed must be >= 0, got -3" in _fails(capsys, _argv(command, "--seed", "-3"), 2)
    err = _fails(capsys, _argv(command, "--n", str(10**12)), 2)
    assert "generating this road network takes about" in err and "this process may use" in err


def _array_memory_error():
    from numpy._core._exceptions import _ArrayMemoryError

    return _ArrayMemoryError((36692, 36692), np.dtype(np.float32))


FAILURES = [  # (exception raised inside the job, exit status, what the message says)
    (_array_memory_error, 2, "not enough memory: Unable to allocate 5.02 GiB"),
    (MemoryError, 2, "not enough memory: an allocation failed; this process may use"),
    (lambda: ImportError("libopenblas.so: failed to map segment from shared object"), 2,
     "not enough memory: a library could not be loaded"),
    (lambda: OSError(errno.ENOMEM, "Cannot allocate memory"), 2, "not enough memory: [Errno 12]"),
    (lambda: RuntimeError("QH6016 qhull error: insufficient memory to project 30000000 points\nWhile ..."), 2,
     "not enough memory: QH6016 qhull error: insufficient memory"),
    (lambda: OSError(errno.ENOSPC, "No space left on device", "D.npy"), 2, "no space left on the device writing D.npy"),
    (lambda: apsp.PlanError("the all-pairs result does not fit"), 2, "error: the all-pairs result does not fit"),
    (lambda: apsp.NegativeCycleError("negative cycle through vertex 4"), 2, "negative cycle through vertex 4"),
    (lambda: ModuleNotFoundError("No module named 'cupy'", name="cupy"), 3, 'pip install "semiring-paths[cuda]"'),
    (lambda: ModuleNotFoundError("No module named 'numba'", name="numba"), 3, "a module is missing"),
    (lambda: ImportError("libcudart.so.12: cannot open shared object file"), 3, "a library could not be loaded"),
    (KeyboardInterrupt, 130, "semiring-paths: interrupted"),
]


@pytest.mark.parametrize("make, status, message", FAILURES, ids=lambda x: getattr(x, "__name__", str(x))[:24])
@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_failure_maps_to_a_status_and_one_message(command, make, status, message, monkeypatch, capsys):
    import graphs.generators

    def fail(*args, **kwargs):
        raise make()

    monkeypatch.setattr(graphs.generators, "road_network", fail)
    err = _fails(capsys, _argv(command, "--n", "50"), status)
    assert message in err and err.startswith("semiring-paths: ")
    if status == 2 and "memory" in message:
        assert "GiB more now (" in err  # names the limit that binds


def test_a_failure_in_the_middle_of_apsp_is_mapped_too(monkeypatch, capsys):
    def fail(*args, **kwargs):
        raise _array_memory_error()

    monkeypatch.setattr(graphs, "all_pairs_shortest_paths", fail)
    assert main(["apsp", "--n", "200", "--device", "cpu"]) == 2
    captured = capsys.readouterr()
    assert "plan      dense" in captured.out and "Traceback" not in captured.err
    assert "not enough memory: Unable to allocate 5.02 GiB" in captured.err


def test_a_closed_output_pipe_exits_quietly(monkeypatch, capsys):
    import graphs.cli.bfs as cli_bfs

    def fail(*args, **kwargs):
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(cli_bfs, "start", fail)
    assert main(["bfs", "--n", "50", "--device", "cpu"]) == _common.PIPE_CLOSED
    assert capsys.readouterr().err == ""


def test_a_bug_keeps_its_traceback(monkeypatch):
    import graphs.generators

    monkeypatch.setattr(graphs.generators, "road_network", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        main(["bfs", "--n", "50", "--device", "cpu"])


def test_apsp_bad_options(tmp_path, capsys):
    assert "--check-rows must be >= 0, got -1" in _fails(capsys, ["apsp", "--n", "50", "--check-rows", "-1"], 2)
    err = _fails(capsys, ["apsp", "--n", "50", "--device", "cpu", "--out", str(tmp_path / "no" / "D.npy")], 2)
    assert err.startswith("semiring-paths: error: cannot open") and "No such file or directory" in err
    f = tmp_path / "neg.gr"
    f.write_text("p sp 3 3\na 1 2 1\na 2 3 -4\na 3 1 1\n")
    for command in ("sssp", "path"):  # a negative cycle is bad input everywhere
        argv = [command, str(f), "--source", "0", "--target", "2"] if command == "path" else \
            [command, str(f), "--method", "bellman-ford", "--device", "cpu"]
        assert "negative cycle" in _fails(capsys, argv, 2)


# -- the check against SciPy is planned in the same budget --------------------------------------------------------
def _budget_for(monkeypatch, usable):
    import apsp.planner

    monkeypatch.setattr(apsp.planner, "memory_limits",
                        lambda: {"available": int(usable / apsp.planner.HOST_HEADROOM) + 1})


def test_apsp_checks_fewer_rows_when_all_would_not_fit(monkeypatch, capsys):
    from apsp.planner import dense_bytes
    from graphs.cli.apsp import check_bytes

    G = graphs.generators.road_network(300, seed=0)
    run = dense_bytes(300, np.float32, False, "rkleene")
    _budget_for(monkeypatch, run + check_bytes(300, G.nnz, 3))
    r = _json(capsys, ["apsp", "--n", "300", "--method", "rkleene", "--device", "cpu"])
    assert r["status"] == 0 and r["check"]["rows"] == 3 and r["check"]["requested_rows"] == 8
    assert r["check"]["match"] is True and r["check"]["note"].startswith("3 of 8 rows checked: the check against SciPy")
    assert main(["apsp", "--n", "300", "--method", "rkleene", "--device", "cpu"]) == 0
    assert "check     3 sampled rows vs scipy.sparse.csgraph: match (max |diff| = 0); 3 of 8 rows checked" in \
        capsys.readouterr().out


def test_apsp_skips_the_check_when_no_row_fits_and_says_so(monkeypatch, capsys):
    from apsp.planner import dense_bytes

    _budget_for(monkeypatch, dense_bytes(300, np.float32, False, "rkleene") + 1000)
    assert main(["apsp", "--n", "300", "--method", "rkleene", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "check     skipped: the check against SciPy needs" in out and "match" not in out
    r = _json(capsys, ["apsp", "--n", "300", "--method", "rkleene", "--device", "cpu"])
    assert r["check"]["rows"] == 0 and "match" not in r["check"] and r["check"]["note"].startswith("skipped")
    r = _json(capsys, ["apsp", "--n", "300", "--method", "rkleene", "--device", "cpu", "--check-rows", "0"])
    assert r["check"] == {"requested_rows": 0, "rows": 0, "note": None}


# -- under a real address-space limit (ulimit -v), in a subprocess -------------------------------------------------
def _limited(limit_kib: int, *argv: str, cwd=None) -> subprocess.CompletedProcess:
    exe = shutil.which("semiring-paths")
    cmd = shlex.quote(exe) if exe else f"{shlex.quote(sys.executable)} -m graphs.cli"
    script = f"ulimit -v {limit_kib}; exec {cmd} {' '.join(shlex.quote(a) for a in argv)}"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300, cwd=cwd)


needs_ulimit = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("bash") is None,
                                  reason="needs Linux and bash (ulimit -v)")


@needs_ulimit
def test_under_ulimit_a_job_that_does_not_fit_is_refused_at_once():
    run = _limited(2_000_000, "apsp", "--n", "30000", "--device", "cpu")  # float32 result: 3.4 GiB
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "plan " not in run.stdout
    assert "does not fit" in run.stderr and "the address-space limit (ulimit -v, RLIMIT_AS)" in run.stderr
    assert "a higher limit (ulimit -v" in run.stderr
    run = _limited(2_000_000, "apsp", "--n", "30000", "--device", "cpu", "--out", "D.npy")  # a map needs room too
    assert run.returncode == 2 and "a result mapped from disk needs address space" in run.stderr


@needs_ulimit
def test_under_ulimit_a_job_that_fits_runs_and_is_checked():
    run = _limited(2_000_000, "apsp", "--n", "1200", "--method", "rkleene", "--device", "cpu")
    assert run.returncode == 0, run.stderr
    assert "plan      dense rkleene" in run.stdout and "match (max |diff| = 0)" in run.stdout


@needs_ulimit
@pytest.mark.parametrize("command", [c for c in SUBCOMMANDS if c != "apsp"])
def test_under_ulimit_every_subcommand_refuses_a_graph_too_large(command):
    run = _limited(1_500_000, command, "--n", "30000000")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "this process may use" in run.stderr and "ulimit -v" in run.stderr


@needs_ulimit
@pytest.mark.skipif(not (DATA / "email-Enron.txt").exists(), reason="shared data not present")
def test_under_ulimit_email_enron_ends_with_a_status_not_a_traceback():
    run = _limited(4_000_000, "apsp", str(DATA / "email-Enron.txt"))
    assert run.returncode in (0, 2) and "Traceback" not in run.stderr, run.stderr
    if run.returncode == 2:  # 5 GiB of float32 distances: refused before the work starts
        assert "does not fit" in run.stderr and "ulimit -v" in run.stderr and "time " not in run.stdout
