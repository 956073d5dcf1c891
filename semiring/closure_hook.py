"""Where :meth:`Semiring.closure` finds the closure algorithm: a provider that a higher layer registers.

The closure ``A* = I (+) A (+) A^2 (+) ...`` is computed by the :mod:`apsp`
package (R-Kleene and friends), which sits one layer *above* :mod:`semiring`
and imports it.  Importing :mod:`apsp` from here would tie the two packages
into one import cycle, so the dependency is inverted:

1. *registration*: a provider is any callable ``fn(A, semiring=S, **kwargs)``
   returning the closure; :mod:`apsp` calls :func:`register_closure` with
   :func:`apsp.closure` when it is imported;
2. *entry point*: if nothing was registered when a closure is first asked for
   (the user imported only :mod:`semiring`), the providers that installed
   distributions declare in the entry-point group ``semiring_paths.closure``
   (:data:`ENTRY_POINT_GROUP`) are looked up with
   :func:`importlib.metadata.entry_points`; the first one by name is loaded
   (for this project's own ``pyproject.toml``: ``apsp = "apsp.api:closure"``,
   whose loading imports :mod:`apsp` and so registers it too) and kept;
3. *none*: :class:`~semiring.errors.UnsupportedOperationError`, saying to
   ``import apsp``.

A source checkout that is on ``sys.path`` but not installed has no entry
points: there, ``import apsp`` once before asking for a closure.

Examples
--------
>>> import numpy as np
>>> from semiring import min_plus
>>> def fake_closure(A, semiring, **kwargs):
...     return A  # stands in for a real algorithm
>>> previous = register_closure(fake_closure)
>>> min_plus.closure(np.zeros((1, 1)))
array([[0.]])
>>> _ = register_closure(previous)  # put back whatever was there
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from .errors import UnsupportedOperationError

__all__ = ["ENTRY_POINT_GROUP", "ClosureProvider", "register_closure", "registered_closure", "closure_provider"]

#: The entry-point group searched when no provider was registered.
ENTRY_POINT_GROUP = "semiring_paths.closure"

#: ``fn(A, semiring=S, **kwargs) -> A*`` (or ``(A*, P)`` with ``predecessors=True``).
ClosureProvider = Callable[..., Any]

_provider: ClosureProvider | str | None = None  # a str: "module:attribute", imported on first use


def register_closure(fn: ClosureProvider | str | None) -> ClosureProvider | None:
    """Make ``fn`` the closure algorithm behind :meth:`Semiring.closure`; return the previous one.

    Parameters
    ----------
    fn : callable, str or None
        Called as ``fn(A, semiring=S, **kwargs)``.  A str ``"module:attribute"``
        (as an entry point names its object) names the provider without
        importing it: the module is imported when a closure first needs it
        (:mod:`apsp` registers ``"apsp.api:closure"`` so, which keeps
        ``import apsp`` cheap).  ``None`` forgets the registered provider (the
        next closure looks up the entry points again).

    Returns
    -------
    callable or None
        The provider registered before (imported, if it was registered by
        name), so that a caller can put it back.

    Raises
    ------
    TypeError
        ``fn`` is neither callable, nor a ``"module:attribute"`` str, nor ``None``.
    UnsupportedOperationError
        The provider registered before was named by a str that cannot be imported.

    Examples
    --------
    >>> previous = register_closure(lambda A, semiring, **kw: A)
    >>> registered_closure() is not None
    True
    >>> _ = register_closure("math:hypot")
    >>> registered_closure()
    <built-in function hypot>
    >>> _ = register_closure(previous)
    """
    global _provider
    if fn is not None and not callable(fn) and not (isinstance(fn, str) and fn.count(":") == 1):
        raise TypeError(f"a closure provider must be callable or a 'module:attribute' str, got {fn!r}")
    previous = registered_closure()
    _provider = fn
    return previous


def registered_closure() -> ClosureProvider | None:
    """The provider registered so far, or ``None`` (no entry-point lookup).

    A provider registered by name (``"module:attribute"``) is imported here,
    and kept.

    Raises
    ------
    UnsupportedOperationError
        The provider was registered by a name that cannot be imported.

    Examples
    --------
    >>> previous = register_closure(None)
    >>> registered_closure() is None
    True
    >>> _ = register_closure(previous)
    """
    global _provider
    provider = _provider
    if isinstance(provider, str):
        module, _, attribute = provider.partition(":")
        try:
            provider = getattr(import_module(module), attribute)
        except Exception as exc:  # a registered name that cannot be imported: say which one
            raise UnsupportedOperationError(f"the closure provider {provider!r} failed to load: {exc}") from exc
        _provider = provider
    return provider


def entry_points(group: str) -> Any:
    """``importlib.metadata.entry_points(group=group)``, imported only when a lookup happens (it costs ~10 ms)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _from_entry_points() -> ClosureProvider | None:
    """Load the first provider (by name) of :data:`ENTRY_POINT_GROUP`, or ``None`` if none is declared."""
    found = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)
    if not found:
        return None
    ep = found[0]
    try:
        fn = ep.load()
    except Exception as exc:  # a declared provider that cannot be imported: say which one
        raise UnsupportedOperationError(
            f"the closure provider {ep.name} = {ep.value!r} (entry point group {ENTRY_POINT_GROUP!r}) "
            f"failed to load: {exc}"
        ) from exc
    if not callable(fn):
        raise UnsupportedOperationError(
            f"the closure provider {ep.name} = {ep.value!r} (entry point group {ENTRY_POINT_GROUP!r}) is not callable"
        )
    return fn


def closure_provider() -> ClosureProvider:
    """The closure algorithm: the registered provider, else the first entry point of :data:`ENTRY_POINT_GROUP`.

    A provider found through an entry point is registered, so the lookup
    happens once.

    Returns
    -------
    callable
        ``fn(A, semiring=S, **kwargs)``.

    Raises
    ------
    UnsupportedOperationError
        No provider is registered and none is declared (or the declared one
        cannot be loaded).
    """
    registered = registered_closure()
    if registered is not None:
        return registered
    fn = _from_entry_points()
    if fn is None:
        raise UnsupportedOperationError(
            "no closure algorithm is available: `import apsp` (the package that computes closures) "
            "before asking for one, or install semiring-paths so that its entry point "
            f"{ENTRY_POINT_GROUP!r} is found"
        )
    registered = registered_closure()  # loading the entry point may have registered one already
    if registered is not None:
        return registered
    register_closure(fn)
    return fn
