"""Read and write graph files: DIMACS ``.gr``, SNAP edge lists, Matrix Market; ``.gz`` too.

Formats
-------
``dimacs``
    9th DIMACS Implementation Challenge (shortest paths): ``c`` comment lines,
    one ``p sp N M`` line, then ``M`` arc lines ``a u v w`` with 1-based ids
    and integer weights.  Read as a directed graph.
``snap``
    SNAP edge lists: ``#`` (or ``%``) comment lines, then ``u v`` or ``u v w``
    per line, separated by tabs or spaces, 0-based ids.  ``n`` is the largest
    id + 1, or the ``Nodes: N`` of a SNAP header comment if larger.  Read as
    directed unless the header says ``Undirected`` (SNAP's own files, and ours).
``mtx``
    Matrix Market coordinate format (``real``, ``integer`` or ``pattern``;
    ``general`` or ``symmetric``), 1-based.  ``symmetric`` is undirected.

The format follows the extension (``.gr``; ``.mtx``; ``.txt``, ``.tsv``,
``.el``, ``.edges``, ``.snap``), after an optional ``.gz``; ``format=`` overrides.

Parsing is vectorised (NumPy over the file's bytes), so that email-Enron (367k
arcs) loads in a few tens of milliseconds; only when the fast path finds a
problem is the file walked line by line, to report *which* line is wrong:
every malformed file raises :class:`~graphs.errors.GraphFormatError` naming
the line number and what was expected.

Weights are int64 when every weight is written as an integer, float64
otherwise (``dtype=`` to choose); writers print floats so that they read back
as floats.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import warnings
from pathlib import Path

import numpy as np

from .errors import GraphFormatError
from .graph import WEIGHT_DTYPES, Graph

__all__ = ["read", "write", "FORMATS"]

FORMATS = ("dimacs", "snap", "mtx")
_EXT = {".gr": "dimacs", ".dimacs": "dimacs", ".mtx": "mtx", ".mm": "mtx",
        ".txt": "snap", ".tsv": "snap", ".el": "snap", ".edges": "snap", ".snap": "snap", ".csv": "snap"}
_WS = np.zeros(256, dtype=bool)
_WS[[9, 10, 11, 12, 13, 32]] = True
_FLOATY = np.zeros(256, dtype=bool)
_FLOATY[list(b".eEiInN")] = True


def _format_of(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        if fmt not in FORMATS:
            raise GraphFormatError(str(path), None, f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
        return fmt
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    ext = suffixes[-1] if suffixes else ""
    if ext not in _EXT:
        raise GraphFormatError(str(path), None, f"cannot tell the format from the extension {ext!r}; pass format=")
    return _EXT[ext]


def _read_bytes(path: Path) -> bytes:
    with open(path, "rb") as f:
        head = f.read(2)
        f.seek(0)
        if head == b"\x1f\x8b":
            with gzip.GzipFile(fileobj=f) as g:
                return g.read()
        return f.read()


class _Lines:
    """Vectorised view of a text buffer as lines: starts, ends, first non-blank byte."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.buf = np.frombuffer(data, dtype=np.uint8)
        nl = np.flatnonzero(self.buf == 10)
        self.starts = np.concatenate(([0], nl + 1)).astype(np.int64)
        self.ends = np.concatenate((nl, [len(self.buf)])).astype(np.int64)
        nonblank = np.flatnonzero(~_WS[self.buf])
        size = self.buf.size
        if nonblank.size:
            k = np.searchsorted(nonblank, self.starts)
            pos = np.where(k < nonblank.size, nonblank[np.minimum(k, nonblank.size - 1)], size)
        else:
            pos = np.full(self.starts.shape, size, dtype=np.int64)
        self.first_pos = np.where(pos < self.ends, pos, -1)
        self.first = np.zeros(self.starts.shape, dtype=np.uint8)
        has = self.first_pos >= 0
        self.first[has] = self.buf[self.first_pos[has]]

    def text(self, i: int) -> str:
        """Line ``i`` (0-based) as text, for error messages."""
        s = self.data[self.starts[i]:self.ends[i]].decode("utf-8", "replace").rstrip("\r")
        return s if len(s) <= 80 else s[:77] + "..."


