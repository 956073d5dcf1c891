"""The notebook sugar: ``S.array(A)`` with ``@``, ``+``, ``*``, ``**``, ``.star()``, ``.T``, ``.data``."""

from __future__ import annotations

import numpy as np
from strategies import random_matrix

import apsp  # noqa: F401 - registers the closure behind .star() (an installed package finds it by entry point)
import semiring as sr


def test_operators_match_methods():
    S = sr.max_min
    rng = np.random.default_rng(4)
    A = random_matrix(S, (6, 6), "int32", rng)
    B = random_matrix(S, (6, 6), "int32", rng)
    X, Y = S.array(A), S.array(B)
    np.testing.assert_array_equal((X @ Y).data, S.matmul(A, B))
    np.testing.assert_array_equal((X @ B).data, S.matmul(A, B))
    np.testing.assert_array_equal((A @ Y).data, S.matmul(A, B))
    np.testing.assert_array_equal((X + Y).data, np.maximum(A, B))
    np.testing.assert_array_equal((X * Y).data, np.minimum(A, B))
    np.testing.assert_array_equal((X**3).data, S.matmul(S.matmul(A, A), A))
    np.testing.assert_array_equal(X.T.data, A.T)
    assert X.shape == (6, 6) and X.dtype == np.int32 and X.semiring is S
    assert "max_min.array" in repr(X)


def test_star_is_closure():
    S = sr.min_plus
    A = np.array([[0.0, 3.0, np.inf], [np.inf, 0.0, -1.0], [2.0, np.inf, 0.0]])
    star = S.array(A).star().data
    want = S.power(A, 2)  # n - 1 = 2 squarings reach every simple path of a 3-vertex graph
    np.testing.assert_array_equal(star, want)
