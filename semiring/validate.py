"""Input checks shared by every semiring operation.

Each check raises a :class:`~semiring.errors.SemiringError` subclass whose
message names the operand and, for bad values, the first offending entry.
Nothing is converted: a wrong dtype is an error, not a cast.

Integer arguments (sizes, counts, exponents, vertex ids) go through
:func:`as_integer`: a Python or NumPy integer is accepted, anything else
(``1.5``, ``float("inf")``, a string) is an error naming the argument, never a
truncation.  :data:`INTEGER_DOCS` holds the docstring blocks that the checks of
integer arguments share (filled in by :func:`semiring.docstrings.fill_doc`).
"""

from __future__ import annotations

import functools
import operator
from types import ModuleType
from typing import Any

import numpy as np

from .algebra import Algebra
from .backend import array_module
from .docstrings import fill_doc
from .errors import DTypeError, InvalidEntryError, ShapeError

__all__ = [
    "first_repeated_arc",
    "check_array",
    "check_matrix",
    "check_entries",
    "check_same_dtype",
    "check_out",
    "flag_bad_entries",
    "as_integer",
    "INTEGER_DOCS",
]

#: The docstring blocks of the checks of integer arguments (:func:`as_integer`, ``apsp.arguments``,
#: ``graphs.validate.check_size``): ``{name}`` documents the argument-name parameter, ``{returns_int}``
#: the result and the :class:`TypeError` of a value that is not an integer.
INTEGER_DOCS = {
    "name": """\
name : str
    The argument's name, for the messages.""",
    "returns_int": """\
Returns
-------
int

Raises
------
TypeError
    The argument is not an integer (a float, even an integral one, a string,
    ``None``, a bool, an array of more than one element...).""",
}


@fill_doc(INTEGER_DOCS)
def as_integer(name: str, value: Any, *, error: type[Exception] = TypeError,
               message: str = "{name} must be an integer, got {type} {value!r}", bools: bool = False) -> int:
    """``value`` as an ``int`` if it is a Python or NumPy integer (what :func:`operator.index` takes), else an error.

    Parameters
    ----------
    {name}
    value : Any
        The argument.
    error : type of Exception
        Raised instead of :class:`TypeError` (for a check whose errors are
        all of one class).
    message : str
        The error's message: a :meth:`str.format` template of ``name``,
        ``value`` and ``type`` (the name of ``value``'s type).
    bools : bool
        Accept ``True`` and ``False`` (as 1 and 0); by default a bool is no
        integer here.

    {returns_int}

    Examples
    --------
    >>> as_integer("block_size", np.int64(7))
    7
    >>> as_integer("i", 1.5)
    Traceback (most recent call last):
    ...
    TypeError: i must be an integer, got float 1.5
    """
    if not bools and isinstance(value, (bool, np.bool_)):
        raise error(message.format(name=name, value=value, type=type(value).__name__))
    try:
        return operator.index(value)
    except TypeError:
        raise error(message.format(name=name, value=value, type=type(value).__name__)) from None


def check_array(name: str, X: Any) -> None:
    """Reject anything that is not a NumPy or CuPy ndarray.

    >>> check_array("A", [1, 2])
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: A must be a numpy or cupy ndarray, got list
    """
    if isinstance(X, np.ndarray):
        return
    if array_module(X) is not np:
        return
    raise DTypeError(f"{name} must be a numpy or cupy ndarray, got {type(X).__name__}")


def check_matrix(name: str, X: Any, S: Algebra, entries: bool = True) -> None:
    """Check that ``X`` is a 2-D array of a dtype ``S`` supports, with valid entries.

    >>> from semiring import min_plus
    >>> check_matrix("A", np.zeros(3), min_plus)
    Traceback (most recent call last):
    ...
    semiring.errors.ShapeError: A must be 2-D, got shape (3,)
    """
    check_array(name, X)
    if X.ndim != 2:
        raise ShapeError(f"{name} must be 2-D, got shape {tuple(X.shape)}")
    S.check_dtype(name, X.dtype)
    if entries:
        check_entries(name, X, S)


def _first_index(mask: Any, xp: ModuleType) -> tuple[int, ...]:
    flat = int(xp.argmax(mask.ravel()))
    return tuple(int(i) for i in np.unravel_index(flat, mask.shape))


def check_entries(name: str, X: Any, S: Algebra) -> None:
    """Reject NaN, and infinities that the semiring cannot represent.

    >>> from semiring import min_plus
    >>> check_entries("A", np.array([[0.0, np.nan]]), min_plus)
    Traceback (most recent call last):
    ...
    semiring.errors.InvalidEntryError: A[0, 1] is NaN; semiring operations do not accept NaN
    """
    if X.size == 0:
        return
    xp = np if isinstance(X, np.ndarray) else array_module(X)
    values = S.in_dtype(X.dtype)
    forbidden = values.forbidden
    if xp is not np and X.dtype.kind in "fi" and not _gpu_any_bad(X, S):
        return  # one fused pass on the device found nothing; the passes below only locate the entry
    if xp is np and values.one_pass is not None:  # one comparison pass each (NaN fails them all)
        for test, bound in values.one_pass:
            if not (test(X) if bound is None else test(X, bound)).all():
                break
        else:
            return  # every entry valid; the passes below only locate the bad one
    if X.dtype.kind == "f":
        bad = xp.isnan(X)
        if bool(bad.any()):
            idx = _first_index(bad, xp)
            raise InvalidEntryError(f"{name}{list(idx)} is NaN; semiring operations do not accept NaN")
    for value in forbidden:
        bad = X == value
        if bool(bad.any()):
            idx = _first_index(bad, xp)
            raise InvalidEntryError(
                f"{name}{list(idx)} is {X[idx].item()!r}, which {S.name} cannot combine "
                f"(it would meet {S.zero_value(X.dtype).item()!r} in a product)"
            )
    if S.nonnegative and X.dtype.kind in "fi":
        bad = X < 0
        if bool(bad.any()):
            idx = _first_index(bad, xp)
            raise InvalidEntryError(f"{name}{list(idx)} is negative; {S.name} is defined on non-negative values")


