"""The table of the built-in semiring families: the one place that says what each computes.

Integers and infinities.  Integer dtypes stand for ``+inf`` / ``-inf`` with
the sentinels ``iinfo.max`` / ``iinfo.min`` (:mod:`semiring.dtypes`).  In the
sums of ``min_plus`` and ``max_plus`` both stick: an infinity plus a finite
value is that infinity, and where the two meet the family's zero ("no path")
wins: ``+inf`` in ``min_plus``, ``-inf`` in ``max_plus``.  A finite sum that
would leave the range saturates at the sentinel (and so becomes an infinity
that sticks); nothing wraps.  Floats keep IEEE arithmetic; a float sum that
overflows is ``+-inf`` and sticks by itself, and ``inf + -inf`` (NaN) is
skipped by every kernel's ``min`` / ``max``, which is the same rule.  The
rule of each primitive is its :attr:`Primitive.rule` below.

>>> PRIMITIVES["plus_inf_absorbs"].rule.split(";")[1].strip()
'both infinities stick (integers: the sentinels): +inf absorbs everything, also -inf (no path wins), -inf absorbs every finite value'

Two tables live here, and every kernel is specialised from them:

:data:`PRIMITIVES`
    The binary operations the families are made of (``"min"``, ``"plus"``,
    ``"plus_inf_absorbs"``, GraphBLAS's ``"pair"`` / ``"second"`` / ``"first"``...),
    each with its exact rule: how integers saturate
    at the sentinels of :mod:`semiring.dtypes` and which infinity absorbs.  Each
    backend implements every primitive once: a Numba scalar function and a Numba
    SIMD-vector function in :mod:`semiring._cpu.scalar_ops` (built from the
    :mod:`semiring._cpu.simd` intrinsics), and a CUDA C expression in
    :mod:`semiring.cuda.ops` (functions of ``semiring/cuda/scalar_ops.cuh``).

:data:`FAMILIES`
    One :class:`Family` per built-in semiring: ``add`` and ``mul`` as primitive
    names, ``zero``, ``one``, the laws it satisfies, the values its entries may
    not take, its dtypes, what a diverging cycle is called in messages, and what
    it is used for.

What a family *can do* is derived from its parts, never from its name, as
python-graphblas's ``register_new`` derives a semiring's properties from its
monoid and binary operator: :attr:`Family.capabilities` (a
:class:`Capabilities`) reads the laws of the two primitives (``idempotent``,
``selective``, ``distributive``, whether ``one`` is an identity, whether the
closure is defined) and the fast paths they allow (``mul_is_plus``:
saturating sums, so the integer range checks apply; ``plain_sums``,
``packable``, ``has_last_hop``: the ``min`` / ``+`` shape of shortest paths;
``bitpacked``: Boolean ``or`` / ``and``).  Every kernel choice and fast path
above this module asks a capability.

What is derived from them:

* :attr:`Semiring.capabilities <semiring.algebra.Algebra.capabilities>` hands the
  family's :class:`Capabilities` to the kernels and to ``apsp``;
* :mod:`semiring.builtin` builds the :class:`~semiring.core.Semiring` objects
  (and the ``semiring.min_plus``... names) from :data:`FAMILIES`;
* :mod:`semiring._cpu.scalar_ops` builds ``OPS`` / ``VOPS`` (the Numba scalar and
  vector ``(add, mul)`` of each family and dtype) from the primitives' Numba
  functions;
* :mod:`semiring.cuda.ops` builds the CUDA ``SR_ADD`` / ``SR_MUL`` expressions;
* :attr:`Semiring.improving_cycle <semiring.algebra.Algebra.improving_cycle>` names
  the cycle that makes a closure diverge (``apsp`` reads it from there);
* :meth:`Semiring.exact_ufuncs <semiring.algebra.Algebra.exact_ufuncs>` says whether
  the NumPy ufuncs compute a family exactly in a dtype (else the library's own
  elementwise kernels run).

So a new built-in semiring is one :class:`Family` entry when its primitives
exist; a new primitive is one :class:`Primitive` entry plus one implementation
per backend (Numba scalar, Numba vector, CUDA), never one per family.

One decision stays outside the table on purpose: the bit-packed Boolean GEMM
(:mod:`semiring._cpu.boolean`, :mod:`semiring.cuda.boolean`) is a different
*kernel*, not a different expression.  :attr:`Capabilities.bitpacked` selects it
for every family whose ``add`` / ``mul`` are ``or`` / ``and`` on ``bool``.

>>> FAMILIES["min_plus"].add, FAMILIES["min_plus"].mul
('min', 'plus_inf_absorbs')
>>> PRIMITIVES[FAMILIES["max_times"].mul].symbol
'*'
>>> FAMILIES["min_plus"].capabilities.has_last_hop, FAMILIES["max_min"].capabilities.has_last_hop
(True, False)

This module imports only :mod:`semiring.dtypes`; the value type of a semiring
(:mod:`semiring.algebra`) sits on top of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .dtypes import BOOL_DTYPES, NUMERIC_DTYPES

if TYPE_CHECKING:
    from .array_types import DTypeLike

__all__ = [
    "Primitive",
    "Family",
    "Capabilities",
    "PRIMITIVES",
    "FAMILIES",
    "Keyed",
    "family_of",
    "improving_cycle",
    "exact_ufuncs",
    "bitpacked_boolean",
    "rst_table",
]

INF = float("inf")


@dataclass(frozen=True)
class Primitive:
    """A binary operation the families are built from, implemented once per backend.

    Besides its implementations, a primitive states its laws; the capabilities
    of every family that uses it are derived from them (:class:`Capabilities`).

    Parameters
    ----------
    name : str
        Key of the operation in every backend's table.
    symbol : str
        How the operation is written in tables (``"min"``, ``"+"``, ``"*"``...).
    ufunc : numpy.ufunc
        The NumPy ufunc of the generic path (``Semiring.add_ufunc`` / ``mul_ufunc``);
        a Python-level one (:func:`numpy.frompyfunc`) where NumPy has none.
    ufunc_exact : bool
        The ufunc computes exactly this operation on floats and bools, for every
        value the families using it allow.  Integers never count: their
        infinities are sentinels that only the library's kernels respect.
    rule : str
        The exact semantics: saturation of integers, which infinity absorbs.
    identity : float, bool or None
        The abstract value ``e`` with ``op(e, x) == op(x, e) == x`` for every
        value the families using it allow (``inf`` stands for the dtype's
        infinity or sentinel); ``None`` when there is none.
    idempotent, selective : bool
        ``op(a, a) == a``; ``op(a, b)`` is ``a`` or ``b``.
    picks : {"min", "max"} or None
        For a selective order: which end it keeps.
    sum : bool
        The operation adds its operands (integers: saturating, never wrapping).
    absorbs : float or None
        The infinity that absorbs every operand (``inf`` for ``+inf``), if any.
    distributes_over : frozenset of str
        The primitives ``add`` over which this operation, as a family's
        ``mul``, distributes on both sides (on the values the families allow:
        ``times`` over ``max`` needs the non-negative entries of ``max_times``).
    """

    name: str
    symbol: str
    ufunc: np.ufunc
    ufunc_exact: bool
    rule: str
    identity: Any = None
    idempotent: bool = False
    selective: bool = False
    picks: str | None = None
    sum: bool = False
    absorbs: float | None = None
    distributes_over: frozenset[str] = frozenset()


def second(a: Any, b: Any) -> Any:
    """GraphBLAS's SECOND on dense operands: ``b``, or ``+inf`` where ``a`` is ``+inf`` (missing)."""
    return a if a == INF else b


