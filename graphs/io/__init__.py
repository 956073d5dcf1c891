r"""Read and write graph files: DIMACS ``.gr``, SNAP edge lists, Matrix Market; ``.gz`` too.

Formats
-------
``dimacs``
    9th DIMACS Implementation Challenge (shortest paths): ``c`` comment lines,
    one ``p sp N M`` line, then ``M`` arc lines ``a u v w`` with 1-based ids
    and integer weights.  Read as a directed graph.
``snap``
    SNAP edge lists: ``#`` (or ``%``) comment lines, then ``u v`` or ``u v w``
    per line, separated by tabs or spaces, 0-based ids.  Every line has the
    column count most of the first 16 data lines have (of 2 and 3; on a tie
    the one that comes first), so that a first line without its weight is
    the one reported.  ``n`` is the largest
    id + 1, or the ``Nodes: N`` of a SNAP header comment if larger.  Read as
    directed unless the header says ``Undirected`` (SNAP's own files, and ours).
``mtx``
    Matrix Market coordinate format (``real``, ``integer`` or ``pattern``;
    ``general`` or ``symmetric``), 1-based.  ``symmetric`` is undirected.

The format follows the extension (``.gr``; ``.mtx``; ``.txt``, ``.tsv``,
``.el``, ``.edges``, ``.snap``), after an optional ``.gz``; ``format=`` overrides.
A gzip file is recognised by its first bytes; a truncated or corrupt one is a
:class:`~graphs.errors.GraphFormatError` naming the file.

Reading streams: the text (decompressed, for ``.gz``) passes through a buffer
of ``buffer_size`` bytes (4 MiB by default), cut at line ends, the partial
last line carried over (:mod:`graphs.io._text_chunks`); comment lines are skipped
inside a compiled scan and cost no memory, and only the arcs read are kept, so
memory follows the graph, never the file (a ``.gz`` of 4 GB of comments around
three arcs reads in a bounded few MB).  Parsing is vectorised per chunk (one
compiled pass that indexes the lines, one that checks every number's literal,
NumPy's parser), so that email-Enron (367k arcs) loads in a few tens of
milliseconds.  Every malformed file raises
:class:`~graphs.errors.GraphFormatError` naming the file, the *first* wrong
line (1-based) and the byte offset of the offending token (0-based, in the
decompressed text), what was expected and the offending value; the first
wrong line is the same whatever the buffer size.  A file that is no graph
file (binary data, say) fails at its first data line, in the first buffer.

Lines and fields
----------------
A line ends with ``\n``, ``\r\n`` or ``\r`` (old Mac files), as in Python's
text mode and NetworkX's readers; the kinds may be mixed (``\r\n`` is one
line end, a ``\r`` not followed by ``\n`` is one), and the last line may lack
one.  Line numbers count these line ends.  Fields are separated by spaces and tabs, and by
nothing else: other control bytes (NUL, ``\x0b``, ``\x0c``, ``\x1c``-``\x1f``)
and bytes above 127 (``\x85``, ``\xa0``), which Python's ``str.split`` would
take for whitespace, are errors on a data line, a header line or a size line
(comment lines are free text, of any length; a data line longer than the
buffer is an error).  A line holding only spaces and tabs is blank
and skipped; a line whose first other byte is not what the format expects
(NUL included) is an error, never a blank line.  A number is a whole literal:
``[+-]digits`` for an integer, ``[+-](digits[.digits]|.digits)[(e|E)[+-]digits]``
for a float (and ``inf`` / ``nan``, which are then refused as weights); a lone
sign, ``1e``, ``1e+``, ``.`` or ``1.2.3`` (a file cut short, say) is an error,
not ``0``.

Values
------
Nothing in a file is silently turned into another value; what cannot be held
exactly by the requested dtype is an error, checked before anything is built.

Weights
    Read as **float64** by default (what SciPy and NetworkX users expect);
    ``dtype=`` chooses float32, float64, int32 or int64.

    * Float dtypes: a decimal or exponent literal (``2.5``, ``1e-3``) is
      rounded to the nearest value of the dtype, as ``float()`` does (so
      ``1e-400`` reads as ``0.0``).  An *integer* literal must be held
      exactly: float64 holds every integer up to ``2**53`` in magnitude
      (float32 up to ``2**24``), and larger ones only when exactly
      representable; ``9007199254740993`` in a float64 read is an error
      (pass ``dtype=np.int64``).  A literal beyond the dtype's finite range
      (``1e400``; ``1e39`` for float32) is an error, not ``inf``.
    * Integer dtypes: weights must be integer literals (``7``, ``-3``;
      not ``7.0`` or ``1e3``) lying *strictly* between ``iinfo.min`` and
      ``iinfo.max``, since those two values are the dtype's ``-inf`` and
      ``+inf`` sentinels (:mod:`semiring.dtypes`); ``3000000000`` read as
      int32, or ``99999999999999999999`` read as int64, is an error.
    * ``nan`` is an error, and so are ``inf`` / ``-inf``: no arc weighs
      ``+-inf`` in this library (an infinite weight is the absence of an arc).

Vertex ids and sizes
    Ids are integers (``3.0`` is accepted in a file whose weights are
    floats; ``3.5`` is not) in the format's range (``1..N`` for DIMACS and
    Matrix Market, ``>= 0`` for SNAP).  The graph stores column indices as
    int32, so a graph has at most ``2**31 - 1`` vertices: a ``p sp N M`` line,
    a Matrix Market size line or a SNAP ``Nodes:`` header announcing more, or
    a SNAP id of ``2**31 - 1`` or more, is an error raised before any array of
    that size is allocated.

    Announced sizes are also checked against memory before anything is
    allocated: a ``p sp N M`` line or size line whose graph (the arcs as read
    and the CSR arrays, :func:`graphs.validate.csr_bytes`) would not fit in
    the memory this process may use (:func:`graphs.validate.available_memory`)
    is refused on that line -- ``p sp 2000000000 5`` needs 45 GiB for its row
    pointers alone -- and so are a SNAP ``Nodes:`` line and, once read, a SNAP
    id that makes the graph that large.  A DIMACS or Matrix Market file must
    list as many arcs as it announces, no fewer and no more (an error naming
    the ``p`` or size line, once the file is read); the arrays are sized from
    the announced count when the file can hold that many lines, and arcs past
    it are counted, not kept.  SNAP's ``Edges:`` only sizes the arrays:
    SNAP's own files do not always list as many (email-Enron announces 367662
    and lists 367660).

Writers print floats with ``repr`` so that they read back exactly.
"""

