"""R-Kleene: the recursive, in-place closure of Buluc, Gilbert & Budak.

A. Buluc, J. R. Gilbert, C. Budak, "Solving path problems on the GPU",
Parallel Computing 36(5-6), 2010, Fig. 3 (after D'Alberto & Nicolau's R-Kleene,
2007, and Aho, Hopcroft & Ullman 1974, Sec. 5.6).  With ``A`` split into
quadrants::

    A11 = A11*                # recursion
    A12 = A11 A12
    A21 = A21 A11
    A22 = A22 (+) A21 A12
    A22 = A22*                # recursion
    A21 = A22 A21
    A12 = A12 A22
    A11 = A11 (+) A12 A21

Everything happens in place on views of one buffer; the six products are the
``O(n^3)`` work and all run in :func:`semiring.dense.matmul_into` (the CPU
Numba GEMM, or the GPU engine for CuPy arrays), for exactly ``n^3``
multiply-adds in all (``T(n) = 2 T(n/2) + 6 (n/2)^3``).  Leaves of at most
``job.base_size`` vertices are closed by the base kernel (:mod:`apsp.methods.base_case`).

In-place products.  ``matmul_into`` requires the output not to overlap its
operands, and four of the products (``A12 = A11 A12``, ``A21 = A21 A11``,
``A21 = A22 A21``, ``A12 = A12 A22``) overwrite an operand.  Each copies that
operand into a scratch buffer and accumulates into the block:
``A12 (+)= A11 (x) copy(A12)``.  Since ``A11`` is closed its diagonal is
``one``, so the accumulated result equals the plain product; accumulating also
makes the witness ``-1`` exactly where nothing strictly improved, which is
what the Pi update needs.  This costs one ``(n/2)^2`` copy per such product,
``2 n^2`` element copies over the whole recursion against ``n^3`` multiply-adds.
On the CPU each such product runs in strips (column strips of the right
operand when it is overwritten, row strips of the left one: the strips of the
output are independent), at least :data:`STRIP_MIN` wide and ``1/STRIPS`` of
the block, so the scratch buffer holds ``n^2/16`` elements instead of a
quadrant's ``n^2/4`` and the dense route peaks near the size of the result
(:mod:`apsp.planner`).  On the GPU the products stay whole (one launch each,
and the device budget counts a quadrant).  The other two products
(``A22 (+)= A21 A12``, ``A11 (+)= A12 A21``) need no copy.

Launch overhead on the GPU.  Diagonal blocks of up to
:data:`apsp.cuda.graph_replay.GRAPH_MAX` vertices are closed by replaying a CUDA
graph of their whole recursion (distances only; :mod:`apsp.cuda.graph_replay`).

Predecessors.  The Pi update (:mod:`apsp.paths.predecessors`) applied to these
quadrant products does not keep each row of ``P`` a tree when paths tie: a
product updates a row on some columns only, while the predecessors it copies
may point outside them, so ties (zero-weight cycles; ``max_min``, ``lor_land``
everywhere) can splice different trees into loops.  With predecessors the
closure therefore runs the full-row schedule of :mod:`apsp.methods.blocked_fw` (same
``n^3`` work, same witness GEMMs), for which the trees are guaranteed.  (For
``min_plus`` the driver avoids all this on either device: it closes the distances
alone and reads the predecessors off them, :mod:`apsp.paths.last_hop`.)

Module structure.  R-Kleene and blocked Floyd-Warshall call each other (each
closes some diagonal blocks with the other); this module imports
:mod:`apsp.methods.blocked_fw` and hands it :func:`rkleene` as its diagonal closure,
and hands :func:`rkleene` to the CUDA-graph replay the same way, so neither
imports this module back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .blocked_fw import blocked_floyd_warshall

if TYPE_CHECKING:
    from .closure_state import Job

__all__ = ["rkleene", "split_point", "FW_BELOW"]

#: Diagonal blocks of at most this many vertices are closed by blocked Floyd-Warshall
#: (block = the base size) instead of further recursion, per device.  Its products are
#: wide rank-``b`` updates rather than small squares, which may fill a GPU better at
#: the bottom of the recursion; 0 (the default) keeps the pure R-Kleene recursion.
#: Read when a job's own ``fw_below`` is ``None`` (see :class:`apsp.methods.closure_state.Job`).
FW_BELOW = {"cpu": 0, "gpu": 0}
#: In-place products on the CPU run in this many strips (see the module docstring) ...
STRIPS = 4
#: ... each at least this wide (narrower GEMMs lose speed).
STRIP_MIN = 512


def _graph_max() -> int:
    from ..cuda.graph_replay import GRAPH_MAX

    return GRAPH_MAX


def _fw_below(job: "Job") -> int:
    """The size below which ``job``'s diagonal blocks go to blocked Floyd-Warshall."""
    if job.fw_below is not None:
        return job.fw_below
    return FW_BELOW["gpu" if job.on_gpu else "cpu"]


