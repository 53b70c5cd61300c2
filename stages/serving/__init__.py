"""Serving: measuring a server under load — the infer stage's figures, load levels, SLO search.

Uses :mod:`stages.inference` (plan, client, journal) to send; inference never imports serving.
"""
