"""``semiring-paths matrix``: origin-destination distances on the command line, against graphs.distance_matrix."""

from __future__ import annotations

import json

import numpy as np
import pytest

import graphs
from graphs.cli import main

ROAD = "c a small road map\np sp 6 9\na 1 2 4\na 2 3 3\na 3 4 2\na 1 5 9\na 5 4 1\na 4 6 5\na 6 1 7\na 2 5 2\na 3 6 8\n"


def _json(capsys, argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _fails(capsys, argv):
    """``argv`` exits with status 2 and one message on stderr (no traceback, nothing on stdout)."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""
    assert captured.err.startswith("semiring-paths: error: ")
    return captured.err


def _stats(D):
    """The summary the command prints, computed directly."""
    inf = np.inf if D.dtype.kind == "f" else np.iinfo(D.dtype).max
    finite = D[D != inf]
    return {"reached": finite.size / D.size, "reached_pairs": int(finite.size), "min": float(finite.min()),
            "median": float(np.median(finite)), "max": float(finite.max())}


def test_generated_graph_sampled_sources_and_targets_match_distance_matrix(capsys):
    r = _json(capsys, ["matrix", "--n", "400", "--seed", "3", "--sources", "7", "--targets", "25", "--limit",
                       "1800", "--print", "--device", "cpu"])
    G = graphs.generators.road_network(400, seed=3)
    src, tgt = r["source_ids"], r["target_ids"]
    assert len(set(src)) == 7 and len(set(tgt)) == 25 and src == sorted(src)
    want = graphs.distance_matrix(G, src, tgt, limit=1800.0)
    assert r["shape"] == [7, 25] and r["dtype"] == "float64" and r["limit"] == 1800.0
    assert r["sources"] == {"count": 7, "from": "sample"} and r["targets"] == {"count": 25, "from": "sample"}
    got = np.array([[np.inf if x is None else x for x in row] for row in r["matrix"]])
    np.testing.assert_array_equal(got, want)
    s = _stats(want)
    assert 0 < s["reached"] < 1  # the limit cuts some pairs
    for key, value in s.items():
        assert r[key] == pytest.approx(value, rel=1e-12), key
    assert r["median_rows"] is None  # exact
    again = _json(capsys, ["matrix", "--n", "400", "--seed", "3", "--sources", "7", "--targets", "25", "--print",
                           "--device", "cpu"])
    assert again["source_ids"] == src  # the sample follows --seed


def test_default_sources_and_every_vertex_as_target(capsys):
    r = _json(capsys, ["matrix", "--n", "150", "--device", "cpu"])
    assert r["shape"] == [100, 150] and r["targets"] == {"count": 150, "from": "all"}
    assert r["reached"] == 1.0 and r["min"] == 0.0  # a connected road network: every pair, the sources themselves
    r = _json(capsys, ["matrix", "--n", "60", "--device", "cpu"])
    assert r["shape"] == [60, 60]  # a smaller graph: every vertex is a source


def test_graph_file_with_files_of_sources_and_targets(tmp_path, capsys):
    g = tmp_path / "road.gr"
    g.write_text(ROAD)
    (tmp_path / "src.txt").write_text("# depots\n1\n\n6  # the last\n3\n1\n")  # repeats allowed
    (tmp_path / "tgt.txt").write_text("4\n2\n6\n")
    argv = ["matrix", str(g), "--sources", str(tmp_path / "src.txt"), "--targets", str(tmp_path / "tgt.txt"),
            "--one-based", "--print", "--device", "cpu"]
    r = _json(capsys, argv)
    G = graphs.read(g)
    want = graphs.distance_matrix(G, [0, 5, 2, 0], [3, 1, 5])
    np.testing.assert_array_equal(np.array(r["matrix"], dtype=float), want)
    assert r["source_ids"] == [1, 6, 3, 1] and r["target_ids"] == [4, 2, 6]
    assert r["sources"] == {"count": 4, "from": "file", "file": str(tmp_path / "src.txt")}
    assert r["min"] == 0.0 and r["max"] == float(want.max()) and r["median"] == float(np.median(want))
    hops = _json(capsys, [*argv, "--unweighted"])
    np.testing.assert_array_equal(np.array(hops["matrix"], dtype=float),
                                  graphs.distance_matrix(G, [0, 5, 2, 0], [3, 1, 5], weighted=False))
    assert hops["hops"] is True and r["hops"] is False
    assert main(argv[:-2] + ["--device", "cpu"]) == 0  # the text report
    out = capsys.readouterr().out
    assert "shape      4 x 3 float64" in out and "reached    100.00% of 12 pairs (12 connected)" in out
    header, rule, first = out.splitlines()[-6:-3]
    assert header.split() == ["source", "4", "2", "6"] and first.split()[0] == "1"
    assert [float(x) for x in first.split()[1:]] == want[0].tolist()


def test_out_file_equals_distance_matrix(tmp_path, capsys):
    target = tmp_path / "D.npy"
    r = _json(capsys, ["matrix", "--n", "500", "--seed", "1", "--sources", "12", "--out", str(target), "--limit",
                       "2500", "--device", "cpu"])
    assert r["out"] == str(target) and sorted(p.name for p in tmp_path.iterdir()) == ["D.npy"]  # no temporary left
    rng = np.random.default_rng(1)  # the command's sample: --seed, sources first
    src = np.sort(rng.choice(500, size=12, replace=False))
    want = graphs.distance_matrix(graphs.generators.road_network(500, seed=1), src, limit=2500.0)
    D = np.load(target)
    np.testing.assert_array_equal(D, want)
    assert r["reached_pairs"] == int(np.isfinite(want).sum()) and r["max"] == float(want[np.isfinite(want)].max())


@pytest.mark.parametrize("text, line, what", [
    ("0\n2\nseven\n", 3, "'seven' is not a vertex id (an integer)"),
    ("0\n\n# ok\n2.5\n", 4, "'2.5' is not a vertex id (an integer)"),
    ("1\n400\n", 2, "400 is not a vertex: 0-based ids run from 0 to 299"),
    ("-1\n", 1, "-1 is not a vertex: 0-based ids run from 0 to 299"),
])
def test_bad_line_of_a_sources_file_exits_2_naming_the_file_and_line(text, line, what, tmp_path, capsys):
    f = tmp_path / "sources.txt"
    f.write_text(text)
    for option in ("--sources", "--targets"):
        err = _fails(capsys, ["matrix", "--n", "300", option, str(f), "--device", "cpu"])
        assert f"{f}, line {line}: {what}" in err


def test_other_bad_requests_exit_2_with_one_message(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\n")
    assert "holds no vertex id" in _fails(capsys, ["matrix", "--n", "50", "--sources", str(empty), "--device", "cpu"])
    assert "cannot open" in _fails(capsys, ["matrix", "--n", "50", "--sources", str(tmp_path / "no.txt"),
                                            "--device", "cpu"])
    assert "--sources 51: sample between 1 and 50 vertices" in _fails(capsys, ["matrix", "--n", "50", "--sources",
                                                                                "51", "--device", "cpu"])
    assert "--targets 0: sample between 1" in _fails(capsys, ["matrix", "--n", "50", "--targets", "0",
                                                               "--device", "cpu"])
    assert "--limit must be a non-negative number" in _fails(capsys, ["matrix", "--n", "50", "--limit", "-1"])
    assert "--print shows up to 10,000 entries; this matrix has 100 x 200" in _fails(
        capsys, ["matrix", "--n", "200", "--print", "--device", "cpu"])
    assert "cannot open" in _fails(capsys, ["matrix", "--n", "50", "--out", str(tmp_path / "no" / "D.npy"),
                                            "--device", "cpu"])


def test_a_matrix_that_cannot_fit_is_refused_with_the_alternatives(tmp_path, capsys):
    err = _fails(capsys, ["matrix", "--n", "2000", "--sources", "500", "--memory-limit", "1M", "--device", "cpu"])
    assert "a 500 x 2,000 float64 distance matrix (7.6 MiB) does not fit in 1.0 MiB of host memory" in err
    assert "fewer targets: 500 x 222 fits" in err and "on the command line: --out D.npy" in err
    assert "a larger --memory-limit" in err
    assert not list(tmp_path.iterdir())
    target = tmp_path / "D.npy"  # on disk only a block of rows is held in memory: it fits
    r = _json(capsys, ["matrix", "--n", "2000", "--sources", "500", "--memory-limit", "100M", "--out", str(target),
                       "--device", "cpu"])
    assert r["shape"] == [500, 2000] and np.load(target, mmap_mode="r").shape == (500, 2000)


def test_memory_limit_is_a_size():
    from graphs.cli.matrix import memory_size

    assert memory_size("64K") == 65536 and memory_size("3 MiB") == 3 << 20 and memory_size("2g") == 2 << 30
    with pytest.raises(SystemExit) as exc:
        main(["matrix", "--memory-limit", "lots"])
    assert exc.value.code == 2


def test_large_matrix_median_from_evenly_spaced_rows(monkeypatch, capsys):
    from graphs.cli import SUBCOMMANDS

    matrix = SUBCOMMANDS["matrix"]  # the module main() runs (a doctest run may import the file a second time)

    monkeypatch.setattr(matrix, "MEDIAN_ENTRIES", 1000)
    monkeypatch.setattr(matrix, "BLOCK_BYTES", 3 * 240 * 8)  # blocks of 3 rows: the spacing crosses blocks
    r = _json(capsys, ["matrix", "--n", "240", "--sources", "40", "--print", "--device", "cpu"])
    D = np.array(r["matrix"], dtype=float)
    assert r["median_rows"] == 4  # every 10th row of 40 (40 * 240 / 1000 -> 10)
    assert r["median"] == float(np.median(D[::10]))
    assert r["min"] == float(D.min()) and r["max"] == float(D.max())