def _parse_numbers(path: str, L: _Lines, lines: np.ndarray, ncols: int, skip_first: bool, integer: bool | None):
    """Parse ``ncols`` numbers from each of ``lines`` (0-based line ids) into an array (k, ncols).

    ``skip_first`` blanks each line's first token (DIMACS's ``a``).  Raises a
    line-numbered :class:`GraphFormatError` for a wrong field count or a token
    that is not a number.
    """
    buf = L.buf
    if lines.size == 0:
        return np.zeros((0, ncols), dtype=np.int64 if integer is not False else np.float64)
    keep_line = np.zeros(L.starts.size, dtype=bool)
    keep_line[lines] = True
    lengths = L.ends - L.starts + 1
    lengths[-1] -= 1
    mask = np.repeat(keep_line, lengths)
    work = buf.copy() if skip_first else buf
    if skip_first:
        work[L.first_pos[lines]] = 32
    # Count tokens per kept line: a token starts at a non-blank byte after a blank one (or at a line start).
    nonws = ~_WS[work]
    prev_ws = np.ones(work.size, dtype=bool)
    prev_ws[1:] = _WS[work[:-1]]
    tok_start = np.flatnonzero(nonws & prev_ws & mask)
    tok_line = np.searchsorted(L.starts, tok_start, side="right") - 1
    counts = np.bincount(tok_line, minlength=L.starts.size)[lines]
    if (counts != ncols).any():
        k = int(np.argmax(counts != ncols))
        i = int(lines[k])
        raise GraphFormatError(path, i + 1, f"expected {ncols} fields, got {int(counts[k])}: {L.text(i)!r}")
    chunk = work[mask]
    if integer is None:
        integer = not bool(_FLOATY[chunk].any())
    dtype = np.int64 if integer else np.float64
    text = chunk.tobytes().decode("ascii", "replace")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            vals = np.fromstring(text, dtype=dtype, sep=" ")
        except (ValueError, DeprecationWarning):
            vals = None
    if vals is None or vals.size != lines.size * ncols:
        _find_bad_token(path, L, lines, skip_first, integer)
    return vals.reshape(lines.size, ncols)


def _find_bad_token(path: str, L: _Lines, lines: np.ndarray, skip_first: bool, integer: bool) -> None:
    """Slow path: walk the lines to name the first token that is not a number (or not an integer)."""
    for i in lines.tolist():
        toks = L.data[L.starts[i]:L.ends[i]].split()
        for t in toks[1:] if skip_first else toks:
            try:
                float(t)
                if integer:
                    int(t)
            except ValueError:
                try:
                    float(t)
                    kind = "an integer"
                except ValueError:
                    kind = "a number"
                raise GraphFormatError(path, i + 1, f"{t.decode('utf-8', 'replace')!r} is not {kind}: "
                                                    f"{L.text(i)!r}") from None
    raise GraphFormatError(path, None, "could not parse the numbers")  # pragma: no cover


def _check_ids(path: str, vals: np.ndarray, lines: np.ndarray, lo: int, hi: int | None, what: str):
    """Ids must be integers in ``[lo, hi]``; return them as int64."""
    if vals.dtype.kind == "f":
        bad = vals != np.floor(vals)
        if bad.any():
            k = int(np.argmax(bad.any(axis=1)))
            raise GraphFormatError(path, int(lines[k]) + 1, f"vertex ids must be integers, got {vals[k].tolist()}")
    ids = vals.astype(np.int64)
    bad = ids < lo if hi is None else (ids < lo) | (ids > hi)
    if bad.any():
        k = int(np.argmax(bad.any(axis=1)))
        rng = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise GraphFormatError(path, int(lines[k]) + 1, f"{what} ids must be {rng}, got {ids[k].tolist()}")
    return ids


