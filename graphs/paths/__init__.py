"""Shortest paths: one source, many sources, one pair, all pairs, and trees that absorb updates, on one search engine (:mod:`.engine`)."""
