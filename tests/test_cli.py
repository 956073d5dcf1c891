"""The ``semiring-paths`` command line: the main job, its check against SciPy, and bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphs.cli import main
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
