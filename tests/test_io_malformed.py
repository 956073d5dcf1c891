"""Graph files with odd bytes: :func:`graphs.read` accepts exactly what the formats allow.

Lines end with ``\\n``, ``\\r\\n`` or ``\\r`` (mixed too, as in Python's text mode);
fields are separated by spaces and tabs only; a number is a whole literal.  A plain
reference reader written here from those rules (line by line, in file order, Python's
``int`` and ``float`` on literals that a regular expression accepted) must agree with
:func:`graphs.read` on files generated with the bytes that lenient readers mistake for
whitespace or blank lines (NUL, ``\\x0b``, ``\\x0c``, ``\\x1c``-``\\x1f``, ``\\x85``,
``\\xa0``), carriage returns anywhere, cut or malformed numbers (a lone sign, ``1e``,
``1e+``, ``.``), ``nan``, ``inf``, and integers beyond float64's exact range or int64:
the same graph, or an error on the same line -- the first wrong line of the file, whatever
the read buffer's size (the files are also read through buffers of a few dozen bytes, so
that lines and line ends straddle the buffer's edges).  An announced arc count that
differs from the file's is reported on the line that announced it, once every line has
been read.  Valid Matrix Market files are also read by SciPy (``scipy.io.mmread``),
which must give the same matrix.
"""

from __future__ import annotations

import gzip
import io
import math
import re

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphs
from graphs import GraphFormatError

# -- the reference reader ----------------------------------------------------------------------

