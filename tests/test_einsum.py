"""semiring.einsum against a plain reference (every index assignment, broadcast over tiny shapes)."""

from __future__ import annotations

import itertools
import tracemalloc
import warnings

import numpy as np
import opt_einsum
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opt_einsum.paths import PathOptimizer
from strategies import random_matrix

import semiring as sr
from semiring.backend import gpu_available
from semiring.dense.batched import batched_matmul
from semiring.dense.einsum_engine import _plan, parse_subscripts

PAIRS = [(S, np.dtype(d)) for S in (sr.min_plus, sr.max_plus, sr.max_min, sr.plus_times)
         for d in ("float32", "float64", "int32", "int64")]
PAIRS += [(sr.lor_land, np.dtype(bool)), (sr.min_max, np.dtype("int32")), (sr.max_times, np.dtype("float64")),
          (sr.min_times, np.dtype("int64"))]
LETTERS = "ijkl"
ELL = "XY"  # letters that stand for the broadcast dimensions in the reference


# --------------------------------------------------------------------------- the reference


def reference(S, inputs: list[str], output: str, operands, dtype):
    """``out[o] = (+)_{other indices} (x)_p operand_p[...]``, by broadcasting every operand to all indices.

    ``inputs`` / ``output`` use letters only (no ``...``); a dimension of size 1
    where the index is larger elsewhere broadcasts.  Products with ``S.mul``,
    sums with ``S.add`` one index value at a time.
    """
    letters = sorted(set("".join(inputs)))
    size: dict[str, int] = {}
    for term, X in zip(inputs, operands):
        for c, d in zip(term, X.shape):
            size[c] = d if size.get(c, 1) == 1 else size[c]
    full = [size[c] for c in letters]
    grids = np.indices(full, dtype=np.intp) if full else []
    prod = None
    for term, X in zip(inputs, operands):
        idx = tuple(np.minimum(grids[letters.index(c)], X.shape[a] - 1) for a, c in enumerate(term))
        if not full:
            val = np.asarray(X)
        elif term:
            val = X[idx]
        else:
            val = np.full(full, X[()], dtype=dtype)
        prod = val if prod is None else S.mul(prod, val)
    if prod.ndim == 0 and full:
        prod = np.full(full, prod, dtype=dtype)
    for c in reversed([c for c in letters if c not in output]):
        axis = letters.index(c)
        acc = np.full(prod.shape[:axis] + prod.shape[axis + 1:], S.zero_value(dtype), dtype=dtype)
        for v in range(prod.shape[axis]):
            acc = S.add(acc, np.take(prod, v, axis=axis))
        prod = acc
        letters.remove(c)
    return np.asarray(prod).transpose([letters.index(c) for c in output]) if output else np.asarray(prod)


def values(S, shape, dtype, rng):
    """Small integers, the semiring zero (an infinity for the tropical semirings) and its one."""
    flat = random_matrix(S, (int(np.prod(shape)),), dtype, rng, zero_frac=0.25, low=-9, high=9)
    if dtype.kind != "b":
        one = S.one_value(dtype)
        if one not in S.forbidden_values(dtype):
            flat[rng.random(flat.shape) < 0.1] = one
    return flat.reshape(shape)


def check(S, got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


# --------------------------------------------------------------------------- hypothesis: random expressions


@st.composite
def expressions(draw):
    """(library subscripts, reference inputs, reference output, shapes)."""
    n_ops = draw(st.integers(1, 4))
    size = {c: draw(st.sampled_from([0, 1, 2, 3] if draw(st.integers(0, 9)) == 0 else [1, 2, 3])) for c in LETTERS}
    width = draw(st.sampled_from([0, 0, 1, 2]))
    ell_size = {c: draw(st.integers(1, 2)) for c in ELL[:width]}
    terms, lib_terms, shapes = [], [], []
    for _ in range(n_ops):
        letters = draw(st.lists(st.sampled_from(LETTERS), max_size=3))
        has_ell = width > 0 and draw(st.booleans())
        e = draw(st.integers(0, width)) if has_ell else 0
        ell = ELL[width - e:width]
        pos = draw(st.integers(0, len(letters)))
        term = "".join(letters[:pos]) + ell + "".join(letters[pos:])
        lib = "".join(letters[:pos]) + ("..." if has_ell else "") + "".join(letters[pos:])
        shape = tuple(size[c] if c in LETTERS else draw(st.sampled_from([1, ell_size[c]])) for c in term)
        terms.append(term)
        lib_terms.append(lib)
        shapes.append(shape)
    used = sorted(set("".join(terms)) & set(LETTERS))
    counts = {c: "".join(terms).count(c) for c in used}
    any_ell = any("..." in t for t in lib_terms)
    ell_out = "".join(c for c in ELL[:width] if any(c in t for t in terms))
    if draw(st.booleans()):  # implicit output
        lib = ",".join(lib_terms)
        out = ell_out + "".join(c for c in used if counts[c] == 1)
    else:
        out_letters = draw(st.permutations(used))[: draw(st.integers(0, len(used)))]
        pos = draw(st.integers(0, len(out_letters)))
        out = "".join(out_letters[:pos]) + ell_out + "".join(out_letters[pos:])
        lib_out = "".join(out_letters[:pos]) + ("..." if any_ell else "") + "".join(out_letters[pos:])
        lib = ",".join(lib_terms) + "->" + lib_out
    return lib, terms, out, shapes


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=expressions(), pair=st.sampled_from(PAIRS), seed=st.integers(0, 2**31 - 1),
       optimize=st.sampled_from(["greedy", "optimal", False, "auto", "branch-2"]))
