"""Einstein summation over a semiring: parsing, checks, planning and execution.

``einsum(S, "ij,jk->ik", A, B)`` is ``S.matmul(A, B)``; in general every index
that is not in the output is summed with the semiring's ``add`` over the
semiring ``mul`` of the operands' entries:

    out[o] = (+)_{indices not in the output} (x)_p operand_p[its indices]

This module is the engine behind :meth:`semiring.Semiring.einsum` and
:func:`semiring.einsum` (it imports neither :mod:`semiring.core` nor
:mod:`semiring.builtin`, so that both can call it).  The steps:

1. **Parse** the subscripts (NumPy's grammar: letters ``a-zA-Z``, ``,``, ``->``,
   ``...``; spaces are ignored).  Without ``->`` the output is the letters that
   appear once, in code-point order (uppercase first), after the ellipsis
   dimensions, as in :func:`numpy.einsum`.  Ellipsis dimensions broadcast
   (right-aligned, size 1 against any size); a letter's sizes must agree
   exactly (NumPy also broadcasts a letter of size 1; this is an error here).
2. **Diagonals** of a letter repeated in one operand (``"ii->i"``) are strided
   views: no copy, no arithmetic.
3. **Single-operand reductions**: an index found in one operand only and not in
   the output is reduced first with the semiring's ``add`` (``min`` for
   ``min_plus``, ``or`` for ``lor_land``, a saturating ``+`` for integer
   ``plus_times``...); over an axis of length 0 that gives the semiring zero.
4. **Plan** the pairwise contraction order with :func:`opt_einsum.contract_path`
   from the shapes alone (``optimize``: ``"greedy"``, ``"optimal"``, ``"auto"``,
   any other opt_einsum optimiser name or :class:`opt_einsum.paths.PathOptimizer`,
   an explicit path, or ``False`` for left to right).  When an index has size 0
   the result is known without any arithmetic (see below) and no search runs;
   when an optimiser named by a string finds no path (opt_einsum's dynamic
   programming raises ``RuntimeError: No contraction found`` for some shapes),
   the greedy path is used instead, and left to right if that fails too: the
   name asks for a search strategy, and any order computes the same einsum.
5. **Contract** pairwise.  The indices of the two operands are classified as
   *batch* (in both, still needed), *contracted* (in both, not needed later),
   *left-only* and *right-only* (indices in one operand that are not needed
   later are reduced away first); a transpose and a reshape make the product a
   batched GEMM ``(nb, m, k) (x) (nb, k, n)``, run by
   :func:`semiring.dense.batched.batched_matmul` on the library's GEMM kernels.  No
   ``m * k * n`` temporary is ever built.  ``k = 1`` (nothing contracted: outer
   and elementwise products) is a broadcast semiring ``mul`` of the two
   operands, whose result has the output's size; ``m = n = 1`` (dot products
   over a batch) is an elementwise ``mul`` followed by an ``add`` reduction.

A single operand that needs no contraction comes back as a view where NumPy's
:func:`numpy.einsum` would give one (a transpose, a diagonal, the operand
itself).  A result with no indices is a 0-d array.  An index of size 0 that is
not in the output makes every result entry an empty ``(+)``: the semiring zero,
whatever the other operands hold (an output index of size 0: an empty result).

**Checks** run once, on the operands (dtype, device, NaN and the infinities the
semiring forbids).  The intermediate arrays of a contraction are trusted: they
go to the unchecked kernels (:func:`semiring.dense.batched.batched_matmul` and the
elementwise kernels), never through the checked front ends again.  So float
arithmetic that overflows in an intermediate gives what IEEE arithmetic gives
in the order of the plan, as :func:`numpy.einsum` does: ``inf`` (``-inf`` for
``min_plus`` sums), and ``NaN`` where ``plus_times`` then meets ``inf - inf`` or
``0 * inf``; no ``RuntimeWarning`` is emitted for it.  Over the selective
semirings the zero absorbs such a value (``-inf + inf`` is ``inf`` in
``min_plus``, ``inf * 0`` is ``0`` in ``max_times``), in the elementwise
products here as in the GEMM kernels.  Integer arithmetic saturates at the
dtype's sentinels and never wraps, in every order.

References
----------
Daniel G. A. Smith and Johnnie Gray, "opt_einsum - A Python package for
optimizing contraction order for einsum-like expressions", Journal of Open
Source Software 3(26), 753 (2018).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..backend import array_module, common_module, is_cupy_array
from ..errors import ShapeError, SubscriptError
from ..validate import check_entries, check_same_dtype
from . import elementwise_into
from .batched import batched_matmul

if TYPE_CHECKING:
    from ..algebra import Algebra as Semiring

__all__ = ["einsum", "parse_subscripts"]

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

# NumPy ufuncs whose reduction is exact on every dtype (no saturation to respect), and
# their CuPy reductions (CuPy ufuncs have no ``reduce``).
_SELECTIVE_REDUCTIONS = {np.minimum: "min", np.maximum: "max", np.logical_or: "any", np.logical_and: "all",
                         np.fmin: "min", np.fmax: "max"}
_CUPY_REDUCTIONS = {**_SELECTIVE_REDUCTIONS, np.add: "sum", np.multiply: "prod"}


# --------------------------------------------------------------------------- parsing


def _parse_term(term: str, where: str) -> tuple[list[str], int | None]:
    """The letters of one term and the position of its ellipsis (``None`` if it has none)."""
    ell = None
    if "." in term:
        if term.count(".") != 3 or "..." not in term:
            raise SubscriptError(f"{where} {term!r}: '.' may only appear as one ellipsis '...'")
        ell = term.index("...")
        term = term.replace("...", "")
    for c in term:
        if c not in _LETTERS:
            raise SubscriptError(f"{where} {term!r}: invalid index character {c!r}; indices are letters a-z, A-Z")
    return list(term), ell


def parse_subscripts(subscripts: str, ndims: Sequence[int]) -> tuple[list[list[str]], list[str]]:
    """Split ``subscripts`` into the index labels of each operand and of the output.

    Ellipses are expanded into labels ``".0"``, ``".1"``... (one per broadcast
    dimension, right-aligned across operands); letters stand for themselves.

    Parameters
    ----------
    subscripts : str
        NumPy einsum subscripts, e.g. ``"ij,jk->ik"``, ``"...ij,...jk"``.
    ndims : sequence of int
        The number of dimensions of each operand.

    Returns
    -------
    inputs : list of list of str
        The labels of each operand, one per dimension (repeats kept).
    output : list of str
        The labels of the result.

    Raises
    ------
    SubscriptError
        A malformed string, a wrong number of terms or indices, an output index
        that is in no input or is repeated.

    Examples
    --------
    >>> parse_subscripts("ij,jk", [2, 2])
    ([['i', 'j'], ['j', 'k']], ['i', 'k'])
    >>> parse_subscripts("...i,i->...", [3, 1])
    ([['.0', '.1', 'i'], ['i']], ['.0', '.1'])
    >>> parse_subscripts("ij->iij", [2])
    Traceback (most recent call last):
    ...
    semiring.errors.SubscriptError: output index 'i' appears more than once in '->iij'
    """
    s = subscripts.replace(" ", "")
    if s.count("->") > 1 or s.replace("->", "").count(">") or s.replace("->", "").count("-"):
        raise SubscriptError(f"subscripts {subscripts!r}: '->' must appear at most once, and '-' / '>' only in it")
    explicit = "->" in s
    lhs, rhs = s.split("->") if explicit else (s, None)
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise SubscriptError(
            f"subscripts {subscripts!r} have {len(terms)} input term(s) but {len(ndims)} operand(s) were given"
        )
    parsed = [_parse_term(t, f"subscript of operand {p}") for p, t in enumerate(terms)]
    n_ell = []
    for p, ((letters, ell), nd) in enumerate(zip(parsed, ndims)):
        e = nd - len(letters)
        if e < 0 or (e > 0 and ell is None):
            raise ShapeError(
                f"operand {p} has {nd} dimension(s) but its subscript {terms[p]!r} names {len(letters)} index(es)"
                + ("" if ell is not None else " (and no '...')")
            )
        n_ell.append(e if ell is not None else 0)
    width = max(n_ell, default=0)
    ell_labels = [f".{i}" for i in range(width)]
    inputs = []
    for (letters, ell), e in zip(parsed, n_ell):
        labels = list(letters)
        if ell is not None:
            labels[ell:ell] = ell_labels[width - e:]
        inputs.append(labels)
    if explicit:
        out_letters, out_ell = _parse_term(rhs, "output subscript")
        seen = set()
        for c in out_letters:
            if c in seen:
                raise SubscriptError(f"output index {c!r} appears more than once in '->{rhs}'")
            seen.add(c)
            if not any(c in t for t, _ in parsed):
                raise SubscriptError(f"output index {c!r} in '->{rhs}' appears in no input subscript")
        if out_ell is None and width > 0:
            raise SubscriptError(
                f"the inputs have {width} broadcast dimension(s) ('...') but the output '->{rhs}' has no '...'"
            )
        output = list(out_letters)
        if out_ell is not None:
            output[out_ell:out_ell] = ell_labels
    else:
        counts: dict[str, int] = {}
        for letters, _ in parsed:
            for c in letters:
                counts[c] = counts.get(c, 0) + 1
        output = ell_labels + sorted(c for c, k in counts.items() if k == 1)
    return inputs, output


# --------------------------------------------------------------------------- array helpers


def _diagonal(X, labels: list[str], p: int) -> tuple[Any, list[str]]:
    """A strided view of ``X`` with repeated labels merged (the diagonal), and its labels."""
    if len(set(labels)) == len(labels):
        return X, labels
    xp = array_module(X)
    uniq: list[str] = []
    shape: list[int] = []
    strides: list[int] = []
    for axis, lab in enumerate(labels):
        if lab in uniq:
            u = uniq.index(lab)
            if shape[u] != X.shape[axis]:
                raise ShapeError(
                    f"operand {p}: index {lab!r} repeats with different sizes {shape[u]} and {X.shape[axis]}"
                )
            strides[u] += X.strides[axis]
        else:
            uniq.append(lab)
            shape.append(X.shape[axis])
            strides.append(X.strides[axis])
    view = xp.lib.stride_tricks.as_strided(X, shape=tuple(shape), strides=tuple(strides))
    return view, uniq


def _elementwise(S: "Semiring", which: str, A, B):
    """``A (+) B`` (``which="add"``) or ``A (x) B`` (``"mul"``) of trusted intermediates, broadcast; unchecked.

    The operands were checked at the door: an intermediate that overflowed to
    an infinity is arithmetic's answer, not bad input, so it goes to
    :func:`semiring.dense.elementwise_into`, not to the checked front end.

    >>> from semiring import plus_times
    >>> big = np.full((1, 2), 3e38, np.float32)
    >>> _elementwise(plus_times, "add", big, big)
    array([[inf, inf]], dtype=float32)
    """
    out = array_module(A).empty(np.broadcast_shapes(tuple(A.shape), tuple(B.shape)), dtype=A.dtype)
    return elementwise_into(S, which, A, B, out)


def _product(S: "Semiring", A, B):
    """``A (x) B`` elementwise, broadcast, as a GEMM of inner size 1 gives it: ``zero (+) A (x) B``.

    Over floats, an intermediate that overflowed meets the semiring zero as
    IEEE's undefined product (``-inf + inf`` in ``min_plus``, ``inf * 0`` in
    ``max_times``: NaN); the GEMM kernels' selective ``add`` skips such a
    product, leaving the zero (the zero absorbs), and so does this.
    ``plus_times`` keeps IEEE's NaN, as :func:`numpy.einsum` does.

    >>> from semiring import min_plus
    >>> _product(min_plus, np.array([-np.inf, 1.0]), np.array([np.inf, 2.0]))
    array([inf,  3.])
    """
    C = _elementwise(S, "mul", A, B)
    if S.selective and S.family is not None and np.dtype(C.dtype).kind == "f":
        C[array_module(C).isnan(C)] = S.zero_value(C.dtype)
    return C


def _add_is_exact(S: "Semiring", dtype) -> bool:
    """Whether ``S.add_ufunc`` computes ``S``'s add exactly on ``dtype`` (min, max, or: always)."""
    return S.add_ufunc in _SELECTIVE_REDUCTIONS or S.family is None or np.dtype(dtype).kind != "i"


