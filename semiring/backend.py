"""Array backend dispatch: NumPy on the host, CuPy on an NVIDIA GPU.

One small function per decision, in the manner of ``opt_einsum.backends``:
which module an array belongs to, whether CuPy is importable, and which device
an operation runs on.  CuPy is imported lazily and only if installed, so the
CPU path never pays for it.
"""

from __future__ import annotations

import functools
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import DeviceError

if TYPE_CHECKING:
    from .array_types import Array, Device, Where

__all__ = [
    "cupy_available",
    "gpu_available",
    "is_cupy_array",
    "array_module",
    "common_module",
    "resolve_device",
    "to_device",
]


@functools.lru_cache(maxsize=1)
def cupy_available() -> bool:
    """True if CuPy can be imported.

    >>> isinstance(cupy_available(), bool)
    True
    """
    try:
        import cupy  # noqa: F401
    except Exception:
        return False
    return True


@functools.lru_cache(maxsize=1)
def gpu_available() -> bool:
    """True if CuPy is importable and sees at least one CUDA device.

    >>> isinstance(gpu_available(), bool)
    True
    """
    if not cupy_available():
        return False
    import cupy

    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def is_cupy_array(x: Any) -> bool:
    """True if ``x`` is a CuPy array (without importing CuPy if it is not loaded).

    >>> is_cupy_array(np.zeros(3))
    False
    """
    if "cupy" not in sys.modules:
        return False
    import cupy

    return isinstance(x, cupy.ndarray)


def array_module(x: Any) -> ModuleType:
    """Return ``numpy`` or ``cupy``, whichever ``x`` belongs to.

    >>> array_module(np.zeros(2)).__name__
    'numpy'
    """
    if is_cupy_array(x):
        import cupy

        return cupy
    return np


def common_module(**arrays: Any) -> ModuleType:
    """The array module shared by all non-None ``arrays``; :class:`DeviceError` if they mix.

    >>> common_module(A=np.zeros(1), B=np.zeros(1)).__name__
    'numpy'
    """
    mods = {name: array_module(a) for name, a in arrays.items() if a is not None}
    names = set(m.__name__ for m in mods.values())
    if len(names) > 1:
        where = ", ".join(f"{k} on {'gpu' if v.__name__ == 'cupy' else 'cpu'}" for k, v in mods.items())
        raise DeviceError(f"operands live on different devices ({where}); move them with .get() or cupy.asarray")
    return next(iter(mods.values())) if mods else np


def resolve_device(device: Device, *arrays: Any) -> Where:
    """Turn ``"auto" | "cpu" | "gpu"`` into ``"cpu"`` or ``"gpu"``.

    ``"auto"`` means where the input lives; ``"gpu"`` without a usable GPU raises
    :class:`DeviceError`.

    >>> resolve_device("auto", np.zeros(2))
    'cpu'
    """
    if device not in ("auto", "cpu", "gpu"):
        raise DeviceError(f"device must be 'auto', 'cpu' or 'gpu', got {device!r}")
    if device == "auto":
        return "gpu" if any(is_cupy_array(a) for a in arrays) else "cpu"
    if device == "gpu" and not gpu_available():
        raise DeviceError("device='gpu' was requested but no CUDA GPU is usable (is cupy installed?)")
    return device


def to_device(x: Any, device: Where) -> Array:
    """Return ``x`` as a NumPy (``"cpu"``) or CuPy (``"gpu"``) array, copying only if needed.

    >>> to_device(np.ones(2), "cpu")
    array([1., 1.])
    """
    if device == "gpu":
        import cupy

        return cupy.asarray(x)
    if is_cupy_array(x):
        return x.get()
    return np.asarray(x)
