"""The graph container: compressed sparse rows (CSR), optional weights, on the CPU or GPU.

A :class:`Graph` stores its out-arcs as CSR arrays ``indptr`` (int64, ``n + 1``),
``indices`` (int32, one per arc, sorted within each row) and optional
``weights`` (float32, float64, int32 or int64; ``None`` for an unweighted
graph).  The arrays are NumPy arrays on the CPU and CuPy arrays on the GPU
(:meth:`Graph.to`).  The CSR of the reversed graph (in-arcs, what a "pull" step
reads) is built on first use and kept (:meth:`Graph.transpose`).

Conventions, chosen to match path problems rather than linear algebra:

* Parallel arcs are *kept* (a multigraph, as R-MAT and most edge lists are);
  conversions that need one value per vertex pair combine them with the
  semiring's ``add`` (the minimum for ``min_plus``, so the shortest arc wins).
* An explicit zero weight is an arc of length 0, never a hole; this is why the
  library never lets SciPy "eliminate zeros" on its way in or out.
* Undirected graphs store every edge in both directions (a self loop once);
  :attr:`Graph.nnz` counts stored arcs, :attr:`Graph.num_edges` input edges.
* Unweighted arcs have weight 1 (``True`` for ``lor_land``) when a weight is needed.
* A graph is treated as immutable: derived data (the transpose, degree
  statistics, delta-stepping's light/heavy rows) is computed once and kept.

Examples
--------
>>> import numpy as np
>>> from graphs import Graph
>>> G = Graph.from_edges([0, 0, 1], [1, 1, 2], weights=[5.0, 2.0, 1.0])
>>> G
Graph(n=3, nnz=3, directed=True, weights=float64, device='cpu')
>>> G.to_dense()
array([[ 0.,  2., inf],
       [inf,  0.,  1.],
       [inf, inf,  0.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from semiring import builtin
from semiring.backend import array_module, gpu_available, is_cupy_array
from semiring.core import Semiring
from semiring.errors import DeviceError, DTypeError, InvalidEntryError

from . import _csr
from .errors import GraphError, VertexError

__all__ = ["Graph", "as_graph", "WEIGHT_DTYPES"]

WEIGHT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int32), np.dtype(np.int64))
INDEX_LIMIT = np.iinfo(np.int32).max


def _is_scipy_sparse(obj: Any) -> bool:
    import scipy.sparse as sp

    return sp.issparse(obj)


def _is_cupy_sparse(obj: Any) -> bool:
    import sys

    if "cupyx.scipy.sparse" not in sys.modules:
        return False
    import cupyx.scipy.sparse as csp

    return csp.issparse(obj)


def _check_weights(name: str, w, m: int):
    """Reject unsupported dtypes, wrong lengths and NaN; return the array unchanged."""
    xp = array_module(w)
    w = xp.asarray(w)
    if w.ndim != 1 or w.shape[0] != m:
        raise GraphError(f"{name} must be 1-D with one entry per arc ({m}), got shape {tuple(w.shape)}")
    if np.dtype(w.dtype) not in WEIGHT_DTYPES:
        ok = ", ".join(str(d) for d in WEIGHT_DTYPES)
        raise DTypeError(f"{name} has dtype {w.dtype}; weights must be one of {ok} (convert explicitly)")
    if w.dtype.kind == "f" and m:
        bad = xp.isnan(w)
        if bool(bad.any()):
            k = int(xp.argmax(bad))
            raise InvalidEntryError(f"{name}[{k}] is NaN; a weight must be a number")
    return w


def _check_ids(name: str, ids, n: int):
    xp = array_module(ids)
    ids = xp.asarray(ids)
    if ids.ndim != 1:
        raise GraphError(f"{name} must be 1-D, got shape {tuple(ids.shape)}")
    if ids.dtype.kind not in "iu":
        if ids.size == 0:
            return ids.astype(np.int64)
        raise DTypeError(f"{name} must hold integer vertex ids, got dtype {ids.dtype}")
    if ids.size:
        lo, hi = int(ids.min()), int(ids.max())
        if lo < 0 or hi >= n:
            bad = (ids < 0) | (ids >= n)
            k = int(xp.argmax(bad))
            raise VertexError(f"{name}[{k}] = {int(ids[k])} is not a vertex of a graph with n = {n}")
    return ids


def _row_ids(indptr):
    """The row (int32) of every stored entry of a CSR, on its device."""
    if is_cupy_array(indptr):
        import cupy as cp

        nnz = int(indptr[-1])
        return cp.searchsorted(indptr[1:], cp.arange(nnz, dtype=cp.int64), side="right").astype(cp.int32)
    return _csr.csr_row_ids(np.ascontiguousarray(indptr, dtype=np.int64))


def _build_csr(n: int, src, dst, w):
    """Sorted CSR (parallel arcs kept) from COO on the arrays' device."""
    if is_cupy_array(src):
        import cupy as cp

        key = src.astype(cp.int64) * max(n, 1) + dst.astype(cp.int64)
        order = cp.argsort(key)
        indices = dst[order].astype(cp.int32)
        weights = None if w is None else w[order]
        counts = cp.bincount(src.astype(cp.int64), minlength=n) if src.size else cp.zeros(n, cp.int64)
        indptr = cp.zeros(n + 1, dtype=cp.int64)
        cp.cumsum(counts, out=indptr[1:])
        return indptr, indices, weights
    src = np.ascontiguousarray(src, dtype=np.int64) if src.dtype != np.int32 else np.ascontiguousarray(src)
    dst = np.ascontiguousarray(dst, dtype=np.int64) if dst.dtype != np.int32 else np.ascontiguousarray(dst)
    has_w = w is not None
    warr = np.ascontiguousarray(w) if has_w else np.empty(0, np.float64)
    indptr, indices, weights = _csr.coo_to_csr(n, src, dst, warr, has_w)
    return indptr, indices, (weights if has_w else None)


