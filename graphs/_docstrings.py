"""Docstrings written once: a template whose ``{name}`` fields are filled per function.

Functions that share their parameters, results or errors (the SciPy and
NetworkX mirrors, the eccentricity statistics) keep one text for what they
share and fill in what differs, as SciPy's ``doccer`` and pandas'
``Substitution`` decorators do.  The filled text is the function's
``__doc__``: ``help()`` shows it whole and doctest runs its examples.

A field alone on its line takes that line's indentation for every line of
its text (an empty text removes the line); a field inside a line is replaced
by its (one-line) text.  Only the
named fields are touched, so other braces (``{"auto", "cpu"}``, dict
outputs) stay as written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["fill", "filled"]

F = TypeVar("F", bound=Callable)


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


def filled(template: str | None = None, **parts: str) -> Callable[[F], F]:
    """A decorator that sets the function's ``__doc__`` to :func:`fill` ``(template, **parts)``.

    Without ``template``, the function's own docstring is the template.

    Examples
    --------
    >>> @filled("Add {what}.", what="two numbers")
    ... def add(x, y):
    ...     return x + y
    >>> add.__doc__
    'Add two numbers.'
    >>> @filled(what="two numbers")
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