def _weights(vals: np.ndarray, dtype) -> np.ndarray:
    if dtype is None:
        return vals
    dtype = np.dtype(dtype)
    if dtype not in WEIGHT_DTYPES:
        from semiring.errors import DTypeError

        raise DTypeError(f"dtype={dtype} is not a weight dtype ({', '.join(map(str, WEIGHT_DTYPES))})")
    return vals.astype(dtype)


def _read_dimacs(path: str, L: _Lines, dtype) -> Graph:
    first = L.first
    kinds = {ord("c"), ord("p"), ord("a"), 0}
    odd = ~np.isin(first, list(kinds))
    if odd.any():
        i = int(np.argmax(odd))
        raise GraphFormatError(path, i + 1, f"a DIMACS line starts with 'c', 'p' or 'a', got {L.text(i)!r}")
    plines = np.flatnonzero(first == ord("p"))
    arcs = np.flatnonzero(first == ord("a"))
    if plines.size == 0:
        raise GraphFormatError(path, int(arcs[0]) + 1 if arcs.size else None, "no 'p sp N M' line before the arcs")
    if plines.size > 1:
        raise GraphFormatError(path, int(plines[1]) + 1, "a second 'p' line")
    p = int(plines[0])
    if arcs.size and arcs[0] < p:
        raise GraphFormatError(path, int(arcs[0]) + 1, "an arc before the 'p sp N M' line")
    toks = L.data[L.starts[p]:L.ends[p]].split()
    if len(toks) != 4 or toks[1] != b"sp" or not toks[2].isdigit() or not toks[3].isdigit():
        raise GraphFormatError(path, p + 1, f"expected 'p sp N M', got {L.text(p)!r}")
    n, m = int(toks[2]), int(toks[3])
    if arcs.size != m:
        raise GraphFormatError(path, p + 1, f"the 'p' line announces {m} arcs, the file has {arcs.size}")
    vals = _parse_numbers(path, L, arcs, 3, True, None)
    ids = _check_ids(path, vals[:, :2], arcs, 1, n, "DIMACS vertex")
    return Graph.from_edges(ids[:, 0] - 1, ids[:, 1] - 1, _weights(vals[:, 2], dtype), n=n)


_NODES = re.compile(rb"Nodes:\s*(\d+)")
_UNDIRECTED = re.compile(rb"^#\s*undirected", re.IGNORECASE | re.MULTILINE)


def _read_snap(path: str, L: _Lines, dtype, directed: bool | None) -> Graph:
    first = L.first
    comment = (first == ord("#")) | (first == ord("%"))
    data = np.flatnonzero(~comment & (first != 0))
    header = b"\n".join(L.data[L.starts[i]:L.ends[i]] for i in np.flatnonzero(comment)[:50].tolist())
    if directed is None:
        directed = _UNDIRECTED.search(header) is None
    ncols = 2
    if data.size:
        i = int(data[0])
        ncols = len(L.data[L.starts[i]:L.ends[i]].split())
        if ncols not in (2, 3):
            raise GraphFormatError(path, i + 1, f"expected 'u v' or 'u v w', got {L.text(i)!r}")
    vals = _parse_numbers(path, L, data, ncols, False, None if ncols == 3 else True)
    ids = _check_ids(path, vals[:, :2], data, 0, None, "SNAP vertex")
    n = int(ids.max()) + 1 if ids.size else 0
    m = _NODES.search(header)
    if m is not None:
        n = max(n, int(m.group(1)))
    w = _weights(vals[:, 2], dtype) if ncols == 3 else None
    return Graph.from_edges(ids[:, 0], ids[:, 1], w, n=n, directed=directed)


