"""Results written atomically, or said to be partial.

* ``semiring-paths apsp --out D.npy`` interrupted by SIGINT exits 130 and leaves no
  ``D.npy`` (a real subprocess, interrupted while it computes: once its temporary
  file exists), and a previous ``D.npy`` byte for byte as it was;
* :func:`graphs.write` failing or interrupted half way leaves no file, or the previous
  one, and no temporary file;
* :mod:`graphs.atomic_file` itself: complete or absent, permissions as ``open`` gives;
* an ``out=`` array cannot be atomic: a call that fails after writing into it says so
  in a note of its exception (:mod:`apsp.partial_out`), and only then.
"""

from __future__ import annotations

import gzip
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import apsp
import graphs
from apsp.partial_out import NOTE
from graphs import Graph
from graphs.atomic_file import atomic_memmap, atomic_open, atomic_path

ROOT = Path(__file__).resolve().parents[1]


def temporaries(folder: Path, name: str) -> list[Path]:
    return sorted(folder.glob(f".{name}.*.tmp"))


# -- semiring-paths apsp --out, interrupted -------------------------------------------------------
def interrupt_apsp(tmp_path: Path, n: int = 2500) -> subprocess.CompletedProcess:
    """Start ``apsp --method fw --out D.npy`` (a minute of work), SIGINT it once it writes, and wait for it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "graphs.cli", "apsp", "--n", str(n), "--method", "fw", "--device", "cpu",
           "--check-rows", "0", "--quiet", "--out", str(tmp_path / "D.npy")]
    # SIGINT as a terminal's Ctrl-C delivers it: a runner started in the background (a shell's `cmd &`)
    # ignores SIGINT, its children inherit that, and Python then installs no KeyboardInterrupt handler.
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while not temporaries(tmp_path, "D.npy"):  # the run has begun writing its result
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the temporary result file never appeared"
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(cmd, proc.returncode, out.decode(), err.decode())


def test_interrupted_apsp_leaves_no_result_file(tmp_path):
    done = interrupt_apsp(tmp_path)
    assert done.returncode == 130, done.stderr
    assert "interrupted" in done.stderr
    assert not (tmp_path / "D.npy").exists()
    assert temporaries(tmp_path, "D.npy") == []


@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler for the test (a runner started in the background has SIGINT ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


class _InterruptedInADestructor:
    """Deleted, it sends this process SIGINT from its ``__del__``, where Python would print "Exception ignored" and
    drop a ``KeyboardInterrupt`` (as when Ctrl-C lands while Numba frees compiler objects)."""

    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs at a bytecode boundary inside this frame
            pass


@pytest.mark.parametrize("previous", [False, True])
def test_a_ctrl_c_in_a_destructor_still_stops_apsp_before_it_saves(tmp_path, monkeypatch, capsys, previous,
                                                                    python_sigint):
    """In process (the main thread, where SIGINT is handled): the run ends as interrupted, with no result saved."""
    import graphs.cli.apsp as cli_apsp
    from graphs.cli import main

    target = tmp_path / "D.npy"
    if previous:
        np.save(target, np.arange(6.0))
    before = target.read_bytes() if previous else None
    real_run = cli_apsp._run

    def run_then_drop_an_interrupt(*args, **kwargs):
        status = real_run(*args, **kwargs)
        _InterruptedInADestructor()  # created and deleted at once
        return status

    monkeypatch.setattr(cli_apsp, "_run", run_then_drop_an_interrupt)
    status = main(["apsp", "--n", "60", "--device", "cpu", "--check-rows", "0", "--quiet", "--out", str(target)])
    assert status == 130 and "interrupted" in capsys.readouterr().err
    assert (target.read_bytes() == before) if previous else not target.exists()
    assert temporaries(tmp_path, "D.npy") == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the latch put Python's handler back


def test_a_ctrl_c_inside_the_compiler_is_raised_once_the_compiler_is_left(python_sigint):
    """A SIGINT that lands in Numba's compiler (a stand-in module named ``numba.core...``) is not raised there,
    where LLVM's callbacks would drop it or crash, but delivered again until it lands in ordinary code."""
    from graphs.cli._common import interrupt_latch

    ns = {"__name__": "numba.core.stand_in", "time": time}
    exec("def compile_step(kill):\n"
         "    kill()\n"
         "    start = time.monotonic()\n"
         "    while time.monotonic() - start < 0.3:  # several re-deliveries land here, and wait\n"
         "        pass\n"
         "    return 'compiled'\n", ns)
    finished = []
    with pytest.raises(KeyboardInterrupt), interrupt_latch():
        finished.append(ns["compile_step"](lambda: os.kill(os.getpid(), signal.SIGINT)))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # ordinary code: the interrupt is raised here
            time.sleep(0.01)
    assert finished == ["compiled"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_interrupted_apsp_leaves_the_previous_result_file(tmp_path):
    previous = tmp_path / "D.npy"
    np.save(previous, np.arange(12.0).reshape(3, 4))
    before = previous.read_bytes()
    os.chmod(previous, 0o640)
    done = interrupt_apsp(tmp_path)
    assert done.returncode == 130, done.stderr
    assert previous.read_bytes() == before
    assert temporaries(tmp_path, "D.npy") == []


def test_apsp_out_is_complete_with_the_file_mode_of_open(tmp_path):
    from graphs.cli import main

    out = tmp_path / "D.npy"
    assert main(["apsp", "--n", "60", "--seed", "3", "--device", "cpu", "--quiet", "--out", str(out)]) == 0
    D = np.load(out)
    G = graphs.generators.road_network(60, seed=3)
    np.testing.assert_allclose(D, graphs.all_pairs_shortest_paths(G, dtype=D.dtype))
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    assert temporaries(tmp_path, "D.npy") == []


# -- graphs.write ---------------------------------------------------------------------------------
def a_graph(m: int = 300) -> Graph:
    rng = np.random.default_rng(0)
    return Graph.from_edges(rng.integers(0, 50, m), rng.integers(0, 50, m), rng.integers(1, 9, m).astype(float))


class Boom(Exception):
    pass


@pytest.mark.parametrize("error", [Boom, KeyboardInterrupt])
@pytest.mark.parametrize("name", ["g.txt.gz", "g.mtx.gz", "g.gr.gz"])
def test_write_failing_half_way_leaves_the_previous_file(tmp_path, monkeypatch, name, error):
    path = tmp_path / name
    graphs.write(a_graph(10), path)
    before = path.read_bytes()
    calls = []
    real = gzip.GzipFile.write

    def write_then_fail(self, data):
        calls.append(len(data))
        if len(calls) == 2:  # the header went out, then the first block of lines fails
            raise error("disk gone")
        return real(self, data)

    monkeypatch.setattr(gzip.GzipFile, "write", write_then_fail)
    monkeypatch.setattr(graphs.io, "WRITE_BLOCK", 64)
    with pytest.raises(error):
        graphs.write(a_graph(), path)
    assert len(calls) == 2
    assert path.read_bytes() == before
    assert temporaries(tmp_path, name) == []
    path.unlink()
    calls.clear()
    with pytest.raises(error):  # and with no previous file, none is left
        graphs.write(a_graph(), path)
    assert list(tmp_path.iterdir()) == []


def test_write_failing_at_the_end_leaves_no_file(tmp_path, monkeypatch):
    def no_sync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_sync)
    with pytest.raises(OSError, match="No space left"):
        graphs.write(a_graph(), tmp_path / "g.gr")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["g.gr", "g.txt", "g.mtx", "g.gr.gz", "g.mtx.gz"])
