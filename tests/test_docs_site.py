"""The documentation site (docs/): it builds without a warning, documents every public name, its
examples pass, and it renders in a browser.

* ``python -m sphinx -W -b html docs OUT`` succeeds with no warning;
* every name of ``semiring.__all__``, ``apsp.__all__``, ``graphs.__all__`` and
  ``graphs.csgraph.__all__`` has its generated page, with the object's anchor, and no other
  page is generated;
* ``python -m sphinx -b doctest docs OUT`` passes on every guide page;
* headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven by selenium) loads
  the index, an API page and a gallery page from a local HTTP server: no broken image, no
  console error; the site's search finds ``shortest_paths``; a screenshot of the index is
  written to ``docs/_static/index-screenshot.png``.

The builds need the ``docs`` extra (``pip install -e ".[docs]"``; skipped without it) and, for
the browser check only, the two Debian packages (skipped without them); they take about a
minute on two cores: the slow tier.  The fast tier checks the sources (the extra, the guide's
pages, the generated files kept out of git) without building.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import functools
import hashlib
import html
import http.server
import importlib
import importlib.util
import inspect
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
API_MODULES = ("semiring", "apsp", "graphs", "graphs.csgraph")
GUIDE_PAGES = sorted(p.stem for p in (DOCS / "guide").glob("*.md") if p.stem != "index")

#: the builds: the slow tier, and only where the docs extra is installed
built = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("sphinx", "myst_nb", "numpydoc", "pydata_sphinx_theme")),
    reason='the docs extra is not installed (pip install -e ".[docs]")',
)


def conf_value(name: str):
    """A literal assignment of docs/conf.py, read without running it (running it writes files)."""
    tree = ast.parse((DOCS / "conf.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise KeyError(name)


# -- fast checks of the sources ----------------------------------------------------------------


def test_the_docs_extra_installs_what_the_build_loads():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["docs"]
    names = {re.split(r"[<>=!~\[ ;]", req, maxsplit=1)[0].lower() for req in extra}
    loaded = [m for m in conf_value("extensions") if not m.startswith("sphinx.")] + [conf_value("html_theme")]
    assert loaded and {m.replace("_", "-") for m in loaded} <= names, (loaded, names)
    assert {"sphinx", "selenium"} <= names
    assert tuple(conf_value("API_MODULES")) == API_MODULES


def test_every_guide_page_is_listed_and_has_an_example_that_runs():
    index = (DOCS / "guide" / "index.md").read_text()
    toctree = re.search(r"```\{toctree\}(.*?)```", index, re.S).group(1)
    listed = [line.strip() for line in toctree.splitlines() if line.strip() and not line.strip().startswith(":")]
    assert sorted(listed) == GUIDE_PAGES and len(GUIDE_PAGES) >= 9
    for page in GUIDE_PAGES:
        assert "```{doctest}" in (DOCS / "guide" / f"{page}.md").read_text(), page


def test_generated_sources_are_ignored_not_committed():
    generated = ["docs/api/semiring.rst", "docs/api/generated/apsp.path.rst", "docs/gallery/centrality.ipynb",
                 "docs/gallery/_cards.md", "docs/gallery/_thumbs/centrality.png", "docs/_intersphinx/numpy.inv",
                 "docs/_build/html/index.html"]
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *generated], cwd=ROOT, capture_output=True,
                             text=True).stdout.split()
    assert ignored == generated
    committed = subprocess.run(["git", "ls-files", "docs"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert committed and not [f for f in committed if f in generated or f.startswith("docs/api/generated/")]


@contextlib.contextmanager
def docs_lock():
    """One Sphinx build of this tree at a time: the build writes its generated sources under docs/."""
    name = "semiring-paths-docs-" + hashlib.sha256(str(ROOT).encode()).hexdigest()[:16] + ".lock"
    with open(Path(tempfile.gettempdir()) / name, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def sphinx(builder: str, out: Path, *flags: str) -> subprocess.CompletedProcess:
    """Run ``python -m sphinx -b BUILDER docs OUT`` on this tree (no network needed)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SEMIRING_PATHS_DOCS_INTERSPHINX_TIMEOUT="3")
    with docs_lock():
        return subprocess.run(
            [sys.executable, "-m", "sphinx", *flags, "-b", builder, str(DOCS), str(out)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if re.search(r"\b(WARNING|ERROR|CRITICAL)\b", line)]


# -- the builds ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    run = sphinx("html", out, "-W", "-q")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-5000:]
    assert warnings_of(run.stderr) == []
    return out


def words(text: str) -> str:
    """Lower-case letters and digits, one space between runs (HTML entities and smart quotes gone)."""
    return re.sub(r"[^a-z0-9]+", " ", html.unescape(text).lower()).strip()


def expected_pages() -> dict[str, str]:
    """``{page name: anchor}`` for every public name of the four packages (a module's anchor is ``module-NAME``)."""
    pages = {}
    for modname in API_MODULES:
        module = importlib.import_module(modname)
        for name in module.__all__:
            full = f"{modname}.{name}"
            pages[full] = f"module-{full}" if inspect.ismodule(getattr(module, name)) else full
    return pages


@pytest.mark.slow
@built
def test_the_site_builds_without_a_warning(site):
    for page in ["index", "getting-started", "benchmarks", "gallery/index", "api/index",
                 *(f"guide/{p}" for p in GUIDE_PAGES), *(f"api/{m}" for m in API_MODULES)]:
        assert (site / f"{page}.html").is_file(), page
    # the getting-started page shows the README's two commands, read from the README itself
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^(python3 -m pip install .*)$", readme.split("## Two commands")[1], re.M)[:2]
    assert len(commands) == 2
    text = html.unescape(re.sub(r"<[^>]+>", "", (site / "getting-started.html").read_text()))
    for command in commands:
        assert command in text, command


@pytest.mark.slow
@built
def test_every_public_name_has_an_api_page(site):
    expected = expected_pages()
    generated = {p.stem for p in (site / "api" / "generated").glob("*.html")}
    assert set(expected) - generated == set(), "public names without a page"
    assert generated - set(expected) == set(), "pages for names that are not public"
    for page, anchor in expected.items():
        text = (site / "api" / "generated" / f"{page}.html").read_text()
        assert f'id="{anchor}"' in text, f"{page}.html does not describe {anchor}"
    # an object that is no function, class or module is described, not left with its type's docstring
    for modname in API_MODULES:
        module = importlib.import_module(modname)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or inspect.isclass(obj) or callable(obj):
                continue
            text = words(re.sub(r"<[^>]+>", " ", (site / "api" / "generated" / f"{modname}.{name}.html").read_text()))
            assert words(type(obj).__doc__.strip().splitlines()[0]) not in text, f"{modname}.{name}"
    # each package's reference page links every one of its names
    for modname in API_MODULES:
        text = (site / "api" / f"{modname}.html").read_text()
        for name in importlib.import_module(modname).__all__:
            assert f'href="generated/{modname}.{name}.html' in text, (modname, name)


@pytest.mark.slow
@built
def test_the_gallery_renders_every_notebook_with_its_plots(site):
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks
    index = (site / "gallery" / "index.html").read_text()
    for nb in notebooks:
        text = (site / "gallery" / f"{nb.stem}.html").read_text()
        saved = nb.read_text().count('"image/png"')
        assert text.count("<img") >= saved > 0, nb.name  # every saved plot is shown
        assert f'href="{nb.stem}.html"' in index, nb.name
    for img in re.findall(r'<img[^>]+src="([^"]+)"', (site / "benchmarks.html").read_text()):
        assert (site / img).is_file(), img


@pytest.mark.slow
@built
def test_the_guide_examples_pass_as_doctests(tmp_path):
    run = sphinx("doctest", tmp_path, "-q")
    report = (tmp_path / "output.txt").read_text() if (tmp_path / "output.txt").exists() else ""
    assert run.returncode == 0, run.stderr[-3000:] + report[-5000:]
    assert re.search(r"^\s+0 failures in tests$", report, re.M), report[-3000:]
    tested = set(re.findall(r"^Document: (\S+)$", report, re.M))
    assert {f"guide/{p}" for p in GUIDE_PAGES} | {"getting-started"} <= tested
    assert int(re.search(r"^\s+(\d+) tests$", report, re.M).group(1)) >= 50


# -- the browser check ------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
browser = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None or importlib.util.find_spec("selenium") is None,
    reason="headless check needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver) "
    "and selenium (the docs extra)",
)


