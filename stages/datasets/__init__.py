"""Datasets: row and card schemas, loading, the check stage, the registry of published ids."""
