"""Dask clusters of one host, importable under this name too: see :mod:`apsp.distributed.cluster`.

>>> from apsp.distributed_cluster import threaded_cluster
>>> threaded_cluster.__module__
'apsp.distributed.cluster'
"""

from __future__ import annotations

from .distributed.cluster import gpu_process_cluster, threaded_cluster

__all__ = ["threaded_cluster", "gpu_process_cluster"]
