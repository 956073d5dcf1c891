"""The three file formats of :mod:`graphs.io`, each read chunk by chunk into a :class:`~graphs.graph.Graph`.

A reader is fed the chunks of :class:`graphs.io._text_chunks.TextChunks` in file
order (:meth:`FormatReader.feed`) and builds the graph at the end
(:meth:`FormatReader.finish`).  Comment lines are skipped inside the compiled
line scan and cost nothing; the numbers of each chunk's data lines are
parsed, checked and appended to an :class:`ArcStore`; nothing else of a chunk
is kept.  The first wrong line of the file is the one reported, whatever the
buffer size: a chunk's checks each find their first wrong line and the
earliest wins.  Counts the file announces (DIMACS ``p sp N M``, the Matrix
Market size line, SNAP's ``Nodes:``) are checked against the memory the graph
will need before anything of that size is allocated, and the arc count
against the arcs read at the end.
"""

from __future__ import annotations

import re

import numpy as np

from .. import validate
from ..errors import GraphFormatError
from ..graph import Graph
from ._parse import (
    INDEX_LIMIT,
    LIMIT_WHY,
    ChunkLines,
    Problem,
    check_ids,
    check_weights,
    comment_mask,
    fields_of,
    first_problem,
    parse_rows,
)
from ._text_chunks import Chunk, TextChunks

__all__ = ["FormatReader", "DimacsReader", "SnapReader", "MtxReader", "ArcStore", "READERS"]

#: gzip's deflate expands at most about 1032 times: the most text a compressed file can hold per byte.
GZIP_MAX_RATIO = 1032
#: Memory needs below this are not checked against the machine (reading the limits would cost more).
CHECK_MEMORY_ABOVE = 2**28


