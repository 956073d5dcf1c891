"""Docstring blocks written once and filled into every docstring that shares them.

Several public functions document the same parameter, return value or error
(the ``name`` of an argument check, ``**kwargs`` passed on to
:func:`apsp.shortest_paths`...).  :func:`fill_doc` writes such a block into a
docstring when the function is defined (at import): a line that holds only
``{slot}`` becomes the block ``blocks[slot]``, each of its lines indented as
the placeholder was, so ``help()``, Sphinx and the doctests all see the whole
text.  Like SciPy's ``doccer`` and pandas' ``@doc``, but whole lines only:
the rest of a docstring (numpydoc choices such as ``{"auto", "cpu"}``,
doctest output) is never formatted.

A block may name the function it documents in ``{field}`` placeholders,
given as keyword arguments of :func:`fill_doc` (only the fields given are
replaced).  An unknown slot is a :class:`KeyError` at import time, so a
misspelt placeholder never reaches a reader.  Under ``python -OO``
(docstrings stripped) the function is returned as it is.

>>> BLOCKS = {"name": "name : str\\n    The argument's name, for the messages."}
>>> @fill_doc(BLOCKS)
... def f(name):
...     '''Do nothing.
...
...     Parameters
...     ----------
...     {name}
...     '''
>>> print(f.__doc__.rstrip())
Do nothing.
<BLANKLINE>
    Parameters
    ----------
    name : str
        The argument's name, for the messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["fill_doc", "filled"]

F = TypeVar("F")

_SLOT = re.compile(r"^([ \t]*)\{(\w+)\}[ \t]*$", re.MULTILINE)
_FIELD = re.compile(r"\{(\w+)\}")


def filled(doc: str, blocks: Mapping[str, str], **fields: str) -> str:
    """``doc`` with each line holding only ``{slot}`` replaced by ``blocks[slot]``, indented as that line.

    Parameters
    ----------
    doc : str
        A docstring (or any text).
    blocks : Mapping[str, str]
        The blocks by slot name, written without indentation.
    **fields : str
        Values for ``{field}`` placeholders inside the blocks (the blocks
        only; a placeholder whose field is not given stays as it is).

    Returns
    -------
    str

    Raises
    ------
    KeyError
        A ``{slot}`` line names no block.

    Examples
    --------
    >>> print(filled("Raises\\n------\\n{err}", {"err": "TypeError\\n    ``{arg}`` is not an int."}, arg="n"))
    Raises
    ------
    TypeError
        ``n`` is not an int.
    """

    def block(match: re.Match) -> str:
        indent, slot = match.groups()
        if slot not in blocks:
            raise KeyError(f"no docstring block {slot!r}; known: {', '.join(sorted(blocks))}")
        text = _FIELD.sub(lambda m: fields.get(m[1], m[0]), blocks[slot])
        return "\n".join(indent + line if line.strip() else "" for line in text.splitlines())

    return _SLOT.sub(block, doc)


def fill_doc(blocks: Mapping[str, str], **fields: str) -> Callable[[F], F]:
    """A decorator that fills the shared blocks into a function's (or class's) docstring; see :func:`filled`.

    Parameters
    ----------
    blocks : Mapping[str, str]
        The blocks by slot name.
    **fields : str
        Values for ``{field}`` placeholders inside the blocks.

    Returns
    -------
    callable
        The decorator: it sets ``__doc__`` and returns the object itself.

    Raises
    ------
    KeyError
        A ``{slot}`` line of the docstring names no block (when decorating).

    Examples
    --------
    >>> @fill_doc({"returns": "Returns\\n-------\\nint"})
    ... def one():
    ...     '''One.
    ...
    ...     {returns}
    ...     '''
    ...     return 1
    >>> one.__doc__.splitlines()[2:]
    ['    Returns', '    -------', '    int', '    ']
    """

    def decorate(obj: F) -> F:
        if obj.__doc__:  # None under python -OO
            obj.__doc__ = filled(obj.__doc__, blocks, **fields)
        return obj

    return decorate
