"""Which CPU code runs a graph kernel: the compiled Numba kernel, or its NumPy twin for a small input.

The Numba kernels are the fast route, but the first one a process runs is
expensive: importing Numba and loading its typing registries and a kernel's
cached machine code costs about 0.5 s (measured: a one-line ``@njit(cache=True)``
function's first call in a fresh process, 2-core Xeon), where reading and
searching a graph of a few thousand vertices takes milliseconds.  So a small
input goes through a NumPy (or plain Python) twin of the kernel, which gives
exactly the kernel's results -- the same arrays, the same ties, the same
predecessors (``tests/test_kernel_route.py`` checks every twin against its
kernel):

==============================================  ===========================================
kernels (Numba)                                 twins
==============================================  ===========================================
``graphs.io._kernels`` (reading graph files)    ``graphs.io._kernels_numpy``
``graphs._csr`` (building and transposing CSR)  ``graphs._csr_numpy``
``graphs.traversal._bfs_kernels.bfs_levels``    ``graphs.traversal._bfs_numpy.bfs_levels``
``graphs.paths._sssp_kernels`` (delta-stepping  ``graphs.paths._sssp_numpy``
and its light/heavy rows)
==============================================  ===========================================

This module is the one place that decides, by :func:`numpy_route`: an input
of at most :data:`SMALL_INPUT` items goes the NumPy way, until the process
has sent :data:`NUMPY_BUDGET` items that way in all.  Past the budget the
compiled kernels take over for good: a program that calls the library in a
loop pays Numba's start once and then runs at its speed (at most about twice
the best of the two, as in ski rental), while a one-off call -- the command
line -- never loads Numba at all.  Results are the same on both routes, so
the choice only moves time.

Examples
--------
>>> numpy_route(100) in (True, False)
True
>>> numpy_route(SMALL_INPUT + 1)
False
"""

from __future__ import annotations

__all__ = ["SMALL_INPUT", "NUMPY_BUDGET", "BYTES_PER_ITEM", "FORCE", "numpy_route"]

#: Largest input (vertices + arcs of a graph; for a file, its bytes / :data:`BYTES_PER_ITEM`) that may go
#: the NumPy way.  Measured (2-core Xeon, medians of 5; graphs.generators.road_network written as
#: DIMACS): at 50,110 items (12,000 vertices, a 665 kB file) the twins take 37 ms to read the file, 9 ms to
#: build the CSR, 11 ms for a BFS and 31 ms for delta-stepping -- about 90 ms in all, against 15 ms for the
#: warm kernels but some 500 ms to load Numba and the kernels first; at 14,077 items, 15 ms in all.  So up to
#: here a one-off call is several times faster the NumPy way.
SMALL_INPUT = 50_000

#: Items a process may send the NumPy way in all (about 1 s of twin work at the rates above, twice Numba's
#: start-up): past it, every input goes to the compiled kernels.
NUMPY_BUDGET = 500_000

#: Bytes of a graph file per item, to weigh a file chunk against :data:`SMALL_INPUT` (an arc line of
#: a DIMACS or SNAP file is 10 to 20 bytes).
BYTES_PER_ITEM = 16

#: ``"numpy"`` or ``"numba"`` sends every input that way (for tests and benchmarks); ``None``: by size.
FORCE: str | None = None

_spent = 0  # items sent the NumPy way so far (a lost update between threads only shifts the switch a little)


def numpy_route(items: int) -> bool:
    """Whether an input of ``items`` items goes to the NumPy twins (and is counted against the budget).

    Parameters
    ----------
    items : int
        Vertices + arcs of a graph (a file: bytes / :data:`BYTES_PER_ITEM`).

    Returns
    -------
    bool
        True: call the twin; False: call the Numba kernel.

    Examples
    --------
    >>> numpy_route(0) or numpy_route(0) is False
    True
    """
    global _spent
    if FORCE is not None:
        return FORCE == "numpy"
    if items > SMALL_INPUT or _spent + items > NUMPY_BUDGET:
        return False
    _spent += items
    return True
