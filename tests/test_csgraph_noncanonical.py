"""graphs.csgraph's shortest paths against SciPy's on non-canonical CSR matrices.

A CSR matrix built by hand may list an entry ``(i, j)`` several times, keep a
row's columns unsorted and store explicit zeros.  SciPy (1.17) reads such a
matrix in two ways, and the drop-in must read it the same ways:

* ``floyd_warshall`` (and ``shortest_path`` when it picks ``"FW"``) reads it
  with ``csgraph_to_dense(A, null_value=inf)``: the least of the duplicates of
  ``(i, j)`` is the arc, every stored entry (an explicit zero too) is an arc;
  the diagonal is set to 0 and, undirected, ``min(A[i, j], A[j, i])`` counts;
  only then is the diagonal of the closure tested for a negative cycle;
* ``dijkstra``, ``bellman_ford`` and ``johnson`` read it with
  ``validate_graph``: ``A.tocsr().astype(float64)``, which sums the duplicates
  of a matrix of another dtype (``astype`` sorts and sums) and keeps those of
  a float64 matrix as parallel arcs (the least counts in a search).

CSC matrices (the same arrays: the transpose) and COO matrices listing
duplicates are read as SciPy reads them too (Floyd-Warshall refuses COO, a
``ValueError`` in both).  ``overwrite=True`` changes nothing for a sparse input (SciPy densifies it
into a new array); neither SciPy nor the drop-in may change the caller's
matrix.  Weights are small integers and potentials, so every distance is an
exact sum and the answers must be equal, bit for bit; a negative cycle must be
an error in both (the drop-in's error is SciPy's ``NegativeCycleError``).
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scs
from hypothesis import given, settings
from hypothesis import strategies as st

from graphs import csgraph as gcs

FUNCTIONS = ("floyd_warshall", "shortest_path", "bellman_ford", "johnson", "dijkstra")
METHODS = ("auto", "FW", "BF", "J", "D")


@st.composite
def noncanonical_csr(draw):
    """A CSR matrix with duplicates, unsorted rows and explicit zeros; negative weights from potentials.

    Each arc ``u -> v`` weighs ``c + p[u] - p[v]`` with ``c >= 0``: along any
    cycle the potentials cancel, so there is no negative cycle in the directed
    graph however negative the weights are; ``cycle=True`` then adds one arc
    that closes a negative cycle.
    """
    n = draw(st.integers(1, 9))
    m = draw(st.integers(0, 3 * n))
    rows = sorted(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)))
    cols = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))  # repeats: duplicates, any order
    cost = draw(st.lists(st.integers(0, 6), min_size=m, max_size=m))
    zeros = draw(st.lists(st.booleans(), min_size=m, max_size=m))  # explicit zeros (where the weight allows)
    p = np.array(draw(st.lists(st.integers(-4, 4), min_size=n, max_size=n)))
    w = [0 if z and p[u] == p[v] else c + p[u] - p[v] for u, v, c, z in zip(rows, cols, cost, zeros)]
    if draw(st.booleans()) and m and n > 1:  # a negative cycle: close u -> ... with an arc back below -(its path)
        u, v = rows[0], cols[0]
        if u != v:
            rows, cols, w = rows + [v], cols + [u], w + [-w[0] - 1]
            order = np.argsort(rows, kind="stable")
            rows, cols, w = [rows[i] for i in order], [cols[i] for i in order], [w[i] for i in order]
    dtype = draw(st.sampled_from([np.float64, np.float32, np.int64, np.int32]))
    indptr = np.searchsorted(np.array(rows, dtype=np.int64), np.arange(n + 1)).astype(np.int32)
    data, cols = np.array(w, dtype=dtype), np.array(cols, dtype=np.int32)
    kind = draw(st.sampled_from(["csr_array", "csr_matrix", "csc_array", "coo_array"]))
    if kind == "coo_array":  # the same entries, duplicates listed
        return sp.coo_array((data, (np.array(rows, dtype=np.int32), cols)), shape=(n, n))
    return getattr(sp, kind)((data, cols, indptr), shape=(n, n))  # CSC: the transpose, as non-canonical


def _answer(fn, A, kwargs):
    """``("ok", distances)``, ``("negative cycle", None)`` or ``("ValueError", None)`` (COO for Floyd-Warshall)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's (and the drop-in's) negative-weight warning for dijkstra
        try:
            out = fn(A, **kwargs)
        except scs.NegativeCycleError:
            return "negative cycle", None
        except ValueError as err:
            return "ValueError", str(err)
    return "ok", out[0] if kwargs.get("return_predecessors") else out