class Graph:
    """A directed or undirected graph in CSR form, optionally weighted, on the CPU or GPU.

    Build one with :meth:`from_edges`, :meth:`from_scipy`, :meth:`from_dense`,
    :meth:`from_networkx`, :func:`as_graph`, :func:`graphs.read` or a generator;
    the constructor itself takes CSR arrays.

    Parameters
    ----------
    indptr : array of int, shape (n + 1,)
        Row pointers (stored as int64).
    indices : array of int, shape (nnz,)
        Column (head) of each arc (stored as int32; ``n`` must be below 2**31).
    weights : array, shape (nnz,), optional
        float32, float64, int32 or int64; ``None`` for an unweighted graph.
    directed : bool
        ``False`` promises that the arcs are symmetric (each edge stored both ways).
    coords : array (n, d), optional
        Vertex coordinates (road networks, grids), kept for plots and A*-style use.
    node_labels : list, optional
        Original vertex names (from NetworkX); vertex ``i`` is ``node_labels[i]``.
    check : bool
        Validate the arrays (pointers monotone, ids in range, weights not NaN).

    Raises
    ------
    GraphError, VertexError, DTypeError, InvalidEntryError

    Examples
    --------
    >>> G = Graph(np.array([0, 1, 1]), np.array([1]), np.array([2.5]))
    >>> G.n, G.nnz, G.weights
    (2, 1, array([2.5]))
    """

    def __init__(
        self,
        indptr,
        indices,
        weights=None,
        *,
        directed: bool = True,
        coords=None,
        node_labels: list | None = None,
        check: bool = True,
    ) -> None:
        xp = array_module(indptr)
        if array_module(indices) is not xp or (weights is not None and array_module(weights) is not xp):
            raise DeviceError("indptr, indices and weights must live on one device")
        indptr = xp.asarray(indptr)
        indices = xp.asarray(indices)
        if indptr.ndim != 1 or indptr.shape[0] < 1:
            raise GraphError(f"indptr must be 1-D with n + 1 entries, got shape {tuple(indptr.shape)}")
        if indptr.dtype.kind not in "iu" or indices.dtype.kind not in "iu":
            raise DTypeError(f"indptr and indices must be integer arrays, got {indptr.dtype} and {indices.dtype}")
        n = indptr.shape[0] - 1
        if n > INDEX_LIMIT:
            raise GraphError(f"n = {n} vertices exceeds the int32 index limit {INDEX_LIMIT}")
        nnz = int(indptr[-1])
        if check:
            if int(indptr[0]) != 0 or nnz != indices.shape[0]:
                raise GraphError(
                    f"indptr must start at 0 and end at len(indices) = {indices.shape[0]}, "
                    f"got {int(indptr[0])} and {nnz}"
                )
            steps = xp.diff(indptr)
            if steps.size and bool((steps < 0).any()):
                k = int(xp.argmax(steps < 0))
                raise GraphError(f"indptr must not decrease: indptr[{k + 1}] < indptr[{k}]")
            _check_ids("indices", indices, n)
            if weights is not None:
                weights = _check_weights("weights", weights, nnz)
        self.indptr = indptr.astype(np.int64, copy=False)
        self.indices = indices.astype(np.int32, copy=False)
        self.weights = weights
        self.directed = bool(directed)
        self.coords = coords
        self.node_labels = node_labels
        self.n = int(n)
        self.nnz = nnz
        self._cache: dict[str, Any] = {}

    # -- construction ----------------------------------------------------------------
    @classmethod
    def from_edges(
        cls,
        src,
        dst,
        weights=None,
        n: int | None = None,
        *,
        directed: bool = True,
        coords=None,
        device: str | None = None,
    ) -> "Graph":
        """Graph of the arcs ``src[e] -> dst[e]`` (both directions if ``directed=False``).

        Parameters
        ----------
        src, dst : array of int
            Tail and head of each arc (NumPy, CuPy, or lists).
        weights : array, optional
            One weight per arc: float32, float64, int32 or int64 (a list becomes
            int64 or float64, as NumPy reads it); ``None`` for unweighted.
        n : int, optional
            Number of vertices; default ``max(src, dst) + 1``.
        directed : bool
            ``False`` stores each edge in both directions (a self loop once).
        coords : array (n, d), optional
            Vertex coordinates.
        device : {"cpu", "gpu"}, optional
            Where the graph lives; default where ``src`` lives.

        Returns
        -------
        Graph
            Rows sorted by head; parallel arcs kept.

        Raises
        ------
        VertexError
            An id is negative or not below ``n`` (the message names the entry).
        DTypeError, InvalidEntryError
            Unsupported weight dtype; a NaN weight.

        Examples
        --------
        >>> G = Graph.from_edges([0, 1], [1, 2], directed=False)
        >>> G.nnz, G.num_edges
        (4, 2)
        >>> G.indices
        array([1, 0, 2, 1], dtype=int32)
        """
        xp = array_module(src)
        if device is not None and device not in ("cpu", "gpu"):
            raise DeviceError(f"device must be 'cpu' or 'gpu', got {device!r}")
        if device == "gpu" or (device is None and xp is not np):
            if not gpu_available():
                raise DeviceError("device='gpu' was requested but no CUDA GPU is usable")
            import cupy as xp
        else:
            xp = np
        src = xp.asarray(src) if xp is np or is_cupy_array(src) else xp.asarray(np.asarray(src))
        dst = xp.asarray(dst) if xp is np or is_cupy_array(dst) else xp.asarray(np.asarray(dst))
        if xp is np and (is_cupy_array(src) or is_cupy_array(dst)):
            src, dst = np.asarray(src.get() if is_cupy_array(src) else src), np.asarray(
                dst.get() if is_cupy_array(dst) else dst
            )
        if src.shape != dst.shape:
            raise GraphError(f"src and dst must have one shape, got {tuple(src.shape)} and {tuple(dst.shape)}")
        if n is None:
            n = int(max(int(src.max()), int(dst.max()))) + 1 if src.size else 0
        if n < 0:
            raise GraphError(f"n must be >= 0, got {n}")
        src = _check_ids("src", src, n)
        dst = _check_ids("dst", dst, n)
        if weights is not None:
            if is_cupy_array(weights) and xp is np:
                weights = weights.get()
            weights = xp.asarray(weights if (xp is np or is_cupy_array(weights)) else np.asarray(weights))
            weights = _check_weights("weights", weights, src.shape[0])
        if not directed:
            keep = src != dst
            src, dst = xp.concatenate((src, dst[keep])), xp.concatenate((dst, src[keep]))
            if weights is not None:
                weights = xp.concatenate((weights, weights[keep]))
        indptr, indices, w = _build_csr(n, src, dst, weights)
        if coords is not None:
            coords = xp.asarray(coords if (xp is np or is_cupy_array(coords)) else np.asarray(coords))
            if coords.ndim != 2 or coords.shape[0] != n:
                raise GraphError(f"coords must have shape (n, d) = ({n}, d), got {tuple(coords.shape)}")
        return cls(indptr, indices, w, directed=directed, coords=coords, check=False)

    @classmethod
    def from_scipy(cls, A, *, directed: bool = True) -> "Graph":
        """Graph of a square ``scipy.sparse`` (CPU) or ``cupyx.scipy.sparse`` (GPU) matrix.

        Every stored entry is an arc, explicit zeros included; duplicates of a
        non-canonical matrix become parallel arcs.  Boolean data gives an
        unweighted graph.  ``directed=False`` reads the matrix as SciPy's
        ``csgraph`` does with ``directed=False``: the edge ``{i, j}`` has the
        smaller of ``A[i, j]`` and ``A[j, i]``.

        Raises
        ------
        GraphError, DTypeError

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> A = sp.csr_array((np.array([0.0, 3.0]), np.array([1, 0]), np.array([0, 1, 2])))
        >>> G = Graph.from_scipy(A)
        >>> G.nnz, G.weights
        (2, array([0., 3.]))
        >>> Graph.from_scipy(A, directed=False).weights
        array([0., 0.])
        """
        gpu = _is_cupy_sparse(A)
        if not gpu and not _is_scipy_sparse(A):
            raise GraphError(f"expected a scipy.sparse or cupyx.scipy.sparse matrix, got {type(A).__name__}")
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise GraphError(f"an adjacency matrix must be square, got shape {A.shape}")
        A = A.tocsr() if A.format != "csr" else A
        xp = array_module(A.indptr)
        n = A.shape[0]
        data = A.data
        weights = None if data.dtype == np.bool_ else _check_weights("A.data", data, data.shape[0])
        src = _row_ids(xp.asarray(A.indptr, dtype=np.int64))
        G = cls.from_edges(src, A.indices, weights, n=n, directed=True, device="gpu" if gpu else "cpu")
        if directed:
            return G
        return G._symmetrized()

    @classmethod
    def from_dense(cls, D, semiring: Semiring | str = "min_plus", *, directed: bool = True) -> "Graph":
        """Graph of a dense weight matrix: entries other than the semiring zero are arcs.

        ``semiring`` says what "no edge" is (``inf`` for ``min_plus``, ``-inf``
        for ``max_plus``, ``False`` for ``lor_land``...).  Diagonal entries
        equal to the semiring one (0 for ``min_plus``) are the identity, not
        self loops, and are skipped; other diagonal entries are self loops.
        A ``lor_land`` (bool) matrix gives an unweighted graph.

        Raises
        ------
        GraphError, DTypeError, InvalidEntryError

        Examples
        --------
        >>> D = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 0.0], [2.0, np.inf, np.inf]])
        >>> G = Graph.from_dense(D)
        >>> G.nnz, G.weights
        (3, array([1., 0., 2.]))
        """
        S = builtin.get(semiring)
        xp = array_module(D)
        D = xp.asarray(D)
        if D.ndim != 2 or D.shape[0] != D.shape[1]:
            raise GraphError(f"a dense adjacency matrix must be square, got shape {tuple(D.shape)}")
        S.check_dtype("D", D.dtype)
        if D.dtype.kind == "f" and D.size and bool(xp.isnan(D).any()):
            idx = np.unravel_index(int(xp.argmax(xp.isnan(D).ravel())), D.shape)
            raise InvalidEntryError(f"D[{idx[0]}, {idx[1]}] is NaN; a weight must be a number")
        n = D.shape[0]
        edge = D != S.zero_value(D.dtype)
        diag = xp.arange(n)
        edge[diag, diag] &= D[diag, diag] != S.one_value(D.dtype)
        src, dst = xp.nonzero(edge)
        w = None if D.dtype == np.bool_ else D[src, dst]
        return cls.from_edges(src, dst, w, n=n, directed=True, device="gpu" if xp is not np else "cpu") if directed \
            else cls.from_edges(src, dst, w, n=n, directed=True,
                                device="gpu" if xp is not np else "cpu")._symmetrized(S)

    @classmethod
    def from_networkx(cls, nxg, weight: str | None = "weight") -> "Graph":
        """Graph of a NetworkX (Di/Multi)Graph; vertices are numbered in ``nxg.nodes`` order.

        Edges without the ``weight`` attribute weigh 1 (NetworkX's convention);
        if no edge has it (or ``weight=None``) the graph is unweighted.
        Parallel edges of a multigraph are kept.  Non-integer or non-contiguous
        node names are kept in :attr:`node_labels`.

        Examples
        --------
        >>> import networkx as nx
        >>> G = Graph.from_networkx(nx.path_graph(3))
        >>> G.directed, G.nnz, G.weights is None
        (False, 4, True)
        """
        nodes = list(nxg.nodes)
        index = {v: i for i, v in enumerate(nodes)}
        n = len(nodes)
        edges = list(nxg.edges(data=weight, default=None)) if weight is not None else [
            (u, v, None) for u, v in nxg.edges()
        ]
        src = np.fromiter((index[e[0]] for e in edges), dtype=np.int64, count=len(edges))
        dst = np.fromiter((index[e[1]] for e in edges), dtype=np.int64, count=len(edges))
        vals = [e[2] for e in edges]
        w = None
        if any(v is not None for v in vals):
            w = np.asarray([1 if v is None else v for v in vals])
            if w.dtype.kind == "b":
                w = None
        labels = None if nodes == list(range(n)) else nodes
        G = cls.from_edges(src, dst, w, n=n, directed=nxg.is_directed())
        G.node_labels = labels
        return G

    def _symmetrized(self, S: Semiring | str = "min_plus") -> "Graph":
        """Undirected graph: the union of the arcs and their reverses, parallel pairs combined."""
        src, dst, w = self.edges()
        xp = array_module(src)
        keep = src != dst
        s2 = xp.concatenate((src, dst[keep]))
        d2 = xp.concatenate((dst, src[keep]))
        w2 = None if w is None else xp.concatenate((w, w[keep]))
        G = Graph.from_edges(s2, d2, w2, n=self.n, directed=True, coords=self.coords,
                             device="gpu" if xp is not np else "cpu")
        G = G.simplify(S)
        G.directed = False
        return G

    # -- basic properties -------------------------------------------------------------
    @property
    def device(self) -> str:
        """``"cpu"`` or ``"gpu"``: where the arrays live."""
        return "gpu" if is_cupy_array(self.indptr) else "cpu"

    @property
    def xp(self):
        """``numpy`` or ``cupy``."""
        return array_module(self.indptr)

    @property
    def dtype(self) -> np.dtype | None:
        """The weights' dtype, or None for an unweighted graph."""
        return None if self.weights is None else np.dtype(self.weights.dtype)

    @property
    def num_edges(self) -> int:
        """Input edges: arcs if directed, else ``(nnz + self loops) / 2``.

        >>> Graph.from_edges([0, 1], [0, 2], directed=False).num_edges
        2
        """
        if self.directed:
            return self.nnz
        return (self.nnz + self.num_self_loops) // 2

    @property
    def num_self_loops(self) -> int:
        """Number of stored arcs ``v -> v``."""
        if "self_loops" not in self._cache:
            src, dst, _ = self.edges()
            self._cache["self_loops"] = int((src == dst).sum())
        return self._cache["self_loops"]

    @property
    def has_negative_weights(self) -> bool:
        """True if some arc weighs less than zero (cached).

        >>> Graph.from_edges([0], [1], [-1.0]).has_negative_weights
        True
        """
        if "negative" not in self._cache:
            self._cache["negative"] = bool(self.weights is not None and self.nnz and (self.weights < 0).any())
        return self._cache["negative"]

    def out_degree(self):
        """Out-degree of every vertex (int64)."""
        return self.xp.diff(self.indptr)

    def in_degree(self):
        """In-degree of every vertex (int64)."""
        return self.transpose().out_degree()

    def __repr__(self) -> str:
        w = "None" if self.weights is None else str(self.weights.dtype)
        return f"Graph(n={self.n}, nnz={self.nnz}, directed={self.directed}, weights={w}, device={self.device!r})"

    def __len__(self) -> int:
        return self.n

    # -- derived graphs ---------------------------------------------------------------
    def edges(self):
        """COO view: ``(src int32, dst int32, weights or None)``, in CSR order.

        >>> Graph.from_edges([1, 0], [0, 1]).edges()
        (array([0, 1], dtype=int32), array([1, 0], dtype=int32), None)
        """
        if "rows" not in self._cache:
            self._cache["rows"] = _row_ids(self.indptr)
        return self._cache["rows"], self.indices, self.weights

    def transpose(self) -> "Graph":
        """The reversed graph (in-arcs as CSR), built once and kept; an undirected graph is its own.

        >>> G = Graph.from_edges([0, 0], [1, 2])
        >>> G.transpose().indptr
        array([0, 0, 1, 2])
        """
        if not self.directed:
            return self
        if "T" not in self._cache:
            if self.device == "gpu":
                src, dst, w = self.edges()
                T = Graph.from_edges(dst, src, w, n=self.n, coords=self.coords, device="gpu")
            else:
                w = self.weights
                has_w = w is not None
                tp, ti, tw = _csr.csr_transpose(self.n, self.n, self.indptr, self.indices,
                                                w if has_w else np.empty(0, np.float64), has_w)
                T = Graph(tp, ti, tw if has_w else None, coords=self.coords, check=False)
            T._cache["T"] = self
            self._cache["T"] = T
        return self._cache["T"]

    @property
    def T(self) -> "Graph":
        """Shorthand for :meth:`transpose`."""
        return self.transpose()

    def simplify(self, semiring: Semiring | str = "min_plus") -> "Graph":
        """Graph with parallel arcs combined by the semiring's ``add`` (min for ``min_plus``).

        >>> G = Graph.from_edges([0, 0, 0], [1, 1, 2], [4.0, 3.0, 1.0]).simplify()
        >>> G.indices, G.weights
        (array([1, 2], dtype=int32), array([3., 1.]))
        """
        S = builtin.get(semiring)
        indptr, indices, weights = self._combined(S)
        G = Graph(indptr, indices, weights, directed=self.directed, coords=self.coords,
                  node_labels=self.node_labels, check=False)
        G._cache["simple"] = True
        return G

    def _combined(self, S: Semiring):
        """CSR arrays with parallel arcs combined by ``S.add`` (CPU; GPU goes through the host)."""
        if self._cache.get("simple"):
            return self.indptr, self.indices, self.weights
        if self.device == "gpu":
            import cupy as cp

            G = self.to("cpu")
            p, i, w = G._combined(S)
            return cp.asarray(p), cp.asarray(i), None if w is None else cp.asarray(w)
        newptr, starts = _csr.csr_combine_sorted(self.indptr, self.indices)
        if starts.shape[0] == self.nnz:
            self._cache["simple"] = True
            return self.indptr, self.indices, self.weights
        indices = self.indices[starts]
        weights = None
        if self.weights is not None:
            weights = S.add_ufunc.reduceat(self.weights, starts) if starts.size else self.weights[:0].copy()
            weights = weights.astype(self.weights.dtype, copy=False)
        return newptr, indices, weights

    def to(self, device: str) -> "Graph":
        """A copy of the graph on ``"cpu"`` or ``"gpu"`` (the graph itself if already there).

        >>> G = Graph.from_edges([0], [1])
        >>> G.to("cpu") is G
        True
        """
        if device not in ("cpu", "gpu"):
            raise DeviceError(f"device must be 'cpu' or 'gpu', got {device!r}")
        if device == self.device:
            return self
        if device == "gpu":
            if not gpu_available():
                raise DeviceError("device='gpu' was requested but no CUDA GPU is usable")
            import cupy as cp

            move = cp.asarray
        else:
            def move(a):
                return a.get()

        G = Graph(
            move(self.indptr), move(self.indices), None if self.weights is None else move(self.weights),
            directed=self.directed, coords=None if self.coords is None else move(self.coords),
            node_labels=self.node_labels, check=False,
        )
        for key in ("simple", "negative", "self_loops"):
            if key in self._cache:
                G._cache[key] = self._cache[key]
        return G

    # -- conversions out --------------------------------------------------------------
    def to_scipy(self, semiring: Semiring | str = "min_plus"):
        """Canonical CSR matrix (``scipy.sparse.csr_array``, or ``cupyx`` ``csr_matrix`` on the GPU,
        which holds bool, float32 and float64 data only).

        Parallel arcs are combined with the semiring ``add`` (the minimum by
        default: SciPy would *sum* duplicates), explicit zeros are kept (SciPy's
        ``csgraph`` reads them as zero-weight edges), and an unweighted graph
        has boolean data.  Index arrays are int32, as SciPy prefers.

        Examples
        --------
        >>> G = Graph.from_edges([0, 0], [1, 1], [2.0, 0.0])
        >>> A = G.to_scipy()
        >>> A.nnz, A.data
        (1, array([0.]))
        """
        S = builtin.get(semiring)
        indptr, indices, weights = self._combined(S)
        xp = self.xp
        data = xp.ones(indices.shape[0], dtype=bool) if weights is None else weights
        idx_t = np.int32 if indices.shape[0] <= INDEX_LIMIT else np.int64
        if self.device == "gpu":
            import cupyx.scipy.sparse as csp

            if data.dtype.kind == "i":
                raise DTypeError(
                    f"cupyx.scipy.sparse holds bool, float32 and float64 data, not {data.dtype}; "
                    "convert the weights explicitly or use .to('cpu').to_scipy()"
                )
            return csp.csr_matrix((data, indices.astype(idx_t), indptr.astype(idx_t)), shape=(self.n, self.n))
        import scipy.sparse as sp

        return sp.csr_array(
            (data, indices.astype(idx_t), indptr.astype(idx_t)), shape=(self.n, self.n), copy=False
        )

    def to_dense(self, semiring: Semiring | str = builtin.min_plus, dtype=None, diagonal: bool = True):
        """Dense weight matrix: semiring zero off the arcs, parallel arcs combined with ``add``.

        Parameters
        ----------
        semiring : Semiring or str
            Gives "no edge" (its zero), the combination of parallel arcs (its
            add) and the diagonal (its one).
        dtype : dtype, optional
            Default: the weights' dtype; for an unweighted graph float64 (bool
            for ``lor_land``), with weight 1 (True) per arc.  A different dtype
            is an explicit cast of the weights.
        diagonal : bool
            Add the semiring one to the diagonal: ``D[i, i] = add(self loops, one)``
            (for ``min_plus``: the shorter of a self loop and 0).

        Returns
        -------
        ndarray (n, n) on the graph's device.

        Raises
        ------
        DTypeError
            ``dtype`` is not one the semiring supports.

        Examples
        --------
        >>> from semiring import lor_land
        >>> G = Graph.from_edges([0, 1], [1, 1], [3, -2])
        >>> G.to_dense()
        array([[                  0,                   3],
               [9223372036854775807,                  -2]])
        >>> G.to_dense(lor_land)
        array([[ True,  True],
               [False,  True]])
        """
        S = builtin.get(semiring)
        xp = self.xp
        if dtype is None:
            if S.dtypes == (np.dtype(np.bool_),):
                dtype = np.dtype(np.bool_)
            else:
                dtype = self.weights.dtype if self.weights is not None else np.dtype(np.float64)
        dtype = S.check_dtype("dtype", dtype)
        n = self.n
        D = S.zeros((n, n), dtype, like=xp.empty(0)) if xp is not np else S.zeros((n, n), dtype)
        src, dst, w = self.edges()
        if w is None or dtype == np.bool_:
            vals = xp.ones(self.nnz, dtype=dtype)
        else:
            vals = w.astype(dtype, copy=False)
        if self.nnz:
            _scatter_combine(S, D, src, dst, vals)
        if diagonal and n:
            idx = xp.arange(n)
            D[idx, idx] = S.add_ufunc(D[idx, idx], S.one_value(dtype))
        return D

    def to_networkx(self, semiring: Semiring | str = "min_plus"):
        """NetworkX ``DiGraph`` (or ``Graph`` if undirected); parallel arcs combined with ``add``.

        Weights go to the ``"weight"`` edge attribute, coordinates to the
        ``"pos"`` node attribute, :attr:`node_labels` become the node names.

        Examples
        --------
        >>> H = Graph.from_edges([0, 0], [1, 1], [2, 5]).to_networkx()
        >>> list(H.edges(data="weight"))
        [(0, 1, 2)]
        """
        import networkx as nx

        G = self.to("cpu")
        indptr, indices, weights = G._combined(builtin.get(semiring))
        H = nx.DiGraph() if self.directed else nx.Graph()
        labels = self.node_labels if self.node_labels is not None else range(self.n)
        labels = list(labels)
        if G.coords is not None:
            H.add_nodes_from((labels[i], {"pos": tuple(G.coords[i].tolist())}) for i in range(self.n))
        else:
            H.add_nodes_from(labels)
        src = np.repeat(np.arange(self.n), np.diff(indptr))
        if weights is None:
            H.add_edges_from((labels[u], labels[v]) for u, v in zip(src.tolist(), indices.tolist()))
        else:
            H.add_weighted_edges_from(
                (labels[u], labels[v], x) for u, v, x in zip(src.tolist(), indices.tolist(), weights.tolist())
            )
        return H