def first(a: Any, b: Any) -> Any:
    """GraphBLAS's FIRST on dense operands: ``a``, or ``+inf`` where ``b`` is ``+inf`` (missing)."""
    return b if b == INF else a


# NumPy has no ufunc for these: Python-level ones (object results) define them for the generic
# path; the families that use them always run the library's kernels (``ufunc_exact`` is False).
_second_ufunc = np.frompyfunc(second, 2, 1)
_first_ufunc = np.frompyfunc(first, 2, 1)

_LATTICE = frozenset({"min", "max"})
PRIMITIVES: dict[str, Primitive] = {
    p.name: p
    for p in (
        Primitive("min", "min", np.minimum, True, "a if a <= b else b", identity=INF, idempotent=True,
                  selective=True, picks="min", distributes_over=_LATTICE),
        Primitive("max", "max", np.maximum, True, "a if a >= b else b", identity=-INF, idempotent=True,
                  selective=True, picks="max", distributes_over=_LATTICE),
        Primitive("or", "or", np.logical_or, True, "a or b (bool)", identity=False, idempotent=True,
                  selective=True),
        Primitive("and", "and", np.logical_and, True, "a and b (bool)", identity=True, idempotent=True,
                  selective=True, distributes_over=frozenset({"or"})),
        Primitive("plus", "+", np.add, True,
                  "a + b; integer sums that leave the range saturate at the sentinels, never wrap",
                  identity=0, sum=True, distributes_over=_LATTICE),
        Primitive("plus_inf_absorbs", "+", np.add, True,
                  "a + b; both infinities stick (integers: the sentinels): +inf absorbs everything, also "
                  "-inf (no path wins), -inf absorbs every finite value; other integer sums saturate at the "
                  "sentinels, never wrap; floats: IEEE, and a NaN from inf + -inf is skipped by the add",
                  identity=0, sum=True, absorbs=INF, distributes_over=frozenset({"min"})),
        Primitive("plus_neginf_absorbs", "+", np.add, True,
                  "a + b; both infinities stick (integers: the sentinels): -inf absorbs everything, also "
                  "+inf (no path wins), +inf absorbs every finite value; other integer sums saturate at the "
                  "sentinels, never wrap; floats: IEEE, and a NaN from inf + -inf is skipped by the add",
                  identity=0, sum=True, absorbs=-INF, distributes_over=frozenset({"max"})),
        Primitive("times", "*", np.multiply, True,
                  "a * b; integer products that leave the range saturate at the sentinels, never wrap",
                  identity=1, distributes_over=frozenset({"plus", "max"})),
        Primitive("times_inf_absorbs", "*", np.multiply, False,
                  "a * b; +inf (integer: the max sentinel) absorbs, also against 0 (0 * inf = inf, where "
                  "IEEE gives NaN); other integer products saturate",
                  identity=1, absorbs=INF, distributes_over=frozenset({"min"})),
        # GraphBLAS's structural operators, read on dense operands: an operand equal to the zero
        # of the families that use them is a missing entry (as is an entry a sparse matrix does
        # not store), and gives that zero.  pair has no identity and distributes over nothing;
        # every value is a left identity of second (a right one of first), none a two-sided one.
        Primitive("pair", "pair", np.logical_and, False,
                  "1 where both operands are stored, else 0: an operand equal to 0 (the zero of plus) is a "
                  "missing entry, the value of a stored one is ignored (a stored 0 reads as missing)"),
        Primitive("second", "second", _second_ufunc, False,
                  "b where a is stored, else +inf: an operand equal to +inf (integers: the max sentinel; the "
                  "zero of min) is a missing entry and absorbs",
                  idempotent=True, selective=True, absorbs=INF, distributes_over=frozenset({"min"})),
        Primitive("first", "first", _first_ufunc, False,
                  "a where b is stored, else +inf: an operand equal to +inf (integers: the max sentinel; the "
                  "zero of min) is a missing entry and absorbs",
                  idempotent=True, selective=True, absorbs=INF, distributes_over=frozenset({"min"})),
    )
}