def test_einsum_matches_reference(expr, pair, seed, optimize):
    S, dt = pair
    lib, terms, out, shapes = expr
    rng = np.random.default_rng(seed)
    ops = [values(S, s, dt, rng) for s in shapes]
    want = reference(S, terms, out, ops, dt)
    got = S.einsum(lib, *ops, optimize=optimize)
    check(S, got, want)


#: Every ``optimize`` opt_einsum accepts by name (``True`` is ``"auto"``), and its optimiser objects.
OPTIMIZE_NAMES = [True, False, "auto", "auto-hq", "greedy", "optimal", "dp", "dynamic-programming", "branch-all",
                  "branch-2", "branch-1", "random-greedy", "random-greedy-128", "eager", "opportunistic"]
OPTIMIZER_OBJECTS = [lambda: opt_einsum.DynamicProgramming(), lambda: opt_einsum.DynamicProgramming(minimize="size"),
                     lambda: opt_einsum.DynamicProgramming(search_outer=True),
                     lambda: opt_einsum.DynamicProgramming(cost_cap=False), lambda: opt_einsum.BranchBound(nbranch=1),
                     lambda: opt_einsum.RandomGreedy(max_repeats=4)]


@st.composite
def explicit_paths(draw, n: int):
    """A valid contraction path over ``n`` operands: steps of 1 (a lone reduction) to all remaining operands."""
    path, m, lone = [], n, 0
    while m > 1:
        k = draw(st.integers(1 if lone < 2 else 2, m))
        lone += k == 1
        path.append(tuple(draw(st.permutations(range(m)))[:k]))
        m -= k - 1
    if draw(st.booleans()):
        path.append((0,))
    return path


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=expressions(), pair=st.sampled_from(PAIRS), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_optimize_variants_agree(expr, pair, seed, data):
    """Every optimiser name, optimiser object and explicit path gives the reference's result (size 0 and 1 included)."""
    S, dt = pair
    lib, terms, out, shapes = expr
    rng = np.random.default_rng(seed)
    ops = [values(S, s, dt, rng) for s in shapes]
    want = reference(S, terms, out, ops, dt)
    n = len(ops)
    right_to_left = [(n - 2, n - 1)] + [(0, n - 2 - i) for i in range(n - 2)] if n > 1 else []
    paths = [right_to_left, [tuple(range(n))], ["einsum_path", *right_to_left]]
    paths += [data.draw(explicit_paths(n), label="path") for _ in range(2)]
    for optimize in OPTIMIZE_NAMES + [make() for make in OPTIMIZER_OBJECTS] + paths:
        check(S, sr.einsum(lib, *ops, semiring=S, optimize=optimize), want)


@pytest.mark.parametrize("optimize", OPTIMIZE_NAMES + OPTIMIZER_OBJECTS)
def test_a_summed_index_of_size_0_with_every_optimizer(optimize):
    """opt_einsum's dynamic programming finds no path for "i,i,j->j" with j of size 0 (RuntimeError there)."""
    optimize = optimize() if callable(optimize) else optimize
    for S in (sr.min_plus, sr.plus_times, sr.max_min):
        a, b = np.array([1.0, 2.0]), np.array([3.0, S.zero_value(np.float64)])
        check(S, S.einsum("i,i,j->j", a, b, np.empty(0), optimize=optimize), np.empty(0))
        check(S, S.einsum("i,i,j->", a, b, np.empty(0), optimize=optimize), np.array(S.zero_value(np.float64)))
        check(S, S.einsum("i,ij,jk->ik", a, np.empty((2, 0)), np.empty((0, 3)), optimize=optimize),
              np.full((2, 3), S.zero_value(np.float64)))


