"""Type aliases of the public API, for type checkers (``py.typed``).

The library's functions take and return NumPy or CuPy arrays; CuPy ships no
type stubs and may not be installed, so a CuPy array is :data:`CupyArray`
(``Any`` to a type checker).  Nothing here is needed at run time: the modules
import these names under ``typing.TYPE_CHECKING`` only.

>>> from semiring.array_types import Device
>>> Device
typing.Literal['auto', 'cpu', 'gpu']
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

__all__ = ["ArrayLike", "DTypeLike", "NDArray", "CupyArray", "Array", "ArrayInput", "Device", "Where", "IntArray"]

#: A ``cupy.ndarray`` (or a ``cupyx.scipy.sparse`` matrix): ``Any``, CuPy has no type stubs.
CupyArray: TypeAlias = Any
#: An array on either device: a NumPy array, or a CuPy array (:data:`CupyArray`).
Array: TypeAlias = NDArray[Any] | CupyArray
#: What the array arguments accept: anything :func:`numpy.asarray` reads, or a CuPy array.
ArrayInput: TypeAlias = ArrayLike | CupyArray
#: An index array (vertex ids, predecessors) on either device.
IntArray: TypeAlias = NDArray[np.integer[Any]] | CupyArray
#: The ``device=`` option: ``"auto"`` (where the input lives), ``"cpu"`` or ``"gpu"``.
Device: TypeAlias = Literal["auto", "cpu", "gpu"]
#: A device an operation runs on, once ``"auto"`` is resolved.
Where: TypeAlias = Literal["cpu", "gpu"]
