"""The state one closure computation carries: buffers, scratch, predecessors, progress.

Algorithms (R-Kleene, blocked and reference Floyd-Warshall, squaring) receive
a :class:`Job` and work in place on views of ``job.D`` (and ``job.P``).  The
job owns the reusable scratch buffers (one flat buffer per role, grown on
demand and reused, so the recursion allocates only ``O(log n)`` times), the
one fused operation every algorithm needs (``C (+)= A (x) B`` with the Pi
update of the predecessors) and the base case of the recursion
(:meth:`Job.close_leaf`, through :mod:`apsp.methods.base_case`).  It knows no
algorithm: the algorithms import it, never the other way round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from semiring.backend import array_module
from semiring.dense import WITNESS_DTYPE, matmul_into

from ..negative_cycle import raise_if_diverged
from ..paths.predecessors import update_predecessors
from ..progress import QUIET, Progress
from .base_case import close_block

if TYPE_CHECKING:
    from semiring import Semiring

__all__ = ["Job"]


class Job:
    """Buffers and helpers of one closure computation.

    Parameters
    ----------
    S : Semiring
    D : array (n, n)
        The working matrix (NumPy or CuPy), already prepared (diagonal ``(+) one``).
    P : array (n, n) of int32 or None
        Predecessors, or ``None`` for distances only.
    W : array (n, n)
        The original input (searched for a cycle if the diagonal goes bad).
    base_size : int
        Largest diagonal block closed by the base kernel.
    progress : Progress, optional
        Updated with the work units done (multiply-adds); default: a silent one.
    early_check : bool
        Check each closed base block's diagonal at once (cheap on the CPU,
        a device synchronisation on the GPU), so that negative cycles stop
        the run early.

    Examples
    --------
    >>> from semiring import min_plus
    >>> D = np.array([[0.0, 1.0], [np.inf, 0.0]])
    >>> job = Job(min_plus, D, None, D.copy(), base_size=8)
    >>> job.gemm(D[:1, :1], D[:1, 1:].copy(), D[:1, 1:]); D
    array([[ 0.,  1.],
           [inf,  0.]])
    """

    def __init__(
        self,
        S: "Semiring",
        D,
        P,
        W,
        base_size: int,
        progress: Progress | None = None,
        early_check: bool | None = None,
    ) -> None:
        self.S = S
        self.D = D
        self.P = P
        self.W = W
        self.xp = np if isinstance(D, np.ndarray) else array_module(D)
        self.on_gpu = self.xp is not np
        self.base_size = int(base_size)
        self.progress = progress if progress is not None else QUIET
        self.early_check = (not self.on_gpu) if early_check is None else early_check
        self.zero = S.in_dtype(D.dtype).zero
        #: Block size of the predecessor-consistent blocked Floyd-Warshall.
        self.pred_block = 128 if not self.on_gpu else 256
        #: R-Kleene closes diagonal blocks up to this size by blocked Floyd-Warshall;
        #: ``None``: its per-device default, :data:`apsp.methods.rkleene.FW_BELOW`.
        self.fw_below: int | None = None
        #: Close small diagonal blocks by replaying CUDA graphs (GPU, distances only).
        self.use_graphs = self.on_gpu and P is None
        self._scratch: dict[str, object] = {}
        #: Index of ``D[0, 0]`` in the whole matrix (for naming vertices).
        self.offset = 0

    def sub(self, r0: int, r1: int) -> "Job":
        """A job for the diagonal block ``[r0, r1)``: views of the buffers, shared scratch and progress."""
        P = None if self.P is None else self.P[r0:r1, r0:r1]
        job = Job(self.S, self.D[r0:r1, r0:r1], P, self.W, self.base_size, self.progress, self.early_check)
        job.offset = self.offset + r0
        job._scratch = self._scratch
        job.fw_below = 0
        job.use_graphs = self.use_graphs
        return job

    def detached(self, X) -> "Job":
        """A silent job over a separate buffer ``X``: same semiring, weights and base size, no predecessors,
        no early negative-cycle check, no graph replay (what a captured CUDA graph records)."""
        job = Job(self.S, X, None, self.W, self.base_size, progress=None, early_check=False)
        job.use_graphs = False
        return job

    # -- scratch -------------------------------------------------------------------
    def temp(self, role: str, shape: tuple[int, int], dtype):
        """A ``shape`` view of the reusable flat scratch buffer ``role`` (contents undefined)."""
        size = int(shape[0]) * int(shape[1])
        buf = self._scratch.get(role)
        if buf is None or buf.size < size or buf.dtype != np.dtype(dtype):
            buf = self.xp.empty(max(size, 1), dtype=dtype)
            self._scratch[role] = buf
        return buf[:size].reshape(shape)

    def copy(self, role: str, X):
        """A scratch copy of ``X`` (used where a product's output overlaps an operand)."""
        T = self.temp(role, X.shape, X.dtype)
        T[...] = X
        return T

    # -- the fused product -----------------------------------------------------------
    def _all_zero(self, X) -> bool:
        """True if ``X`` holds only the semiring zero (CPU only; a first-row probe keeps dense inputs cheap)."""
        if X.size == 0:
            return True
        if self.on_gpu or bool((X[0] != self.zero).any()):
            return False
        return not bool((X != self.zero).any())

    def gemm(self, A, B, C, PB=None, PC=None) -> None:
        """``C (+)= A (x) B``; with predecessors also ``PC[i, j] = PB[k, j]`` where ``k`` strictly improved.

        ``C`` must not overlap ``A`` or ``B`` (copy the operand first with
        :meth:`copy`).  On the CPU a product with an all-zero operand (no
        edges) is skipped: it cannot change ``C``.
        """
        m, k = A.shape
        n = B.shape[1]
        if m and n and k and not (self._all_zero(A) or self._all_zero(B)):
            if self.P is None:
                matmul_into(self.S, A, B, C, None, True)
            else:
                K = self.temp("witness", C.shape, WITNESS_DTYPE)
                matmul_into(self.S, A, B, C, K, True)
                update_predecessors(PC, PB, K)
        self.progress.update(float(m) * k * n)

    # -- the base case ---------------------------------------------------------------
    def close_leaf(self, r0: int, r1: int) -> None:
        """Close the diagonal block ``D[r0:r1, r0:r1]`` with the base kernel."""
        blk = self.D[r0:r1, r0:r1]
        close_block(self.S, blk, None if self.P is None else self.P[r0:r1, r0:r1])
        if self.early_check and (self.offset, r0, r1) != (0, 0, self.D.shape[0]):  # the whole matrix: checked after
            raise_if_diverged(self.S, blk, self.W, offset=self.offset + r0, whole=False)
        b = r1 - r0
        self.progress.update(float(b) ** 3)