def test_an_empty_sum_is_the_zero_whatever_the_other_operands_hold():
    """The sum over an index of size 0 is the semiring zero even where another operand's sums overflow."""
    big = np.full((2, 3), 3e38, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = sr.plus_times.einsum("ab,c->", big, np.empty(0, np.float32))
    check(sr.plus_times, got, np.einsum("ab,c->", big, np.empty(0, np.float32)))
    assert got == 0.0


def test_a_search_that_finds_no_path_falls_back(monkeypatch):
    """A named optimiser that raises opt_einsum's RuntimeError: the greedy path, then left to right."""
    from opt_einsum import paths

    def gives_up(*args, **kwargs):
        raise RuntimeError("No contraction found for given `memory_limit`.")

    labels, output, shapes = [["i", "j"], ["j", "k"], ["k", "l"]], ["i", "l"], [(40, 3), (3, 30), (30, 2)]
    greedy = _plan(labels, output, shapes, "greedy")
    assert greedy == [(1, 2), (0, 1)]  # not left to right, so the two fallbacks differ
    ops = [np.ones(shape) for shape in shapes]
    monkeypatch.setitem(paths._PATH_OPTIONS, "dp", gives_up)
    assert _plan(labels, output, shapes, "dp") == greedy
    check(sr.plus_times, sr.plus_times.einsum("ij,jk,kl->il", *ops, optimize="dp"), np.full((40, 2), 90.0))
    monkeypatch.setitem(paths._PATH_OPTIONS, "greedy", gives_up)
    assert _plan(labels, output, shapes, "dp") == [(0, 1), (0, 1)]
    check(sr.plus_times, sr.plus_times.einsum("ij,jk,kl->il", *ops, optimize="dp"), np.full((40, 2), 90.0))


class _FixedPath(PathOptimizer):
    def __init__(self, path):
        self.path = path

    def __call__(self, inputs, output, size_dict, memory_limit=None):
        return self.path


class _GivesUp(PathOptimizer):
    def __call__(self, inputs, output, size_dict, memory_limit=None):
        raise RuntimeError("no path under my cost cap")


def test_optimizer_objects():
    ops = [np.ones((2, 3)), np.ones((3, 4)), np.ones((4, 2))]
    S = sr.plus_times
    check(S, S.einsum("ij,jk,kl", *ops, optimize=_FixedPath([(1, 2), (0, 1)])), np.full((2, 2), 12.0))
    check(S, S.einsum("ij,jk,kl", *ops, optimize=_FixedPath(((0, 1, 2),))), np.full((2, 2), 12.0))
    with pytest.raises(sr.SubscriptError, match=r"optimize=_FixedPath\(...\) returned an invalid path .*"
                                                r"does not name distinct operands among 3"):
        S.einsum("ij,jk,kl", *ops, optimize=_FixedPath([(0, 5), (0, 1)]))
    with pytest.raises(sr.SubscriptError, match=r"returned an invalid path .*leaves 2 operands"):
        S.einsum("ij,jk,kl", *ops, optimize=_FixedPath([(0, 1)]))
    with pytest.raises(sr.SubscriptError, match=r"returned an invalid path"):
        S.einsum("ij,jk,kl", *ops, optimize=_FixedPath(None))
    with pytest.raises(sr.SubscriptError, match=r"optimize=_GivesUp\(...\) found no contraction path: no path"):
        S.einsum("ij,jk,kl", *ops, optimize=_GivesUp())
    with pytest.raises(TypeError, match="optimize must be a str, an opt_einsum PathOptimizer"):
        S.einsum("ij,jk,kl", *ops, optimize=lambda *a: [(0, 1), (0, 1)])
    with pytest.raises(sr.SubscriptError, match=r"each step of a path is a tuple of operand positions"):
        S.einsum("ij,jk,kl", *ops, optimize=[(True, False), (0, 1)])
    # bad optimize values are errors even when nothing needs computing
    with pytest.raises(sr.SubscriptError, match="is not an opt_einsum optimizer"):
        S.einsum("i,i,i", *[np.zeros(0)] * 3, optimize="fastest")
    with pytest.raises(sr.SubscriptError, match="the path leaves 2 operands"):
        S.einsum("i,i,i", *[np.zeros(0)] * 3, optimize=[(0, 1)])


# --------------------------------------------------------------------------- extreme values

HUGE = {"float32": [2.0**100, 2.0**126, 2.0**127, 1.5 * 2.0**127],
        "float64": [2.0**900, 2.0**1022, 2.0**1023, 1.5 * 2.0**1023],
        "int32": [2**15, 2**30, 2**31 - 1], "int64": [2**31, 2**62, 2**63 - 1]}
#: Pairs whose extreme values have an order-independent answer: every contraction order
#: overflows (saturates) exactly when the exact value is out of range.
EXTREME_PAIRS = [(S, np.dtype(d)) for S, ds in [
    (sr.plus_times, ("float32", "float64", "int32", "int64")), (sr.min_plus, ("float32", "float64", "int32", "int64")),
    (sr.max_plus, ("float32", "int64")), (sr.max_times, ("float64", "int32")), (sr.min_times, ("float32", "int64")),
    (sr.max_min, ("float32", "int32")), (sr.min_max, ("float64",))] for d in ds]


def extreme_values(S, shape, dtype, rng):
    """Small and huge entries of one sign (so that partial results never exceed the whole), and the zero.

    plus_times and max_times over floats take entries >= 1 (an overflowed partial sum times 0
    would be NaN in one order and 0 in another); over integers also 0 (saturation times 0 is 0).
    """
    huge = HUGE[dtype.name]
    if S in (sr.max_min, sr.min_max):
        pool = [0, 1, -1] + huge + [-h for h in huge]
        pool += [np.inf, -np.inf] if dtype.kind == "f" else [np.iinfo(dtype).max, np.iinfo(dtype).min]
    elif S is sr.min_plus:
        pool = [0, -1, -2, -3] + [-h for h in huge] + [S.zero_value(dtype)]
    elif S in (sr.max_plus, sr.min_times):
        pool = ([0] if S is sr.max_plus else []) + [1, 2, 3] + huge + [S.zero_value(dtype)]
    else:  # plus_times, max_times
        pool = ([0] if dtype.kind == "i" else []) + [1, 2, 3] + huge
    return np.asarray(np.array(pool, dtype=dtype)[rng.integers(0, len(pool), shape)]).reshape(shape)


#: Each semiring's add and mul on Python numbers (object arrays).
EXACT_OPS = {"plus_times": (np.add, np.multiply), "min_plus": (np.minimum, np.add), "max_plus": (np.maximum, np.add),
             "max_times": (np.maximum, np.multiply), "min_times": (np.minimum, np.multiply),
             "max_min": (np.maximum, np.minimum), "min_max": (np.minimum, np.maximum)}


#: Infinity in the exact reference: an integer beyond every finite sum and product of the entries
#: (float infinities would not mix with integers above the float range).
INF = 10**4000


class _Exact:
    """A semiring on Python integers (``±INF`` for the infinities): ``reference`` computes exact values with it."""

    def __init__(self, S):
        add, mul = EXACT_OPS[S.name]
        self.add = lambda a, b: np.asarray(add(a, b), dtype=object)  # object ufuncs give Python scalars for 0-d
        self.mul = lambda a, b: np.asarray(mul(a, b), dtype=object)
        z = float(S.zero_value(np.float64))
        self.zero = int(np.sign(z)) * INF if np.isinf(z) else int(z)

    def zero_value(self, dtype):
        return self.zero


def to_exact(S, X):
    """``X`` as Python integers: infinities (and the integer sentinels that stand for the zero) as ``±INF``."""
    sentinel = S.zero_value(X.dtype) if X.dtype.kind == "i" and S.zero_value(X.dtype) != 0 else None
    if S in (sr.max_min, sr.min_max):
        sentinel = None  # no arithmetic: the sentinels are just the extreme values
    out = np.empty(X.shape, object)
    for idx, x in np.ndenumerate(X):
        if (X.dtype.kind == "f" and np.isinf(x)) or (sentinel is not None and x == sentinel):
            out[idx] = INF if x > 0 else -INF
        else:
            assert float(x).is_integer()
            out[idx] = int(x)
    return out


def from_exact(V, dtype):
    """The value of each exact entry in ``dtype`` (overflow: an infinity / saturation) and which are decided.

    Entries at ``INF / 2`` or beyond are the infinities (an infinity plus or times finite
    entries stays there).  Float entries within 0.1 % of the largest finite value are
    left out: rounding in the order of the plan decides them.
    """
    got, decided = np.empty(V.shape, dtype), np.ones(V.shape, bool)
    for idx, v in np.ndenumerate(V):
        if abs(v) >= INF // 2:
            got[idx] = (np.inf if v > 0 else -np.inf) if dtype.kind == "f" else \
                (np.iinfo(dtype).max if v > 0 else np.iinfo(dtype).min)
        elif dtype.kind == "i":
            got[idx] = min(max(v, int(np.iinfo(dtype).min)), int(np.iinfo(dtype).max))
        else:
            big = int(np.finfo(dtype).max)
            if 1000 * abs(v) >= 1001 * big:
                got[idx] = np.inf if v > 0 else -np.inf
            elif 1000 * abs(v) <= 999 * big:
                got[idx] = float(v)
            else:
                decided[idx] = False
    return got, decided


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=expressions(), pair=st.sampled_from(EXTREME_PAIRS), seed=st.integers(0, 2**31 - 1),
       optimize=st.sampled_from(OPTIMIZE_NAMES))
