"""The closure methods in one table: how each runs, where, and what the planner needs to know of it.

Each :class:`Method` entry says how to close a prepared working matrix (the
``run`` function, given a :class:`~apsp.methods.closure_state.Job` and the block
size), the devices it serves, whether it has a streamed (out-of-core) form on
the GPU, whether it carries predecessors, and its time model for the planner
(``half_rate_n``: the size at which its rate is half the GEMM's, ``work``: its
multiply-adds).  ``"auto"`` is one more name: the planner's pick over the
table (:func:`apsp.planner.plan`).  The command line, the csgraph drop-in and
:func:`graphs.all_pairs_shortest_paths` read the names from here (:data:`NAMES`).

The multi-device method (:mod:`apsp.multi_device`) is an entry too: it runs
over row blocks on several GPUs instead of one buffer, so its ``run`` is
``None`` and the driver hands it the whole input.

>>> NAMES
('auto', 'rkleene', 'blocked-fw', 'squaring', 'fw', 'multi-gpu')
>>> TABLE["blocked-fw"].streams, TABLE["fw"].half_rate_n
(True, None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..fw import floyd_warshall_inplace
from .blocked_fw import blocked_floyd_warshall
from .closure_state import Job
from .rkleene import rkleene as close_rkleene  # the name rkleene stays the module's
from .squaring import most_squarings, repeated_squaring

__all__ = ["Method", "TABLE", "NAMES", "CPU_FW_BLOCK", "GPU_FW_BLOCK", "MULTI_GPU", "single_buffer_methods", "auto_method", "IN_CORE"]

#: Default block of blocked Floyd-Warshall on the CPU and on the GPU.
CPU_FW_BLOCK = 256
GPU_FW_BLOCK = 1024
#: The name of the multi-device entry.
MULTI_GPU = "multi-gpu"
#: What ``"auto"`` runs on a buffer that fits its device (:func:`auto_method`).
IN_CORE = "rkleene"


@dataclass(frozen=True)
class Method:
    """One closure method.

    Attributes
    ----------
    name : str
    summary : str
        One line for help texts.
    run : callable or None
        ``run(job, block_size)`` closes ``job.D`` (and ``job.P``) in place;
        ``None`` for the multi-device method (its own driver).
    devices : tuple of str
        ``"cpu"`` and/or ``"gpu"``.
    streams : bool
        Has the streamed out-of-core form on the GPU (:mod:`apsp.streaming`).
    half_rate_n : int or None
        The planner's time model: its rate is the measured GEMM rate times
        ``n / (n + half_rate_n)``; ``None``: timed by its own steps (``fw``).
    squarings : bool
        Its work is ``n^3`` per squaring rather than ``n^3`` once.
    multi_device : bool
        Runs over several GPUs.
    """

    name: str
    summary: str
    run: Callable[[Job, int | None], None] | None
    devices: tuple[str, ...] = ("cpu", "gpu")
    streams: bool = False
    half_rate_n: int | None = 150
    squarings: bool = False
    multi_device: bool = False

    def work(self, n: int) -> float:
        """Multiply-adds of a closure of ``n`` vertices (the progress bar's total)."""
        return float(n) ** 3 * (max(1, most_squarings(n)) if self.squarings else 1)


def _rkleene(job: Job, block_size: int | None) -> None:
    close_rkleene(job)


def _blocked(job: Job, block_size: int | None) -> None:
    blocked_floyd_warshall(job, block_size or (GPU_FW_BLOCK if job.on_gpu else CPU_FW_BLOCK), close_rkleene)


def _squaring(job: Job, block_size: int | None) -> None:
    repeated_squaring(job)


def _fw(job: Job, block_size: int | None) -> None:
    floyd_warshall_inplace(job.S, job.D, job.P, progress=job.progress)


_ENTRIES = (
    Method("rkleene", "recursive Kleene (Buluc, Gilbert & Budak 2010): n^3 work in large GEMMs, the fast one",
           _rkleene),
    Method("blocked-fw", "blocked Floyd-Warshall (Venkataraman et al. 2003): the same GEMMs in tiles; "
           "the out-of-core GPU route", _blocked, streams=True),
    Method("squaring", "repeated squaring with early exit: log2(n) products, for graphs of few-hop paths",
           _squaring, half_rate_n=0, squarings=True),
    Method("fw", "the reference vectorised Floyd-Warshall: n rank-1 updates, a slow reference for checking", _fw, half_rate_n=None),
    Method(MULTI_GPU, "blocked Floyd-Warshall over the GPUs of one host: row blocks per GPU, panels sent "
           "GPU to GPU, one round of look-ahead", None, devices=("gpu",), multi_device=True),
)

#: The methods by name.
TABLE: dict[str, Method] = {m.name: m for m in _ENTRIES}
#: Every name ``method=`` accepts: ``"auto"`` (the planner's pick) and the table's.
NAMES: tuple[str, ...] = ("auto", *TABLE)


def single_buffer_methods() -> tuple[str, ...]:
    """The methods that close one buffer on one device (all but the multi-device one)."""
    return tuple(name for name, m in TABLE.items() if not m.multi_device)


def auto_method(device: str, fits: bool) -> str:
    """The entry ``"auto"`` runs on one buffer: R-Kleene, or blocked Floyd-Warshall streamed through a GPU it
    does not fit (the planner's route ``"streaming"``); see :func:`apsp.choose_method`.

    >>> auto_method("cpu", True), auto_method("gpu", False)
    ('rkleene', 'blocked-fw')
    """
    return "blocked-fw" if device == "gpu" and not fits else IN_CORE
