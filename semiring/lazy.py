"""Lazy package attributes (PEP 562): a package's public names are imported when first asked for.

``import semiring, apsp, graphs`` then costs a few milliseconds and loads
neither NumPy's companions nor Numba, SciPy or CuPy: each public name names
the module it lives in, and that module is imported the first time the name
is read (``graphs.bfs``, ``from graphs import bfs``); the value is then kept
in the package's namespace, so later reads cost nothing.  Subpackages and
submodules (``graphs.csgraph``, ``semiring.dense``) are imported on first
access too.  ``dir()`` lists every public name, loaded or not.

A package lists its names once, in a table ``{name: module}`` (a module
relative to the package, ``".graph"``, or absolute, ``"semiring"``), and
repeats the imports under ``if TYPE_CHECKING:`` for type checkers and the
import-structure checks (``tests/test_lazy_imports.py`` keeps the two equal).

Examples
--------
>>> import semiring
>>> "min_plus" in dir(semiring)
True
>>> semiring.min_plus.name
'min_plus'
>>> semiring.no_such_name
Traceback (most recent call last):
...
AttributeError: module 'semiring' has no attribute 'no_such_name'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(package: str, table: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package`` that import ``table``'s names on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    table : mapping of str to str
        Public name -> the module that defines it (relative to ``package``
        when it starts with ``.``), or the submodule of that name itself
        (``{"generators": ".generators"}``).  A name that is not in the table
        but is a submodule of ``package`` is imported as that submodule.

    Returns
    -------
    __getattr__, __dir__ : callables
        To be bound as the package's module-level ``__getattr__`` and ``__dir__``.

    Raises
    ------
    TypeError
        ``package`` is not a str, or ``table`` maps a name to something other than a str.

    Examples
    --------
    >>> get, names = lazy_attributes("json", {"JSONDecoder": ".decoder"})
    >>> get("JSONDecoder")
    <class 'json.decoder.JSONDecoder'>
    >>> "JSONDecoder" in names()
    True
    """
    if not isinstance(package, str):
        raise TypeError(f"package must be a str, got {type(package).__name__}")
    bad = [name for name, module in table.items() if not isinstance(module, str)]
    if bad:
        raise TypeError(f"table maps {bad[0]!r} to {table[bad[0]]!r}, not to a module name")
    table = dict(table)

    def __getattr__(name: str) -> Any:
        namespace = vars(sys.modules[package])
        module = table.get(name)
        if module is not None:
            value = importlib.import_module(module, package)
            if value.__name__ != f"{package}.{name}":  # a name defined in the module (else the module itself)
                value = getattr(value, name)
        elif name.startswith("__"):  # dunder lookups (__path__, __file__...) of tools: never a submodule
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        else:
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as err:
                if err.name != f"{package}.{name}":
                    raise  # the submodule exists but a module it imports is missing
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__
