"""Sphinx configuration of the semiring-paths documentation site.

Build: ``python -m sphinx -W -b html docs docs/_build/html`` from the repository root
(``pip install -e ".[docs]"`` first).  These sources are made here at build time, never
copied by hand into the repository (they are git-ignored):

* ``api/<package>.rst``: one page per public package listing every name of its
  ``__all__``; autosummary then writes one stub per name under ``api/generated/`` (a stub
  whose name left ``__all__`` is removed);
* ``gallery/<notebook>.ipynb``: the notebooks of ``notebooks/``, rendered by myst-nb
  from their saved outputs (never executed here: ``notebooks/run_notebooks.py`` runs
  and stamps them), and ``gallery/_cards.md`` with ``gallery/_thumbs/``: the gallery's
  cards (title, first paragraph, first plot of each notebook);
* the intersphinx inventories of NumPy, SciPy, NetworkX, CuPy and Dask, fetched with
  a short timeout into ``docs/_intersphinx/`` and used from there; a project whose
  inventory cannot be had (no network) is left out of the links, so the build never
  fails for want of a network.

Each generated file is rewritten only when its content changes, so a rebuild is
incremental.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # the working tree's packages, before any installed copy

import semiring  # noqa: E402

# -- project -----------------------------------------------------------------------------

project = "semiring-paths"
author = "the semiring-paths developers"
copyright = "the semiring-paths developers"  # noqa: A001
release = semiring.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.extlinks",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "_intersphinx", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"

# -- the public packages: one API page per package, one stub per name of __all__ --------

#: the modules whose ``__all__`` is the public API, in the order of the reference page
API_MODULES = ("semiring", "apsp", "graphs", "graphs.csgraph")

_KIND_TITLES = {
    "class": "Classes",
    "function": "Functions",
    "data": "Objects and constants",
    "module": "Modules",
    "exception": "Exceptions",
}


def _kind(obj: object) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    return "function" if callable(obj) else "data"


def _write_if_changed(path: Path, text: str | bytes) -> None:
    data = text.encode() if isinstance(text, str) else text
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def api_page(modname: str) -> str:
    """The reST of one package's reference page: its docstring's summary and its names by kind."""
    module = importlib.import_module(modname)
    groups: dict[str, list[str]] = {kind: [] for kind in _KIND_TITLES}
    for name in module.__all__:
        groups[_kind(getattr(module, name))].append(name)
    title = f"``{modname}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {modname}", "   :no-members:", ""]
    lines += [f".. currentmodule:: {modname}", ""]
    for kind, names in groups.items():
        if not names:
            continue
        heading = _KIND_TITLES[kind]
        lines += [heading, "-" * len(heading), "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in names]
        lines.append("")
    return "\n".join(lines)


def class_aliases() -> dict[str, str]:
    """Exported names of a class already exported under an earlier name: ``{alias: first name}``.

    ``graphs.NegativeCycleError`` is ``apsp.NegativeCycleError``: documenting the class twice
    would describe its canonical name (``apsp.errors.NegativeCycleError``) twice, so the
    alias's page (templates ``class.rst`` and ``base.rst``) points to the first one.
    """
    first: dict[int, str] = {}
    aliases: dict[str, str] = {}
    for modname in API_MODULES:
        module = importlib.import_module(modname)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                fullname = f"{modname}.{name}"
                aliases.update({fullname: first[id(obj)]} if id(obj) in first else {})
                first.setdefault(id(obj), fullname)
    return aliases


for _mod in API_MODULES:
    _write_if_changed(DOCS / "api" / f"{_mod}.rst", api_page(_mod))
# a stub left from a name that is no longer public would be a page outside every toctree (a warning)
_public = {f"{m}.{name}" for m in API_MODULES for name in importlib.import_module(m).__all__}
for _stub in (DOCS / "api" / "generated").glob("*.rst"):
    if _stub.stem not in _public:
        _stub.unlink()
autosummary_context = {"aliases": class_aliases()}

autosummary_generate = True
autosummary_ignore_module_all = False
autosummary_imported_members = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

# SciPy's docstrings (re-exported by graphs.csgraph) use a :doi: role
extlinks = {"doi": ("https://doi.org/%s", "doi:%s")}

#: what the public objects that are no function, class or module are (their own type's docstring would
#: say nothing of them); the built-in semirings are described from their family (``semiring.families``)
DATA_DOCS = {
    "__version__": "The version of the distribution: one for ``semiring``, ``apsp`` and ``graphs``.",
    "semiring.BUILTIN": "The built-in semirings by name, aliases included (``{name: Semiring}``); "
    ":func:`semiring.get` looks one up.",
    "apsp.METHODS": "The values ``method=`` takes in :func:`apsp.shortest_paths` and the closures; "
    '``"auto"`` lets :func:`apsp.choose_method` pick.',
}


def data_docstring(name: str, obj: object) -> list[str]:
    """The docstring of a public object whose own ``__doc__`` is only its type's."""
    from semiring import Semiring
    from semiring.families import FAMILIES

    if isinstance(obj, Semiring) and obj.family in FAMILIES:
        fam = FAMILIES[obj.family]
        alias = f" (``{name.rsplit('.', 1)[1]}`` is ``semiring.{fam.name}``)" if obj.name != name.rsplit(".", 1)[1] else ""
        dtypes = ", ".join(str(d) for d in fam.dtypes)
        return [
            f"The built-in semiring ``{fam.name}``{alias}: {fam.doc}.",
            "",
            f"``add`` is {fam.add}, ``mul`` is {fam.mul.split('_', 1)[0]}, ``zero`` is ``{fam.zero}``, ``one`` is ``{fam.one}``; "
            f"{'idempotent' if fam.idempotent else 'not idempotent (no closure)'}; dtypes {dtypes}.",
            "A :class:`semiring.Semiring`: its operations (``matmul``, ``closure``, ``mxv``, ``einsum``, ...) are"
            " on that page.",
        ]
    key = name if name in DATA_DOCS else name.rsplit(".", 1)[1]
    return [DATA_DOCS.get(key, f"A ``{type(obj).__name__}``: its value is shown above.")]