def split_point(n: int, align: int = 64) -> int:
    """Where R-Kleene splits ``n`` vertices: about ``n/2``, rounded up to ``align`` when that is possible.

    >>> split_point(2048), split_point(1000), split_point(100)
    (1024, 512, 64)
    >>> split_point(7)
    4
    """
    h = (n + 1) // 2
    if h > align:
        h = -(-h // align) * align
    elif n > align:
        h = align
    return min(h, n - 1)


def rkleene(job: "Job", r0: int = 0, r1: int | None = None) -> None:
    """Replace the diagonal block ``job.D[r0:r1, r0:r1]`` by its closure, in place.

    Parameters
    ----------
    job : Job
        Holds the buffer, the predecessors and the scratch space.
    r0, r1 : int
        The block (default: the whole matrix).

    Examples
    --------
    >>> import numpy as np
    >>> from semiring import min_plus
    >>> from apsp.methods.closure_state import Job
    >>> D = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    >>> rkleene(Job(min_plus, D, None, D.copy(), base_size=1)); D
    array([[0., 4., 5.],
           [2., 0., 1.],
           [1., 5., 0.]])
    """
    if r1 is None:
        r1 = job.D.shape[0]
    if job.P is not None and (r0, r1) == (0, job.D.shape[0]):
        blocked_floyd_warshall(job, job.pred_block, rkleene)  # the predecessor-consistent schedule
        return
    n = r1 - r0
    if n <= job.base_size:
        if n > 0:
            job.close_leaf(r0, r1)
        return
    if job.use_graphs and n <= _graph_max():
        from ..cuda.graph_replay import closure_via_graph

        closure_via_graph(job, r0, r1, rkleene)
        return
    if n <= _fw_below(job):
        blocked_floyd_warshall(job.sub(r0, r1), job.base_size, rkleene)
        return
    m = r0 + split_point(n)
    D, P = job.D, job.P
    A11, A12 = D[r0:m, r0:m], D[r0:m, m:r1]
    A21, A22 = D[m:r1, r0:m], D[m:r1, m:r1]
    if P is None:
        P11 = P12 = P21 = P22 = None
    else:
        P11, P12 = P[r0:m, r0:m], P[r0:m, m:r1]
        P21, P22 = P[m:r1, r0:m], P[m:r1, m:r1]
    rkleene(job, r0, m)
    _left_times(job, A11, P11, A12, P12)  # A12 = A11 A12
    _times_right(job, A21, P21, A11, P11)  # A21 = A21 A11
    job.gemm(A21, A12, A22, PB=P12, PC=P22)  # A22 = A22 + A21 A12
    rkleene(job, m, r1)
    _left_times(job, A22, P22, A21, P21)  # A21 = A22 A21
    _times_right(job, A12, P12, A22, P22)  # A12 = A12 A22
    job.gemm(A12, A21, A11, PB=P21, PC=P11)  # A11 = A11 + A12 A21


def _strips(job: "Job", length: int) -> list[tuple[int, int]]:
    """The strips an in-place product is cut into: the whole on the GPU, else at least
    :data:`STRIP_MIN` wide and at most ``1/STRIPS`` of ``length`` (so the operand copy
    needs ``1/STRIPS`` of a quadrant of scratch, not a quadrant)."""
    if job.on_gpu or length <= STRIP_MIN:
        return [(0, length)]
    w = max(STRIP_MIN, -(-length // STRIPS))
    return [(j, min(length, j + w)) for j in range(0, length, w)]


def _left_times(job: "Job", A, PA, X, PX) -> None:
    """``X = A X`` in place (``A`` closed): column strips of ``X`` are independent, each copied once."""
    pcopy = (lambda Y: job.copy("pred", Y)) if PX is not None else (lambda Y: None)
    for j0, j1 in _strips(job, X.shape[1]):
        Xs = X[:, j0:j1]
        Ps = None if PX is None else PX[:, j0:j1]
        job.gemm(A, job.copy("data", Xs), Xs, PB=pcopy(Ps), PC=Ps)


def _times_right(job: "Job", X, PX, A, PA) -> None:
    """``X = X A`` in place (``A`` closed): row strips of ``X`` are independent, each copied once."""
    for i0, i1 in _strips(job, X.shape[0]):
        Xs = X[i0:i1]
        job.gemm(job.copy("data", Xs), A, Xs, PB=PA, PC=None if PX is None else PX[i0:i1])