def _read_mtx(path: str, L: _Lines, dtype, directed: bool | None) -> Graph:
    if L.starts.size == 0 or not L.data.startswith(b"%%MatrixMarket"):
        raise GraphFormatError(path, 1, "a Matrix Market file starts with '%%MatrixMarket'")
    head = L.data[:L.ends[0]].decode("ascii", "replace").lower().split()
    if len(head) != 5 or head[1] != "matrix" or head[2] != "coordinate":
        raise GraphFormatError(path, 1, f"expected '%%MatrixMarket matrix coordinate <field> <symmetry>', "
                                        f"got {L.text(0)!r}")
    field, symmetry = head[3], head[4]
    if field not in ("real", "integer", "pattern", "double"):
        raise GraphFormatError(path, 1, f"field {field!r} is not supported (real, integer or pattern)")
    if symmetry not in ("general", "symmetric"):
        raise GraphFormatError(path, 1, f"symmetry {symmetry!r} is not supported (general or symmetric)")
    first = L.first
    rest = np.flatnonzero((first != ord("%")) & (first != 0))
    if rest.size == 0:
        raise GraphFormatError(path, None, "no size line 'rows cols entries'")
    s = int(rest[0])
    toks = L.data[L.starts[s]:L.ends[s]].split()
    if len(toks) != 3 or not all(t.isdigit() for t in toks):
        raise GraphFormatError(path, s + 1, f"expected the size line 'rows cols entries', got {L.text(s)!r}")
    rows, cols, nnz = (int(t) for t in toks)
    if rows != cols:
        raise GraphFormatError(path, s + 1, f"an adjacency matrix is square, this one is {rows} x {cols}")
    entries = rest[1:]
    if entries.size != nnz:
        raise GraphFormatError(path, s + 1, f"the size line announces {nnz} entries, the file has {entries.size}")
    ncols = 2 if field == "pattern" else 3
    integer = True if field in ("integer", "pattern") else False
    vals = _parse_numbers(path, L, entries, ncols, False, integer)
    ids = _check_ids(path, vals[:, :2], entries, 1, rows, "Matrix Market index")
    w = None if field == "pattern" else _weights(vals[:, 2], dtype)
    undirected = symmetry == "symmetric" if directed is None else not directed
    return Graph.from_edges(ids[:, 0] - 1, ids[:, 1] - 1, w, n=rows, directed=not undirected)


def read(path: str | os.PathLike, format: str | None = None, dtype=None, directed: bool | None = None) -> Graph:
    """Read a graph file (DIMACS ``.gr``, SNAP edge list, Matrix Market; ``.gz`` too).

    Parameters
    ----------
    path : str or PathLike
    format : {"dimacs", "snap", "mtx"}, optional
        Default: from the extension (see the module docstring).
    dtype : dtype, optional
        Weight dtype; default int64 if every weight is an integer, else float64.
    directed : bool, optional
        Override the file's own direction (SNAP and Matrix Market); ``False``
        stores each listed edge in both directions.

    Returns
    -------
    Graph
        On the CPU; parallel arcs are kept.

    Raises
    ------
    GraphFormatError
        The file is malformed; the message names the line and what was wrong.
    FileNotFoundError

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "tiny.gr"
    >>> _ = p.write_text("c tiny\\np sp 3 2\\na 1 2 7\\na 2 3 1\\n")
    >>> G = read(p)
    >>> G.n, G.nnz, G.weights
    (3, 2, array([7, 1]))
    >>> _ = p.write_text("p sp 3 2\\na 1 2 7\\na 2 x 1\\n")
    >>> read(p)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphFormatError: ...tiny.gr, line 3: 'x' is not a number: 'a 2 x 1'
    """
    path = Path(path)
    fmt = _format_of(path, format)
    data = _read_bytes(path)
    L = _Lines(data)
    name = str(path)
    if fmt == "dimacs":
        G = _read_dimacs(name, L, dtype)
        if directed is False:
            G = _undirect(G)
        return G
    if fmt == "snap":
        return _read_snap(name, L, dtype, directed)
    return _read_mtx(name, L, dtype, directed)


