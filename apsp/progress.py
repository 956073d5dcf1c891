"""Progress of long closures, shown by tqdm: a text bar on a terminal, a widget in Jupyter (with ipywidgets).

:class:`Progress` is a :class:`tqdm.auto.tqdm` counting abstract work units
(semiring multiply-adds: ``n^3`` for a closure of ``n`` vertices), with what
the library adds to it:

* the ``progress=`` rule of the public functions: ``True`` shows the bar at
  once, ``False`` never, ``None`` only on a terminal or in a notebook and only
  for work still running after :data:`DELAY` seconds (tqdm's ``delay=`` and
  ``disable=None``), so short runs and redirected output stay quiet;
* ``sync``: on the GPU the work is queued asynchronously, so a callable that
  waits for the device is called before each redraw, and only then; the bar
  shows finished work, not queued work;
* a run that ends without an exception ends at 100% (repeated squaring may
  stop before the work it was sized for); one that raises keeps its count;
* no tqdm monitor thread, so ``sync`` only ever runs on the thread that
  queued the work (CuPy's current stream is per thread).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TextIO, runtime_checkable

try:  # the Jupyter widget needs ipywidgets; without it tqdm.auto warns at import: use the text bar quietly
    import ipywidgets  # noqa: F401
except ImportError:
    from tqdm.std import tqdm
else:
    from tqdm.auto import tqdm

__all__ = ["Progress", "WorkCounter", "DELAY", "QUIET"]

#: Seconds a run must take before ``progress=None`` shows anything.
DELAY = 2.0


class Progress(tqdm):
    """Progress of ``total`` work units; use :meth:`update` to count finished units.

    Parameters
    ----------
    total : float
        Work units of the whole job (at least 1).
    label : str
        Shown before the bar (tqdm's ``desc``).
    enabled : bool or None
        ``True`` shows it at once, ``False`` never, ``None`` only on a
        terminal or in a notebook, after ``delay`` seconds.
    stream : file, optional
        Where a text bar goes; default ``sys.stderr`` (tqdm's ``file``).
    delay : float
        Seconds of silence before the first draw when ``enabled`` is None.
    sync : callable, optional
        Called before each redraw (e.g. to wait for queued GPU work).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with Progress(100, "apsp", enabled=True, stream=out) as bar:
    ...     _ = bar.update(50)
    ...     _ = bar.update(50)
    >>> "apsp: 100%" in out.getvalue()
    True
    >>> quiet = io.StringIO()  # not a terminal
    >>> with Progress(10, "apsp", enabled=None, stream=quiet) as bar:
    ...     _ = bar.update(10)
    >>> quiet.getvalue()
    ''
    """

    monitor_interval = 0  # no monitor thread: ``sync`` runs on the thread that queued the work

    def __init__(
        self,
        total: float,
        label: str = "",
        enabled: bool | None = None,
        stream: TextIO | None = None,
        delay: float = DELAY,
        sync: Callable[[], None] | None = None,
    ) -> None:
        self.sync = sync  # before tqdm's __init__, which may already draw
        super().__init__(
            total=max(float(total), 1.0),
            desc=label,
            disable=None if enabled is None else not enabled,
            delay=delay if enabled is None else 0.0,
            file=stream,
            bar_format="{l_bar}{bar}| {elapsed}<{remaining}",
        )

    def display(self, *args, **kwargs):
        """Draw the bar, after ``sync`` (tqdm calls this for every redraw, and only then)."""
        if self.sync is not None:
            self.sync()
        return super().display(*args, **kwargs)

    def __exit__(self, exc_type, exc_value, traceback):
        if exc_type is None and not self.disable and self.n < self.total:
            self.n = self.total  # finished: the last draw says 100%
        return super().__exit__(exc_type, exc_value, traceback)


@runtime_checkable
class WorkCounter(Protocol):
    """What a closure counts its finished work units on: a :class:`Progress`, or anything with its ``update``.

    >>> isinstance(Progress(1, enabled=False), WorkCounter)
    True
    """

    def update(self, n: float, /) -> object:
        """Count ``n`` more finished work units."""


#: A bar that never draws, shared by the runs that show none (a closure's sub-jobs, the small jobs of
#: :func:`apsp.driver.solve`): its ``update`` is tqdm's no-op for a disabled bar, so one instance serves all threads.
QUIET = Progress(1, enabled=False)
