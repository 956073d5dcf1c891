"""Graph files are read in bounded memory: a buffer of text, never the whole file.

* 200 MB of comment lines (gzip) around three arcs read through a 64 KiB buffer
  allocate well under 1 MiB (tracemalloc), and so does a plain file; the arcs are right;
* announced sizes that cannot fit are refused on their line before anything of that
  size is allocated (``p sp 2000000000 5``, a Matrix Market size line, SNAP's
  ``Nodes:``, a SNAP id), against the memory this process may use;
* a file that is no graph file fails at its first data line, without reading on:
  the rest of the file is a broken gzip stream that a reader going further would
  report instead;
* comment lines of any length are skipped; a data line longer than the buffer is an error;
* counts: more arcs than announced are counted, not kept, and named on the announcing line.
"""

from __future__ import annotations

import gzip
import tracemalloc

import numpy as np
import pytest

import graphs
from graphs import GraphFormatError

COMMENT = b"c a comment line, repeated: the file is mostly comments, 1 2 3\n"  # (DIMACS; SNAP: "# ...")


def warm(tmp_path):
    """Every format's reader loaded on both routes (the compiled kernels and their NumPy twins: a module imported
    on first use would count as memory allocated by the read)."""
    from graphs import kernel_route

    files = {"warm.gr": b"p sp 2 1\na 1 2 3\n", "warm.gr.gz": gzip.compress(b"p sp 2 1\na 1 2 3\n"),
             "warm.mtx": b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3\n",
             "warm.txt": b"# Directed graph\n# Nodes: 2 Edges: 1\n0 1 3\n"}
    saved = kernel_route.FORCE
    try:
        for route in ("numba", "numpy"):
            kernel_route.FORCE = route
            for name, data in files.items():
                (tmp_path / name).write_bytes(data)
                graphs.read(tmp_path / name)
    finally:
        kernel_route.FORCE = saved