@dataclass(frozen=True)
class Capabilities:
    """What a semiring allows, derived from its parts: the laws the kernels rely on and the fast paths open to it.

    For a built-in family every field is read off its two primitives and its
    ``zero`` / ``one`` (:attr:`Family.capabilities`); a custom semiring states
    ``idempotent`` and ``selective`` itself, is taken to satisfy the semiring
    laws, and has none of the fast paths (:meth:`custom`).

    Parameters
    ----------
    idempotent, selective : bool
        ``a (+) a == a``; ``a (+) b`` is ``a`` or ``b`` (witnesses, predecessors).
    distributive : bool
        ``mul`` distributes over ``add`` on both sides: matrix products associate,
        so powers and closures may group them as they like.
    one_is_identity : bool
        ``one (x) a == a (x) one == a`` for every entry.
    closable : bool
        The closure ``I (+) A (+) A^2 (+) ...`` is defined and computed by ``apsp``:
        an idempotent, distributive semiring whose ``one`` is an identity.
    mul_is_plus : bool
        ``mul`` is a saturating sum: the range checks of :mod:`semiring.int_range`
        and the exact int64 closures of int32 input apply.
    mul_selective : bool
        ``a (x) b`` is ``a`` or ``b``: with a selective ``add``, every result is one
        of the input values.
    plain_sums : bool
        ``add`` keeps minima (identity ``+inf``, the zero) and ``mul`` is a sum that
        ``+inf`` absorbs: integer products may run on plain, fused add+min
        instructions when the range check passes (:mod:`semiring.int_range`), and
        ``+inf`` may stand in as a large finite value.
    packable : bool
        Products of small non-negative integers fit two 16-bit lanes of one
        ``min(a + b, c)`` DPX instruction: ``plain_sums`` with ``one == 0``.
    has_last_hop : bool
        Predecessors can be read off the finished distances (a last hop ``k`` with
        ``D[i, k] (x) W[k, j] == D[i, j]``, found by subtraction): ``plain_sums``
        with ``one == 0``.
    bitpacked : bool
        Boolean ``or`` / ``and`` on ``bool``: products may run on the bit-packed
        kernels (many ``k`` per word operation).

    Examples
    --------
    >>> c = FAMILIES["min_plus"].capabilities
    >>> c.closable, c.mul_is_plus, c.plain_sums, c.bitpacked
    (True, True, True, False)
    >>> Capabilities.custom(idempotent=True, selective=False).closable
    True
    """

    idempotent: bool
    selective: bool
    distributive: bool = True
    one_is_identity: bool = True
    closable: bool = False
    mul_is_plus: bool = False
    mul_selective: bool = False
    plain_sums: bool = False
    packable: bool = False
    has_last_hop: bool = False
    bitpacked: bool = False

    @classmethod
    def custom(cls, idempotent: bool, selective: bool) -> "Capabilities":
        """The capabilities of a custom semiring: its own laws, closable when idempotent, no fast path.

        >>> Capabilities.custom(idempotent=False, selective=False).closable
        False
        """
        return cls(idempotent=idempotent, selective=selective, closable=idempotent)

    @property
    def closure_obstacle(self) -> str | None:
        """Why the closure is not defined (``None`` when :attr:`closable`), as the end of a sentence.

        >>> print(FAMILIES["plus_times"].capabilities.closure_obstacle)
        its add is not idempotent, so I (+) A (+) A^2 (+) ... need not converge
        """
        if self.closable:
            return None
        if not self.idempotent:
            return "its add is not idempotent, so I (+) A (+) A^2 (+) ... need not converge"
        if not self.distributive:
            return "its mul does not distribute over its add, so the powers of a matrix depend on their grouping"
        return "its one is not an identity of its mul on both sides, so A (x) I is not A"