@functools.cache
def _gpu_bad_entry_kernel(dtype: np.dtype[Any], n_forbidden: int, nonnegative: bool) -> Any:
    """A CuPy kernel that sets ``flag[0]`` if an entry is NaN, equals a forbidden value, or (``nonnegative``) is < 0.

    Elementwise with a shared flag rather than a reduction: CuPy's generic
    reduction to one value runs in a single block, far slower on large arrays.
    """
    import cupy as cp

    params = "T x" + "".join(f", T f{i}" for i in range(n_forbidden))
    tests = ["x != x"] if dtype.kind == "f" else []
    tests += [f"x == f{i}" for i in range(n_forbidden)]
    if nonnegative:
        tests.append("x < (T)0")
    expr = " || ".join(tests) or "false"
    return cp.ElementwiseKernel(params, "raw int32 flag", f"if ({expr}) flag[0] = 1;",
                                f"semiring_paths_bad_entry_{n_forbidden}_{int(nonnegative)}")


def flag_bad_entries(X: Any, S: Algebra, flag: Any) -> None:
    """Set ``flag[0] = 1`` (a CuPy int32 array) if :func:`check_entries` would reject ``X``; no read-back.

    For checks that travel with a computation on the GPU: the caller reads the
    flag once at the end and then calls :func:`check_entries` to name the entry.

    >>> import numpy as np
    >>> from semiring import min_plus
    >>> flag_bad_entries(np.zeros(2), min_plus, np.zeros(1, np.int32))
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: flag_bad_entries takes CuPy arrays, got ndarray
    """
    if array_module(X) is np:
        raise DTypeError(f"flag_bad_entries takes CuPy arrays, got {type(X).__name__}")
    forbidden = S.forbidden_values(X.dtype)
    if X.size == 0 or X.dtype.kind not in "fi" or (X.dtype.kind == "i" and not S.nonnegative):
        return
    k = _gpu_bad_entry_kernel(np.dtype(X.dtype), len(forbidden), bool(S.nonnegative))
    k(X, *(X.dtype.type(v) for v in forbidden), flag)


def _gpu_any_bad(X: Any, S: Algebra) -> bool:
    """Whether a CuPy array holds an entry that :func:`check_entries` rejects (one pass, one read-back)."""
    import cupy as cp

    flag = cp.zeros(1, dtype=cp.int32)
    flag_bad_entries(X, S, flag)
    return bool(int(flag[0]))


def check_same_dtype(**arrays: Any) -> np.dtype:
    """Return the dtype shared by all non-None ``arrays``; :class:`DTypeError` if they differ.

    >>> check_same_dtype(A=np.zeros(1, np.float32), B=np.zeros(1, np.float64))
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: operands must share one dtype (no silent casting): A is float32, B is float64
    """
    dts = {k: np.dtype(v.dtype) for k, v in arrays.items() if v is not None}
    if len(set(dts.values())) > 1:
        desc = ", ".join(f"{k} is {v}" for k, v in dts.items())
        raise DTypeError(f"operands must share one dtype (no silent casting): {desc}")
    return next(iter(dts.values()))


def check_out(out: Any, shape: tuple[int, ...], dtype: np.dtype, name: str = "out") -> None:
    """Check that a caller-provided output has the right shape and dtype.

    >>> check_out(np.zeros((2, 2)), (2, 3), np.dtype("float64"))
    Traceback (most recent call last):
    ...
    semiring.errors.ShapeError: out has shape (2, 2), expected (2, 3)
    """
    check_array(name, out)
    if tuple(out.shape) != tuple(shape):
        raise ShapeError(f"{name} has shape {tuple(out.shape)}, expected {tuple(shape)}")
    if np.dtype(out.dtype) != np.dtype(dtype):
        raise DTypeError(f"{name} has dtype {out.dtype}, expected {np.dtype(dtype)}")


def first_repeated_arc(us: np.ndarray, vs: np.ndarray, n: int) -> tuple[int, int] | None:
    """The positions ``(a, b)``, ``a < b``, of the first arc given twice in a batch ``us[k] -> vs[k]``; ``None`` if none.

    A batch of arc updates names each arc once: what a repeated arc should
    become is ambiguous, so the doors that take batches refuse it with both
    positions.

    >>> first_repeated_arc(np.array([0, 1, 0]), np.array([2, 2, 2]), 3)
    (0, 2)
    >>> first_repeated_arc(np.array([0, 1]), np.array([2, 2]), 3) is None
    True
    """
    flat = us.astype(np.int64) * n + vs
    order = np.argsort(flat, kind="stable")
    twice = np.flatnonzero(flat[order][1:] == flat[order][:-1])
    if not twice.size:
        return None
    a, b = sorted((int(order[twice[0]]), int(order[twice[0] + 1])))
    return a, b
