"""Test-session setup shared by the doctests in the packages and tests/.

GPU modules (``semiring/cuda``) import CuPy at module level; their doctests are
only collected where a CUDA GPU is usable.
"""

from semiring.backend import gpu_available

collect_ignore_glob = [] if gpu_available() else ["*/cuda/*", "*/cuda_*.py"]