INT = re.compile(rb"[+-]?[0-9]+")
FLOAT = re.compile(rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
WORD = re.compile(rb"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
I64 = np.iinfo(np.int64)


class Refused(Exception):
    def __init__(self, line):
        self.line = line


def ref_lines(data: bytes) -> list[bytes]:
    """The lines, without their line ends: ``\\n``, ``\\r\\n`` or ``\\r`` (``bytes.splitlines`` splits at those only)."""
    return data.splitlines()


def fields(line: bytes) -> list[bytes]:
    return [f for f in re.split(rb"[ \t]+", line) if f]


def lead(line: bytes):
    """The first byte that is not a space or a tab (None for a blank line)."""
    rest = line.lstrip(b" \t")
    return rest[:1] or None


def literal_ok(tok: bytes, integer: bool) -> bool:
    return bool(INT.fullmatch(tok) or (not integer and (FLOAT.fullmatch(tok) or WORD.fullmatch(tok))))


def ref_row(line: bytes, number: int, ncols: int, integer: bool, skip_a: bool = False) -> list[bytes]:
    """The tokens of one data line, or :class:`Refused` (a wrong count, a token that is no literal)."""
    f = fields(line)
    if skip_a:
        if f[0] != b"a":
            raise Refused(number)
        f = f[1:]
    if len(f) != ncols or not all(literal_ok(t, integer) for t in f):
        raise Refused(number)
    return f


def ref_weight(tok: bytes, number: int, dtype):
    """One weight of ``dtype`` (float64 or int64) under the value rules of graphs.io."""
    if dtype == np.int64:
        if not INT.fullmatch(tok) or not I64.min < int(tok) < I64.max:
            raise Refused(number)
        return int(tok)
    if WORD.fullmatch(tok) or not math.isfinite(float(tok)):
        raise Refused(number)
    if INT.fullmatch(tok) and float(int(tok)) != int(tok):
        raise Refused(number)
    return float(tok)


def ref_ids(row: list[bytes], number: int, lo: int, hi: int) -> list[int]:
    pair = []
    for t in row[:2]:
        v = float(t) if not INT.fullmatch(t) else int(t)
        if v != int(v) or not lo <= v <= hi:
            raise Refused(number)
        pair.append(int(v))
    return pair


def reference_read(data: bytes, fmt: str, dtype):
    """``(n, directed, sorted arcs (u, v, w))`` as the rules say, or :class:`Refused` with the line.

    Lines are read in file order and the first wrong one is refused; a count
    announced by a header is compared with the file's once every line is read.
    """
    lines = ref_lines(data)
    arcs = []
    if fmt == "dimacs":
        header = None
        for i, line in enumerate(lines):
            k = lead(line)
            if k is None or k == b"c":
                continue
            if k not in (b"p", b"a") or (header is None and k == b"a") or (header is not None and k == b"p"):
                raise Refused(i + 1)  # an odd line, an arc before the 'p' line, a second 'p' line
            if k == b"p":
                p = fields(line)
                if len(p) != 4 or p[0] != b"p" or p[1] != b"sp" or not p[2].isdigit() or not p[3].isdigit():
                    raise Refused(i + 1)
                header = (i + 1, int(p[2]), int(p[3]))
                continue
            row = ref_row(line, i + 1, 3, dtype == np.int64, skip_a=True)
            a, b = ref_ids(row, i + 1, 1, header[1])
            arcs.append((a - 1, b - 1, ref_weight(row[2], i + 1, dtype)))
        if header is None:
            raise Refused(None)
        if len(arcs) != header[2]:
            raise Refused(header[0])
        return header[1], True, sorted(arcs)
    if fmt == "snap":
        # the column count most of the first 16 data lines have (of 2 and 3; on a tie the first), else the
        # first data line's
        data_lines = [line for line in lines if lead(line) not in (None, b"#", b"%")]
        votes = [c for c in (len(fields(line)) for line in data_lines[:16]) if c in (2, 3)]
        ncols = (2 if votes.count(2) > votes.count(3) else 3 if votes.count(3) > votes.count(2) else votes[0]) \
            if votes else None
        for i, line in enumerate(lines):
            k = lead(line)
            if k is None or k in (b"#", b"%"):
                continue
            if ncols is None:
                ncols = len(fields(line))
                if ncols not in (2, 3):
                    raise Refused(i + 1)
            row = ref_row(line, i + 1, ncols, not (ncols == 3 and dtype != np.int64))
            a, b = ref_ids(row, i + 1, 0, 2**31 - 2)
            arcs.append((a, b, ref_weight(row[2], i + 1, dtype) if ncols == 3 else None))
        n = max((max(a, b) for a, b, _ in arcs), default=-1) + 1
        return n, True, sorted(arcs)
    # Matrix Market
    if not lines or not data.startswith(b"%%MatrixMarket"):
        raise Refused(1)
    head = [f.lower() for f in fields(lines[0])]
    if (len(head) != 5 or head[:3] != [b"%%matrixmarket", b"matrix", b"coordinate"]
            or head[3] not in (b"real", b"integer", b"pattern", b"double") or head[4] not in (b"general", b"symmetric")):
        raise Refused(1)
    pattern = head[3] == b"pattern"
    size = None
    for i, line in enumerate(lines):
        k = lead(line)
        if k is None or k == b"%":
            continue
        if size is None:
            f = fields(line)
            if len(f) != 3 or not all(t.isdigit() for t in f) or f[0] != f[1]:
                raise Refused(i + 1)
            size = (i + 1, int(f[0]), int(f[2]))
            continue
        row = ref_row(line, i + 1, 2 if pattern else 3, head[3] in (b"integer", b"pattern") or dtype == np.int64)
        a, b = ref_ids(row, i + 1, 1, size[1])
        arcs.append((a - 1, b - 1, None if pattern else ref_weight(row[2], i + 1, dtype)))
    if size is None:
        raise Refused(None)
    if len(arcs) != size[2]:
        raise Refused(size[0])
    if head[4] == b"symmetric":
        arcs += [(b, a, x) for a, b, x in arcs if a != b]
    return size[1], head[4] == b"general", sorted(arcs)


def line_span(data: bytes, line: int) -> tuple[int, int]:
    """Byte offsets of the start and the end (its line end included) of 1-based ``line`` of ``data``."""
    rows = data.splitlines(keepends=True)
    start = sum(len(r) for r in rows[:line - 1])
    return start, start + (len(rows[line - 1]) if line <= len(rows) else 0)


def library_read(tmp_path, data: bytes, fmt: str, dtype, gz: bool = False, buffer_size=None):
    name = {"dimacs": "g.gr", "snap": "g.txt", "mtx": "g.mtx"}[fmt] + (".gz" if gz else "")
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if gz else data)
    try:
        G = graphs.read(path, dtype=dtype, buffer_size=buffer_size)
    except GraphFormatError as e:
        assert str(path) in str(e)
        if e.line is not None:
            assert f"line {e.line} (byte offset {e.offset}):" in str(e)
            start, end = line_span(data, e.line)
            assert start <= e.offset <= max(start, end - 1), (e.offset, start, end)  # on the line it names
        raise Refused(e.line) from None
    src, dst, w = G.edges()
    w = [None] * src.size if w is None else w.tolist()
    return G.n, G.directed, sorted(zip(src.tolist(), dst.tolist(), w))


def same_outcome(tmp_path, data: bytes, fmt: str, dtype, gz: bool = False, buffer_size=None):
    try:
        want = reference_read(data, fmt, dtype)
    except Refused as r:
        want = ("refused", r.line)
    try:
        got = library_read(tmp_path, data, fmt, dtype, gz, buffer_size)
    except Refused as r:
        got = ("refused", r.line)
    assert got == want, (data, fmt, dtype, buffer_size)
    return want


# -- generated files ---------------------------------------------------------------------------

ODD = [b"\x00", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\x1f", b"\x85", b"\xa0", b"\r"]
GOOD_SEP = [b" ", b"\t", b"  ", b" \t"]
GOOD_WEIGHTS = [b"7", b"-3", b"+2", b"0", b"-15", b"2.5", b"-1e-3", b".5", b"5.", b"1E3", b"+.5", b"1e-400",
                b"-9223372036854775808", b"99999999999999999999", b"4611686018427387904"]
BAD_WEIGHTS = [b"-", b"+", b"1e", b"1e+", b".", b"1.2.3", b"--1", b"1-", b"e5", b"-.", b"0x10", b"1_0",
               b"nan", b"-inf", b"Infinity", b"1e400", b"9007199254740993", b"9223372036854775807"]


class Pools:
    """What a file is made of: clean files use the good parts only, odd ones every part."""

    def __init__(self, odd: bool) -> None:
        self.sep = st.sampled_from(GOOD_SEP * 4 + ODD) if odd else st.sampled_from(GOOD_SEP)
        self.edge = st.sampled_from([b""] * 8 + [b" ", b"\t"] + ODD) if odd else st.sampled_from([b"", b" ", b"\t"])
        self.eol = st.sampled_from([b"\n", b"\n", b"\r\n", b"\r"] if odd else [b"\n", b"\r\n", b"\r"])
        self.weight = st.sampled_from(GOOD_WEIGHTS + BAD_WEIGHTS) if odd else st.sampled_from(GOOD_WEIGHTS)
        self.odd = odd


@st.composite
def data_line(draw, P: Pools, ids: range, weighted: bool, prefix: bytes = b""):
    u, v = draw(st.sampled_from(ids)), draw(st.sampled_from(ids))
    toks = [prefix] if prefix else []
    toks += [str(u).encode(), str(v).encode()]
    if weighted:
        toks.append(draw(P.weight))
    if P.odd and draw(st.integers(0, 9)) == 0:  # a field too many or too few
        toks = toks[:-1] if draw(st.booleans()) else toks + [b"1"]
    line = draw(P.edge)
    for k, t in enumerate(toks):
        line += t + (draw(P.sep) if k + 1 < len(toks) else b"")
    return line + draw(P.edge)


@st.composite
def graph_files(draw, fmt: str | None = None, odd: bool | None = None):
    fmt = fmt or draw(st.sampled_from(["dimacs", "snap", "mtx"]))
    P = Pools(draw(st.booleans()) if odd is None else odd)
    n = 5
    m = draw(st.integers(0, 6))
    weighted = fmt == "dimacs" or draw(st.booleans())
    ids = range(1, n + 1) if fmt != "snap" else range(0, n)
    body = [draw(data_line(P, ids, weighted, b"a" if fmt == "dimacs" else b"")) for _ in range(m)]
    comment = {"dimacs": b"c note", "snap": b"# note", "mtx": b"% note \x00\x85"}[fmt]
    others = [b"", b" \t", comment] + ([b"\x0c", b"\x00", b"\x85", b"\x00" + comment] if P.odd else [])
    for x in draw(st.lists(st.sampled_from(others), max_size=3)):  # blank (or not quite) and comment lines
        body.insert(draw(st.integers(0, len(body))), x)
    if fmt == "dimacs":
        head = [b"c made up", b"p" + draw(P.sep) + b"sp" + draw(P.sep) + f"{n} {m}".encode()]
    elif fmt == "snap":
        head = [b"# made up"]
    else:
        field = b"real" if weighted else b"pattern"
        kind = draw(st.sampled_from([b"general", b"symmetric"]))
        head = [b"%%MatrixMarket" + draw(P.sep) + b"matrix coordinate " + field + b" " + kind, b"% made up",
                f"{n}".encode() + draw(P.sep) + f"{n} {m}".encode()]
    lines = head + body
    data = b"".join(x + draw(P.eol) for x in lines[:-1]) + lines[-1] + draw(st.sampled_from([b"", b"\n", b"\r\n"]))
    if P.odd and draw(st.integers(0, 3)) == 0:  # a file cut short anywhere (inside a number, say)
        data = data[:draw(st.integers(0, len(data)))]
    return fmt, data


TMP = settings(deadline=None, max_examples=600, suppress_health_check=[HealthCheck.function_scoped_fixture])


@TMP
@given(graph_files(), st.sampled_from([None, np.int64]), st.booleans(), st.sampled_from([None, 64, 71, 100]))
def test_files_with_odd_bytes_read_as_the_rules_say(tmp_path, case, dtype, gz, buffer_size):
    fmt, data = case
    same_outcome(tmp_path, data, fmt, np.float64 if dtype is None else dtype, gz, buffer_size)


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graph_files("mtx", odd=False))
def test_valid_matrix_market_files_read_as_scipy_reads_them(tmp_path, case):
    fmt, data = case
    try:
        n, _, _ = reference_read(data, fmt, np.float64)
    except Refused:
        return  # (SciPy's reader is lenient: it is only asked about valid files)
    if (re.search(rb"[^\t\r\n\x20-\x7e]", data) or re.search(rb"(^|\n)[ \t]+\r?(\n|$)", data)
            or not data.endswith(b"\n") or re.search(rb"\r(?!\n)", data)):
        # and only about plain ASCII text that ends with a line end and holds no line of blanks: SciPy 1.17's
        # reader crashes on a NUL (even in a comment), a line of blanks or blanks ending the file, and does not
        # take a lone \r for a line end
        return
    path = tmp_path / "g.mtx"
    path.write_bytes(data)
    try:
        M = scipy.io.mmread(io.BytesIO(data)).tocsr()
    except ValueError:
        return  # SciPy refuses a few valid literals ('+.5')
    G = graphs.read(path)
    src, dst, w = G.edges()
    A = sp.coo_array((np.ones(src.size) if w is None else w, (src, dst)), shape=(G.n, G.n)).toarray()
    assert A.shape == M.shape == (n, n)
    np.testing.assert_array_equal(A, M.toarray())  # parallel entries summed on both sides


# -- the concrete cases --------------------------------------------------------------------------

CASES = [
    # a line whose first byte is NUL is no blank line
    ("g.txt", b"0 1 2\n\x001 2 3\n", 2, "byte 0x00"),
    ("g.gr", b"p sp 2 1\n\x00a 1 2 3\n", 2, "starts with 'c', 'p' or 'a'"),
    ("g.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n\x00\n1 2 3\n", 3, "byte 0x00"),
    # a lone sign (a file cut inside "-15") is no 0
    ("g.txt", b"0 1 2\n1 2 -", 2, "'-' is not a number"),
    ("g.txt", b"0 1\n1 +\n", 2, "'+' is not"),
    ("g.gr", b"p sp 3 2\na 1 2 7\na 2 3 -", 3, "'-' is not"),
    ("g.mtx", b"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 +\n", 3, "'+' is not"),
    ("g.txt", b"0 1 2.5\n1 2 1e+\n", 2, "'1e+' is not a number"),
    # separators other than space and tab
    ("g.mtx", b"%%MatrixMarket\x1cmatrix coordinate real general\n2 2 1\n1 2 3\n", 1, "%%MatrixMarket matrix"),
    ("g.mtx", b"%%MatrixMarket matrix coordinate real\x1fgeneral\n2 2 1\n1 2 3\n", 1, "%%MatrixMarket matrix"),
    ("g.mtx", b"%%MatrixMarket matrix coordinate real general\n2\x1e2 1\n1 2 3\n", 2, "size line"),
    ("g.txt", b"0\x0b1 2\n", 1, "byte 0x0b"),
    ("g.txt", b"0 1 2\n1\xa02 3\n", 2, "byte 0xa0"),
    ("g.txt", b"0 1 2\n1 2 3\x85\n", 2, "byte 0x85"),
    ("g.gr", b"p\x0csp 2 1\na 1 2 3\n", 1, "expected 'p sp N M'"),
    ("g.gr", b"p sp 2 1\na\x1d1 2 3\n", 2, "byte 0x1d"),
    ("g.gr", b"p sp 2 1\na1 2 3\n", 2, "expected 'a u v w'"),
    ("g.txt", b"# c\n\x0c\n0 1 2\n", 2, "byte 0x0c"),
    # line ends: \n, \r\n and \r, mixed; the first wrong line, not a later one
    ("g.txt", b"0 1 2\r1 2 x\r", 2, "'x' is not a number"),
    ("g.txt", b"0 1\r\n1 2\r2 x\n", 3, "'x' is not a number"),
    ("g.txt", b"0 1\r\r\n1 2 3\n", 3, "expected 2 fields, got 3"),
    ("g.gr", b"c x\rp sp 2 1\ra 1 2\ra 1 2 3\r", 3, "expected 3 fields, got 2"),
    ("g.gr", b"p sp 2 1\na 1 2 3\na 1 3 x\n", 3, "'x' is not a number"),  # before the count
    ("g.gr", b"p sp 2 2\na 1 3 1\nq\n", 2, "ids must be in 1..2"),  # the first wrong line
    ("g.gr", b"p sp 2 1\na 1 2 3\rx\r", 3, "starts with 'c', 'p' or 'a'"),
    ("g.mtx", b"%%MatrixMarket matrix coordinate real general\r% c\r2 2 1\r1 2 nan\r", 4, "NaN"),
]


@pytest.mark.parametrize("name, data, line, what", CASES)
def test_malformed_bytes_name_the_line(tmp_path, name, data, line, what):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path)
    assert info.value.line == line, str(info.value)
    e = info.value
    assert str(path) in str(e) and f"line {line} (byte offset {e.offset}):" in str(e) and what in str(e), str(e)
    start, end = line_span(data, line)
    assert start <= e.offset < end, (e.offset, start, end)
    fmt = {"g.txt": "snap", "g.gr": "dimacs", "g.mtx": "mtx"}[name]
    with pytest.raises(Refused) as r:
        reference_read(data, fmt, np.float64)
    assert r.value.line == line