def _undirect(G: Graph) -> Graph:
    src, dst, w = G.edges()
    return Graph.from_edges(src, dst, w, n=G.n, directed=False)


def _fmt_weights(w: np.ndarray) -> list[str]:
    if w.dtype.kind == "f":
        return [repr(x) for x in w.astype(np.float64).tolist()]
    return [str(x) for x in w.tolist()]


def _edge_lines(src, dst, w, base: int, prefix: str = "") -> str:
    s = (src.astype(np.int64) + base).tolist()
    d = (dst.astype(np.int64) + base).tolist()
    if w is None:
        return "".join(f"{prefix}{u} {v}\n" for u, v in zip(s, d))
    return "".join(f"{prefix}{u} {v} {x}\n" for u, v, x in zip(s, d, _fmt_weights(w)))


def write(G: Graph, path: str | os.PathLike, format: str | None = None) -> None:
    """Write ``G`` as DIMACS ``.gr``, a SNAP edge list or Matrix Market (gzip if ``.gz``).

    DIMACS lists every stored arc (an unweighted arc weighs 1; DIMACS weights
    are integers, so float weights must be integral).  SNAP and Matrix Market
    write an undirected graph's edges once (``u <= v``) and mark it
    (``# Undirected graph`` / ``symmetric``), so :func:`read` gives the same
    graph back.

    Raises
    ------
    GraphFormatError
        The graph cannot be written in that format (non-integer DIMACS weights).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> G = Graph.from_edges([0, 1], [1, 2], [0.5, 2.0], directed=False)
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "g.mtx.gz"
    >>> write(G, p)
    >>> H = read(p)
    >>> H.directed, H.nnz, H.weights
    (False, 4, array([0.5, 0.5, 2. , 2. ]))
    """
    path = Path(path)
    fmt = _format_of(path, format)
    G = G.to("cpu")
    src, dst, w = G.edges()
    if not G.directed and fmt != "dimacs":
        keep = src <= dst
        src, dst, w = src[keep], dst[keep], None if w is None else w[keep]
    out = io.StringIO()
    if fmt == "dimacs":
        if w is None:
            w = np.ones(G.nnz, dtype=np.int64)
        elif w.dtype.kind == "f":
            if not np.all(np.isfinite(w) & (w == np.floor(w))):
                k = int(np.argmax(~(np.isfinite(w) & (w == np.floor(w)))))
                raise GraphFormatError(str(path), None, f"DIMACS weights are integers; arc {k} weighs {w[k]!r}")
            w = w.astype(np.int64)
        out.write("c written by semiring-paths\n")
        out.write(f"p sp {G.n} {G.nnz}\n")
        out.write(_edge_lines(src, dst, w, 1, "a "))
    elif fmt == "snap":
        out.write(f"# {'Directed' if G.directed else 'Undirected'} graph, written by semiring-paths\n")
        out.write(f"# Nodes: {G.n} Edges: {src.shape[0]}\n")
        out.write("# FromNodeId\tToNodeId" + ("\tWeight\n" if w is not None else "\n"))
        out.write(_edge_lines(src, dst, w, 0))
    else:
        field = "pattern" if w is None else ("integer" if w.dtype.kind == "i" else "real")
        sym = "general" if G.directed else "symmetric"
        out.write(f"%%MatrixMarket matrix coordinate {field} {sym}\n% written by semiring-paths\n")
        # Matrix Market's symmetric storage is the lower triangle.
        if not G.directed:
            src, dst = dst, src
        out.write(f"{G.n} {G.n} {src.shape[0]}\n")
        out.write(_edge_lines(src, dst, w, 1))
    raw = out.getvalue().encode("ascii")
    if path.suffix.lower() == ".gz":
        with gzip.open(path, "wb", compresslevel=6) as f:
            f.write(raw)
    else:
        path.write_bytes(raw)
