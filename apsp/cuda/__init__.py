"""GPU parts of the closure algorithms (CuPy): the base-case CUDA kernels and the CUDA-graph replay.

* :mod:`apsp.cuda.fw_kernels` -- the one-CTA Floyd-Warshall closure of a
  diagonal block (R-Kleene's base case) and the row-panel pivot step of the
  predecessor-consistent blocked Floyd-Warshall;
* :mod:`apsp.cuda.graph_replay` -- R-Kleene's small sub-closures captured once
  and replayed as CUDA graphs;
* :mod:`apsp.cuda.last_hop` -- the predecessors read off a finished ``min_plus``
  closure on the device (the rule of :mod:`apsp.paths.last_hop`).

These modules import CuPy when they are imported; the CPU modules of
:mod:`apsp` import them only inside the functions that handle CuPy arrays.
This package itself imports nothing.
"""