def _same_matrix(A, B) -> None:
    assert A.format == B.format and A.dtype == B.dtype and A.shape == B.shape
    parts = ("data", "row", "col") if A.format == "coo" else ("data", "indices", "indptr")
    for part in parts:
        np.testing.assert_array_equal(getattr(A, part), getattr(B, part))


@settings(max_examples=150, deadline=None)
@given(A=noncanonical_csr(), which=st.integers(0, len(FUNCTIONS) - 1), method=st.sampled_from(METHODS),
       directed=st.booleans(), overwrite=st.booleans(), predecessors=st.booleans(),
       indices=st.sampled_from([None, 0, [0, -1]]))
def test_noncanonical_csr_like_scipy(A, which, method, directed, overwrite, predecessors, indices):
    name = FUNCTIONS[which]
    negative = A.nnz and bool((A.data < 0).any())
    if name == "dijkstra" or (name == "shortest_path" and method == "D"):
        if negative:  # SciPy's Dijkstra on negative weights is not a shortest-path algorithm (nor may it stop)
            A.data[A.data < 0] = -A.data[A.data < 0]
    kwargs = {"directed": directed, "return_predecessors": predecessors}
    if name in ("floyd_warshall", "shortest_path"):
        kwargs["overwrite"] = overwrite
    if name == "shortest_path":
        kwargs["method"] = method
    if name != "floyd_warshall" and not (name == "shortest_path" and method == "FW"):
        kwargs["indices"] = indices
    before = A.copy()
    want = _answer(getattr(scs, name), A, kwargs)
    _same_matrix(A, before)  # SciPy left the matrix as it was...
    got = _answer(getattr(gcs, name), A, kwargs)
    _same_matrix(A, before)  # ... and so does the drop-in
    assert got[0] == want[0], (name, kwargs, want, got)
    if want[0] == "ok":
        assert got[1].dtype == want[1].dtype and got[1].shape == want[1].shape
        np.testing.assert_array_equal(got[1], want[1])


def test_duplicates_floyd_warshall_takes_the_least_searches_sum_non_float64():
    """The two readings, on one int64 matrix: (0, 1) listed as 5 and -2, (1, 0) as 3.

    Floyd-Warshall takes the least duplicate, -2, so 0 -> 1 -> 0 weighs 1 and
    there is no negative cycle; the searches read the int64 matrix through
    ``astype(float64)``, which sums the duplicates to 3.
    """
    A = sp.csr_array((np.array([5, -2, 3]), np.array([1, 1, 0]), np.array([0, 2, 3])), shape=(2, 2))
    for overwrite in (False, True):
        np.testing.assert_array_equal(gcs.floyd_warshall(A, overwrite=overwrite), [[0.0, -2.0], [3.0, 0.0]])
        np.testing.assert_array_equal(gcs.floyd_warshall(A, overwrite=overwrite),
                                      scs.floyd_warshall(A, overwrite=overwrite))
    np.testing.assert_array_equal(gcs.bellman_ford(A), [[0.0, 3.0], [3.0, 0.0]])
    np.testing.assert_array_equal(gcs.bellman_ford(A), scs.bellman_ford(A))
    F = sp.csr_array((np.array([5.0, -2.0, 3.0]), A.indices, A.indptr), shape=(2, 2))  # float64: parallel arcs
    np.testing.assert_array_equal(gcs.johnson(F), [[0.0, -2.0], [3.0, 0.0]])
    np.testing.assert_array_equal(gcs.johnson(F), scs.johnson(F))
