"""What ``should_run`` may read cheaply before NetworkX converts a graph: the calling NetworkX code, a few edge values.

Converting a graph costs about one linear pass in Python; ``should_run``
decides before that cost is paid, so what it reads must cost far less:

* :func:`networkx_caller`: whether the call comes from inside NetworkX's own
  code of a function that this backend left on NetworkX (``is_connected``
  calls ``connected_components``, ``is_strongly_connected`` calls
  ``strongly_connected_components``): a few frames of the call stack;
* :func:`sample_edge_values`: the values of one edge attribute on the first
  few edges of a NetworkX graph (``G._adj`` read as NetworkX reads it), and
  :func:`tie_prone` / :func:`inexact_float`, what they say about the rest;
* :func:`compiled_labels`: whether the node labels are of the kinds the
  compiled reader converts (:mod:`._dict_reader`), the first few tuples read;
* :class:`Binder`: a call's arguments by parameter name, as
  ``inspect.Signature.bind`` gives them, without its cost (NetworkX asks
  ``can_run`` at every dispatched call, nested ones included).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from typing import Any

_P = inspect.Parameter

__all__ = ["networkx_caller", "code_of", "sample_edge_values", "tie_prone", "inexact_float", "compiled_labels",
           "Binder", "SAMPLE_EDGES", "CALLER_DEPTH"]

#: How many frames above ``should_run`` are searched for NetworkX's code (its dispatcher takes about four).
CALLER_DEPTH = 16
#: How many edges :func:`sample_edge_values` reads.
SAMPLE_EDGES = 32


def code_of(function: Any) -> Any:
    """The code object NetworkX runs for a dispatchable ``function`` (its ``orig_func``, unwrapped), or ``None``.

    Examples
    --------
    >>> import networkx as nx
    >>> code_of(nx.is_connected).co_name, code_of(len)
    ('is_connected', None)
    """
    orig = getattr(function, "orig_func", None)
    code = getattr(inspect.unwrap(orig), "__code__", None) if orig is not None else None
    return code


def networkx_caller(codes: Mapping, depth: int = CALLER_DEPTH) -> Any:
    """The value ``codes`` maps the code of the nearest calling frame to (within ``depth`` frames), else ``None``.

    ``codes``: code object -> name, for the NetworkX functions whose own code
    runs on NetworkX; a frame running one of them above the caller means the
    call is part of that function's work.

    Examples
    --------
    >>> def outer():
    ...     return networkx_caller({outer.__code__: "outer"})
    >>> outer(), networkx_caller({})
    ('outer', None)
    """
    frame = inspect.currentframe()
    if frame is None:  # an interpreter without frames
        return None
    try:
        f = frame.f_back
        for _ in range(depth):
            if f is None:
                return None
            name = codes.get(f.f_code)
            if name is not None:
                return name
            f = f.f_back
        return None
    finally:
        del frame


def sample_edge_values(G: Any, attr: Any, default: Any, k: int = SAMPLE_EDGES) -> list | None:
    """The values of ``attr`` (``default`` where missing) on up to ``k`` edges of ``G``'s first rows, as NetworkX
    reads them (a multigraph's parallel edges each); ``None`` where ``G`` is not a plain NetworkX graph.

    Examples
    --------
    >>> import networkx as nx
    >>> sample_edge_values(nx.Graph([(0, 1, {"w": 2.5}), (1, 2, {})]), "w", 1, k=3)
    [2.5, 2.5, 1]
    """
    adj = getattr(G, "_adj", None)
    if type(adj) is not dict:
        return None
    multigraph = G.is_multigraph()
    out: list = []
    try:
        for nbrs in adj.values():
            for data in nbrs.values():
                for d in data.values() if multigraph else (data,):
                    out.append(d.get(attr, default))
                    if len(out) >= k:
                        return out
    except Exception:  # noqa: BLE001 - a graph read otherwise: the conversion decides
        return None
    return out


def tie_prone(values: list) -> bool:
    """Whether some value is an ``int`` (``bool`` included) or a float of at most six decimals.

    Sums of such values are often equal along different paths; sums of
    real-valued (full-mantissa) floats almost never are.

    Examples
    --------
    >>> tie_prone([0.1234567891, 3]), tie_prone([12.75]), tie_prone([0.3183098861837907])
    (True, True, False)
    """
    for v in values:
        if type(v) in (int, bool):
            return True
        if type(v) is float and math.isfinite(v) and round(v, 6) == v:
            return True
    return False


def inexact_float(values: list, bits: int = 20) -> bool:
    """Whether some value is a finite float that is not a multiple of ``2**-bits`` (its sums may round).

    Examples
    --------
    >>> inexact_float([3, 2.5, 0.75]), inexact_float([0.1])
    (False, True)
    """
    for v in values:
        if type(v) is float and math.isfinite(v) and not math.ldexp(v, bits).is_integer():
            return True
    return False


def compiled_labels(G: Any, k: int = SAMPLE_EDGES) -> bool:
    """Whether every node of ``G`` is an ``int`` or a ``str``, or every node a ``tuple`` and the first ``k`` of them
    tuples of one length of ``int`` items (``grid_2d_graph``'s ``(i, j)``): labels the compiled reader converts.

    Examples
    --------
    >>> import networkx as nx
    >>> compiled_labels(nx.path_graph(["a", 2])), compiled_labels(nx.grid_2d_graph(2, 2)), compiled_labels(nx.path_graph([1.5]))
    (True, True, False)
    """
    kinds = set(map(type, G))
    if kinds <= {int, str}:
        return True
    if kinds != {tuple}:
        return False
    first = [v for _, v in zip(range(k), G)]
    return len(set(map(len, first))) == 1 and all(type(x) is int for v in first for x in v)


class Binder:
    """``bind(args, kwargs)``: the arguments passed, by parameter name (``inspect.BoundArguments.arguments``), or
    ``None`` where the call does not match the signature (Python would raise ``TypeError``).

    Positional parameters are zipped with ``args`` and the keywords checked
    against the names; a signature with ``*args``, and anything unusual, goes
    to ``inspect.Signature.bind`` itself.  Defaults are not filled in.

    Examples
    --------
    >>> def f(G, source, cutoff=None, *, weight="weight", **kw): ...
    >>> b = Binder(inspect.signature(f))
    >>> b.bind((1, 2), {"weight": "w", "x": 3}), b.bind((1,), {}), b.bind((1, 2, 3, 4), {})
    ({'G': 1, 'source': 2, 'weight': 'w', 'kw': {'x': 3}}, None, None)
    """

    __slots__ = ("signature", "positional", "keywords", "var_keyword", "required", "simple")

    def __init__(self, signature: inspect.Signature) -> None:
        params = list(signature.parameters.values())
        self.signature = signature
        self.positional = [p.name for p in params if p.kind is _P.POSITIONAL_OR_KEYWORD]
        self.keywords = frozenset(p.name for p in params if p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY))
        self.var_keyword = next((p.name for p in params if p.kind is _P.VAR_KEYWORD), None)
        self.required = frozenset(p.name for p in params if p.default is _P.empty
                                  and p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY))
        self.simple = all(p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY, _P.VAR_KEYWORD) for p in params)

    def bind(self, args: tuple, kwargs: dict) -> dict | None:
        if not self.simple:
            try:
                return dict(self.signature.bind(*args, **kwargs).arguments)
            except TypeError:
                return None
        if len(args) > len(self.positional):
            return None
        bound = dict(zip(self.positional, args))
        extra = None
        for key, value in kwargs.items():
            if key in bound and key != self.var_keyword:
                return None  # given twice
            if key in self.keywords:
                bound[key] = value
            elif self.var_keyword is not None:
                if extra is None:
                    extra = bound[self.var_keyword] = {}
                extra[key] = value
            else:
                return None
        if not self.required <= bound.keys():
            return None
        return bound
