"""Centrality and distance statistics: betweenness, closeness, harmonic, eccentricity and its relatives, on one many-source engine (:mod:`.engine`)."""
