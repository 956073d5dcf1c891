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

:func:`fill` and :func:`fill_template` are the general form, for families
of functions that share one whole docstring (the SciPy and NetworkX
mirrors): a template whose ``{name}`` fields -- alone on a line (a block of
lines) or inside one (a word) -- are filled per function; only the named
fields are touched.  :func:`filled` is :func:`fill` with the blocks looked
up by slot.

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

__all__ = ["fill", "fill_template", "fill_doc", "filled"]

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

    parts = {}
    for _, slot in _SLOT.findall(doc):
        if slot not in blocks:
            raise KeyError(f"no docstring block {slot!r}; known: {', '.join(sorted(blocks))}")
        parts[slot] = _FIELD.sub(lambda m: fields.get(m[1], m[0]), blocks[slot])
    return fill(doc, **parts) if parts else doc


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


def fill(template: str, **parts: str) -> str:
    """``template`` with each field ``{name}`` replaced by ``parts[name]``.

    Parameters
    ----------
    template : str
        The text, with fields ``{name}``.
    **parts : str
        The text of each field.  A field alone on its line may span lines
        (written flush left: each line is indented as the field was; an
        empty text removes the line).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        A part whose field the template does not hold, or a part of several
        lines whose field is not alone on its line.

    Examples
    --------
    >>> print(fill("Sum of {what}.\\n\\n    {params}\\n", what="two numbers", params="x : int\\ny : int"))
    Sum of two numbers.
    <BLANKLINE>
        x : int
        y : int
    <BLANKLINE>
    >>> fill("Sum.", what="two numbers")
    Traceback (most recent call last):
    ...
    ValueError: fill: the template has no field for what
    """
    lines = template.splitlines(keepends=True)
    used = set()
    for i, line in enumerate(lines):
        body = line.strip()
        name = body[1:-1]
        if body.startswith("{") and body.endswith("}") and name in parts:
            indent = line[: len(line) - len(line.lstrip())]
            text = "".join(indent + row if row.strip() else row for row in parts[name].splitlines(keepends=True))
            lines[i] = text + "\n" if text and not text.endswith("\n") and line.endswith("\n") else text
            used.add(name)
            continue
        for key, text in parts.items():
            field = "{" + key + "}"
            if field in line:
                if "\n" in text.strip("\n"):
                    raise ValueError(f"fill: part {key!r} has several lines but its field is not alone on its line")
                line = line.replace(field, text.strip("\n"))
                used.add(key)
        lines[i] = line
    unused = sorted(set(parts) - used)
    if unused:
        raise ValueError(f"fill: the template has no field for {', '.join(unused)}")
    return "".join(lines)


def fill_template(template: str | None = None, **parts: str) -> Callable[[F], F]:
    """A decorator that sets the function's ``__doc__`` to :func:`fill` ``(template, **parts)``.

    Without ``template``, the function's own docstring is the template.

    Examples
    --------
    >>> @fill_template("Add {what}.", what="two numbers")
    ... def add(x, y):
    ...     return x + y
    >>> add.__doc__
    'Add two numbers.'
    >>> @fill_template(what="two numbers")
    ... def mul(x, y):
    ...     "Multiply {what}."
    ...     return x * y
    >>> mul.__doc__
    'Multiply two numbers.'
    """

    def decorate(f: F) -> F:
        f.__doc__ = fill(f.__doc__ if template is None else template, **parts)
        return f

    return decorate