def _scatter_combine(S: Semiring, D, rows, cols, vals) -> None:
    """``D[r, c] = add(D[r, c], v)`` for every arc, parallel arcs included."""
    xp = array_module(D)
    if xp is np:
        S.add_ufunc.at(D, (rows, cols), vals)
        return
    import cupyx

    ufunc = S.add_ufunc
    if ufunc is np.minimum:
        cupyx.scatter_min(D, (rows, cols), vals)
    elif ufunc is np.maximum:
        cupyx.scatter_max(D, (rows, cols), vals)
    elif ufunc is np.add:
        cupyx.scatter_add(D, (rows, cols), vals)
    elif ufunc is np.logical_or:
        D[rows, cols] = True
    else:
        host = D.get()
        ufunc.at(host, (rows.get(), cols.get()), vals.get())
        D[...] = xp.asarray(host)


def as_graph(obj: Any, semiring: Semiring | str = "min_plus", directed: bool | None = None) -> Graph:
    """Turn a Graph, scipy/cupyx sparse matrix, dense array or NetworkX graph into a :class:`Graph`.

    ``semiring`` says what "no edge" is in a dense array; ``directed`` (for
    matrices; default True) is passed to :meth:`Graph.from_scipy` /
    :meth:`Graph.from_dense`.  A :class:`Graph` passes through unchanged.

    Raises
    ------
    GraphError
        ``obj`` is none of these.

    Examples
    --------
    >>> as_graph(np.array([[0.0, 1.0], [np.inf, 0.0]])).nnz
    1
    """
    if isinstance(obj, Graph):
        return obj
    d = True if directed is None else directed
    if _is_scipy_sparse(obj) or _is_cupy_sparse(obj):
        return Graph.from_scipy(obj, directed=d)
    if isinstance(obj, np.ndarray) or is_cupy_array(obj):
        return Graph.from_dense(obj, semiring, directed=d)
    mod = type(obj).__module__ or ""
    if mod.startswith("networkx"):
        return Graph.from_networkx(obj)
    raise GraphError(
        f"cannot make a graph of {type(obj).__name__}; pass a graphs.Graph, a scipy/cupyx sparse matrix, "
        "a dense array or a NetworkX graph"
    )