@contextlib.contextmanager
def serve(directory: Path):
    """The built site over HTTP on the loopback interface (the search fetches pages: file:// would refuse)."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


@pytest.fixture(scope="module")
def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000", "--hide-scrollbars"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    drv.set_page_load_timeout(60)
    try:
        yield drv
    finally:
        drv.quit()


BROKEN_IMAGES = """
return Array.from(document.images)
    .filter(img => !img.complete || img.naturalWidth === 0)
    .map(img => img.getAttribute('src'));
"""


def load(drv, url: str) -> list[str]:
    """Open ``url``; return the console's errors (the log is emptied by each read)."""
    drv.get_log("browser")
    drv.get(url)
    drv.execute_async_script(  # every image settled, loaded or failed
        "const done = arguments[arguments.length - 1];"
        "Promise.all(Array.from(document.images).map(i => i.complete ? null :"
        " new Promise(r => { i.onload = r; i.onerror = r; }))).then(done);"
    )
    return [entry["message"] for entry in drv.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.mark.slow
@built
@browser
def test_the_site_renders_in_headless_chromium(site, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with serve(site) as base:
        driver.set_script_timeout(60)
        pages = {
            "index.html": "semiring-paths",
            "api/generated/apsp.shortest_paths.html": "apsp.shortest_paths",
            "gallery/01_semiring_algebra.html": "Path problems as semiring linear algebra",
        }
        for page, title in pages.items():
            errors = load(driver, f"{base}/{page}")
            assert errors == [], (page, errors)
            assert driver.execute_script(BROKEN_IMAGES) == [], page
            assert title in driver.find_element(By.TAG_NAME, "h1").text, page
        assert len(driver.find_elements(By.CSS_SELECTOR, "img")) >= 3  # the gallery page's plots

        load(driver, f"{base}/index.html")
        shot = DOCS / "_static" / "index-screenshot.png"
        png = driver.get_screenshot_as_png()
        assert png.startswith(b"\x89PNG") and len(png) > 10_000
        if not shot.exists() or shot.read_bytes() != png:
            shot.write_bytes(png)

        errors = load(driver, f"{base}/search.html?q=shortest_paths")
        links = WebDriverWait(driver, 60).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results ul.search li a")
            if d.find_elements(By.CSS_SELECTOR, "#search-results p.search-summary") else False
        )
        hrefs = [a.get_attribute("href") for a in links]
        assert any("apsp.shortest_paths.html" in h for h in hrefs), hrefs
        assert errors == [] and [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
