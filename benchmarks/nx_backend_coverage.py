"""NetworkX's own test suite through the semiring_paths backend: failures and the backend functions it called.

::

    python3 benchmarks/nx_backend_coverage.py [--pyargs networkx.algorithms.shortest_paths ...] [-- pytest options]

Runs ``python3 -m pytest --pyargs networkx -p no:randomly -q -x`` (or the
given packages) with ``NETWORKX_TEST_BACKEND=semiring_paths`` and
``NETWORKX_FALLBACK_TO_NX=True``, and listens to NetworkX's dispatch log
(logger ``networkx`` at DEBUG): each ``Using backend 'semiring_paths' for
call to 'f'`` is one call handed to the backend, and each ``Backend
'semiring_paths' raised when calling 'f' ...; falling back`` one it gave back
(``NotImplementedError``).  A function counts as *called* when at least one
call returned from the backend.  Prints the pytest summary line, the number of
distinct functions called, and writes the per-function counts to
``benchmarks/results/nx-backend-coverage.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLUGIN = textwrap.dedent(
    """
    import json, logging, os
    from collections import Counter

    used, back, refused = Counter(), Counter(), Counter()

    class _Listen(logging.Handler):
        def emit(self, record):
            msg, args = record.msg, record.args or ()
            if not isinstance(msg, str) or len(args) < 2:
                return
            if msg.startswith("Using backend '%s' for call to '%s'") and args[0] == "semiring_paths":
                used[args[1]] += 1
            elif msg.startswith("Backend '%s' raised when calling '%s'") and args[0] == "semiring_paths":
                back[args[1]] += 1
            elif msg.startswith("Backend '%s' can't run `%s`") and args[0] == "semiring_paths":
                refused[args[1]] += 1

    def pytest_configure(config):
        log = logging.getLogger("networkx")
        log.setLevel(logging.DEBUG)
        log.addHandler(_Listen(logging.DEBUG))

    def pytest_unconfigure(config):
        out = os.environ["NX_COVERAGE_OUT"]
        names = sorted(set(used) | set(back) | set(refused))
        data = {n: {"handed": used[n], "given_back": back[n], "refused_by_can_run": refused[n]} for n in names}
        with open(out, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
    """
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pyargs", nargs="+", default=["networkx"], help="packages to test (default: all of networkx)")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "nx-backend-coverage.json"))
    p.add_argument("rest", nargs="*", help="extra pytest options (after --)")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "_nx_backend_listen.py").write_text(PLUGIN)
        raw = Path(tmp, "calls.json")
        env = {
            **os.environ,
            "NETWORKX_TEST_BACKEND": "semiring_paths",
            "NETWORKX_FALLBACK_TO_NX": "True",
            "NX_COVERAGE_OUT": str(raw),
            "PYTHONPATH": os.pathsep.join([tmp, str(ROOT), os.environ.get("PYTHONPATH", "")]),
        }
        cmd = [sys.executable, "-m", "pytest", "--pyargs", *a.pyargs, "-p", "no:randomly", "-p", "no:cacheprovider",
               "-p", "no:logging", "-p", "_nx_backend_listen", "-q", "-x", "-o", "addopts=", "--rootdir", tmp, *a.rest]
        print("$", " ".join(cmd), flush=True)
        proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
        tail = proc.stdout.strip().splitlines()
        print("\n".join(tail[-30:]))
        data = json.loads(raw.read_text()) if raw.exists() else {}
    called = {n: c for n, c in data.items() if c["handed"] > c["given_back"]}
    summary = {
        "command": " ".join(cmd[1:]),
        "pytest_summary": tail[-1] if tail else "",
        "returncode": proc.returncode,
        "calls_handed": sum(c["handed"] for c in data.values()),
        "calls_given_back": sum(c["given_back"] for c in data.values()),
        "distinct_functions_called": len(called),
        "functions": data,
    }
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(summary, indent=1))
    print(f"calls handed to semiring_paths: {summary['calls_handed']}, given back: {summary['calls_given_back']}")
    print(f"distinct backend functions called: {len(called)}")
    print("never called (only given back or refused):", sorted(set(data) - set(called)))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
