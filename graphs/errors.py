"""Errors raised by the graphs package; every one is a :class:`ValueError` subclass.

:class:`NegativeCycleError` is the one of :mod:`apsp` when that package provides it,
so ``except apsp.NegativeCycleError`` catches the error of :func:`graphs.sssp` too.
"""

from __future__ import annotations

__all__ = ["GraphError", "GraphFormatError", "VertexError", "NegativeCycleError"]


class GraphError(ValueError):
    """Bad input to a graph constructor or algorithm (the message names the operand)."""


class VertexError(GraphError):
    """A vertex id is outside ``[0, n)``."""


class GraphFormatError(GraphError):
    """A graph file is malformed; ``line`` is the 1-based line number (or None).

    >>> str(GraphFormatError("x.gr", 3, "expected 'a u v w'"))
    "x.gr, line 3: expected 'a u v w'"
    """

    def __init__(self, path: str, line: int | None, what: str) -> None:
        self.path, self.line, self.what = str(path), line, what
        where = f"{self.path}, line {line}" if line is not None else self.path
        super().__init__(f"{where}: {what}")


def _negative_cycle_error():
    for where in ("apsp.errors", "apsp"):
        try:
            module = __import__(where, fromlist=["NegativeCycleError"])
            return module.NegativeCycleError
        except (ImportError, AttributeError):
            continue

    class NegativeCycleError(ValueError):
        """A negative cycle is reachable; ``vertex`` lies on it."""

        def __init__(self, message: str, vertex: int | None = None) -> None:
            super().__init__(message)
            self.vertex = vertex

    return NegativeCycleError


NegativeCycleError = _negative_cycle_error()


def negative_cycle(vertex: int, what: str = "") -> Exception:
    """Build a :class:`NegativeCycleError` naming ``vertex`` (whatever its constructor takes)."""
    msg = f"negative cycle through vertex {vertex}{': ' + what if what else ''}"
    try:
        err = NegativeCycleError(msg, vertex=vertex)
    except TypeError:
        err = NegativeCycleError(msg)
    if getattr(err, "vertex", None) is None:
        try:
            err.vertex = vertex
        except AttributeError:
            pass
    return err
