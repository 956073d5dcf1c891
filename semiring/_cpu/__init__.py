"""CPU kernels (Numba) behind the dense semiring operations.

Private: the public entry points are the methods of :class:`semiring.Semiring`.
"""