def _reduce_axis(S: "Semiring", X, axis: int):
    """``(+)`` over ``axis`` of ``X`` (the semiring zero where the axis has length 0)."""
    xp = array_module(X)
    if X.shape[axis] == 0:
        shape = X.shape[:axis] + X.shape[axis + 1:]
        return xp.full(shape, S.zero_value(X.dtype), dtype=X.dtype)
    if X.shape[axis] == 1:
        return xp.squeeze(X[(slice(None),) * axis + (slice(0, 1),)], axis=axis)
    if _add_is_exact(S, X.dtype):
        if xp is np:
            return np.asarray(S.add_ufunc.reduce(X, axis=axis)).astype(X.dtype, copy=False)
        name = _CUPY_REDUCTIONS.get(S.add_ufunc)
        if name is not None:
            return getattr(xp, name)(X, axis=axis).astype(X.dtype, copy=False)
    # Pairwise halving with the library's (saturating) elementwise add: about 2 passes over X.
    X = xp.moveaxis(X, axis, 0)
    while X.shape[0] > 1:
        h = X.shape[0] // 2
        Y = _elementwise(S, "add", X[:h], X[h:2 * h])
        X = Y if X.shape[0] == 2 * h else xp.concatenate([Y, X[2 * h:]], axis=0)
    return X.reshape(X.shape[1:])


