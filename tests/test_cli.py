"""The ``semiring-paths`` command line: the main job, its check against SciPy, and bad input."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse.csgraph import breadth_first_order, connected_components, dijkstra

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
SUBCOMMANDS = ["apsp", "sssp", "path", "bfs", "components", "mst", "flow"]


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
    assert "0-based" in out and "3  an optional dependency" in out


def test_apsp_help_explains_the_methods(capsys):
    with pytest.raises(SystemExit):
        main(["apsp", "--help"])
    out = capsys.readouterr().out
    assert "rkleene = recursive Kleene" in out and "slow reference for checking" in out


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


def test_apsp_json(capsys):
    r = _json(capsys, ["apsp", "--n", "120", "--device", "cpu"])
    assert r["status"] == 0 and r["command"] == "apsp" and "match" in r["check"]


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
    import time

    import apsp.planner

    monkeypatch.setattr(apsp.planner, "host_memory_available", lambda: 2**16)
    t = time.perf_counter()
    assert main(["apsp", "--n", "400", "--device", "cpu"]) == 2
    assert time.perf_counter() - t < 1.0 + 0.5  # the generated graph itself takes a moment
    err = capsys.readouterr().err
    assert "does not fit" in err and "alternatives:" in err and "open_memmap" in err


def test_apsp_sparse_route_writes_the_out_file(tmp_path, monkeypatch, capsys):
    import apsp.planner

    f = tmp_path / "path.txt"
    n = 1500
    f.write_text("".join(f"{i}\t{i + 1}\n" for i in range(n - 1)))  # a SNAP edge list: unweighted
    monkeypatch.setattr(apsp.planner, "host_memory_available", lambda: n * n * 4)  # dense won't fit
    out_file = tmp_path / "D.npy"
    assert main(["apsp", str(f), "--device", "cpu", "--out", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "plan      sparse bfs on cpu, float32" in out and "match" in out
    D = np.load(out_file, mmap_mode="r")
    assert D.dtype == np.float32 and D[0, n - 1] == n - 1 and np.isinf(D[n - 1, 0])
