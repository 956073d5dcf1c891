"""What the ``semiring-paths`` subcommands share: exit codes, graph loading, vertex numbering, output.

* exit codes :data:`OK`, :data:`CHECK_FAILED`, :data:`BAD_INPUT`,
  :data:`MISSING_DEPENDENCY`, :data:`INTERRUPTED`, :class:`MissingDependency`,
  and :func:`failure`, the one place that turns an exception into an exit
  status and a message;
* :func:`interrupt_latch` and :func:`check_interrupted`: a Ctrl-C is raised
  where that is safe (not inside Numba's compiler or a destructor) and
  remembered, so that it always stops a run before it saves its result;
* :func:`add_subcommand` (a subcommand's parser with the arguments of
  :func:`add_graph_arguments`: the graph file or the generated default,
  ``--format``, ``--device``, ``--json``, vertex numbering; and of
  :func:`add_endpoint_arguments`) and :func:`load_graph`, :func:`resolve_device`;
* :class:`Numbering`: 0-based vertex ids in and out, or 1-based with
  ``--one-based`` (the ids of DIMACS and Matrix Market files);
* :class:`Report`: key/value lines and tables on a terminal, one JSON object
  with ``--json``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib.util
import json
import math
import os
import re
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "OK",
    "CHECK_FAILED",
    "BAD_INPUT",
    "MISSING_DEPENDENCY",
    "INTERRUPTED",
    "PIPE_CLOSED",
    "EXIT_CODES",
    "MissingDependency",
    "failure",
    "interrupt_latch",
    "check_interrupted",
    "cupy_installed",
    "resolve_device",
    "add_graph_arguments",
    "add_subcommand",
    "load_graph",
    "Numbering",
    "Report",
    "to_host",
    "number",
    "file_format",
    "start",
    "SUMMARIES",
]

OK = 0
CHECK_FAILED = 1
BAD_INPUT = 2
MISSING_DEPENDENCY = 3
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a job stopped by Ctrl-C
PIPE_CLOSED = 141  # 128 + SIGPIPE: the reader of the output went away (| head)
EXIT_CODES = """exit status:
    0  done (apsp: the check against SciPy passed, or it was skipped or shortened and the output says why)
    1  apsp: the check against SciPy failed
    2  bad input or does not fit: unreadable or malformed file, bad option, negative cycle, unknown vertex,
       not enough memory (the plan's refusal, printed before the work starts, or an allocation that failed)
    3  an optional dependency or device is missing (--device gpu without CuPy or a CUDA GPU, a library
       that cannot be loaded)
  130  interrupted (Ctrl-C)"""

#: The subcommands in the order ``--help`` lists them, with their one-line help (``graphs.cli.<name>`` runs each).
SUMMARIES = {
    "apsp": "all-pairs shortest paths (dense distance matrix), checked against SciPy",
    "sssp": "shortest-path distances from one source",
    "matrix": "distances from many sources to many targets (origin-destination matrix)",
    "path": "one shortest route from a source to a target",
    "paths": "the k shortest loopless routes from a source to a target",
    "bfs": "breadth-first levels (hops) from one source",
    "components": "connected components (weak or strong): count and sizes",
    "mst": "minimum spanning forest (Boruvka): total weight and edges",
    "flow": "maximum flow and minimum cut from a source to a target (push-relabel)",
    "centrality": "betweenness, closeness, harmonic centrality or eccentricity",
}

DEFAULT_N = 3000
#: Rows a long table lists on the terminal without --all.
SHOWN = 10
#: Peak bytes per vertex of generating the default road network (1,000,000 vertices peaked at 780 MB).
GENERATOR_BYTES_PER_VERTEX = 800
#: How libraries that raise a RuntimeError say that memory ran out (qhull, CUDA, ...).
OUT_OF_MEMORY = re.compile(r"(insufficient|out of|not enough|cannot allocate|failed to allocate) memory|"
                           r"memory ?allocation|failed to map segment", re.IGNORECASE)
ONE_BASED_FORMATS = ("dimacs", "mtx")


class MissingDependency(RuntimeError):
    """An optional dependency (or the device it drives) is not there; the message says what to install."""


def failure(err: BaseException) -> tuple[int, str] | None:
    """The exit status and message of a subcommand that raised ``err``; ``None`` for a bug (let it show).

    Every way a run can fail for reasons outside the program maps here, so
    that the user gets one message and a status, never a traceback:

    * ``KeyboardInterrupt``: :data:`INTERRUPTED`;
    * :class:`MissingDependency`, a missing CuPy, a module or shared library
      that cannot be loaded, a CUDA driver or device error:
      :data:`MISSING_DEPENDENCY`;
    * ``MemoryError`` (NumPy's ``_ArrayMemoryError``, CuPy's
      ``OutOfMemoryError``), ``OSError`` ``ENOMEM`` (a failed ``mmap``), an
      ``ImportError`` "failed to map segment" (no address space left to load
      a library), a ``RuntimeError`` that says memory ran out (qhull's, CUDA's:
      :data:`OUT_OF_MEMORY`): :data:`BAD_INPUT`, the message says how much
      memory this process may use now and which limit binds;
    * file errors (missing, unreadable, a directory, a full disk) and every
      ``ValueError`` (malformed files, bad options, unknown vertices,
      :class:`apsp.PlanError`, :class:`apsp.NegativeCycleError`):
      :data:`BAD_INPUT`;
    * ``BrokenPipeError`` (the output's reader closed it): :data:`PIPE_CLOSED`,
      no message.

    Examples
    --------
    >>> failure(FileNotFoundError(2, "No such file or directory", "g.gr"))
    (2, "cannot open 'g.gr': No such file or directory")
    >>> failure(KeyboardInterrupt())
    (130, 'interrupted')
    >>> failure(ZeroDivisionError()) is None
    True
    """
    if isinstance(err, KeyboardInterrupt):
        return INTERRUPTED, "interrupted"
    if isinstance(err, MissingDependency):
        return MISSING_DEPENDENCY, str(err)
    if isinstance(err, BrokenPipeError):
        return PIPE_CLOSED, ""
    text = str(err)
    if isinstance(err, ImportError):
        if OUT_OF_MEMORY.search(text):
            return BAD_INPUT, _out_of_memory(f"a library could not be loaded ({text})")
        if (err.name or "").split(".")[0] in ("cupy", "cupyx", "cupy_backends"):
            return MISSING_DEPENDENCY, 'this needs CuPy: pip install "semiring-paths[cuda]"'
        if isinstance(err, ModuleNotFoundError):
            return MISSING_DEPENDENCY, f"a module is missing: {text} (install or reinstall semiring-paths)"
        return MISSING_DEPENDENCY, f"a library could not be loaded: {text}"
    if isinstance(err, MemoryError):
        return BAD_INPUT, _out_of_memory(text or "an allocation failed")
    if isinstance(err, RuntimeError) and OUT_OF_MEMORY.search(text):
        return BAD_INPUT, _out_of_memory(text.strip().splitlines()[0])
    if type(err).__name__ in ("CUDARuntimeError", "CUDADriverError"):  # CuPy's, named without importing CuPy
        return MISSING_DEPENDENCY, f"the GPU cannot be used: {text}"
    if isinstance(err, OSError):
        if err.errno == errno.ENOMEM:
            return BAD_INPUT, _out_of_memory(text)
        if err.errno == errno.ENOSPC:
            return BAD_INPUT, f"no space left on the device writing {err.filename or 'the output'}"
        if err.filename is not None and err.strerror:
            return BAD_INPUT, f"cannot open {str(err.filename)!r}: {err.strerror}"
        return BAD_INPUT, text
    if isinstance(err, ValueError):
        return BAD_INPUT, text
    return None


_interrupts: list[int] = []  # the SIGINTs seen while an interrupt_latch is active (the CLI is one thread)
_retry: list[threading.Timer] = []  # the pending re-delivery of a SIGINT that came inside the compiler
#: Modules in which a ``KeyboardInterrupt`` must not be raised: Numba's compiler and llvmlite, whose ctypes
#: callbacks and destructors drop it, or crash the process when it unwinds through LLVM.
COMPILER_MODULES = ("llvmlite", "numba.core")


def _inside_compiler(frame) -> bool:
    """Whether ``frame`` or a caller is a destructor or code of :data:`COMPILER_MODULES`."""
    while frame is not None:
        if frame.f_code.co_name == "__del__" or frame.f_globals.get("__name__", "").startswith(COMPILER_MODULES):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def interrupt_latch():
    """While the block runs, Ctrl-C (SIGINT) raises ``KeyboardInterrupt`` where that is safe, and is remembered.

    Python raises ``KeyboardInterrupt`` wherever the main thread is.  Inside a
    destructor (``__del__``) Python prints "Exception ignored" and goes on, and
    inside Numba's compiler (llvmlite's ctypes callbacks) the exception can
    crash the process.  There, the interrupt is delivered again 50 ms later,
    until it lands in ordinary code; and :func:`check_interrupted` raises it
    at the points that must not pass an interrupt (before a result is saved).
    Only Python's own handler is replaced, and only in the main thread: an
    ignored SIGINT (``nohup``) or a host program's handler is left alone.

    >>> with interrupt_latch():
    ...     check_interrupted()  # nothing pressed: nothing raised
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return

    active = [True]  # False once the block is left: no re-delivery may come after that
    lock = threading.Lock()

    def deliver_again() -> None:
        with lock:
            _retry.clear()  # first: the handler this signal runs may schedule the next one (a timer thread
            if active[0]:  # still alive after its kill must not count as a pending re-delivery)
                os.kill(os.getpid(), signal.SIGINT)

    def remember(signum, frame):
        _interrupts.append(signum)
        if _inside_compiler(frame):
            if not _retry:
                timer = threading.Timer(0.05, deliver_again)
                timer.daemon = True
                _retry.append(timer)
                timer.start()
            return
        signal.default_int_handler(signum, frame)

    _interrupts.clear()
    signal.signal(signal.SIGINT, remember)
    try:
        yield
    finally:
        with lock:  # a timer that has fired is past its cancel: the flag stops its kill
            active[0] = False
            for t in _retry:
                t.cancel()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _interrupts.clear()
        _retry.clear()


def check_interrupted() -> None:
    """Raise ``KeyboardInterrupt`` if a Ctrl-C came while :func:`interrupt_latch` was active (even a dropped one)."""
    if _interrupts:
        raise KeyboardInterrupt


def _out_of_memory(what: str) -> str:
    """A message for a failed allocation: what failed, and what this process may still use and why."""
    from apsp.memory import SOURCES, memory_limits

    limits = memory_limits()
    if not limits:
        return f"not enough memory: {what}"
    source = min(limits, key=limits.get)
    return (f"not enough memory: {what}; this process may use {limits[source] / 2**30:.1f} GiB more now "
            f"({SOURCES[source]})")


def cupy_installed() -> bool:
    """Whether CuPy can be imported (checked without importing it).

    >>> isinstance(cupy_installed(), bool)
    True
    """
    return importlib.util.find_spec("cupy") is not None


def resolve_device(choice: str) -> str:
    """``"cpu"`` or ``"gpu"`` for a ``--device`` choice.

    Parameters
    ----------
    choice : {"auto", "cpu", "gpu"}
        ``"auto"``: the GPU when CuPy sees one, else the CPU.

    Returns
    -------
    str

    Raises
    ------
    MissingDependency
        ``"gpu"`` without CuPy (naming the extra to install), or without a
        usable CUDA GPU.

    Examples
    --------
    >>> resolve_device("cpu")
    'cpu'
    """
    if choice == "cpu":
        return "cpu"
    if not cupy_installed():
        if choice == "gpu":
            raise MissingDependency('--device gpu needs CuPy: pip install "semiring-paths[cuda]" '
                                    '(or "semiring-paths[cuda12]" for CUDA 12)')
        return "cpu"
    from semiring.backend import gpu_available

    if gpu_available():
        return "gpu"
    if choice == "gpu":
        raise MissingDependency("--device gpu: CuPy is installed but sees no usable CUDA GPU")
    return "cpu"


def add_graph_arguments(p: argparse.ArgumentParser, *, vertices: bool = True, device: bool = True,
                        n_default: int = DEFAULT_N) -> None:
    """The arguments every subcommand takes: the graph, ``--format``, ``--n``, ``--seed``, ``--json``.

    With ``vertices``, also ``--one-based`` (for subcommands that read or print
    vertex ids); with ``vertices`` and ``device``, also ``--device``.
    """
    p.add_argument("graph", nargs="?",
                   help="graph file: DIMACS .gr, SNAP edge list (.txt, .tsv, .el, .edges, .csv), Matrix Market "
                        ".mtx; .gz allowed. Default: a seeded road-like network (graphs.generators.road_network)")
    p.add_argument("--format", choices=["dimacs", "snap", "mtx"],
                   help="format of the graph file when its extension does not tell")
    p.add_argument("--n", type=int, default=n_default,
                   help=f"vertices of the generated graph (default {n_default})")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated graph (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    if vertices and device:
        p.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"],
                       help="auto: the GPU when CuPy sees one, else the CPU")
    if vertices:
        p.add_argument("--one-based", action="store_true",
                       help="vertex ids in and out count from 1, like the ids inside DIMACS and Matrix Market "
                            "files (default: 0-based, file id k is vertex k-1)")


def add_endpoint_arguments(p: argparse.ArgumentParser, *, target: bool = False) -> None:
    """``--source`` (default: the first vertex) and, with ``target``, ``--target`` (default: the last vertex)."""
    p.add_argument("--source", type=int, default=0, help="source vertex (default: the first vertex)")
    if target:
        p.add_argument("--target", type=int, default=None, help="target vertex (default: the last vertex)")


def add_subcommand(sub: Any, name: str, help: str, description: str, *, source: bool = False, target: bool = False,
                   device: bool = True, **kwargs: Any) -> argparse.ArgumentParser:
    """The parser of subcommand ``name`` in ``sub``, with the graph arguments and the endpoints it reads.

    The arguments of :func:`add_graph_arguments` (``device``: with
    ``--device``), then with ``source`` or ``target`` those of
    :func:`add_endpoint_arguments`; ``kwargs`` go to ``sub.add_parser``.

    >>> sub = argparse.ArgumentParser(prog="semiring-paths").add_subparsers()
    >>> p = add_subcommand(sub, "demo", "a demo", "A demonstration.", target=True)
    >>> args = p.parse_args(["--target", "3"])
    >>> args.source, args.target, args.device
    (0, 3, 'auto')
    """
    p = sub.add_parser(name, help=help, description=description, **kwargs)
    add_graph_arguments(p, device=device)
    if source or target:
        add_endpoint_arguments(p, target=target)
    return p


def endpoints(args: argparse.Namespace, num: Numbering, n: int) -> tuple[int, int]:
    """The checked ``--source`` and ``--target`` of ``args`` as vertex ids (``--target`` absent: the last vertex)."""
    s = num.vertex_in(args.source, "--source", n)
    t = n - 1 if args.target is None else num.vertex_in(args.target, "--target", n)
    return s, t


def timed(f: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """``f(*args, **kwargs)`` and the wall-clock seconds it took."""
    import time

    t0 = time.perf_counter()
    result = f(*args, **kwargs)
    return result, time.perf_counter() - t0


def file_format(args: argparse.Namespace) -> str | None:
    """The format of ``args.graph`` (``None`` for the generated graph)."""
    if not args.graph:
        return None
    from graphs.io import format_of

    return format_of(Path(args.graph), args.format)


def load_graph(args: argparse.Namespace):
    """``(graph, name)``: ``args.graph`` read with ``--format``, or the generated road network.

    >>> G, name = load_graph(argparse.Namespace(graph=None, n=50, seed=1, format=None))
    >>> G.n, name
    (50, 'road_network(n=50, seed=1)')
    """
    import graphs

    if args.graph:
        return graphs.read(args.graph, format=getattr(args, "format", None)), args.graph
    if args.n < 1:
        raise ValueError(f"--n must be at least 1, got {args.n}")
    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {args.seed}")
    from apsp.memory import SOURCES, memory_limits

    limits, need = memory_limits(), GENERATOR_BYTES_PER_VERTEX * args.n
    if limits and need > min(limits.values()):
        source = min(limits, key=limits.get)
        raise ValueError(f"--n {args.n}: generating this road network takes about {need / 2**30:.1f} GiB; this "
                         f"process may use {limits[source] / 2**30:.1f} GiB ({SOURCES[source]})")
    return graphs.generators.road_network(args.n, seed=args.seed), f"road_network(n={args.n}, seed={args.seed})"


class Numbering:
    """Vertex ids as the user writes them (0-based, or 1-based with ``--one-based``) and as the graph holds them.

    >>> num = Numbering(one_based=True, fmt="dimacs")
    >>> num.vertex_in(1, "--source", 5), num.out(0), num.note
    (0, 1, '1-based vertex ids (as in the file)')
    >>> Numbering(one_based=False, fmt="dimacs").note
    '0-based vertex ids (file id k is vertex k-1)'
    """

    def __init__(self, one_based: bool, fmt: str | None) -> None:
        self.base = 1 if one_based else 0
        if one_based:
            self.note = "1-based vertex ids" + (" (as in the file)" if fmt in ONE_BASED_FORMATS else "")
        elif fmt in ONE_BASED_FORMATS:
            self.note = "0-based vertex ids (file id k is vertex k-1)"
        else:
            self.note = "0-based vertex ids"

    def vertex_in(self, v: int, name: str, n: int) -> int:
        """The graph's vertex for the user's id ``v`` of option ``name``; ``VertexError`` outside the graph."""
        from graphs.errors import VertexError

        if not self.base <= v < n + self.base:
            raise VertexError(f"{name} {v} is not a vertex: {self.note} run from {self.base} to {n - 1 + self.base}")
        return v - self.base

    def out(self, v: int) -> int:
        """The user's id of the graph's vertex ``v``."""
        return int(v) + self.base


def to_host(a) -> np.ndarray:
    """A NumPy copy of a NumPy or CuPy array."""
    import numpy as np

    return a.get() if hasattr(a, "get") else np.asarray(a)


def number(x) -> Any:
    """A JSON-safe Python number (``None`` for inf / nan)."""
    x = x.item() if hasattr(x, "item") else x
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


class Report:
    """Collects what a subcommand found and prints it: aligned ``key  value`` lines and tables, or JSON.

    >>> import io
    >>> out = io.StringIO()
    >>> r = Report("demo", as_json=False, out=out)
    >>> r.field("vertices", 3, "3 vertices")
    >>> r.table("sizes", ["component", "size"], [[0, 2], [1, 1]])
    >>> r.emit()
    >>> print(out.getvalue().rstrip())
    vertices   3 vertices
    component  size
    ---------  ----
            0     2
            1     1
    """

    def __init__(self, command: str, as_json: bool, out: TextIO | None = None) -> None:
        self.data: dict[str, Any] = {"command": command}
        self.lines: list[str] = []
        self.as_json = as_json
        self.out = sys.stdout if out is None else out

    def field(self, key: str, value: Any, text: str | None = None, label: str | None = None) -> None:
        """Record ``key = value`` (JSON) and print ``text`` (default ``value``) after ``label`` (default ``key``)."""
        self.data[key] = value
        self.lines.append(f"{label or key:<10} {value if text is None else text}")

    def table(self, key: str, header: list[str], rows: list[list[Any]], json_rows: Any = None) -> None:
        """Record rows under ``key`` (``json_rows`` if given, else a list of dicts) and print them as columns."""
        self.data[key] = json_rows if json_rows is not None else [dict(zip(header, map(number, r))) for r in rows]
        cells = [header] + [["inf" if number(c) is None and c is not None else ("-" if c is None else str(c))
                             for c in r] for r in rows]
        widths = [max(len(r[k]) for r in cells) for k in range(len(header))]
        self.lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
        self.lines.append("  ".join("-" * w for w in widths))
        self.lines.extend("  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in cells[1:])

    def listing(self, key: str, header: list[str], rows: list[list[Any]], json_rows: Any, everything: bool) -> None:
        """:meth:`table` of ``rows``, on the terminal only the first :data:`SHOWN` unless ``everything`` (``--all``)."""
        shown = rows if (everything or self.as_json) else rows[:SHOWN]
        self.table(key, header, shown, json_rows)
        if len(rows) > len(shown):
            self.lines.append(f"... {len(rows) - len(shown):,} more (--all lists them)")

    def emit(self) -> None:
        """Print the report."""
        if self.as_json:
            print(json.dumps(self.data, indent=None, allow_nan=False), file=self.out, flush=True)
        else:
            print("\n".join(self.lines), file=self.out, flush=True)


def start(args: argparse.Namespace, command: str, out: TextIO | None = None):
    """Load the graph of ``args`` and open the report: ``(G, report, numbering)``.

    The report starts with the graph (name, size, kind, read time) and the
    vertex numbering in use.  With ``--device``, ``G`` is moved there.
    """
    device = resolve_device(args.device) if hasattr(args, "device") else "cpu"
    (G, name), seconds = timed(load_graph, args)
    if device != G.device:
        G = G.to(device)
    num = Numbering(getattr(args, "one_based", False), file_format(args))
    report = Report(command, args.json, out)
    kind = f"{'directed' if G.directed else 'undirected'}, " \
           f"{'weighted ' + str(G.weights.dtype) if G.weights is not None else 'unweighted'}"
    report.field("graph", name)
    report.data.update(vertices=G.n, edges=G.nnz, directed=bool(G.directed), weighted=G.weights is not None,
                       read_s=round(seconds, 4), device=device)
    report.lines.append(f"{'size':<10} {G.n:,} vertices, {G.nnz:,} arcs ({kind}), read in {seconds:.2f} s, "
                        f"on {device}")
    report.field("numbering", num.note)
    return G, report, num