def test_extreme_values_match_the_exact_result(expr, pair, seed, optimize):
    """Overflow in intermediates is IEEE (an infinity) or saturation, never an error or a warning, in every order."""
    S, dt = pair
    lib, terms, out, shapes = expr
    rng = np.random.default_rng(seed)
    ops = [extreme_values(S, s, dt, rng) for s in shapes]
    want, decided = from_exact(reference(_Exact(S), terms, out, [to_exact(S, X) for X in ops], object), dt)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = S.einsum(lib, *ops, optimize=optimize)
    assert got.dtype == dt and got.shape == want.shape
    if dt.kind == "f":
        np.testing.assert_allclose(got[decided], want[decided], rtol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)


def test_overflow_in_a_pre_reduction_is_inf_as_in_numpy():
    a, B = np.ones(2, np.float32), np.full((2, 3), 3e38, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = sr.einsum("a,eb->a", a, B, semiring="plus_times")
    check(sr.plus_times, got, np.einsum("a,eb->a", a, B))
    check(sr.plus_times, got, np.full(2, np.inf, np.float32))


@pytest.mark.parametrize("optimize", OPTIMIZE_NAMES)
def test_the_zero_absorbs_an_overflowed_intermediate(optimize):
    """-inf + inf in min_plus (inf * 0 in max_times) is IEEE's NaN; the semiring zero absorbs it, as in the GEMMs."""
    f = np.float32
    big = f(3e38)
    cases = [(sr.min_plus, [-big, -big, f(np.inf)], f(np.inf)), (sr.max_plus, [big, big, f(-np.inf)], f(-np.inf)),
             (sr.max_times, [big, big, f(0)], f(0))]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for S, (a, b, z), want in cases:
            check(S, S.einsum(",,->", *[np.array(v, f) for v in (a, b, z)], optimize=optimize), np.array(want))
            # a dot product whose first term overflows and then meets the zero: the other term wins
            one = S.one_value(f)
            x, y, w = np.array([a, one], f), np.array([b, one], f), np.array([z, one], f)
            check(S, S.einsum("i,i,i->", x, y, w, optimize=optimize), np.array(one))
    check(sr.min_plus, sr.min_plus.einsum("i,i,i->", np.array([-big, 1], f), np.array([-big, 1], f),
                                          np.array([np.inf, 5], f), optimize=optimize), np.array(7, f))


@pytest.mark.parametrize("S,x,y", [
    (sr.plus_times, [3e38, -3e38], [3e38, 3e38]),  # inf + -inf = NaN inside
    (sr.min_plus, [-3e38, 0.0], [-3e38, np.inf]),  # -inf inside
    (sr.max_plus, [3e38, 0.0], [3e38, -np.inf]),  # +inf inside
    (sr.max_times, [3e38, 1.0], [3e38, 0.0]),  # +inf inside
])
def test_values_the_operands_may_not_hold_are_fine_inside(S, x, y):
    """An intermediate NaN or forbidden infinity (here the product of the first two operands) is not checked again."""
    x, y, c = np.array(x, np.float32), np.array(y, np.float32), np.array([1.0, 2.0], np.float32)
    want = {"plus_times": np.nan, "min_plus": -np.inf, "max_plus": np.inf, "max_times": np.inf}[S.name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for optimize in (False, [(0, 1), (0, 1)], "greedy"):
            got = S.einsum("a,a,c->c", x, y, c, optimize=optimize)
            check(S, got, np.full(2, want, np.float32))


# --------------------------------------------------------------------------- specific cases


def test_chain_equals_two_products():
    rng = np.random.default_rng(0)
    for S, dt in PAIRS:
        A, B, C = (values(S, s, dt, rng) for s in ((5, 7), (7, 3), (3, 6)))
        check(S, S.einsum("ij,jk,kl->il", A, B, C), S.matmul(S.matmul(A, B), C))
        check(S, S.einsum("ij,jk,kl->il", A, B, C, optimize=[(1, 2), (0, 1)]), S.matmul(A, S.matmul(B, C)))


def test_batch_and_batched_kernel():
    rng = np.random.default_rng(1)
    for S, dt in PAIRS:
        for nb, m, k, n in [(3, 4, 5, 6), (9, 20, 17, 33), (2, 1, 40, 1), (4, 3, 0, 2), (5, 70, 70, 70)]:
            A, B = values(S, (nb, m, k), dt, rng), values(S, (nb, k, n), dt, rng)
            want = np.stack([S.matmul(A[b], B[b]) for b in range(nb)]) if nb else None
            check(S, S.einsum("bij,bjk->bik", A, B), want)
            check(S, batched_matmul(S, A, B), want)
            # the batch index in other places, and a strided (transposed) operand
            check(S, S.einsum("jbk,ibj->bik", B.transpose(1, 0, 2), A.transpose(1, 0, 2)), want)


def test_trace_diagonal_reduction_outer_implicit():
    S = sr.min_plus
    A = np.array([[3.0, 1.0, np.inf], [0.0, 5.0, 2.0], [7.0, np.inf, -1.0]])
    check(S, S.einsum("ii->i", A), np.array([3.0, 5.0, -1.0]))
    check(S, S.einsum("ii", A), np.array(-1.0))
    check(S, S.einsum("ij->i", A), np.array([1.0, 0.0, -1.0]))
    check(S, S.einsum("ij->j", A), np.array([0.0, 1.0, -1.0]))
    check(S, S.einsum("ij->", A), np.array(-1.0))
    check(S, S.einsum("i,j->ij", A[0], A[1]), A[0][:, None] + A[1][None, :])
    check(S, S.einsum("i,j", A[0], A[1]), A[0][:, None] + A[1][None, :])
    check(S, S.einsum("ba", A), A.T)  # implicit output sorted: "ab"
    check(S, S.einsum("ij,jk", A, A), S.matmul(A, A))
    check(S, S.einsum("ij,kj", A, A), S.matmul(A, A.T))
    check(S, S.einsum("ij,ij->ij", A, A), A + A)
    X = np.arange(18.0).reshape(3, 3, 2)
    check(S, S.einsum("iij->ij", X), np.stack([X[i, i] for i in range(3)]))
    check(sr.plus_times, sr.plus_times.einsum("iij->j", X), np.einsum("iij->j", X))
    check(sr.lor_land, sr.lor_land.einsum("ij->i", np.array([[True, False], [False, False]])),
          np.array([True, False]))
    # a view, as numpy.einsum gives
    assert np.shares_memory(S.einsum("ii->i", A), A) and np.shares_memory(S.einsum("ij->ji", A), A)


def test_ellipsis():
    S = sr.max_plus
    rng = np.random.default_rng(2)
    A = values(S, (4, 1, 2, 3), np.dtype("float64"), rng)
    B = values(S, (5, 3, 2), np.dtype("float64"), rng)
    got = S.einsum("...ij,...jk->...ik", A, B)
    want = np.stack([np.stack([S.matmul(A[a, 0], B[b]) for b in range(5)]) for a in range(4)])
    check(S, got, want)
    check(S, S.einsum("...ij,...jk", A, B), want)
    check(S, S.einsum("i...->...", A[:, 0, 0]), A[:, 0, 0].max(axis=0))
    check(S, S.einsum("...ii->...i", B[:, :2, :2]), np.stack([np.diag(b) for b in B[:, :2, :2]]))


def test_empty_axes_give_the_zero():
    for S, dt in PAIRS:
        z = S.zero_value(dt)
        check(S, S.einsum("ij->i", np.empty((3, 0), dt)), np.full(3, z, dt))
        check(S, S.einsum("ij,jk->ik", np.empty((2, 0), dt), np.empty((0, 3), dt)), np.full((2, 3), z, dt))
        check(S, S.einsum("i,i->", np.empty(0, dt), np.empty(0, dt)), np.full((), z, dt))
        check(S, S.einsum("ij,jk->ik", np.empty((0, 2), dt), np.empty((2, 3), dt)), np.empty((0, 3), dt))


def test_integer_sums_saturate():
    big = np.int64(2**62)
    X = np.array([[big, big], [big, np.int64(2)]])
    got = sr.plus_times.einsum("ij->j", X)
    check(sr.plus_times, got, np.array([np.iinfo(np.int64).max, big + 2]))
    check(sr.plus_times, sr.plus_times.einsum("ij,jk->ik", X, np.ones((2, 1), np.int64)),
          sr.plus_times.matmul(X, np.ones((2, 1), np.int64)))
    Y = np.array([2**31 - 2, 1, 1], np.int32)
    check(sr.plus_times, sr.plus_times.einsum("i->", Y), np.array(2**31 - 1, np.int32))
    inf = sr.min_plus.zero_value(np.int32)
    check(sr.min_plus, sr.min_plus.einsum("i,i->", np.array([inf, 5], np.int32), np.array([-3, inf], np.int32)),
          np.array(inf, np.int32))


def test_scalars_and_single_operand():
    S = sr.min_plus
    a, b = np.array(2.0), np.array(3.0)
    check(S, S.einsum(",->", a, b), np.array(5.0))
    check(S, S.einsum("", a), a)
    X = np.arange(6.0).reshape(2, 3)
    assert S.einsum("ij", X) is X or np.shares_memory(S.einsum("ij", X), X)


def test_no_m_k_n_temporary():
    """A product of two 300 x 300 matrices must not allocate a 300^3 broadcast (216 MB in float64)."""
    rng = np.random.default_rng(3)
    A, B = rng.random((300, 300)), rng.random((300, 300))
    sr.einsum("ij,jk->ik", A[:4, :4], B[:4, :4])  # warm
    for expr in ("ij,jk->ik", "ij,kj->ki", "ij,jk->"):
        tracemalloc.start()
        sr.einsum(expr, A, B)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        # a tenth of the broadcast: room for the GEMM's per-thread packing buffers on any core count
        assert peak < 300**3 * 8 // 10, (expr, peak)


def test_parse_subscripts():
    assert parse_subscripts("ij,jk", [2, 2]) == ([["i", "j"], ["j", "k"]], ["i", "k"])
    assert parse_subscripts(" i j , j k -> k i ", [2, 2]) == ([["i", "j"], ["j", "k"]], ["k", "i"])
    assert parse_subscripts("...i,i->...", [3, 1]) == ([[".0", ".1", "i"], ["i"]], [".0", ".1"])
    assert parse_subscripts("i...,...", [2, 0]) == ([["i", ".0"], []], [".0", "i"])
    assert parse_subscripts("Ba", [2]) == ([["B", "a"]], ["B", "a"])


# --------------------------------------------------------------------------- errors

A2 = np.zeros((2, 3))


@pytest.mark.parametrize(
    "subscripts, operands, error, match",
    [
        ("ij,jk->ik", (A2,), sr.SubscriptError, r"2 input term\(s\) but 1 operand\(s\)"),
        ("ij->ik", (A2,), sr.SubscriptError, r"output index 'k' in '->ik' appears in no input"),
        ("ij->ii", (A2,), sr.SubscriptError, r"output index 'i' appears more than once"),
        ("ij->i->j", (A2,), sr.SubscriptError, r"'->' must appear at most once"),
        ("i-j", (A2,), sr.SubscriptError, r"'->' must appear at most once"),
        ("i1", (A2,), sr.SubscriptError, r"operand 0 'i1': invalid index character '1'"),
        ("i..j", (A2,), sr.SubscriptError, r"operand 0 'i..j': '.' may only appear as one ellipsis"),
        ("ij->i$", (A2,), sr.SubscriptError, r"invalid index character '\$'"),
        ("...->", (A2,), sr.SubscriptError, r"broadcast dimension\(s\) \('...'\) but the output '->' has no"),
        ("ijk", (A2,), sr.ShapeError, r"operand 0 has 2 dimension\(s\) but its subscript 'ijk' names 3"),
        ("i", (A2,), sr.ShapeError, r"operand 0 has 2 dimension\(s\) but its subscript 'i' names 1"),
        ("ij,jk", (A2, np.zeros((2, 2))), sr.ShapeError, r"operand 1: index 'j' has size 2, but size 3 in operand 0"),
        ("ii", (A2,), sr.ShapeError, r"operand 0: index 'i' repeats with different sizes 2 and 3"),
        ("...i,...i", (np.zeros((2, 3)), np.zeros((4, 3))), sr.ShapeError,
         r"operand 1: broadcast dimension 0 of '...' has size 4, but size 2 in operand 0"),
        ("", (), sr.SubscriptError, "at least one operand"),
        ("ij,jk", (A2, np.zeros((3, 2), np.float32)), sr.DTypeError, "operand 0 is float64, operand 1 is float32"),
        ("ij", (np.zeros((2, 2), np.int8),), sr.DTypeError, "int8 of operand 0"),
        ("i", (np.array([1.0, -np.inf]),), sr.InvalidEntryError, r"operand 0\[1\] is -inf"),
        ("i", (np.array([np.nan]),), sr.InvalidEntryError, r"operand 0\[0\] is NaN"),
    ],
)
def test_errors(subscripts, operands, error, match):
    with pytest.raises(error, match=match):
        sr.einsum(subscripts, *operands)
    assert issubclass(error, ValueError)


def test_type_and_optimize_errors():
    with pytest.raises(TypeError, match="subscripts must be a str, got list"):
        sr.einsum(["i"], np.zeros(2))
    with pytest.raises(TypeError, match="operand 1 must be a numpy or cupy ndarray, got list"):
        sr.einsum("i,i", np.zeros(2), [1.0, 2.0])
    with pytest.raises(TypeError, match="operand 0 must be a numpy or cupy ndarray, got float"):
        sr.einsum("", 1.0)
    with pytest.raises(TypeError, match="optimize must be"):
        sr.einsum("i,i,i", *[np.zeros(2)] * 3, optimize=3)
    with pytest.raises(sr.SubscriptError, match="optimize='fastest' is not an opt_einsum optimizer"):
        sr.einsum("i,i,i", *[np.zeros(2)] * 3, optimize="fastest")
    with pytest.raises(sr.SubscriptError, match=r"the path leaves 2 operands, not 1"):
        sr.einsum("i,i,i", *[np.zeros(2)] * 3, optimize=[(0, 1)])
    with pytest.raises(sr.SubscriptError, match=r"step \(0, 3\) does not name distinct operands among 3"):
        sr.einsum("i,i,i", *[np.zeros(2)] * 3, optimize=[(0, 3), (0, 1)])
    with pytest.raises(sr.SemiringError, match="unknown semiring 'min_min'"):
        sr.einsum("i", np.zeros(2), semiring="min_min")
    # numpy.einsum_path's form is accepted
    path = ["einsum_path", (1, 2), (0, 1)]
    ops = [np.ones((2, 3)), np.ones((3, 4)), np.ones((4, 2))]
    check(sr.plus_times, sr.plus_times.einsum("ij,jk,kl", *ops, optimize=path), np.full((2, 2), 12.0))


def test_methods_and_function_agree():
    X = np.array([[0.0, 4.0], [1.0, 0.0]])
    for name in ("min_plus", "max_min", "plus_times"):
        S = sr.get(name)
        check(S, sr.einsum("ij,jk", X, X, semiring=name), S.einsum("ij,jk", X, X))


def test_every_small_expression_of_two_matrices():
    """All 2-operand expressions over {i, j, k} with 2 indices each and each explicit output, on min_plus int32."""
    S, dt = sr.min_plus, np.dtype("int32")
    rng = np.random.default_rng(4)
    size = {"i": 2, "j": 3, "k": 1}
    for t0, t1 in itertools.product(itertools.product("ijk", repeat=2), repeat=2):
        t0, t1 = "".join(t0), "".join(t1)
        used = sorted(set(t0 + t1))
        A = values(S, tuple(size[c] for c in t0), dt, rng)
        B = values(S, tuple(size[c] for c in t1), dt, rng)
        for r in range(len(used) + 1):
            for out in itertools.permutations(used, r):
                out = "".join(out)
                check(S, S.einsum(f"{t0},{t1}->{out}", A, B), reference(S, [t0, t1], out, [A, B], dt))


# --------------------------------------------------------------------------- GPU


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs a CUDA GPU and CuPy")
def test_einsum_on_the_gpu_matches_the_cpu():
    import cupy as cp

    rng = np.random.default_rng(5)
    cases = [("ij,jk,kl->il", [(40, 50), (50, 30), (30, 20)]), ("bij,bjk->bik", [(6, 9, 7), (6, 7, 5)]),
             ("ii->i", [(5, 5)]), ("ij->i", [(4, 0)]), ("i,j->ij", [(3,), (4,)]), ("...ij,...jk", [(3, 1, 2, 4), (2, 4, 3)]),
             ("ij,ij->", [(7, 8), (7, 8)]), ("ijk,jkl->il", [(3, 4, 5), (4, 5, 6)])]
    for S, dt in PAIRS:
        for expr, shapes in cases:
            ops = [values(S, s, dt, rng) for s in shapes]
            want = S.einsum(expr, *ops)
            got = S.einsum(expr, *[cp.asarray(X) for X in ops])
            assert isinstance(got, cp.ndarray)
            check(S, got.get(), want)


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs a CUDA GPU and CuPy")
def test_extreme_values_on_the_gpu_match_the_exact_result():
    """Float overflow and integer saturation inside a contraction on CuPy operands, on every kind of step."""
    import cupy as cp

    rng = np.random.default_rng(6)
    cases = [("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]), ("i,i,i->", [(3,), (3,), (3,)]), (",,->", [(), (), ()]),
             ("ab,c->c", [(2, 3), (4,)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 3)]), ("i,j->ij", [(3,), (4,)]),
             ("ij->i", [(3, 5)]), ("ij,ij,jk->ik", [(40, 30), (40, 30), (30, 20)])]
    for S, dt in EXTREME_PAIRS:
        for expr, shapes in cases:
            for _ in range(3):
                ops = [extreme_values(S, s, dt, rng) for s in shapes]
                lhs, out = expr.split("->")
                want, decided = from_exact(reference(_Exact(S), lhs.split(","), out, [to_exact(S, X) for X in ops],
                                                     object), dt)
                got = S.einsum(expr, *[cp.asarray(X) for X in ops])
                assert isinstance(got, cp.ndarray) and got.dtype == dt
                got = got.get()
                if dt.kind == "f":
                    np.testing.assert_allclose(got[decided], want[decided], rtol=1e-5, err_msg=f"{S.name} {expr}")
                else:
                    np.testing.assert_array_equal(got, want, err_msg=f"{S.name} {expr}")

