"""Conversions between a :class:`graphs.Graph` and other libraries' graphs and matrices.

SciPy and CuPy sparse matrices, dense weight matrices (NumPy or CuPy) and
NetworkX graphs, both ways.  They are methods of :class:`graphs.Graph`
(``Graph.from_scipy(A)``, ``G.to_dense()``, ...), written here in the mixin
class :class:`GraphConversions` that ``Graph`` inherits from, so that the
container module (:mod:`graphs.graph`) holds the container and this one the
conversions.

The imports go one way, ``graphs.graph -> graphs.convert``: this module never
imports :mod:`graphs.graph`, not even for type hints (the constructors return
``Self``, which is ``Graph`` on ``Graph``), so the methods build graphs
with ``cls.from_edges`` and read them through the container's own methods
(``edges``, ``_combined``, ``to``, ``_symmetrized``).  :func:`graphs.as_graph`,
which picks one of these constructors for an object, lives in
:mod:`graphs.graph` with ``Graph`` (``isinstance`` needs the class).

Conventions (see :mod:`graphs.graph`): explicit zeros are arcs of length 0,
parallel arcs are combined with the semiring's ``add`` where one value per
vertex pair is needed, an unweighted graph converts to boolean data.
"""

from __future__ import annotations

import sys
from typing import Any, Self, TypeVar

import numpy as np

from apsp.planner import float32_exact
from semiring import builtin
from semiring.backend import array_module, to_device
from semiring.core import Semiring
from semiring.dense import scatter_add
from semiring.errors import DTypeError, InvalidEntryError

from .csr_arrays import combine_sorted, row_ids
from .errors import GraphError
from .validate import INDEX_LIMIT, cast_weights, check_weights

__all__ = ["GraphConversions", "is_scipy_sparse", "is_cupy_sparse"]

_G = TypeVar("_G", bound="GraphConversions")


def is_scipy_sparse(obj: Any) -> bool:
    """True for a ``scipy.sparse`` matrix or array."""
    import scipy.sparse as sp

    return sp.issparse(obj)


def is_cupy_sparse(obj: Any) -> bool:
    """True for a ``cupyx.scipy.sparse`` matrix (CuPy is not imported unless it already is)."""

    if "cupyx.scipy.sparse" not in sys.modules:
        return False
    import cupyx.scipy.sparse as csp

    return csp.issparse(obj)


