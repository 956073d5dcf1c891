"""Errors raised by the APSP package.

:class:`NegativeCycleError` is a :class:`~semiring.errors.SemiringError` and so a
:class:`ValueError`: a matrix with a negative cycle is bad input to a
shortest-path problem, like a NaN entry.  :class:`VertexError` (a vertex id
out of range) and :class:`PredecessorError` (an array that is not a
predecessor array) are too.
"""

from __future__ import annotations

from typing import Any

from semiring.errors import SemiringError

__all__ = ["NegativeCycleError", "VertexError", "PredecessorError"]


class NegativeCycleError(SemiringError):
    """The closure does not exist: a cycle improves without bound.

    For ``min_plus`` this is a cycle of negative total weight; for
    ``max_plus`` one of positive weight; for ``max_times`` one whose product
    exceeds 1.  In every case the diagonal of the closure would be better than
    the semiring ``one``, so shortest (longest, most reliable) paths through the
    cycle are undefined.

    Attributes
    ----------
    vertex : int
        A vertex that lies on such a cycle.
    cycle : list of int
        The vertices of one such cycle, in order (``cycle[0] == vertex``), when
        it was found; ``[vertex]`` for a self loop.
    weight : object
        The cycle's weight in the semiring (its product along the cycle), or
        ``None`` when it was not computed.

    Examples
    --------
    >>> err = NegativeCycleError(3, [3, 5], -2.0)
    >>> err.vertex, err.cycle
    (3, [3, 5])
    >>> isinstance(err, ValueError)
    True
    """

    def __init__(
        self, vertex: int, cycle: list[int] | None = None, weight: Any = None, message: str | None = None
    ) -> None:
        self.vertex = int(vertex)
        self.cycle = [int(v) for v in cycle] if cycle else [self.vertex]
        self.weight = weight
        if message is None:
            shown = " -> ".join(str(v) for v in self.cycle[:12]) + (" -> ..." if len(self.cycle) > 12 else "")
            message = f"negative cycle through vertex {self.vertex} ({shown} -> {self.vertex}"
            message += f", weight {weight!r})" if weight is not None else ")"
        super().__init__(message)

    def __reduce__(self) -> tuple[type[NegativeCycleError], tuple[int, list[int], Any, str]]:
        # picklable (an error raised on a Dask worker or in a subprocess reaches the caller whole)
        return (type(self), (self.vertex, self.cycle, self.weight, str(self)))


class VertexError(SemiringError, IndexError):
    """A vertex argument is not in ``[0, n)``; the message names the argument.

    Also an :class:`IndexError`, which :func:`apsp.path` raised for it before.

    >>> isinstance(VertexError("t = 9 is not a vertex"), (ValueError, IndexError))
    True
    """


class PredecessorError(SemiringError):
    """An array is not a predecessor array: wrong shape or dtype, or a row that loops or leaves the graph.

    >>> isinstance(PredecessorError("pred[3] = 7"), ValueError)
    True
    """
