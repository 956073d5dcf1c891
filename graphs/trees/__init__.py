"""Spanning forests (Boruvka on the CPU)."""
