r"""Read and write graph files: DIMACS ``.gr``, SNAP edge lists, Matrix Market; ``.gz`` too.

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
A gzip file is recognised by its first bytes; a truncated or corrupt one is a
:class:`~graphs.errors.GraphFormatError` naming the file.

Parsing is vectorised (NumPy over the file's bytes, and one compiled pass that
checks every number's literal), so that email-Enron (367k arcs) loads in a few
tens of milliseconds; only when the fast path finds a
problem is the file walked line by line, to report *which* line is wrong:
every malformed file raises :class:`~graphs.errors.GraphFormatError` naming
the file, the line number, what was expected and the offending value.

Lines and fields
----------------
A line ends with ``\n`` or ``\r\n`` (the last line may lack it); a ``\r``
anywhere else is an error.  Fields are separated by spaces and tabs, and by
nothing else: other control bytes (NUL, ``\x0b``, ``\x0c``, ``\x1c``-``\x1f``)
and bytes above 127 (``\x85``, ``\xa0``), which Python's ``str.split`` would
take for whitespace, are errors on a data line, a header line or a size line
(comment lines are free text).  A line holding only spaces and tabs is blank
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

Writers print floats with ``repr`` so that they read back exactly.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import warnings
import zlib
from pathlib import Path

import numpy as np
from numba import njit

from semiring.errors import DTypeError

from .errors import GraphFormatError
from .graph import WEIGHT_DTYPES, Graph

__all__ = ["read", "write", "FORMATS"]

FORMATS = ("dimacs", "snap", "mtx")
_EXT = {".gr": "dimacs", ".dimacs": "dimacs", ".mtx": "mtx", ".mm": "mtx",
        ".txt": "snap", ".tsv": "snap", ".el": "snap", ".edges": "snap", ".snap": "snap", ".csv": "snap"}
_WS = np.zeros(256, dtype=bool)  # what separates fields: space and tab; and what ends a line: \r\n, \n
_WS[[9, 10, 13, 32]] = True
_FLOATY = np.zeros(256, dtype=bool)
_FLOATY[list(b".eEiInN")] = True
_INFINITY = np.frombuffer(b"infinity", dtype=np.uint8).copy()  # the words a float field may hold (any case)
_NAN = np.frombuffer(b"nan", dtype=np.uint8).copy()
_FIELD_SEP = re.compile(rb"[ \t]+")
_TOKEN_AT = re.compile(rb"[^ \t\r\n]*")
# The graph's column indices are int32 (as Graph requires), so n <= 2**31 - 1.
_INDEX_LIMIT = int(np.iinfo(np.int32).max)
_LIMIT_WHY = f"at most {_INDEX_LIMIT} (2**31 - 1) vertices, since the graph stores its column indices as int32"
_INT_LITERAL = re.compile(rb"[+-]?[0-9]+")
_NUMBER_LITERAL = re.compile(rb"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)",
                             re.IGNORECASE)
_INF_LITERAL = re.compile(rb"[+-]?inf(?:inity)?", re.IGNORECASE)
_NAN_LITERAL = re.compile(rb"[+-]?nan", re.IGNORECASE)


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


def _weight_dtype(dtype) -> np.dtype:
    """The weight dtype asked for (default float64); reject the others before reading anything."""
    if dtype is None:
        return np.dtype(np.float64)
    dt = np.dtype(dtype)
    if dt not in WEIGHT_DTYPES:

        raise DTypeError(f"dtype={dt} is not a weight dtype ({', '.join(map(str, WEIGHT_DTYPES))})")
    return dt


def _read_bytes(path: Path) -> bytes:
    with open(path, "rb") as f:
        head = f.read(2)
        f.seek(0)
        if head == b"\x1f\x8b":
            try:
                with gzip.GzipFile(fileobj=f) as g:
                    return g.read()
            except EOFError:
                raise GraphFormatError(str(path), None, "truncated gzip file: the compressed data ends early") from None
            except (gzip.BadGzipFile, zlib.error) as e:
                raise GraphFormatError(str(path), None, f"corrupt gzip file ({e})") from None
        return f.read()


def _fields(line: bytes) -> list[bytes]:
    r"""The fields of one line (without its ``\n``): split at runs of spaces and tabs, a final ``\r`` dropped."""
    if line.endswith(b"\r"):
        line = line[:-1]
    return [f for f in _FIELD_SEP.split(line) if f]


def _bad_bytes(field: bytes) -> str:
    """What is wrong with the bytes of ``field`` when it holds one that no field may hold ('' when none)."""
    for b in field:
        if b < 0x21 or b > 0x7E:
            return f"byte 0x{b:02x} is not allowed in a field (fields are separated by spaces or tabs)"
    return ""


class _Lines:
    """Vectorised view of a text buffer as lines: starts, ends, first non-blank byte.

    Blank (``blank``) means spaces and tabs only; ``first`` is the first other
    byte of a line (0 for a blank line: use ``blank``, since the byte may be NUL).
    """

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
        self.blank = ~has

    def check_line_ends(self, path: str) -> None:
        r"""Refuse a ``\r`` that does not end a line (lines end with ``\n`` or ``\r\n``)."""
        cr = np.flatnonzero(self.buf == 13)
        if cr.size:
            nxt = cr + 1
            lone = nxt < self.buf.size
            lone[lone] = self.buf[nxt[lone]] != 10
            if lone.any():
                i = int(np.searchsorted(self.starts, cr[np.argmax(lone)], side="right")) - 1
                raise GraphFormatError(path, i + 1, f"a carriage return (\\r) inside a line; lines end with "
                                                    f"\\n or \\r\\n: {self.text(i)!r}")

    def fields(self, i: int) -> list[bytes]:
        """The fields of line ``i``."""
        return _fields(self.data[self.starts[i]:self.ends[i]])

    def text(self, i: int) -> str:
        """Line ``i`` (0-based) as text, for error messages."""
        s = self.data[self.starts[i]:self.ends[i]].decode("utf-8", "replace").rstrip("\r")
        return s if len(s) <= 80 else s[:77] + "..."

    def shown(self, i: int) -> str:
        """Line ``i`` quoted for a message, and the first byte no field may hold, if it has one."""
        why = next((w for w in map(_bad_bytes, self.fields(i)) if w), "")
        return f"{self.text(i)!r}" + (f" ({why})" if why else "")

    def token(self, i: int, start: int) -> bytes:
        """The token of line ``i`` that starts at byte ``start``."""
        return _TOKEN_AT.match(self.data, start, self.ends[i]).group()


class _Table:
    """The numbers of some lines: ``vals`` (k, ncols), int64 or float64, and where each token starts."""

    def __init__(self, path: str, L: _Lines, lines: np.ndarray, vals: np.ndarray, tok: np.ndarray) -> None:
        self.path, self.L, self.lines, self.vals, self.tok = path, L, lines, vals, tok

    def token(self, k: int, j: int) -> bytes:
        """Token of row ``k``, column ``j``, as written in the file."""
        return self.L.token(int(self.lines[k]), int(self.tok[k, j]))

    def error(self, k: int, j: int, what: str) -> GraphFormatError:
        """``FILE, line N: what (value V): 'the line'`` for the value at row ``k``, column ``j``."""
        i = int(self.lines[k])
        value = self.token(k, j).decode("utf-8", "replace")
        return GraphFormatError(self.path, i + 1, f"{what} (value {value}): {self.L.text(i)!r}")

    def first(self, bad: np.ndarray, j0: int = 0) -> tuple[int, int]:
        """Row and column of the first True of ``bad`` (k, c) in file order; columns count from ``j0``."""
        k = int(np.argmax(bad.any(axis=1))) if bad.ndim == 2 else int(np.argmax(bad))
        j = int(np.argmax(bad[k])) if bad.ndim == 2 else 0
        return k, j0 + j


def _parse_numbers(path: str, L: _Lines, lines: np.ndarray, ncols: int, skip_first: bool,
                   integer: bool | None) -> _Table:
    """Parse ``ncols`` numbers from each of ``lines`` (0-based line ids) into a :class:`_Table`.

    ``skip_first`` blanks each line's first token (DIMACS's ``a``, which must be
    followed by a space or a tab).  ``integer`` True asks for integer literals
    only (int64), False for float64, None for int64 when no token looks like a
    float.  Every byte of the lines is checked against the literal grammar of
    the module docstring (:func:`_first_bad_literal`) before NumPy parses them, since
    NumPy's parser is lenient (a lone ``-`` reads as 0).  Raises a line-numbered
    :class:`GraphFormatError` for a wrong field count, a byte no field may hold,
    or a token that is not a number (or not an integer literal), naming the
    first such line.  int64 parsing saturates: a literal beyond the int64 range
    reads as ``iinfo(int64).max``, which the callers reject (it is out of every
    id range and the int64 ``+inf`` sentinel).
    """
    buf = L.buf
    if lines.size == 0:
        empty = np.zeros((0, ncols), dtype=np.int64 if integer is not False else np.float64)
        return _Table(path, L, lines, empty, np.zeros((0, ncols), dtype=np.int64))
    keep_line = np.zeros(L.starts.size, dtype=bool)
    keep_line[lines] = True
    lengths = L.ends - L.starts + 1
    lengths[-1] -= 1
    mask = np.repeat(keep_line, lengths)
    work = buf.copy() if skip_first else buf
    if skip_first:
        first = L.first_pos[lines]
        after = first + 1
        sep = after < buf.size
        sep[sep] = (buf[after[sep]] == 32) | (buf[after[sep]] == 9)
        if not sep.all():
            _find_bad_token(path, L, lines, ncols, skip_first, bool(integer))
        work[first] = 32
    chunk = work[mask]
    if integer is None:
        integer = not bool(_FLOATY[chunk].any())
    # Count tokens per kept line: a token starts at a non-blank byte after a blank one (or at a line start).
    nonws = ~_WS[work]
    prev_ws = np.ones(work.size, dtype=bool)
    prev_ws[1:] = _WS[work[:-1]]
    tok_start = np.flatnonzero(nonws & prev_ws & mask)
    tok_line = np.searchsorted(L.starts, tok_start, side="right") - 1
    counts = np.bincount(tok_line, minlength=L.starts.size)[lines]
    if (counts != ncols).any() or _first_bad_literal(chunk, integer) >= 0:
        _find_bad_token(path, L, lines, ncols, skip_first, integer)
    dtype = np.int64 if integer else np.float64
    text = chunk.tobytes().decode("ascii", "replace")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            vals = np.fromstring(text, dtype=dtype, sep=" ")
        except (ValueError, DeprecationWarning):
            vals = None
    if vals is None or vals.size != lines.size * ncols:  # pragma: no cover - the literals were checked
        _find_bad_token(path, L, lines, ncols, skip_first, integer)
    return _Table(path, L, lines, vals.reshape(lines.size, ncols), tok_start.reshape(lines.size, ncols))


@njit(cache=True, nogil=True)
def _first_bad_literal(c, integer):  # pragma: no cover - jitted
    r"""Position of the first byte of ``c`` (whole lines' bytes) where a token stops being a literal; -1 if none.

    The grammar of the module docstring as a finite automaton, one pass over the
    bytes: tokens are separated by spaces, tabs and line ends (a ``\r`` only ever
    before ``\n``: :meth:`_Lines.check_line_ends`); an integer is
    ``[+-]digits``; a float ``[+-](digits[.digits]|.digits)[(e|E)[+-]digits]``
    or, sign and case aside, ``inf``, ``infinity`` or ``nan`` (which the weight
    checks then refuse with their own message).
    """
    n = c.shape[0]
    state = 0  # 0 between tokens, 1 sign, 2 digits, 3 "5.", 4 ".", 5 fraction, 6 e, 7 e sign, 8 exponent, 9 word
    start = 0
    f_inf = False
    f_nan = False
    wlen = 0
    for i in range(n + 1):
        b = c[i] if i < n else 32
        if b == 32 or b == 9 or b == 10 or b == 13:
            if state != 0:
                if state == 9:
                    ok = (f_inf and (wlen == 3 or wlen == 8)) or (f_nan and wlen == 3)
                else:
                    ok = state == 2 or state == 3 or state == 5 or state == 8
                if not ok:
                    return start
                state = 0
            continue
        digit = 48 <= b <= 57
        low = b | 32
        letter = 97 <= low <= 122
        if state == 0:
            start = i
        if state == 0 or state == 1:
            if digit:
                state = 2
            elif state == 0 and (b == 43 or b == 45):
                state = 1
            elif integer:
                return start
            elif b == 46:
                state = 4
            elif letter:
                state = 9
                f_inf = True
                f_nan = True
                wlen = 0
            else:
                return start
        elif integer:
            if not digit:
                return start
        elif state == 2:
            if b == 46:
                state = 3
            elif low == 101:
                state = 6
            elif not digit:
                return start
        elif state == 3 or state == 5:
            if digit:
                state = 5
            elif low == 101:
                state = 6
            else:
                return start
        elif state == 4:
            if not digit:
                return start
            state = 5
        elif state == 6:
            if b == 43 or b == 45:
                state = 7
            elif digit:
                state = 8
            else:
                return start
        elif state == 7 or state == 8:
            if not digit:
                return start
            state = 8
        if state == 9:
            f_inf = f_inf and wlen < 8 and low == _INFINITY[wlen]
            f_nan = f_nan and wlen < 3 and low == _NAN[wlen]
            if not (f_inf or f_nan):
                return start
            wlen += 1
    return -1


def _find_bad_token(path: str, L: _Lines, lines: np.ndarray, ncols: int, skip_first: bool, integer: bool) -> None:
    """Slow path: walk the lines to name the first wrong one (field count, a byte, a token that is not a number)."""
    for i in lines.tolist():
        toks = L.fields(i)
        for t in toks:
            why = _bad_bytes(t)
            if why:
                raise GraphFormatError(path, i + 1, f"{t.decode('utf-8', 'replace')!r}: {why}: {L.text(i)!r}")
        if skip_first:
            if toks[0] != b"a":
                raise GraphFormatError(path, i + 1, f"expected 'a u v w', got {L.text(i)!r}")
            toks = toks[1:]
        if len(toks) != ncols:
            raise GraphFormatError(path, i + 1, f"expected {ncols} fields, got {len(toks)}: {L.text(i)!r}")
        for t in toks:
            if _INT_LITERAL.fullmatch(t) or (not integer and _NUMBER_LITERAL.fullmatch(t)):
                continue
            kind = "an integer" if _NUMBER_LITERAL.fullmatch(t) else "a number"
            raise GraphFormatError(path, i + 1, f"{t.decode('utf-8', 'replace')!r} is not {kind}: {L.text(i)!r}")
    raise GraphFormatError(path, None, "could not parse the numbers")  # pragma: no cover


def _check_ids(T: _Table, lo: int, hi: int, what: str, limit_what: str | None = None) -> np.ndarray:
    """Columns 0 and 1 of ``T`` are ids: integers in ``[lo, hi]``; return them as int64.

    ``limit_what``, if given, is the message for ids above ``hi`` (the int32
    index limit rather than the format's own range).
    """
    ids = T.vals[:, :2]
    if ids.dtype.kind == "f":
        bad = ~np.isfinite(ids) | (ids != np.floor(ids))
        if bad.any():
            raise T.error(*T.first(bad), "vertex ids must be integers")
    below = ids < lo
    above = ids > hi
    if below.any() or above.any():
        k, j = T.first(below | above)
        if limit_what is not None and above[k, j] and not T.token(k, j).startswith(b"-"):
            # (a literal below -2**63 parses as int64's max: its sign is in the text)
            raise T.error(k, j, limit_what)
        rng = f">= {lo}" if limit_what is not None else f"in {lo}..{hi}"
        raise T.error(k, j, f"{what} ids must be {rng}")
    return ids.astype(np.int64)


def _int_fits_float(v: int, dtype: np.dtype) -> bool:
    """Whether the Python int ``v`` is exactly representable in the float ``dtype``."""
    a = abs(v)
    if a == 0:
        return True
    fi = np.finfo(dtype)
    mantissa = a >> ((a & -a).bit_length() - 1)
    return mantissa.bit_length() <= fi.nmant + 1 and a <= int(fi.max)


def _check_weights(T: _Table, j: int, dtype: np.dtype) -> np.ndarray:
    """Column ``j`` of ``T`` as weights of ``dtype``, exactly (see the module docstring), or an error."""
    w = T.vals[:, j]
    if dtype.kind == "i":
        # Parsed as int64 literals (saturating beyond int64, which lands on the sentinel).
        info = np.iinfo(dtype)
        bad = (w <= info.min) | (w >= info.max)
        if bad.any():
            raise T.error(*T.first(bad, j), f"weight does not fit {dtype}: integer weights lie strictly between "
                                            f"{info.min} and {info.max}, the -inf and +inf of {dtype}")
        return w.astype(dtype)
    fi = np.finfo(dtype)
    exact = 2 ** (fi.nmant + 1)  # every integer up to this magnitude is exact in dtype
    if w.dtype.kind == "f":
        nonfinite = ~np.isfinite(w)
        if nonfinite.any():
            k = int(np.argmax(nonfinite))
            tok = T.token(k, j)
            if _NAN_LITERAL.fullmatch(tok):
                raise T.error(k, j, "a weight is a number, not NaN")
            if _INF_LITERAL.fullmatch(tok):
                raise T.error(k, j, "infinite weight: a file lists finite weights only (an arc of weight "
                                    "+inf is no arc)")
            raise T.error(k, j, f"weight overflows float64 (largest finite {float(np.finfo(np.float64).max)!r})")
        with np.errstate(over="ignore"):
            out = w.astype(dtype)
        over = ~np.isfinite(out)
        if over.any():
            raise T.error(*T.first(over, j), f"weight overflows {dtype} (largest finite {fi.max})")
        # Integer literals from 2**(nmant + 1) on must be held exactly: find them among the big values
        # (a token with no '.', 'e', 'inf' or 'nan' in it is an integer literal)
        # (>=: parsing rounds, so 2**53 + 1 reads as 2**53)
        big = np.flatnonzero(np.abs(w) >= exact)
        if big.size:
            starts = T.tok[big, j]
            ends = T.L.ends[T.lines[big]]
            floaty = np.concatenate(([0], np.cumsum(_FLOATY[T.L.buf], dtype=np.int64)))
            big = big[floaty[ends] == floaty[starts]]
    else:
        out = w.astype(dtype)
        big = np.flatnonzero((w > exact) | (w < -exact))
        if big.size:
            # Exact iff the odd part of |w| has at most nmant + 1 bits (all int64 are below float32's max).
            a = w[big].astype(np.uint64)
            a = np.where(w[big] < 0, ~a + np.uint64(1), a)
            odd = a // (a & (~a + np.uint64(1)))
            fits = (odd < np.uint64(exact)) & (w[big] != np.iinfo(np.int64).max)
            if not fits.all():
                # Misfits and saturated literals (>= 2**63) are decided from the file's text.
                big = big[~fits]
            else:
                big = big[:0]
    for k in big.tolist():
        v = int(T.token(k, j))
        if not _int_fits_float(v, dtype):
            raise T.error(k, j, f"integer weight is not exactly representable in {dtype} (integers up to "
                                f"2**{fi.nmant + 1} are); pass dtype=np.int64")
        out[k] = float(v)
    return out


def _size(path: str, L: _Lines, i: int, tok: bytes, what: str) -> int:
    """A size from line ``i`` (a vertex count), checked against the int32 index limit before any allocation."""
    v = int(tok)
    if v > _INDEX_LIMIT:
        raise GraphFormatError(path, i + 1, f"{what} is too large: a graph has {_LIMIT_WHY} (value {v}): "
                                            f"{L.text(i)!r}")
    return v


def _read_dimacs(path: str, L: _Lines, dtype: np.dtype) -> Graph:
    first = L.first
    odd = ~L.blank & ~np.isin(first, [ord("c"), ord("p"), ord("a")])
    if odd.any():
        i = int(np.argmax(odd))
        raise GraphFormatError(path, i + 1, f"a DIMACS line starts with 'c', 'p' or 'a', got {L.shown(i)}")
    plines = np.flatnonzero(first == ord("p"))
    arcs = np.flatnonzero(first == ord("a"))
    if plines.size == 0:
        raise GraphFormatError(path, int(arcs[0]) + 1 if arcs.size else None, "no 'p sp N M' line before the arcs")
    if plines.size > 1:
        raise GraphFormatError(path, int(plines[1]) + 1, "a second 'p' line")
    p = int(plines[0])
    if arcs.size and arcs[0] < p:
        raise GraphFormatError(path, int(arcs[0]) + 1, "an arc before the 'p sp N M' line")
    toks = L.fields(p)
    if len(toks) != 4 or toks[0] != b"p" or toks[1] != b"sp" or not toks[2].isdigit() or not toks[3].isdigit():
        raise GraphFormatError(path, p + 1, f"expected 'p sp N M', got {L.shown(p)}")
    n = _size(path, L, p, toks[2], "the vertex count N of 'p sp N M'")
    m = int(toks[3])
    if arcs.size != m:
        raise GraphFormatError(path, p + 1, f"the 'p' line announces {m} arcs, the file has {arcs.size}")
    T = _parse_numbers(path, L, arcs, 3, True, True if dtype.kind == "i" else None)
    ids = _check_ids(T, 1, n, "DIMACS vertex")
    return Graph.from_edges(ids[:, 0] - 1, ids[:, 1] - 1, _check_weights(T, 2, dtype), n=n)


_NODES = re.compile(rb"Nodes:\s*(\d+)")
_UNDIRECTED = re.compile(rb"^#\s*undirected", re.IGNORECASE | re.MULTILINE)


def _read_snap(path: str, L: _Lines, dtype: np.dtype, directed: bool | None) -> Graph:
    first = L.first
    comment = ~L.blank & ((first == ord("#")) | (first == ord("%")))
    data = np.flatnonzero(~comment & ~L.blank)
    head_lines = np.flatnonzero(comment)[:50].tolist()
    header = b"\n".join(L.data[L.starts[i]:L.ends[i]] for i in head_lines)
    if directed is None:
        directed = _UNDIRECTED.search(header) is None
    nodes = 0
    for i in head_lines:
        m = _NODES.search(L.data[L.starts[i]:L.ends[i]])
        if m is not None:
            nodes = _size(path, L, i, m.group(1), "the 'Nodes:' count of the header")
            break
    ncols = 2
    if data.size:
        i = int(data[0])
        ncols = len(L.fields(i))
        if ncols not in (2, 3):
            raise GraphFormatError(path, i + 1, f"expected 'u v' or 'u v w', got {L.shown(i)}")
    T = _parse_numbers(path, L, data, ncols, False, None if ncols == 3 and dtype.kind == "f" else True)
    ids = _check_ids(T, 0, _INDEX_LIMIT - 1, "SNAP vertex",
                     limit_what=f"SNAP vertex id too large: a graph has {_LIMIT_WHY}, so ids are at most "
                                f"{_INDEX_LIMIT - 1}")
    n = max(int(ids.max()) + 1 if ids.size else 0, nodes)
    w = _check_weights(T, 2, dtype) if ncols == 3 else None
    return Graph.from_edges(ids[:, 0], ids[:, 1], w, n=n, directed=directed)


def _read_mtx(path: str, L: _Lines, dtype: np.dtype, directed: bool | None) -> Graph:
    if L.starts.size == 0 or not L.data.startswith(b"%%MatrixMarket"):
        raise GraphFormatError(path, 1, "a Matrix Market file starts with '%%MatrixMarket'")
    head = [f.decode("ascii", "replace").lower() for f in L.fields(0)]
    if len(head) != 5 or head[0] != "%%matrixmarket" or head[1] != "matrix" or head[2] != "coordinate":
        raise GraphFormatError(path, 1, f"expected '%%MatrixMarket matrix coordinate <field> <symmetry>', "
                                        f"got {L.shown(0)}")
    field, symmetry = head[3], head[4]
    if field not in ("real", "integer", "pattern", "double"):
        raise GraphFormatError(path, 1, f"field {field!r} is not supported (real, integer or pattern)")
    if symmetry not in ("general", "symmetric"):
        raise GraphFormatError(path, 1, f"symmetry {symmetry!r} is not supported (general or symmetric)")
    first = L.first
    rest = np.flatnonzero((first != ord("%")) & ~L.blank)
    if rest.size == 0:
        raise GraphFormatError(path, None, "no size line 'rows cols entries'")
    s = int(rest[0])
    toks = L.fields(s)
    if len(toks) != 3 or not all(t.isdigit() for t in toks):
        raise GraphFormatError(path, s + 1, f"expected the size line 'rows cols entries', got {L.shown(s)}")
    rows = _size(path, L, s, toks[0], "the row count of the size line")
    cols = _size(path, L, s, toks[1], "the column count of the size line")
    nnz = int(toks[2])
    if rows != cols:
        raise GraphFormatError(path, s + 1, f"an adjacency matrix is square, this one is {rows} x {cols}")
    entries = rest[1:]
    if entries.size != nnz:
        raise GraphFormatError(path, s + 1, f"the size line announces {nnz} entries, the file has {entries.size}")
    ncols = 2 if field == "pattern" else 3
    integer = field in ("integer", "pattern") or dtype.kind == "i"
    T = _parse_numbers(path, L, entries, ncols, False, integer)
    ids = _check_ids(T, 1, rows, "Matrix Market index")
    w = None if field == "pattern" else _check_weights(T, 2, dtype)
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
        Weight dtype: float32, float64 (the default) or, for integer weights
        written as integer literals, int32 or int64.  Values are read exactly
        or not at all: see "Values" in the module docstring.  Unweighted
        files (SNAP ``u v``, Matrix Market ``pattern``) give unweighted graphs.
    directed : bool, optional
        Override the file's own direction (SNAP and Matrix Market); ``False``
        stores each listed edge in both directions.

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
        file, the line, what was wrong and the value (``FILE, line N: what
        (value V): 'the line'``).  Raised before allocating anything sized
        by the file's counts.
    DTypeError
        ``dtype`` is not a weight dtype.
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
    >>> _ = p.write_text("p sp 3 2\\na 1 2 7\\na 2 x 1\\n")
    >>> read(p)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphFormatError: ...tiny.gr, line 3: 'x' is not a number: 'a 2 x 1'
    >>> _ = p.write_text("p sp 3 1\\na 1 2 3000000000\\n")
    >>> read(p, dtype=np.int32)
    Traceback (most recent call last):
    ...
    graphs.errors.GraphFormatError: ...tiny.gr, line 2: weight does not fit int32: ... (value 3000000000): ...
    """
    path = Path(path)
    fmt = _format_of(path, format)
    dt = _weight_dtype(dtype)
    data = _read_bytes(path)
    L = _Lines(data)
    name = str(path)
    L.check_line_ends(name)
    if fmt == "dimacs":
        G = _read_dimacs(name, L, dt)
        if directed is False:
            G = _undirect(G)
    elif fmt == "snap":
        return _read_snap(name, L, dt, directed)
    else:
        G = _read_mtx(name, L, dt, directed)
    G._cache["file_id_base"] = 1  # for the messages of graphs._arguments.check_vertex
    return G


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
