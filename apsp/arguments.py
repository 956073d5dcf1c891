"""Checks of the scalar arguments of the public functions: integer counts and vertex ids.

One rule for every integer parameter of :mod:`apsp` (``block_size``,
``memory_budget``, the vertices of :func:`apsp.path`...): a Python or NumPy
integer is accepted (anything :func:`operator.index` takes, except ``bool``),
anything else is a :class:`TypeError` naming the argument, so ``1.5`` is never
truncated to ``1`` and ``float("inf")`` never overflows somewhere inside.  A
value outside the allowed range is a :class:`ValueError` subclass naming the
argument: :class:`~apsp.errors.VertexError` for vertices,
:class:`~semiring.errors.SemiringError` for counts.  :func:`as_integer` is
:func:`semiring.validate.as_integer` (the integer check of the lower layer).
"""

from __future__ import annotations

from typing import Any

from semiring.docstrings import fill_doc
from semiring.errors import SemiringError
from semiring.validate import INTEGER_DOCS, as_integer

from .errors import VertexError

__all__ = ["as_integer", "as_count", "as_vertex"]


@fill_doc(INTEGER_DOCS)
def as_count(name: str, value: Any, minimum: int = 1) -> int:
    """``value`` as an ``int`` of at least ``minimum`` (a size, a budget in bytes).

    Parameters
    ----------
    {name}
    value : Any
        The argument.
    minimum : int
        The smallest value allowed.

    {returns_int}
    SemiringError
        ``value < minimum`` (a :class:`ValueError`).

    Examples
    --------
    >>> as_count("block_size", 64)
    64
    >>> as_count("block_size", 0)
    Traceback (most recent call last):
    ...
    semiring.errors.SemiringError: block_size must be at least 1, got 0
    """
    v = as_integer(name, value)
    if v < minimum:
        raise SemiringError(f"{name} must be at least {minimum}, got {v}")
    return v


@fill_doc(INTEGER_DOCS)
def as_vertex(name: str, value: Any, n: int) -> int:
    """``value`` as a vertex id in ``[0, n)``.

    Parameters
    ----------
    {name}
    value : Any
        The argument (a Python or NumPy integer).
    n : int
        The number of vertices.

    {returns_int}
    VertexError
        ``value`` is not in ``[0, n)`` (a :class:`ValueError` and an :class:`IndexError`).

    Examples
    --------
    >>> as_vertex("t", 2, 3)
    2
    >>> as_vertex("t", 3, 3)
    Traceback (most recent call last):
    ...
    apsp.errors.VertexError: t = 3 is not a vertex of a graph with n = 3 (ids are 0 .. 2)
    """
    v = as_integer(name, value)
    if not 0 <= v < n:
        ids = f"ids are 0 .. {n - 1}" if n else "it has no vertices"
        raise VertexError(f"{name} = {v} is not a vertex of a graph with n = {n} ({ids})")
    return v
