"""Write a file atomically: the target appears complete, or not at all (the previous one left as it was).

The content is written to a temporary file in the target's folder (a unique
name, ``.NAME.<16 hex digits>.tmp``, created with ``O_EXCL`` as
:func:`tempfile.mkstemp` does, but named before it exists, so that an
interrupt arriving at any moment -- even as the file is being created --
leaves nothing behind), flushed and ``fsync``-ed, and renamed onto the
target (:func:`os.replace`, atomic on POSIX and Windows) only when the
writing finished; the folder is ``fsync``-ed after the rename where the
system allows it, so that the new name survives a crash too.  On any
exception, :class:`KeyboardInterrupt` included, the temporary file is removed
and the exception propagates: an interrupted ``semiring-paths apsp --out D.npy``
leaves no ``D.npy`` that :func:`numpy.load` would open as a valid, partly
computed matrix.

* :func:`atomic_path` gives the temporary path, for a writer that opens files
  by name;
* :func:`atomic_open` gives an open binary file (what :func:`graphs.write`
  writes, through :mod:`gzip` for a ``.gz`` target);
* :func:`atomic_memmap` gives a ``.npy`` memory map
  (:func:`numpy.lib.format.open_memmap`), for results larger than memory.

The new file gets the permissions a plain ``open(target, "w")`` would give:
the previous target's, or ``0o666`` less the umask.  A symbolic link at the
target is replaced by the file (the link's own target is left alone).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np

from semiring.docstrings import fill_template

__all__ = ["atomic_path", "atomic_open", "atomic_memmap"]

#: The ``target`` parameter of the three writers' docstrings.
_TARGET = """target : str or PathLike
    The file to write; its folder must exist.
"""


def _mode_for(target: Path) -> int:
    """The permission bits a fresh ``open(target, "w")`` would give (the existing file's, if any)."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where a folder can be opened and synced; not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse to sync a folder: the rename itself is still atomic
        pass
    finally:
        os.close(fd)


def _temporary(target: Path, made: list[Path]) -> int:
    """Create a new, empty temporary file beside ``target``; its descriptor (read-write).

    Its path is appended to ``made`` *before* the file is created, so that the
    caller's cleanup knows it whenever an exception arrives.
    """
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        made.append(target.parent / f".{target.name}.{secrets.token_hex(8)}.tmp")
        try:
            return os.open(made[-1], flags, 0o600)
        except FileExistsError:  # (another file has that name: try another)
            made.pop()


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _commit(tmp: Path, target: Path) -> None:
    """Give ``tmp`` the target's permissions, then rename it onto ``target`` and sync the folder."""
    os.chmod(tmp, _mode_for(target))
    os.replace(tmp, target)
    _fsync_folder(target.parent)


def _discard(made: list[Path]) -> None:
    for tmp in made:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


@contextlib.contextmanager
@fill_template(target=_TARGET)
def atomic_path(target: str | os.PathLike) -> Iterator[Path]:
    """A temporary path to write ``target``'s content to; renamed onto ``target`` when the block succeeds.

    The block must write the file at the given path and close it; it is then
    ``fsync``-ed and renamed.  On an exception the temporary file is removed
    and ``target`` is untouched.

    Parameters
    ----------
    {target}

    Yields
    ------
    pathlib.Path
        The temporary file (created empty, in ``target``'s folder).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
    >>> with atomic_path(target) as tmp:
    ...     _ = tmp.write_text("complete")
    >>> target.read_text()
    'complete'
    """
    target = Path(target)
    made: list[Path] = []
    try:
        os.close(_temporary(target, made))
        yield made[-1]
        _sync(made[-1])
        _commit(made[-1], target)
    except BaseException:
        _discard(made)
        raise


@contextlib.contextmanager
@fill_template(target=_TARGET)
def atomic_open(target: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file open for writing ``target``'s content; flushed, synced and renamed when the block succeeds.

    Parameters
    ----------
    {target}

    Yields
    ------
    file object
        Open for writing bytes, on a temporary file in ``target``'s folder.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "g.txt"
    >>> _ = target.write_bytes(b"old")
    >>> with atomic_open(target) as f:
    ...     _ = f.write(b"new ")
    ...     raise RuntimeError("failed half way")  # (KeyboardInterrupt too): nothing changes
    Traceback (most recent call last):
    ...
    RuntimeError: failed half way
    >>> target.read_bytes(), sorted(p.name for p in target.parent.iterdir())
    (b'old', ['g.txt'])
    >>> with atomic_open(target) as f:
    ...     _ = f.write(b"new content")
    >>> target.read_bytes()
    b'new content'
    """
    with atomic_path(target) as tmp, open(tmp, "wb") as f:
        yield f
        f.flush()


@contextlib.contextmanager
@fill_template(target=_TARGET)
def atomic_memmap(target: str | os.PathLike, dtype, shape: tuple[int, ...]) -> Iterator[np.memmap]:
    """A ``.npy`` memory map of ``dtype`` and ``shape``, saved as ``target`` when the block succeeds.

    :func:`numpy.lib.format.open_memmap` on a temporary file beside ``target``;
    at the end of the block the map is flushed, the file synced and renamed.
    The array stays usable after the block (it maps the renamed file).

    Parameters
    ----------
    {target}
    dtype : dtype
    shape : tuple of int

    Yields
    ------
    numpy.memmap

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "D.npy"
    >>> with atomic_memmap(target, np.float32, (2, 2)) as D:
    ...     D[...] = [[0, 1], [2, 0]]
    >>> np.load(target).tolist()
    [[0.0, 1.0], [2.0, 0.0]]
    """
    with atomic_path(target) as tmp:
        D = np.lib.format.open_memmap(tmp, mode="w+", dtype=dtype, shape=shape)
        yield D
        D.flush()