from __future__ import annotations

import contextlib
import gzip
import operator
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from semiring.errors import DTypeError

from ..atomic_file import atomic_open
from ..errors import GraphFormatError
from ..graph import WEIGHT_DTYPES, Graph
from ._formats import READERS
from ._text_chunks import BUFFER_SIZE, MIN_BUFFER_SIZE, TextChunks

if TYPE_CHECKING:
    from semiring.array_types import DTypeLike

__all__ = ["read", "write", "format_of", "FORMATS", "BUFFER_SIZE"]

FORMATS = ("dimacs", "snap", "mtx")
_EXT = {".gr": "dimacs", ".dimacs": "dimacs", ".mtx": "mtx", ".mm": "mtx",
        ".txt": "snap", ".tsv": "snap", ".el": "snap", ".edges": "snap", ".snap": "snap", ".csv": "snap"}
#: Arcs formatted and written at a time by :func:`write`.
WRITE_BLOCK = 2**16


def format_of(path: Path, fmt: str | None) -> str:
    """The format of the file ``path``: ``fmt`` if given (checked), else the one its extension names.

    A ``.gz`` suffix is looked through.  A :class:`GraphFormatError` names the file when
    ``fmt`` is unknown or the extension names no format.

    >>> format_of(Path("roads.gr.gz"), None), format_of(Path("x.txt"), "snap")
    ('dimacs', 'snap')
    """
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