def peak_of(call):
    """``(result, peak bytes allocated by Python and NumPy during call())``."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_comments_cost_no_memory(tmp_path):
    warm(tmp_path)
    block = gzip.compress(COMMENT * (2**20 // len(COMMENT)), compresslevel=1)  # 1 MiB of text, compressed
    path = tmp_path / "g.gr.gz"
    with open(path, "wb") as f:  # gzip members one after the other: one stream of 200 MiB of text
        f.write(gzip.compress(b"p sp 3 3\n"))
        for _ in range(200):
            f.write(block)
        f.write(gzip.compress(b"a 1 2 7\na 2 3 1\na 3 1 2\n"))
    G, peak = peak_of(lambda: graphs.read(path, buffer_size=2**16))
    assert sorted(zip(*(x.tolist() for x in G.edges()))) == [(0, 1, 7.0), (1, 2, 1.0), (2, 0, 2.0)]
    assert peak < 2**20, f"{peak / 2**20:.1f} MiB allocated to read 200 MiB of text"


def test_plain_file_read_in_bounded_memory(tmp_path):
    warm(tmp_path)
    path = tmp_path / "g.txt"
    with open(path, "wb") as f:
        f.write(b"# Directed graph\n0 1 2.5\n")
        for _ in range(8):
            f.write((b"# " + COMMENT[2:]) * (2**20 // len(COMMENT)))
        f.write(b"1 2 -1\n")
    G, peak = peak_of(lambda: graphs.read(path, buffer_size=2**16))
    assert sorted(zip(*(x.tolist() for x in G.edges()))) == [(0, 1, 2.5), (1, 2, -1.0)]
    assert peak < 2**20, f"{peak / 2**20:.1f} MiB allocated to read 8 MiB of text"


def test_arcs_across_many_buffers_are_all_read(tmp_path):
    rng = np.random.default_rng(5)
    m = 20000
    src, dst, w = rng.integers(0, 999, m), rng.integers(0, 999, m), rng.integers(-5, 100, m)
    lines = [f"a {u + 1} {v + 1} {x}" for u, v, x in zip(src, dst, w)]
    for k in range(0, m, 97):
        lines.insert(k, "c a comment between the arcs")
    text = (f"p sp 999 {m}\n" + "\r\n".join(lines) + "\r").encode()
    path = tmp_path / "g.gr.gz"
    path.write_bytes(gzip.compress(text))
    G = graphs.read(path, buffer_size=100, dtype=np.int64)
    H = graphs.Graph.from_edges(src, dst, w, n=999)
    for a, b in zip(G.edges(), H.edges()):
        np.testing.assert_array_equal(a, b)


# -- sizes checked before allocating --------------------------------------------------------------
@pytest.fixture
def one_gib(monkeypatch):
    """This process may use 1 GiB (whatever the machine): the refusals do not depend on it."""
    monkeypatch.setattr(graphs.validate, "available_memory", lambda: 2**30)


HUGE = [
    ("g.gr", "c big\np sp 2000000000 5\na 1 2 1\na 2 3 1\na 3 4 1\na 4 5 1\na 5 1 1\n", 2,
     "the 'p' line announces 2000000000 vertices and 5 arcs"),
    ("g.gr", "p sp 5 3000000000\na 1 2 1\n", 1, "5 vertices and 3000000000 arcs"),
    ("g.mtx", "%%MatrixMarket matrix coordinate real symmetric\n% c\n2000000000 2000000000 2\n1 2 1\n2 3 1\n", 3,
     "the size line announces 2000000000 vertices and 2 arcs"),
    ("g.txt", "# Directed graph\n# Nodes: 2000000000 Edges: 1\n0 1\n", 2, "the header announces 2000000000 vertices"),
    ("g.txt", "# Directed graph\n0 1\n1 2000000000\n", 3, "vertex id 2000000000 makes a graph of 2000000001 vertices"),
]


@pytest.mark.parametrize("name, text, line, what", HUGE, ids=["p-n", "p-m", "mtx", "snap-nodes", "snap-id"])
def test_sizes_that_cannot_fit_are_refused_before_allocating(tmp_path, one_gib, name, text, line, what):
    warm(tmp_path)
    path = tmp_path / name
    path.write_text(text)

    def read():
        with pytest.raises(GraphFormatError) as info:
            graphs.read(path)
        return info.value

    e, peak = peak_of(read)
    assert e.line == line and what in str(e) and "1.0 GiB of memory is available" in str(e), str(e)
    assert peak < 2**20, f"{peak / 2**20:.1f} MiB allocated before the refusal"


def test_sizes_that_fit_are_read(tmp_path, monkeypatch):
    monkeypatch.setattr(graphs.validate, "available_memory", lambda: 2**40)
    path = tmp_path / "g.gr"
    path.write_text("p sp 5000000 2\na 1 2 1\na 5000000 1 2\n")  # 120 MB of row pointers: below the check
    assert graphs.read(path).n == 5_000_000


# -- what is no graph fails fast ------------------------------------------------------------------
JUNK = [
    (b"\x00\x01\x02binary\x00junk 1 2\n", "byte 0x00"),
    (b"\xff\xfe0 1 2\n", "byte 0xff"),
    (b"\x89PNG\r\n\x1a\n", "byte 0x89"),
    (b"0 1 2\x00" + b"\x07" * 300_000, "a line longer than the read buffer"),
]


@pytest.mark.parametrize("head, what", JUNK, ids=["nul", "xff", "png", "no-newline"])
def test_junk_fails_at_the_first_data_line_without_reading_on(tmp_path, head, what):
    rng = np.random.default_rng(0)
    rest = rng.integers(0, 256, 2**20, dtype=np.uint8).tobytes()
    raw = gzip.compress(head + rest)
    path = tmp_path / "g.txt.gz"
    path.write_bytes(raw[:len(raw) // 2])  # a broken gzip stream: a reader that went on would say so instead
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path, buffer_size=2**16)
    assert info.value.line == 1 and what in str(info.value), str(info.value)


def test_long_comment_lines_are_skipped_long_data_lines_are_refused(tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(b"# " + b"x" * 300_000 + b"\r\n0 1\n" + b"% " + b"y" * 70_000 + b"\r1 2\n")
    G = graphs.read(path, buffer_size=2**16)
    assert G.edges()[1].tolist() == [1, 2]
    path.write_bytes(b"0 1\n1 2" + b" " * 100_000 + b"\n")
    with pytest.raises(GraphFormatError, match="longer than the read buffer of 65536 bytes") as info:
        graphs.read(path, buffer_size=2**16)
    assert (info.value.line, info.value.offset) == (2, 4)
    assert graphs.read(path).nnz == 2  # the default buffer holds it


def test_buffer_size_is_checked(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("0 1\n")
    with pytest.raises(TypeError, match="buffer_size"):
        graphs.read(path, buffer_size=1e6)
    with pytest.raises(ValueError, match="at least 64"):
        graphs.read(path, buffer_size=10)


# -- counts ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("buffer_size", [None, 64])
def test_more_arcs_than_announced_are_named_on_the_announcing_line(tmp_path, buffer_size):
    path = tmp_path / "g.gr"
    path.write_text("c x\np sp 3 2\n" + "a 1 2 3\n" * 500)
    with pytest.raises(GraphFormatError, match="announces 2 arcs, the file has 500") as info:
        graphs.read(path, buffer_size=buffer_size)
    assert (info.value.line, info.value.offset) == (2, 4)
    path = tmp_path / "g.mtx"
    path.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 4\n" + "1 2\n" * 3)
    with pytest.raises(GraphFormatError, match="announces 4 entries, the file has 3") as info:
        graphs.read(path, buffer_size=buffer_size)
    assert info.value.line == 2


def test_snap_columns_are_the_majority_of_the_first_lines(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("# weighted\n0 1\n1 2 5\n2 3 7\n")  # the first line lacks its weight
    with pytest.raises(GraphFormatError, match="expected 3 fields, got 2") as info:
        graphs.read(path)
    assert info.value.line == 2
    path.write_text("0 1 9\n1 2\n2 3\n")  # the first line has one field too many
    with pytest.raises(GraphFormatError, match="expected 2 fields, got 3") as info:
        graphs.read(path)
    assert info.value.line == 1
    # SNAP's Edges: is no promise (SNAP's own email-Enron announces 367662 and lists 367660)
    path.write_text("# Nodes: 5 Edges: 9\n0 1\n1 2\n")
    assert (graphs.read(path).n, graphs.read(path).nnz) == (5, 2)
