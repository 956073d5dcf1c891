"""Graph files with odd bytes: :func:`graphs.read` accepts exactly what the formats allow.

Lines end with ``\\n`` or ``\\r\\n``; fields are separated by spaces and tabs only; a
number is a whole literal.  A plain reference reader written here from those rules
(line by line, Python's ``int`` and ``float`` on literals that a regular expression
accepted) must agree with :func:`graphs.read` on files generated with the bytes that
lenient readers mistake for whitespace or blank lines (NUL, ``\\x0b``, ``\\x0c``,
``\\x1c``-``\\x1f``, ``\\x85``, ``\\xa0``, a lone ``\\r``), cut or malformed numbers (a
lone sign, ``1e``, ``1e+``, ``.``), ``nan``, ``inf``, and integers beyond float64's
exact range or int64: the same graph, or an error on the same line.  Valid Matrix
Market files are also read by SciPy (``scipy.io.mmread``), which must give the same
matrix.
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
    """The lines, without their ``\\n`` or ``\\r\\n``; a ``\\r`` elsewhere is refused."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"" and data.endswith(b"\n"):
        lines.pop()
    if not data:
        lines = []
    out = []
    for i, line in enumerate(lines):
        if line.endswith(b"\r"):
            line = line[:-1]
        if b"\r" in line:
            raise Refused(i + 1)
        out.append(line)
    return out


def fields(line: bytes) -> list[bytes]:
    return [f for f in re.split(rb"[ \t]+", line) if f]


def lead(line: bytes):
    """The first byte that is not a space or a tab (None for a blank line)."""
    rest = line.lstrip(b" \t")
    return rest[:1] or None


def literal_ok(tok: bytes, integer: bool) -> bool:
    return bool(INT.fullmatch(tok) or (not integer and (FLOAT.fullmatch(tok) or WORD.fullmatch(tok))))


def ref_table(lines, rows, ncols, integer, skip_a=False):
    """The tokens of the data lines ``rows``: the first line with a wrong count or a token that is no literal is refused."""
    table = []
    for i in rows:
        f = fields(lines[i])
        if skip_a:
            if f[0] != b"a":
                raise Refused(i + 1)
            f = f[1:]
        if len(f) != ncols or not all(literal_ok(t, integer) for t in f):
            raise Refused(i + 1)
        table.append(f)
    return table


def ref_weights(table, rows, dtype):
    """Column 2 as weights of ``dtype`` (float64 or int64) under the value rules of graphs.io."""
    toks = [r[2] for r in table]
    if dtype == np.int64:
        for k, t in enumerate(toks):
            if not INT.fullmatch(t) or not I64.min < int(t) < I64.max:
                raise Refused(rows[k] + 1)
        return [int(t) for t in toks]
    # floats: first anything non-finite (nan, inf, overflow), then inexact integer literals
    for k, t in enumerate(toks):
        if WORD.fullmatch(t) or not math.isfinite(float(t)):
            raise Refused(rows[k] + 1)
    out = []
    for k, t in enumerate(toks):
        if INT.fullmatch(t):
            v = int(t)
            if float(v) != v:
                raise Refused(rows[k] + 1)
        out.append(float(t))
    return out


def ref_ids(table, rows, lo, hi):
    ids = []
    for k, r in enumerate(table):
        pair = []
        for t in r[:2]:
            v = float(t) if not INT.fullmatch(t) else int(t)
            if v != int(v) or not lo <= v <= hi:
                raise Refused(rows[k] + 1)
            pair.append(int(v))
        ids.append(pair)
    return ids