class GraphConversions:
    """The conversions of :class:`graphs.Graph` to and from other libraries (a mixin; use them on ``Graph``)."""

    @classmethod
    def from_scipy(cls, A, *, directed: bool = True, duplicates: str = "keep") -> Self:
        """Graph of a square ``scipy.sparse`` (CPU) or ``cupyx.scipy.sparse`` (GPU) matrix.

        Every stored entry is an arc, explicit zeros included.  Boolean data
        gives an unweighted graph.  ``directed=False`` reads the matrix as
        SciPy's ``csgraph`` does with ``directed=False``: the edge ``{i, j}``
        has the smaller of ``A[i, j]`` and ``A[j, i]``.

        Parameters
        ----------
        A : scipy.sparse or cupyx.scipy.sparse matrix or array, square
        directed : bool
        duplicates : {"keep", "sum"}
            What the duplicate entries of a non-canonical matrix (a COO matrix
            listing ``(i, j)`` twice, an unsorted CSR) become.  ``"keep"`` (the
            default): parallel arcs, which the algorithms combine with their
            semiring's ``add`` (for ``min_plus`` the shortest counts), as for
            any multigraph.  ``"sum"``: one arc weighing their sum, which is
            what SciPy itself (``A.sum_duplicates()``, ``scipy.sparse.csgraph``)
            does; integer sums must fit the dtype (an error names the entry
            otherwise), float sums must stay finite.

        Raises
        ------
        GraphError
            Not a square sparse matrix; unknown ``duplicates``.
        DTypeError, InvalidEntryError
            Unsupported data dtype; a NaN or ``+inf`` entry (or sum).

        Examples
        --------
        >>> from graphs import Graph
        >>> import scipy.sparse as sp
        >>> A = sp.csr_array((np.array([0.0, 3.0]), np.array([1, 0]), np.array([0, 1, 2])))
        >>> G = Graph.from_scipy(A)
        >>> G.nnz, G.weights
        (2, array([0., 3.]))
        >>> Graph.from_scipy(A, directed=False).weights
        array([0., 0.])
        >>> C = sp.coo_array((np.array([3.0, 5.0]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
        >>> Graph.from_scipy(C).weights, Graph.from_scipy(C, duplicates="sum").weights
        (array([3., 5.]), array([8.]))
        """
        gpu = is_cupy_sparse(A)
        if not gpu and not is_scipy_sparse(A):
            raise GraphError(f"expected a scipy.sparse or cupyx.scipy.sparse matrix, got {type(A).__name__}")
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise GraphError(f"an adjacency matrix must be square, got shape {A.shape}")
        if duplicates not in ("keep", "sum"):
            raise GraphError(f"duplicates must be 'keep' or 'sum', got {duplicates!r}")
        n = A.shape[0]
        if A.format == "csr":
            xp = array_module(A.indptr)
            src, dst, data = row_ids(xp.asarray(A.indptr, dtype=np.int64)), A.indices, A.data
        else:
            # COO keeps duplicates as they are listed (A.tocsr() of a COO matrix would sum them).
            C = A.tocoo()
            src, dst, data = C.row, C.col, C.data
        weights = None if data.dtype == np.bool_ else check_weights("A.data", data, data.shape[0])
        G = cls.from_edges(src, dst, weights, n=n, directed=True, device="gpu" if gpu else "cpu")
        if duplicates == "sum":
            G = _summed(cls, G)
        if directed:
            return G
        return G._symmetrized()

    @classmethod
    def from_dense(cls, D, semiring: Semiring | str = "min_plus", *, directed: bool = True, name: str = "D") -> Self:
        """Graph of a dense weight matrix: entries other than the semiring zero are arcs.

        ``semiring`` says what "no edge" is (``inf`` for ``min_plus``, ``-inf``
        for ``max_plus``, ``False`` for ``lor_land``...).  Diagonal entries
        equal to the semiring one (0 for ``min_plus``) are the identity, not
        self loops, and are skipped; other diagonal entries are self loops.
        A ``lor_land`` (bool) matrix gives an unweighted graph.  ``name`` is
        how the error messages call ``D``.

        Raises
        ------
        GraphError, DTypeError, InvalidEntryError

        Examples
        --------
        >>> from graphs import Graph
        >>> D = np.array([[0.0, 1.0, np.inf], [np.inf, 0.0, 0.0], [2.0, np.inf, np.inf]])
        >>> G = Graph.from_dense(D)
        >>> G.nnz, G.weights
        (3, array([1., 0., 2.]))
        """
        S = builtin.get(semiring)
        xp = array_module(D)
        D = xp.asarray(D)
        S.check_dtype(name, D.dtype)
        if D.ndim != 2 or D.shape[0] != D.shape[1]:
            raise GraphError(f"a dense adjacency matrix must be square, got shape {tuple(D.shape)}")
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
    def from_networkx(cls, nxg, weight: str | None = "weight") -> Self:
        """Graph of a NetworkX (Di/Multi)Graph; vertices are numbered in ``nxg.nodes`` order.

        Edges without the ``weight`` attribute weigh 1 (NetworkX's convention);
        if no edge has it (or ``weight=None``) the graph is unweighted.
        Parallel edges of a multigraph are kept.  Non-integer or non-contiguous
        node names are kept in :attr:`node_labels`.

        Examples
        --------
        >>> from graphs import Graph
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

    def to_scipy(self, semiring: Semiring | str = "min_plus"):
        """Canonical CSR matrix (``scipy.sparse.csr_array``, or ``cupyx`` ``csr_matrix`` on the GPU,
        which holds bool, float32 and float64 data only).

        Parallel arcs are combined with the semiring ``add`` (the minimum by
        default: SciPy would *sum* duplicates), explicit zeros are kept (SciPy's
        ``csgraph`` reads them as zero-weight edges), and an unweighted graph
        has boolean data.  Index arrays are int32, as SciPy prefers.

        Examples
        --------
        >>> from graphs import Graph
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

    def to_dense(self, semiring: Semiring | str = builtin.min_plus, dtype=None, diagonal: bool = True, out=None):
        """Dense weight matrix: semiring zero off the arcs, parallel arcs combined with ``add``.

        Parameters
        ----------
        semiring : Semiring or str
            Gives "no edge" (its zero), the combination of parallel arcs (its
            add) and the diagonal (its one).
        dtype : dtype, optional
            Default: the weights' dtype; for an unweighted graph float64 (bool
            for ``lor_land``), with weight 1 (True) per arc.  A different dtype
            converts the weights exactly or not at all
            (:func:`graphs.validate.cast_weights`): ``+inf`` / ``-inf`` become
            the target's infinities (for integers the sentinels ``iinfo.max`` /
            ``iinfo.min``); a finite weight the target cannot hold (not
            integral, out of range, or landing on a sentinel) is an error.
        diagonal : bool
            Add the semiring one to the diagonal: ``D[i, i] = add(self loops, one)``
            (for ``min_plus``: the shorter of a self loop and 0).
        out : array (n, n), optional
            Write the matrix into this array (of ``dtype``, on the graph's
            device; a ``numpy.memmap`` works) instead of allocating one.

        Returns
        -------
        ndarray (n, n) on the graph's device (``out`` when given).

        Raises
        ------
        DTypeError
            ``dtype`` is not one the semiring supports; ``out`` is not of ``dtype``.
        GraphError
            ``out`` is not ``(n, n)``.
        InvalidEntryError
            A weight has no exact value in ``dtype`` (the message names it).

        Examples
        --------
        >>> from graphs import Graph
        >>> from semiring import lor_land
        >>> Graph.from_edges([0], [1], [-np.inf]).to_dense(dtype=np.int32)
        array([[          0, -2147483648],
               [ 2147483647,           0]], dtype=int32)
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
        if out is not None:
            if out.shape != (n, n):
                raise GraphError(f"out must be an ({n}, {n}) array of {dtype}, got {out.shape} {out.dtype}")
            if out.dtype != dtype:
                raise DTypeError(f"out must be an ({n}, {n}) array of {dtype}, got {out.shape} {out.dtype}")
            D = out
            D[...] = S.zero_value(dtype)
        else:
            D = S.zeros((n, n), dtype, like=xp.empty(0)) if xp is not np else S.zeros((n, n), dtype)
        src, dst, w = self.edges()
        if w is None or dtype == np.bool_:
            vals = xp.ones(self.nnz, dtype=dtype)
        else:
            vals = cast_weights("weights", w, dtype)
        if self.nnz:
            scatter_add(S, D, src, dst, vals)
        if diagonal and n:
            idx = xp.arange(n)
            D[idx, idx] = S.add_ufunc(D[idx, idx], S.one_value(dtype))
        return D

    def __semiring_matrix__(self, semiring: Semiring | str = builtin.min_plus, dtype=None, device=None, out=None):
        """The dense matrix :mod:`apsp` works on (the protocol of :mod:`apsp.matrix_input`).

        ``to_dense(semiring, dtype, out=out)``, moved to ``device`` (``"cpu"``
        or ``"gpu"``; default: the graph's) when no ``out`` is given.

        Examples
        --------
        >>> from graphs import Graph
        >>> import apsp
        >>> apsp.shortest_paths(Graph.from_edges([0, 1], [1, 2], [1.0, 2.0]))
        array([[ 0.,  1.,  3.],
               [inf,  0.,  2.],
               [inf, inf,  0.]])
        """
        D = self.to_dense(semiring, dtype=dtype, out=out)
        if out is None and device is not None and device != self.device:

            D = to_device(D, device)
        return D

    def __semiring_arcs__(self, semiring: Semiring | str = builtin.min_plus, dtype=None):
        """The arcs as host arrays ``(rows, cols, values)`` in ``dtype``, for a matrix built in pieces.

        What :func:`to_dense` scatters (without the diagonal): ``values`` is
        ``None`` for an unweighted graph (every arc weighs the semiring's
        ``1``, ``True`` for bool); weights are converted exactly or not at
        all, as in :func:`to_dense`.  The Dask driver of :mod:`apsp` sends
        each row block's arcs to the worker that owns it.

        >>> from graphs import Graph
        >>> Graph.from_edges([0, 1], [1, 0], [2, 3]).__semiring_arcs__(dtype=np.float32)
        (array([0, 1]), array([1, 0]), array([2., 3.], dtype=float32))
        """
        S = builtin.get(semiring)
        G = self.to("cpu")
        if dtype is None:
            dtype = self.__semiring_matrix_info__(S)["dtype"]
        dtype = S.check_dtype("dtype", dtype)
        src, dst, w = G.edges()
        vals = None if w is None or dtype == np.bool_ else cast_weights("weights", w, dtype)
        return np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), vals

    def __semiring_matrix_info__(self, semiring: Semiring | str = builtin.min_plus) -> dict:
        """What a planner needs before building the dense matrix: ``n``, ``dtype``, ``device``,
        ``nnz``, ``weighted`` and ``float32_exact`` (see :func:`apsp.planner.float32_exact`).

        >>> from graphs import Graph
        >>> Graph.from_edges([0], [1]).__semiring_matrix_info__()["float32_exact"]
        True
        """

        S = builtin.get(semiring)
        if S.dtypes == (np.dtype(np.bool_),):
            dtype = np.dtype(np.bool_)
        else:
            dtype = self.weights.dtype if self.weights is not None else np.dtype(np.float64)
        return {
            "n": self.n,
            "dtype": np.dtype(dtype),
            "device": self.device,
            "nnz": self.nnz,
            "weighted": self.weights is not None,
            "float32_exact": float32_exact(S.name, self.n, self.weights),
        }

    def to_networkx(self, semiring: Semiring | str = "min_plus"):
        """NetworkX ``DiGraph`` (or ``Graph`` if undirected); parallel arcs combined with ``add``.

        Weights go to the ``"weight"`` edge attribute, coordinates to the
        ``"pos"`` node attribute, :attr:`node_labels` become the node names.

        Examples
        --------
        >>> from graphs import Graph
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


def _summed(cls: type[_G], G: _G) -> _G:
    """``G`` with each run of parallel arcs replaced by one arc weighing their sum (exact, or an error)."""
    if G.weights is None:
        return G.simplify("lor_land")
    G0 = G.to("cpu")
    newptr, starts = combine_sorted(G0.indptr, G0.indices)
    if starts.shape[0] == G0.nnz:
        return G
    w = G0.weights
    if w.dtype.kind == "i":
        info = np.iinfo(w.dtype)
        wide = w.astype(np.int64)
        sums = np.add.reduceat(wide, starts) if w.dtype == np.int32 else None
        if sums is None:
            # int64: find the runs whose sum might leave the range in float64, sum those exactly.
            approx = np.add.reduceat(w.astype(np.float64), starts)
            sums = np.add.reduceat(wide, starts)
            ends = np.append(starts[1:], G0.nnz)
            for r in np.flatnonzero(np.abs(approx) >= 2.0**62).tolist():
                exact = sum(int(x) for x in w[starts[r]:ends[r]].tolist())
                sums[r] = exact if info.min < exact < info.max else (info.max if exact > 0 else info.min)
        bad = (sums <= info.min) | (sums >= info.max)
        if bad.any():
            r = int(np.argmax(bad))
            i = int(np.searchsorted(newptr, r, side="right")) - 1
            raise InvalidEntryError(
                f"the duplicates of A[{i}, {int(G0.indices[starts[r]])}] sum beyond {w.dtype} "
                f"(finite values lie strictly between {info.min} and {info.max})"
            )
        sums = sums.astype(w.dtype)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            sums = np.add.reduceat(w, starts)
        bad = ~np.isfinite(sums) & np.isfinite(np.minimum.reduceat(w, starts))
        if bad.any():
            r = int(np.argmax(bad))
            i = int(np.searchsorted(newptr, r, side="right")) - 1
            raise InvalidEntryError(f"the duplicates of A[{i}, {int(G0.indices[starts[r]])}] sum to "
                                    f"{sums[r].item()!r}, not a finite {w.dtype}")
    indptr, indices = newptr, G0.indices[starts]
    if G.device == "gpu":
        import cupy as cp

        indptr, indices, sums = cp.asarray(indptr), cp.asarray(indices), cp.asarray(sums)
    H = cls(indptr, indices, sums, directed=G.directed, coords=G.coords, check=False)
    H._cache["simple"] = True
    return H


