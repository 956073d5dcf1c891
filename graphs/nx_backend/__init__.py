"""The ``semiring_paths`` NetworkX backend: NetworkX's API, this library's engines.

Installed with the library (entry points ``networkx.backends`` ->
:data:`graphs.nx_backend.interface.backend_interface`, ``networkx.backend_info``
-> ``_nx_semiring_paths.get_info``), it is selected per call or by configuration::

    nx.floyd_warshall_numpy(G, backend="semiring_paths")
    nx.config.backend_priority.algos = ["semiring_paths"]   # or NETWORKX_BACKEND_PRIORITY=semiring_paths

Modules: :mod:`.graph` (backend graph types), :mod:`.attributes` (edge values),
:mod:`.convert` (to and from NetworkX), :mod:`.shortest_paths`,
:mod:`.traversal`, :mod:`.components`, :mod:`.tree`, :mod:`.flow` (the
algorithms by family), :mod:`.interface` (the object NetworkX loads).
NetworkX is imported here and only here; ``import graphs`` does not import it.
"""