@dataclass(frozen=True)
class Family:
    """One built-in semiring: what it computes, in terms of :data:`PRIMITIVES`.

    Its laws and fast paths are not stated here but derived from the
    primitives: :attr:`idempotent`, :attr:`selective`, :attr:`capabilities`.

    Parameters
    ----------
    name : str
        The semiring's name (python-graphblas style) and its ``family`` key.
    add, mul : str
        Names of primitives in :data:`PRIMITIVES`.
    zero, one : float or bool
        Abstract identities (``inf`` becomes the dtype's infinity or sentinel).
    dtypes : tuple of numpy.dtype
        The dtypes the semiring accepts.
    doc : str
        What the semiring is used for (one line).
    forbidden : tuple of float
        Values float entries may not take.
    nonnegative : bool
        Entries must be ``>= 0``.
    improving_cycle : str or None
        What a cycle whose weight is better than ``one`` (it makes the closure
        diverge) is called in messages; ``None``: "cycle better than the identity".
    aliases : tuple of str
        Other names :func:`semiring.get` accepts.
    """

    name: str
    add: str
    mul: str
    zero: Any
    one: Any
    dtypes: tuple[np.dtype[Any], ...]
    doc: str
    forbidden: tuple[float, ...] = ()
    nonnegative: bool = False
    improving_cycle: str | None = None
    aliases: tuple[str, ...] = ()

    @property
    def idempotent(self) -> bool:
        """``a (+) a == a``: the ``add`` primitive is idempotent.

        >>> FAMILIES["min_plus"].idempotent, FAMILIES["plus_times"].idempotent
        (True, False)
        """
        return PRIMITIVES[self.add].idempotent

    @property
    def selective(self) -> bool:
        """``a (+) b`` is ``a`` or ``b``: the ``add`` primitive is selective.

        >>> FAMILIES["lor_land"].selective
        True
        """
        return PRIMITIVES[self.add].selective

    @cached_property
    def capabilities(self) -> Capabilities:
        """The laws and fast paths of this family, derived from its primitives, ``zero`` and ``one``.

        >>> FAMILIES["max_plus"].capabilities.mul_is_plus, FAMILIES["max_plus"].capabilities.plain_sums
        (True, False)
        """
        add, mul = PRIMITIVES[self.add], PRIMITIVES[self.mul]
        distributive = self.add in mul.distributes_over
        one_is_identity = mul.identity is not None and _same(mul.identity, self.one)
        plain = (add.picks == "min" and _same(add.identity, INF) and _same(self.zero, INF)
                 and mul.sum and mul.absorbs == INF)
        shortest = plain and _same(self.one, 0)
        return Capabilities(
            idempotent=add.idempotent,
            selective=add.selective,
            distributive=distributive,
            one_is_identity=one_is_identity,
            closable=add.idempotent and distributive and one_is_identity,
            mul_is_plus=mul.sum,
            mul_selective=mul.selective,
            plain_sums=plain,
            packable=shortest,
            has_last_hop=shortest,
            bitpacked=add.name == "or" and mul.name == "and" and self.dtypes == BOOL_DTYPES,
        )

    @property
    def cycle_name(self) -> str:
        """The head of the message about a diverging cycle.

        >>> FAMILIES["max_times"].cycle_name
        'cycle better than the identity (max_times)'
        """
        return self.improving_cycle or f"cycle better than the identity ({self.name})"

    @property
    def rules(self) -> str:
        """The saturation and absorbing rules of ``add`` and ``mul``, in words.

        >>> print(FAMILIES["max_min"].rules)
        add (max): a if a >= b else b
        mul (min): a if a <= b else b
        """
        return "\n".join(f"{role} ({p.symbol}): {p.rule}"
                         for role, p in (("add", PRIMITIVES[self.add]), ("mul", PRIMITIVES[self.mul])))


