"""Mutation test of graph files: one corrupted token or line, and the error names exactly that line.

Small valid files of each format are generated (DIMACS, SNAP, Matrix Market; with
``\\n``, ``\\r\\n`` or ``\\r`` line ends; plain or gzip; comment and blank lines
anywhere; read through buffers from 64 bytes to the default, so that lines straddle
the buffer's edges), checked to read as the graph they were made from, then one
line is corrupted so that the file is invalid: a token that is no number, a vertex
id out of range or not an integer, a field missing or one too many, a NaN or
infinite weight, a byte no field may hold, a bad first byte, a bad header (a
negative or wrong count, a missing or extra field, a bad banner), a second ``p``
line, an arc before it.  :func:`graphs.read` must raise a
:class:`~graphs.errors.GraphFormatError` whose line is the corrupted line -- or,
for an announced count that differs from the file's, the line that announced it --
and whose byte offset lies on that line.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphs
from graphs import GraphFormatError

NAME = {"dimacs": "g.gr", "snap": "g.txt", "mtx": "g.mtx"}
COMMENT = {"dimacs": b"c", "snap": b"#", "mtx": b"%"}
EOL = [b"\n", b"\r\n", b"\r"]
SEP = [b" ", b"\t", b"  ", b" \t"]
NOT_NUMBERS = [b"x", b"1e", b"-", b"+", b"1.2.3", b"0x1", b"--1", b".", b"1_0", b"e5", b"1,5"]
ODD_BYTES = [b"\x00", b"\x0b", b"\x0c", b"\x1c", b"\x1f", b"\x85", b"\xa0", b"\xff"]
NOT_WEIGHTS = [b"nan", b"NaN", b"-nan", b"inf", b"-inf", b"Infinity", b"1e999", b"9007199254740993"]


class File:
    """A generated file: its lines (without line ends), what each is, and the graph it holds."""

    def __init__(self, fmt: str, lines: list[bytes], kinds: list[str], n: int, arcs, directed: bool, weighted: bool,
                 field: str):
        self.fmt, self.lines, self.kinds, self.n = fmt, lines, kinds, n
        self.arcs, self.directed, self.weighted, self.field = arcs, directed, weighted, field

    def rows(self, kind: str) -> list[int]:
        return [i for i, k in enumerate(self.kinds) if k == kind]


def join(draw, fields: list[bytes]) -> bytes:
    line = draw(st.sampled_from([b"", b"", b" ", b"\t"]))
    for k, f in enumerate(fields):
        line += f + (draw(st.sampled_from(SEP)) if k + 1 < len(fields) else b"")
    return line + draw(st.sampled_from([b"", b"", b" ", b"\t"]))


@st.composite
def valid_files(draw) -> File:
    fmt = draw(st.sampled_from(["dimacs", "snap", "mtx"]))
    n = draw(st.integers(2, 9))
    m = draw(st.integers(3, 10))
    field = {"dimacs": "integer", "snap": draw(st.sampled_from(["pattern", "integer", "real"])),
             "mtx": draw(st.sampled_from(["pattern", "integer", "real"]))}[fmt]
    weighted = field != "pattern"
    base = 0 if fmt == "snap" else 1
    arcs = []
    for _ in range(m):
        u, v = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        w = None
        if field == "integer":
            w = draw(st.integers(-1000, 10**6))
        elif field == "real":
            w = draw(st.sampled_from([0.5, -2.25, 1e-3, 3.0, 1e10, 7.125]))
        arcs.append((u, v, w))
    body, kinds = [], []
    for u, v, w in arcs:
        toks = ([b"a"] if fmt == "dimacs" else []) + [str(u + base).encode(), str(v + base).encode()]
        if w is not None:
            toks.append(repr(w).encode())
        body.append(join(draw, toks))
        kinds.append("arc")
    symmetric = fmt == "mtx" and draw(st.booleans())
    if fmt == "dimacs":
        head, head_kinds = [join(draw, [b"p", b"sp", str(n).encode(), str(m).encode()])], ["header"]
    elif fmt == "snap":
        head, head_kinds = [b"# Directed graph"], ["comment"]
        if draw(st.booleans()):
            head.append(f"# Nodes: {n} Edges: {m}".encode())
            head_kinds.append("nodes")
    else:
        head = [b"%%MatrixMarket matrix coordinate " + field.encode() + (b" symmetric" if symmetric else b" general"),
                join(draw, [str(n).encode(), str(n).encode(), str(m).encode()])]
        head_kinds = ["banner", "size"]
    lines, kinds = head + body, head_kinds + kinds
    first = 1 if fmt == "mtx" else 0  # comments may come anywhere after a Matrix Market banner
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(first, len(lines)))
        lines.insert(at, draw(st.sampled_from([b"", b" \t", COMMENT[fmt] + b" a comment, 1 2 3 x \x00\xa0"])))
        kinds.insert(at, "blank" if not lines[at].strip(b" \t") else "comment")
    return File(fmt, lines, kinds, n, arcs, not symmetric, weighted, field)


def encode(draw, F: File, lines: list[bytes]) -> tuple[bytes, bytes]:
    eol = draw(st.sampled_from(EOL))
    data = eol.join(lines) + (eol if draw(st.booleans()) else b"")
    return data, eol


def span(lines: list[bytes], eol: bytes, line: int) -> tuple[int, int]:
    """Byte offsets of the start and the end (line end included) of 1-based ``line``."""
    start = sum(len(x) + len(eol) for x in lines[:line - 1])
    return start, start + len(lines[line - 1]) + len(eol)


def write(tmp_path, F: File, data: bytes, gz: bool):
    path = tmp_path / (NAME[F.fmt] + (".gz" if gz else ""))
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def tokens(line: bytes) -> list[bytes]:
    return line.split()


def retoken(draw, line: bytes, toks: list[bytes]) -> bytes:
    return join(draw, toks)


@st.composite
def mutations(draw, F: File):
    """``(lines, line, what)``: ``F``'s lines with one corrupted, the 1-based line the error must name."""
    lines = list(F.lines)
    arcs = F.rows("arc")
    kinds = ["token", "id", "missing", "extra", "byte", "nonint_id", "count"]
    if F.weighted:
        kinds.append("weight")
    if F.fmt == "dimacs":
        kinds += ["lead", "header", "second_p", "arc_before_p"]
    if F.fmt == "mtx":
        kinds += ["size", "banner"]
    if "nodes" in F.kinds:
        kinds.append("nodes")
    kind = draw(st.sampled_from(kinds))
    i = draw(st.sampled_from(arcs))
    toks = tokens(lines[i])
    numeric = list(range(1 if F.fmt == "dimacs" else 0, len(toks)))
    ids = numeric[:2]
    if kind == "token":
        j = draw(st.sampled_from(numeric))
        toks[j] = draw(st.sampled_from(NOT_NUMBERS))
    elif kind == "id":
        j = draw(st.sampled_from(ids))
        bad = [-1, 2**31 - 1, 10**20] if F.fmt == "snap" else [0, F.n + 1, -1, 2**31, 10**20]
        toks[j] = str(draw(st.sampled_from(bad))).encode()
    elif kind == "nonint_id":
        toks[draw(st.sampled_from(ids))] = draw(st.sampled_from([b"1.5", b"2.25", b"1e-3"]))
    elif kind == "missing":
        toks = toks[:-1]
    elif kind == "extra":
        toks = toks + [b"1"]
    elif kind == "weight":
        toks[-1] = draw(st.sampled_from(NOT_WEIGHTS))
    elif kind == "lead":
        toks[0] = draw(st.sampled_from([b"b", b"A", b"arc", b"q"]))
    if kind in ("token", "id", "nonint_id", "missing", "extra", "weight", "lead"):
        lines[i] = retoken(draw, lines[i], toks)
        return lines, i + 1, kind
    if kind == "byte":
        at = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:at] + draw(st.sampled_from(ODD_BYTES)) + lines[i][at:]
        return lines, i + 1, kind
    if kind == "count":  # an arc more or less than announced: the announcing line is named
        if draw(st.booleans()):
            del lines[i]
        else:
            lines.insert(draw(st.integers(i, len(lines))), lines[i])
        if F.fmt == "snap":  # (SNAP's counts are no promise: the file stays valid; corrupt a token instead)
            j = len(lines) - 1 if not lines[-1].strip() else max(r for r in range(len(lines)) if lines[r].strip()
                                                                   and not lines[r].lstrip().startswith(b"#"))
            lines[j] = lines[j] + b" x"
            return lines, j + 1, kind
        announcing = F.kinds.index("header" if F.fmt == "dimacs" else "size")
        return lines, announcing + 1, kind
    if kind in ("header", "size"):
        h = F.kinds.index(kind)
        t = tokens(lines[h])
        numbers = [2, 3] if kind == "header" else [0, 1, 2]
        how = draw(st.sampled_from(["negative", "word", "missing", "extra", "keyword", "nonsquare"]))
        if how == "negative":
            t[numbers[-1]] = b"-" + t[numbers[-1]]
        elif how == "word":
            t[draw(st.sampled_from(numbers))] = draw(st.sampled_from(NOT_NUMBERS + [b"1.5", b"2e3"]))
        elif how == "missing":
            t = t[:-1]
        elif how == "extra":
            t = t + [b"7"]
        elif how == "keyword" and kind == "header":
            t[draw(st.sampled_from([0, 1]))] = draw(st.sampled_from([b"q", b"sq", b"P", b"SP"]))
        else:  # (a size line has no keyword) not square
            t[numbers[1]] = str(int(t[numbers[0]]) + 1).encode() if kind == "size" else b"x"
        lines[h] = join(draw, t)
        return lines, h + 1, kind
    if kind == "banner":
        t = tokens(lines[0])
        j = draw(st.integers(1, 4))
        t[j] = draw(st.sampled_from([b"complex", b"array", b"vector", b"hermitian", b"x"]))
        lines[0] = b" ".join(t)
        return lines, 1, kind
    if kind == "nodes":
        h = F.kinds.index("nodes")
        lines[h] = f"# Nodes: {draw(st.sampled_from([2**31, 10**12]))} Edges: 3".encode()
        return lines, h + 1, kind
    if kind == "second_p":
        at = draw(st.integers(F.kinds.index("header") + 1, len(lines)))
        lines.insert(at, lines[F.kinds.index("header")])
        return lines, at + 1, kind
    assert kind == "arc_before_p"
    at = draw(st.integers(0, F.kinds.index("header")))
    lines.insert(at, lines[i])
    return lines, at + 1, kind