def _weight_dtype(dtype: DTypeLike | None) -> np.dtype:
    """The weight dtype asked for (default float64); reject the others before reading anything."""
    if dtype is None:
        return np.dtype(np.float64)
    dt = np.dtype(dtype)
    if dt not in WEIGHT_DTYPES:

        raise DTypeError(f"dtype={dt} is not a weight dtype ({', '.join(map(str, WEIGHT_DTYPES))})")
    return dt


def _buffer_size(size: Any) -> int:
    if size is None:
        return BUFFER_SIZE
    if isinstance(size, (bool, np.bool_)):
        raise TypeError(f"buffer_size must be an integer number of bytes, got {size!r}")
    try:
        size = operator.index(size)
    except TypeError:
        raise TypeError(f"buffer_size must be an integer number of bytes, got {size!r}") from None
    if size < MIN_BUFFER_SIZE:
        raise ValueError(f"buffer_size must be at least {MIN_BUFFER_SIZE} bytes, got {size}")
    return size


def read(path: str | os.PathLike[str], format: Literal["dimacs", "snap", "mtx"] | None = None,
         dtype: DTypeLike | None = None, directed: bool | None = None, *, buffer_size: int | None = None) -> Graph:
    """Read a graph file (DIMACS ``.gr``, SNAP edge list, Matrix Market; ``.gz`` too).

    Parameters
    ----------
    path : str or PathLike
    format : {"dimacs", "snap", "mtx"}, optional
        Default: from the extension (see the module docstring).
    dtype : dtype, optional
        Weight dtype: float32, float64 (the default) or, for integer weights
        written as integer literals, int32 or int64.  Values are read exactly
        or not at all: see "Values" in the module docstring.  Unweighted
        files (SNAP ``u v``, Matrix Market ``pattern``) give unweighted graphs.
    directed : bool, optional
        Override the file's own direction (SNAP and Matrix Market); ``False``
        stores each listed edge in both directions.
    buffer_size : int, optional
        Bytes of (decompressed) text held at a time: the memory reading takes
        beside the graph's own arrays (default :data:`BUFFER_SIZE`, 4 MiB; at
        least 64).  A data line longer than this is an error.

    Returns
    -------
    Graph
        On the CPU; parallel arcs are kept.  Vertex ids are 0-based: a DIMACS
        or Matrix Market file's 1-based id ``k`` is vertex ``k - 1`` (a SNAP
        file's ids are 0-based already); the graph remembers it, and a bad
        vertex argument's error message says so.

    Raises
    ------
    GraphFormatError
        The file is malformed, or a value does not fit: the message names the
        file, the first wrong line, the byte offset, what was wrong and the
        value (``FILE, line N (byte offset B): what (value V): 'the line'``).
        Announced sizes that cannot fit are refused before anything of their
        size is allocated.
    DTypeError
        ``dtype`` is not a weight dtype.
    TypeError, ValueError
        ``buffer_size`` is not an integer of at least 64.
    FileNotFoundError

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "tiny.gr"
    >>> _ = p.write_text("c tiny\\np sp 3 2\\na 1 2 7\\na 2 3 1\\n")
    >>> G = read(p)
    >>> G.n, G.nnz, G.weights
    (3, 2, array([7., 1.]))
    >>> read(p, dtype=np.int32).weights
    array([7, 1], dtype=int32)
    >>> _ = p.write_bytes(b"p sp 3 2\\ra 1 2 7\\ra 2 x 1\\r")  # old Mac line ends
    >>> read(p)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphFormatError: ...tiny.gr, line 3 (byte offset 21): 'x' is not a number: 'a 2 x 1'
    >>> _ = p.write_text("p sp 3 1\\na 1 2 3000000000\\n")
    >>> read(p, dtype=np.int32)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphFormatError: ...tiny.gr, line 2 (byte offset 15): weight does not fit int32: ... (value 3000000000): ...
    """
    path = Path(path)
    fmt = format_of(path, format)
    dt = _weight_dtype(dtype)
    size = _buffer_size(buffer_size)
    with TextChunks(path, size) as chunks:
        reader = READERS[fmt](str(path), dt, directed, chunks)
        for chunk in chunks:
            reader.feed(chunk)
            del chunk  # (a view of the buffer the next chunk is read into)
        return reader.finish()


