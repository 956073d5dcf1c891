"""NetworkX's conversion cache off for a test module: every served call converts its graph, as a user's first does.

A test module that imports :func:`no_conversion_cache` (autouse) runs each of its tests with the cache off;
one that imports :func:`no_conversion_cache_for_module`, the whole module at once.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

__all__ = ["no_conversion_cache", "no_conversion_cache_for_module"]


def _cache_off() -> Iterator[None]:
    import networkx as nx  # here: a module that imports this skips itself where NetworkX is missing

    before = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = False
    yield
    nx.config.cache_converted_graphs = before


no_conversion_cache = pytest.fixture(autouse=True)(_cache_off)
no_conversion_cache_for_module = pytest.fixture(autouse=True, scope="module")(_cache_off)