def _reduce(S: "Semiring", X, labels: list[str], drop) -> tuple[Any, list[str]]:
    """Reduce ``X`` with the semiring add over every label in ``drop``."""
    axes = [a for a, lab in enumerate(labels) if lab in drop]
    for a in reversed(axes):
        X = _reduce_axis(S, X, a)
    return X, [lab for lab in labels if lab not in drop]


def _transpose(X, labels: list[str], order: list[str]):
    perm = [labels.index(lab) for lab in order]
    return X if perm == list(range(len(perm))) else X.transpose(tuple(perm))


def _contract_pair(S: "Semiring", X, xl: list[str], Y, yl: list[str], keep) -> tuple[Any, list[str]]:
    """Contract two operands into one whose labels are ``batch + left + right``."""
    xp = array_module(X)
    X, xl = _reduce(S, X, xl, {lab for lab in xl if lab not in yl and lab not in keep})
    Y, yl = _reduce(S, Y, yl, {lab for lab in yl if lab not in xl and lab not in keep})
    batch = [lab for lab in xl if lab in yl and lab in keep]
    con = [lab for lab in xl if lab in yl and lab not in keep]
    left = [lab for lab in xl if lab not in yl]
    right = [lab for lab in yl if lab not in xl]
    size = dict(zip(xl, X.shape)) | dict(zip(yl, Y.shape))
    bshape = [size[lab] for lab in batch]
    lshape = [size[lab] for lab in left]
    rshape = [size[lab] for lab in right]
    nb, m, k, n = math.prod(bshape), math.prod(lshape), math.prod(size[lab] for lab in con), math.prod(rshape)
    A = _transpose(X, xl, batch + left + con).reshape(nb, m, k)
    B = _transpose(Y, yl, batch + con + right).reshape(nb, k, n)
    if nb * m * n == 0:
        C = xp.empty((nb, m, n), dtype=A.dtype)
    elif k == 1:
        C = _product(S, A, B)  # broadcast (nb, m, 1) x (nb, 1, n): the result's size, no more
    elif k == 0:
        C = xp.full((nb, m, n), S.zero_value(A.dtype), dtype=A.dtype)
    elif m == 1 and n == 1:
        C = _reduce_axis(S, _product(S, A[:, 0, :], B[:, :, 0]), 1)
    else:
        C = batched_matmul(S, A, B)
    return C.reshape(tuple(bshape + lshape + rshape)), batch + left + right


