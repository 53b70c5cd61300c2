"""Scoring: answer extraction and one module per row scorer (spec 001, "Answer extraction")."""
