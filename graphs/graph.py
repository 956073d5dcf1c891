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

This module holds the container: its CSR arrays and their invariants, its
properties, the derived graphs (transpose, simplified) and the move between
devices (:meth:`Graph.to`), plus :func:`as_graph`.  Around it:
:mod:`graphs.convert` (the conversions from and to SciPy, CuPy, dense arrays
and NetworkX, which ``Graph`` inherits as methods), :mod:`graphs.validate`
(the checks of weights and vertex ids, :data:`WEIGHT_DTYPES`) and
:mod:`graphs.csr_arrays` (CSR from COO and back, on either device).

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

from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from semiring import builtin
from semiring.backend import array_module, gpu_available, is_cupy_array
from semiring.core import Semiring
from semiring.errors import DeviceError, DTypeError

from .convert import GraphConversions, is_cupy_sparse, is_scipy_sparse
from .csr_arrays import build_csr, combine_sorted, row_ids, transpose_csr
from .errors import GraphError
from .validate import INDEX_LIMIT, WEIGHT_DTYPES, check_coords, check_ids, check_size, check_weight_dtype, check_weights

if TYPE_CHECKING:
    from semiring.array_types import Array

__all__ = ["Graph", "as_graph", "WEIGHT_DTYPES"]


class Graph(GraphConversions):
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
        indptr: Any,
        indices: Any,
        weights: Any = None,
        *,
        directed: bool = True,
        coords: Any = None,
        node_labels: list[Any] | None = None,
        check: bool = True,
    ) -> None:
        if isinstance(indptr, np.ndarray) and isinstance(indices, np.ndarray) and (
                weights is None or isinstance(weights, np.ndarray)):
            xp = np  # host arrays: no device to ask about
        else:
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
            check_ids("indices", indices, n)
            if weights is not None:
                weights = check_weights("weights", weights, nnz)
            if coords is not None:
                coords = check_coords(xp.asarray(coords), n)
        self.indptr = indptr.astype(np.int64, copy=False)
        #: ``"cpu"`` or ``"gpu"``: where the arrays live.
        self.device: str = "cpu" if xp is np else "gpu"
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
        src: Any,
        dst: Any,
        weights: Any = None,
        n: int | None = None,
        *,
        directed: bool = True,
        coords: Any = None,
        device: Literal["cpu", "gpu"] | None = None,
    ) -> "Graph":
        """Graph of the arcs ``src[e] -> dst[e]`` (both directions if ``directed=False``).

        Parameters
        ----------
        src, dst : array of int
            Tail and head of each arc (NumPy, CuPy, or lists).
        weights : array, optional
            One weight per arc: float32, float64, int32 or int64 (a list becomes
            int64 or float64, as NumPy reads it); ``None`` for unweighted.
            Finite, or ``-inf``: an arc of weight ``+inf`` (for integers the
            ``iinfo.max`` sentinel that stands for it) is no arc and an error;
            integer weights saturate at the sentinels in every algorithm (see
            :mod:`semiring.dtypes`).
        n : int, optional
            Number of vertices (a Python or NumPy integer, at most ``2**31 - 1``);
            default ``max(src, dst) + 1``.  Checked, with the memory the CSR
            needs, before anything of that size is allocated.
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
        TypeError
            ``n`` is not an integer.
        GraphError
            ``n`` (or the largest id + 1) exceeds ``2**31 - 1``, or the CSR
            arrays would not fit in the available memory (the message names
            the size and the limit).
        DTypeError, InvalidEntryError
            Unsupported weight dtype; a NaN or ``+inf`` weight.

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
            import cupy as xp  # type: ignore[no-redef]  # CuPy in NumPy's place (untyped: Any)
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
            src = check_ids("src", src, None)  # integer ids before their max
            dst = check_ids("dst", dst, None)
            n = int(max(int(src.max()), int(dst.max()))) + 1 if src.size else 0
            name = "max(src, dst) + 1"
        else:
            name = "n"
        m = src.shape[0] if directed else 2 * src.shape[0]
        itemsize = 0 if weights is None else 8
        n = check_size(name, n, m, itemsize)
        src = check_ids("src", src, n)
        dst = check_ids("dst", dst, n)
        if weights is not None:
            if is_cupy_array(weights) and xp is np:
                weights = weights.get()
            weights = xp.asarray(weights if (xp is np or is_cupy_array(weights)) else np.asarray(weights))
            weights = check_weights("weights", weights, src.shape[0])
        indptr, indices, w = build_csr(n, src, dst, weights, both_ways=not directed)
        if coords is not None:
            coords = check_coords(xp.asarray(coords if (xp is np or is_cupy_array(coords)) else np.asarray(coords)), n)
        return cls(indptr, indices, w, directed=directed, coords=coords, check=False)

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
    def xp(self) -> ModuleType:
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

    def out_degree(self) -> Array:
        """Out-degree of every vertex (int64)."""
        return self.xp.diff(self.indptr)

    def in_degree(self) -> Array:
        """In-degree of every vertex (int64)."""
        return self.transpose().out_degree()

    def __repr__(self) -> str:
        w = "None" if self.weights is None else str(self.weights.dtype)
        return f"Graph(n={self.n}, nnz={self.nnz}, directed={self.directed}, weights={w}, device={self.device!r})"

    def __len__(self) -> int:
        return self.n

    # -- derived graphs ---------------------------------------------------------------
    def edges(self) -> tuple[Array, Array, Array | None]:
        """COO view: ``(src int32, dst int32, weights or None)``, in CSR order.

        >>> Graph.from_edges([1, 0], [0, 1]).edges()
        (array([0, 1], dtype=int32), array([1, 0], dtype=int32), None)
        """
        if "rows" not in self._cache:
            self._cache["rows"] = row_ids(self.indptr)
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
                tp, ti, tw = transpose_csr(self.n, self.n, self.indptr, self.indices, self.weights)
                T = Graph(tp, ti, tw, coords=self.coords, check=False)
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

    def _combined(self, S: Semiring) -> tuple[Array, Array, Array | None]:
        """CSR arrays with parallel arcs combined by ``S.add`` (CPU; GPU goes through the host)."""
        if self._cache.get("simple"):
            return self.indptr, self.indices, self.weights
        if self.device == "gpu":
            import cupy as cp

            G = self.to("cpu")
            p, i, w = G._combined(S)
            return cp.asarray(p), cp.asarray(i), None if w is None else cp.asarray(w)
        newptr, starts = combine_sorted(self.indptr, self.indices)
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
            def move(a: Any) -> Any:
                return a.get()

        G = Graph(
            move(self.indptr), move(self.indices), None if self.weights is None else move(self.weights),
            directed=self.directed, coords=None if self.coords is None else move(self.coords),
            node_labels=self.node_labels, check=False,
        )
        for key in ("simple", "negative", "weight_facts", "self_loops", "label_index", "file_id_base"):
            if key in self._cache:
                G._cache[key] = self._cache[key]
        return G


def as_graph(obj: Any, semiring: Semiring | str = "min_plus", directed: bool | None = None, *,
             name: str = "obj") -> Graph:
    """Turn a Graph, scipy/cupyx sparse matrix, dense array or NetworkX graph into a :class:`Graph`.

    The graph algorithms' door: each of them passes its graph argument here.
    ``semiring`` says what "no edge" is in a dense array; ``directed`` (for
    matrices; default True) is passed to :meth:`Graph.from_scipy` /
    :meth:`Graph.from_dense`.  A :class:`Graph` passes through unchanged.
    ``name`` is how the error messages call ``obj`` (the caller's argument,
    ``"G"`` for the algorithms).

    Raises
    ------
    GraphError
        ``obj`` is none of these.
    DTypeError
        A matrix of a dtype no graph holds: a dense array of a dtype the
        semiring does not accept, a sparse matrix of neither a weight dtype
        (float32, float64, int32, int64) nor bool; the message names ``name``.

    Examples
    --------
    >>> as_graph(np.array([[0.0, 1.0], [np.inf, 0.0]])).nnz
    1
    >>> as_graph(np.eye(2, dtype=complex), name="G")
    Traceback (most recent call last):
    ...
    semiring.errors.DTypeError: min_plus does not support dtype complex128 of G; use one of: float32, float64, int32, int64
    """
    if isinstance(obj, Graph):
        return obj
    d = True if directed is None else directed
    if is_scipy_sparse(obj) or is_cupy_sparse(obj):
        check_weight_dtype(name, obj.dtype, unweighted=True)
        return Graph.from_scipy(obj, directed=d)
    if isinstance(obj, np.ndarray) or is_cupy_array(obj):
        return Graph.from_dense(obj, semiring, directed=d, name=name)
    mod = type(obj).__module__ or ""
    if mod.startswith("networkx"):
        return Graph.from_networkx(obj)
    raise GraphError(
        f"cannot make a graph of {type(obj).__name__}; pass a graphs.Graph, a scipy/cupyx sparse matrix, "
        "a dense array or a NetworkX graph"
    )