# --------------------------------------------------------------------------- planning


def _left_to_right(n: int) -> list[tuple[int, ...]]:
    return [(0, 1)] * (n - 1)


def _optimizer(optimize, n: int):
    """Check ``optimize`` for ``n`` operands: a checked path (a list), ``"auto"`` for ``True``, a name, or a PathOptimizer.

    >>> _optimizer(False, 3), _optimizer(True, 3), _optimizer(["einsum_path", (1, 2), (0, 1)], 3)
    ([(0, 1), (0, 1)], 'auto', [(1, 2), (0, 1)])
    """
    from opt_einsum.paths import _PATH_OPTIONS, PathOptimizer

    if isinstance(optimize, bool):
        return "auto" if optimize else _left_to_right(n)
    if isinstance(optimize, (list, tuple)):
        path = list(optimize)
        if path and isinstance(path[0], str) and path[0] == "einsum_path":  # the form numpy.einsum_path returns
            path = path[1:]
        return _check_path(path, n)
    if isinstance(optimize, str):
        if optimize.lower() not in _PATH_OPTIONS:
            raise SubscriptError(f"optimize={optimize!r} is not an opt_einsum optimizer; use one of: "
                                 f"{', '.join(sorted(_PATH_OPTIONS))}, a path, or False")
        return optimize
    if isinstance(optimize, PathOptimizer):
        return optimize
    raise TypeError("optimize must be a str, an opt_einsum PathOptimizer, a path (list of tuples) or a bool, "
                    f"got {type(optimize).__name__}")


