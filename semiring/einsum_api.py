"""``semiring.einsum``: Einstein summation over any semiring, planned by opt_einsum.

The function here only supplies the default semiring (:data:`semiring.min_plus`)
and looks names up (``semiring="max_plus"``); the engine is
:mod:`semiring.dense.einsum_engine`, also behind :meth:`semiring.Semiring.einsum`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .builtin import get, min_plus
from .core import Semiring
from .dense.einsum_engine import einsum as _einsum

if TYPE_CHECKING:
    from .array_types import Array

__all__ = ["einsum"]


def einsum(subscripts: str, *operands: Array, semiring: Semiring | str = min_plus, optimize: Any = "greedy") -> Array:
    """Einstein summation ``subscripts`` of ``operands`` over ``semiring``.

    Every index that is not in the output is summed with the semiring's ``add``
    over the semiring ``mul`` of the operands' entries: over ``min_plus``,
    ``"ij,jk->ik"`` is the min-plus matrix product and ``"ij,jk,kl->il"`` the
    shortest walks of three hops, one through each matrix.  The contraction order comes from
    :func:`opt_einsum.contract_path` (shapes only); each pairwise contraction
    is a (batched) semiring GEMM on the library's kernels; see
    :mod:`semiring.dense.einsum_engine` for the method and
    :meth:`Semiring.einsum <semiring.core.Semiring.einsum>` for the same as a method.

    Parameters
    ----------
    subscripts : str
        NumPy einsum subscripts: ``"ij,jk,kl->il"`` (chain), ``"bij,bjk->bik"``
        (batch), ``"ii->i"`` (diagonal), ``"ij->i"`` (reduction), ``"i,j->ij"``
        (outer), ``"ij,jk"`` (implicit output: the indices that appear once,
        sorted), ``"...ij,...jk->...ik"`` (broadcast dimensions).
    *operands : numpy.ndarray or cupy.ndarray
        Arrays of one dtype that the semiring accepts, on one device.
    semiring : Semiring or str
        The semiring (default :data:`semiring.min_plus`), or a built-in name.
    optimize : str, list, bool or opt_einsum.paths.PathOptimizer
        The order of the pairwise contractions: ``"greedy"`` (default),
        ``"optimal"``, ``"dp"``, ``"auto"`` (also ``True``) or another opt_einsum
        optimiser name, an optimiser object (``opt_einsum.DynamicProgramming(...)``,
        ``opt_einsum.RandomGreedy(...)``...), an explicit path such as
        ``[(1, 2), (0, 1)]``, or ``False`` (left to right).  A name asks for a
        search strategy: when that search finds no path (opt_einsum's dynamic
        programming gives up on some shapes), the greedy path is used, then left
        to right; an optimiser object that fails or returns an invalid path is
        an error.  Over ``min``/``max``/``or`` semirings and integer-valued
        arithmetic that stays in range, every order gives the same result; float
        ``plus_times`` rounds (and overflows) in the order of the plan, as
        :func:`numpy.einsum` does.

    Returns
    -------
    array
        The operands' dtype and array kind (NumPy or CuPy arrays in, the same out;
        CuPy operands run on the GPU kernels); 0-d when the output has no index; a
        view of the operand for a lone transpose or diagonal.  An index of size 0
        that is summed gives the semiring zero.  The operands are checked once;
        intermediate results are not: float overflow gives ``inf`` (or ``NaN`` in
        ``plus_times`` where it meets ``-inf`` or ``0``) without a warning, as
        with :func:`numpy.einsum`, and integers saturate at the dtype's
        sentinels, never wrap.

    Raises
    ------
    SubscriptError, ShapeError, DTypeError, InvalidEntryError, DeviceError
        Bad subscripts or ``optimize`` (an unknown name, an invalid path, an
        optimiser object that finds none), mismatched sizes (naming the operand
        and the index), dtypes or entries the semiring rejects, mixed devices.
    TypeError
        ``subscripts`` is not a str, an operand is not an array, or ``optimize``
        is none of the kinds above.

    Examples
    --------
    A three-matrix min-plus chain is the two products in a row:

    >>> import numpy as np
    >>> import semiring as sr
    >>> A = np.array([[0.0, 1.0], [np.inf, 0.0]])
    >>> B = np.array([[2.0, np.inf], [0.0, 5.0]])
    >>> C = np.array([[1.0, 0.0], [3.0, np.inf]])
    >>> sr.einsum("ij,jk,kl->il", A, B, C)
    array([[2., 1.],
           [1., 0.]])
    >>> sr.min_plus.matmul(sr.min_plus.matmul(A, B), C)
    array([[2., 1.],
           [1., 0.]])

    Widest paths of a batch of graphs, and a Boolean reduction:

    >>> sr.einsum("bij,bjk->bik", np.stack([A, B]), np.stack([B, C]), semiring="max_min").shape
    (2, 2, 2)
    >>> sr.einsum("ij->i", np.array([[True, False], [False, False]]), semiring=sr.lor_land)
    array([ True, False])

    Float overflow inside the contraction is IEEE arithmetic, as in NumPy:

    >>> big = np.full((2, 3), 3e38, np.float32)
    >>> sr.einsum("a,eb->a", np.ones(2, np.float32), big, semiring="plus_times")
    array([inf, inf], dtype=float32)
    >>> np.einsum("a,eb->a", np.ones(2, np.float32), big)
    array([inf, inf], dtype=float32)
    """
    S = get(semiring)
    return _einsum(S, subscripts, *operands, optimize=optimize)
