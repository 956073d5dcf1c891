"""Edge attribute values of NetworkX edge data, as NumPy arrays aligned with the arcs.

NetworkX reads a missing attribute as a default (1 for weights, ``inf`` for
flow capacities) and a multigraph's parallel edges as their minimum (its
shortest-path functions' ``_weight_function``).  Integers stay integers
(int64) so that results come back as Python ``int`` where NetworkX's do;
anything else numeric is float64.  Non-numeric values are refused with
``NotImplementedError``, which lets NetworkX fall back to its own code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["arc_values", "as_value_array", "to_python"]


def as_value_array(values: list) -> np.ndarray:
    """A list of edge values as int64 (integers, booleans) or float64 (other numbers).

    Raises
    ------
    NotImplementedError
        A value is not a number, or an integer does not fit int64.

    Examples
    --------
    >>> as_value_array([1, 2]).dtype, as_value_array([1, 2.5]).dtype, as_value_array([]).dtype
    (dtype('int64'), dtype('float64'), dtype('int64'))
    """
    if not values:
        return np.zeros(0, np.int64)
    try:
        arr = np.asarray(values)
    except (OverflowError, ValueError) as exc:
        raise NotImplementedError(f"edge values that NumPy cannot hold: {exc}") from exc
    kind = arr.dtype.kind
    if kind in "bi" or (kind == "u" and (arr.size == 0 or arr.max() <= np.iinfo(np.int64).max)):
        return arr.astype(np.int64)
    if kind == "f":
        return arr.astype(np.float64)
    raise NotImplementedError(f"edge values of dtype {arr.dtype} (not numbers, or integers beyond int64)")


def arc_values(edge_data: list, attr: Any, default: Any, multigraph: bool) -> np.ndarray:
    """The value of ``attr`` on every arc (``default`` where missing; minimum over parallel edges).

    Parameters
    ----------
    edge_data : list
        Per arc the edge data dict, or for a multigraph the dict ``key -> data``.
    attr : hashable
        The attribute name.
    default : number
        The value of an edge without ``attr``.
    multigraph : bool

    Examples
    --------
    >>> arc_values([{"w": 2}, {}], "w", 1, False)
    array([2, 1])
    >>> arc_values([{0: {"w": 3.0}, 1: {"w": 0.5}}], "w", 1, True)
    array([0.5])

    Integers with an infinite default stay integers; ``+inf`` is the int64
    sentinel ``iinfo.max`` (as everywhere in the library):

    >>> arc_values([{"c": 2}, {}], "c", float("inf"), False)
    array([                  2, 9223372036854775807])
    """
    if multigraph:
        vals = [min(d.get(attr, default) for d in kd.values()) for kd in edge_data]
    else:
        vals = [d.get(attr, default) for d in edge_data]
    arr = as_value_array(vals)
    if arr.dtype.kind == "f" and (arr == np.inf).any():
        # Integers with infinite defaults (capacities): keep them integers, +inf as the int64 sentinel.
        finite = [v for v in vals if v != np.inf]
        if all(isinstance(v, int | np.integer) for v in finite):
            out = np.full(arr.size, np.iinfo(np.int64).max, np.int64)
            out[arr < np.inf] = as_value_array(finite)
            return out
    return arr


def to_python(arr: np.ndarray) -> list:
    """Array entries as Python numbers (``int`` for integer arrays), never NumPy scalars.

    Examples
    --------
    >>> to_python(np.array([1, 2])), to_python(np.array([0.5]))
    ([1, 2], [0.5])
    """
    return np.asarray(arr).tolist()
