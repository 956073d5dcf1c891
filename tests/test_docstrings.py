"""Shared docstring blocks (semiring.docstrings): every placeholder is filled, and the shared doors agree."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import numpy as np
import pytest

import apsp
from semiring.docstrings import fill_doc, filled

ROOT = Path(__file__).resolve().parents[1]
SLOT_LINE = re.compile(r"^[ \t]*\{\w+\}[ \t]*$", re.MULTILINE)


def _modules_with_slots() -> list[str]:
    """The package modules whose source has a line holding only ``{slot}``."""
    found = []
    for pkg in ("semiring", "apsp", "graphs"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if SLOT_LINE.search(path.read_text(encoding="utf-8")):
                found.append(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))
    return found


def _documented(module) -> list[tuple[str, str]]:
    """``(qualified name, docstring)`` of the module and of every function, class and method it defines."""
    out = [(module.__name__, module.__doc__ or "")]
    for name, obj in vars(module).items():
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            out.append((name, obj.__doc__ or ""))
        elif inspect.isclass(obj):
            out.append((name, obj.__doc__ or ""))
            out += [(f"{name}.{k}", v.__doc__ or "") for k, v in vars(obj).items() if inspect.isfunction(v)]
    return out


def test_the_scan_finds_the_modules_that_share_blocks():
    assert {"semiring.validate", "apsp.api", "apsp.arguments", "apsp.request", "graphs.validate"} <= set(
        _modules_with_slots())


@pytest.mark.parametrize("module", _modules_with_slots())
def test_no_placeholder_is_left_unfilled(module):
    left = [name for name, doc in _documented(importlib.import_module(module)) if SLOT_LINE.search(doc)]
    assert not left, f"{module}: a {{slot}} line is left in the docstring of {left} (a missing @fill_doc?)"


def test_blocks_are_indented_as_their_placeholder_and_fields_filled():
    doc = "Head.\n\n    {raises}\n    Tail.\n"
    blocks = {"raises": "Raises\n------\nTypeError\n    ``{arg}`` is not an integer; {other} stays.\n\nEnd."}
    assert filled(doc, blocks, arg="n") == (
        "Head.\n\n    Raises\n    ------\n    TypeError\n        ``n`` is not an integer; {other} stays.\n\n    End.\n"
        "    Tail.\n")
    assert filled("A choice: {'a', 'b'}.\n  {x} inline {y}\n", blocks) == "A choice: {'a', 'b'}.\n  {x} inline {y}\n"


def test_an_unknown_slot_fails_when_the_function_is_defined():
    with pytest.raises(KeyError, match="no docstring block 'nmae'; known: name"):
        @fill_doc({"name": "name : str"})
        def f():
            """Parameters
            ----------
            {nmae}
            """


def test_a_function_without_docstring_is_left_alone():
    def f():
        pass

    assert fill_doc({"x": "y"})(f) is f and f.__doc__ is None


def test_prepare_takes_the_defaults_of_shortest_paths():
    W = np.array([[0.0, 2.0, np.inf], [np.inf, 0.0, -1.0], [1.0, np.inf, 0.0]])
    req = apsp.prepare(W)
    assert (req.S, req.method, req.predecessors, req.device, req.dtype, req.out, req.block_size,
            req.memory_budget, req.memory_limit, req.progress, req.client) == (
        apsp.shortest_paths.__kwdefaults__["semiring"], "auto", False, "cpu", np.dtype(np.float64), None, None,
        None, None, None, None)
    np.testing.assert_array_equal(apsp.solve(req), apsp.shortest_paths(W))
    D, P = apsp.solve(apsp.prepare(W, "fw", predecessors=True, block_size=2))
    D2, P2 = apsp.shortest_paths(W, "fw", predecessors=True, block_size=2)
    np.testing.assert_array_equal(D, D2)
    np.testing.assert_array_equal(P, P2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'predecesors'"):
        apsp.prepare(W, predecesors=True)
    assert set(inspect.signature(apsp.request.make_request).parameters) == set(
        inspect.signature(apsp.shortest_paths).parameters)