def _plan(labels: list[list[str]], output: list[str], shapes: list[tuple], how) -> list[tuple[int, ...]]:
    """The contraction path: a list of tuples of positions in the shrinking operand list.

    ``how`` is what :func:`_optimizer` returned.  A named opt_einsum optimiser
    that finds no path (``RuntimeError``) is replaced by ``"greedy"``, then by
    left to right; a ``PathOptimizer``'s failure or invalid path is a
    :class:`SubscriptError`.  With an index of size 0 every order costs nothing
    and no search runs.

    >>> _plan([["i"], ["i"], ["j"]], ["j"], [(2,), (2,), (0,)], "dp")
    [(0, 1), (0, 1)]
    """
    import opt_einsum
    from opt_einsum.paths import PathOptimizer

    n = len(labels)
    if isinstance(how, list):
        return how
    if n <= 2:
        return [tuple(range(n))] if n == 2 else []
    if any(0 in shape for shape in shapes):
        return _left_to_right(n)  # opt_einsum's dynamic programming finds no path here
    symbol = {lab: opt_einsum.get_symbol(i) for i, lab in enumerate(dict.fromkeys(sum(labels, [])))}
    if isinstance(how, PathOptimizer):
        inputs = [frozenset(symbol[lab] for lab in t) for t in labels]
        size = {symbol[lab]: d for t, shape in zip(labels, shapes) for lab, d in zip(t, shape)}
        name = type(how).__name__
        try:
            path = how(inputs, frozenset(symbol[lab] for lab in output), size, None)
        except RuntimeError as err:
            raise SubscriptError(f"optimize={name}(...) found no contraction path: {err}") from err
        try:
            return _check_path(list(path), n)
        except (SubscriptError, TypeError) as err:
            raise SubscriptError(f"optimize={name}(...) returned an invalid path {path!r}: {err}") from None
    eq = ",".join("".join(symbol[lab] for lab in t) for t in labels) + "->" + "".join(symbol[lab] for lab in output)
    for search in (how, "greedy"):
        try:
            path, _ = opt_einsum.contract_path(eq, *shapes, shapes=True, optimize=search)
        except RuntimeError:  # opt_einsum's "No contraction found": this search gave up
            continue
        return [tuple(step) for step in path]
    return _left_to_right(n)


