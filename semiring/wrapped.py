"""``S.array(A)``: a thin wrapper that makes NumPy operators speak a semiring.

=================  =========================================
expression         meaning
=================  =========================================
``X @ Y``          semiring matrix product
``X + Y``          elementwise semiring add
``X * Y``          elementwise semiring mul
``X ** k``         k-th semiring power (square matrices)
``X.star()``       closure ``I (+) X (+) X^2 (+) ...``
``X.T``            transpose (a view)
``X.data``         the plain NumPy / CuPy array
=================  =========================================

Operands may be wrapped arrays of the *same* semiring or plain arrays;
mixing two semirings raises :class:`~semiring.errors.SemiringError`.

The wrapper calls the methods of :class:`semiring.Semiring` (which creates it
in :meth:`~semiring.Semiring.array`); it names them in the protocol
:class:`Operations` rather than importing :mod:`semiring.core`, which imports
this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .errors import SemiringError
from .validate import check_array

if TYPE_CHECKING:
    from .array_types import Array, DTypeLike, NDArray


class Operations(Protocol):
    """The methods of :class:`semiring.Semiring` the wrapper calls (a semiring's value plus its operations)."""

    @property
    def name(self) -> str: ...

    def check_dtype(self, name: str, dtype: DTypeLike) -> np.dtype[Any]: ...

    def matmul(self, A: Array, B: Array) -> Array: ...

    def add(self, A: Array, B: Array) -> Array: ...

    def mul(self, A: Array, B: Array) -> Array: ...

    def power(self, A: Array, k: int) -> Array: ...

    def closure(self, A: Array, **kwargs: Any) -> Any: ...

__all__ = ["SemiringArray", "Operations"]


class SemiringArray:
    """An array paired with a semiring; see the module docstring.

    >>> import numpy as np
    >>> from semiring import min_plus
    >>> X = min_plus.array(np.array([[0.0, 5.0], [np.inf, 0.0]]))
    >>> (X + X.T).data
    array([[0., 5.],
           [5., 0.]])
    >>> X.star().data
    array([[ 0.,  5.],
           [inf,  0.]])
    """

    __slots__ = ("_data", "_semiring")
    __array_priority__ = 100  # NumPy defers binary operators to us

    def __init__(self, data: Any, semiring: Operations) -> None:
        check_array("data", data)
        semiring.check_dtype("data", data.dtype)
        self._data = data
        self._semiring = semiring

    @property
    def data(self) -> Array:
        """The wrapped plain array."""
        return self._data

    @property
    def semiring(self) -> Operations:
        """The semiring the operators use."""
        return self._semiring

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._data.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._data.dtype

    @property
    def T(self) -> "SemiringArray":
        return SemiringArray(self._data.T, self._semiring)

    def _unwrap(self, other: Any) -> Any:
        if isinstance(other, SemiringArray):
            if other._semiring != self._semiring:
                raise SemiringError(
                    f"cannot combine a {self._semiring.name} array with a {other._semiring.name} array"
                )
            return other._data
        return other

    def _wrap(self, data: Array) -> "SemiringArray":
        return SemiringArray(data, self._semiring)

    def __matmul__(self, other: Any) -> "SemiringArray":
        return self._wrap(self._semiring.matmul(self._data, self._unwrap(other)))

    def __rmatmul__(self, other: Any) -> "SemiringArray":
        return self._wrap(self._semiring.matmul(self._unwrap(other), self._data))

    def __add__(self, other: Any) -> "SemiringArray":
        return self._wrap(self._semiring.add(self._data, self._unwrap(other)))

    __radd__ = __add__  # add is commutative

    def __mul__(self, other: Any) -> "SemiringArray":
        return self._wrap(self._semiring.mul(self._data, self._unwrap(other)))

    def __rmul__(self, other: Any) -> "SemiringArray":
        return self._wrap(self._semiring.mul(self._unwrap(other), self._data))

    def __pow__(self, k: int) -> "SemiringArray":
        return self._wrap(self._semiring.power(self._data, k))

    def star(self, **kwargs: Any) -> "SemiringArray":
        """The closure ``X*`` (:meth:`Semiring.closure`); keyword arguments go to the closure provider, :func:`apsp.closure`."""
        return self._wrap(self._semiring.closure(self._data, **kwargs))

    def __eq__(self, other: Any) -> Any:  # elementwise, like the arrays it wraps
        return self._data == self._unwrap(other)

    __hash__ = None  # type: ignore[assignment]  # mutable container, like ndarray

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> NDArray[Any]:
        if dtype is not None and np.dtype(dtype) != self._data.dtype:
            raise SemiringError(f"refusing to cast a {self._data.dtype} semiring array to {np.dtype(dtype)}")
        data = self._data.get() if hasattr(self._data, "get") and not isinstance(self._data, np.ndarray) else self._data
        return np.array(data, copy=True) if copy else np.asarray(data)

    def __repr__(self) -> str:
        return f"{self._semiring.name}.array(\n{self._data!r})"
