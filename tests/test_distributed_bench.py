"""The code paths of benchmarks/distributed.py, run on the CPU at small n (the GPU run takes the same path).

``scaling("cpu", ...)`` is the ``--gpu`` run with host lanes and CPU Dask
workers in place of GPUs: one device, in-process multi_device, Dask worker
threads and Dask worker processes, the input made on the workers, sampled
rows checked; ``cpu`` is the 2-worker comparison with one process.
"""

from __future__ import annotations

import pytest

pytest.importorskip("distributed")
pytest.importorskip("dask.array")

bench = pytest.importorskip("benchmarks.distributed")

pytestmark = [pytest.mark.distributed, pytest.mark.slow]


def test_scaling_path_on_the_cpu():
    lines = []
    payload = bench.scaling("cpu", 160, [1, 2], check_rows=6, warm_n=96, log=lines.append)
    runs = payload["runs"]
    assert [(r["run"].split(",")[0], r["devices"]) for r in runs] == [
        ("one device", 1), ("in-process", 1), ("in-process", 2), ("Dask", 1), ("Dask", 2), ("Dask", 1), ("Dask", 2)]
    assert all(r["rows_equal"] for r in runs), runs
    assert "threads" in runs[3]["run"] and "processes" in runs[5]["run"]
    assert len(lines) == len(runs) and payload["rows_checked"] == 6


def test_cpu_comparison_writes_its_table(monkeypatch):
    written = {}
    monkeypatch.setattr(bench, "write_results", lambda stem, payload, md: written.update(stem=stem, payload=payload,
                                                                                            md=md))
    args = bench.argparse.Namespace(n=192, tiles=["default", "32"], dtypes=["float32"], repeats=1,
                                    memory_limit=2**30)
    bench.cpu(args)
    rows = written["payload"]["rows"]
    assert written["stem"] == "distributed-cpu" and [r["b"] for r in rows] == ["", bench.default_block_size(192, 2, "cpu"), 32]
    assert all(r["equal"] for r in rows[1:]) and "time / one process" in written["md"]


def test_seeded_dask_array_is_the_seeded_matrix():
    import numpy as np

    from benchmarks.multi_gpu import seeded_rows

    X = bench.seeded_dask_array(100, 3, 32, "cpu")
    assert X.chunks == ((32, 32, 32, 4), (100,))
    np.testing.assert_array_equal(X.compute(scheduler="sync"), seeded_rows(100, 3)(0, 100, np))