def _check_path(path: list, n: int) -> list[tuple[int, ...]]:
    out = []
    for step in path:
        if not isinstance(step, (tuple, list)) or not all(
            isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_)) for i in step
        ):
            raise SubscriptError(f"optimize: each step of a path is a tuple of operand positions, got {step!r}")
        step = tuple(int(i) for i in step)
        if not step or len(set(step)) != len(step) or any(i < 0 or i >= n for i in step):
            raise SubscriptError(f"optimize: step {step!r} does not name distinct operands among {n}")
        out.append(step)
        n -= len(step) - 1
    if n != 1:
        raise SubscriptError(f"optimize: the path leaves {n} operands, not 1")
    return out


# --------------------------------------------------------------------------- the entry point


def _check_arguments(S: "Semiring", subscripts, operands) -> Any:
    if not isinstance(subscripts, str):
        raise TypeError(f"subscripts must be a str, got {type(subscripts).__name__}")
    if not operands:
        raise SubscriptError("einsum needs at least one operand")
    for p, X in enumerate(operands):
        if not (isinstance(X, np.ndarray) or is_cupy_array(X)):
            raise TypeError(f"operand {p} must be a numpy or cupy ndarray, got {type(X).__name__}")
    xp = common_module(**{f"operand {p}": X for p, X in enumerate(operands)})
    for p, X in enumerate(operands):
        S.check_dtype(f"operand {p}", X.dtype)
    check_same_dtype(**{f"operand {p}": X for p, X in enumerate(operands)})
    for p, X in enumerate(operands):
        check_entries(f"operand {p}", X, S)
    return xp


def einsum(S: "Semiring", subscripts: str, *operands, optimize: Any = "greedy"):
    """Einstein summation over the semiring ``S`` (see the module docstring for the method).

    Parameters
    ----------
    S : Semiring
    subscripts : str
        NumPy einsum subscripts: ``"ij,jk->ik"``, ``"bij,bjk->bik"``, ``"ii->i"``,
        ``"ij->i"``, ``"i,j->ij"``, ``"...ij,...jk"``; without ``->`` the output is
        the indices that appear once, sorted, after the ``...`` dimensions.
    *operands : numpy.ndarray or cupy.ndarray
        One dtype that ``S`` accepts, all on one device, valid entries.
    optimize : str, list, bool or opt_einsum.paths.PathOptimizer
        How :func:`opt_einsum.contract_path` orders the pairwise contractions:
        ``"greedy"`` (default), ``"optimal"``, ``"auto"`` (also ``True``), any
        other opt_einsum optimiser name or optimiser object, or an explicit path
        such as ``[(1, 2), (0, 1)]`` (the ``["einsum_path", ...]`` form of
        :func:`numpy.einsum_path` too); ``False`` contracts left to right.  A
        named search that finds no path falls back to ``"greedy"``, then to left
        to right (see the module docstring).

    Returns
    -------
    array
        Of the operands' dtype and kind (NumPy or CuPy); a view of the operand
        when there is one operand and nothing to reduce; 0-d when the output has
        no index.

    Raises
    ------
    SubscriptError
        Malformed subscripts, a wrong number of terms, an output index in no
        input or repeated, a bad ``optimize`` path or name, an optimiser object
        that finds no path or returns an invalid one.
    ShapeError
        An operand's number of dimensions does not match its subscript, or an
        index has different sizes (naming the operand and the index).
    DTypeError, InvalidEntryError, DeviceError
        As for :meth:`Semiring.matmul`: a dtype the semiring does not accept,
        operands of different dtypes, NaN or a forbidden infinity, operands on
        different devices.
    TypeError
        ``subscripts`` is not a str, an operand is not an array, or
        ``optimize`` is of none of the kinds above.

    Examples
    --------
    >>> from semiring import min_plus
    >>> A = np.array([[0.0, 2.0], [np.inf, 0.0]])
    >>> einsum(min_plus, "ij,jk->ik", A, A)
    array([[ 0.,  2.],
           [inf,  0.]])
    >>> einsum(min_plus, "ij->i", A)   # row minima
    array([0., 0.])
    """
    xp = _check_arguments(S, subscripts, operands)
    labels, output = parse_subscripts(subscripts, [X.ndim for X in operands])
    # Sizes: letters must agree exactly; ellipsis dimensions broadcast (size 1 against any).
    size: dict[str, int] = {}
    source: dict[str, int] = {}
    for p, (X, ls) in enumerate(zip(operands, labels)):
        for lab, d in zip(ls, X.shape):
            old = size.get(lab)
            if old is None or (lab[0] == "." and old == 1):
                size[lab], source[lab] = d, p
            elif d != old and not (lab[0] == "." and d == 1):
                if source[lab] == p:
                    raise ShapeError(f"operand {p}: index {lab!r} repeats with different sizes {old} and {d}")
                what = f"index {lab!r}" if lab[0] != "." else f"broadcast dimension {lab[1:]} of '...'"
                raise ShapeError(f"operand {p}: {what} has size {d}, but size {old} in operand {source[lab]}")
    with np.errstate(over="ignore", invalid="ignore"):  # intermediates follow IEEE, silently, as numpy.einsum
        return _contract(S, xp, operands, labels, output, size, optimize)


