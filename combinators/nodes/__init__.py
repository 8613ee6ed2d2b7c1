"""Public nodes, one per module."""
