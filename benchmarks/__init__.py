"""Benchmarks of semiring-paths, side by side with SciPy, NetworkX, python-graphblas, tropical-gemm and CuPy.

``python -m benchmarks`` runs the suites (each one a script of this folder, also runnable
alone) and writes ``benchmarks/results/REPORT.md`` with plots, and the README's
performance table.  ``python -m benchmarks --help`` lists the options.
"""