def _same(a: Any, b: Any) -> bool:
    """Equal abstract constants of one kind (``True`` is not ``1``, ``False`` is not ``0``)."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family("min_plus", "min", "plus_inf_absorbs", zero=INF, one=0, dtypes=NUMERIC_DTYPES, forbidden=(-INF,),
               improving_cycle="negative cycle", aliases=("tropical",), doc="shortest paths"),
        Family("max_plus", "max", "plus_neginf_absorbs", zero=-INF, one=0, dtypes=NUMERIC_DTYPES, forbidden=(INF,),
               improving_cycle="positive cycle (max_plus)", doc="longest paths in DAGs, scheduling"),
        Family("max_min", "max", "min", zero=-INF, one=INF, dtypes=NUMERIC_DTYPES, doc="widest (bottleneck) paths"),
        Family("min_max", "min", "max", zero=INF, one=-INF, dtypes=NUMERIC_DTYPES, doc="minimax paths"),
        Family("lor_land", "or", "and", zero=False, one=True, dtypes=BOOL_DTYPES,
               doc="reachability, transitive closure"),
        Family("plus_times", "plus", "times", zero=0, one=1, dtypes=NUMERIC_DTYPES, forbidden=(INF, -INF),
               doc="path counting, ordinary algebra"),
        Family("max_times", "max", "times", zero=0, one=1, dtypes=NUMERIC_DTYPES, nonnegative=True,
               forbidden=(INF,), doc="most reliable path, Viterbi"),
        # Entries in [0, +inf]: +inf (the zero) absorbs in mul, also against 0, so it annihilates.
        # A cycle with product < 1 makes the closure diverge (costs >= 1 never do).  Integer
        # products that saturate become +inf and then absorb like it (even against 0).
        Family("min_times", "min", "times_inf_absorbs", zero=INF, one=1, dtypes=NUMERIC_DTYPES, nonnegative=True,
               doc="least-product paths (multiplicative costs >= 1)"),
        Family("plus_pair", "plus", "pair", zero=0, one=1, dtypes=NUMERIC_DTYPES, forbidden=(INF, -INF),
               doc="counting walks of two arcs in unweighted graphs (common neighbours)"),
        Family("min_second", "min", "second", zero=INF, one=0, dtypes=NUMERIC_DTYPES,
               doc="BFS parents (mxv over the transpose, the frontier holding vertex ids)"),
    )
}


class Keyed(Protocol):
    """What the functions below read of a semiring: its name and its family key (``None``: custom)."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str | None: ...