def _contract(S: "Semiring", xp, operands, labels: list[list[str]], output: list[str], size: dict, optimize):
    """The einsum of checked operands whose index sizes agree (``size``): diagonals, reductions, the planned pairs."""
    how = _optimizer(optimize, len(operands))
    ops: list[tuple[Any, list[str]]] = []
    for p, (X, ls) in enumerate(zip(operands, labels)):
        X, ls = _diagonal(X, ls, p)
        squeeze = [a for a, lab in enumerate(ls) if lab[0] == "." and X.shape[a] == 1 and size[lab] != 1]
        if squeeze:  # a broadcast dimension of size 1: the operand does not depend on it
            X = X.reshape(tuple(d for a, d in enumerate(X.shape) if a not in squeeze))
            ls = [lab for a, lab in enumerate(ls) if a not in squeeze]
        ops.append((X, ls))
    if 0 in size.values() and (len(ops) > 1 or set(ops[0][1]) - set(output)):
        # An empty (+) everywhere (or an empty result): the semiring zero, whatever the operands hold.
        dtype = operands[0].dtype
        return xp.full(tuple(size[lab] for lab in output), S.zero_value(dtype), dtype=dtype)
    # Indices found in one operand only and not in the output are reduced first.
    for p, (X, ls) in enumerate(ops):
        elsewhere = set(output).union(*(set(o[1]) for q, o in enumerate(ops) if q != p))
        ops[p] = _reduce(S, X, ls, {lab for lab in ls if lab not in elsewhere})
    path = _plan([ls for _, ls in ops], output, [tuple(X.shape) for X, _ in ops], how)
    for step in path:
        group = [ops[i] for i in step]
        ops = [o for i, o in enumerate(ops) if i not in step]
        keep = set(output).union(*(set(ls) for _, ls in ops))
        X, xl = group[0]
        for j, (Y, yl) in enumerate(group[1:], start=1):
            later = keep.union(*(set(ls) for _, ls in group[j + 1:]))
            X, xl = _contract_pair(S, X, xl, Y, yl, later)
        if len(group) == 1:
            X, xl = _reduce(S, X, xl, {lab for lab in xl if lab not in keep})
        ops.append((X, xl))
    (X, xl), = ops
    X, xl = _reduce(S, X, xl, {lab for lab in xl if lab not in output})
    X = _transpose(X, xl, output)
    return X if X.ndim else xp.asarray(X)
