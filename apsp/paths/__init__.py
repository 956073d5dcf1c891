"""What a closure carries besides its distances: predecessors and paths, Johnson potentials, exact integers.

* :mod:`~apsp.paths.predecessors`: the predecessor matrix (its dtype, its
  initial state, the update a closure step applies) and :func:`apsp.path`,
  which reads one path off it; its Numba kernel is ``_pred_kernels``.
* :mod:`~apsp.paths.last_hop`: predecessors read off the finished distances
  (the last hop of each shortest path) instead of carried through the closure;
  its kernel template is ``_last_hop_template``.
* :mod:`~apsp.paths.working_matrix`: the working copy a closure runs on, with
  its predecessors set up.
* :mod:`~apsp.paths.potentials` and :mod:`~apsp.paths.exact_integers`:
  integer closures that stay exact, through Johnson potentials where there
  are negative weights, widening and narrowing the dtype where sums may leave
  it; their Numba kernels are ``_integer_kernels``.

The closure methods (:mod:`apsp.methods`) use these modules; nothing here
imports a closure method.  This package itself imports nothing.
"""
