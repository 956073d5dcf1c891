"""A tiny terminal progress bar for long closures (no dependencies).

:class:`Progress` counts abstract work units (semiring multiply-adds) and
draws ``[#####.....]  43%  2.1 s`` on ``stderr``.  With ``enabled=None`` it
draws only on a terminal and only once the job has run for ``delay`` seconds,
so short jobs and redirected output stay quiet.  On the GPU the work is queued
asynchronously; pass ``sync`` (a callable that waits for the device) so the bar
shows finished work, not queued work: it is called only when the bar redraws.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """Progress of ``total`` work units, drawn on ``stream`` when enabled.

    Parameters
    ----------
    total : float
        Work units of the whole job (``advance`` adds up to this).
    label : str
        Shown before the bar.
    enabled : bool or None
        ``True`` draws always, ``False`` never, ``None`` only when ``stream``
        is a terminal (and only after ``delay`` seconds).
    stream : file, optional
        Defaults to ``sys.stderr``.
    delay : float
        Seconds of silence before the first draw when ``enabled`` is None.
    sync : callable, optional
        Called before each redraw (e.g. to wait for queued GPU work).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with Progress(100, "apsp", enabled=True, stream=out, delay=0) as bar:
    ...     bar.advance(50)
    ...     bar.advance(50)
    >>> "100%" in out.getvalue()
    True
    >>> quiet = io.StringIO()
    >>> with Progress(10, "apsp", enabled=None, stream=quiet) as bar:
    ...     bar.advance(10)
    >>> quiet.getvalue()
    ''
    """

    width = 30
    interval = 0.1

    def __init__(
        self,
        total: float,
        label: str = "",
        enabled: bool | None = None,
        stream: TextIO | None = None,
        delay: float = 1.0,
        sync: Callable[[], None] | None = None,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        else:
            delay = 0.0 if enabled else delay
        self.enabled = bool(enabled)
        self.total = max(float(total), 1.0)
        self.label = label
        self.delay = delay
        self.sync = sync
        self.done = 0.0
        self.start = time.perf_counter()
        self._last = -1.0
        self._drawn = False

    def advance(self, amount: float) -> None:
        """Add ``amount`` finished work units and redraw if due."""
        self.done += amount
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.start < self.delay or now - self._last < self.interval:
            return
        if self.sync is not None:
            self.sync()
            now = time.perf_counter()
        self._draw(now)

    def _draw(self, now: float) -> None:
        frac = min(1.0, self.done / self.total)
        fill = int(round(frac * self.width))
        bar = "#" * fill + "." * (self.width - fill)
        self.stream.write(f"\r{self.label} [{bar}] {frac * 100:3.0f}%  {now - self.start:.1f} s")
        self.stream.flush()
        self._last = now
        self._drawn = True

    def close(self) -> None:
        """Finish the bar (a final 100% line) if anything was drawn."""
        if self.enabled and (self._drawn or self.delay == 0.0):
            if self.sync is not None:
                self.sync()
            self.done = max(self.done, self.total)
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
