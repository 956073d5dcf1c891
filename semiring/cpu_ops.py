"""The Numba scalar ops a kernel template of the layers above names on its marked lines (imports Numba).

A kernel template (:mod:`apsp._fw_template`, :mod:`apsp.paths._last_hop_template`) is
an ordinary module whose semiring operations are imported on lines marked
``# @ADD`` / ``# @MUL``; :func:`semiring.kernels.cpu_kernels` writes a copy with
those lines replaced by a semiring's own ops and imports it.  The marked lines
of the template itself import the defaults named here, the ``min_plus``
float ops, so that the template is a module that runs as it is::

    from semiring.cpu_ops import template_add as add  # @ADD
    from semiring.cpu_ops import template_mul as mul  # @MUL

:func:`ops_for` gives the ``(add, mul)`` pair of a built-in family, for tests
and for kernels that take their ops as arguments; :func:`path_sum` is
``min_plus``'s product in any dtype (sentinels stick, integers saturate), for
the hand-written Numba kernels of the layers above (the searches of
:mod:`graphs`).  Only Numba kernels import this module; everything else goes
through :mod:`semiring.kernels`.

>>> template_mul(2.0, 3.0, -float("inf"), float("inf"))
5.0
"""

from __future__ import annotations

from ._cpu.scalar_ops import min_ as template_add
from ._cpu.scalar_ops import ops_for, path_sum
from ._cpu.scalar_ops import plus_float as template_mul

__all__ = ["template_add", "template_mul", "ops_for", "path_sum"]
