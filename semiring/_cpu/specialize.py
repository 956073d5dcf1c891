"""Specialise a Numba kernel template to one semiring, as a real, cacheable file.

Numba's on-disk cache (``cache=True``) cannot key closures across processes, so
building kernels with a factory recompiles them in every new process (seconds
each).  Instead, a kernel *template* is an ordinary module whose scalar
operations are imported on marked lines::

    from .scalar_ops import min_ as add  # @ADD
    from .scalar_ops import plus_float as mul  # @MUL
    from .scalar_ops import min_v as vadd  # @VADD
    NR = 64  # @NR

:func:`specialize` writes a copy with those lines replaced (the semiring's
``add`` / ``mul``, its vector ``vadd`` / ``vmul`` where it has them, and the
constants for the dtype) into a cache folder and
imports it; Numba then caches its compiled kernels beside it, and the next
process loads them in milliseconds.  The file name includes a hash of the
source and of the modules whose code the kernels inline (:mod:`.scalar_ops`,
:mod:`.simd`, the modules of the ops), so editing any of them gives new files
and a fresh Numba cache.  Scalar functions that cannot be imported
by name (lambdas, closures, ``__main__``) get an in-memory module instead,
compiled once per process.

The cache folder is ``$SEMIRING_PATHS_CACHE`` if set, else
``~/.cache/semiring-paths/kernels`` (or a per-user temporary folder when the
home directory is not writable).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import tempfile
import threading
import types
from collections.abc import Callable
from pathlib import Path

__all__ = ["specialize", "cache_dir", "compile_once"]

_MODULES: dict[tuple, types.ModuleType] = {}
#: Held while a kernel module is built (:func:`specialize`) or a dispatcher compiled (:func:`compile_once`).
_COMPILE_LOCK = threading.RLock()
_MARK = re.compile(r"^.*#\s*@([A-Z_]+)\s*$")


def cache_dir() -> Path:
    """Folder holding the specialised kernel files (created if needed).

    >>> cache_dir().is_dir()
    True
    """
    env = os.environ.get("SEMIRING_PATHS_CACHE")
    candidates = [Path(env)] if env else []
    candidates += [Path.home() / ".cache" / "semiring-paths" / "kernels",
                   Path(tempfile.gettempdir()) / f"semiring-paths-kernels-{os.getuid()}"]
    for path in candidates:
        try:
            path.mkdir(parents=True, exist_ok=True)
            if os.access(path, os.W_OK):
                return path
        except OSError:
            continue
    raise OSError("no writable folder for compiled kernels; set SEMIRING_PATHS_CACHE")


def _import_path(fn: Callable) -> tuple[str, str] | None:
    py = getattr(fn, "py_func", fn)
    mod, qual = getattr(py, "__module__", None), getattr(py, "__qualname__", "")
    if not mod or mod == "__main__" or "<" in qual or "." in qual:
        return None
    module = sys.modules.get(mod)
    if module is None or getattr(module, qual, None) is not fn:
        return None
    return mod, qual


def _op_block(role: str, fn: Callable, arity: int) -> str:
    """Source lines that bind ``role`` (``add``/``mul``) to ``fn`` in the generated module."""
    where = _import_path(fn)
    if where is None:
        return f"{role} = __injected_{role}__\n" if arity == 4 else (
            f"@njit(inline='always')\ndef {role}(a, b, lo, hi):\n    return __injected_{role}__(a, b)\n"
        )
    mod, qual = where
    if arity == 4:
        return f"from {mod} import {qual} as {role}\n"
    return (
        f"from {mod} import {qual} as _{role}_2\n\n\n@njit(inline='always')\n"
        f"def {role}(a, b, lo, hi):\n    return _{role}_2(a, b)\n"
    )


# Modules whose code is compiled into every kernel (inlined scalar / vector ops, SIMD intrinsics).
_DEPENDENCIES = ("semiring._cpu.scalar_ops", "semiring._cpu.simd")


def _dependency_stamp(modules: set[str]) -> str:
    """A hash of the source files of ``modules``.

    Numba's disk cache checks only the kernel file's own timestamp, not the
    code it inlines from other modules; writing this stamp into the kernel
    source gives it a new file name (and a fresh cache) whenever one changes.
    """
    h = hashlib.sha1()
    for name in sorted(modules):
        try:
            module = sys.modules.get(name) or importlib.import_module(name)
        except ImportError:
            continue
        path = getattr(module, "__file__", None)
        if path and os.path.exists(path):
            h.update(name.encode() + Path(path).read_bytes())
    return h.hexdigest()[:16]


def _render(template: str, ops: dict[str, tuple[Callable, int]], consts: dict[str, int]) -> tuple[str, bool]:
    spec = importlib.util.find_spec(template)
    if spec is None or spec.origin is None:
        raise ImportError(f"kernel template {template} not found")
    package = template.rpartition(".")[0]
    out, importable = [], True
    deps = set(_DEPENDENCIES)
    for line in Path(spec.origin).read_text().splitlines(keepends=True):
        m = _MARK.match(line.rstrip("\n"))
        if m and m.group(1).lower() in ops:
            fn, arity = ops[m.group(1).lower()]
            where = _import_path(fn)
            importable &= where is not None
            if where is not None:
                deps.add(where[0])
            out.append(_op_block(m.group(1).lower(), fn, arity))
        elif m and m.group(1) == "GENERATED":
            out.append(importlib.import_module(template).generated_source(consts) + "\n")
        elif m and m.group(1) in consts:
            out.append(f"{m.group(1)} = {int(consts[m.group(1)])}\n")
        else:
            out.append(re.sub(r"^from \.", f"from {package}.", line))
    out.insert(0, f"# generated by semiring._cpu.specialize; dependencies {_dependency_stamp(deps)}\n")
    return "".join(out), importable


def specialize(template: str, ops: dict[str, tuple[Callable, int]], consts: dict[str, int] | None = None):
    """Return the module ``template`` specialised to ``ops`` and ``consts``.

    Parameters
    ----------
    template : str
        Dotted name of the template module (e.g. ``"semiring._cpu.gemm_template"``).
    ops : dict
        ``{"add": (fn, arity), "mul": (fn, arity)}``; ``arity`` is 4 for the
        library's ``f(a, b, lo, hi)`` scalar functions and 2 for a custom
        semiring's ``f(a, b)``.  A key ``role`` replaces the line marked
        ``# @ROLE`` (e.g. ``"vadd"`` for ``# @VADD``); keys without a marked
        line in the template are ignored.
    consts : dict, optional
        Integer constants for lines marked ``# @NAME``.

    A line marked ``# @GENERATED`` is replaced by the text of the template's
    ``generated_source(consts)`` (code that must be written out, such as the
    GEMM template's unrolled micro-kernels, kept as one description there).

    >>> from semiring._cpu.scalar_ops import ops_for
    >>> add, mul = ops_for("max_plus", "f")
    >>> mod = specialize("semiring._cpu.gemm_template", {"add": (add, 4), "mul": (mul, 4)}, {"NR": 32})
    >>> mod.NR
    32
    """
    consts = dict(consts or {})
    key = (template, tuple((k, v[0], v[1]) for k, v in sorted(ops.items())), tuple(sorted(consts.items())))
    module = _MODULES.get(key)
    if module is not None:
        return module
    # Built once per process: threads asking at once for the same kernels get the one module
    # (two builds would write the same file and compile everything twice).
    with _COMPILE_LOCK:
        module = _MODULES.get(key)
        if module is None:
            module = _MODULES[key] = _build(template, ops, consts)
    return module


def _build(template: str, ops: dict[str, tuple[Callable, int]], consts: dict[str, int]) -> types.ModuleType:
    """The module of :func:`specialize`, written (if needed) and imported."""
    source, importable = _render(template, ops, consts)
    digest = hashlib.sha1(source.encode()).hexdigest()[:16]
    stem = f"{template.rpartition('.')[2]}__{digest}"
    name = f"_semiring_paths_kernels.{stem}"
    if importable:
        path = cache_dir() / f"{stem}.py"
        if not path.exists() or path.read_text() != source:
            tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_text(source)
            os.replace(tmp, path)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    else:
        module = types.ModuleType(name)
        for role, (fn, _) in ops.items():
            module.__dict__[f"__injected_{role}__"] = fn
        exec(compile(source.replace("cache=True", "cache=False"), f"<{name}>", "exec"), module.__dict__)
    return module


def compile_once(dispatcher, argtypes: tuple):
    """Compile ``dispatcher`` for ``argtypes`` (once) and forbid implicit specialisations.

    Numba compiles a separate machine-code version for every combination of
    array layouts it sees (C-contiguous, Fortran, strided views...).  Kernels
    that accept any strides gain nothing from that and pay seconds per extra
    compile, so each is compiled for ``'A'`` (any-layout) arrays only; calls
    with contiguous arrays then convert to that one version for free.

    >>> import numpy as np
    >>> from numba import njit, types
    >>> f = njit(lambda x: x.sum())
    >>> g = compile_once(f, (types.Array(types.float64, 1, "A"),))
    >>> float(g(np.ones(3)))
    3.0
    """
    key = tuple(argtypes)
    if key in dispatcher.__dict__.get("_semiring_paths_sigs", ()):
        return dispatcher
    with _COMPILE_LOCK:  # threads (a Dask worker's) must not re-enable and disable compilation under each other
        sigs = dispatcher.__dict__.setdefault("_semiring_paths_sigs", set())
        if key not in sigs:
            dispatcher._can_compile = True
            dispatcher.compile(key)
            dispatcher.disable_compile()
            sigs.add(key)
    return dispatcher