def _fmt_weights(w: np.ndarray) -> list[str]:
    if w.dtype.kind == "f":
        return [repr(x) for x in w.astype(np.float64).tolist()]
    return [str(x) for x in w.tolist()]


def _edge_lines(src: np.ndarray, dst: np.ndarray, w: np.ndarray | None, base: int, prefix: str = "") -> str:
    s = (src.astype(np.int64) + base).tolist()
    d = (dst.astype(np.int64) + base).tolist()
    if w is None:
        return "".join(f"{prefix}{u} {v}\n" for u, v in zip(s, d))
    return "".join(f"{prefix}{u} {v} {x}\n" for u, v, x in zip(s, d, _fmt_weights(w)))


def write(G: Graph, path: str | os.PathLike[str], format: Literal["dimacs", "snap", "mtx"] | None = None) -> None:
    """Write ``G`` as DIMACS ``.gr``, a SNAP edge list or Matrix Market (gzip if ``.gz``), atomically.

    DIMACS lists every stored arc (an unweighted arc weighs 1; DIMACS weights
    are integers, so float weights must be integral).  SNAP and Matrix Market
    write an undirected graph's edges once (``u <= v``) and mark it
    (``# Undirected graph`` / ``symmetric``), so :func:`read` gives the same
    graph back.

    The file is written beside ``path`` under a temporary name and renamed
    onto it only once complete (:func:`graphs.atomic_file.atomic_open`): an
    error or an interrupt half way leaves no partial file, and a previous
    file at ``path`` unchanged.

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
    fmt = format_of(path, format)
    G = G.to("cpu")
    src, dst, w = G.edges()
    if not G.directed and fmt != "dimacs":
        keep = src <= dst
        src, dst, w = src[keep], dst[keep], None if w is None else w[keep]
    if fmt == "dimacs":
        if w is None:
            w = np.ones(G.nnz, dtype=np.int64)
        elif w.dtype.kind == "f":
            if not np.all(np.isfinite(w) & (w == np.floor(w))):
                k = int(np.argmax(~(np.isfinite(w) & (w == np.floor(w)))))
                raise GraphFormatError(str(path), None, f"DIMACS weights are integers; arc {k} weighs {w[k]!r}")
            w = w.astype(np.int64)
        head = f"c written by semiring-paths\np sp {G.n} {G.nnz}\n"
        base, prefix = 1, "a "
    elif fmt == "snap":
        head = (f"# {'Directed' if G.directed else 'Undirected'} graph, written by semiring-paths\n"
                f"# Nodes: {G.n} Edges: {src.shape[0]}\n"
                "# FromNodeId\tToNodeId" + ("\tWeight\n" if w is not None else "\n"))
        base, prefix = 0, ""
    else:
        field = "pattern" if w is None else ("integer" if w.dtype.kind == "i" else "real")
        sym = "general" if G.directed else "symmetric"
        # Matrix Market's symmetric storage is the lower triangle.
        if not G.directed:
            src, dst = dst, src
        head = (f"%%MatrixMarket matrix coordinate {field} {sym}\n% written by semiring-paths\n"
                f"{G.n} {G.n} {src.shape[0]}\n")
        base, prefix = 1, ""
    with atomic_open(path) as raw:
        gz = path.suffix.lower() == ".gz"
        with (gzip.GzipFile(filename=str(path), mode="wb", compresslevel=6, fileobj=raw) if gz
              else contextlib.nullcontext(raw)) as out:
            out.write(head.encode("ascii"))
            for a in range(0, src.shape[0], WRITE_BLOCK):
                b = a + WRITE_BLOCK
                out.write(_edge_lines(src[a:b], dst[a:b], None if w is None else w[a:b], base, prefix).encode("ascii"))