def family_of(S: Keyed) -> Family | None:
    """The table entry of a built-in semiring, ``None`` for a custom one.

    >>> from semiring import max_min
    >>> family_of(max_min).doc
    'widest (bottleneck) paths'
    """
    return FAMILIES.get(S.family) if S.family is not None else None


def improving_cycle(S: Keyed) -> str:
    """What a cycle that makes the closure over ``S`` diverge is called in messages.

    >>> from semiring import min_plus
    >>> improving_cycle(min_plus)
    'negative cycle'
    """
    fam = family_of(S)
    return fam.cycle_name if fam is not None else f"cycle better than the identity ({S.name})"


def exact_ufuncs(S: Keyed, dtype: DTypeLike) -> bool:
    """Whether ``S.add_ufunc`` / ``S.mul_ufunc`` compute ``S``'s add and mul exactly on arrays of ``dtype``.

    Always for custom semirings (their ufuncs are their definition); for a
    built-in family never on integers (the sentinels), and on floats and bools
    when both primitives' ufuncs are exact (a primitive whose rule differs from
    IEEE arithmetic makes the library's own elementwise kernels run).

    >>> from semiring import min_plus
    >>> exact_ufuncs(min_plus, np.float32), exact_ufuncs(min_plus, np.int32)
    (True, False)
    """
    fam = family_of(S)
    if fam is None:
        return True
    if np.dtype(dtype).kind == "i":
        return False
    return PRIMITIVES[fam.add].ufunc_exact and PRIMITIVES[fam.mul].ufunc_exact


def bitpacked_boolean(S: Keyed) -> bool:
    """Whether ``S`` is a Boolean ``or`` / ``and`` family, whose products may run on the bit-packed kernels.

    This is a kernel choice (a different algorithm), not an expression; witness
    products never take it (the packed kernels do not record ``k``).

    >>> from semiring import lor_land, max_min
    >>> bitpacked_boolean(lor_land), bitpacked_boolean(max_min)
    (True, False)
    """
    fam = family_of(S)
    return fam is not None and fam.capabilities.bitpacked


def _abstract(v: Any) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float) and v in (INF, -INF):
        return "+inf" if v > 0 else "-inf"
    return str(v)


def rst_table() -> str:
    """The families as a reStructuredText table (the docstring of :mod:`semiring.builtin`).

    >>> print(rst_table().splitlines()[3])
    min_plus   min     +       +inf    0       shortest paths (alias ``tropical``)
    """
    rows = [("name", "add", "mul", "zero", "one", "used for")]
    for f in FAMILIES.values():
        used = f.doc + (f" (alias {', '.join(f'``{a}``' for a in f.aliases)})" if f.aliases else "")
        rows.append((f.name, PRIMITIVES[f.add].symbol, PRIMITIVES[f.mul].symbol, _abstract(f.zero),
                     _abstract(f.one), used))
    widths = [max(7, *(len(r[i]) for r in rows)) for i in range(5)]
    widths.append(max(len(r[5]) for r in rows))
    rule = " ".join("=" * w for w in widths)
    lines = [rule, " ".join(c.ljust(w) for c, w in zip(rows[0], widths)).rstrip(), rule]
    lines += [" ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows[1:]]
    lines.append(rule)
    return "\n".join(lines)