def expected_graph(F: File):
    arcs = [(u, v, w) for u, v, w in F.arcs]
    if not F.directed:
        arcs += [(v, u, w) for u, v, w in F.arcs if u != v]
    return sorted((u, v, None if w is None else float(w)) for u, v, w in arcs)


BUFFERS = st.sampled_from([None, 64, 67, 100, 256])
SETTINGS = settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(st.data(), st.booleans(), BUFFERS)
def test_one_corrupted_line_is_the_line_named(tmp_path, data, gz, buffer_size):
    F = data.draw(valid_files())
    raw, eol = encode(data.draw, F, F.lines)
    G = graphs.read(write(tmp_path, F, raw, gz), buffer_size=buffer_size)  # the valid file reads as made
    src, dst, w = G.edges()
    got = sorted(zip(src.tolist(), dst.tolist(), [None] * G.nnz if w is None else w.tolist()))
    n = F.n if F.fmt != "snap" or "nodes" in F.kinds else 1 + max(max(u, v) for u, v, _ in F.arcs)
    assert (G.n, G.directed, got) == (n, F.directed, expected_graph(F))

    lines, line, kind = data.draw(mutations(F))
    raw = eol.join(lines) + (eol if data.draw(st.booleans()) else b"")
    path = write(tmp_path, F, raw, gz)
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path, buffer_size=buffer_size)
    e = info.value
    assert e.line == line, (kind, str(e), raw)
    start, end = span(lines, eol, line)
    assert start <= e.offset < end, (kind, e.offset, start, end, str(e))
    assert str(e).startswith(f"{path}, line {line} (byte offset {e.offset}): ")


@pytest.mark.parametrize("eol", EOL, ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("gz", [False, True])
def test_each_line_end_counts_lines(tmp_path, eol, gz):
    # the same file in each kind of line end: the same graph, and the same line named for the same mistake
    lines = [b"c comment", b"p sp 3 3", b"", b"a 1 2 7", b"c x", b"a 2 3 1", b"a 3 1 x"]
    path = tmp_path / ("g.gr.gz" if gz else "g.gr")
    data = eol.join(lines) + eol
    path.write_bytes(gzip.compress(data) if gz else data)
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path)
    assert info.value.line == 7 and "'x' is not a number" in str(info.value)
    assert info.value.offset == len(eol.join(lines[:6]) + eol) + len(b"a 3 1 ")
    lines[-1] = b"a 3 1 2"
    data = eol.join(lines)
    path.write_bytes(gzip.compress(data) if gz else data)
    G = graphs.read(path, dtype=np.int64)
    assert sorted(zip(*(x.tolist() for x in G.edges()))) == [(0, 1, 7), (1, 2, 1), (2, 0, 2)]
