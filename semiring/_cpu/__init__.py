"""CPU kernels behind the dense and sparse semiring operations (Numba; NumPy for custom semirings without Numba ops).

Private: the public entry points are the methods of :class:`semiring.Semiring`
and the functions of :mod:`semiring.sparse`.
"""
