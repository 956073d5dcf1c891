"""The :class:`Semiring` type.

A semiring ``(S, (+), (x), 0, 1)`` has an associative, commutative ``add`` with
identity ``zero``, an associative ``mul`` with identity ``one`` that distributes
over ``add``, and ``zero`` annihilates in ``mul``.  Path problems are matrix
problems over such a semiring: ``min_plus`` gives shortest paths, ``lor_land``
reachability, ``max_min`` widest paths, and so on (Aho, Hopcroft & Ullman 1974,
Sec. 5.6; the GraphBLAS C API, Sec. 2.3, for the naming).

A :class:`Semiring` is immutable and hashable.  It carries NumPy ufuncs for the
generic path, the abstract ``zero`` / ``one`` (``math.inf``, ``0``...) turned into
dtype values by :meth:`Semiring.zero_value`, and a ``family`` key that selects the
fast Numba and CUDA kernels of the built-in semirings.  Custom semirings are made
by calling the constructor with a pair of ufuncs; they run on the generic
(NumPy broadcast) path unless Numba scalar functions are given too.

:class:`Semiring` is a facade: what a semiring *is* (name, identities, dtypes,
forbidden values, the capabilities of its family) is the value type
:class:`semiring.algebra.Algebra`, which the kernel modules take; this class
adds the operations, each a call into the module that implements it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from . import dense, sparse
from .algebra import Algebra
from .backend import is_cupy_array
from .closure_hook import closure_provider
from .dense.einsum_engine import einsum as _einsum
from .validate import check_array
from .wrapped import SemiringArray

if TYPE_CHECKING:
    from .array_types import Array, Device, DTypeLike

__all__ = ["Semiring"]


@dataclass(frozen=True, eq=False, repr=False)
class Semiring(Algebra):
    """An immutable semiring with fast matrix operations.

    Parameters
    ----------
    name : str
        Name in python-graphblas style, e.g. ``"min_plus"``.
    add, mul : numpy.ufunc
        Binary ufuncs for the generic path; ``add`` must support ``reduce``.
    zero, one : float or bool
        Abstract identities: ``math.inf`` / ``-math.inf`` become the dtype's
        infinity (a saturating sentinel for integers, see :mod:`semiring.dtypes`).
    idempotent : bool
        ``a (+) a == a`` (needed for closures and shortest-path algorithms).
    selective : bool
        ``a (+) b`` is always ``a`` or ``b`` (min, max, or); needed for ``witness``.
    dtypes : tuple of numpy.dtype
        The dtypes this semiring accepts; anything else raises :class:`DTypeError`.
        Bool, integer or float dtypes (a complex, object, string, date or
        structured dtype holds no semiring values: :class:`DTypeError`).
    family : str or None
        Key of the built-in fast kernels; ``None`` for custom semirings.
    numba_add, numba_mul : callable or None
        Optional ``@numba.njit`` scalar functions ``f(a, b)`` for custom semirings;
        with both, custom semirings run on the blocked Numba GEMM.
    cuda_add, cuda_mul : str or None
        Optional CUDA C expressions in ``a`` and ``b`` for the GPU kernels.
    nonnegative : bool
        Entries must be ``>= 0`` (``max_times``).
    forbidden : tuple of float
        Abstract values float entries may not take (``-inf`` for ``min_plus``:
        ``-inf + inf`` has no value).

    The values of the semiring (``zero_value``, ``one_value``,
    ``forbidden_values``, ``check_dtype``, ``capabilities``,
    ``improving_cycle``, ``exact_ufuncs``) come from
    :class:`~semiring.algebra.Algebra`.

    Examples
    --------
    >>> import numpy as np
    >>> from semiring import Semiring
    >>> S = Semiring("min_times", np.minimum, np.multiply, zero=np.inf, one=1.0,
    ...              idempotent=True, selective=True, nonnegative=True)
    >>> S.matmul(np.array([[1.0, 2.0]]), np.array([[3.0], [1.0]]))
    array([[2.]])
    """

    # -- dense operations -----------------------------------------------------------
    @overload
    def matmul(
        self,
        A: Array,
        B: Array,
        out: Array | None = None,
        accumulate: bool = False,
        witness: Literal[False] = False,
        device: Device = "auto",
        memory_budget: int | None = None,
    ) -> Array: ...
    @overload
    def matmul(
        self,
        A: Array,
        B: Array,
        out: Array | None = None,
        accumulate: bool = False,
        *,
        witness: Literal[True],
        device: Device = "auto",
        memory_budget: int | None = None,
    ) -> tuple[Array, Array]: ...
    @overload
    def matmul(
        self,
        A: Array,
        B: Array,
        out: Array | None = None,
        accumulate: bool = False,
        witness: bool = False,
        device: Device = "auto",
        memory_budget: int | None = None,
    ) -> Array | tuple[Array, Array]: ...
    def matmul(
        self,
        A: Array,
        B: Array,
        out: Array | None = None,
        accumulate: bool = False,
        witness: bool = False,
        device: Device = "auto",
        memory_budget: int | None = None,
    ) -> Array | tuple[Array, Array]:
        """Semiring matrix product ``C = A (x) B``; see :func:`semiring.dense.matmul`.

        >>> from semiring import min_plus
        >>> min_plus.matmul(np.array([[0.0, 3.0]]), np.array([[1.0], [0.0]]))
        array([[1.]])
        """
        return dense.matmul(
            self, A, B, out=out, accumulate=accumulate, witness=witness, device=device, memory_budget=memory_budget
        )

    def einsum(self, subscripts: str, *operands: Array, optimize: Any = "greedy") -> Array:
        """Einstein summation over this semiring; see :func:`semiring.einsum_api.einsum`.

        Every index not in the output is summed with ``add`` over the ``mul`` of
        the operands' entries; opt_einsum plans the order, the GEMM kernels run it.

        >>> from semiring import min_plus
        >>> A = np.array([[0.0, 1.0], [np.inf, 0.0]])
        >>> min_plus.einsum("ij,jk,kl->il", A, A, A)
        array([[ 0.,  1.],
               [inf,  0.]])
        >>> min_plus.einsum("ii->i", A)
        array([0., 0.])
        """
        return _einsum(self, subscripts, *operands, optimize=optimize)

    # -- sparse operations (GraphBLAS style); see semiring.sparse --------------------
    def mxv(
        self, A: Any, x: Any, out: Array | None = None, mask: Any = None, complement: bool = False,
        accumulate: bool = False,
    ) -> Any:
        """Sparse matrix times vector ``y = A (x) x``; see :func:`semiring.sparse.mxv`.

        >>> import scipy.sparse as sp
        >>> from semiring import min_plus
        >>> A = sp.csr_array(np.array([[0, 2.0, 0], [0, 0, 1.0], [4.0, 0, 0]]))
        >>> min_plus.mxv(A, np.array([0.0, np.inf, np.inf]))
        array([inf, inf,  4.])
        """
        return sparse.mxv(self, A, x, out=out, mask=mask, complement=complement, accumulate=accumulate)

    def vxm(
        self, x: Any, A: Any, out: Array | None = None, mask: Any = None, complement: bool = False,
        accumulate: bool = False,
    ) -> Any:
        """Vector times sparse matrix ``y = x (x) A`` (one relaxation step from ``x``); see :func:`semiring.sparse.vxm`.

        >>> import scipy.sparse as sp
        >>> from semiring import min_plus
        >>> A = sp.csr_array(np.array([[0, 2.0, 0], [0, 0, 1.0], [4.0, 0, 0]]))
        >>> min_plus.vxm(np.array([0.0, np.inf, np.inf]), A)
        array([inf,  2., inf])
        """
        return sparse.vxm(self, x, A, out=out, mask=mask, complement=complement, accumulate=accumulate)

    def mxm(
        self, A: Any, B: Array, out: Array | None = None, mask: Any = None, complement: bool = False,
        accumulate: bool = False,
    ) -> Array:
        """Sparse times dense (many vectors at once); see :func:`semiring.sparse.mxm`.

        >>> import scipy.sparse as sp
        >>> from semiring import min_plus
        >>> A = sp.csr_array(np.array([[0, 2.0, 0], [0, 0, 1.0], [4.0, 0, 0]]))
        >>> min_plus.mxm(A, np.array([[0.0, np.inf], [np.inf, 0.0], [np.inf, np.inf]]))
        array([[inf,  2.],
               [inf, inf],
               [ 4., inf]])
        """
        return sparse.mxm(self, A, B, out=out, mask=mask, complement=complement, accumulate=accumulate)

    def add(self, A: Array, B: Array, out: Array | None = None) -> Array:
        """Elementwise semiring add ``A (+) B`` (broadcasting).

        >>> from semiring import min_plus
        >>> min_plus.add(np.array([1.0, 5.0]), np.array([2.0, 3.0]))
        array([1., 3.])
        """
        return dense.elementwise(self, "add", A, B, out=out)

    def mul(self, A: Array, B: Array, out: Array | None = None) -> Array:
        """Elementwise semiring mul ``A (x) B`` (broadcasting).

        >>> from semiring import min_plus
        >>> min_plus.mul(np.array([1.0, np.inf]), np.array([2.0, 3.0]))
        array([ 3., inf])
        """
        return dense.elementwise(self, "mul", A, B, out=out)

    def identity(self, n: int, dtype: DTypeLike = np.float64, like: Array | None = None) -> Array:
        """The ``n x n`` identity: ``one`` on the diagonal, ``zero`` elsewhere.

        >>> from semiring import min_plus
        >>> min_plus.identity(2)
        array([[ 0., inf],
               [inf,  0.]])
        """
        return dense.identity(self, n, dtype, like=like)

    def zeros(self, shape: int | tuple[int, ...], dtype: DTypeLike = np.float64, like: Array | None = None) -> Array:
        """An array filled with the semiring zero (no edges).

        >>> from semiring import max_plus
        >>> max_plus.zeros((1, 2))
        array([[-inf, -inf]])
        """
        return dense.zeros(self, shape, dtype, like=like)

    def power(self, A: Array, k: int) -> Array:
        """``A`` to the ``k``-th semiring power by repeated squaring (``k = 0`` gives the identity).

        >>> from semiring import min_plus
        >>> A = np.array([[np.inf, 1.0], [1.0, np.inf]])
        >>> min_plus.power(A, 2)
        array([[ 2., inf],
               [inf,  2.]])
        """
        return dense.power(self, A, k)

    def closure(self, A: Any, **kwargs: Any) -> Any:
        """The closure ``A* = I (+) A (+) A^2 (+) ...``, computed by the registered provider.

        The algorithms live one layer up, in :mod:`apsp` (:func:`apsp.closure`),
        which registers itself when imported or is found through its entry
        point; see :mod:`semiring.closure_hook`.  Keyword arguments go to the
        provider (``method``, ``predecessors``, ``device``...).

        Raises
        ------
        UnsupportedOperationError
            No closure provider is available (``import apsp``).

        Examples
        --------
        >>> from semiring import min_plus
        >>> min_plus.closure(np.array([[0.0, 4.0], [np.inf, 0.0]]))
        array([[ 0.,  4.],
               [inf,  0.]])
        """
        if isinstance(A, np.ndarray) or is_cupy_array(A):  # named as the caller knows it (apsp calls it W)
            self.check_dtype("A", A.dtype)
        return closure_provider()(A, semiring=self, **kwargs)

    def array(self, A: Array) -> SemiringArray:
        """Wrap ``A`` so that ``@``, ``+``, ``*``, ``**`` and ``.star()`` use this semiring.

        >>> from semiring import min_plus
        >>> X = min_plus.array(np.array([[0.0, 2.0], [1.0, 0.0]]))
        >>> (X @ X).data
        array([[0., 2.],
               [1., 0.]])
        """
        check_array("A", A)
        self.check_dtype("A", A.dtype)  # named as the caller knows it (SemiringArray calls it data)
        return SemiringArray(A, self)
