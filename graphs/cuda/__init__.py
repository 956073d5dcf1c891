"""GPU kernels and drivers of the graph algorithms (CuPy + CUDA C compiled at run time).

One CUDA source and one driver module per algorithm family; each driver keeps
the host loop (one small read-back per level or round) and launches its kernels:

* :mod:`graphs.cuda.bfs` (``bfs.cu``): direction-optimising BFS and bidirectional
  s-t connectivity;
* :mod:`graphs.cuda.sssp` (``sssp.cu``): near-far delta-stepping and the
  shortest-path tree from final distances;
* :mod:`graphs.cuda.components` (``components.cu``): weak components by hook and
  shortcut;
* :mod:`graphs.cuda.spanning_tree` (``spanning_tree.cu``): Boruvka rounds of the
  minimum spanning forest (ECL-MST's filtered edge list, 64-bit ``atomicMin``);
* :mod:`graphs.cuda.flow` (``flow.cu``): lock-free push-relabel with global
  relabelling, and the minimum cut;
* :mod:`graphs.cuda.centrality` (``centrality.cu``): betweenness and closeness
  by batches of sources (near-far delta-stepping over ``S x n`` pair records,
  then the dependency sweep), the distance sums of the statistics;
* :mod:`graphs.cuda.distance` (kernels in ``centrality.cu``): batches of the
  bit-parallel BFS that bound every vertex's eccentricity (diameter, radius,
  center, periphery);
* :mod:`graphs.cuda.launch`: building those sources (with the warp-level helpers
  of ``semiring/cuda/sparse_device.cuh`` inlined) and the chunk-list buffers and
  grids the drivers share.

The public entry points are :func:`graphs.bfs`, :func:`graphs.st_connectivity`,
:func:`graphs.sssp`, :func:`graphs.multi_source_sssp`,
:func:`graphs.connected_components`, :func:`graphs.minimum_spanning_tree`,
:func:`graphs.maximum_flow`, :func:`graphs.betweenness_centrality` (and the
other centralities) and the distance statistics (:func:`graphs.eccentricity`,
:func:`graphs.diameter`, ...); each decides CPU or GPU once, at its door, and
calls these drivers for a graph on the GPU.
"""
