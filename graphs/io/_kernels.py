r"""Compiled passes over the bytes of a chunk of a graph file (:mod:`graphs.io`).

A chunk is whole lines, each ending with ``\n`` (a ``\r`` only ever right
before one: :mod:`graphs.io._text_chunks`).  Blanks are spaces and tabs; a
line's *lead* is its first other byte.

* :func:`scan_lines` indexes the lines that matter -- data and header lines --
  and skips comment lines without a trace (a file of 4 GB of comments costs
  no memory);
* :func:`gather_fields` copies the data lines' bytes into one buffer for the
  number parser and finds where each field starts;
* :func:`first_bad_literal` checks every token against the literal grammar;
* :func:`integer_literals` tells which tokens are integer literals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["scan_lines", "as_words", "gather_fields", "first_bad_literal", "integer_literals"]

_INFINITY = np.frombuffer(b"infinity", dtype=np.uint8).copy()  # the words a float field may hold (any case)
_NAN = np.frombuffer(b"nan", dtype=np.uint8).copy()
_FLOATY = np.zeros(256, dtype=np.bool_)  # bytes that make a token a float literal
_FLOATY[list(b".eEiInN")] = True


_ONES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)
_NEWLINES = np.uint64(0x0A0A0A0A0A0A0A0A)


@njit(cache=True, nogil=True)
def _skip_line(buf, words, e):  # pragma: no cover - jitted
    """The offset of the first ``\\n`` of ``buf`` at or after ``e`` (``len(buf)`` if none), for long lines.

    Eight bytes at a time through ``words`` (``buf`` as uint64): a word holds a
    ``\\n`` exactly when ``x = word ^ 0x0a..0a`` has a zero byte, that is when
    ``(x - 0x01..01) & ~x & 0x80..80`` is not zero.  Three times as fast as
    a byte loop on comment lines; a byte loop is faster on short data lines
    (and a function call per line costs more than such a line's scan).
    """
    n = buf.shape[0]
    while e < n and (e & 7) != 0:
        if buf[e] == 10:
            return e
        e += 1
    if e >= n:
        return n
    w = e >> 3  # (e is a multiple of 8 here)
    nw = words.shape[0]
    while w < nw:
        x = words[w] ^ _NEWLINES
        if ((x - _ONES) & ~x & _HIGHS) != 0:
            break
        w += 1
    e = w << 3
    while e < n and buf[e] != 10:
        e += 1
    return e


@njit(cache=True, nogil=True)
def _scan(buf, words, comment, keep, fill, lead, end):  # pragma: no cover - jitted
    """One pass of :func:`scan_lines`: ``(lines kept, lines)``; with ``fill``, the kept lines recorded."""
    n = buf.shape[0]
    k = 0
    kept = 0
    i = 0
    li = 0
    while i < n:
        j = i
        while j < n and (buf[j] == 32 or buf[j] == 9):
            j += 1
        c = j < n and comment[buf[j]]
        if c and not kept < keep:  # a comment line skipped: its end, eight bytes at a time
            i = _skip_line(buf, words, j) + 1
            li += 1
            continue
        e = j
        while e < n and buf[e] != 10:
            e += 1
        if j < e and buf[j] != 13:  # not blank (a \r here ends the line: \r\n)
            if fill:
                lead[k] = j
                end[k] = e
            k += 1
            if c:
                kept += 1
        li += 1
        i = e + 1
    return k, li


@njit(cache=True, nogil=True)
def scan_lines(buf, words, comment, keep):  # pragma: no cover - jitted
    """The non-blank lines of ``buf`` that are not comments, and the first ``keep`` comment lines.

    Parameters
    ----------
    buf : uint8 array
        Whole lines, each ending with ``\\n`` (the last may not).
    words : uint64 array
        ``buf[:len(buf) // 8 * 8]`` viewed as uint64 (:func:`as_words`).
    comment : bool array (256,)
        Which lead bytes make a line a comment.
    keep : int
        How many comment lines to keep (in file order).

    Returns
    -------
    count : int
        The lines of ``buf`` (a last line without ``\\n`` counts).
    lead, end : int64 arrays
        For each kept line: the offset of its first byte that is not a space
        or a tab, and of its ``\\n`` (or ``len(buf)``).  (Two arrays only: a
        line's number and start are found again when an error needs them.)

    Examples
    --------
    >>> buf = np.frombuffer(b"c x\\n\\n a 1 2\\r\\np 3\\n", dtype=np.uint8)
    >>> comment = np.zeros(256, dtype=np.bool_); comment[ord("c")] = True
    >>> count, lead, end = scan_lines(buf, as_words(buf), comment, 0)
    >>> count, lead.tolist(), end.tolist()
    (4, [6, 13], [12, 16])
    """
    empty = np.empty(0, dtype=np.int64)
    k, count = _scan(buf, words, comment, keep, False, empty, empty)
    lead = np.empty(k, dtype=np.int64)
    end = np.empty(k, dtype=np.int64)
    if k:  # (a chunk of comments is scanned once)
        _scan(buf, words, comment, keep, True, lead, end)
    return count, lead, end


def as_words(buf: np.ndarray) -> np.ndarray:
    """``buf``'s whole 8-byte words as uint64 (what :func:`scan_lines` searches newlines in).

    >>> as_words(np.frombuffer(b"0123456789", dtype=np.uint8)).shape
    (1,)
    """
    return buf[:buf.shape[0] - buf.shape[0] % 8].view(np.uint64)


@njit(cache=True, nogil=True)
def gather_fields(buf, lead, end, skip_first, ncols):  # pragma: no cover - jitted
    """The bytes of the lines ``[lead, end)`` of ``buf``, one ``\\n`` after each, and where their fields start.

    With ``skip_first`` each line's lead byte (DIMACS's ``a``) is blanked in
    the copy, and must be followed by a space or a tab.

    Returns
    -------
    text : uint8 array
        The lines, each followed by ``\\n``.
    row_start : int64 array (k,)
        Where each line starts in ``text``.
    fields : int64 array (k, ncols)
        Offset in ``buf`` of the first byte of each of the first ``ncols``
        fields of each line (fields are separated by spaces, tabs and the
        line end); -1 past the line's last field.
    count : int64 array (k,)
        Fields per line; -1 for a line whose lead is not followed by a blank
        (``skip_first``).

    Examples
    --------
    >>> buf = np.frombuffer(b"a 1 2 3\\na1 2\\n", dtype=np.uint8)
    >>> text, row_start, fields, count = gather_fields(buf, np.array([0, 8]), np.array([7, 12]), True, 3)
    >>> bytes(text), row_start.tolist(), fields.tolist(), count.tolist()
    (b'  1 2 3\\n 1 2\\n', [0, 8], [[2, 4, 6], [9, 11, -1]], [3, -1])
    """
    k = lead.shape[0]
    size = 0
    for r in range(k):
        size += end[r] - lead[r] + 1
    text = np.empty(size, dtype=np.uint8)
    row_start = np.empty(k, dtype=np.int64)
    fields = np.full((k, ncols), -1, dtype=np.int64)
    count = np.zeros(k, dtype=np.int64)
    p = 0
    for r in range(k):
        row_start[r] = p
        s = lead[r]
        e = end[r]
        c = 0
        prev_blank = True
        for i in range(s, e):
            b = buf[i]
            if skip_first and i == s:
                b = 32
            text[p] = b
            p += 1
            blank = b == 32 or b == 9 or b == 13
            if not blank and prev_blank:
                if c < ncols:
                    fields[r, c] = i
                c += 1
            prev_blank = blank
        text[p] = 10
        p += 1
        if skip_first:
            after = lead[r] + 1
            if after >= e or not (buf[after] == 32 or buf[after] == 9):
                c = -1
        count[r] = c
    return text, row_start, fields, count


@njit(cache=True, nogil=True)
def integer_literals(buf, at):  # pragma: no cover - jitted
    """For each offset of ``at``: whether the token of ``buf`` starting there has no ``.``, ``e``, ``inf``, ``nan``.

    >>> buf = np.frombuffer(b"12 1e3 -4\\n", dtype=np.uint8)
    >>> integer_literals(buf, np.array([0, 3, 7])).tolist()
    [True, False, True]
    """
    out = np.empty(at.shape[0], dtype=np.bool_)
    n = buf.shape[0]
    for t in range(at.shape[0]):
        i = at[t]
        ok = True
        while i < n and not (buf[i] == 32 or buf[i] == 9 or buf[i] == 10 or buf[i] == 13):
            if _FLOATY[buf[i]]:
                ok = False
                break
            i += 1
        out[t] = ok
    return out


@njit(cache=True, nogil=True)
def first_bad_literal(c, integer):  # pragma: no cover - jitted
    r"""Position of the first byte of ``c`` (whole lines' bytes) where a token stops being a literal; -1 if none.

    The grammar of :mod:`graphs.io` as a finite automaton, one pass over the
    bytes: tokens are separated by spaces, tabs and line ends (a ``\r`` only
    ever before ``\n``); an integer is ``[+-]digits``; a float
    ``[+-](digits[.digits]|.digits)[(e|E)[+-]digits]`` or, sign and case
    aside, ``inf``, ``infinity`` or ``nan`` (which the weight checks then
    refuse with their own message).

    >>> first_bad_literal(np.frombuffer(b"1 -2.5e3\n3 1e\n", dtype=np.uint8), False)
    11
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
