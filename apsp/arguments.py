"""Checks of the scalar arguments of the public functions: integer counts and vertex ids.

One rule for every integer parameter of :mod:`apsp` (``block_size``,
``memory_budget``, the vertices of :func:`apsp.path`...): a Python or NumPy
integer is accepted (anything :func:`operator.index` takes, except ``bool``),
anything else is a :class:`TypeError` naming the argument, so ``1.5`` is never
truncated to ``1`` and ``float("inf")`` never overflows somewhere inside.  A
value outside the allowed range is a :class:`ValueError` subclass naming the
argument: :class:`~apsp.errors.VertexError` for vertices,
:class:`~semiring.errors.SemiringError` for counts.
"""

from __future__ import annotations

import operator
from typing import Any

from semiring.errors import SemiringError

from .errors import VertexError

__all__ = ["as_integer", "as_count", "as_vertex"]


def as_integer(name: str, value: Any) -> int:
    """``value`` as an ``int`` if it is a Python or NumPy integer, else :class:`TypeError` naming ``name``.

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : Any
        The argument.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``value`` is not an integer (a float, even an integral one, a string,
        ``None``, a bool, an array of more than one element...).

    Examples
    --------
    >>> import numpy as np
    >>> as_integer("block_size", np.int64(7))
    7
    >>> as_integer("i", 1.5)
    Traceback (most recent call last):
    ...
    TypeError: i must be an integer, got float 1.5
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got bool {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}") from None


def as_count(name: str, value: Any, minimum: int = 1) -> int:
    """``value`` as an ``int`` of at least ``minimum`` (a size, a budget in bytes).

    Parameters
    ----------
    name : str
        The argument's name, for the messages.
    value : Any
        The argument.
    minimum : int
        The smallest value allowed.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``value`` is not an integer.
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


def as_vertex(name: str, value: Any, n: int) -> int:
    """``value`` as a vertex id in ``[0, n)``.

    Parameters
    ----------
    name : str
        The argument's name, for the messages.
    value : Any
        The argument (a Python or NumPy integer).
    n : int
        The number of vertices.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``value`` is not an integer.
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