def reference_read(data: bytes, fmt: str, dtype):
    """``(n, directed, sorted arcs (u, v, w))`` as the rules say, or :class:`Refused` with the line."""
    lines = ref_lines(data)
    if fmt == "dimacs":
        kinds = [lead(x) for x in lines]
        for i, k in enumerate(kinds):
            if k is not None and k not in (b"c", b"p", b"a"):
                raise Refused(i + 1)
        ps = [i for i, k in enumerate(kinds) if k == b"p"]
        arcs = [i for i, k in enumerate(kinds) if k == b"a"]
        if not ps:
            raise Refused(arcs[0] + 1 if arcs else None)
        if len(ps) > 1:
            raise Refused(ps[1] + 1)
        if arcs and arcs[0] < ps[0]:
            raise Refused(arcs[0] + 1)
        p = fields(lines[ps[0]])
        if len(p) != 4 or p[0] != b"p" or p[1] != b"sp" or not p[2].isdigit() or not p[3].isdigit():
            raise Refused(ps[0] + 1)
        n, m = int(p[2]), int(p[3])
        if m != len(arcs):
            raise Refused(ps[0] + 1)
        table = ref_table(lines, arcs, 3, dtype == np.int64, skip_a=True)
        ids = ref_ids(table, arcs, 1, n)
        w = ref_weights(table, arcs, dtype)
        return n, True, sorted((a - 1, b - 1, x) for (a, b), x in zip(ids, w))
    if fmt == "snap":
        kinds = [lead(x) for x in lines]
        data_rows = [i for i, k in enumerate(kinds) if k is not None and k not in (b"#", b"%")]
        ncols = 2
        if data_rows:
            ncols = len(fields(lines[data_rows[0]]))
            if ncols not in (2, 3):
                raise Refused(data_rows[0] + 1)
        table = ref_table(lines, data_rows, ncols, not (ncols == 3 and dtype != np.int64))
        ids = ref_ids(table, data_rows, 0, 2**31 - 2)
        w = ref_weights(table, data_rows, dtype) if ncols == 3 else [None] * len(ids)
        n = max((max(a, b) for a, b in ids), default=-1) + 1
        return n, True, sorted((a, b, x) for (a, b), x in zip(ids, w))
    # Matrix Market
    if not lines or not data.startswith(b"%%MatrixMarket"):
        raise Refused(1)
    head = [f.lower() for f in fields(lines[0])]
    if (len(head) != 5 or head[:3] != [b"%%matrixmarket", b"matrix", b"coordinate"]
            or head[3] not in (b"real", b"integer", b"pattern", b"double") or head[4] not in (b"general", b"symmetric")):
        raise Refused(1)
    rest = [i for i, x in enumerate(lines) if lead(x) is not None and lead(x) != b"%"]
    if not rest:
        raise Refused(None)
    size = fields(lines[rest[0]])
    if len(size) != 3 or not all(t.isdigit() for t in size) or size[0] != size[1]:
        raise Refused(rest[0] + 1)
    n, nnz = int(size[0]), int(size[2])
    entries = rest[1:]
    if len(entries) != nnz:
        raise Refused(rest[0] + 1)
    pattern = head[3] == b"pattern"
    table = ref_table(lines, entries, 2 if pattern else 3, head[3] in (b"integer", b"pattern") or dtype == np.int64)
    ids = ref_ids(table, entries, 1, n)
    w = [None] * len(ids) if pattern else ref_weights(table, entries, dtype)
    arcs = [(a - 1, b - 1, x) for (a, b), x in zip(ids, w)]
    if head[4] == b"symmetric":
        arcs += [(b, a, x) for a, b, x in arcs if a != b]
    return n, head[4] == b"general", sorted(arcs)


def library_read(tmp_path, data: bytes, fmt: str, dtype, gz: bool = False):
    name = {"dimacs": "g.gr", "snap": "g.txt", "mtx": "g.mtx"}[fmt] + (".gz" if gz else "")
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if gz else data)
    try:
        G = graphs.read(path, dtype=dtype)
    except GraphFormatError as e:
        assert str(path) in str(e)
        if e.line is not None:
            assert f"line {e.line}:" in str(e)
        raise Refused(e.line) from None
    src, dst, w = G.edges()
    w = [None] * src.size if w is None else w.tolist()
    return G.n, G.directed, sorted(zip(src.tolist(), dst.tolist(), w))


def same_outcome(tmp_path, data: bytes, fmt: str, dtype, gz: bool = False):
    try:
        want = reference_read(data, fmt, dtype)
    except Refused as r:
        want = ("refused", r.line)
    try:
        got = library_read(tmp_path, data, fmt, dtype, gz)
    except Refused as r:
        got = ("refused", r.line)
    assert got == want, (data, fmt, dtype)
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
        self.eol = st.sampled_from([b"\n", b"\n", b"\r\n", b"\r"] if odd else [b"\n", b"\r\n"])
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
@given(graph_files(), st.sampled_from([None, np.int64]), st.booleans())
def test_files_with_odd_bytes_read_as_the_rules_say(tmp_path, case, dtype, gz):
    fmt, data = case
    same_outcome(tmp_path, data, fmt, np.float64 if dtype is None else dtype, gz)


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graph_files("mtx", odd=False))
def test_valid_matrix_market_files_read_as_scipy_reads_them(tmp_path, case):
    fmt, data = case
    try:
        n, _, _ = reference_read(data, fmt, np.float64)
    except Refused:
        return  # (SciPy's reader is lenient: it is only asked about valid files)
    if re.search(rb"[^\t\r\n\x20-\x7e]", data) or re.search(rb"(^|\n)[ \t]+\r?(\n|$)", data) or not data.endswith(b"\n"):
        # and only about plain ASCII text that ends with a line end and holds no line of blanks: SciPy 1.17's
        # reader crashes on a NUL (even in a comment), a line of blanks or blanks ending the file
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
    ("g.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n\x00\n1 2 3\n", 2, "the file has 2"),
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
    # line ends
    ("g.txt", b"0 1 2\r1 2 3\n", 1, "carriage return"),
    ("g.gr", b"c x\rp sp 2 1\na 1 2 3\n", 1, "carriage return"),
]


@pytest.mark.parametrize("name, data, line, what", CASES)
def test_malformed_bytes_name_the_line(tmp_path, name, data, line, what):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path)
    assert info.value.line == line, str(info.value)
    assert str(path) in str(info.value) and f"line {line}:" in str(info.value) and what in str(info.value), \
        str(info.value)
    fmt = {"g.txt": "snap", "g.gr": "dimacs", "g.mtx": "mtx"}[name]
    with pytest.raises(Refused) as r:
        reference_read(data, fmt, np.float64)
    assert r.value.line == line


def test_what_the_formats_allow_is_read(tmp_path):
    """Tabs, runs of blanks, leading and trailing blanks, \\r\\n, blank lines, a last line without \\n."""
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
