"""The numbers of a chunk's data lines, checked line by line as :mod:`graphs.io` describes.

:class:`ChunkLines` indexes the lines of one chunk (:class:`graphs.io._text_chunks.Chunk`)
that are not comments; :func:`parse_rows` parses the numbers of some of them
(vectorised: :mod:`graphs.io._kernels`, or for a chunk of a small file their
NumPy twins :mod:`graphs.io._kernels_numpy` as :mod:`graphs.kernel_route`
decides, and NumPy's parser) into a
:class:`Table`; :func:`check_ids` and :func:`check_weights` apply the value
rules.  Each check finds the *first* offending line of the chunk, so that the
format readers can report the first wrong line of the file whatever the
buffer size: within a line, a wrong field (count, byte, literal) comes first,
then an id, then the weight.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import GraphFormatError
from ..kernel_route import BYTES_PER_ITEM, numpy_route
from ._text_chunks import Chunk

__all__ = ["ChunkLines", "Table", "Problem", "first_problem", "parse_rows", "check_ids", "check_weights",
           "int_fits_float", "fields_of", "bad_bytes", "comment_mask", "INDEX_LIMIT", "LIMIT_WHY"]

# The graph's column indices are int32 (as Graph requires), so n <= 2**31 - 1.
INDEX_LIMIT = int(np.iinfo(np.int32).max)
LIMIT_WHY = f"at most {INDEX_LIMIT} (2**31 - 1) vertices, since the graph stores its column indices as int32"
_FLOATY = np.zeros(256, dtype=bool)
_FLOATY[list(b".eEiInN")] = True
_FIELD_SEP = re.compile(rb"[ \t]+")
_FIELD = re.compile(rb"[^ \t]+")
_TOKEN_AT = re.compile(rb"[^ \t\r\n]*")
_INT_LITERAL = re.compile(rb"[+-]?[0-9]+")
_NUMBER_LITERAL = re.compile(rb"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)",
                             re.IGNORECASE)
_INF_LITERAL = re.compile(rb"[+-]?inf(?:inity)?", re.IGNORECASE)
_NAN_LITERAL = re.compile(rb"[+-]?nan", re.IGNORECASE)


def comment_mask(leads: bytes) -> np.ndarray:
    """The lead bytes of comment lines, as the table :func:`graphs.io._kernels.scan_lines` takes.

    >>> np.flatnonzero(comment_mask(b"#%")).tolist()
    [35, 37]
    """
    mask = np.zeros(256, dtype=np.bool_)
    mask[list(leads)] = True
    return mask


def fields_of(line: bytes) -> list[bytes]:
    r"""The fields of one line (without its ``\n``): split at runs of spaces and tabs, a final ``\r`` dropped.

    >>> fields_of(b"a 1\t 2\r")
    [b'a', b'1', b'2']
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    return [f for f in _FIELD_SEP.split(line) if f]


def bad_bytes(field: bytes) -> str:
    """What is wrong with the bytes of ``field`` when it holds one that no field may hold ('' when none).

    >>> bad_bytes(b"1\\x0b2")
    'byte 0x0b is not allowed in a field (fields are separated by spaces or tabs)'
    """
    for b in field:
        if b < 0x21 or b > 0x7E:
            return f"byte 0x{b:02x} is not allowed in a field (fields are separated by spaces or tabs)"
    return ""