class ArcStore:
    """The arcs read so far (0-based ``src``, ``dst`` as int64, and weights), at most ``limit`` of them kept.

    Arcs beyond ``limit`` (more than the file announced) are counted, not
    kept: the count is what the error message needs.  ``capacity`` (a
    plausible announced count) preallocates; otherwise the chunks' arrays are
    joined at the end.

    >>> s = ArcStore(np.dtype(np.float64), True, capacity=3, limit=3)
    >>> s.add(np.array([0, 1]), np.array([1, 2]), np.array([0.5, 1.5]))
    >>> s.add(np.array([2, 3]), np.array([0, 0]), np.array([2.5, 3.5]))
    >>> s.count, [a.tolist() for a in s.arrays()]
    (4, [[0, 1, 2], [1, 2, 0], [0.5, 1.5, 2.5]])
    """

    def __init__(self, dtype: np.dtype, weighted: bool, capacity: int = 0, limit: int | None = None) -> None:
        self.dtype, self.weighted, self.limit = dtype, weighted, limit
        self.count = 0
        self._parts: list[tuple[np.ndarray, np.ndarray, np.ndarray | None]] = []
        self._full = None
        if capacity:
            self._full = (np.empty(capacity, np.int64), np.empty(capacity, np.int64),
                          np.empty(capacity, dtype) if weighted else None)

    def add(self, src: np.ndarray, dst: np.ndarray, w: np.ndarray | None) -> None:
        k = src.shape[0]
        stored = self.count if self.limit is None else min(self.count, self.limit)
        take = k if self.limit is None else max(0, min(k, self.limit - stored))
        self.count += k
        if take == 0:
            return
        src, dst = src[:take], dst[:take]
        w = None if w is None else w[:take]
        if self._full is not None and stored + take <= self._full[0].shape[0]:
            s, d, x = self._full
            s[stored:stored + take] = src
            d[stored:stored + take] = dst
            if x is not None:
                x[stored:stored + take] = w
            return
        if self._full is not None:  # (not reached with an exact capacity) the arcs so far become the first part
            s, d, x = self._full
            self._parts = [(s[:stored], d[:stored], None if x is None else x[:stored])]
            self._full = None
        self._parts.append((src, dst, w))

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``(src, dst, weights)`` of the kept arcs (weights None when unweighted)."""
        if self._full is not None:
            kept = self.count if self.limit is None else min(self.count, self.limit)
            s, d, x = self._full
            return s[:kept], d[:kept], None if x is None else x[:kept]
        if not self._parts:
            return (np.zeros(0, np.int64), np.zeros(0, np.int64),
                    np.zeros(0, self.dtype) if self.weighted else None)
        if len(self._parts) == 1:
            return self._parts[0]
        s, d, x = zip(*self._parts)
        self._parts = []
        return np.concatenate(s), np.concatenate(d), None if not self.weighted else np.concatenate(x)


class FormatReader:
    """What the three readers share: chunks in, lines scanned, arcs stored, the graph built.

    Subclasses set :attr:`COMMENT` (the lead bytes of comment lines) and
    :attr:`SHORTEST_ARC` (bytes of the shortest arc line, to bound a
    plausible announced count), and implement :meth:`lines` and :meth:`finish`.
    """

    COMMENT = b""
    SHORTEST_ARC = 4

    def __init__(self, path: str, dtype: np.dtype, directed: bool | None, source: TextChunks) -> None:
        self.path, self.dtype, self.directed, self.source = path, dtype, directed, source
        self.comment = comment_mask(self.COMMENT)
        self.keep = 0  # comment lines still wanted (SNAP's header)
        self.line0 = 0  # lines before the next chunk
        self.store: ArcStore | None = None

    def feed(self, chunk: Chunk) -> None:
        """Read the lines of ``chunk``; raise at its first wrong line."""
        L = ChunkLines(self.path, chunk, self.line0, self.comment, self.keep)
        self.line0 += L.count
        self.keep -= int(np.count_nonzero(L.is_comment))
        if chunk.cut:  # the first bytes of one long line: a comment line may be that long, nothing else
            lead = bytes(chunk.data).lstrip(b" \t")[:1]
            if not lead or not self.comment[lead[0]]:
                self.flush()  # (lines held back come first)
                raise self.too_long(L)
        self.lines(L)

    def flush(self) -> None:
        """Read the lines held back, if any (SNAP's first data lines)."""

    def too_long(self, L: ChunkLines) -> GraphFormatError:
        """A line longer than the buffer that is no comment line."""
        what = (f"a line longer than the read buffer of {self.source.size} bytes (graphs.read's buffer_size=), "
                "and not a comment line")
        if len(L):
            return L.error(0, f"{what}: {L.shown(0)}")
        return GraphFormatError(self.path, L.line0 + 1, what, offset=L.offset0)

    def lines(self, L: ChunkLines) -> None:  # pragma: no cover - abstract
        """Read the kept lines of one chunk."""
        raise NotImplementedError

    def finish(self) -> Graph:  # pragma: no cover - abstract
        """The graph, once every chunk has been fed."""
        raise NotImplementedError

    # -- shared pieces ----------------------------------------------------------------------
    def plausible(self, m: int) -> int:
        """``m`` if the file can hold that many arc lines, else what it can hold (a capacity to preallocate)."""
        text = self.source.file_bytes * (GZIP_MAX_RATIO if self.source.compressed else 1)
        return max(0, min(m, text // self.SHORTEST_ARC))

    def size(self, L: ChunkLines, k: int, at: int, tok: bytes, what: str) -> int:
        """A vertex count from row ``k`` (token ``tok`` at offset ``at``), checked against the int32 index limit."""
        v = int(tok)
        if v > INDEX_LIMIT:
            raise L.error(k, f"{what} is too large: a graph has {LIMIT_WHY} (value {v}): {L.text(k)!r}", at)
        return v

    def fits(self, L: ChunkLines, k: int, what: str, n: int, m: int, undirected: bool) -> None:
        """Refuse, at row ``k``, a graph of ``n`` vertices and ``m`` arcs whose reading would not fit in memory.

        The arcs as read (two int64 ids and a weight each), then the CSR
        arrays :func:`graphs.validate.csr_bytes` counts (twice the arcs for
        an undirected graph).
        """
        itemsize = self.dtype.itemsize if self.weighted() else 0
        need = m * (16 + itemsize) + validate.csr_bytes(n, m * (2 if undirected else 1), itemsize)
        if need <= CHECK_MEMORY_ABOVE:
            return
        have = validate.available_memory()
        if have is not None and need > have:
            size = f"{n} vertices" + (f" and {m} arcs" if m else "")
            raise L.error(k, f"{what} {size}, which need {need} bytes ({need / 2**30:.1f} GiB) to read and store; "
                             f"{have / 2**30:.1f} GiB of memory is available: {L.text(k)!r}")

    def weighted(self) -> bool:
        return True

    def arcs(self, L: ChunkLines, rows: np.ndarray, ncols: int, skip_first: bool, integer: bool | None,
             lo: int, hi: int, what: str, limit_what: str | None = None) -> tuple[np.ndarray, Problem | None]:
        """Parse and check the arc lines ``rows``; store their arcs; return the ids and the first problem.

        The problem (or None) is the first wrong row among ``rows``: a field,
        then an id, then a weight; the arcs before it are stored.
        """
        T, wrong = parse_rows(L, rows, ncols, skip_first, integer)
        ids, bad_id = check_ids(T, lo, hi, what, limit_what)
        w, bad_w = check_weights(T, 2, self.dtype) if ncols == 3 else (None, None)
        problem = first_problem(bad_id, bad_w, wrong)
        if problem is not None:
            return None, problem
        self.store.add(ids[:, 0] - lo, ids[:, 1] - lo, w)
        return ids, None


def _spans(L: ChunkLines, k: int) -> list[tuple[int, bytes]]:
    """The fields of row ``k`` with their offsets in the chunk."""
    raw = L.raw(k)
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    start = L.line_start(k)
    return [(start + m.start(), m.group()) for m in re.finditer(rb"[^ \t]+", raw)]


# -- DIMACS ---------------------------------------------------------------------------------------
class DimacsReader(FormatReader):
    """``c`` comments, one ``p sp N M`` line, then ``M`` lines ``a u v w`` (1-based ids)."""

    COMMENT = b"c"
    SHORTEST_ARC = 8  # "a 1 2 3\n"

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.n = self.m = None
        self.header: tuple[int, int] | None = None  # line number and byte offset of the 'p' line

    def lines(self, L: ChunkLines) -> None:
        rows = len(L)
        if rows == 0:
            return
        first = L.first[:rows]
        odd = (first != ord("p")) & (first != ord("a"))
        stop = int(np.argmax(odd)) if odd.any() else rows
        start = 0
        if self.header is None:
            ps = np.flatnonzero(first[:stop] == ord("p"))
            if ps.size == 0 or ps[0] > 0:
                if stop > 0 or ps.size:
                    raise L.error(0, "no 'p sp N M' line before the arcs")
                raise L.error(0, f"a DIMACS line starts with 'c', 'p' or 'a', got {L.shown(0)}")
            self.p_line(L, 0)
            start = 1
        second = np.flatnonzero(first[start:stop] == ord("p"))
        end = start + int(second[0]) if second.size else stop
        if end > start:
            _, problem = self.arcs(L, np.arange(start, end), 3, True, True if self.dtype.kind == "i" else None,
                                   1, self.n, "DIMACS vertex")
            if problem is not None:
                raise problem.error
        if end < rows:
            if end == stop:
                raise L.error(end, f"a DIMACS line starts with 'c', 'p' or 'a', got {L.shown(end)}")
            raise L.error(end, "a second 'p' line")

    def p_line(self, L: ChunkLines, k: int) -> None:
        toks = _spans(L, k)
        f = [t for _, t in toks]
        if len(f) != 4 or f[0] != b"p" or f[1] != b"sp" or not f[2].isdigit() or not f[3].isdigit():
            raise L.error(k, f"expected 'p sp N M', got {L.shown(k)}")
        n = self.size(L, k, toks[2][0], f[2], "the vertex count N of 'p sp N M'")
        m = int(f[3])
        self.fits(L, k, "the 'p' line announces", n, m, self.directed is False)
        self.n, self.m = n, m
        self.header = (L.line_number(k), L.file_offset(k))
        self.store = ArcStore(self.dtype, True, capacity=self.plausible(m), limit=m)

    def finish(self) -> Graph:
        if self.header is None:
            raise GraphFormatError(self.path, None, "no 'p sp N M' line before the arcs")
        if self.store.count != self.m:
            line, offset = self.header
            raise GraphFormatError(self.path, line, f"the 'p' line announces {self.m} arcs, the file has "
                                                    f"{self.store.count}", offset=offset)
        src, dst, w = self.store.arrays()
        G = Graph.from_edges(src, dst, w, n=self.n)
        if self.directed is False:
            src, dst, w = G.edges()
            G = Graph.from_edges(src, dst, w, n=G.n, directed=False)
        G._cache["file_id_base"] = 1  # for the messages of graphs._arguments.check_vertex
        return G


# -- SNAP -----------------------------------------------------------------------------------------
_NODES = re.compile(rb"Nodes:\s*(\d+)")
_EDGES = re.compile(rb"Edges:\s*(\d+)")
_UNDIRECTED = re.compile(rb"^#\s*undirected", re.IGNORECASE | re.MULTILINE)
#: SNAP's header: the first this many comment lines of the file.
HEADER_LINES = 50
#: SNAP's column count is the one most of the first this many data lines have.
PROBE_LINES = 16
#: Bytes of each header line kept for the direction ('# Undirected graph ...').
HEADER_BYTES = 4096


class SnapReader(FormatReader):
    """``#`` / ``%`` comments (the first 50 are the header), then ``u v`` or ``u v w`` lines (0-based ids).

    The column count is the one most of the first :data:`PROBE_LINES` data
    lines have (:meth:`columns`): those lines are held back (their bytes,
    line numbers and offsets) until it is known, then read in file order, so
    that the answer and the line an error names do not depend on the
    buffer.  Every data line must have that count.

    ``Edges: M`` in the header only sizes the arrays: SNAP's own files do
    not always list as many (email-Enron announces 367662 and lists 367660).
    """

    COMMENT = b"#%"
    SHORTEST_ARC = 4  # "0 1\n"

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.keep = HEADER_LINES
        self.header: list[bytes] = []
        self.nodes = 0
        self.nodes_at: tuple[int, int] | None = None
        self.edges_hint = 0
        self.ncols: int | None = None
        self.held: list[tuple[int, int, bytes]] = []  # the first data lines, until the column count is known
        self.top = (-1, 0, 0)  # the largest id so far, its line and byte offset

    def weighted(self) -> bool:
        return self.ncols == 3

    def lines(self, L: ChunkLines) -> None:
        start = 0
        if self.ncols is None:  # hold the first data lines back (read the header lines among them)
            for k in range(len(L)):
                start = k + 1
                if L.is_comment[k]:
                    self.header_line(L, k)
                    continue
                self.held.append((L.line_number(k), L.file_offset(k), L.raw(k)))
                if len(self.held) == PROBE_LINES:
                    self.flush()
                    break
            if self.ncols is None:
                return
        self.stream(L, start)

    def flush(self) -> None:
        if self.ncols is not None or not self.held:
            return
        L = ChunkLines.of_lines(self.path, self.held)
        self.held = []
        self.ncols = self.columns(L)
        self.stream(L, 0)

    def stream(self, L: ChunkLines, start: int) -> None:
        """Read rows ``start:`` of ``L`` (the column count known)."""
        rows = len(L)
        if rows <= start:
            return
        comments = start + np.flatnonzero(L.is_comment[start:rows])
        data = start + np.flatnonzero(~L.is_comment[start:rows])
        for c in comments.tolist():  # the header: at most 50 lines in a file
            if data.size and c > data[0]:
                break  # after a data line: read once the data before it is known good
            self.header_line(L, c)
        if data.size == 0:
            return
        if self.store is None:
            self.store = ArcStore(self.dtype, self.ncols == 3, capacity=self.plausible(self.edges_hint))
        integer = None if self.ncols == 3 and self.dtype.kind == "f" else True
        ids, problem = self.arcs(L, data, self.ncols, False, integer, 0, INDEX_LIMIT - 1, "SNAP vertex",
                                 limit_what=f"SNAP vertex id too large: a graph has {LIMIT_WHY}, so ids are at most "
                                            f"{INDEX_LIMIT - 1}")
        bad_row = int(data[problem.row]) if problem is not None else rows
        for c in comments.tolist():  # the header lines among the data, before the first wrong data line
            if data[0] < c < bad_row:
                self.header_line(L, c)
        if problem is not None:
            raise problem.error
        if ids.size:
            flat = int(np.argmax(ids))
            k, j = divmod(flat, 2)
            if ids[k, j] > self.top[0]:
                # (where it is, only for an id that may make the graph too large to build: counting lines costs)
                big = validate.csr_bytes(int(ids[k, j]) + 1, 0) > CHECK_MEMORY_ABOVE
                self.top = (int(ids[k, j]), L.line_number(int(data[k])) if big else None,
                            L.file_offset(int(data[k])) if big else None)

    def columns(self, L: ChunkLines) -> int:
        """The column count (2 or 3) of the file, from its first data lines (the rows of ``L``).

        The count most of them have (of 2 and 3; on a tie, the one that comes
        first), so that a first line that lacks its weight, or has one too
        many fields, is the line reported; if none has 2 or 3 fields, the
        first line's count, an error.
        """
        votes = [c for c in (len(L.fields(k)) for k in range(len(L))) if c in (2, 3)]
        if votes:
            two, three = votes.count(2), votes.count(3)
            return 2 if two > three else 3 if three > two else votes[0]
        raise L.error(0, f"expected 'u v' or 'u v w', got {L.shown(0)}")

    def header_line(self, L: ChunkLines, k: int) -> None:
        raw = L.raw(k)
        self.header.append(raw[:HEADER_BYTES])  # (enough for '# Undirected ...')
        if self.nodes_at is not None:
            return
        m = _NODES.search(raw)
        if m is not None:
            try:
                at = L.line_start(k) + m.start(1)
                self.nodes = self.size(L, k, at, m.group(1), "the 'Nodes:' count of the header")
                e = _EDGES.search(raw)
                self.edges_hint = int(e.group(1)) if e is not None else 0
                self.fits(L, k, "the header announces", self.nodes, 0, False)
            except GraphFormatError:
                self.flush()  # (data lines held back come first)
                raise
            self.nodes_at = (L.line_number(k), L.file_offset(k))

    def finish(self) -> Graph:
        self.flush()
        directed = self.directed
        if directed is None:
            directed = _UNDIRECTED.search(b"\n".join(self.header)) is None
        if self.store is None:
            self.store = ArcStore(self.dtype, False)
        src, dst, w = self.store.arrays()
        n = max(self.top[0] + 1, self.nodes)
        itemsize = 0 if w is None else self.dtype.itemsize
        need = validate.csr_bytes(n, src.shape[0] * (1 if directed else 2), itemsize)
        if need > CHECK_MEMORY_ABOVE:
            have = validate.available_memory()
            if have is not None and need > have:
                line, offset = (self.top[1], self.top[2]) if self.top[0] + 1 >= self.nodes else self.nodes_at
                why = (f"vertex id {self.top[0]} makes" if self.top[0] + 1 >= self.nodes else
                       f"the header's 'Nodes: {self.nodes}' makes")
                raise GraphFormatError(self.path, line, f"{why} a graph of {n} vertices and {src.shape[0]} arcs, "
                                                        f"whose arrays need {need} bytes ({need / 2**30:.1f} GiB); "
                                                        f"{have / 2**30:.1f} GiB of memory is available",
                                       offset=offset)
        return Graph.from_edges(src, dst, w, n=n, directed=directed)


# -- Matrix Market --------------------------------------------------------------------------------
class MtxReader(FormatReader):
    """``%%MatrixMarket matrix coordinate <field> <symmetry>``, ``%`` comments, the size line, the entries."""

    COMMENT = b"%"
    SHORTEST_ARC = 4  # "1 1\n"

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.banner = False
        self.field = self.symmetry = None
        self.rows = self.nnz = None
        self.size_at: tuple[int, int] | None = None

    def weighted(self) -> bool:
        return self.field != "pattern"

    def feed(self, chunk: Chunk) -> None:
        if not self.banner:
            self.banner_line(chunk)
        super().feed(chunk)

    def banner_line(self, chunk: Chunk) -> None:
        data = bytes(chunk.data)  # (the first chunk only)
        if not data.startswith(b"%%MatrixMarket"):
            raise GraphFormatError(self.path, 1, "a Matrix Market file starts with '%%MatrixMarket'", offset=0)
        end = data.find(b"\n")
        line = data if end < 0 else data[:end]
        head = [f.decode("ascii", "replace").lower() for f in fields_of(line)]
        L = ChunkLines(self.path, Chunk(memoryview(line + b"\n"), 0), 0, comment_mask(b""))
        if len(head) != 5 or head[0] != "%%matrixmarket" or head[1] != "matrix" or head[2] != "coordinate":
            raise L.error(0, f"expected '%%MatrixMarket matrix coordinate <field> <symmetry>', got {L.shown(0)}")
        field, symmetry = head[3], head[4]
        if field not in ("real", "integer", "pattern", "double"):
            raise L.error(0, f"field {field!r} is not supported (real, integer or pattern)")
        if symmetry not in ("general", "symmetric"):
            raise L.error(0, f"symmetry {symmetry!r} is not supported (general or symmetric)")
        self.field, self.symmetry, self.banner = field, symmetry, True

    def undirected(self) -> bool:
        return self.symmetry == "symmetric" if self.directed is None else not self.directed

    def lines(self, L: ChunkLines) -> None:
        rows = len(L)
        if rows == 0:
            return
        start = 0
        if self.size_at is None:
            self.size_line(L, 0)
            start = 1
        if rows > start:
            ncols = 2 if self.field == "pattern" else 3
            integer = self.field in ("integer", "pattern") or self.dtype.kind == "i"
            _, problem = self.arcs(L, np.arange(start, rows), ncols, False, integer, 1, self.rows,
                                   "Matrix Market index")
            if problem is not None:
                raise problem.error

    def size_line(self, L: ChunkLines, k: int) -> None:
        toks = _spans(L, k)
        f = [t for _, t in toks]
        if len(f) != 3 or not all(t.isdigit() for t in f):
            raise L.error(k, f"expected the size line 'rows cols entries', got {L.shown(k)}")
        rows = self.size(L, k, toks[0][0], f[0], "the row count of the size line")
        cols = self.size(L, k, toks[1][0], f[1], "the column count of the size line")
        nnz = int(f[2])
        if rows != cols:
            raise L.error(k, f"an adjacency matrix is square, this one is {rows} x {cols}")
        self.fits(L, k, "the size line announces", rows, nnz, self.undirected())
        self.rows, self.nnz = rows, nnz
        self.size_at = (L.line_number(k), L.file_offset(k))
        self.store = ArcStore(self.dtype, self.weighted(), capacity=self.plausible(nnz), limit=nnz)

    def finish(self) -> Graph:
        if not self.banner:
            raise GraphFormatError(self.path, 1, "a Matrix Market file starts with '%%MatrixMarket'", offset=0)
        if self.size_at is None:
            raise GraphFormatError(self.path, None, "no size line 'rows cols entries'")
        if self.store.count != self.nnz:
            line, offset = self.size_at
            raise GraphFormatError(self.path, line, f"the size line announces {self.nnz} entries, the file has "
                                                    f"{self.store.count}", offset=offset)
        src, dst, w = self.store.arrays()
        G = Graph.from_edges(src, dst, w, n=self.rows, directed=not self.undirected())
        G._cache["file_id_base"] = 1  # for the messages of graphs._arguments.check_vertex
        return G


READERS = {"dimacs": DimacsReader, "snap": SnapReader, "mtx": MtxReader}
