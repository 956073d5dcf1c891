"""GPU kernels and drivers of the graph algorithms (CuPy + CUDA C compiled at run time).

One CUDA source and one driver module per algorithm family, each driver keeping
the host loop (one small read-back per level) and launching its kernels:

* :mod:`graphs.cuda.bfs` (``bfs.cu``): direction-optimising BFS and bidirectional
  s-t connectivity;
* :mod:`graphs.cuda.sssp` (``sssp.cu``): near-far delta-stepping and the
  shortest-path tree from final distances;
* :mod:`graphs.cuda.components` (``components.cu``): weak components by hook and
  shortcut;
* :mod:`graphs.cuda.launch`: building those sources (with the warp-level helpers
  of ``semiring/cuda/sparse_device.cuh`` inlined) and the chunk-list buffers and
  grids the drivers share.

The public entry points are :func:`graphs.bfs`, :func:`graphs.st_connectivity`,
:func:`graphs.sssp` and :func:`graphs.connected_components`, which call these
drivers for a graph on the GPU.
"""