def test_write_in_blocks_reads_back(tmp_path, monkeypatch, name):
    # the lines go out in blocks: the file is the same whatever the block size
    G = a_graph(1000)
    graphs.write(G, tmp_path / name)
    whole = graphs.read(tmp_path / name)
    monkeypatch.setattr(graphs.io, "WRITE_BLOCK", 7)
    graphs.write(G, tmp_path / ("b" + name))
    if not name.endswith(".gz"):  # (a gzip header holds the time)
        assert (tmp_path / ("b" + name)).read_bytes() == (tmp_path / name).read_bytes()
    again = graphs.read(tmp_path / ("b" + name))
    for a, b in zip(whole.edges(), again.edges()):
        np.testing.assert_array_equal(a, b)
    if name.endswith(".gz"):  # the name in the gzip header is the file's (less .gz), not the temporary one's
        raw = (tmp_path / name).read_bytes()
        assert raw[3] & 0x08 and raw[10:raw.index(b"\0", 10)] == name[:-3].encode()


# -- graphs.atomic_file ---------------------------------------------------------------------------
def test_atomic_memmap_interrupted_leaves_nothing(tmp_path):
    target = tmp_path / "D.npy"
    with pytest.raises(KeyboardInterrupt):
        with atomic_memmap(target, np.float32, (4, 4)) as D:
            D[:2] = 1.0
            assert len(temporaries(tmp_path, "D.npy")) == 1
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with atomic_memmap(target, np.float32, (4, 4)) as D:
        D[...] = 2.0
        assert not target.exists()  # not there until complete
    np.testing.assert_array_equal(np.load(target), np.full((4, 4), 2.0, np.float32))
    np.testing.assert_array_equal(D, 2.0)  # the map stays usable: it maps the renamed file


