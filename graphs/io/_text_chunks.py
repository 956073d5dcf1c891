r"""A text file (plain or gzip) read as chunks of whole lines, in a buffer of bounded size.

:class:`TextChunks` reads at most ``buffer_size`` bytes of (decompressed) text at
a time, cuts them after the last line end, and carries the partial last line
over to the next read: a file of any size is read in memory proportional to
the buffer, never to the file.

Line ends are ``\n``, ``\r\n`` or ``\r`` (old Mac files), and may be mixed, as
in Python's text mode ("universal newlines"): ``\r\n`` is one line end, and a
``\r`` not followed by ``\n`` is one too.  In each chunk a lone ``\r`` is
replaced by ``\n`` (same length: byte offsets do not move), so that every line
of a chunk ends with ``\n`` (the file's last line may end with nothing); a
``\r`` left in a chunk is always the first byte of a ``\r\n``.

The buffer is no larger than the text (a small plain file, or a gzip file
whose text fits :data:`FIRST_BUFFER`, takes no more).  A line longer than
the buffer cannot be held: its first ``buffer_size`` bytes
come as a chunk of their own, marked ``cut``, and the rest of the line is
skipped (a comment line may be that long; a data line may not -- the format
readers of :mod:`graphs.io` decide).  Every chunk knows its first byte's
offset in the text; its readers count its lines, so that errors name the line
and the byte.

A gzip file is recognised by its first two bytes; a truncated or corrupt one is
a :class:`~graphs.errors.GraphFormatError` naming the file, raised when the
damage is read.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import GraphFormatError

__all__ = ["Chunk", "TextChunks", "BUFFER_SIZE", "MIN_BUFFER_SIZE"]

#: Bytes of text held at a time by default.
BUFFER_SIZE = 4 * 2**20
#: A gzip file's buffer starts this large, and grows to the buffer size only if there is more text.
FIRST_BUFFER = 2**16
#: The smallest buffer accepted (a graph file's lines are short; tests use small buffers to cross many chunks).
MIN_BUFFER_SIZE = 64

_LONE_CR = re.compile(rb"\r(?!\n)")


@dataclass(frozen=True)
class Chunk:
    r"""Whole lines of a file: ``data`` (a view of the reader's buffer) starts at byte ``offset0`` of the text.

    Every line of ``data`` ends with ``\n`` (after a ``\r`` for a ``\r\n``
    line end), except the file's last line, which may end with nothing; with
    ``cut``, ``data`` is the first bytes of one line longer than the buffer
    (the line counts as one line, and its rest is skipped).
    """

    data: memoryview
    offset0: int
    cut: bool = False


class TextChunks:
    r"""The chunks of the text of ``path`` (a context manager; iterate once).

    Parameters
    ----------
    path : str or PathLike
    buffer_size : int
        Bytes of text held at a time (at least :data:`MIN_BUFFER_SIZE`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "t.txt"
    >>> _ = p.write_bytes(b"c one\rc two\r\n0 1\n" + b"#" * 100 + b"\n1 2")
    >>> with TextChunks(p, 64) as chunks:
    ...     for c in chunks:
    ...         print(c.offset0, c.cut, len(c.data), bytes(c.data[:16]))
    0 False 17 b'c one\nc two\r\n0 1'
    17 True 64 b'################'
    118 False 3 b'1 2'
    """

    def __init__(self, path: str | os.PathLike, buffer_size: int = BUFFER_SIZE) -> None:
        self.path = str(path)
        self.size = int(buffer_size)
        self._raw = open(path, "rb")
        try:
            head = self._raw.read(2)
            self._raw.seek(0)
            self._f = gzip.GzipFile(fileobj=self._raw) if head == b"\x1f\x8b" else self._raw
        except BaseException:
            self._raw.close()
            raise
        self.compressed = self._f is not self._raw
        self.file_bytes = os.fstat(self._raw.fileno()).st_size
        self._eof = False

    def __enter__(self) -> "TextChunks":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._f is not self._raw:
            self._f.close()
        self._raw.close()

    def _gzip_errors(self, e: BaseException) -> GraphFormatError:
        if isinstance(e, EOFError):
            return GraphFormatError(self.path, None, "truncated gzip file: the compressed data ends early")
        return GraphFormatError(self.path, None, f"corrupt gzip file ({e})")

    def _read(self, want: int) -> bytes:
        """Up to ``want`` bytes of text; fewer only at the end (then :attr:`_eof` is set)."""
        if self._eof or want <= 0:
            return b""
        try:
            got = self._f.read(want)
            while 0 < len(got) < want:  # (a buffered read returns fewer bytes only at the end; make sure)
                more = self._f.read(want - len(got))
                if not more:
                    break
                got += more
        except (EOFError, gzip.BadGzipFile, zlib.error) as e:
            raise self._gzip_errors(e) from None
        if len(got) < want:
            self._eof = True
        return got

    def _readinto(self, view: memoryview) -> int:
        """Fill ``view`` with text; fewer bytes only at the end (then :attr:`_eof` is set)."""
        want = len(view)
        if self._eof or want == 0:
            return 0
        got = 0
        try:
            while got < want:
                k = self._f.readinto(view[got:])
                if not k:
                    break
                got += k
        except (EOFError, gzip.BadGzipFile, zlib.error) as e:
            raise self._gzip_errors(e) from None
        if got < want:
            self._eof = True
        return got

    def __iter__(self) -> Iterator[Chunk]:
        # One buffer, filled in place: the carried partial line moves to its front, the next read fills the rest.
        # A chunk is a view of it, valid until the next chunk is asked for.
        size = self.size
        # (no larger than the text: a plain file's size, FIRST_BUFFER for gzip; grown to `size` if there is more)
        buf = bytearray(min(size, self.file_bytes + 1 if not self.compressed else FIRST_BUFFER))
        view = memoryview(buf)
        have = 0
        offset0 = 0
        while True:
            total = have + self._readinto(view[have:])
            if total == len(buf) < size and not self._eof:  # more text than the buffer holds so far
                view.release()
                grown = bytearray(size)
                grown[:total] = buf
                buf, view = grown, memoryview(grown)
                total += self._readinto(view[total:])
            eof = self._eof
            # a final \r may be the first half of a \r\n: it waits for the next read
            limit = total - 1 if (not eof and total and buf[total - 1] == 13) else total
            if buf.find(b"\r", 0, limit) >= 0:
                buf[:limit] = _LONE_CR.sub(b"\n", view[:limit])  # (same length: offsets do not move)
            if eof:
                if total:
                    yield Chunk(view[:total], offset0)
                return
            cut = buf.rfind(b"\n", 0, limit)
            if cut >= 0:
                end = cut + 1
                yield Chunk(view[:end], offset0)
                offset0 += end
                have = total - end
                buf[:have] = bytes(view[end:total])  # (a copy: the two ranges may overlap)
                continue
            # one line fills the buffer: its first bytes, then skip to its end
            yield Chunk(view[:limit], offset0, cut=True)
            skipped, carry = self._skip_line(bytes(view[limit:total]))
            offset0 += limit + skipped
            have = len(carry)
            buf[:have] = carry

    def _skip_line(self, rest: bytes) -> tuple[int, bytes]:
        """Read past the end of the current line: ``(bytes skipped, line end included; what follows)``."""
        skipped = 0
        buf = rest
        while True:
            n = buf.find(b"\n")
            r = buf.find(b"\r", 0, n if n >= 0 else len(buf))
            if r >= 0:
                if r + 1 < len(buf) or self._eof:
                    end = r + 2 if buf[r + 1:r + 2] == b"\n" else r + 1
                    return skipped + end, buf[end:]
                skipped += r  # a \r that ends the buffer: keep it until the next byte is known
                buf = buf[r:] + self._read(self.size)
                continue
            if n >= 0:
                return skipped + n + 1, buf[n + 1:]
            skipped += len(buf)
            buf = self._read(self.size)
            if not buf:
                return skipped, b""