def _data_docs(app, what, name, obj, options, lines) -> None:
    if what in ("data", "attribute") and obj.__doc__ == type(obj).__doc__:
        lines[:] = data_docstring(name, obj)


numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

# -- the gallery: the notebooks, rendered from their saved outputs -----------------------

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
_GALLERY = DOCS / "gallery"
for _nb in NOTEBOOKS:
    _write_if_changed(_GALLERY / _nb.name, _nb.read_bytes())
for _stale in _GALLERY.glob("*.ipynb"):
    if not (ROOT / "notebooks" / _stale.name).exists():
        _stale.unlink()


def gallery_cards(notebooks: list[Path]) -> str:
    """MyST for the gallery's cards: each notebook's title, first paragraph and first plot.

    The plot (the notebook's first ``image/png`` output) is written to ``gallery/_thumbs/``.
    """
    import base64
    import json

    cards = ["::::{container} sp-gallery", ""]
    for path in notebooks:
        cells = json.loads(path.read_text())["cells"]
        text = "".join(cells[0]["source"]) if cells and cells[0]["cell_type"] == "markdown" else ""
        blocks = [b.strip() for b in text.split("\n\n") if b.strip()]
        title = blocks[0].lstrip("#").strip() if blocks and blocks[0].startswith("#") else path.stem
        summary = next((b for b in blocks[1:] if not b.startswith(("#", "|", "```", "!", "<"))), "")
        cards += [":::{container} sp-card", "", f"**[{title}]({path.name})**", ""]
        png = next(
            (o["data"]["image/png"] for c in cells if c["cell_type"] == "code"
             for o in c.get("outputs", []) if "image/png" in o.get("data", {})),
            None,
        )
        if png is not None:
            thumb = f"_thumbs/{path.stem}.png"
            _write_if_changed(_GALLERY / thumb, base64.b64decode("".join(png) if isinstance(png, list) else png))
            cards += [f"```{{image}} {thumb}", f":alt: {path.stem}: its first plot", ":class: sp-thumb", "```", ""]
        cards += [summary, "", ":::", ""]
    cards += ["::::", ""]
    return "\n".join(cards)


_write_if_changed(_GALLERY / "_cards.md", gallery_cards(NOTEBOOKS))
exclude_patterns.append("gallery/_cards.md")

nb_execution_mode = "off"  # the notebooks are run and stamped by notebooks/run_notebooks.py
nb_merge_streams = True
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3

# -- doctests: the guide pages' examples (the API's examples run under pytest --doctest-modules)

doctest_test_doctest_blocks = ""  # only explicit doctest directives, not every ">>>" of a docstring
doctest_global_setup = """
import importlib.util
import numpy as np
try:
    import networkx as nx
except ImportError:
    nx = None
dask_available = all(importlib.util.find_spec(m) is not None for m in ("dask", "distributed"))
try:
    import cupy
    cupy_available = cupy.cuda.runtime.getDeviceCount() > 0
except Exception:
    cupy_available = False
"""

# -- intersphinx, offline-safe -----------------------------------------------------------

INVENTORIES = {
    "python": "https://docs.python.org/3/",
    "numpy": "https://numpy.org/doc/stable/",
    "scipy": "https://docs.scipy.org/doc/scipy/",
    "networkx": "https://networkx.org/documentation/stable/",
    "cupy": "https://docs.cupy.dev/en/stable/",
    "dask": "https://docs.dask.org/en/stable/",
}
_INV_CACHE = DOCS / "_intersphinx"
INTERSPHINX_TIMEOUT = float(os.environ.get("SEMIRING_PATHS_DOCS_INTERSPHINX_TIMEOUT", "5"))


def _inventory(item: tuple[str, str]) -> tuple[str, Path | None]:
    """Fetch one project's ``objects.inv`` into the cache; return the cached file, or None."""
    name, url = item
    path = _INV_CACHE / f"{name}.inv"
    if os.environ.get("SEMIRING_PATHS_DOCS_OFFLINE") != "1":
        try:
            with urllib.request.urlopen(url + "objects.inv", timeout=INTERSPHINX_TIMEOUT) as response:
                data = response.read()
            if data.startswith(b"# Sphinx inventory"):
                _write_if_changed(path, data)
        except OSError:
            pass
    return name, (path if path.exists() else None)


with ThreadPoolExecutor(len(INVENTORIES)) as _pool:
    _found = dict(_pool.map(_inventory, INVENTORIES.items()))
intersphinx_mapping = {name: (INVENTORIES[name], str(path)) for name, path in _found.items() if path is not None}
intersphinx_timeout = INTERSPHINX_TIMEOUT
_missing = sorted(name for name, path in _found.items() if path is None)
if _missing:
    print(f"intersphinx: no inventory for {', '.join(_missing)} (offline?): their names are left unlinked")

# -- HTML --------------------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = "semiring-paths"
html_static_path = ["_static"]
html_theme_options = {
    "github_url": "https://github.com/semiring-paths/semiring-paths",
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
}
html_css_files = ["custom.css"]
html_favicon = "_static/favicon.svg"  # without one, browsers ask for /favicon.ico and log a 404
html_context = {"default_mode": "auto"}  # the theme's script logs an error for an empty mode
html_show_sourcelink = False
html_copy_source = False


def setup(app) -> None:
    app.connect("autodoc-process-docstring", _data_docs)
