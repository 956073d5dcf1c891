"""Errors raised by the graphs package; every one is a :class:`ValueError` subclass.

:class:`VertexError` is the graph-level :class:`apsp.errors.VertexError`
(a subclass of it), so one ``except`` catches a bad vertex at either layer.

:class:`VertexTypeError` (a vertex argument of the wrong type) is also a
:class:`TypeError`, as Python's convention asks, and still a :class:`VertexError`.

:class:`NegativeCycleError` is the one of :mod:`apsp` (re-exported), so
``except apsp.NegativeCycleError`` catches the error of :func:`graphs.sssp` too.
"""

from __future__ import annotations

from typing import Any

from apsp.errors import NegativeCycleError
from apsp.errors import VertexError as _MatrixVertexError

__all__ = ["GraphError", "GraphFormatError", "VertexError", "VertexTypeError", "CapacityError", "NegativeCycleError"]


class GraphError(ValueError):
    """Bad input to a graph constructor or algorithm (the message names the operand)."""


class VertexError(GraphError, _MatrixVertexError):
    """A vertex argument is no vertex: an id outside ``[0, n)`` (ids are 0-based) or an unknown label.

    The graph-level case of :class:`apsp.errors.VertexError` (one family:
    ``except apsp.errors.VertexError`` catches both), so also an
    :class:`IndexError`.

    >>> import apsp.errors
    >>> issubclass(VertexError, (GraphError, apsp.errors.VertexError, IndexError))
    True
    """


class VertexTypeError(VertexError, TypeError):
    """A vertex argument of a type that is no vertex id (a float, a bool, a string on an unlabelled graph).

    >>> issubclass(VertexTypeError, TypeError), issubclass(VertexTypeError, ValueError)
    (True, True)
    """


class CapacityError(GraphError):
    """A flow capacity is negative, NaN or infinite, or integer capacities overflow int64."""


class GraphFormatError(GraphError):
    """A graph file is malformed; ``line`` is the 1-based line number (or None).

    ``offset`` is the 0-based byte offset of the offending token (or of the
    line's start) in the file's text -- decompressed, for a ``.gz`` file -- or
    None.  Lines end with ``\\n``, ``\\r\\n`` or ``\\r`` (:mod:`graphs.io`).

    >>> str(GraphFormatError("x.gr", 3, "expected 'a u v w'"))
    "x.gr, line 3: expected 'a u v w'"
    >>> e = GraphFormatError("x.gr", 3, "'x' is not a number", offset=17)
    >>> str(e), e.offset
    ("x.gr, line 3 (byte offset 17): 'x' is not a number", 17)
    """

    def __init__(self, path: str, line: int | None, what: str, offset: int | None = None) -> None:
        self.path, self.line, self.what, self.offset = str(path), line, what, offset
        where = f"{self.path}, line {line}" if line is not None else self.path
        if offset is not None:
            where += f" (byte offset {offset})"
        super().__init__(f"{where}: {what}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # picklable (an error raised in a worker process reaches the caller whole)
        return (type(self), (self.path, self.line, self.what, self.offset))


def negative_cycle(vertex: int, cycle: list[int] | None = None, weight: Any = None) -> Exception:
    """A :class:`NegativeCycleError` for ``vertex`` (and the ``cycle`` through it, in arc order).

    >>> negative_cycle(2, [2, 5], -1.0).cycle
    [2, 5]
    """
    return NegativeCycleError(int(vertex), cycle, weight)
