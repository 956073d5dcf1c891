"""Errors raised by the semiring package.

Every error is a :class:`ValueError` subclass, so ``except ValueError`` keeps
working for callers that do not care about the detail, and every message names
the offending operand (``A``, ``B``, ``out``...) and, where there is one, the
offending entry.
"""

from __future__ import annotations

__all__ = [
    "SemiringError",
    "ShapeError",
    "DTypeError",
    "InvalidEntryError",
    "UnsupportedOperationError",
    "DeviceError",
    "SubscriptError",
]


class SemiringError(ValueError):
    """Base class of every error raised for bad input to a semiring operation."""


class ShapeError(SemiringError):
    """An operand is not 2-D, or the shapes of the operands do not align."""


class DTypeError(SemiringError):
    """An operand's dtype is not supported by the semiring, or dtypes differ."""


class InvalidEntryError(SemiringError):
    """An operand holds an entry the semiring cannot represent (NaN, a wrong infinity...)."""


class UnsupportedOperationError(SemiringError):
    """The operation is not defined for this semiring (e.g. ``witness`` for ``plus_times``)."""


class DeviceError(SemiringError):
    """Operands live on different devices, or the requested device is unavailable."""


class SubscriptError(SemiringError):
    """An einsum subscript string is malformed or does not fit its operands (:func:`semiring.einsum`)."""
