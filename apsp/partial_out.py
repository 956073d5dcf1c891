"""What an exception says when a call given ``out=`` fails after it began writing into it.

A result buffer given by the caller (``out=``, a NumPy array or a
``numpy.memmap`` on disk) is written in place, so it cannot be written
atomically: a closure interrupted half way (an error, a negative cycle found
late, :class:`KeyboardInterrupt`) leaves it holding a partly computed matrix,
neither its former contents nor the answer.  The doors that take ``out=``
(:func:`apsp.shortest_paths`, :func:`graphs.all_pairs_shortest_paths`) run
their work inside :func:`noting_partial_out`, which adds :data:`NOTE` to the
exception (PEP 678, ``exc.add_note``), so that the traceback says so; one
place per door (the graph door leaves its dense route to apsp's).
Errors raised before anything is written -- a refused plan
(:class:`~apsp.planner.PlanError`), a wrong type, shape or dtype of an
argument -- carry no note.  (To get a file that is complete or absent, write
to a temporary file and rename it: :mod:`graphs.atomic_file`.)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from semiring.errors import DTypeError, ShapeError

from .planner import PlanError

__all__ = ["NOTE", "noting_partial_out"]

NOTE = ("out= was given and the call stopped after it began writing into it: out now holds a partly written "
        "result (neither its former contents nor the answer); do not use it")

#: Raised at a door's checks, before anything is written.
_BEFORE_WRITING = (PlanError, TypeError, ShapeError, DTypeError)


@contextlib.contextmanager
def noting_partial_out(out) -> Iterator[None]:
    """Add :data:`NOTE` to an exception leaving the block, when ``out`` is not None.

    Parameters
    ----------
    out : array or None
        The caller's result buffer.

    Examples
    --------
    >>> import numpy as np
    >>> try:
    ...     with noting_partial_out(np.zeros(2)):
    ...         raise KeyboardInterrupt
    ... except KeyboardInterrupt as e:
    ...     print(e.__notes__ == [NOTE])
    True
    """
    try:
        yield
    except BaseException as e:
        if out is not None and not isinstance(e, _BEFORE_WRITING):
            e.add_note(NOTE)
        raise