def test_what_the_formats_allow_is_read(tmp_path):
    """Tabs, runs of blanks, leading and trailing blanks, \\r\\n and \\r, blank lines, a last line without \\n."""
    p = tmp_path / "g.txt"
    p.write_bytes(b"# c\r\n\t0\t1  2.5 \r\n \t\n 1 2\t-1e-3\t\r\n\n2 3 +.5")
    G = graphs.read(p)
    assert sorted(zip(*(x.tolist() for x in G.edges()))) == [(0, 1, 2.5), (1, 2, -1e-3), (2, 3, 0.5)]
    p = tmp_path / "g.gr"
    p.write_bytes(b"c x\r\n\r\np\tsp 3 2\r\na\t1 2 +7\r\n  a 2\t3 -15")
    assert graphs.read(p, dtype=np.int64).weights.tolist() == [7, -15]
    p = tmp_path / "g.mtx"
    p.write_bytes(b"%%MatrixMarket\tmatrix coordinate REAL general\r\n%\x00 comments are free text\xa0\n\t2 2 1\n1\t2\t3\n")
    assert graphs.read(p).weights.tolist() == [3.0]
    # \r alone ends a line (old Mac files), also mixed with \n and \r\n; \r\r\n is a line and a blank line
    p = tmp_path / "g.txt"
    p.write_bytes(b"# c\r0 1 2\r\r\n1 2 3\n2 3 4\r")
    assert sorted(zip(*(x.tolist() for x in graphs.read(p).edges()))) == [(0, 1, 2.0), (1, 2, 3.0), (2, 3, 4.0)]
