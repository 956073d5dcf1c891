"""Traversal: breadth-first search, st-connectivity and connected components (CPU kernels and their drivers)."""
