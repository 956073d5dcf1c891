r"""NumPy twins of the compiled byte passes of :mod:`graphs.io._kernels`, for small files.

Same functions, same arguments, same results (:mod:`graphs.kernel_route`
picks them for a chunk of a small file, so that reading one loads no Numba):
line ends and field starts are found with vectorised comparisons and
``searchsorted``, and the literal grammar is one regular expression whose
longest valid prefix ends where :func:`graphs.io._kernels.first_bad_literal`'s
automaton stops.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["scan_lines", "as_words", "gather_fields", "first_bad_literal", "integer_literals"]

_FLOATY = np.zeros(256, dtype=np.bool_)  # bytes that make a token a float literal
_FLOATY[list(b".eEiInN")] = True
_EMPTY = np.empty(0, dtype=np.int64)

_INTEGER = rb"[+-]?[0-9]+"
_FLOAT = rb"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:infinity|inf|nan))"
#: The valid tokens from the start of the text on: where the match ends, the first bad token (if any) begins.
_VALID = {integer: re.compile(rb"(?:[ \t\r\n]*(?:" + token + rb")(?![^ \t\r\n]))*")
          for integer, token in ((True, _INTEGER), (False, _FLOAT))}
_TOKEN = re.compile(rb"[^ \t\r\n]")


def _blank(b: np.ndarray) -> np.ndarray:
    return (b == 32) | (b == 9)


def scan_lines(buf, words, comment, keep):
    """:func:`graphs.io._kernels.scan_lines` (``words`` is not needed here).

    >>> buf = np.frombuffer(b"c x\\n\\n a 1 2\\r\\np 3\\n", dtype=np.uint8)
    >>> comment = np.zeros(256, dtype=np.bool_); comment[ord("c")] = True
    >>> count, lead, end = scan_lines(buf, as_words(buf), comment, 0)
    >>> count, lead.tolist(), end.tolist()
    (4, [6, 13], [12, 16])
    """
    n = buf.shape[0]
    if n == 0:
        return 0, _EMPTY.copy(), _EMPTY.copy()
    nl = np.flatnonzero(buf == 10)
    start = np.concatenate(([0], nl + 1))
    end = np.concatenate((nl, [n]))
    if start[-1] == n:  # the text ends with a line end: no last line without one
        start, end = start[:-1], end[:-1]
    other = np.flatnonzero(~_blank(buf))  # bytes that are neither spaces nor tabs (line ends included)
    at = np.searchsorted(other, start)
    lead = np.where(at < other.shape[0], other[np.minimum(at, other.shape[0] - 1)] if other.size else n, n)
    first = buf[np.minimum(lead, n - 1)]
    c = (lead < n) & comment[first]
    filled = (lead < end) & (first != 13)  # not blank (a \r here ends the line: \r\n)
    kept = c & filled
    keep_row = (filled & ~c) | (kept & (np.cumsum(kept) <= keep))
    return int(start.shape[0]), lead[keep_row].astype(np.int64), end[keep_row].astype(np.int64)


def as_words(buf: np.ndarray) -> np.ndarray:
    """``buf``'s whole 8-byte words as uint64 (:func:`graphs.io._kernels.as_words`).

    >>> as_words(np.frombuffer(b"0123456789", dtype=np.uint8)).shape
    (1,)
    """
    return buf[:buf.shape[0] - buf.shape[0] % 8].view(np.uint64)


def gather_fields(buf, lead, end, skip_first, ncols):
    """:func:`graphs.io._kernels.gather_fields`.

    >>> buf = np.frombuffer(b"a 1 2 3\\na1 2\\n", dtype=np.uint8)
    >>> text, row_start, fields, count = gather_fields(buf, np.array([0, 8]), np.array([7, 12]), True, 3)
    >>> bytes(text), row_start.tolist(), fields.tolist(), count.tolist()
    (b'  1 2 3\\n 1 2\\n', [0, 8], [[2, 4, 6], [9, 11, -1]], [3, -1])
    """
    n = buf.shape[0]
    k = lead.shape[0]
    lead = np.asarray(lead, dtype=np.int64)
    end = np.asarray(end, dtype=np.int64)
    length = end - lead + 1  # the line's bytes and its \n
    row_start = np.zeros(k, dtype=np.int64)
    np.cumsum(length[:-1], out=row_start[1:])
    size = int(length.sum())
    row = np.repeat(np.arange(k), length)
    src = np.arange(size, dtype=np.int64) - row_start[row] + lead[row]  # the byte of buf each text byte copies
    line_end = row_start + length - 1
    text = buf[np.minimum(src, max(n - 1, 0))] if n else np.zeros(size, dtype=np.uint8)
    text = text.astype(np.uint8, copy=True)
    text[line_end] = 10
    if skip_first:
        text[row_start[length > 1]] = 32  # the lead byte (DIMACS's "a") blanked
    blank = _blank(text) | (text == 13)
    prev_blank = np.ones(size, dtype=bool)
    prev_blank[1:] = blank[:-1]
    prev_blank[row_start] = True
    starts = ~blank & prev_blank
    starts[line_end] = False
    tok = np.flatnonzero(starts)
    tok_row = row[tok]
    count = np.bincount(tok_row, minlength=k).astype(np.int64)
    first_tok = np.zeros(k, dtype=np.int64)
    np.cumsum(count[:-1], out=first_tok[1:])
    rank = np.arange(tok.shape[0]) - first_tok[tok_row]
    fields = np.full((k, ncols), -1, dtype=np.int64)
    shown = rank < ncols
    fields[tok_row[shown], rank[shown]] = src[tok[shown]]
    if skip_first:
        after = lead + 1
        ok = after < end
        ok[ok] = _blank(buf[after[ok]])
        count[~ok] = -1
    return text, row_start, fields, count


def first_bad_literal(c, integer):
    r""":func:`graphs.io._kernels.first_bad_literal`: where the first token that is no literal starts; -1 if none.

    >>> first_bad_literal(np.frombuffer(b"1 -2.5e3\n3 1e\n", dtype=np.uint8), False)
    11
    """
    data = c.tobytes() if isinstance(c, np.ndarray) else bytes(c)
    valid = _VALID[bool(integer)].match(data).end()
    bad = _TOKEN.search(data, valid)
    return -1 if bad is None else bad.start()


def integer_literals(buf, at):
    """:func:`graphs.io._kernels.integer_literals`: whether each token starting at ``at`` has no ``.``, ``e``, ...

    >>> buf = np.frombuffer(b"12 1e3 -4\\n", dtype=np.uint8)
    >>> integer_literals(buf, np.array([0, 3, 7])).tolist()
    [True, False, True]
    """
    n = buf.shape[0]
    at = np.asarray(at, dtype=np.int64)
    if n == 0:
        return np.ones(at.shape[0], dtype=np.bool_)
    floaty = _FLOATY[buf]
    stop = np.flatnonzero(_blank(buf) | (buf == 10) | (buf == 13) | floaty)  # where a token's scan stops
    i = np.searchsorted(stop, at)
    first = np.where(i < stop.shape[0], stop[np.minimum(i, max(stop.shape[0] - 1, 0))] if stop.size else n, n)
    return (first >= n) | ~floaty[np.minimum(first, n - 1)]