def test_atomic_open_and_path_keep_the_mode_of_the_previous_file(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    os.chmod(target, 0o600)
    with atomic_open(target) as f:
        f.write(b"new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o600
    with pytest.raises(Boom):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise Boom
    assert target.read_text() == "new" and list(tmp_path.iterdir()) == [target]


# -- out= arrays: a note on the exception ------------------------------------------------------------
def cycle_matrix() -> np.ndarray:
    W = np.full((40, 40), np.inf)
    np.fill_diagonal(W, 0.0)
    for i in range(39):
        W[i, i + 1] = 1.0
    W[39, 0] = -50.0  # a negative cycle through every vertex
    return W


@pytest.mark.parametrize("method", ["rkleene", "fw", "blocked-fw"])
def test_out_written_then_failed_carries_the_note(method):
    W = cycle_matrix()
    out = np.zeros_like(W)
    with pytest.raises(apsp.NegativeCycleError) as info:
        apsp.shortest_paths(W, method=method, out=out)
    assert info.value.__notes__ == [NOTE]
    assert not np.array_equal(out, np.zeros_like(W))  # written into: partial
    with pytest.raises(apsp.NegativeCycleError) as info:  # no out=: nothing to say
        apsp.shortest_paths(W, method=method)
    assert not getattr(info.value, "__notes__", None)


def test_out_refused_before_writing_carries_no_note():
    W = cycle_matrix()
    with pytest.raises(apsp.PlanError) as info:  # refused by the plan, before anything is written
        apsp.shortest_paths(W, out=np.zeros_like(W), memory_limit=1)
    assert not getattr(info.value, "__notes__", None)
    with pytest.raises(ValueError) as info:  # a wrong out=
        apsp.shortest_paths(W, out=np.zeros((3, 3)))
    assert not getattr(info.value, "__notes__", None)


def test_graph_sparse_route_interrupted_carries_the_note_once(monkeypatch):
    G = graphs.generators.road_network(400, seed=1)
    pl = graphs.plan_all_pairs(G, dtype=np.float64, method="auto", sparse_rate=1e15)
    assert pl.route == "sparse"
    real = graphs.paths.all_pairs.search_rows
    calls = []

    def second_batch_interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(graphs.paths.all_pairs, "search_rows", second_batch_interrupted)
    out = np.full((G.n, G.n), -1.0)
    with pytest.raises(KeyboardInterrupt) as info:
        graphs.all_pairs_shortest_paths(G, out=out, plan=pl)
    assert info.value.__notes__ == [NOTE]
    assert (out[0] >= 0).all() and (out[-1] == -1.0).all()  # the first rows written, the last not
    calls.clear()
    with pytest.raises(KeyboardInterrupt) as info:
        graphs.all_pairs_shortest_paths(G, plan=pl)
    assert not getattr(info.value, "__notes__", None)
    # the dense route notes it once (apsp.shortest_paths is the door that writes)
    C = Graph.from_edges(np.arange(40), (np.arange(40) + 1) % 40, np.r_[np.ones(39), -50.0])
    with pytest.raises(apsp.NegativeCycleError) as info:
        graphs.all_pairs_shortest_paths(C, out=np.zeros((40, 40)), method="rkleene", dtype=np.float64)
    assert info.value.__notes__ == [NOTE]
