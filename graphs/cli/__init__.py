"""The ``semiring-paths`` command line: one subcommand per job, one module each.

* ``apsp`` (:mod:`graphs.cli.apsp`): all-pairs shortest paths, checked against SciPy;
* ``sssp`` (:mod:`graphs.cli.sssp`): distances from one source;
* ``matrix`` (:mod:`graphs.cli.matrix`): distances from many sources to many targets;
* ``path`` (:mod:`graphs.cli.path`): one shortest route (:func:`graphs.shortest_path`);
* ``paths`` (:mod:`graphs.cli.paths`): the k shortest loopless routes (:func:`graphs.k_shortest_paths`);
* ``bfs`` (:mod:`graphs.cli.bfs`): breadth-first levels;
* ``components`` (:mod:`graphs.cli.components`): weak or strong components;
* ``mst`` (:mod:`graphs.cli.mst`): the minimum spanning forest;
* ``flow`` (:mod:`graphs.cli.flow`): a maximum flow and a minimum cut;
* ``centrality`` (:mod:`graphs.cli.centrality`): betweenness, closeness, harmonic centrality or eccentricity.

Each reads a graph file (DIMACS ``.gr``, SNAP edge list, Matrix Market, ``.gz``
allowed; ``--format`` when the extension does not tell) or, with no file,
generates a seeded road-like network (:func:`graphs.generators.road_network`).
Vertex ids are 0-based in and out (``--one-based`` for the 1-based ids of
DIMACS and Matrix Market files).  Output is aligned text, or one JSON object
with ``--json``.  Exit status: 0 done, 1 the apsp check failed, 2 bad input or
not enough memory, 3 a missing optional dependency (``--device gpu`` without
CuPy), 130 interrupted; every failure is one message on stderr, never a
traceback (:func:`graphs.cli._common.failure` maps them).  Shared pieces live
in :mod:`graphs.cli._common`.

Examples
--------
>>> main(["path", "--n", "300", "--source", "2", "--target", "9", "--json"])  # doctest: +ELLIPSIS
{"command": "path", ..., "source": 2, "target": 9, ..., "route": [2, ..., 9]}
0
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, NoReturn

from semiring.lazy import lazy_attributes

from ._common import (
    BAD_INPUT,
    EXIT_CODES,
    INTERRUPTED,
    PIPE_CLOSED,
    SUMMARIES,
    check_interrupted,
    failure,
    interrupt_latch,
)

__all__ = ["main", "build_parser", "run_apsp", "SUBCOMMANDS"]

# run_apsp lives in graphs.cli.apsp, imported on first use (semiring.lazy, PEP 562).
__getattr__, __dir__ = lazy_attributes(__name__, {"run_apsp": ".apsp"})


class _Subcommands(Mapping[str, Any]):
    """Subcommand name -> its module (``graphs.cli.<name>``), imported when first looked up."""

    def __getitem__(self, name: str) -> ModuleType:
        if name not in SUMMARIES:
            raise KeyError(name)
        return importlib.import_module(f"{__name__}.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(SUMMARIES)

    def __len__(self) -> int:
        return len(SUMMARIES)


#: The subcommands, in the order the help lists them: name -> the module that parses and runs it
#: (``add_parser``, ``run``), imported only when the subcommand is chosen, so that ``--help`` and a
#: subcommand's run import nothing of the others (their one-line help is :data:`._common.SUMMARIES`).
SUBCOMMANDS: Mapping[str, ModuleType] = _Subcommands()


class _Version(argparse.Action):
    """``--version``: the distribution's version, read (importlib.metadata) only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str = "show program's version number and exit") -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from semiring import __version__

        print(f"{parser.prog} {__version__}", file=sys.stdout)
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``semiring-paths``.

    Parameters
    ----------
    command : str, optional
        Build only this subcommand's options (and import only its module);
        the others are listed with their one-line help, as ``--help`` shows
        them.  ``None`` (default): every subcommand in full.

    Returns
    -------
    argparse.ArgumentParser

    Examples
    --------
    >>> build_parser().parse_args(["apsp", "--n", "10"]).n
    10
    >>> build_parser("bfs").parse_args(["bfs", "--source", "3"]).source
    3
    """
    parser = argparse.ArgumentParser(
        prog="semiring-paths",
        description="Path problems on graphs as linear algebra over semirings (CPU and NVIDIA GPU). "
                    "Vertex ids are 0-based unless --one-based is given.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="{" + ",".join(SUMMARIES) + "}")
    for name, summary in SUMMARIES.items():
        if command is None or name == command:
            SUBCOMMANDS[name].add_parser(sub).epilog = EXIT_CODES
        else:
            sub.add_parser(name, help=summary)  # listed; its options are built when it is the one chosen
    return parser


def _chosen(argv: Sequence[str]) -> str:
    """The subcommand ``argv`` names: its first word that is not an option (``""`` if none)."""
    return next((a for a in argv if not a.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``semiring-paths`` console script.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 done, 1 the apsp check failed, 2 bad input (a
        malformed file, a negative cycle, an unknown vertex) or not enough
        memory, 3 a missing optional dependency (naming what to install),
        130 interrupted; the message goes to stderr
        (:func:`graphs.cli._common.failure`).  ``--help``, ``--version`` and
        argparse's own errors exit through ``SystemExit`` (0 and 2).

    Examples
    --------
    >>> main(["components", "--n", "50", "--device", "cpu", "--json"])  # doctest: +ELLIPSIS
    {"command": "components", ...}
    0
    """
    program = argv is None  # the command itself, not a caller's main([...])
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(_chosen(argv)).parse_args(argv)
    try:
        with interrupt_latch():
            status = SUBCOMMANDS[args.command].run(args)
            check_interrupted()  # a Ctrl-C Python dropped (in a destructor) still ends the run as interrupted
            return status
    except (KeyboardInterrupt, Exception) as err:
        mapped = failure(err)
        if mapped is None:  # a bug: the traceback is what a report needs
            raise
        status, message = mapped
    if status == PIPE_CLOSED:  # nobody reads the output any more: no message, and no error when Python flushes it
        _silence_stdout()
    else:
        print(f"semiring-paths: {'error: ' if status == BAD_INPUT else ''}{message}", file=sys.stderr)
    if status == INTERRUPTED and program:
        _leave_now(status)
    return status


def _leave_now(status: int) -> NoReturn:
    """End the interrupted command at once with ``status`` (its result files are already removed).

    The interpreter's shutdown would wait for kernel threads still running
    and reset SIGINT's handler to the default on the way, and the process
    could end killed by that signal instead (exit -2: seen in about one run
    in four of an interrupted ``apsp`` whose kernels were compiling).
    """
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more to say
            pass
    os._exit(status)


def _silence_stdout() -> None:
    """Point stdout at ``/dev/null``, so that the interpreter's final flush of a closed pipe does not fail."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing to silence
        pass