class ChunkLines:
    """The lines of a chunk that matter: non-blank lines that are not comments, and the first ``keep`` comments.

    Row ``k`` (0-based, in file order) has its first byte that is not a
    space or a tab at offset ``lead[k]`` of the chunk (``first[k]`` is that
    byte) and its line end at ``end[k]``; ``is_comment[k]`` says whether it
    is a comment line.  ``line0`` is the number of lines of the file before
    the chunk's, ``count`` the chunk's lines (comments and blank lines
    included).

    Examples
    --------
    >>> L = ChunkLines("g.gr", Chunk(memoryview(b"c x\\np sp 2 1\\n  a 1 x 3\\n"), 100), 10, comment_mask(b"c"))
    >>> L.count, L.lead.tolist(), bytes(L.first), L.fields(1), L.line_number(1), L.line_start(1)
    (3, [4, 15], b'pa', [b'a', b'1', b'x', b'3'], 13, 13)
    >>> str(L.error(1, "'x' is not a number", 19))
    "g.gr, line 13 (byte offset 119): 'x' is not a number"
    """

    def __init__(self, path: str, chunk: Chunk, line0: int, comment: np.ndarray, keep: int = 0) -> None:
        self.path, self.data, self.line0, self.offset0 = path, chunk.data, line0, chunk.offset0
        self.buf = np.frombuffer(chunk.data, dtype=np.uint8)
        if numpy_route(self.buf.shape[0] // BYTES_PER_ITEM):  # the byte passes of this chunk
            from . import _kernels_numpy as K
        else:
            from . import _kernels as K
        self.kernels = K
        self.count, self.lead, self.end = K.scan_lines(self.buf, K.as_words(self.buf), comment, keep)
        self.first = self.buf[self.lead]
        self.is_comment = comment[self.first] if keep else np.zeros(self.lead.shape, dtype=bool)
        self._numbers = self._origins = None

    @classmethod
    def of_lines(cls, path: str, lines: list[tuple[int, int, bytes]]) -> "ChunkLines":
        """Rows made of lines held apart: ``(1-based line number, offset of the line's start, its bytes)``.

        >>> L = ChunkLines.of_lines("g.txt", [(3, 20, b"0 1"), (7, 51, b" 1 x")])
        >>> L.fields(1), L.line_number(1), str(L.error(1, "'x' is not a number", L.lead[1] + 2))
        ([b'1', b'x'], 7, "g.txt, line 7 (byte offset 54): 'x' is not a number")
        """
        L = cls(path, Chunk(memoryview(b"\n".join(raw for _, _, raw in lines) + b"\n"), 0), 0, comment_mask(b""))
        assert len(L) == len(lines)  # (non-blank data lines)
        L._numbers = [n for n, _, _ in lines]
        L._origins = [o for _, o, _ in lines]
        return L

    def __len__(self) -> int:
        return int(self.lead.size)

    def line_start(self, k: int) -> int:
        """The offset of the first byte of row ``k``'s line (leading blanks included)."""
        lead = int(self.lead[k])
        blanks = self.buf[:lead][::-1]
        n = int(np.argmax((blanks != 32) & (blanks != 9))) if blanks.size else 0
        if blanks.size and (blanks[n] == 32 or blanks[n] == 9):  # blanks back to the chunk's start
            n = blanks.size
        return lead - n

    def line_number(self, k: int) -> int:
        """The 1-based line number of row ``k`` in the file."""
        if self._numbers is not None:
            return self._numbers[k]
        return self.line0 + int(np.count_nonzero(self.buf[:int(self.lead[k])] == 10)) + 1

    def file_offset(self, k: int, at: int | None = None) -> int:
        """The offset in the file's text of byte ``at`` of the chunk (default: row ``k``'s line start)."""
        start = self.line_start(k)
        at = start if at is None else int(at)
        if self._origins is not None:
            return self._origins[k] + at - start
        return self.offset0 + at

    def raw(self, k: int) -> bytes:
        """Row ``k``'s bytes (without its line end)."""
        return bytes(self.data[self.line_start(k):self.end[k]])

    def fields(self, k: int) -> list[bytes]:
        """The fields of row ``k``."""
        return fields_of(bytes(self.data[self.lead[k]:self.end[k]]))

    def text(self, k: int) -> str:
        """Row ``k`` as text, for error messages."""
        s = self.raw(k).decode("utf-8", "replace").rstrip("\r")
        return s if len(s) <= 80 else s[:77] + "..."

    def shown(self, k: int) -> str:
        """Row ``k`` quoted for a message, and the first byte no field may hold, if it has one."""
        why = next((w for w in map(bad_bytes, self.fields(k)) if w), "")
        return f"{self.text(k)!r}" + (f" ({why})" if why else "")

    def token(self, k: int, at: int) -> bytes:
        """The token of row ``k`` that starts at offset ``at``."""
        return _TOKEN_AT.match(self.data, at, self.end[k]).group()

    def error(self, k: int, what: str, at: int | None = None) -> GraphFormatError:
        """``FILE, line N (byte offset B): what`` for row ``k``; ``at`` (default: the line's start) is the byte."""
        return GraphFormatError(self.path, self.line_number(k), what, offset=self.file_offset(k, at))


class Problem:
    """The first wrong row of some rows: its position ``row`` among them and the error to raise."""

    __slots__ = ("row", "error")

    def __init__(self, row: int, error: GraphFormatError) -> None:
        self.row, self.error = row, error


def first_problem(*problems: Problem | None) -> Problem | None:
    """The problem on the earliest row (the first given wins a tie).

    >>> first_problem(None, Problem(3, None), Problem(2, None)).row
    2
    """
    best = None
    for p in problems:
        if p is not None and (best is None or p.row < best.row):
            best = p
    return best


class Table:
    """The numbers of some rows of a :class:`ChunkLines`: ``vals`` (k, ncols), int64 or float64.

    ``rows`` are the rows' indices in the :class:`ChunkLines`; ``tok[k, j]``
    is where the token of row ``k``, column ``j`` starts in the chunk.
    """

    def __init__(self, L: ChunkLines, rows: np.ndarray, vals: np.ndarray, tok: np.ndarray) -> None:
        self.L, self.rows, self.vals, self.tok = L, rows, vals, tok

    def __len__(self) -> int:
        return int(self.rows.size)

    def token(self, k: int, j: int) -> bytes:
        """Token of row ``k``, column ``j``, as written in the file."""
        return self.L.token(int(self.rows[k]), int(self.tok[k, j]))

    def problem(self, k: int, j: int, what: str) -> Problem:
        """``FILE, line N (byte offset B): what (value V): 'the line'`` for the value at row ``k``, column ``j``."""
        r = int(self.rows[k])
        value = self.token(k, j).decode("utf-8", "replace")
        return Problem(k, self.L.error(r, f"{what} (value {value}): {self.L.text(r)!r}", self.tok[k, j]))


def _first(bad: np.ndarray) -> tuple[int, int]:
    """Row and column of the first True of ``bad`` (k, c), in file order."""
    k = int(np.argmax(bad.any(axis=1)))
    return k, int(np.argmax(bad[k]))


def parse_rows(L: ChunkLines, rows: np.ndarray, ncols: int, skip_first: bool,
               integer: bool | None) -> tuple[Table, Problem | None]:
    """Parse ``ncols`` numbers from each of ``rows`` (indices into ``L``).

    ``skip_first`` blanks each row's first token (DIMACS's ``a``, which must be
    followed by a space or a tab).  ``integer`` True asks for integer literals
    only (int64), False for float64, None for int64 when no token looks like a
    float.  Every byte is checked against the literal grammar
    (:func:`graphs.io._kernels.first_bad_literal`) before NumPy parses it,
    since NumPy's parser is lenient (a lone ``-`` reads as 0).

    Returns the table of the rows before the first wrong one (all of them if
    none is) and that row's problem (a wrong field count, a byte no field may
    hold, a token that is not a number or not an integer literal), or None.
    int64 parsing saturates: a literal beyond the int64 range reads as
    ``iinfo(int64).max``, which the callers reject (it is out of every id
    range and the int64 ``+inf`` sentinel).
    """
    if rows.size == 0:
        vals = np.zeros((0, ncols), dtype=np.int64 if integer is not False else np.float64)
        return Table(L, rows, vals, np.zeros((0, ncols), dtype=np.int64)), None
    K = L.kernels
    text, row_start, tok, count = K.gather_fields(L.buf, L.lead[rows], L.end[rows], skip_first, ncols)
    if integer is None:
        integer = not bool(_FLOATY[text].any())
    bad = rows.size
    wrong = count != ncols
    if wrong.any():
        bad = int(np.argmax(wrong))
    at = K.first_bad_literal(text[:row_start[bad]] if bad < rows.size else text, integer)
    if at >= 0:
        bad = int(np.searchsorted(row_start, at, side="right")) - 1
    problem = _token_problem(L, int(rows[bad]), ncols, skip_first, integer, bad) if bad < rows.size else None
    good = text[:row_start[bad]] if bad < rows.size else text
    dtype = np.int64 if integer else np.float64
    # No warnings.catch_warnings() here: it swaps the process-wide filters, which threads reading at
    # once would leave changed.  The literals were checked, so NumPy parses them all; a short parse
    # (NumPy's DeprecationWarning for unmatched data) would show in the count below.
    try:
        vals = np.fromstring(good.tobytes().decode("ascii", "replace"), dtype=dtype, sep=" ")
    except (ValueError, DeprecationWarning):  # pragma: no cover - the literals were checked
        vals = None
    if vals is None or vals.size != bad * ncols:  # pragma: no cover - the literals were checked
        return Table(L, rows[:0], np.zeros((0, ncols), dtype), tok[:0]), Problem(0, L.error(
            int(rows[0]), "could not parse the numbers"))
    return Table(L, rows[:bad], vals.reshape(bad, ncols), tok[:bad]), problem


def _token_problem(L: ChunkLines, k: int, ncols: int, skip_first: bool, integer: bool, row: int) -> Problem:
    """What is wrong with the fields of row ``k`` of ``L`` (a byte, the ``a``, the count, a literal)."""
    line = L.raw(k)
    if line.endswith(b"\r"):
        line = line[:-1]
    spans = [(m.start(), m.group()) for m in _FIELD.finditer(line)]
    pos = L.line_start(k)
    for s, t in spans:
        why = bad_bytes(t)
        if why:
            return Problem(row, L.error(k, f"{t.decode('utf-8', 'replace')!r}: {why}: {L.text(k)!r}", pos + s))
    if skip_first:
        if spans[0][1] != b"a":
            return Problem(row, L.error(k, f"expected 'a u v w', got {L.text(k)!r}"))
        spans = spans[1:]
    if len(spans) != ncols:
        return Problem(row, L.error(k, f"expected {ncols} fields, got {len(spans)}: {L.text(k)!r}"))
    for s, t in spans:
        if _INT_LITERAL.fullmatch(t) or (not integer and _NUMBER_LITERAL.fullmatch(t)):
            continue
        kind = "an integer" if _NUMBER_LITERAL.fullmatch(t) else "a number"
        return Problem(row, L.error(k, f"{t.decode('utf-8', 'replace')!r} is not {kind}: {L.text(k)!r}", pos + s))
    return Problem(row, L.error(k, f"could not parse the numbers: {L.text(k)!r}"))  # pragma: no cover


def check_ids(T: Table, lo: int, hi: int, what: str, limit_what: str | None = None) -> tuple[np.ndarray, Problem | None]:
    """Columns 0 and 1 of ``T`` are ids: integers in ``[lo, hi]``.

    Returns them as int64 (k, 2) and None, or None and the first wrong row's problem.
    ``limit_what``, if given, is the message for ids above ``hi`` (the int32
    index limit rather than the format's own range).
    """
    ids = T.vals[:, :2]
    first = len(T)
    problem = None
    if ids.dtype.kind == "f":
        bad = ~np.isfinite(ids) | (ids != np.floor(ids))
        if bad.any():
            k, j = _first(bad)
            first, problem = k, T.problem(k, j, "vertex ids must be integers")
    head = ids[:first]
    out = (head < lo) | (head > hi)
    if out.any():
        k, j = _first(out)
        if limit_what is not None and head[k, j] > hi and not T.token(k, j).startswith(b"-"):
            # (a literal below -2**63 parses as int64's max: its sign is in the text)
            problem = T.problem(k, j, limit_what)
        else:
            rng = f">= {lo}" if limit_what is not None else f"in {lo}..{hi}"
            problem = T.problem(k, j, f"{what} ids must be {rng}")
    return (ids.astype(np.int64) if problem is None else None), problem


def int_fits_float(v: int, dtype: np.dtype) -> bool:
    """Whether the Python int ``v`` is exactly representable in the float ``dtype``.

    >>> int_fits_float(2**53 + 1, np.dtype(np.float64)), int_fits_float(2**60, np.dtype(np.float64))
    (False, True)
    """
    a = abs(v)
    if a == 0:
        return True
    fi = np.finfo(dtype)
    mantissa = a >> ((a & -a).bit_length() - 1)
    return mantissa.bit_length() <= fi.nmant + 1 and a <= int(fi.max)


def check_weights(T: Table, j: int, dtype: np.dtype) -> tuple[np.ndarray, Problem | None]:
    """Column ``j`` of ``T`` as weights of ``dtype``, exactly (see :mod:`graphs.io`).

    Returns the weights and None, or anything and the first wrong row's problem.
    """
    w = T.vals[:, j]
    if dtype.kind == "i":
        # Parsed as int64 literals (saturating beyond int64, which lands on the sentinel).
        info = np.iinfo(dtype)
        bad = (w <= info.min) | (w >= info.max)
        if bad.any():
            k = int(np.argmax(bad))
            return w, T.problem(k, j, f"weight does not fit {dtype}: integer weights lie strictly between "
                                      f"{info.min} and {info.max}, the -inf and +inf of {dtype}")
        return w.astype(dtype), None
    fi = np.finfo(dtype)
    exact = 2 ** (fi.nmant + 1)  # every integer up to this magnitude is exact in dtype
    first = len(T)
    problem = None
    if w.dtype.kind == "f":
        nonfinite = ~np.isfinite(w)
        if nonfinite.any():
            k = int(np.argmax(nonfinite))
            tok = T.token(k, j)
            if _NAN_LITERAL.fullmatch(tok):
                why = "a weight is a number, not NaN"
            elif _INF_LITERAL.fullmatch(tok):
                why = "infinite weight: a file lists finite weights only (an arc of weight +inf is no arc)"
            else:
                why = f"weight overflows float64 (largest finite {float(np.finfo(np.float64).max)!r})"
            first, problem = k, T.problem(k, j, why)
        with np.errstate(over="ignore", invalid="ignore"):
            out = w.astype(dtype)
        over = ~np.isfinite(out[:first])
        if over.any():
            k = int(np.argmax(over))
            first, problem = k, T.problem(k, j, f"weight overflows {dtype} (largest finite {fi.max})")
        # Integer literals from 2**(nmant + 1) on must be held exactly: find them among the big values
        # (>=: parsing rounds, so 2**53 + 1 reads as 2**53)
        big = np.flatnonzero(np.abs(w[:first]) >= exact)
        if big.size:
            big = big[T.L.kernels.integer_literals(T.L.buf, T.tok[big, j])]
    else:
        out = w.astype(dtype)
        big = np.flatnonzero((w > exact) | (w < -exact))
        if big.size:
            # Exact iff the odd part of |w| has at most nmant + 1 bits (all int64 are below float32's max).
            a = w[big].astype(np.uint64)
            a = np.where(w[big] < 0, ~a + np.uint64(1), a)
            odd = a // (a & (~a + np.uint64(1)))
            fits = (odd < np.uint64(exact)) & (w[big] != np.iinfo(np.int64).max)
            # Misfits and saturated literals (>= 2**63) are decided from the file's text.
            big = big[~fits]
    for k in big.tolist():
        v = int(T.token(k, j))
        if not int_fits_float(v, dtype):
            if k < first:
                problem = T.problem(k, j, f"integer weight is not exactly representable in {dtype} (integers up "
                                          f"to 2**{fi.nmant + 1} are); pass dtype=np.int64")
            break
        out[k] = float(v)
    return out, problem
