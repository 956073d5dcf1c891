"""The family table (semiring.families) against every backend that is derived from it.

* every family's ``add`` / ``mul`` name primitives that every backend implements
  (Numba scalar for each dtype kind, Numba vector for the numeric dtypes, a CUDA
  expression for every dtype), and the CUDA functions they call exist in
  ``scalar_ops.cuh``;
* the Semiring objects, OPS / VOPS and the CUDA specialisations of the families
  that existed before the table are exactly what they were (same Numba functions,
  same CUDA strings), so their kernels and speed are unchanged.

Runs without a GPU: ``semiring/cuda/ops.py`` needs only NumPy and is loaded on its own.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import semiring as sr
from semiring._cpu import scalar_ops
from semiring.families import FAMILIES, PRIMITIVES, bitpacked_boolean, exact_ufuncs, rst_table

CUDA_DIR = Path(sr.__file__).parent / "cuda"


def _cuda_ops():
    """``semiring.cuda.ops`` without the CuPy-importing package ``__init__``."""
    if "semiring.cuda.ops" in sys.modules:
        return sys.modules["semiring.cuda.ops"]
    if "semiring.cuda" not in sys.modules:
        pkg = types.ModuleType("semiring.cuda")
        pkg.__path__ = [str(CUDA_DIR)]
        sys.modules["semiring.cuda"] = pkg
    spec = importlib.util.spec_from_file_location("semiring.cuda.ops", CUDA_DIR / "ops.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["semiring.cuda.ops"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def cuda_ops():
    saved = {k: sys.modules.get(k) for k in ("semiring.cuda", "semiring.cuda.ops")}
    try:
        yield _cuda_ops()
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


FAMILY_DTYPES = [(name, dt) for name, f in FAMILIES.items() for dt in f.dtypes]
_CHAR = {"float32": "f", "float64": "d", "int32": "i", "int64": "l"}


def test_every_family_names_known_primitives():
    for f in FAMILIES.values():
        assert f.add in PRIMITIVES and f.mul in PRIMITIVES, f.name
        assert f.dtypes and all(isinstance(d, np.dtype) for d in f.dtypes)
        assert not (f.selective and not f.idempotent)
        assert f.doc and f.cycle_name


def test_every_primitive_is_implemented_by_every_backend(cuda_ops):
    for table in (scalar_ops.SCALAR, scalar_ops.VECTOR, cuda_ops.EXPRESSIONS):
        assert {p for p, _ in table} <= set(PRIMITIVES)
    for name in PRIMITIVES:
        kinds = {k for p, k in scalar_ops.SCALAR if p == name}
        assert kinds, name
        for k in kinds:
            assert (name, k) in cuda_ops.EXPRESSIONS, (name, k)
            if k in "fi":
                assert (name, k) in scalar_ops.VECTOR, (name, k)


@pytest.mark.parametrize("name,dt", FAMILY_DTYPES, ids=lambda x: str(x))
def test_every_backend_has_the_primitives(name, dt, cuda_ops):
    f = FAMILIES[name]
    for prim in (f.add, f.mul):
        assert (prim, dt.kind) in scalar_ops.SCALAR, (prim, dt.kind)
        if dt.kind in "fi":
            assert (prim, dt.kind) in scalar_ops.VECTOR, (prim, dt.kind)
        assert cuda_ops.expression(prim, dt) is not None, (prim, dt)
    assert scalar_ops.OPS[(name, dt.kind)] == (scalar_ops.SCALAR[(f.add, dt.kind)], scalar_ops.SCALAR[(f.mul, dt.kind)])
    if dt.kind in "fi":
        assert scalar_ops.VOPS[(name, _CHAR[dt.name])] == (scalar_ops.VECTOR[(f.add, dt.kind)],
                                                          scalar_ops.VECTOR[(f.mul, dt.kind)])
    else:
        assert scalar_ops.vector_ops_for(name, dt) is None
    spec = cuda_ops.spec_for(sr.BUILTIN[name], dt)
    assert spec is not None
    assert spec.add == cuda_ops.expression(f.add, dt) and spec.mul == cuda_ops.expression(f.mul, dt)


def test_cuda_expressions_call_functions_of_scalar_ops_cuh(cuda_ops):
    header = (CUDA_DIR / "scalar_ops.cuh").read_text()
    defined = set(re.findall(r"\b(sr_\w+)\s*\(", header))
    for (prim, kind), expr in cuda_ops.EXPRESSIONS.items():  # every primitive, used by a family or not
        for fn in re.findall(r"\b(sr_\w+)\s*\(", expr):
            assert fn in defined, (prim, kind, fn)
    for name, dt in FAMILY_DTYPES:
        f = FAMILIES[name]
        for prim in (f.add, f.mul):
            for fn in re.findall(r"\b(sr_\w+)\s*\(", cuda_ops.expression(prim, dt)):
                assert fn in defined, (name, dt, fn)


def test_builtin_semirings_are_the_table():
    for name, f in FAMILIES.items():
        S = sr.BUILTIN[name]
        assert getattr(sr, name) is S and S.name == name and S.family == name
        assert S.add_ufunc is PRIMITIVES[f.add].ufunc and S.mul_ufunc is PRIMITIVES[f.mul].ufunc
        assert (S.zero, S.one, S.idempotent, S.selective, S.nonnegative) == (
            f.zero, f.one, f.idempotent, f.selective, f.nonnegative)
        assert S.dtypes == f.dtypes and S.forbidden == f.forbidden
        for alias in f.aliases:
            assert sr.BUILTIN[alias] is S and getattr(sr, alias) is S
        assert name in sr.__all__ and name in rst_table()


# -- the families that existed before the table: their kernels must be exactly what they were ----------

# (family, dtype kind) -> Numba (add, mul) function names.
OLD_OPS = {
    ("min_plus", "f"): ("min_", "plus_float"), ("min_plus", "i"): ("min_", "_plus_minplus_int"),
    ("max_plus", "f"): ("_max", "plus_float"), ("max_plus", "i"): ("_max", "_plus_maxplus_int"),
    ("max_min", "f"): ("_max", "min_"), ("max_min", "i"): ("_max", "min_"),
    ("min_max", "f"): ("min_", "_max"), ("min_max", "i"): ("min_", "_max"),
    ("plus_times", "f"): ("plus_float", "_times_float"), ("plus_times", "i"): ("_sat_sum", "_times_int"),
    ("max_times", "f"): ("_max", "_times_float"), ("max_times", "i"): ("_max", "_times_int"),
    ("lor_land", "b"): ("_or", "_and"),
}
# (family, kind) -> Numba vector (vadd, vmul) names, for both widths of the kind.
OLD_VOPS = {
    ("min_plus", "f"): ("min_v", "plus_float_v"), ("min_plus", "i"): ("min_v", "_plus_minplus_int_v"),
    ("max_plus", "f"): ("_max_v", "plus_float_v"), ("max_plus", "i"): ("_max_v", "_plus_maxplus_int_v"),
    ("max_min", "f"): ("_max_v", "min_v"), ("max_min", "i"): ("_max_v", "min_v"),
    ("min_max", "f"): ("min_v", "_max_v"), ("min_max", "i"): ("min_v", "_max_v"),
    ("plus_times", "f"): ("plus_float_v", "_times_float_v"), ("plus_times", "i"): ("_sat_sum_v", "_times_int_v"),
    ("max_times", "f"): ("_max_v", "_times_float_v"), ("max_times", "i"): ("_max_v", "_times_int_v"),
}
# (family, dtype) -> CUDA (add, mul) expressions.
_F4, _F8 = {"mn": "fminf", "mx": "fmaxf"}, {"mn": "sr_min", "mx": "sr_max"}
_OLD_FLOAT = {
    "min_plus": ("{mn}(a, b)", "(a + b)"), "max_plus": ("{mx}(a, b)", "(a + b)"),
    "max_min": ("{mx}(a, b)", "{mn}(a, b)"), "min_max": ("{mn}(a, b)", "{mx}(a, b)"),
    "plus_times": ("(a + b)", "(a * b)"), "max_times": ("{mx}(a, b)", "(a * b)"),
}
_OLD_INT = {
    "min_plus": ("sr_min(a, b)", "sr_minplus_mul_{w}(a, b)"), "max_plus": ("sr_max(a, b)", "sr_maxplus_mul_{w}(a, b)"),
    "max_min": ("sr_max(a, b)", "sr_min(a, b)"), "min_max": ("sr_min(a, b)", "sr_max(a, b)"),
    "plus_times": ("sr_sat_add_{w}(a, b)", "sr_sat_mul_{w}(a, b)"), "max_times": ("sr_max(a, b)", "sr_sat_mul_{w}(a, b)"),
}
OLD_SPECS = {("lor_land", "bool"): ("(a | b)", "(a & b)")}
for _fam in _OLD_FLOAT:
    OLD_SPECS[(_fam, "float32")] = tuple(e.format(**_F4) for e in _OLD_FLOAT[_fam])
    OLD_SPECS[(_fam, "float64")] = tuple(e.format(**_F8) for e in _OLD_FLOAT[_fam])
    OLD_SPECS[(_fam, "int32")] = tuple(e.format(w="i32") for e in _OLD_INT[_fam])
    OLD_SPECS[(_fam, "int64")] = tuple(e.format(w="i64") for e in _OLD_INT[_fam])


def test_existing_families_keep_their_numba_functions():
    for (fam, kind), names in OLD_OPS.items():
        assert tuple(f.__name__ for f in scalar_ops.ops_for(fam, kind)) == names, (fam, kind)
    for (fam, kind), names in OLD_VOPS.items():
        for dt in ((np.float32, np.float64) if kind == "f" else (np.int32, np.int64)):
            assert tuple(f.__name__ for f in scalar_ops.vector_ops_for(fam, dt)) == names, (fam, dt)
    assert scalar_ops.vector_ops_for("lor_land", np.bool_) is None


def test_existing_families_keep_their_cuda_expressions(cuda_ops):
    for (fam, dt), (add, mul) in OLD_SPECS.items():
        for S in {sr.BUILTIN[fam], sr.tropical if fam == "min_plus" else sr.BUILTIN[fam]}:
            spec = cuda_ops.spec_for(S, np.dtype(dt))
            assert (spec.add, spec.mul) == (add, mul), (fam, dt)
            assert spec.ctype == cuda_ops.ctype_of(dt) and spec.dtype == np.dtype(dt).str
            assert spec.zero == cuda_ops.literal(S.zero_value(dt), dt)


def test_kernel_choices_and_routing_from_the_table():
    assert bitpacked_boolean(sr.lor_land)
    assert not any(bitpacked_boolean(S) for n, S in sr.BUILTIN.items() if n != "lor_land")
    custom = sr.Semiring("or_and_custom", np.logical_or, np.logical_and, zero=False, one=True, dtypes=("bool",))
    assert not bitpacked_boolean(custom) and exact_ufuncs(custom, np.bool_)
    for name in ("min_plus", "max_plus", "max_min", "min_max", "plus_times", "max_times"):
        S = sr.BUILTIN[name]
        assert S.exact_ufuncs(np.float32) and S.exact_ufuncs(np.float64)
        assert not S.exact_ufuncs(np.int32) and not S.exact_ufuncs(np.int64)
    assert sr.lor_land.exact_ufuncs(np.bool_)


def test_improving_cycle_names():
    assert sr.min_plus.improving_cycle == "negative cycle"
    assert sr.max_plus.improving_cycle == "positive cycle (max_plus)"
    assert sr.max_times.improving_cycle == "cycle better than the identity (max_times)"
    custom = sr.Semiring("my_sr", np.minimum, np.add, zero=np.inf, one=0.0, idempotent=True, selective=True)
    assert custom.improving_cycle == "cycle better than the identity (my_sr)"


# -- capabilities: derived from the parts, asked by every fast path -------------------------------

# What each fast path applied to before the capabilities existed (they named the families).
OLD_FAST_PATHS = {
    "mul_is_plus": {"min_plus", "max_plus"},  # apsp.paths.exact_integers.ADDITIVE_FAMILIES
    "plain_sums": {"min_plus"},  # semiring.int_range.PLAIN_FAMILIES, PLAIN_OPS, the GPU plain specs
    "packable": {"min_plus"},  # apsp.cuda.packed_closure
    "has_last_hop": {"min_plus"},  # apsp.paths.last_hop, apsp.cuda.last_hop
    "bitpacked": {"lor_land"},  # bitpacked_boolean
}


@pytest.mark.parametrize("capability", sorted(OLD_FAST_PATHS))
def test_fast_paths_apply_to_the_families_they_applied_to(capability):
    old = {"min_plus", "max_plus", "max_min", "min_max", "lor_land", "plus_times", "max_times", "min_times"}
    have = {n for n, f in FAMILIES.items() if getattr(f.capabilities, capability)}
    assert have & old == OLD_FAST_PATHS[capability]


def test_capabilities_follow_from_the_primitives():
    for f in FAMILIES.values():
        c, add, mul = f.capabilities, PRIMITIVES[f.add], PRIMITIVES[f.mul]
        assert (c.idempotent, c.selective) == (f.idempotent, f.selective) == (add.idempotent, add.selective)
        assert c.closable == (c.idempotent and c.distributive and c.one_is_identity)
        assert c.mul_is_plus == mul.sum and c.mul_selective == mul.selective
        assert c.packable <= c.plain_sums and c.has_last_hop <= c.plain_sums
        if c.plain_sums:
            assert add.picks == "min" and f.zero == float("inf") and mul.absorbs == f.zero
        if c.one_is_identity:
            assert mul.identity == f.one
        # the zero is the identity of add (max_times: on its non-negative entries, where 0 is the least)
        assert add.identity == f.zero or (f.nonnegative and f.zero == 0 and add.picks == "max")
    assert sr.plus_times.closure_obstacle().startswith("the closure over plus_times is not computed here: its add")
    assert sr.min_plus.closure_obstacle() is None


def test_semiring_objects_carry_their_family_capabilities():
    for name, f in FAMILIES.items():
        assert sr.BUILTIN[name].capabilities is f.capabilities
        assert sr.BUILTIN[name].table_entry is f
    custom = sr.Semiring("my_min_plus", np.minimum, np.add, zero=np.inf, one=0.0, idempotent=True, selective=True)
    c = custom.capabilities
    assert c.closable and c.selective and not (c.plain_sums or c.has_last_hop or c.packable or c.mul_is_plus)
    assert not sr.Semiring("my_plus", np.add, np.multiply, zero=0, one=1).capabilities.closable


def _family_names_compared(path: Path) -> list[str]:
    """``"file:line name"`` for each family name (or alias) in a comparison or a dict key of ``path``."""
    names = set(FAMILIES) | {a for f in FAMILIES.values() for a in f.aliases}
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            parts = [k for k in node.keys if k is not None]
        else:
            continue
        for part in parts:
            for sub in ast.walk(part):
                if isinstance(sub, ast.Constant) and sub.value in names:
                    found.append(f"{path.as_posix()}:{sub.lineno} {sub.value}")
    return found


#: Comparisons of a family name still to be replaced by a capability (the planner asks
#: ``mul_is_plus`` at its line with "min_plus", "max_plus", and whether add and mul are both selective).
PENDING: tuple[str, ...] = ()


def test_no_family_name_is_compared_outside_the_table():
    root = Path(sr.__file__).resolve().parents[1]
    found = []
    for pkg in ("semiring", "apsp", "graphs"):
        for path in sorted((root / pkg).rglob("*.py")):
            if path.relative_to(root).as_posix() in ("semiring/families.py", *PENDING):
                continue
            found += [x.replace(f"{root.as_posix()}/", "") for x in _family_names_compared(path)]
    assert found == []
